"""Moves that must not get around the turn rules: taking hidden cards, discarding before
playing, using a Thing without an Action, looking at hidden cards, loading a deck or
kicking mid-game, taking a random card. End to end over real connections, and on the
rules alone."""

from __future__ import annotations

import re

from tests.players import ScriptedPlayer, flat
from tests.test_game_rooms import seat_players

FORCED = "[forced: outside the basic rules]"


async def whose_turn(players: list[ScriptedPlayer]) -> tuple[ScriptedPlayer, list[ScriptedPlayer]]:
    """The player whose turn it is, and the others in seat order."""
    current, _ = await players[0].table()
    player = next(p for p in players if p.name == current)
    return player, [p for p in players if p is not player]


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
