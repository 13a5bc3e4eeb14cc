"""The benchmark scenarios. Each starts its own server on a fresh database, runs, and
returns the figures it measured."""

from __future__ import annotations

import asyncio
import os
import random
import resource
import secrets
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC
from pathlib import Path
from typing import Any, Protocol

import asyncpg

from bench import profiling
from bench.evennia import EvenniaServer, install
from bench.evenniaclient import EvenniaClient
from bench.game import Room, bystander, play_room, set_up_room
from bench.gnavroom import (
    COUNT_GNAV_EVENTS,
    GnavPerson,
    NotSupported,
    PlayLatencies,
    WebGnavPerson,
    count_events,
    look_now_and_then,
    play,
    set_up_table,
)
from bench.gnavroom import set_up_room as set_up_gnav_room
from bench.loadgen import BenchClient, Counters, Latencies, Listener, WebBenchClient, mark
from bench.metrics import Scraper
from bench.processes import ChildServer, MqttBroker, Usage, current_code, dvorak_server, echo_server, usage
from bench.ysroom import COUNT_EVENTS as YS_EVENTS
from bench.ysroom import play as play_ys
from bench.ysroom import set_up_room as set_up_ys_room

POSTGRES = os.environ.get("DVORAK_BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
PASSWORD = "bench-password"
#: Settings every benchmarked server gets: room for thousands of players, all made,
#: connected, logged in, talking and writing from loopback (one address, where the limits
#: of one address would hold them all to one player's share). A release that has no such
#: setting ignores it.
OPEN_LIMITS = {
    "DVORAK_MAX_CONNECTIONS": "20000",
    "DVORAK_MAX_CONNECTIONS_PER_ADDRESS": "20000",
    "DVORAK_ACCOUNTS_PER_ADDRESS": "100000",
    "DVORAK_LOGIN_TIMEOUT": "3600",
    "DVORAK_PASSWORD_CHECKS_PER_MINUTE": "1000000",
    "DVORAK_SPEECH_RATE_PER_ADDRESS": "1e9",
    "DVORAK_WRITES_PER_HOUR": "1000000",
    "DVORAK_WEB_PENDING_PER_ADDRESS": "20000",
}


@asynccontextmanager
async def fresh_database(backend: str) -> AsyncIterator[str]:
    """A URL to an empty database of ``backend``, removed afterwards."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="dvorak-bench-") as folder:
            yield f"sqlite+aiosqlite:///{Path(folder) / 'bench.sqlite3'}"
        return
    name = f"dvorak_bench_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(POSTGRES)
    await admin.execute(f'CREATE DATABASE "{name}"')
    await admin.close()
    try:
        yield POSTGRES.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://") + f"/{name}"
    finally:
        admin = await asyncpg.connect(POSTGRES)
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def in_batches(factories: list, width: int) -> list:  # type: ignore[type-arg]
    """Run coroutine factories ``width`` at a time; their results in order."""
    results: list[Any] = [None] * len(factories)
    semaphore = asyncio.Semaphore(width)

    async def one(index: int) -> None:
        async with semaphore:
            results[index] = await factories[index]()

    await asyncio.gather(*(one(i) for i in range(len(factories))))
    return results


def own_cpu() -> float:
    """CPU seconds the load generator itself has used."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measured(
    server: Measured,
    start_cpu: float,
    seconds: float,
    counters: Counters,
    latencies: Latencies,
    loadgen_cpu: float,
) -> dict[str, Any]:
    use = server.usage()
    return {
        "commands_per_s": round(counters.commands / seconds),
        "moves_per_s": round(counters.moves / seconds),
        **{k: round(v, 1) for k, v in latencies.summary().items()},
        "server_cpu_cores": round((use.cpu_seconds - start_cpu) / seconds, 2),
        "server_peak_rss_mib": round(use.peak_rss_kib / 1024, 1),
        "loadgen_cpu_cores": round((own_cpu() - loadgen_cpu) / seconds, 2),
        "p99_ms_by_command": latencies.slowest_commands(),
    }


async def seated_rooms(port: int, rooms: int, web_port: int = 0, web_seats: int = 0, gmcp_seats: int = 0) -> list[Room]:
    """``rooms`` rooms of five new players each, made 40 at a time; ``web_seats`` of each
    room's players over WebSockets, ``gmcp_seats`` on telnet with GMCP."""
    setup = Latencies()
    return await in_batches(
        [
            lambda i=i: set_up_room(
                i, port, setup, PASSWORD, create=True, web_port=web_port, web_seats=web_seats, gmcp_seats=gmcp_seats
            )
            for i in range(rooms)
        ],
        40,
    )


def seats_of(share: float, seats: int = 5, what: str = "web") -> int:
    """How many of a room's ``seats`` are ``what`` players for a share of them (0 to 1)."""
    if not 0 <= share <= 1:
        raise ValueError(f"the {what} share must be between 0 and 1, not {share}")
    return round(seats * share)


def split_rooms(rooms: int, gnav_share: float) -> tuple[int, int]:
    """How many of ``rooms`` are Dvorak rooms and how many Gnav rooms, for the share of
    Gnav rooms ``gnav_share`` (0 to 1)."""
    if not 0 <= gnav_share <= 1:
        raise ValueError(f"the Gnav share must be between 0 and 1, not {gnav_share}")
    gnav = round(rooms * gnav_share)
    return rooms - gnav, gnav


#: A Gnav room of the game scenario's mix: two people (the host and a guest) and two
#: normal computer players thinking 0.2 s before each move, as in ``gnavroom``.
GNAV_PEOPLE, GNAV_BOTS, GNAV_BOTDELAY = 2, 2, 0.2


def rounded(summary: dict[str, float]) -> dict[str, float]:
    return {key: round(value, 1) for key, value in summary.items()}


