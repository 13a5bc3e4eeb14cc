"""Moves that must not get around the turn rules: taking hidden cards, discarding before
playing, using a Thing without an Action, looking at hidden cards, loading a deck or
kicking mid-game, taking a random card. End to end over real connections, and on the
rules alone."""

from __future__ import annotations

import random
import re

import pytest

from games.dvorak.rules import Table
from games.dvorak.state import PLAYING
from tests.players import ScriptedPlayer, flat, loosely
from tests.test_game_rooms import seat_players

FORCED = "[forced: outside the basic rules]"


async def whose_turn(players: list[ScriptedPlayer]) -> tuple[ScriptedPlayer, list[ScriptedPlayer]]:
    """The player whose turn it is, and the others in seat order."""
    current, _ = await players[0].table()
    player = next(p for p in players if p.name == current)
    return player, [p for p in players if p is not player]


async def test_discarding_is_the_last_step_of_a_turn(server):
    players = await seat_players(server, ["Ann", "Bo"])
    await players[0].ask("start")
    me, (other,) = await whose_turn(players)
    held = await me.hand()
    assert "Draw first" in flat(await me.ask(f"discard {held[0].number}"))
    await me.ask("draw")
    held = await me.hand()
    assert "You discard" in flat(await me.ask(f"discard {held[0].number}"))
    for command in (f"play {held[1].number}", "draw"):
        refusal = flat(await me.ask(command))
        assert "discarding is the last step of a turn" in refusal, refusal
        assert "put force in front of the command" in refusal
    assert len(await me.hand()) == 5
    assert "It is now" in flat(await me.ask("endturn"))


async def test_only_a_thing_with_an_action_written_on_it_can_be_used(server):
    players = await seat_players(server, ["Ann", "Bo"])
    robot = flat(await players[0].ask("loadcard Robot/T/Sturdy.%rAction: destroy a Thing."))
    robot_number = int(re.search(r"#(\d+) Robot", robot).group(1))
    await players[0].ask("start")
    me, (other,) = await whose_turn(players)
    await me.ask("draw")
    plain = next(c for c in await me.hand() if not c.is_action)
    await me.ask(f"play {plain.number}")
    refusal = flat(await me.ask(f"use {plain.number}"))
    assert f'#{plain.number} has no "Action:" written on it.' in refusal
    assert "Actions 0 of 1." in flat(await me.ask("look"))
    await me.ask(f"force givething {robot_number} to me")
    reply = flat(await me.ask(f"use {robot_number}"))
    assert f"You use the Action of #{robot_number} Robot" in reply
    assert "Actions 1 of 1." in flat(await me.ask("look"))


async def test_looking_at_hidden_cards_needs_force_with_turns_on(server):
    players = await seat_players(server, ["Ann", "Bo", "Cy"])
    await players[0].ask("start")
    me, (other, third) = await whose_turn(players)
    their_hand = await other.hand()
    for command in (f"viewhand {other.name}", "viewdraw"):
        refusal = flat(await me.ask(command))
        assert "only when a card allows it" in refusal and "put force in front of the command" in refusal
        assert all(card.name not in refusal for card in their_hand)
    reply = flat(await third.ask(f"force viewhand {other.name}"))
    assert all(card.name in reply for card in their_hand)
    await other.client.expect(loosely(f"{third.name} looks at your hand. {FORCED}"))
    assert "Draw pile (" in flat(await me.ask("force viewdraw"))
    await other.client.expect(loosely(f"{me.name} looks through the draw pile. {FORCED}"))
    assert f"{me.name} looks at" not in other.client.transcript


async def test_loaddeck_mid_game_needs_force_and_counts_the_cards_as_savedeck_does(server):
    ann, bo = await seat_players(server, ["Ann", "Bo"], deck=23)
    await ann.ask("loadrule Short Game/The first to hold 7 cards wins.")
    assert "saves the room as deck Kept (23 cards)." in flat(await ann.ask("savedeck Kept"))
    assert re.search(r"Kept +Ann +23 ", await ann.ask("listdecks"))
    await ann.ask("start")
    refusal = flat(await ann.ask("loaddeck Kept"))
    assert "A game is running: end it first (endgame), or force loaddeck" in refusal
    assert len(await bo.hand()) == 5 and "playing" in flat(await bo.ask("look"))
    reply = flat(await ann.ask("force loaddeck Kept"))
    assert "You load the saved deck Kept (23 cards)." in reply and FORCED in reply


async def test_a_kick_never_decides_a_game(server):
    ann, bo = await seat_players(server, ["Ann", "Bo"])
    await ann.ask("start")
    reply = flat(await ann.ask("kick bo"))
    assert "wins" not in reply
    look = flat(await ann.ask("look"))
    assert "playing" in look and "Last game" not in look
    cy = await ScriptedPlayer.connect(server.port, "Cy")
    await cy.ask("join table one")
    assert len(await cy.hand()) == 5


@pytest.mark.parametrize("resign", ["eliminate me", "leave now"])
async def test_a_resignation_is_a_forfeit(server, resign):
    ann, bo = await seat_players(server, ["Ann", "Bo"])
    await ann.ask("start")
    await bo.ask(resign)
    await ann.client.expect(re.escape("*** Bo forfeits: Ann wins! ***"))
    assert "Last game: Bo forfeits: Ann wins!" in flat(await ann.ask("look"))


# -- the rules alone -------------------------------------------------------------------

ALICE, BOB, CAROL = 1, 2, 3


def table_of(players=(ALICE, BOB), **settings_) -> Table:
    table = Table(rng=random.Random(5))
    names = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}
    for player in players:
        table.sit(player, names[player])
    for name, value in settings_.items():
        table.change_setting(players[0], name, str(value))
    for i in range(20):
        table.load_card(players[0], "Alice", f"Card {i}", "A" if i % 2 else "T", f"text {i}")
    table.start(players[0])
    table.state.apply(["turn", {"player": ALICE, "number": 1}])
    table.take_changes()
    return table


def test_a_kick_leaves_the_game_running_and_a_resignation_forfeits_it():
    table = table_of(players=(ALICE, BOB, CAROL))
    table.unseat(ALICE, BOB)
    table.eliminate(ALICE, CAROL)
    assert table.state.result == "Only Alice remains: Alice wins!"
    table = table_of(players=(ALICE, BOB))
    table.unseat(ALICE, BOB)
    assert table.state.phase == PLAYING and table.state.result == ""
    table = table_of(players=(ALICE, BOB))
    table.unseat(BOB, BOB)
    assert table.state.result == "Bob forfeits: Alice wins!"
