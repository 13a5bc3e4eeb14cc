"""Rules that games found wrong, over real connections: team wins, what elimination
lasts, dealing from an empty pile, a multi-deck player leaving, card definitions that
look like colour codes, repeated votes, leaving after resigning, and saved decks that
keep their card numbers and histories."""

from __future__ import annotations

import re

from sqlalchemy import select, update

from commands.dvorak.storage.models import CardVersion, SavedDeck
from games.dvorak.invariants import table_problems
from games.dvorak.rules import Table
from persistence.models import Room
from tests.players import ScriptedPlayer, flat, seated_at
from tests.server_process import run_cli


async def room_of(server, names, room="Parlour", cards=0):
    return await seated_at(server.port, names, room, cards)


async def test_a_card_named_like_a_colour_code_is_read_in_the_archive_form(server):
    (ann,) = await room_of(server, ["Ann"])
    reply = flat(await ann.ask("loadcard Gun/T/Roll a die: on 5/6, destroy a Thing."))
    assert "You add a card to the deck: #1 Gun (Thing): Roll a die: on 5/6, destroy a Thing." in reply
    reply = flat(await ann.ask("loadcard Ruby/A/Take 1/2 of the discard pile."))
    assert "#2 Ruby (Action): Take 1/2 of the discard pile." in reply
    # The Dvorax form, with a colour code in front, is still read as such.
    reply = flat(await ann.ask("loadcard hw/Bug/Thing - Pest/Eats 1/3 of a Thing."))
    assert "#3 Bug (Thing - Pest): Eats 1/3 of a Thing." in reply


async def test_voting_the_same_way_twice_is_refused_and_changing_a_vote_works(server):
    ann, bo, cy = await room_of(server, ["Ann", "Bo", "Cy"])
    await ann.ask("newcard Echo/T/Says it twice.")
    assert "You approve #1." in flat(await bo.ask("approve 1"))
    assert flat(await bo.ask("approve 1")) == "You already approved #1."
    assert flat(await ann.ask("approve 1")) == "You already approved #1 (proposing it counts as approving)."
    assert "yet to vote: Cy" in flat(await cy.ask("viewvote"))
    # Changing one's mind still counts: Bo's repeal now rejects the card.
    assert "decided: rejected" in flat(await bo.ask("repeal 1"))
    await cy.ask("revote 1")
    await ann.ask("set vote=majority")
    await ann.ask("newcard Nope/T/No.")
    assert "You repeal #2." in flat(await bo.ask("repeal 2"))
    assert flat(await bo.ask("reject 2")) == "You already voted to repeal #2."
    await cy.ask("look")
    await ann.ask("look")
    assert ann.client.transcript.count("Bo repeals #2.") == 1
    assert cy.client.transcript.count("Bo approves #1.") == 1


async def test_a_player_who_resigned_leaves_without_now(server):
    ann, bo, cy = await room_of(server, ["Ann", "Bo", "Cy"], cards=20)
    await ann.ask("start")
    assert "You resign from the game." in flat(await cy.ask("eliminate me"))
    reply = flat(await cy.ask("leave"))
    assert "leave now" not in reply
    assert "You leave room Parlour." in reply
    current, counts = await ann.table()
    assert current in ("Ann", "Bo") and set(counts) == {"Ann", "Bo"}
    # Someone still in the game is asked to confirm, as before.
    assert "To go anyway, type: leave now" in flat(await bo.ask("leave"))


async def test_a_team_wins_when_every_other_team_is_out(server):
    ann, bo, cy, di = await room_of(server, ["Ann", "Bo", "Cy", "Di"], cards=30)
    await ann.ask("set teams=on")
    for name, team in (("ann", "Owls"), ("bo", "Owls"), ("cy", "Larks"), ("di", "Larks")):
        await ann.ask(f"team {name}={team}")
    await ann.ask("start")
    reply = flat(await ann.ask("eliminate cy"))
    assert "***" not in reply
    reply = flat(await di.ask("eliminate me"))
    assert "*** Only team Owls is left: Team Owls (Ann, Bo) wins! ***" in reply
    assert "Last game: Only team Owls is left: Team Owls (Ann, Bo) wins!" in flat(await bo.ask("look"))