async def game(
    backend: str,
    rooms: int = 200,
    rate: float = 3000.0,
    seconds: float = 20.0,
    web_share: float = 0.0,
    gnav_share: float = 0.0,
    workers: int = 1,
    profile: Path | None = None,
    gmcp_share: float = 0.0,
    handoff: bool = True,
) -> dict[str, Any]:
    """``rooms`` rooms: ``gnav_share`` of them (rounded to whole rooms) Gnav rooms of two
    people and two computer players, the others Dvorak rooms of five players offered
    ``rate`` moves a second in all. ``web_share`` of each room's people (rounded to whole
    seats: of five in a Dvorak room, of two in a Gnav room) are WebSocket players;
    ``gmcp_share`` of a Dvorak room's five are telnet players who asked for GMCP, as MUD
    clients such as Mudlet do, and are sent the table, their hand and the votes.

    The usual fields are the Dvorak rooms' alone, as before there were Gnav rooms in the
    mix (their telnet and web players' replies apart in ``telnet`` and ``web``); ``gnav``
    holds the Gnav rooms' figures (the people's replies, their moves and the computer
    players' counted in the event log); ``total_moves_per_s`` both games' committed moves,
    ``server_cpu_us_per_move`` the server's CPU time over them, in microseconds;
    ``all`` the replies of everyone. A server without web players or without Gnav (an
    earlier release, see ``python -m bench compare``) plays the rest of the mix: what it
    lacks is named in ``lacks``, the web seats played over telnet, the Gnav rooms left out.

    With ``workers`` above 1 the server is ``serve --workers <workers>`` (PostgreSQL, an
    MQTT broker of its own): a room's players land on whichever worker the kernel gives
    their connections, as they would, and the CPU is the workers' summed; its telnet
    players are then handed to the worker serving their room, unless ``handoff`` is
    False (``DVORAK_HANDOFF=off``).

    With ``profile`` (a file to write; one server process only) the server is sampled
    through the measured run, and ``profile`` in the figures gives its time by stage
    (:mod:`bench.profiling`)."""
    web_seats, gnav_web = seats_of(web_share), seats_of(web_share, GNAV_PEOPLE)
    gmcp_seats = seats_of(gmcp_share, what="GMCP")
    if web_seats + gmcp_seats > 5:
        raise ValueError(f"{web_seats} web seats and {gmcp_seats} GMCP seats: more than a room's five")
    dvorak_rooms, gnav_rooms = split_rooms(rooms, gnav_share)
    async with fresh_database(backend) as url, workers_broker(workers, handoff) as (broker, cluster):
        server = dvorak_server(url, **OPEN_LIMITS, **cluster)
        await server.start()
        try:
            lacks: dict[str, str] = {}
            await every_worker_listening(server, workers)
            if web_seats or gnav_web:
                try:
                    await server.logged("listening for browsers", timeout=15)
                except TimeoutError:
                    lacks["web"] = "it never listened for browsers: its web seats were played over telnet"
                    web_seats = gnav_web = 0
            tables = await gnav_tables(server, gnav_rooms, gnav_web, lacks)
            room_list = await seated_rooms(server.port, dvorak_rooms, server.web_port, web_seats, gmcp_seats)
            by_kind, counters = {"telnet": Latencies(), "web": Latencies()}, Counters()
            gnav_by_kind, gnav_counters = {"telnet": PlayLatencies(), "web": PlayLatencies()}, Counters()
            for room in room_list:
                for seat in room.seats:
                    seat.client.latencies = by_kind["web" if isinstance(seat.client, WebBenchClient) else "telnet"]
            for table in tables:
                for person in table:
                    person.latencies = gnav_by_kind["web" if isinstance(person, WebGnavPerson) else "telnet"]
            stop = asyncio.Event()
            rng = random.Random(7)
            interval = dvorak_rooms / rate
            tasks = [
                asyncio.create_task(play_room(room, interval, stop, counters, random.Random(rng.random())))
                for room in room_list
            ]
            tasks += [
                asyncio.create_task(bystander(seat, stop, counters, random.Random(rng.random()), every=5.0))
                for room in room_list
                for seat in room.seats
            ]
            gnav_rng = random.Random(17)
            for table in tables:
                for number, person in enumerate(table):
                    person_rng = random.Random(gnav_rng.random())
                    tasks.append(asyncio.create_task(play(person, stop, gnav_counters, person_rng, starts=number == 0)))
                    tasks.append(asyncio.create_task(look_now_and_then(person, 5.0, stop, gnav_counters, person_rng)))
            await asyncio.sleep(2.0)  # warm up: every first Gnav match under way too
            for latencies in (*by_kind.values(), *gnav_by_kind.values()):
                latencies.clear()
            for each in (counters, gnav_counters):
                each.commands = each.moves = each.approvals = 0
                each.errors.clear()
            before = await count_events(url, COUNT_GNAV_EVENTS) if tables else ()
            if workers > 1:
                # /metrics on the shared web port answers from whichever worker got the connection.
                lacks["metrics"] = "several workers, each with its own /metrics: the server's own figures are left out"
            scraper = Scraper(server.web_port) if "web" not in lacks and workers == 1 else None
            if scraper is not None and not await scraper.start():
                lacks["metrics"] = "it has no /metrics: the server's own figures are left out"
                scraper = None
            database_before = await database_cpu(url)
            broker_before = broker.usage().cpu_seconds if broker is not None else 0.0
            start_cpu, loadgen_cpu, began = server.usage().cpu_seconds, own_cpu(), time.perf_counter()
            print(f"measured run begins ({seconds:g} s)", file=sys.stderr, flush=True)
            recorder = profiling.start(server.process.pid, seconds, profile) if profile is not None else None
            await asyncio.sleep(seconds)
            elapsed = time.perf_counter() - began
            latencies = Latencies.merged(*by_kind.values())
            result = measured(server, start_cpu, elapsed, counters, latencies, loadgen_cpu)
            if database_before:
                result["database_cpu_cores"] = round(cpu_between(database_before, await database_cpu(url)) / elapsed, 2)
            if broker is not None:
                result["broker_cpu_cores"] = round((broker.usage().cpu_seconds - broker_before) / elapsed, 2)
            after = await count_events(url, COUNT_GNAV_EVENTS) if tables else ()
            result["approvals_per_s"] = round(counters.approvals / elapsed)
            result["dvorak_rooms"] = len(room_list)
            result["web_players"] = len(room_list) * web_seats
            result["gmcp_players"] = len(room_list) * gmcp_seats
            if scraper is not None:
                result["server"] = await scraper.stop()
            for kind, part in by_kind.items():
                if part.samples:
                    result[kind] = rounded(part.summary())
            gnav_moves = 0
            if tables:
                deals, bot_moves, matches, timeouts, _ = (a - b for a, b in zip(after, before, strict=True))
                gnav_moves = gnav_counters.moves + bot_moves
                result["gnav"] = gnav_figures(
                    tables, gnav_by_kind, gnav_counters, elapsed, bot_moves, deals, matches, timeouts
                )
            result["total_moves_per_s"] = round((counters.moves + gnav_moves) / elapsed)
            if counters.moves + gnav_moves:
                # What the target is set in: the server's CPU (all its threads and
                # workers, the kernel's work for it included) over the moves it committed.
                result["server_cpu_us_per_move"] = round(
                    result["server_cpu_cores"] * elapsed / (counters.moves + gnav_moves) * 1e6
                )
            if recorder is not None and profile is not None:
                # Waited for once the moves are counted: py-spy writes its stacks after its run.
                sampled = await asyncio.to_thread(profiling.finish, recorder, profile, seconds)
                result["profile"] = profiling.per_move(sampled, counters.moves + gnav_moves)
            result["all"] = rounded(Latencies.merged(*by_kind.values(), *gnav_by_kind.values()).summary())
            if lacks:
                result["lacks"] = lacks
            stop.set()
            await asyncio.wait(tasks, timeout=10)
            for room in room_list:
                for seat in room.seats:
                    await seat.client.close()
            for table in tables:
                for person in table:
                    await person.close()
            result["offered_moves_per_s"] = rate
            result["workers"] = workers
            if workers > 1:
                result["handoff"] = handoff
            return result
        finally:
            await server.stop()


