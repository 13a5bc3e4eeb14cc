"""The Gnav room scenario: rooms of one person and three computer players, over telnet.

In each room a bench client is the host: it makes the room, seats three computer players
(normal) who wait ``botdelay`` before each move, and plays. Whenever the server tells it
"It is your turn" it answers keep or swap at random; when a match ends ("wins the match",
"is a draw") it starts another; and now and then it looks at the table. Its keep, swap
and look replies are timed (a match's start apart); the computer players' moves and the
deals are counted in the server's event log, which holds every one of them.

The same people play in the ``game`` scenario's mix (:func:`set_up_table`): there a
Gnav room seats two people, the host and a guest, either over telnet or over WebSockets
(:class:`WebGnavPerson`), and two computer players; only the host starts matches.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sqlite3
from typing import TYPE_CHECKING, Any, Protocol, cast

import asyncpg

from bench.loadgen import SGR, BenchClient, Counters, Latencies, WebBenchClient

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
#: The same, of the Gnav rooms only (for a mix of games: Dvorak has a ``draw`` event too).
COUNT_GNAV_EVENTS = COUNT_EVENTS + " WHERE room_id IN (SELECT id FROM rooms WHERE game = 'gnav')"


class NotSupported(RuntimeError):
    """The server has no Gnav (a release before it): ``newroom/gnav`` was refused."""


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


class HearsNews:
    """What a person at a Gnav table hears, whether or not a command of theirs is waiting
    for its reply: when it is their turn and when a match ends (:meth:`hear` is given all
    they are sent)."""

    if TYPE_CHECKING:  # the client's own: the client class after this one in the MRO has it

        async def ask(self, command: str) -> str: ...

    def _listen(self) -> None:
        self._heard = b""
        #: Turns announced and not yet answered; matches ended and not yet restarted.
        self.turns = 0
        self.ended = 0
        self.wake = asyncio.Event()
        #: One command at a time: the turn's answer and the looks take turns.
        self.busy = asyncio.Lock()

    def hear(self, data: bytes) -> None:
        text, seen = self._heard + data, 0
        for news in NEWS.finditer(text):
            if news.group("turn"):
                self.turns += 1
            else:
                self.ended += 1
            self.wake.set()
            seen = news.end()
        self._heard = text[max(seen, len(text) - NEWS_TAIL) :]

    async def say(self, command: str) -> str:
        async with self.busy:
            return await self.ask(command)


class TelnetGnavPerson(HearsNews, BenchClient):
    """A person at a Gnav table over telnet (in the gnavroom scenario, each room's host)."""

    def __init__(self, latencies: Latencies | None = None) -> None:
        self._listen()
        super().__init__(latencies)

    def data_received(self, data: bytes) -> None:
        self.hear(data)
        super().data_received(data)


class WebGnavPerson(HearsNews, WebBenchClient):
    """A person at a Gnav table over WebSockets, as the page talks to the web port: the
    news is read from the text frames, without their colours; the GMCP views are dropped."""

    def __init__(self, *arguments: Any) -> None:
        self._listen()
        super().__init__(*arguments)

    def _frame(self, data: str) -> None:
        if '{"text"' in data:
            sent = json.loads(data)
            for message in sent if isinstance(sent, list) else [sent]:
                text = message.get("text")
                if isinstance(text, str):
                    self.hear(SGR.sub("", text).encode())
        super()._frame(data)


GnavPerson = TelnetGnavPerson | WebGnavPerson


async def set_up_table(
    index: int | str,
    port: int,
    password: str,
    botdelay: float,
    bots: int = 3,
    people: int = 1,
    web_port: int = 0,
    web_people: int = 0,
    latencies: Latencies | None = None,
    create: bool = True,
) -> list[GnavPerson]:
    """A new Gnav room, ``Gnav <index>``, with ``people`` new players seated (the first
    its host; the last ``web_people`` of them over WebSockets to ``web_port``) and
    ``bots`` normal computer players who wait ``botdelay`` before each move (not new
    players but ones made before, if not ``create``). Raises
    :class:`NotSupported` if the server has no Gnav."""
    seated: list[GnavPerson] = []
    try:
        for number in range(people):
            person: GnavPerson
            if number >= people - web_people:
                person = cast(WebGnavPerson, await WebGnavPerson.open(web_port, latencies))
            else:
                person = cast(TelnetGnavPerson, await TelnetGnavPerson.open(port, latencies))
            seated.append(person)
            player = f"G{index}" if people == 1 else f"G{index}P{number}"
            reply = await person.ask(f"{'create' if create else 'connect'} {player} {password}")
            if "Players here" not in reply:
                raise RuntimeError(f"{player} could not log in: {reply!r}")
            if number == 0:
                reply = await person.ask(f"newroom/gnav Gnav {index}")
                if "You made room" not in reply:
                    raise NotSupported(f"{player} could not make a Gnav room: {reply.strip()[:200]!r}")
            else:
                reply = await person.ask(f"join Gnav {index}")
                if player not in reply:
                    raise RuntimeError(f"{player} could not join Gnav {index}: {reply!r}")
        host = seated[0]
        for _ in range(bots):
            reply = await host.ask("addbot normal")
            if "takes a seat" not in reply:
                raise RuntimeError(f"the host of Gnav {index} could not add a computer player: {reply!r}")
        reply = await host.ask(f"set botdelay={botdelay}")
        if "botdelay" not in reply:
            raise RuntimeError(f"the host of Gnav {index} could not set botdelay: {reply!r}")
    except BaseException:
        for person in seated:
            await person.close()
        raise
    return seated


async def set_up_room(index: int, port: int, password: str, botdelay: float) -> TelnetGnavPerson:
    """A new player, host of a new Gnav room with three normal computer players."""
    (host,) = await set_up_table(index, port, password, botdelay)
    assert isinstance(host, TelnetGnavPerson)
    return host


async def play(
    host: GnavPerson, stop: asyncio.Event, counters: Counters, rng: random.Random, starts: bool = True
) -> None:
    """Answer every turn at once; if ``starts`` (the host), start a match, and the next
    one when one ends."""
    host.ended = 1 if starts else 0  # the first match
    host.wake.set()
    while not stop.is_set():
        try:
            await asyncio.wait_for(host.wake.wait(), 1.0)
        except TimeoutError:
            continue
        host.wake.clear()
        ended, host.ended = host.ended, 0
        if ended and starts:
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