async def test_a_player_without_a_team_plays_as_a_side_of_their_own(server):
    ann, bo, cy = await room_of(server, ["Ann", "Bo", "Cy"], cards=30)
    await ann.ask("set teams=on")
    await ann.ask("team ann=Owls")
    await ann.ask("team bo=Owls")
    await ann.ask("start")
    assert "***" not in flat(await ann.ask("eliminate ann"))
    assert "*** Only Cy remains: Cy wins! ***" in flat(await ann.ask("eliminate bo"))


async def test_elimination_lasts_one_game(server):
    ann, bo, cy = await room_of(server, ["Ann", "Bo", "Cy"], cards=30)
    await ann.ask("start")
    await ann.ask("eliminate cy")
    assert "You have been eliminated" in flat(await cy.ask("newcard Early/T/Too soon."))
    await ann.ask("endgame")
    assert "(out)" not in flat(await ann.ask("look"))
    assert "You propose a new card: #31 Late/T" in flat(await cy.ask("newcard Late/T/After the game.")).replace(
        " (Thing)", "/T"
    )
    await ann.ask("approve 31")
    assert "You approve #31." in flat(await bo.ask("approve 31"))
    await ann.ask("newcard Meh/T/Rejected.")
    await cy.ask("repeal 32")
    assert "You put #32 Meh" in flat(await cy.ask("revote 32"))
    assert "You make Cy the host." in flat(await ann.ask("host cy"))
    assert "You set handsize to 4." in flat(await cy.ask("set handsize=4"))


async def test_a_late_joiner_is_dealt_from_the_discards_when_the_draw_pile_is_empty(server):
    ann, bo, cy = await room_of(server, ["Ann", "Bo", "Cy"], cards=15)
    await ann.ask("start")
    await ann.ask("eliminate cy")
    assert "Draw pile: 0 cards. Discard pile: 5 cards" in flat(await ann.ask("look"))
    di = await ScriptedPlayer.connect(server.port, "Di")
    reply = flat(await di.ask("join Parlour"))
    assert "The draw pile is empty: the discard pile (5 cards) is shuffled into a new draw pile." in reply
    assert len(await di.hand()) == 5
    assert "Draw pile: 0 cards. Discard pile: 0 cards." in flat(await ann.ask("look"))
    assert "shuffled into a new draw pile. Di is dealt 5 cards." in flat(ann.client.transcript)


async def test_starting_with_too_few_cards_to_deal_needs_force(server):
    ann, bo = await room_of(server, ["Ann", "Bo"], cards=8)
    reply = flat(await ann.ask("start"))
    assert reply == (
        "The deck has 8 cards, too few to deal 5 to each of 2 players (the rules ask for at least 5 cards per "
        "player). Add cards, lower the hand size (set handsize=4), or deal what there is: force start"
    )
    assert "waiting to start" in flat(await ann.ask("look"))
    reply = await ann.ask("force start")
    # The note is on the sentence of the move, not after the last card dealt.
    first_line = reply.strip().split("\n")[0]
    assert first_line.startswith("You start a new game"), reply
    assert "[forced: outside the basic rules]" in flat(reply).split("Your hand")[0], reply
    _, counts = await ann.table()
    assert sorted(counts.values()) == [4, 4]


async def test_a_player_leaving_a_multideck_game_leaves_their_deck_behind(server, database_url):
    ann, bo, cy = await room_of(server, ["Ann", "Bo", "Cy"])
    await ann.ask("set multideck=on")
    await ann.ask("set handsize=2")
    for player, prefix in ((ann, "Ann"), (bo, "Bo"), (cy, "Cy")):
        for i in range(10):
            await player.ask(f"loadcard {prefix} {i}/T/From {prefix}'s deck.")
    await ann.ask("start")
    assert "Bo: draw 8, discard 0" in flat(await ann.ask("look"))
    reply = flat(await bo.ask("leave now"))
    assert "2 cards from your hand and play area go to the discard pile." in reply
    assert "The 10 cards of your own deck go to the discard piles of the others: 5 to Ann, 5 to Cy." in reply
    look = flat(await ann.ask("look"))
    told = "The 10 cards of Bo's own deck go to the discard piles of the others: 5 to you, 5 to Cy."
    assert told in flat(ann.client.transcript)
    assert "Piles: Ann: draw 8, discard 5, top #" in look and "; Cy: draw 8, discard 5, top #" in look
    out = await run_cli(database_url, "check")
    assert "Parlour: ok" in out, out
    # Between games, a player's own deck goes into the shared pile, dealt out at the start.
    await ann.ask("endgame")
    reply = flat(await cy.ask("leave"))
    assert "of your own deck go into the shared draw pile, to be dealt out at the next start." in reply
    assert "; shared, dealt out at the start: draw 15." in flat(await ann.ask("look"))
    discards = flat(await ann.ask("viewdisc"))
    assert "Discard pile (5 cards), top first:" in discards and discards.count(" Bo ") == 5


