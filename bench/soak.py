"""``python -m bench soak --minutes N``: a mixed population plays for N minutes while the
server's figures are read every minute, to find what grows with time rather than with
load (caches, the state of closed rooms, timers, tasks of gone connections).

The population, all on loopback against one server (``dvorak-mush serve``, SQLite or
PostgreSQL):

- Dvorak tables of three (two on telnet, one in the browser's WebSocket) playing with
  turns off, proposing cards and voting on them, talking; now and then one drops and
  comes back a few moves later (what was said meanwhile is kept for them). A table plays
  a game of 60 to 150 moves, deletes its room and makes a new one.
- Gnav rooms (one person, three computer players) and Ys rooms (one person, two
  computer players), playing match after match; each deletes its room and makes a new
  one every few minutes.
- Lobby talkers, idle players on telnet and on WebSockets, and a churn of players
  connecting, looking around and quitting.

Every minute one JSON line: the server's RSS and open files, its asyncio tasks, its
event loop's lag (from its ``/metrics``), the database's size, what was played, and the
p99 of each command kind the population sent. At the end, each figure's slope over the
minutes after the first (a least-squares line) and whether that slope is within the
figure's noise (see :func:`slope`).
"""

from __future__ import annotations

import asyncio
import math
import os
import random
import re
import sqlite3
import statistics
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg

from bench import gnavroom, ysroom
from bench.game import Seat, note_cards
from bench.loadgen import BenchClient, Counters, Latencies, WebBenchClient
from bench.metrics import scrape, summary
from bench.processes import ChildServer, dvorak_server
from bench.scenarios import OPEN_LIMITS, PASSWORD, POSTGRES, fresh_database

#: The population: tables and rooms, and people who do not play.
DVORAK_TABLES = 8
GNAV_ROOMS = 6
YS_ROOMS = 4
LOBBY_TALKERS = 10
IDLE_TELNET = 80
IDLE_WEB = 20
#: Seconds a Gnav or Ys room plays before its host deletes it and makes another.
ROOM_LIFETIME = (120.0, 240.0)
#: Seconds between two computer players' moves in the Gnav and Ys rooms.
BOTDELAY = 0.2
#: How the reply to ``newcard`` names the proposal to approve.
PROPOSED = re.compile(r"approve (\d+)")
#: The least rise of the event loop's lag that counts: uvloop's timers are whole
#: milliseconds, so a lag that rises by less is not told from one that does not.
LAG_FLOOR_MS = 1.0
#: Fewest replies of a command in a minute for its p99 to be reported.
P99_SAMPLES = 20
#: Seconds between two figures.
MINUTE = 60.0


def _sample_figures(server: ChildServer) -> dict[str, float]:
    """The server's memory and open files now, from /proc."""
    assert server.process is not None
    pid = server.process.pid
    rss = server.usage().rss_kib
    return {"rss_mib": round(rss / 1024, 1), "fds": len(os.listdir(f"/proc/{pid}/fd"))}


def _postgres_dsn(url: str) -> str:
    """The DSN asyncpg takes for the bench's PostgreSQL database ``url``."""
    return POSTGRES.rsplit("/", 1)[0] + "/" + url.rsplit("/", 1)[1]


async def database_bytes(url: str) -> int:
    """The database's size on disk (SQLite: the file and its write-ahead log)."""
    if url.startswith("sqlite"):
        path = Path(url.split("///", 1)[1])
        return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())
    connection = await asyncpg.connect(_postgres_dsn(url))
    try:
        return int(await connection.fetchval("SELECT pg_database_size(current_database())"))
    finally:
        await connection.close()