async def gnav_tables(
    server: ChildServer, rooms: int, web_people: int, lacks: dict[str, str]
) -> list[list[GnavPerson]]:
    """The game scenario's Gnav rooms, made 40 at a time; none, and ``lacks["gnav"]`` says
    why, if the server refuses the first (it has no Gnav)."""
    if not rooms:
        return []

    def table(index: int) -> Any:
        return set_up_table(
            index,
            server.port,
            PASSWORD,
            GNAV_BOTDELAY,
            bots=GNAV_BOTS,
            people=GNAV_PEOPLE,
            web_port=server.web_port,
            web_people=web_people,
        )

    try:
        first = await table(0)
    except NotSupported as refusal:
        lacks["gnav"] = f"{refusal}: its Gnav rooms were left out"
        return []
    return [first, *await in_batches([lambda i=i: table(i) for i in range(1, rooms)], 40)]


def gnav_figures(
    tables: list[list[GnavPerson]],
    by_kind: dict[str, PlayLatencies],
    counters: Counters,
    elapsed: float,
    bot_moves: int,
    deals: int,
    matches: int,
    timeouts: int,
) -> dict[str, Any]:
    """What the Gnav rooms of the game scenario did: the people's replies (a match's
    ``start`` apart) and moves, and the computer players' moves and the deals the server
    stored."""
    latencies = Latencies.merged(*by_kind.values())
    starts = Latencies.merged(*(part.starts for part in by_kind.values())).summary()
    figures: dict[str, Any] = {
        "rooms": len(tables),
        "people": sum(len(table) for table in tables),
        "web_people": sum(isinstance(person, WebGnavPerson) for table in tables for person in table),
        "bots": len(tables) * GNAV_BOTS,
        "botdelay": GNAV_BOTDELAY,
        "moves_per_s": round((counters.moves + bot_moves) / elapsed, 1),
        "human_moves_per_s": round(counters.moves / elapsed, 1),
        "bot_moves_per_s": round(bot_moves / elapsed, 1),
        "deals_per_s": round(deals / elapsed, 1),
        "matches_per_s": round(matches / elapsed, 2),
        "commands_per_s": round(counters.commands / elapsed, 1),
        **rounded(latencies.summary()),
        "start_p99_ms": round(starts["p99_ms"], 1) if starts["count"] else None,
        "p99_ms_by_command": latencies.slowest_commands(),
        "late_moves": len(counters.errors),
        "turns_timed_out": timeouts,
    }
    for kind, part in by_kind.items():
        if part.samples:
            figures[kind] = rounded(part.summary())
    return figures


