"""Moves that must not get around the turn rules: taking hidden cards, discarding before
playing, using a Thing without an Action, looking at hidden cards, loading a deck or
kicking mid-game, taking a random card. End to end over real connections, and on the
rules alone."""

from __future__ import annotations

import re

from tests.players import ScriptedPlayer, flat, loosely
from tests.test_game_rooms import seat_players

FORCED = "[forced: outside the basic rules]"


async def whose_turn(players: list[ScriptedPlayer]) -> tuple[ScriptedPlayer, list[ScriptedPlayer]]:
    """The player whose turn it is, and the others in seat order."""
    current, _ = await players[0].table()
    player = next(p for p in players if p.name == current)
    return player, [p for p in players if p is not player]


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