async def table_rows(url: str) -> dict[str, int]:
    """How many rows each table of the database holds."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1]

        def count() -> dict[str, int]:
            with sqlite3.connect(path) as connection:
                names = [n for (n,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
                return {n: connection.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0] for n in names}

        return await asyncio.to_thread(count)
    connection = await asyncpg.connect(_postgres_dsn(url))
    try:
        names = [r[0] for r in await connection.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
        return {n: int(await connection.fetchval(f'SELECT count(*) FROM "{n}"')) for n in names}
    finally:
        await connection.close()


async def log_in(client: BenchClient | WebBenchClient, name: str, create: bool) -> str:
    reply = await client.ask(f"{'create' if create else 'connect'} {name} {PASSWORD}")
    if "Players here" not in reply and "back at your seat" not in reply and "Seats, in turn order" not in reply:
        raise RuntimeError(f"{name} could not log in: {reply.strip()[:200]!r}")
    return reply


class Population:
    """Everyone the soak runs, and what they did since the last minute's figures."""

    def __init__(self, port: int, web_port: int, seed: int) -> None:
        self.port, self.web_port = port, web_port
        self.rng = random.Random(seed)
        self.latencies = Latencies()
        self.counters = Counters()
        self.stop = asyncio.Event()
        #: The players made so far (by what they do): the others log in as them again.
        self._made: set[str] = set()
        #: Rooms made and deleted, players dropped and back at their seats, idle players
        #: logged in, since the start.
        self.rooms_made = 0
        self.rooms_deleted = 0
        self.returns = 0
        self.logins = 0

    def _first_time(self, who: str) -> bool:
        """Whether ``who`` plays for the first time (their players are to be made)."""
        first = who not in self._made
        self._made.add(who)
        return first

    async def open(self, web: bool = False) -> BenchClient | WebBenchClient:
        if web:
            return await WebBenchClient.open(self.web_port, self.latencies)
        return await BenchClient.open(self.port, self.latencies)

    async def paused(self, low: float, high: float) -> bool:
        """Wait a while (between ``low`` and ``high`` seconds); False once the soak stops."""
        try:
            await asyncio.wait_for(self.stop.wait(), self.rng.uniform(low, high))
        except TimeoutError:
            return True
        return False

    async def forever(self, what: str, play: Callable[[], Awaitable[None]]) -> None:
        """Run ``play`` again and again until the soak stops; what failed is counted and
        the part starts again, as a player who lost their way would."""
        while not self.stop.is_set():
            try:
                await play()
            except (OSError, RuntimeError, TimeoutError, ValueError) as error:
                self.counters.errors.append(f"{what}: {type(error).__name__}: {str(error)[:160]}")
                await self.paused(1, 3)

    # -- the players -----------------------------------------------------------------

    async def dvorak_table(self, index: int) -> None:
        """One game of a Dvorak table of three, from making its room to deleting it."""
        names = [f"D{index}P{n}" for n in range(3)]
        create = self._first_time(f"dvorak {index}")
        seats: list[Seat] = []
        room = ""
        away: dict[int, int] = {}  # seat: moves until back
        try:
            for number, name in enumerate(names):
                client = await self.open(web=number == 2)
                seats.append(Seat(name, client))
                if "back at your seat" in await log_in(client, name, create):
                    await client.ask("leave now")  # at the table of a game that lost its way
            self.rooms_made += 1
            room = f"Soak {index}-{self.rooms_made}"
            host = seats[0]
            await host.ask(f"newroom {room}")
            await host.ask("set turns=off")
            for i in range(30):
                await host.ask(f"loadcard C{i}/{'AT'[i % 2]}/Soak card {i}.")
            for seat in seats[1:]:
                await seat.ask(f"join {room}")
            reply = await host.ask("start")
            if "You start" not in reply:
                raise RuntimeError(f"{room} did not start: {reply.strip()[:200]!r}")
            for seat in seats:
                note_cards(seat, await seat.ask("hand"))
            for move in range(self.rng.randint(60, 150)):
                if not await self.paused(0.3, 0.9):
                    break
                for number, left in list(away.items()):
                    if left > 0:
                        away[number] = left - 1
                        continue
                    del away[number]
                    seat = seats[number]
                    seat.client = await self.open(web=number == 2)
                    await log_in(seat.client, seat.name, create=False)
                    self.returns += 1
                    seat.hand.clear()
                    note_cards(seat, await seat.ask("hand"))
                present = [n for n in range(3) if n not in away]
                seat = seats[self.rng.choice(present)]
                await self._dvorak_move(seat, move, seats, away)
                if not away and self.rng.random() < 0.04:
                    number = self.rng.randrange(3)
                    await seats[number].client.close()  # gone, the seat kept
                    away[number] = self.rng.randint(3, 12)
                elif self.rng.random() < 0.2:
                    await seats[self.rng.choice(present)].ask(f"say move {move}, {len(away)} away")
                    self.counters.commands += 1
            for number in list(away):
                seats[number].client = await self.open(web=number == 2)
                await log_in(seats[number].client, seats[number].name, create=False)
                del away[number]
        finally:
            if room and seats and 0 not in away:
                # The table's game is over, or it lost its way: its room goes either way.
                await seats[0].ask(f"delroom {room}=force")
                self.rooms_deleted += 1
            for seat in seats:
                await seat.client.close()

    async def _dvorak_move(self, seat: Seat, move: int, seats: list[Seat], away: dict[int, int]) -> None:
        counters = self.counters
        if not away and move % 15 == 14:
            proposal = await seat.ask(f"newcard Idea {move}/T/Voted in during the soak.")
            number = PROPOSED.search(proposal)
            if number:
                await asyncio.gather(*(o.ask(f"approve {number.group(1)}") for o in seats if o is not seat))
            counters.commands += len(seats)
            counters.moves += 1
            return
        if len(seat.hand) < 3:
            reply = await seat.ask("draw")
        elif seat.hand and self.rng.random() < 0.6:
            card = next(iter(seat.hand))
            reply = await seat.ask(f"play {card}")
            seat.hand.pop(card, None)
        else:
            card = next(iter(seat.hand))
            reply = await seat.ask(f"discard {card}")
            seat.hand.pop(card, None)
        counters.commands += 1
        if reply.startswith("You "):
            counters.moves += 1
        note_cards(seat, reply)
        if self.rng.random() < 0.1:
            seat.hand.clear()
            note_cards(seat, await seat.ask("hand"))

    async def gnav_room(self, index: int) -> None:
        """A person and three computer players playing Gnav for a few minutes, then the
        room deleted."""
        self.rooms_made += 1
        create = self._first_time(f"gnav {index}")
        (host,) = await gnavroom.set_up_table(
            index,
            self.port,
            PASSWORD,
            BOTDELAY,
            web_port=self.web_port,
            web_people=index % 2,
            latencies=self.latencies,
            create=create,
        )
        await self._play_then_delete(
            host, lambda over: gnavroom.play(host, over, self.counters, self.rng), f"Gnav {index}"
        )

    async def ys_room(self, index: int) -> None:
        """A person and two computer players playing Ys for a few minutes, then the room
        deleted."""
        self.rooms_made += 1
        create = self._first_time(f"ys {index}")
        host = await ysroom.set_up_room(index, self.port, PASSWORD, BOTDELAY, self.latencies, create)
        await self._play_then_delete(host, lambda over: ysroom.play(host, over, self.counters, self.rng), f"Ys {index}")

    async def _play_then_delete(self, host: Any, play: Callable[[asyncio.Event], Awaitable[None]], room: str) -> None:
        """Let ``play`` play until the room's time is up (or the soak stops), then delete
        the room."""
        over = asyncio.Event()

        async def time_is_up() -> None:
            await self.paused(*ROOM_LIFETIME)
            over.set()

        timer = asyncio.create_task(time_is_up())
        try:
            await play(over)
            async with host.busy:
                await host.ask(f"delroom {room}=force")
            self.rooms_deleted += 1
        finally:
            timer.cancel()
            await host.close()

    async def lobby_talker(self, index: int) -> None:
        client = await self.open(web=index % 3 == 0)
        try:
            await log_in(client, f"Talker{index}", create=self._first_time(f"talker {index}"))
            while await self.paused(0.5, 3):
                command = self.rng.choice(("say hello there", "say anyone for Gnav?", "who", "look", "rooms"))
                await client.ask(command)
                self.counters.commands += 1
        finally:
            await client.close()

    async def idle(self, index: int, web: bool) -> None:
        """An idle player: logs in, sits a while (sometimes minutes), quits or drops."""
        name = f"{'W' if web else 'I'}{index}"
        client = await self.open(web=web)
        try:
            await log_in(client, name, create=self._first_time(name))
            self.logins += 1
            await self.paused(5, 240)
            if self.rng.random() < 0.5 and not self.stop.is_set():
                await client.ask(self.rng.choice(("look", "who", "rooms", "help")))
                if isinstance(client, BenchClient):
                    client.send("quit")
        finally:
            await client.close()

    def start(self) -> list[asyncio.Task[None]]:
        parts: list[tuple[str, Callable[[], Awaitable[None]]]] = []
        for i in range(DVORAK_TABLES):
            parts.append((f"dvorak {i}", lambda i=i: self.dvorak_table(i)))
        for i in range(GNAV_ROOMS):
            parts.append((f"gnav {i}", lambda i=i: self.gnav_room(i)))
        for i in range(YS_ROOMS):
            parts.append((f"ys {i}", lambda i=i: self.ys_room(i)))
        for i in range(LOBBY_TALKERS):
            parts.append((f"talker {i}", lambda i=i: self.lobby_talker(i)))
        for i in range(IDLE_TELNET + IDLE_WEB):
            parts.append((f"idle {i}", lambda i=i: self.idle(i, web=i >= IDLE_TELNET)))
        return [asyncio.create_task(self.forever(what, play)) for what, play in parts]