async def gnav_rooms(
    backend: str, rooms: int = 200, seconds: float = 20.0, botdelay: float = 0.2, look_every: float = 5.0
) -> dict[str, Any]:
    """``rooms`` Gnav rooms, each one person over telnet and three normal computer players
    waiting ``botdelay`` before each move: the person answers each turn at once (keep or
    swap), starts a new match when one ends and looks every ``look_every`` seconds on
    average. Their replies' times, and the computer players' moves and the deals the
    server stored meanwhile (see ``bench.gnavroom``)."""
    async with fresh_database(backend) as url:
        server = dvorak_server(url, **OPEN_LIMITS)
        await server.start()
        try:
            hosts = await in_batches(
                [lambda i=i: set_up_gnav_room(i, server.port, PASSWORD, botdelay) for i in range(rooms)], 40
            )
            latencies, counters = PlayLatencies(), Counters()
            for host in hosts:
                host.latencies = latencies
            stop, rng = asyncio.Event(), random.Random(17)
            tasks = [asyncio.create_task(play(host, stop, counters, random.Random(rng.random()))) for host in hosts]
            tasks += [
                asyncio.create_task(look_now_and_then(host, look_every, stop, counters, random.Random(rng.random())))
                for host in hosts
            ]
            await asyncio.sleep(2.0)  # warm up: every first match under way
            latencies.clear()
            counters.commands = counters.moves = 0
            counters.errors.clear()
            before = await count_events(url)
            start_cpu, loadgen_cpu, began = server.usage().cpu_seconds, own_cpu(), time.perf_counter()
            await asyncio.sleep(seconds)
            elapsed = time.perf_counter() - began
            use, loadgen = server.usage(), own_cpu() - loadgen_cpu
            after = await count_events(url)
            stop.set()
            await asyncio.wait(tasks, timeout=15)
            deals, bot_moves, matches, timeouts, events = (a - b for a, b in zip(after, before, strict=True))
            starts = latencies.starts.summary()
            result = {
                "rooms": rooms,
                "botdelay": botdelay,
                "commands_per_s": round(counters.commands / elapsed, 1),
                "human_moves_per_s": round(counters.moves / elapsed, 1),
                **{k: round(v, 1) for k, v in latencies.summary().items()},
                "p99_ms_by_command": latencies.slowest_commands(),
                "start_p99_ms": round(starts["p99_ms"], 1) if starts["count"] else None,
                "bot_moves_per_s": round(bot_moves / elapsed, 1),
                "deals_per_s": round(deals / elapsed, 1),
                "matches_per_s": round(matches / elapsed, 2),
                "events_per_s": round(events / elapsed, 1),
                "server_cpu_cores": round((use.cpu_seconds - start_cpu) / elapsed, 2),
                "server_rss_mib": round(use.rss_kib / 1024, 1),
                "server_peak_rss_mib": round(use.peak_rss_kib / 1024, 1),
                "loadgen_cpu_cores": round(loadgen / elapsed, 2),
                "late_moves": len(counters.errors),
                "turns_timed_out": timeouts,
            }
            for host in hosts:
                await host.close()
            return result
        finally:
            await server.stop()


async def ys_rooms(
    backend: str, rooms: int = 50, seconds: float = 20.0, botdelay: float = 0.2, look_every: float = 5.0
) -> dict[str, Any]:
    """``rooms`` Ys rooms, each one person over telnet (with GMCP) and two normal computer
    players waiting ``botdelay`` before each move: the person answers whatever the table
    asks of them at once (bid, place, choose), starts a new game when one ends and types
    ``board`` or ``screen`` every ``look_every`` seconds on average. Their replies' times,
    and the computer players' decisions, the rounds and the games the server stored
    meanwhile (see ``bench.ysroom``)."""
    async with fresh_database(backend) as url:
        server = dvorak_server(url, **OPEN_LIMITS)
        await server.start()
        try:
            hosts = await in_batches(
                [lambda i=i: set_up_ys_room(i, server.port, PASSWORD, botdelay) for i in range(rooms)], 40
            )
            latencies, counters = PlayLatencies(), Counters()
            for host in hosts:
                host.latencies = latencies
            stop, rng = asyncio.Event(), random.Random(19)
            tasks = [asyncio.create_task(play_ys(host, stop, counters, random.Random(rng.random()))) for host in hosts]
            tasks += [
                asyncio.create_task(
                    look_now_and_then(
                        host, look_every, stop, counters, random.Random(rng.random()), ("board", "screen")
                    )
                )
                for host in hosts
            ]
            await asyncio.sleep(2.0)  # warm up: every first game under way
            latencies.clear()
            counters.commands = counters.moves = 0
            counters.errors.clear()
            before = await count_events(url, YS_EVENTS)
            start_cpu, loadgen_cpu, began = server.usage().cpu_seconds, own_cpu(), time.perf_counter()
            await asyncio.sleep(seconds)
            elapsed = time.perf_counter() - began
            use, loadgen = server.usage(), own_cpu() - loadgen_cpu
            after = await count_events(url, YS_EVENTS)
            stop.set()
            await asyncio.wait(tasks, timeout=15)
            rounds, bot_moves, games, timeouts, events = (a - b for a, b in zip(after, before, strict=True))
            starts = latencies.starts.summary()
            result = {
                "rooms": rooms,
                "botdelay": botdelay,
                "commands_per_s": round(counters.commands / elapsed, 1),
                "human_moves_per_s": round(counters.moves / elapsed, 1),
                **{k: round(v, 1) for k, v in latencies.summary().items()},
                "by_command": latencies.summary_by_command(),
                "start_p99_ms": round(starts["p99_ms"], 1) if starts["count"] else None,
                "bot_moves_per_s": round(bot_moves / elapsed, 1),
                "rounds_per_s": round(rounds / elapsed, 2),
                "games_finished": games,
                "games_per_s": round(games / elapsed, 2),
                "events_per_s": round(events / elapsed, 1),
                "server_cpu_cores": round((use.cpu_seconds - start_cpu) / elapsed, 2),
                "server_rss_mib": round(use.rss_kib / 1024, 1),
                "server_peak_rss_mib": round(use.peak_rss_kib / 1024, 1),
                "loadgen_cpu_cores": round(loadgen / elapsed, 2),
                "refused_moves": len(counters.errors),
                "refused_examples": counters.errors[:3],
                "moves_timed_out": timeouts,
            }
            for host in hosts:
                await host.close()
            return result
        finally:
            await server.stop()


