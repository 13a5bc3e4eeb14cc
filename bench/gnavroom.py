"""The Gnav room scenario: rooms of one person and three computer players, over telnet.

In each room a bench client is the host: it makes the room, seats three computer players
(normal) who wait ``botdelay`` before each move, and plays. Whenever the server tells it
"It is your turn" it answers keep or swap at random; when a match ends ("wins the match",
"is a draw") it starts another; and now and then it looks at the table. Its keep, swap
and look replies are timed (a match's start apart); the computer players' moves and the
deals are counted in the server's event log, which holds every one of them.
"""

from __future__ import annotations

import asyncio
import random
import re
import sqlite3
from typing import Protocol

import asyncpg

from bench.loadgen import BenchClient, Counters, Latencies

#: The turn as announced to a person (the deal's or the turn's event, which carry the
#: turn timer; the same words in ``look`` do not), and a match's end. Lines are wrapped
#: at 80 columns, so any word may be followed by a line break.
NEWS = re.compile(
    rb"(?P<turn>It\s+is\s+your\s+turn:\s+keep\s+or\s+swap\.\s+\(In\s+\d+\s+seconds)"
    rb"|(?P<over>wins?\s+the\s+match!|The\s+match\s+is\s+a\s+draw)"
)
#: Enough of the text last read to complete news split over two reads.
NEWS_TAIL = 120
#: What the table says to a keep or swap that came too late (the turn moved on).
REFUSED = re.compile(r"not yours|deal is over|out of date|resting this deal|out of this match|No match is being played")
#: A computer player's move ends in exactly one of these events, made by its (negative) id.
BOT_MOVE_KINDS = ("keep", "swap", "stock", "refuse", "cuckoo")
COUNT_EVENTS = (
    "SELECT "
    "COALESCE(SUM(CASE WHEN kind = 'deal' THEN 1 ELSE 0 END), 0), "
    "COALESCE(SUM(CASE WHEN actor_account_id < 0 AND kind IN "
    f"({', '.join(repr(kind) for kind in BOT_MOVE_KINDS)}) THEN 1 ELSE 0 END), 0), "
    "COALESCE(SUM(CASE WHEN kind IN ('win', 'draw') THEN 1 ELSE 0 END), 0), "
    "COALESCE(SUM(CASE WHEN kind = 'timeout' THEN 1 ELSE 0 END), 0), "
    "COUNT(*) FROM events"
)


class PlayLatencies(Latencies):
    """Reply times of keep, swap and look; a match's ``start`` is kept apart."""

    def __init__(self) -> None:
        super().__init__()
        self.starts = Latencies()

    def add(self, seconds: float, command: str = "") -> None:
        if command == "start":
            self.starts.add(seconds, command)
        else:
            super().add(seconds, command)

    def clear(self) -> None:
        super().clear()
        self.starts.clear()


class GnavHost(BenchClient):
    """A person at a Gnav table who hears when it is their turn and when a match ends,
    whether or not a command of theirs is waiting for its reply."""

    def __init__(self, latencies: Latencies | None = None) -> None:
        super().__init__(latencies)
        self._heard = b""
        #: Turns announced and not yet answered; matches ended and not yet restarted.
        self.turns = 0
        self.ended = 0
        self.wake = asyncio.Event()
        #: One command at a time: the turn's answer and the looks take turns.
        self.busy = asyncio.Lock()

    def data_received(self, data: bytes) -> None:
        text, seen = self._heard + data, 0
        for news in NEWS.finditer(text):
            if news.group("turn"):
                self.turns += 1
            else:
                self.ended += 1
            self.wake.set()
            seen = news.end()
        self._heard = text[max(seen, len(text) - NEWS_TAIL) :]
        super().data_received(data)

    async def say(self, command: str) -> str:
        async with self.busy:
            return await self.ask(command)


async def set_up_room(index: int, port: int, password: str, botdelay: float) -> GnavHost:
    """A new player, host of a new Gnav room with three normal computer players."""
    client = await GnavHost.open(port)
    player = f"G{index}"
    reply = await client.ask(f"create {player} {password}")
    if "Players here" not in reply:
        raise RuntimeError(f"{player} could not log in: {reply!r}")
    reply = await client.ask(f"newroom/gnav Gnav {index}")
    if "You made room" not in reply:
        raise RuntimeError(f"{player} could not make a room: {reply!r}")
    for _ in range(3):
        reply = await client.ask("addbot normal")
        if "takes a seat" not in reply:
            raise RuntimeError(f"{player} could not add a computer player: {reply!r}")
    reply = await client.ask(f"set botdelay={botdelay}")
    if "botdelay" not in reply:
        raise RuntimeError(f"{player} could not set botdelay: {reply!r}")
    return client


async def play(host: GnavHost, stop: asyncio.Event, counters: Counters, rng: random.Random) -> None:
    """Start a match, answer every turn at once, start the next match when one ends."""
    host.ended = 1  # the first match
    host.wake.set()
    while not stop.is_set():
        try:
            await asyncio.wait_for(host.wake.wait(), 1.0)
        except TimeoutError:
            continue
        host.wake.clear()
        if host.ended:
            host.ended = 0
            reply = await host.say("start")
            if "A match of Gnav begins" not in reply:
                counters.errors.append(f"start: {reply.strip()[:120]}")
        if host.turns:
            host.turns = 0
            move = rng.choice(("keep", "swap"))
            reply = await host.say(move)
            counters.commands += 1
            if REFUSED.search(reply):
                counters.errors.append(f"{move}: {reply.strip()[:120]}")
            else:
                counters.moves += 1


class Asker(Protocol):
    async def say(self, command: str) -> str: ...


async def look_now_and_then(
    host: Asker,
    every: float,
    stop: asyncio.Event,
    counters: Counters,
    rng: random.Random,
    looks: tuple[str, ...] = ("look",),
) -> None:
    """One of ``looks`` every ``every`` seconds on average (open loop)."""
    loop = asyncio.get_running_loop()
    next_at = loop.time() + rng.uniform(0, every)
    while not stop.is_set():
        delay = next_at - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        if stop.is_set():
            break
        next_at = max(next_at, loop.time() - every) + rng.expovariate(1 / every)
        await host.say(rng.choice(looks))
        counters.commands += 1


async def count_events(url: str, query: str = COUNT_EVENTS) -> tuple[int, ...]:
    """What ``query`` counts in the events stored so far: by default deals, computer
    players' moves, matches ended, turns kept for a person whose time ran out (none, if
    the bench answers every turn), and all events."""
    if url.startswith("sqlite"):

        def read() -> tuple[int, ...]:
            connection = sqlite3.connect(url.split("///", 1)[1], timeout=30)
            try:
                return tuple(int(value) for value in connection.execute(query).fetchone())
            finally:
                connection.close()

        return await asyncio.to_thread(read)
    connection = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        row = await connection.fetchrow(query)
        return tuple(int(value) for value in row)
    finally:
        await connection.close()
