"""The ``game`` scenario's rooms (``bench/game.py``): what the load generator offers."""

from __future__ import annotations

import asyncio
import random
from typing import Any, cast

from bench.game import PROPOSAL_EVERY, Room, Seat, play_room
from bench.loadgen import Counters

NAMES = ["Ann", "Ben", "Cy", "Di", "Ed"]


class ScriptedRoom:
    """The server as a room's five seats see it, in short: a draw draws nothing
    playable, a turn passes to the next seat, a proposal is card 7. It counts the turns
    ended, and stops the room once it has seen its first proposal."""

    def __init__(self) -> None:
        self.stop = asyncio.Event()
        self.turns_ended = 0
        self.room = Room("scripted", [Seat(name, cast(Any, self)) for name in NAMES])

    async def ask(self, command: str) -> str:
        if command == "draw":
            return "You draw a card."
        if command.startswith("newcard "):
            self.stop.set()  # the room ends this turn, then stops
            return "You propose card 7. The others may approve 7."
        if command.startswith("approve "):
            return "You approve 7."
        if command == "endturn":
            self.turns_ended += 1
            return f"You end the turn. It is now {NAMES[(self.room.current + 1) % len(NAMES)]}'s turn."
        raise AssertionError(f"unexpected {command!r}")


async def turns_to_first_proposal(seed: int) -> int:
    """How many turns a room plays up to its first proposal, that turn included."""
    scripted = ScriptedRoom()
    await asyncio.wait_for(play_room(scripted.room, 0.0, scripted.stop, Counters(), random.Random(seed)), 10)
    return scripted.turns_ended


async def test_rooms_propose_at_turns_of_their_own_not_all_at_once():
    # Rooms that all began at turn 0 proposed together, at their twentieth turn: 200
    # rooms' votes at once on top of the paced moves.
    turns = [await turns_to_first_proposal(seed) for seed in range(60)]
    assert all(1 <= n <= PROPOSAL_EVERY for n in turns)
    assert len(set(turns)) >= PROPOSAL_EVERY // 2