class Talker(Protocol):
    """A connection that sends a line and waits for its reply (ours, or Evennia's)."""

    async def ask(self, command: str) -> str: ...


class Measured(Protocol):
    """A server under test whose CPU and memory can be read (ours, or Evennia)."""

    def usage(self) -> Usage: ...


async def paced_talk(client: Talker, every: float, stop: asyncio.Event, counters: Counters, rng: random.Random) -> None:
    """A connection saying something every ``every`` seconds on average (open loop)."""
    next_at = asyncio.get_running_loop().time() + rng.uniform(0, every)
    while not stop.is_set():
        delay = next_at - asyncio.get_running_loop().time()
        if delay > 0:
            await asyncio.sleep(delay)
        next_at = max(next_at, asyncio.get_running_loop().time() - every) + rng.expovariate(1 / every)
        await client.ask(f"say chatter {rng.randrange(10**6)}")
        counters.commands += 1


async def run_window(
    server: Measured,
    tasks: list,  # type: ignore[type-arg]
    stop: asyncio.Event,
    counters: Counters,
    latencies: Latencies,
    seconds: float,
    totals: Callable[[], dict[str, float]] | None = None,
) -> dict[str, Any]:
    """Warm up, measure for ``seconds``, stop the tasks; the figures. ``totals``, if
    given, counts things as they grow (say, lines heard): each count's growth a second
    over the measured window is given as ``<name>_per_s`` (whole, or to 0.01 if the
    count is a float, as CPU seconds are)."""
    await asyncio.sleep(2.0)
    latencies.clear()
    counters.commands = counters.moves = 0
    before = totals() if totals else {}
    start_cpu, loadgen_cpu, began = server.usage().cpu_seconds, own_cpu(), time.perf_counter()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - began
    result = measured(server, start_cpu, elapsed, counters, latencies, loadgen_cpu)
    for name, count in (totals() if totals else {}).items():
        rate = (count - before[name]) / elapsed
        result[f"{name}_per_s"] = round(rate, 2) if isinstance(count, float) else round(rate)
    stop.set()
    await asyncio.wait(tasks, timeout=15)
    return result


async def chat(
    backend: str, players: int = 100, rate: float = 2000.0, seconds: float = 20.0, where: str = "room", away: int = 0
) -> dict[str, Any]:
    """``players`` all talking, ``rate`` says a second in all (a rate no server meets
    makes each say as soon as the one before is echoed), each heard by everyone else
    there. ``where`` is ``room``: seated in one game room, with ``away`` more seated
    there whose connections dropped (what is said is then kept for them); or ``lobby``."""
    if where not in ("room", "lobby") or away < 0 or (away and where != "room"):
        raise ValueError("chat: where is room or lobby; players away only in a room")
    async with fresh_database(backend) as url:
        server = dvorak_server(url, **OPEN_LIMITS, DVORAK_COMMAND_RATE="1000", DVORAK_COMMAND_BURST="1000")
        await server.start()
        try:
            latencies, counters = Latencies(), Counters()
            clients = []
            for i in range(players + away):
                client = await BenchClient.open(server.port, latencies)
                await client.ask(f"create Talker{i} {PASSWORD}")
                if where == "room":
                    await client.ask("newroom Chatroom" if i == 0 else "join chatroom")
                clients.append(client)
            for gone in clients[players:]:
                await gone.close()  # seated, and away: their seats are kept
            clients = clients[:players]
            stop, rng = asyncio.Event(), random.Random(3)
            tasks = [asyncio.create_task(paced_talk(c, players / rate, stop, counters, rng)) for c in clients]
            result = await run_window(server, tasks, stop, counters, latencies, seconds)
            result.update(offered_says_per_s=rate, where=where, away=away)
            result["bytes_received_by_listeners_per_s"] = round(sum(c.received for c in clients) / (seconds + 2))
            for client in clients:
                await client.close()
            return result
        finally:
            await server.stop()


async def evennia_chat(players: int = 100, rate: float = 2000.0, seconds: float = 20.0) -> dict[str, Any]:
    """The chat load against Evennia (``bench/evennia.py``): ``players`` accounts made
    and connected over telnet, their characters all in Limbo, saying ``rate`` lines a
    second in all, paced as in ``chat``; each say timed from sending to the speaker's
    echo, and the lines the others heard counted. A stalled run is told from a slow one by
    ``players_stuck`` (players still waiting for an echo after the run: it was lost) and
    ``amp_link_drops`` (the times the link between Evennia's processes dropped, losing
    what was on it; ``amp_reads_kept``: the reads it would have dropped for, see
    :data:`bench.evennia.AMP_PLUGIN`)."""
    installation = await asyncio.to_thread(install)
    server = EvenniaServer(installation)
    try:
        started = await server.start()
        latencies, counters = Latencies(), Counters()

        async def player(number: int) -> EvenniaClient:
            client = await EvenniaClient.open(server.port, number, latencies)
            await client.log_in(f"Talker{number}", PASSWORD)
            return client

        clients = await in_batches([lambda i=i: player(i) for i in range(players)], 10)
        stop, rng = asyncio.Event(), random.Random(3)
        tasks = [asyncio.create_task(paced_talk(c, players / rate, stop, counters, rng)) for c in clients]

        def totals() -> dict[str, float]:
            cpu = server.cpu_seconds()
            return {
                "lines_heard": sum(c.heard for c in clients),
                "bytes_received_by_listeners": sum(c.received for c in clients),
                "portal_cpu_seconds": cpu["portal"],
                "server_process_cpu_seconds": cpu["server"],
            }

        result = await run_window(server, tasks, stop, counters, latencies, seconds, totals)
        result["offered_says_per_s"] = rate
        # Of the says answered in the window (the rounded rates would skew a slow run's).
        says = result["count"]
        result["heard_per_say"] = round(result["lines_heard_per_s"] * seconds / says, 1) if says else None
        # A player still waiting once the players had 15 s to stop waits for an echo that was lost.
        result["players_stuck"] = sum(client.waiting for client in clients)
        link = server.link()
        result["amp_link_drops"], result["amp_reads_kept"] = link["drops"], link["kept"]
        result["evennia_version"] = installation.version
        result["started_in_s"] = round(started, 1)
        for client in clients:
            await client.close()
        return result
    finally:
        await server.stop()


