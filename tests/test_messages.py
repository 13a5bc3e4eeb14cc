"""What players are told: sentences that read right, tables that line up, voting hints
for voters only, and colour where it is on. Checked over real TCP connections."""

from __future__ import annotations

import re

from tests.players import ScriptedPlayer, flat, loosely
from tests.test_hints import game_of

# Item 21: grammar and layout.


async def test_destroying_a_thing_with_one_card_on_it_reads_right(server):
    ann, bo = await game_of(server, ["Ann", "Bo"])
    first, second = [c for c in await ann.hand()][:2]
    await ann.ask(f"play {first.number}")
    await ann.ask(f"play {second.number} on {first.number}")
    reply = flat(await bo.ask(f"destroy {first.number}"))
    assert f"Played on it, #{second.number} {second.name} (Thing) also goes to the discard pile." in reply


async def test_destroying_your_own_thing_says_your_own_and_their_own(server):
    ann, bo = await game_of(server, ["Ann", "Bo"])
    thing = (await bo.hand())[0]
    await bo.ask(f"play {thing.number}")
    reply = flat(await bo.ask(f"destroy {thing.number}"))
    assert f"You destroy your own #{thing.number} {thing.name} (Thing)." in reply
    await ann.client.expect(loosely(f"Bo destroys their own #{thing.number} {thing.name} (Thing)."))
    assert "Bo's" not in ann.client.transcript


async def test_taking_a_card_from_a_hand_reads_as_taking(server):
    ann, bo, cy = await game_of(server, ["Ann", "Bo", "Cy"], handsize=2)
    card = (await bo.hand())[0]
    reply = flat(await ann.ask(f"givecard {card.number} to me"))
    assert f"You take #{card.number} {card.name} (Thing) from Bo's hand." in reply
    await bo.client.expect(loosely(f"Ann takes #{card.number} {card.name} (Thing) from your hand."))
    await cy.client.expect(loosely(f"Ann takes #{card.number} {card.name} (Thing) from Bo's hand."))
    own = (await cy.hand())[0]
    await cy.ask(f"givecard {own.number} to bo")
    await bo.client.expect(loosely(f"Cy gives #{own.number} {own.name} (Thing) to you from their own hand."))
    assert "to you from" not in ann.client.transcript


async def test_special_rules_are_listed_one_to_a_line(server):
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    await ann.ask("newroom Rulebook")
    await ann.ask("loadrule No Eggs/Nobody may have eggs.")
    await ann.ask("loadrule Winning/Whoever has three robots wins.")
    look = await ann.ask("look")
    assert "Special rules:\n  #1 No Eggs (rule): Nobody may have eggs.\n  #2 Winning (rule): Whoever" in look
    assert ".;" not in flat(look)


async def test_a_revote_names_the_card_without_its_text_in_the_sentence(server):
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    bo = await ScriptedPlayer.connect(server.port, "Bo")
    await ann.ask("newroom Votes")
    await bo.ask("join Votes")
    await ann.ask("newcard Tree/T/A tree. Whoever has three wins.")
    await bo.ask("repeal 1")
    reply = await bo.ask("revote 1")
    assert flat(reply).startswith("You put #1 Tree to the vote again: #1 Tree (Thing): A tree. Whoever has three")
    assert "wins. to the vote" not in flat(reply)


async def test_clearing_an_empty_deck_says_it_was_empty(server):
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    await ann.ask("newroom Empty")
    assert flat(await ann.ask("cleardeck")) == "You clear the deck: it was already empty."
    await ann.ask("loadcard Hat/T/A hat.")
    assert flat(await ann.ask("cleardeck")) == "You clear the deck: 1 card or rule is gone."


async def test_saving_a_deck_tells_the_saver_you(server):
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    bo = await ScriptedPlayer.connect(server.port, "Bo")
    await ann.ask("newroom Saving")
    await bo.ask("join Saving")
    assert flat(await ann.ask("savedeck Mine")) == "You save the room as deck Mine (0 cards)."
    await bo.client.expect(r"Ann saves the room as deck Mine \(0 cards\)\.")
    assert flat(await ann.ask("savedeck Mine")) == "You save the room again as deck Mine (0 cards)."
    assert flat(await ann.ask("deletedeck Mine")) == "You delete the saved deck Mine."
    await bo.client.expect(r"Ann deletes the saved deck Mine\.")
    assert flat(await ann.ask("viewall")).startswith("You list every card in the deck (0):")
    await bo.client.expect(r"Ann lists every card in the deck \(0\):")
    assert "Ann saves" not in ann.client.transcript and "Ann deletes" not in ann.client.transcript


