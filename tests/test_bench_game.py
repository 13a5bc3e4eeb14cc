"""The ``game`` scenario's rooms (``bench/game.py``) and players (``bench/loadgen.py``): what
the load generator offers, and what it reads."""

from __future__ import annotations

import asyncio
import random
from typing import Any, cast

from bench.game import PROPOSAL_EVERY, Room, Seat, play_room
from bench.loadgen import BenchClient, Counters, Latencies
from bench.processes import free_port as free_bench_port
from tests.server_process import free_port as free_test_port

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


class Recording(BenchClient):
    """A bench client that keeps everything it was sent."""

    def __init__(self, latencies: Latencies | None = None) -> None:
        super().__init__(latencies)
        self.raw = bytearray()

    def data_received(self, data: bytes) -> None:
        self.raw += data
        super().data_received(data)


async def test_a_gmcp_seat_is_sent_the_views_and_reads_its_replies_without_them(server):
    gmcp, plain = await Recording.open(server.port, gmcp=True), await Recording.open(server.port)
    try:
        assert "Players here" in await gmcp.ask("create Mud secret12")
        assert "Players here" in await plain.ask("create Nc secret12")
        made = await gmcp.ask("newroom Views")
        assert made.strip().startswith("You take a seat") and "You made room Views" in made
        assert "\xff" not in made and "Dvorak.Table" not in made and "{" not in made and "\ufffd" not in made
        joined = await plain.ask("join Views")
        assert "Seats, in turn order" in joined
        added = await gmcp.ask("loadcard Gizmo/T/A thing.")
        assert added.strip() == "You add a card to the deck: #1 Gizmo (Thing): A thing."
        await asyncio.sleep(0.2)
        assert b"\xff\xfa\xc9Dvorak.Table {" in gmcp.raw and b"\xff\xfa\xc9Dvorak.Hand {" in gmcp.raw
        assert b"\xff\xfa" not in plain.raw
    finally:
        await gmcp.close()
        await plain.close()


def test_the_ports_chosen_for_servers_are_never_chosen_twice():
    # A server's telnet and web ports are chosen one after the other, each free until the
    # server binds it: the second must not be the first again ("address already in use").
    for choose in (free_bench_port, free_test_port):
        ports = [choose() for _ in range(300)]
        assert len(set(ports)) == len(ports)