def test_check_finds_cards_in_the_piles_of_a_player_who_is_gone():
    table = Table()
    table.sit(1, "Ann")
    table.sit(2, "Bo")
    table.change_setting(1, "multideck", "on")
    for i in range(6):
        table.load_card(1, "Ann", f"Ann {i}", "T", "")
        table.load_card(2, "Bo", f"Bo {i}", "T", "")
    table.start(1)
    assert table_problems(table.state) == []
    # As a player leaving used to: the seat gone, the piles left behind.
    table.state.seats = [seat for seat in table.state.seats if seat.account_id != 2]
    table.state.apply(["turn", {"player": 1, "number": 1}])
    problems = table_problems(table.state)
    assert "draw of account 2, who is not seated, holds 1 card" in problems
    assert any("belongs to the deck of account 2, who is not seated" in p for p in problems)


async def history_of(player: ScriptedPlayer, number: int) -> list[str]:
    """The versions ``cardhistory`` lists, as (version, date, face) lines."""
    return re.findall(r"version \d+, [\d-]+ [\d:]+ UTC: [^\n]*", await player.ask(f"cardhistory {number}"))


async def test_a_saved_deck_loaded_into_its_own_room_keeps_numbers_and_histories(server):
    ann, bo = await room_of(server, ["Ann", "Bo"], cards=12)
    await bo.ask("editcard 3/Card Two Mk II/T/Better.")
    await ann.ask("approve 3")
    await ann.ask("newrule Short/First to three wins.")
    await bo.ask("approve 13")
    before = {number: await history_of(ann, number) for number in (1, 3, 13)}
    assert len(before[3]) == 2
    await ann.ask("savedeck Keeper")
    await ann.ask("cleardeck")
    reply = flat(await ann.ask("loaddeck keeper"))
    assert reply.startswith("You load the saved deck Keeper (12 cards).") and "numbered from" not in reply
    assert "#3 Card Two Mk II Type: Thing By: Ann Text: Better." in flat(await ann.ask("read 3"))
    assert "#13 Short (rule)" in flat(await ann.ask("rules"))
    assert {number: await history_of(ann, number) for number in (1, 3, 13)} == before
    # Elsewhere a number taken by that room's own card is given a new one; the history comes along.
    await bo.ask("newroom Elsewhere")
    await bo.ask("loadcard Local/T/Here first.")
    reply = flat(await bo.ask("loaddeck keeper"))
    assert "One card's number was taken here: it is #14 now." in reply
    assert "#14 Card 0 Type: Thing By: Ann Text: Plain 0." in flat(await bo.ask("read 14"))
    assert await history_of(bo, 14) == [line.replace("#1 ", "#14 ") for line in before[1]]
    assert await history_of(bo, 3) == before[3]
    assert await history_of(bo, 1) != before[1]
    # To the second: each version is dated when it was made, not when the deck was loaded.
    async with server.database.snapshot() as connection:
        rows = (
            await connection.execute(
                select(Room.name, CardVersion.number, CardVersion.version, CardVersion.created_at).join(
                    Room, Room.id == CardVersion.room_id
                )
            )
        ).all()
    dated = {(room, number, version): when for room, number, version, when in rows}
    assert dated["Elsewhere", 3, 1] == dated["Parlour", 3, 1] and dated["Elsewhere", 3, 2] == dated["Parlour", 3, 2]
    assert dated["Elsewhere", 14, 1] == dated["Parlour", 1, 1]
    assert sum(1 for room, number, _ in dated if (room, number) == ("Parlour", 3)) == 2