async def echo_ceiling(mode: str, connections: int, every: int, rate: float, seconds: float) -> dict[str, Any]:
    """The same load against a bare telnetlib3 server: ``connections`` connections, every
    ``every``-th one sending, ``rate`` lines a second in all, each relayed as ``mode`` says
    (see ``bench.echo_server``)."""
    server = echo_server(mode)
    await server.start()
    try:
        latencies, counters = Latencies(), Counters()
        clients = [await BenchClient.open(server.port, latencies) for _ in range(connections)]
        stop, rng = asyncio.Event(), random.Random(5)
        senders = clients[::every]
        tasks = [asyncio.create_task(paced_talk(c, len(senders) / rate, stop, counters, rng)) for c in senders]
        result = await run_window(server, tasks, stop, counters, latencies, seconds)
        for client in clients:
            await client.close()
        return result
    finally:
        await server.stop()


async def idle(backend: str, connections: int = 10_000, web: bool = False) -> dict[str, Any]:
    """``connections`` players logged in and doing nothing: the server's memory for each;
    over telnet, or over WebSockets if ``web``. (Password hashing is made cheap here: it
    costs time, not memory, and 10,000 logins at the real cost would take minutes.)"""
    async with fresh_database(backend) as url:
        server = dvorak_server(url, **OPEN_LIMITS, DVORAK_ARGON2_TIME_COST="1", DVORAK_ARGON2_MEMORY_KIB="64")
        await server.start()
        try:
            await server.logged("listening for browsers")
            port = server.web_port if web else server.port
            kind: type[BenchClient] | type[WebBenchClient] = WebBenchClient if web else BenchClient
            warm = [await kind.open(port) for _ in range(10)]
            for i, client in enumerate(warm):
                await client.ask(f"create Warm{i} {PASSWORD}")
            await asyncio.sleep(1)
            before = server.usage()
            clients = await in_batches([lambda i=i: idle_player(kind, port, i) for i in range(connections)], 200)
            await asyncio.sleep(3)
            after = server.usage()
            result = {
                "kind": "web" if web else "telnet",
                "connections": connections,
                "rss_before_mib": round(before.rss_kib / 1024, 1),
                "rss_after_mib": round(after.rss_kib / 1024, 1),
                "kib_per_connection": round((after.rss_kib - before.rss_kib) / connections, 1),
            }
            for client in [*warm, *clients]:
                await client.close()
            return result
        finally:
            await server.stop()


async def idle_player(
    kind: type[BenchClient] | type[WebBenchClient], port: int, index: int
) -> BenchClient | WebBenchClient:
    client = await kind.open(port)
    reply = await client.ask(f"create Idle{index} {PASSWORD}")
    if "Players here" not in reply:
        raise RuntimeError(f"could not log in: {reply!r}")
    return client


async def logins_during_game(
    backend: str, rooms: int = 200, rate: float = 3000.0, seconds: float = 20.0, logins_per_s: float = 5.0
) -> dict[str, Any]:
    """The game scenario, with new players creating accounts and logging in meanwhile:
    the time each create and each connect takes (argon2 at full cost)."""
    async with fresh_database(backend) as url:
        server = dvorak_server(url, **OPEN_LIMITS)
        await server.start()
        try:
            room_list = await seated_rooms(server.port, rooms)
            latencies, counters, login_times = Latencies(), Counters(), Latencies()
            stop, rng = asyncio.Event(), random.Random(11)
            tasks = [
                asyncio.create_task(play_room(r, rooms / rate, stop, counters, random.Random(rng.random())))
                for r in room_list
            ]

            async def newcomers() -> None:
                number = 0
                while not stop.is_set():
                    await asyncio.sleep(rng.expovariate(logins_per_s))
                    number += 1
                    client = await BenchClient.open(server.port, login_times)
                    await client.ask(f"create Newcomer{number} {PASSWORD}")
                    await client.ask("LOGOUT")
                    login_times.samples.pop()  # LOGOUT is not a login
                    await client.ask(f"connect Newcomer{number} {PASSWORD}")
                    await client.close()

            tasks.append(asyncio.create_task(newcomers()))
            for room in room_list:
                for seat in room.seats:
                    seat.client.latencies = latencies
            result = await run_window(server, tasks, stop, counters, latencies, seconds)
            logins = login_times.summary()
            return {
                "logins": logins["count"],
                "login_p50_ms": round(logins["p50_ms"], 1),
                "login_p99_ms": round(logins["p99_ms"], 1),
                "game_moves_per_s": result["moves_per_s"],
                "game_p99_ms": result["p99_ms"],
            }
        finally:
            await server.stop()


async def cold_start(backend: str, rooms: int = 10_000, events: int = 1_000_000) -> dict[str, Any]:
    """A database with ``rooms`` rooms and ``events`` logged events: how long from
    starting the server until a player's login is answered."""
    async with fresh_database(backend) as url:
        code = current_code()
        migrate = await asyncio.create_subprocess_exec(
            *code.command("migrate", "--database-url", url),
            env={**os.environ, **code.env()},
            cwd=code.tree,
            stderr=asyncio.subprocess.DEVNULL,
        )
        await migrate.wait()
        await fill_database(backend, url, rooms, events)
        server = dvorak_server(url, **OPEN_LIMITS)
        began = time.perf_counter()
        listening = await server.start()
        try:
            client = await BenchClient.open(server.port)
            reply = await client.ask(f"connect Veteran {PASSWORD}")
            logged_in = time.perf_counter() - began
            if "Welcome back" not in reply:
                raise RuntimeError(f"login failed: {reply!r}")
            await client.close()
            return {
                "rooms": rooms,
                "events": events,
                "seconds_to_listening": round(listening, 2),
                "seconds_to_first_login": round(logged_in, 2),
            }
        finally:
            await server.stop()


