"""The Ys room scenario: rooms of one person and two computer players, over telnet.

In each room a bench client is the host: it makes the room, seats two computer players
(normal) who wait ``botdelay`` before each move, and plays. It asks for GMCP and keeps
the newest ``Ys.View`` it is sent (its own seat's view); whenever that view waits for
it, it answers with a legal move picked at random from it: a bid, a pair to place
(``place 5 c2p 3 m1b``), a choice (gems from a quadrant, a colour, a price to move), the
King's favour if it is played. When a game ends it starts another, and now and then it
types ``board`` or ``screen``. Its replies are timed by command (a game's ``start``
apart); the computer players' moves, the rounds and the games are counted in the
server's event log, which holds every one of them.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from bench.gnavroom import PlayLatencies
from bench.loadgen import BenchClient, Counters, Latencies
from commands.ys.render import space_code
from games.ys import tables as t

IAC, SB, SE, DO, GMCP = 255, 250, 240, 253, 201
_GMCP_START = bytes([IAC, SB, GMCP])
_GMCP_END = bytes([IAC, SE])
#: A computer player's decision: its own move, or its answer to a question the table
#: asked it (each ``asked`` event is answered once).
BOT_DECISION_KINDS = ("bid", "place", "favour", "play", "asked")
COUNT_EVENTS = (
    "SELECT "
    "COALESCE(SUM(CASE WHEN kind = 'round' THEN 1 ELSE 0 END), 0), "
    "COALESCE(SUM(CASE WHEN actor_account_id < 0 AND kind IN "
    f"({', '.join(repr(kind) for kind in BOT_DECISION_KINDS)}) THEN 1 ELSE 0 END), 0), "
    "COALESCE(SUM(CASE WHEN kind = 'score' THEN 1 ELSE 0 END), 0), "
    "COALESCE(SUM(CASE WHEN kind = 'timeout' THEN 1 ELSE 0 END), 0), "
    "COUNT(*) FROM events"
)


class YsHost(BenchClient):
    """A person at a Ys table over telnet with GMCP: the newest ``Ys.View`` they were
    sent, and how many games they saw end, whether or not a command of theirs is waiting
    for its reply. GMCP messages are taken out of the stream before the reply is read."""

    def __init__(self, latencies: PlayLatencies | Latencies | None = None) -> None:
        super().__init__(latencies)
        self._pending = b""
        self.view: dict[str, Any] | None = None
        #: Games ended and not yet restarted.
        self.ended = 0
        self.wake = asyncio.Event()
        #: One command at a time: the moves and the looks take turns.
        self.busy = asyncio.Lock()

    def data_received(self, data: bytes) -> None:
        text, passed, at = self._pending + data, bytearray(), 0
        self._pending = b""
        while True:
            start = text.find(_GMCP_START, at)
            if start < 0:
                rest = text[at:]
                # An IAC, or IAC SB, at the very end may begin a GMCP message.
                keep = 2 if rest.endswith(bytes([IAC, SB])) else 1 if rest.endswith(bytes([IAC])) else 0
                passed += rest[: len(rest) - keep]
                self._pending = rest[len(rest) - keep :]
                break
            passed += text[at:start]
            end = text.find(_GMCP_END, start)
            if end < 0:
                self._pending = text[start:]
                break
            self._gmcp(text[start + len(_GMCP_START) : end])
            at = end + len(_GMCP_END)
        if passed:
            super().data_received(bytes(passed))

    def _gmcp(self, message: bytes) -> None:
        package, _, data = message.decode("utf-8", "replace").partition(" ")
        if package != "Ys.View" or data.strip() in ("", "{}"):
            return
        view = json.loads(data)
        if self.view is not None and self.view["phase"] == "playing" and view["phase"] != "playing":
            self.ended += 1
        self.view = view
        self.wake.set()

    async def say(self, command: str) -> str:
        async with self.busy:
            return await self.ask(command)


def free_spaces(view: dict[str, Any]) -> list[list[Any]]:
    """The spaces a broker may go to now: the city's rings of the quadrants in play, and
    the market spaces of rows with a gem that hold no broker; none the Queen locked."""
    quadrants = len([card for card in view["laid"] if card >= 0])
    spaces: list[list[Any]] = [["city", q, ring] for q in range(quadrants) for ring in t.RINGS]
    taken = [entry["space"] for entry in view["placed"]]
    for row, gem in enumerate(view["market"]):
        if gem is not None:
            spaces.extend(["market", row, c] for c in t.COLOURS if ["market", row, c] not in taken)
    locked = [effect.get("space") for effect in view["effects"] if effect["card"] == "queen"]
    return [space for space in spaces if space not in locked]


def move_for(view: dict[str, Any], rng: random.Random) -> str | None:
    """A legal move for the viewer's seat, picked at random from its view, if the table
    waits for it (it never plays an action card, so it is asked no card's question)."""
    me, you = view["viewer"], view["you"]
    if view["phase"] != "playing" or you is None:
        return None
    if view["awaiting"]:
        ask = view["awaiting"][0]
        if ask["player"] != me:
            return None
        if ask["ask"] == "take":
            return "choose " + " ".join(rng.sample(ask["options"], ask["count"]))
        if ask["ask"] == "nudge":
            return f"choose {rng.choice(t.COLOURS)} {rng.choice(['up', 'down'])}"
        if ask["ask"] in ("gem", "white"):
            return f"choose {rng.choice(t.COLOURS)}"
        if ask["ask"] == "order":
            return f"order {rng.choice(ask['options'])}"
        return "choose pass"
    if view["stage"] == "bid":
        if next(p for p in view["players"] if p["id"] == me)["bid"]:
            return None
        a, b = rng.sample(you["screen"], 2)
        return f"bid {a} {b}"
    if view["stage"] == "favour":
        if len(you["favour"]) >= view["round"] or not you["front"]:
            return None
        return f"favour {rng.choice(you['front'])}"
    if view["stage"] == "place" and view["turn"] == me and view["turn_part"] == "pair":
        spaces = free_spaces(view)
        up = rng.choice(spaces)
        down = rng.choice([space for space in spaces if space != up or space[0] == "city"])
        a, b = rng.sample(you["screen"], 2)
        return f"place {a} {space_code(up)} {b} {space_code(down)}"
    return None


async def set_up_room(
    index: int | str,
    port: int,
    password: str,
    botdelay: float,
    latencies: PlayLatencies | Latencies | None = None,
    create: bool = True,
) -> YsHost:
    """A new player (with GMCP; one made before, if not ``create``), host of a new Ys room
    with two normal computer players."""
    client = await YsHost.open(port, latencies)
    assert isinstance(client, YsHost) and client.transport is not None
    client.transport.write(bytes([IAC, DO, GMCP]))
    player = f"Y{index}"
    reply = await client.ask(f"{'create' if create else 'connect'} {player} {password}")
    if "Players here" not in reply:
        raise RuntimeError(f"{player} could not log in: {reply!r}")
    reply = await client.ask(f"newroom/ys Ys {index}")
    if "You made room" not in reply:
        raise RuntimeError(f"{player} could not make a room: {reply!r}")
    for _ in range(2):
        reply = await client.ask("addbot normal")
        if "takes a seat" not in reply:
            raise RuntimeError(f"{player} could not add a computer player: {reply!r}")
    reply = await client.ask(f"set botdelay={botdelay}")
    if "botdelay" not in reply:
        raise RuntimeError(f"{player} could not set botdelay: {reply!r}")
    return client


async def play(host: YsHost, stop: asyncio.Event, counters: Counters, rng: random.Random) -> None:
    """Start a game, answer whatever the newest view waits for at once, start the next
    game when one ends. A view is acted on once (by its step); a refused move is picked
    again from the newest view."""
    host.ended = 1  # the first game
    host.wake.set()
    acted = -1
    while not stop.is_set():
        try:
            await asyncio.wait_for(host.wake.wait(), 1.0)
        except TimeoutError:
            pass
        host.wake.clear()
        if host.ended:
            host.ended = 0
            reply = await host.say("start")
            if "A game of Ys begins" not in reply:
                counters.errors.append(f"start: {reply.strip()[:120]}")
        view = host.view
        if view is None or view["step"] == acted:
            continue
        move = move_for(view, rng)
        if move is None:
            continue
        acted = view["step"]
        reply = await host.say(move)
        counters.commands += 1
        # The view a move makes is sent before the move's reply ends: a refused move made
        # none (its reply says why).
        if host.view is not None and host.view["step"] != acted:
            counters.moves += 1
        else:
            counters.errors.append(f"{move}: {reply.strip()[:120]}")
            acted = -1
            host.wake.set()