def slope(values: list[float], floor: float = 0.0) -> dict[str, float | bool]:
    """The least-squares slope of ``values`` (one a minute) a minute, and whether the
    figure grows beyond its noise: the rise the line makes over the whole run is more
    than twice the spread of the values about the line, more than 5% of their mean (a
    figure that varies less than that is flat however straight it climbs; one that falls
    leaks nothing), and more than ``floor`` (what the figure cannot tell apart)."""
    n = len(values)
    xs = list(range(n))
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(values)
    spread_x = sum((x - mean_x) ** 2 for x in xs)
    per_minute = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, values, strict=True)) / spread_x
    residuals = [y - (mean_y + per_minute * (x - mean_x)) for x, y in zip(xs, values, strict=True)]
    noise = statistics.pstdev(residuals)
    change = per_minute * (n - 1)
    grows = change > max(2 * noise, 0.05 * abs(mean_y), floor)
    return {"per_minute": round(per_minute, 3), "change": round(change, 2), "noise": round(noise, 3), "grows": grows}


async def soak(backend: str, minutes: int, seed: int = 46, emit: Callable[[dict[str, Any]], None] = print) -> dict:
    """Run the population for ``minutes`` and report each minute (``emit``) and, at the
    end, each figure's slope over the minutes after the first."""
    async with fresh_database(backend) as url:
        server = dvorak_server(url, **OPEN_LIMITS, DVORAK_COMMAND_RATE="100", DVORAK_COMMAND_BURST="200")
        await server.start()
        await server.logged("listening for browsers")
        population = Population(server.port, server.web_port, seed)
        tasks = population.start()
        rows: list[dict[str, Any]] = []
        rows_after_first: dict[str, int] = {}
        try:
            previous, _ = await scrape(server.web_port)
            began = time.monotonic()
            for minute in range(1, minutes + 1):
                await asyncio.sleep(began + minute * MINUTE - time.monotonic())
                now, took = await scrape(server.web_port)
                lag = summary(previous, now, MINUTE, [took])
                previous = now
                by_command = {
                    command: summary_["p99_ms"]
                    for command, summary_ in population.latencies.summary_by_command().items()
                    if summary_["count"] >= P99_SAMPLES
                }
                counters = population.counters
                row = {
                    "minute": minute,
                    **_sample_figures(server),
                    "tasks": int(now.get(("dvorak_tasks", ()), math.nan)),
                    "loop_lag_mean_ms": lag["loop_lag_mean_ms"],
                    "loop_lag_p99_ms": lag["loop_lag_p99_ms"],
                    "database_mib": round(await database_bytes(url) / 2**20, 2),
                    "connections": sum(lag["connections"].values()),
                    "rooms_loaded": int(now.get(("dvorak_rooms_loaded", ()), 0)),
                    "commands": counters.commands,
                    "moves": counters.moves,
                    "commands_counted_by_server": int(
                        sum(v for (name, _), v in now.items() if name == "dvorak_commands_total")
                    ),
                    "rooms_made": population.rooms_made,
                    "rooms_deleted": population.rooms_deleted,
                    "returns": population.returns,
                    "idle_logins": population.logins,
                    "errors": len(counters.errors),
                    "p99_ms_by_command": by_command,
                }
                if counters.errors:
                    row["errors_seen"] = sorted(set(counters.errors))[:5]
                population.latencies.clear()
                counters.commands = counters.moves = 0
                counters.errors.clear()
                rows.append(row)
                if minute == 1:
                    rows_after_first = await table_rows(url)
                emit({"scenario": "soak", "backend": backend, **row})
        finally:
            population.stop.set()
            rows_at_end = await table_rows(url)
            await asyncio.wait(tasks, timeout=30)
            for task in tasks:
                task.cancel()
            await server.stop()
    after_first = rows[1:]
    slopes = {}
    if len(after_first) >= 3:
        for figure in ("rss_mib", "fds", "tasks", "loop_lag_mean_ms", "loop_lag_p99_ms", "database_mib"):
            values = [float(row[figure]) for row in after_first if row[figure] is not None]
            if len(values) >= 3:
                # The loop's timers are whole milliseconds: a lag's rise under one is none.
                slopes[figure] = slope(values, LAG_FLOOR_MS if figure.startswith("loop_lag") else 0.0)
        played = [float(row["commands_counted_by_server"]) for row in after_first]
        size = [float(row["database_mib"]) for row in after_first]
        # The database should grow with what was played: its growth a thousand commands.
        if played[-1] > played[0]:
            slopes["database_kib_per_1000_commands"] = round(
                (size[-1] - size[0]) * 1024 / (played[-1] - played[0]) * 1000, 2
            )
    grown = {
        table: count - rows_after_first.get(table, 0)
        for table, count in sorted(rows_at_end.items())
        if count != rows_after_first.get(table, 0)
    }
    return {"scenario": "soak-slopes", "backend": backend, "minutes": minutes, "slopes": slopes, "rows_grown": grown}