async def fill_database(backend: str, url: str, rooms: int, events: int) -> None:
    """Rooms and events straight into the tables (as years of play would leave them), and
    one account, Veteran, to log in with."""
    import json
    from datetime import datetime

    import argon2

    from games.dvorak.settings import log_start

    now = datetime.now(UTC)
    password_hash = argon2.PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1).hash(PASSWORD)
    per_room = events // rooms
    # Rooms of years ago: made before new rooms were opened with halt on and a vote time.
    settings = json.dumps(log_start())
    # Dvorak's snapshot of a finished game (``games.dvorak.kind.DvorakKind.snapshot``).
    state = json.dumps(
        {
            "turn": {"player": 0, "number": 0, "drawn": 0, "things": 0, "actions": 0, "gives": 0, "discarded": 0},
            "result": "",
            "next_number": 1,
            "next_proposal": 1,
        }
    )
    data, deltas = json.dumps({"name": "handsize", "value": "5"}), json.dumps([["setting", "handsize", 5]])
    room_rows = [
        (i, f"Archive {i}", f"archive {i}", "dvorak", None, "over", 0, settings, state, per_room, now)
        for i in range(1, rooms + 1)
    ]
    room_columns = "id, name, name_key, game, password_hash, phase, host_account_id, settings, state, seq, created_at"

    def event_rows(start: int, stop: int):  # type: ignore[no-untyped-def]
        for room in range(start, stop):
            for seq in range(1, per_room + 1):
                yield (room, seq, now, 0, "", "setting", False, data, deltas)

    if backend == "sqlite":
        import sqlite3

        database = sqlite3.connect(url.split("///", 1)[1])
        with database:
            database.execute(
                "INSERT INTO accounts (name, name_key, password_hash, is_admin, created_at, color) "
                "VALUES (?, ?, ?, 0, ?, 'auto')",
                ("Veteran", "veteran", password_hash, now.isoformat(" ")),
            )
            database.executemany(
                f"INSERT INTO rooms ({room_columns}) VALUES ({', '.join('?' * 11)})",
                [(*row[:10], row[10].isoformat(" ")) for row in room_rows],
            )
            for start in range(1, rooms + 1, 1000):
                database.executemany(
                    "INSERT INTO events (room_id, seq, created_at, actor_account_id, actor_name, kind, forced, "
                    "data, deltas) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        (r, s, c.isoformat(" "), a, n, k, f, d, x)
                        for r, s, c, a, n, k, f, d, x in event_rows(start, min(start + 1000, rooms + 1))
                    ),
                )
        database.close()
        return
    connection = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        await connection.execute(
            "INSERT INTO accounts (name, name_key, password_hash, is_admin, created_at, color) "
            "VALUES ($1, $2, $3, false, $4, 'auto')",
            "Veteran",
            "veteran",
            password_hash,
            now,
        )
        await connection.copy_records_to_table(
            "rooms", records=room_rows, columns=[c.strip() for c in room_columns.split(",")]
        )
        await connection.execute("SELECT setval(pg_get_serial_sequence('rooms', 'id'), $1)", rooms)
        for start in range(1, rooms + 1, 1000):
            await connection.copy_records_to_table(
                "events",
                records=list(event_rows(start, min(start + 1000, rooms + 1))),
                columns=[
                    "room_id",
                    "seq",
                    "created_at",
                    "actor_account_id",
                    "actor_name",
                    "kind",
                    "forced",
                    "data",
                    "deltas",
                ],
            )
    finally:
        await connection.close()


async def database_cpu(url: str) -> dict[int, float]:
    """The CPU seconds so far of each PostgreSQL backend serving the database of ``url``
    (by pid): the database server's own work for the run, that of its shared processes
    (WAL writer, checkpointer) aside. Empty for SQLite (the server's own process does it)."""
    if not url.startswith("postgresql"):
        return {}
    name = url.rsplit("/", 1)[1]
    admin = await asyncpg.connect(POSTGRES)
    try:
        rows = await admin.fetch("SELECT pid FROM pg_stat_activity WHERE datname = $1", name)
    finally:
        await admin.close()
    found = {}
    for row in rows:
        try:
            found[row["pid"]] = usage(row["pid"]).cpu_seconds
        except (OSError, KeyError):
            continue
    return found


