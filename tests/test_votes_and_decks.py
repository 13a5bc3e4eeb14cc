"""Card votes and decks end to end: proposals over real connections, a restart mid-vote,
archive pastes (line by line and flattened), exports, saved decks, the deck CLI."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable
from pathlib import Path

from sqlalchemy import select

from commands.dvorak.storage.models import ProposalRow, VoteRow
from tests.players import ScriptedPlayer, flat, loosely
from tests.server_process import run_cli

DATA = Path(__file__).parent / "data"
ARCHIVE = (DATA / "basic_rules_deck.txt").read_text()


async def table_of(server, names, room="Workshop"):
    players = [await ScriptedPlayer.connect(server.port, name) for name in names]
    await players[0].ask(f"newroom {room}")
    for player in players[1:]:
        await player.ask(f"join {room}")
    return players


async def test_a_new_card_is_shown_to_all_and_accepted_unanimously(server):
    ann, bo, cy = await table_of(server, ["Ann", "Bo", "Cy"])
    reply = flat(await ann.ask("newcard Armageddon/A/Destroy all Things."))
    assert "You propose a new card: #1 Armageddon (Action): Destroy all Things." in reply
    assert "Vote with: approve 1 or repeal 1" in reply
    await cy.client.expect(loosely("Ann proposes a new card: #1 Armageddon (Action): Destroy all Things."))
    votes = flat(await cy.ask("viewvote"))
    assert "approve: Ann; repeal: -; yet to vote: Bo, Cy" in votes
    assert "You approve #1." in flat(await bo.ask("approve 1"))
    await ann.client.expect(r"Bo approves #1\.")
    reply = flat(await cy.ask("approve #1"))
    assert "*** The vote on #1 Armageddon (Action) is decided: accepted. It is shuffled into the draw pile." in reply
    await ann.client.expect(loosely("*** The vote on #1 Armageddon (Action) is decided: accepted."))
    assert "Nothing is waiting for a vote." in flat(await bo.ask("viewvote"))
    assert "The draw pile holds 1 card." in flat(await bo.ask("countdraw"))


async def test_one_repeal_rejects_and_revote_brings_it_back(server):
    ann, bo, cy = await table_of(server, ["Ann", "Bo", "Cy"])
    await ann.ask("newcard Nuke/A/Everyone loses.")
    assert "is decided: rejected. It goes to the rejected pile." in flat(await bo.ask("repeal 1"))
    assert "#1 Nuke (Action): Everyone loses." in flat(await cy.ask("viewrep"))
    await cy.ask("revote 1")
    await ann.ask("approve 1")
    assert "decided: accepted" in flat(await bo.ask("approve 1"))


async def test_majority_and_any_policies_with_four_voters(server):
    ann, bo, cy, di = await table_of(server, ["Ann", "Bo", "Cy", "Di"])
    assert "You set vote to majority." in flat(await ann.ask("set vote=majority"))
    await bo.ask("newcard Popular/T/Most like it.")
    await cy.ask("approve 1")
    assert "decided: accepted" in flat(await di.ask("approve 1"))
    await ann.ask("set vote=any")
    await bo.ask("newcard Hasty/T/The first vote decides.")
    assert "decided: rejected" in flat(await di.ask("repeal 2"))


async def test_edits_keep_history_and_rules_bundles_and_removals_work(server):
    ann, bo = await table_of(server, ["Ann", "Bo"])
    await ann.ask("loadcard Robot/T/Beep.")
    await bo.ask("editcard 1/Robot Mk II/T/Beep beep.")
    assert "It now reads: #1 Robot Mk II (Thing): Beep beep." in flat(await ann.ask("approve 1"))
    history = flat(await bo.ask("cardhistory 1"))
    assert re.search(r"version 1, .* UTC: #1 Robot \(Thing\): Beep\. version 2, .*: #1 Robot Mk II \(Thing\)", history)
    await ann.ask("newrule Five Wheels/The first player to control five wheels wins.")
    assert "The rule is in force." in flat(await bo.ask("approve 2"))
    assert "#2 Five Wheels (rule): The first player to control five wheels wins." in flat(await ann.ask("rules"))
    assert "Special rules: #2 Five Wheels (rule)" in flat(await ann.ask("look"))
    await ann.ask("newcard Egg/T/Fragile.")
    await bo.ask("newcard Flamethrower/T/Hot.")
    assert "You lump #3, #4 into one vote" in flat(await ann.ask("bundle 3 4"))
    assert "bundle of #3, #4" in flat(await bo.ask("viewvote"))
    reply = flat(await bo.ask("approve 4"))
    assert "The vote on #3 Egg (Thing) is decided: accepted." in reply
    assert "The vote on #4 Flamethrower (Thing) is decided: accepted." in reply
    await bo.ask("removecard 1")
    assert "It is removed from the game." in flat(await ann.ask("approve 1"))
    await ann.ask("newcard Oops/T/Never mind.")
    assert "You withdraw the proposal about #5 Oops (Thing)." in flat(await ann.ask("withdraw 5"))
    assert "Nothing about #5 is waiting for a vote" in flat(await bo.ask("approve 5"))


async def test_spectators_cannot_vote_and_halt_holds_play(server):
    ann, bo = await table_of(server, ["Ann", "Bo"])
    watcher = await ScriptedPlayer.connect(server.port, "Wes")
    await watcher.ask("watch workshop")
    for i in range(12):
        await ann.ask(f"loadcard Card {i}/T/Plain.")
    await ann.ask("set halt=on")
    await ann.ask("start")
    current, _ = await ann.table()
    mover, other = (ann, bo) if current == "Ann" else (bo, ann)
    await other.ask("newcard Pause/T/Wait.")
    assert "Only players seated at this table vote" in flat(await watcher.ask("approve 13"))
    assert "Play waits for the vote on #13 (halt is on)." in flat(await mover.ask("draw"))
    await mover.ask("approve 13")
    assert "You draw #" in flat(await mover.ask("draw"))


def without_time_left(text: str) -> str:
    return re.sub(r"time left: (\d+m )?\d+s", "time left: ...", text)


async def test_a_restart_mid_vote_loses_nothing(start_server):
    first = await start_server()
    ann, bo, cy = await table_of(first, ["Ann", "Bo", "Cy"])
    await ann.ask("newcard Durable/T/Survives restarts.")
    await bo.ask("approve 1")
    before = flat(await cy.ask("viewvote"))
    for player in (ann, bo, cy):
        await player.close()
    await first.stop()
    second = await start_server()
    cy_again = await ScriptedPlayer.connect(second.port, "Cy", create=False)
    # The same vote; Ann and Bo, not back yet, are marked away. Its time runs on (the
    # room opened with a vote time): the restart may have taken a second of it.
    assert without_time_left(flat(await cy_again.ask("viewvote")).replace(" (away)", "")) == without_time_left(before)
    assert "voters: Ann (away), Bo (away), Cy)" in flat(await cy_again.ask("viewvote"))
    assert "decided: accepted" in flat(await cy_again.ask("approve 1"))
    async with second.database.snapshot() as connection:
        proposal = (await connection.execute(select(ProposalRow.status, ProposalRow.proposer_name))).one()
        votes = (await connection.execute(select(VoteRow.account_id, VoteRow.choice))).all()
    assert tuple(proposal) == ("accepted", "Ann")
    assert sorted(choice for _, choice in votes) == ["approve"] * 3


async def test_an_archive_deck_pasted_line_by_line_or_as_one_line(server):
    ann = (await table_of(server, ["Ann"]))[0]
    for line in ARCHIVE.splitlines():
        ann.client.send(line)
    await ann.client.expect(r"^The Basic Rules Deck \(5 cards\) has been loaded\.$")
    line_by_line = await ann.ask("exportdeck")
    await ann.ask("newroom Flat Room")
    ann.client.send(" ".join(ARCHIVE.splitlines()))
    # Only the deck commands of a line run: its closing @emit is left out, with a note.
    await ann.client.expect(r"so its @emit was not: type @emit on a line of its own\.")
    await ann.client.expect(r"You add a card to the deck: #\d+ Vorpal Blade [^{]*\{\{end of reply\}\}\n")
    flattened = await ann.ask("exportdeck")
    assert flattened.replace("Flat Room", "Workshop") == line_by_line
    assert "loadcard Vorpal Blade/T/Action: snicker-snack! Destroy a monster. %r Either/or: both/neither." in flattened


async def test_export_then_paste_gives_the_same_deck_and_logcards_reads_back(server):
    ann, bo = await table_of(server, ["Ann", "Bo"])
    for line in (DATA / "dvorax_deck.txt").read_text().splitlines():
        await ann.ask(line)
    await ann.ask("loadrule Short Game/First to three Developers wins.")
    await ann.ask("newcard Pending/T/Still being voted on.")
    for form in ("mush", "dvorax", "json", "tsv"):
        assert (await ann.ask(f"exportdeck {form}")).strip()
    exported = await ann.ask("exportdeck dvorax")
    logged = await ann.ask("logcards")
    assert "@@ #5 waiting for a vote: loadcard Pending/T/Still being voted on." in logged
    await bo.ask("newroom Copy")
    for line in logged.splitlines():
        await bo.ask(line)
    copy = await bo.ask("exportdeck dvorax")
    assert copy.replace("Copy", "Workshop") == exported


async def test_colour_codes_show_as_ansi_only_with_colour_on(server):
    ann = (await table_of(server, ["Ann"]))[0]
    plain = await ann.ask("loadcard hr/Crash/Action/Boom.")
    assert "\x1b" not in plain and "Crash" in plain
    assert "Colour is on" in await ann.ask("@color on")
    coloured = await ann.ask("readcard 1") + await ann.ask("viewall")
    assert "\x1b[1;31mCrash\x1b[0m" in coloured
    await ann.ask("@color off")
    assert "\x1b" not in await ann.ask("viewall")


async def test_saved_decks_belong_to_whoever_saved_them(server):
    ann, bo = await table_of(server, ["Ann", "Bo"])
    for i in range(10):
        await ann.ask(f"loadcard Card {i}/T/Plain {i}.")
    await ann.ask("newcard Pending Idea/A/Voted later.")
    await ann.ask("start")
    before_hands = {p.name: sorted(c.name for c in await p.hand()) for p in (ann, bo)}
    assert "You saves" not in flat(await ann.ask("savedeck Friday Game"))
    await bo.client.expect(r"Ann saves the room as deck Friday Game \(10 cards\)\.")
    listing = flat(await bo.ask("listdecks"))
    assert re.search(r"Friday Game Ann 10 \d{4}-\d\d-\d\d", listing)
    assert "belongs to someone else" in flat(await bo.ask("savedeck friday game"))
    assert "Only whoever saved that deck" in flat(await bo.ask("deletedeck Friday Game"))
    await ann.ask("endgame")
    await ann.ask("cleardeck")
    reply = flat(await ann.ask("loaddeck friday game"))
    # The same cards come back into the room they were saved from, with their numbers.
    assert reply.startswith("You load the saved deck Friday Game (10 cards).") and "number" not in reply
    after_hands = {p.name: sorted(c.name for c in await p.hand()) for p in (ann, bo)}
    assert after_hands == before_hands
    assert "change to" not in (votes := flat(await bo.ask("viewvote"))) and "Pending Idea" in votes
    assert "You delete the saved deck Friday Game." in flat(await ann.ask("deletedeck Friday Game"))
    assert "No decks have been saved" in flat(await ann.ask("listdecks"))


async def test_the_deck_command_line_imports_and_exports(server, database_url, tmp_path):
    def run(*args: str) -> Awaitable[str]:
        return run_cli(database_url, *args)

    one_line = tmp_path / "flattened.txt"
    one_line.write_text(" ".join(ARCHIVE.splitlines()))
    assert "5 cards and 0 rules" in await run("deck", "import", str(one_line), "--room", "Imported")
    exported = await run("deck", "export", "--room", "imported", "--format", "json")
    again = tmp_path / "again.json"
    again.write_text(exported)
    await run("deck", "import", str(again), "--room", "Second")
    assert (await run("deck", "export", "--room", "Second", "--format", "json")).replace(
        "Second", "Imported"
    ) == exported
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    assert "Seats, in turn order" in flat(await ann.ask("join imported"))
    assert "#5 Vorpal Blade (Thing)" in flat(await ann.ask("viewall"))


async def test_only_the_host_loads_cards_without_a_vote_and_mid_game_only_forced(server):
    ann, bo = await table_of(server, ["Ann", "Bo"])
    assert "Only the host (Ann) can do that." in flat(await bo.ask("loadcard I Win/A/Play this: you win the game."))
    assert "Only the host (Ann) can do that." in flat(await bo.ask("loadrule Bo Wins/Bo wins at once."))
    await ann.ask("set turns=off")
    for i in range(12):
        await ann.ask(f"loadcard Card {i}/T/Text {i}.")
    await ann.ask("start")
    refusal = flat(await ann.ask("loadcard Late/T/Sneaked in."))
    assert "A game is running: new cards are proposed and voted on now (newcard, newrule)" in refusal
    assert "force loadcard" in refusal
    assert "A game is running" in flat(await ann.ask("loadrule Late Rule/Sneaked in."))
    assert "Only the host (Ann) can do that." in flat(await bo.ask("force loadcard I Win/A/You win."))
    # Forced by the host, because a card allows it: the table is told it was forced.
    assert "forced" in flat(await ann.ask("force loadcard Allowed/T/A card said so."))
    await bo.client.expect(loosely("Ann adds a card to the deck: #13 Allowed (Thing): A card said so. [forced"))
    assert "I Win" not in flat(await ann.ask("logcards"))


async def test_a_refusal_that_suggests_force_is_taken_at_its_word(server):
    ann, bo = await table_of(server, ["Ann", "Bo"])
    for i in range(12):
        await ann.ask(f"loadcard Card {i}/T/Text {i}.")
    await ann.ask("start")
    refusal = flat(await ann.ask("cleardeck"))
    assert "or force cleardeck" in refusal
    assert "You clear the deck: 12 cards and rules are gone." in flat(await ann.ask("force cleardeck"))
    usage = flat(await bo.ask("force nonsense"))
    assert "cleardeck" in usage and "loadcard" in usage and "draw" in usage


async def test_proposals_pasted_as_one_line_are_each_proposed_and_a_bad_one_is_refused(server):
    ann, bo = await table_of(server, ["Ann", "Bo"])
    ann.client.send(
        "newcard Anvil/T/Make a newcard of it. newcard Bell/A/Ring. newcard /T/No name. newrule Tide/Water rises."
    )
    await ann.client.expect(loosely("The card has no name. Usage: newcard"))
    await ann.client.expect(loosely("You propose a special rule: #3 Tide (rule): Water rises."))
    for expected in (
        "Ann proposes a new card: #1 Anvil (Thing): Make a newcard of it.",
        "Ann proposes a new card: #2 Bell (Action): Ring.",
        "Ann proposes a special rule: #3 Tide (rule): Water rises.",
    ):
        await bo.client.expect(loosely(expected))
    votes = flat(await bo.ask("viewvote"))
    assert all(f"#{n}" in votes for n in (1, 2, 3)) and "#4" not in votes


async def test_votes_sent_at_once_are_each_stored_and_answered_in_their_own_reply(server):
    # Moves that queue up while the room stores one are made and stored together: each
    # voter's reply still holds its own vote, the decision comes once, and a move refused
    # among them is refused in its own reply only.
    ann, *others = await table_of(server, ["Ann", "Bo", "Cy", "Di", "Ed"])
    await ann.ask("newcard Rush/A/All at once.")
    *votes, refused = await asyncio.gather(*(p.ask("approve 1") for p in others), ann.ask("approve 7"))
    for player, reply in zip(others, votes, strict=True):
        assert "You approve #1." in flat(reply), (player.name, reply)
    assert sum("is decided: accepted" in flat(reply) for reply in votes) == 1
    assert "You approve" not in flat(refused) and "#7" in flat(refused)
    assert "Nothing is waiting for a vote." in flat(await ann.ask("viewvote"))
    assert "The draw pile holds 1 card." in flat(await ann.ask("countdraw"))


async def test_a_line_that_looks_like_a_paste_is_split_only_at_a_dvorak_table(server):
    """The paste splitter is Dvorak's: in the lobby and at a Gnav table the line is one
    command, answered once."""
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    pasted = "loadcard Apple/T/Red. loadcard Pear/T/Green."
    in_the_lobby = await ann.ask(pasted)
    assert flat(in_the_lobby).count("used at a game table") == 1
    await ann.ask("newroom/gnav Fjord")
    at_gnav = await ann.ask(pasted)
    assert flat(at_gnav).count("used at Dvorak tables") == 1
    # Nothing more of either line waits to be answered: the next reply is the next command's.
    assert "used at" not in flat(await ann.ask("who"))
    await ann.ask("newroom Workshop")
    ann.client.send(pasted)
    await ann.client.expect(r"You add a card to the deck: #\d+ Apple")
    await ann.client.expect(r"You add a card to the deck: #\d+ Pear")
    await ann.close()