async def test_settings_are_one_aligned_table(server):
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    await ann.ask("newroom Settings")
    rows = [line for line in (await ann.ask("settings")).splitlines()[1:-1] if not line.startswith(" ")]
    assert len(rows) >= 10 and any(row.startswith("vote ") for row in rows)
    meaning_columns = {re.match(r"\S+ +\S+ +", row).end() for row in rows}
    assert len(meaning_columns) == 1, rows


async def test_readcard_shows_the_card_colour_when_colour_is_on(server):
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    await ann.ask("newroom Colours")
    await ann.ask("loadcard hr/Ruby Slipper/Thing/Click your heels.")
    await ann.ask("@color on")
    raw = await ann.ask("readcard 1")
    assert "#1 \x1b[1;31mRuby Slipper\x1b[0m" in raw
    await ann.ask("@color off")
    assert (await ann.ask("readcard 1")).startswith("#1 Ruby Slipper\n")


async def test_exportdeck_tsv_keeps_the_special_rules(server):
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    await ann.ask("newroom Export")
    await ann.ask("loadcard Hat/T/A hat.")
    await ann.ask("loadrule No Eggs/Nobody may have eggs.")
    rows = (await ann.ask("exportdeck tsv")).splitlines()
    assert rows[1].split("\t")[0] == "Hat"
    assert rows[2].split("\t") == ["No Eggs", "Export", "", "Rule", "", "Nobody may have eggs.", "", "Ann"]


# Item 22: voting hints for voters only; a failed removal.


async def test_only_voters_are_told_how_to_vote(server):
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    bo = await ScriptedPlayer.connect(server.port, "Bo")
    sam = await ScriptedPlayer.connect(server.port, "Sam")
    await ann.ask("newroom Chamber")
    await bo.ask("join Chamber")
    await sam.ask("watch Chamber")
    assert "Vote with: approve 1 or repeal 1" in flat(await ann.ask("newcard Hat/T/A hat."))
    await bo.client.expect(r"Vote with: approve 1 +or +repeal 1")
    await sam.client.expect(loosely("Ann proposes a new card: #1 Hat (Thing): A hat."))
    await sam.client.quiet(0.3)
    assert "Vote with" not in sam.client.transcript


async def test_a_failed_removal_says_the_card_stays(server):
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    bo = await ScriptedPlayer.connect(server.port, "Bo")
    await ann.ask("newroom Keep")
    await bo.ask("join Keep")
    await ann.ask("loadcard Hat/T/A hat.")
    await ann.ask("loadrule No Eggs/Nobody may have eggs.")
    await ann.ask("removecard 1")
    reply = flat(await bo.ask("repeal 1"))
    assert "*** The proposal to remove #1 Hat (Thing) is rejected: the card stays in the game." in reply
    await ann.ask("removecard 2")
    reply = flat(await bo.ask("repeal 2"))
    assert "*** The proposal to remove #2 No Eggs (rule) is rejected: the rule stays in force." in reply
    await ann.ask("editcard 1/Cap/T/A cap.")
    reply = flat(await bo.ask("repeal 1"))
    assert "*** The change to #1 Hat (Thing) is rejected: the card keeps its words." in reply


# Item 26: @color says whether colour is on.


async def test_color_without_a_choice_says_whether_colour_is_on(server):
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    reply = flat(await ann.ask("@color"))
    assert reply.startswith("Colour is off here: your setting is auto, and your client has not said it shows colour.")
    assert reply.endswith("Usage: @color on|off|auto")
    await ann.ask("@color on")
    assert flat(await ann.ask("@color")).startswith("Colour is on here: your setting is on.")
    await ann.ask("@color off")
    assert flat(await ann.ask("@color purple")).startswith("Colour is off here: your setting is off.")