async def test_a_deck_saved_before_decks_kept_versions_still_loads(server):
    ann, bo = await room_of(server, ["Ann", "Bo"], cards=6)
    await bo.ask("editcard 2/Card One Mk II/T/Better.")
    await ann.ask("approve 2")
    await ann.ask("savedeck Older")
    async with server.database.transaction() as connection:
        data = (await connection.execute(select(SavedDeck.data))).scalar_one()
        await connection.execute(update(SavedDeck).values(data={k: v for k, v in data.items() if k != "versions"}))
    before = await history_of(ann, 2)
    await ann.ask("cleardeck")
    reply = flat(await ann.ask("loaddeck older"))
    assert reply.startswith("You load the saved deck Older (6 cards).") and "number" not in reply
    assert await history_of(ann, 2) == before
    await bo.ask("newroom Fresh")
    assert "You load the saved deck Older (6 cards)." in flat(await bo.ask("loaddeck older"))
    assert [line.split(": ", 1)[1] for line in await history_of(bo, 2)] == ["#2 Card One Mk II (Thing): Better."]


async def test_a_late_joiner_is_told_when_there_are_not_cards_enough_for_a_hand(server):
    ann, bo = await room_of(server, ["Ann", "Bo"], cards=12)
    await ann.ask("set reshuffle=off")
    await ann.ask("start")
    cy = await ScriptedPlayer.connect(server.port, "Cy")
    reply = flat(await cy.ask("join Parlour"))
    assert "There are not enough cards for a full hand: you are dealt 2 cards. You are dealt: #" in reply
    await ann.ask("look")
    assert "Cy takes a seat at the table. There are not enough cards for a full hand: Cy is dealt 2 cards." in flat(
        ann.client.transcript
    )


async def test_a_turn_whose_draw_is_impossible_counts_as_drawn(server):
    """Issue 45: a player who joined mid-game was dealt the last cards, both piles empty.
    ``play`` was allowed before drawing (nothing could be drawn), ``endturn`` then said
    "Draw first", and ``draw`` shuffled the card just played back into the hand."""
    ann, bo, cy = await room_of(server, ["Ann", "Bo", "Cy"], cards=15)
    await ann.ask("start")
    await ann.ask("eliminate cy")
    di = await ScriptedPlayer.connect(server.port, "Di")
    await di.ask("join Parlour")
    assert "Draw pile: 0 cards. Discard pile: 0 cards." in flat(await ann.ask("look"))
    current, _ = await ann.table()
    mover = {"Ann": ann, "Bo": bo, "Di": di}[current]
    held = await mover.hand()
    assert "You play" in flat(await mover.ask(f"play {held[0].number}"))
    assert "You have already drawn this turn" in flat(await mover.ask("draw"))
    assert len(await mover.hand()) == len(held) - 1
    assert "Draw first" not in flat(await mover.ask("endturn"))


async def test_out_of_cards_out_of_the_game_and_the_last_one_left_wins(server):
    """Seed 003: "When all the cards are played and there are none left, anyone without
    cards is out of the game, occasionally resulting in a draw." Ten Things, five dealt
    to each: the first to play their last card is out, and the other wins."""
    ann, bo = await room_of(server, ["Ann", "Bo"], cards=10)
    await ann.ask("start")
    players = {"Ann": ann, "Bo": bo}
    for _ in range(20):
        current, counts = await ann.table()
        if current is None:
            break
        mover = players[current]
        held = await mover.hand()
        reply = flat(await mover.ask(f"play {held[0].number}"))
        if len(held) == 1:
            assert "No cards are left to draw: you hold none, and are out of the game." in reply, reply
            other = "Bo" if current == "Ann" else "Ann"
            assert f"*** Only {other} remains: {other} wins! ***" in reply
            break
        await mover.ask("endturn")
    else:
        raise AssertionError("nobody ran out of cards")
    assert "game over" in flat(await bo.ask("look")).lower() or "won" in flat(await bo.ask("results")).lower()