def cpu_between(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds used between two :func:`database_cpu` readings (a backend started
    since counts whole)."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


async def every_worker_listening(server: ChildServer, workers: int, timeout: float = 60) -> None:
    """Wait until each of the server's ``workers`` has said it listens."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while server.log.count("listening for telnet") < workers:
        if loop.time() > deadline:
            raise TimeoutError(f"not all {workers} workers listened:\n{server.log}")
        await asyncio.sleep(0.05)


@asynccontextmanager
async def workers_broker(workers: int, handoff: bool = True) -> AsyncIterator[tuple[MqttBroker | None, dict[str, str]]]:
    """The broker and the settings for ``serve --workers <workers>``: with more than one,
    an MQTT broker of their own (as :func:`cross_node`'s), a cluster secret, and telnet
    players handed to their room's worker or not (``handoff``)."""
    if workers == 1:
        yield None, {}
        return
    broker = MqttBroker()
    await broker.start()
    try:
        yield (
            broker,
            {
                "DVORAK_WORKERS": str(workers),
                "DVORAK_MQTT_URL": broker.url,
                "DVORAK_CLUSTER_SECRET": secrets.token_hex(32),
                "DVORAK_NODE_NAME": "bench",
                "DVORAK_HANDOFF": "on" if handoff else "off",
            },
        )
    finally:
        await broker.stop()


async def cross_node(rooms: int = 50, rate: float = 200.0, seconds: float = 20.0) -> dict[str, Any]:
    """Two nodes sharing one PostgreSQL database and one MQTT broker (configured as
    deploy/mosquitto.conf, the nodes with its credentials and a cluster secret). In each
    room one player talks and adds cards to the deck (``rate`` lines a second in all:
    half chat, half committed moves that carry their text), watched by four players on
    the other node and one on the player's own:
    how long each takes to see it, and how much later the other node's watchers see it
    than the sender's node's. Half the rooms talk from each node."""
    broker = MqttBroker()
    await broker.start()
    try:
        async with fresh_database("postgresql") as url:
            return await _cross_node(url, broker.url, rooms, rate, seconds)
    finally:
        await broker.stop()


async def _cross_node(url: str, broker_url: str, rooms: int, rate: float, seconds: float) -> dict[str, Any]:
    secret = secrets.token_hex(32)
    nodes = [
        dvorak_server(
            url,
            **OPEN_LIMITS,
            DVORAK_MQTT_URL=broker_url,
            DVORAK_CLUSTER_SECRET=secret,
            DVORAK_NODE_NAME=f"bench{number}",
            DVORAK_COMMAND_RATE="1000",
            DVORAK_COMMAND_BURST="1000",
            # 300 accounts are made first: cheap hashing (the login scenario times it).
            DVORAK_ARGON2_TIME_COST="1",
            DVORAK_ARGON2_MEMORY_KIB="64",
        )
        for number in (1, 2)
    ]
    try:
        for node in nodes:
            await node.start()
            while "connected to MQTT broker" not in node.log:
                await asyncio.sleep(0.05)
        commands, elsewhere, here, counters = Latencies(), Latencies(), Latencies(), Counters()

        async def set_up(number: int) -> tuple[BenchClient, list[Listener]]:
            home, away = nodes[number % 2], nodes[1 - number % 2]
            talker = await BenchClient.open(home.port, commands)
            await talker.ask(f"create Talker{number} {PASSWORD}")
            await talker.ask(f"newroom Room{number}")
            watchers = []
            for seat, node in enumerate([away] * 4 + [home]):
                listener = await Listener.open(node.port)
                await listener.ask(f"create Watcher{number}x{seat} {PASSWORD}")
                await listener.ask(f"watch Room{number}")
                listener.heard = here if node is home else elsewhere
                watchers.append(listener)
            return talker, watchers

        rooms_set_up = await in_batches([lambda n=n: set_up(n) for n in range(rooms)], 25)
        talkers = [talker for talker, _ in rooms_set_up]
        listeners = [listener for _, watchers in rooms_set_up for listener in watchers]
        stop, rng = asyncio.Event(), random.Random(13)

        async def talk(number: int, talker: BenchClient) -> None:
            every, next_at = rooms / rate, asyncio.get_running_loop().time()
            made = 0
            while not stop.is_set():
                next_at += rng.expovariate(1 / every)
                delay = next_at - asyncio.get_running_loop().time()
                if delay > 0:
                    await asyncio.sleep(delay)
                made += 1
                if made % 2:
                    await talker.ask(f"say {mark()}")
                else:
                    reply = await talker.ask(f"loadcard Card{number}x{made}/T/{mark()}")
                    counters.moves += "You add a card to the deck" in reply
                counters.commands += 1

        tasks = [asyncio.create_task(talk(n, t)) for n, t in enumerate(talkers)]
        await asyncio.sleep(2.0)
        for latencies in (commands, elsewhere, here):
            latencies.clear()
        for listener in listeners:
            listener.arrivals.clear()
        counters.commands = counters.moves = 0
        before = [node.usage().cpu_seconds for node in nodes]
        began = time.perf_counter()
        await asyncio.sleep(seconds)
        elapsed = time.perf_counter() - began
        after = [node.usage() for node in nodes]
        cpu = [round((use.cpu_seconds - start) / elapsed, 2) for use, start in zip(after, before, strict=True)]
        stop.set()
        await asyncio.wait(tasks, timeout=15)
        other_node, same_node = elsewhere.summary(), here.summary()
        # What crossing nodes adds: when a watcher on the other node saw each line,
        # after the watcher on the sender's node saw it.
        crossing = Latencies()
        for _, watchers in rooms_set_up:
            *away, home = watchers
            for listener in away:
                for made, arrived in listener.arrivals.items():
                    if made in home.arrivals:
                        crossing.add((arrived - home.arrivals[made]) / 1e9)
        crossed = crossing.summary()
        result = {
            "sent_per_s": round(counters.commands / elapsed),
            "moves_per_s": round(counters.moves / elapsed),
            "deliveries_per_s": round((other_node["count"] + same_node["count"]) / elapsed),
            **{f"other_node_{k}": round(v, 1) for k, v in other_node.items() if k != "count"},
            **{f"same_node_{k}": round(v, 1) for k, v in same_node.items() if k != "count"},
            **{f"crossing_adds_{k}": round(v, 1) for k, v in crossed.items() if k != "count"},
            "command_p99_ms": round(commands.summary()["p99_ms"], 1),
            "server_cpu_cores": cpu,
            "server_peak_rss_mib": [round(u.peak_rss_kib / 1024, 1) for u in after],
        }
        for client in [*talkers, *listeners]:
            await client.close()
        return result
    finally:
        for node in nodes:
            await node.stop()
