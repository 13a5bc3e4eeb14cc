"""The attacks of the security review, rerun against ``dvorak-mush serve`` in its own
process, with what each achieved and what it cost everyone else.

Each attack gets a server of its own on a fresh database, with default settings (the
exceptions are printed with its figures). Three watchers, ordinary logged-in players,
ask ``WHO`` every 100 ms, framed with OUTPUTPREFIX/OUTPUTSUFFIX so that each reply is
timed to its last byte: for two seconds before the attack (the baseline) and all through
it. A reply still missing when the attack ends counts with the time it had waited so
far. The watchers connect from loopback addresses of their own (127.0.0.2-4) and the
attacker from 127.0.0.1, so the attacker has the whole allowance of one address
(connections, failed logins, players made) as a stranger on the Internet would, and the
limits need not be raised for the benchmark's own players.

Around the attack the server's memory (VmRSS) and its database's size on disk are read,
and its CPU time during it; at the end it is sent SIGTERM with the attackers still
connected, and how long it took to exit, and with what status, is reported.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import sqlite3
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg

from bench.loadgen import PREFIX, SUFFIX, WELCOME_END, BenchClient, Latencies
from bench.processes import ChildServer, Usage, current_code, dvorak_server
from bench.scenarios import PASSWORD, fresh_database

MIB = 1024 * 1024
ATTACKER = "127.0.0.1"
#: Where the watchers connect from: players elsewhere, not sharing the attacker's address.
WATCHERS = ("127.0.0.2", "127.0.0.3", "127.0.0.4")
#: The lobby player who counts what a pasted line makes the server show him.
COUNTER = "127.0.0.5"
#: A player elsewhere whose room the attacker goes after.
ROOM_OWNER = "127.0.0.6"
ASK_EVERY = 0.1
#: How long the watchers are timed before the attack, and at least while it lasts.
BASELINE_SECONDS = MIN_DURING_SECONDS = 2.0
#: How long a reply asked for before the watching stops is still waited for.
LAST_REPLY_WAIT = 1.0
#: How long SIGTERM is given before the server is killed.
STOP_WITHIN = 15.0
#: The name a watcher's reply still missing at the end is recorded under.
UNANSWERED = "unanswered"
TOO_MANY_FAILURES = b"Too many failed logins"
WRONG_PASSWORD = b"Either that player does not exist"


class Bystander(BenchClient):
    """A :class:`BenchClient` that connects from a loopback address of its own."""

    @classmethod
    async def open_from(cls, address: str, port: int) -> Bystander:
        loop = asyncio.get_running_loop()
        _, client = await loop.create_connection(cls, "127.0.0.1", port, local_addr=(address, 0))
        await asyncio.wait_for(client._welcome, 30)
        client.send(f"OUTPUTPREFIX {PREFIX}")
        client.send(f"OUTPUTSUFFIX {SUFFIX}")
        return client


class Watchers:
    """Logged-in players asking ``WHO`` every :data:`ASK_EVERY` seconds from the moment
    they are opened until :meth:`stop`; each reply's time goes to the samples of the
    current :meth:`phase`. A reply that has not come :data:`LAST_REPLY_WAIT` seconds
    after the stop counts as the time it had waited, under :data:`UNANSWERED`."""

    def __init__(self, clients: list[Bystander]) -> None:
        self.clients = clients
        self.latencies = Latencies()
        #: Watchers the server disconnected.
        self.lost = 0
        self._stop = asyncio.Event()
        self._tasks = [asyncio.create_task(self._watch(client)) for client in clients]

    @classmethod
    async def open(cls, port: int) -> Watchers:
        clients = []
        for number, address in enumerate(WATCHERS):
            client = await Bystander.open_from(address, port)
            reply = await client.ask(f"create Watcher{number} {PASSWORD}")
            if "Players here" not in reply:
                raise RuntimeError(f"a watcher could not log in: {reply!r}")
            clients.append(client)
        return cls(clients)

    def phase(self) -> Latencies:
        """From now on, samples go to a new set: this one."""
        self.latencies = Latencies()
        for client in self.clients:
            client.latencies = self.latencies
        return self.latencies

    async def _watch(self, client: Bystander) -> None:
        loop = asyncio.get_running_loop()
        next_at = loop.time()
        while not self._stop.is_set():
            asked = time.perf_counter()
            reply = asyncio.ensure_future(client.ask("WHO"))
            stopping = asyncio.ensure_future(self._stop.wait())
            await asyncio.wait((reply, stopping), return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
            if not reply.done():
                await asyncio.wait((reply,), timeout=LAST_REPLY_WAIT)
            if not reply.done():
                self.latencies.add(time.perf_counter() - asked, UNANSWERED)
                # Left to come (or fail when the server goes), not cancelled: the client
                # would then be handed a reply nobody waits for.
                reply.add_done_callback(lambda done: done.cancelled() or done.exception())
                return
            if reply.exception() is not None:
                self.lost += 1
                return
            next_at = max(next_at + ASK_EVERY, loop.time())
            await asyncio.sleep(next_at - loop.time())

    async def stop(self) -> None:
        """Stop asking (the connections stay open)."""
        self._stop.set()
        await asyncio.gather(*self._tasks)

    async def close(self) -> None:
        for client in self.clients:
            await client.close()


def kernel_queued(client_port: int, server_port: int) -> int:
    """Bytes a client on loopback sent that the server has not read yet: its socket's
    send queue and the server's socket's receive queue (/proc/net/tcp)."""
    queued = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = (int(address.rsplit(":", 1)[1], 16) for address in fields[1:3])
        sending, receiving = (int(queue, 16) for queue in fields[4].split(":"))
        if (local, remote) == (client_port, server_port):
            queued += sending
        elif (local, remote) == (server_port, client_port):
            queued += receiving
    return queued


class RawClient:
    """A bare TCP connection, like ``nc`` (it never negotiates): it keeps everything it
    is sent, counts what it wrote and what the kernel took of it, and notes whether the
    server hung up on it."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, server_port: int) -> None:
        self.reader = reader
        self.writer = writer
        self.server_port = server_port
        self.received = bytearray()
        self.written = 0
        self.hung_up_on = False
        self._hanging_up = False
        self._more = asyncio.Event()
        self._reading = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, port: int, address: str = ATTACKER) -> RawClient:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
        return cls(reader, writer, port)

    async def _read(self) -> None:
        try:
            while data := await self.reader.read(65536):
                self.received += data
                self._more.set()
        except ConnectionError:
            pass
        self.hung_up_on = not self._hanging_up
        self._more.set()

    async def expect(self, *texts: bytes, timeout: float = 10.0) -> bytes | None:
        """The first of ``texts`` to arrive; None if none does within ``timeout`` seconds
        or the server hangs up first."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            for text in texts:
                if text in self.received:
                    return text
            if self.hung_up_on:
                return None
            self._more.clear()
            try:
                await asyncio.wait_for(self._more.wait(), deadline - asyncio.get_running_loop().time())
            except TimeoutError:
                return None

    async def log_in(self, name: str) -> None:
        if await self.expect(WELCOME_END) is None:
            raise RuntimeError(f"{name} was not welcomed: {bytes(self.received[-300:])!r}")
        self.write(f"create {name} {PASSWORD}\r\n".encode())
        if await self.expect(b"Players here") is None:
            raise RuntimeError(f"{name} could not log in: {bytes(self.received[-300:])!r}")

    def write(self, data: bytes) -> None:
        self.writer.write(data)
        self.written += len(data)

    @property
    def kernel_took(self) -> int:
        """Bytes written that the kernel has taken, the rest waiting in this process
        (while the connection is open: once closed, what waited here is dropped)."""
        return self.written - self.writer.transport.get_write_buffer_size()

    @property
    def server_read(self) -> int:
        """Bytes the server has read of what the kernel took (while the connection is open)."""
        return self.kernel_took - kernel_queued(self.writer.get_extra_info("sockname")[1], self.server_port)

    def hang_up(self) -> None:
        """Close the socket at once, whatever is still waiting to be sent from this process."""
        self._hanging_up = True
        self.writer.transport.abort()

    async def close(self) -> None:
        self.hang_up()
        await self._reading


def sent_figures(clients: list[RawClient]) -> dict[str, Any]:
    """What ``clients`` wrote, what the kernel took and what the server read of it (only
    known while all of them are connected), and how many the server hung up on."""
    cut_off = sum(client.hung_up_on for client in clients)
    return {
        "written_bytes": sum(client.written for client in clients),
        "kernel_took_bytes": None if cut_off else sum(client.kernel_took for client in clients),
        "server_read_bytes": None if cut_off else sum(client.server_read for client in clients),
        "cut_off": cut_off,
    }


class Store:
    """The server's database, read directly: its size on disk, and what is in it."""

    def __init__(self, url: str) -> None:
        self.sqlite = Path(url.split("///", 1)[1]) if url.startswith("sqlite") else None
        self.postgres = url.replace("postgresql+asyncpg://", "postgresql://")

    async def value(self, query: str) -> int:
        if self.sqlite is not None:
            return await asyncio.to_thread(self._sqlite_value, query)
        connection = await asyncpg.connect(self.postgres)
        try:
            return int(await connection.fetchval(query))
        finally:
            await connection.close()

    def _sqlite_value(self, query: str) -> int:
        assert self.sqlite is not None
        connection = sqlite3.connect(self.sqlite, timeout=30)
        try:
            return int(connection.execute(query).fetchone()[0])
        finally:
            connection.close()

    async def size(self) -> int:
        """Bytes on disk: the SQLite file and its write-ahead log, or PostgreSQL's
        ``pg_database_size``."""
        if self.sqlite is None:
            return await self.value("SELECT pg_database_size(current_database())")
        files = (self.sqlite, self.sqlite.with_name(self.sqlite.name + "-wal"))
        return sum(path.stat().st_size for path in files if path.exists())


@dataclass
class Target:
    """What an attack works with: the server, its database, how long to attack, and the
    clients it opens (kept open until the server has been stopped)."""

    server: ChildServer
    store: Store
    seconds: float
    watchers: Watchers
    opened: list[RawClient | BenchClient] = field(default_factory=list)
    baseline: Latencies = field(default_factory=Latencies)
    during: Latencies = field(default_factory=Latencies)
    before: Usage | None = None
    db_before: int = 0
    began: float = 0.0

    @property
    def port(self) -> int:
        return self.server.port

    async def begin(self) -> None:
        """The attack is set up and starts now: measure the baseline first."""
        self.baseline = self.watchers.phase()
        await asyncio.sleep(BASELINE_SECONDS)
        self.before, self.db_before = self.server.usage(), await self.store.size()
        self.during = self.watchers.phase()
        self.began = time.perf_counter()

    async def raw(self, address: str = ATTACKER) -> RawClient:
        client = await RawClient.open(self.port, address)
        self.opened.append(client)
        return client

    async def framed(self) -> BenchClient:
        """A connection from the attacker's address that asks and waits for each reply."""
        client = await BenchClient.open(self.port)
        self.opened.append(client)
        return client

    async def close(self) -> None:
        await self.watchers.close()
        for client in self.opened:
            await client.close()


# The attacks. Each sets itself up, calls ``target.begin()``, attacks, and returns what
# it achieved; its connections stay open for the SIGTERM that follows.


async def flood(target: Target, payload: bytes, connections: int = 1) -> dict[str, Any]:
    """``connections`` clients that never log in, each writing ``payload`` in one write
    once it has been welcomed and has waited (the baseline's two seconds), then keeping
    the connection open for the attack's length."""
    clients = await asyncio.gather(*(target.raw() for _ in range(connections)))
    welcomed = await asyncio.gather(*(client.expect(WELCOME_END) for client in clients))
    admitted = [client for client, welcome in zip(clients, welcomed, strict=True) if welcome]
    await target.begin()
    for client in admitted:
        client.write(payload)
    await asyncio.sleep(target.seconds)
    return {"connections_admitted": len(admitted), **sent_figures(admitted)}


#: What the sender without pause sends after its commands: lines of 37 bytes, 64 KiB at a time.
POUR_CHUNK = b"look here at this long line of text\r\n" * 1771
POUR_MOST = 300 * MIB


async def pour(target: Target) -> dict[str, Any]:
    """A client that never logs in sends 200 ``WHO`` (past the command burst, so its
    session waits on the command rate), then lines as fast as the kernel takes them for
    the attack's length, up to 300 MiB."""
    client = await target.raw()
    await client.expect(WELCOME_END)
    await target.begin()
    client.write(b"WHO\r\n" * 200)
    deadline = time.perf_counter() + target.seconds
    while client.written < POUR_MOST and (left := deadline - time.perf_counter()) > 0:
        client.write(POUR_CHUNK)
        try:
            await asyncio.wait_for(client.writer.drain(), left)
        except (TimeoutError, ConnectionError):
            break
    await asyncio.sleep(max(0.0, deadline - time.perf_counter()))
    return {
        **sent_figures([client]),
        "who_answered": client.received.count(b"Player Name"),
        "lines_answered_huh": client.received.count(b"Huh?"),
    }


async def paste_emits(target: Target) -> dict[str, Any]:
    """The host of a Dvorak room (where a pasted line is split into its deck commands)
    pastes ``cleardeck`` and 1,000 ``@emit x`` as one line, 20 lines a second for half
    the attack's length, while another player in the room counts the emits he is shown
    (until a second after the last line)."""
    counter = await target.raw(COUNTER)
    await counter.log_in("Counter")
    paster = await target.raw()
    await paster.log_in("Paster")
    paster.write(b"newroom Pastes\r\n")
    if await paster.expect(b"You made room") is None:
        raise RuntimeError(f"no room: {bytes(paster.received[-300:])!r}")
    counter.write(b"join Pastes\r\n")
    if await counter.expect(b"Seats, in turn order") is None:
        raise RuntimeError(f"not in the room: {bytes(counter.received[-300:])!r}")
    await target.begin()
    counted_from = len(counter.received)
    line = ("cleardeck" + " @emit x" * 1000 + "\r\n").encode()
    lines, began = 0, time.perf_counter()
    while time.perf_counter() - began < target.seconds / 2:
        paster.write(line)
        lines += 1
        await asyncio.sleep(max(0.0, began + lines / 20 - time.perf_counter()))
    await asyncio.sleep(1.0)
    emits = counter.received[counted_from:].split(b"\r\n").count(b"x")
    return {
        "lines_pasted": lines,
        "emits_pasted": lines * 1000,
        **sent_figures([paster]),
        "lines_run": paster.received.count(b"Only deck commands"),
        "emits_shown_to_counter": emits,
        "emits_shown_per_s": round(emits / (time.perf_counter() - began), 1),
    }


#: How often, and for how long at most, the cards are counted after the loader hangs up.
COUNT_EVERY, STILL_FOR, COUNT_AT_MOST = 0.5, 3.0, 45.0


async def loadcard_backlog(target: Target) -> dict[str, Any]:
    """The host of a room writes 99 lines of 541 ``loadcard`` each (as many as fit in a
    line) as fast as the kernel takes them, hangs up after half the attack's length, and
    the room's cards are counted until no more have been stored for three seconds."""
    loader = await target.raw()
    await loader.log_in("Loader")
    loader.write(b"newroom Backlog\r\n")
    if await loader.expect(b"You made room") is None:
        raise RuntimeError(f"no room: {bytes(loader.received[-300:])!r}")
    await target.begin()
    line = (" ".join(["loadcard a/T/b"] * 541) + "\r\n").encode()
    loader.write(line * 99)
    await asyncio.sleep(target.seconds / 2)
    sent = sent_figures([loader])
    loader.hang_up()
    hung_up = time.perf_counter()
    count = "SELECT count(*) FROM cards"
    at_hang_up = last = await target.store.value(count)
    last_change = hung_up
    while time.perf_counter() - last_change < STILL_FOR and time.perf_counter() - hung_up < COUNT_AT_MOST:
        await asyncio.sleep(COUNT_EVERY)
        now = await target.store.value(count)
        if now != last:
            last, last_change = now, time.perf_counter()
    return {
        "loadcards_written": 99 * 541,
        **sent,
        "cards_at_hang_up": at_hang_up,
        "cards_stored": last,
        "stored_after_hang_up": last - at_hang_up,
        "seconds_storing_after_hang_up": round(last_change - hung_up, 1),
    }


#: The big room: the most cards a room may hold, each with 1,000 characters of text.
BIG_ROOM_CARDS, BIG_CARD_TEXT = 2000, 1000


async def big_room(url: str) -> None:
    """Before the server starts: import the big room, as an operator would."""
    text = ("The quick brown fox jumps over the lazy dog. " * 23)[:BIG_CARD_TEXT]
    await imported_room(url, "Big", [f"loadcard Card {i}/T/{text}" for i in range(BIG_ROOM_CARDS)])


async def savedeck_loop(target: Target) -> dict[str, Any]:
    """A player in the big room saves it over and over for the attack's length, under
    six names in turn (new ones until the quota refuses, then over their own)."""
    saver = await target.framed()
    await saver.ask(f"create Saver {PASSWORD}")
    if "Seats" not in await saver.ask("join big"):
        raise RuntimeError("could not join the big room")
    await target.begin()
    replies: Counter[str] = Counter()
    while time.perf_counter() - target.began < target.seconds:
        reply = " ".join((await saver.ask(f"savedeck Hoard{replies.total() % 6}")).split())
        kind = "new" if "save the room as" in reply else "over" if "save the room again" in reply else "refused"
        replies[kind] += 1
    elapsed = time.perf_counter() - target.began
    grown = await target.store.size() - target.db_before
    saved = await target.store.value("SELECT coalesce(sum(size_bytes), 0) FROM saved_decks")
    return {
        "room_cards": BIG_ROOM_CARDS,
        "saves_tried": replies.total(),
        "saved_new": replies["new"],
        "saved_over": replies["over"],
        "refused": replies["refused"],
        "saved_decks_mib": round(saved / MIB, 2),
        "db_growth_mib_per_s": round(grown / MIB / elapsed, 2),
    }


async def newroom_spam(target: Target) -> dict[str, Any]:
    """One player makes rooms as fast as the server answers, for the attack's length."""
    maker = await target.framed()
    await maker.ask(f"create Maker {PASSWORD}")
    await target.begin()
    tried = made = 0
    while time.perf_counter() - target.began < target.seconds:
        made += "You made room" in await maker.ask(f"newroom Spam{tried}")
        tried += 1
    rooms = await target.store.value("SELECT count(*) FROM rooms")
    return {"tried": tried, "made_as_replied": made, "rooms_stored": rooms}


async def create_spam(target: Target, connections: int = 5) -> dict[str, Any]:
    """Players made from one address as fast as the server answers, on ``connections``
    connections at once (each logging out after each one it makes), for the attack's length."""
    clients = [await target.framed() for _ in range(connections)]
    await target.begin()
    tried = [0] * connections

    async def make(number: int, client: BenchClient) -> None:
        while time.perf_counter() - target.began < target.seconds:
            tried[number] += 1
            if "Welcome," in await client.ask(f"create Spam{number}x{tried[number]} {PASSWORD}"):
                await client.ask("LOGOUT")

    await asyncio.gather(*(make(number, client) for number, client in enumerate(clients)))
    made = await target.store.value("SELECT count(*) FROM accounts WHERE name LIKE 'Spam%'")
    return {"connections": connections, "tried": sum(tried), "players_made": made}


async def guesses_at_once(target: Target, guesses: int = 19) -> dict[str, Any]:
    """``guesses`` connections from one address send a wrong password for a player at
    the same moment: how many were checked (hashed) and how many refused unchecked."""
    clients = await asyncio.gather(*(target.raw() for _ in range(guesses)))
    await asyncio.gather(*(client.expect(WELCOME_END) for client in clients))
    await target.begin()
    for client in clients:
        client.write(b"connect Watcher0 not-the-password\r\n")
    began = time.perf_counter()
    answers = await asyncio.gather(
        *(client.expect(TOO_MANY_FAILURES, WRONG_PASSWORD, timeout=30) for client in clients)
    )
    return {
        "guesses": guesses,
        "refused_unchecked": answers.count(TOO_MANY_FAILURES),
        "checked_and_wrong": answers.count(WRONG_PASSWORD),
        "unanswered": answers.count(None),
        "seconds_to_all_answers": round(time.perf_counter() - began, 2),
    }


async def login_timing(target: Target, tries: int = 30) -> dict[str, Any]:
    """``connect`` with a wrong password for a player that exists, and for a name that is
    no player's, ``tries`` times each in turn: does the reply time tell them apart?"""
    client = await target.framed()
    await target.begin()
    times: dict[str, list[float]] = {"Watcher0": [], "Nosuchplayer": []}
    refused = 0
    for attempt in range(tries):
        for name, samples in times.items():
            began = time.perf_counter()
            reply = await client.ask(f"connect {name} wrong-{attempt}")
            samples.append((time.perf_counter() - began) * 1000)
            refused += TOO_MANY_FAILURES.decode() in reply
    known, unknown = times.values()
    return {
        "tries_each": tries,
        "wrong_password_p50_ms": round(statistics.median(known), 1),
        "no_such_player_p50_ms": round(statistics.median(unknown), 1),
        "wrong_password_mean_ms": round(statistics.fmean(known), 1),
        "no_such_player_mean_ms": round(statistics.fmean(unknown), 1),
        "refused_by_throttle": refused,
    }


# The attacks of the second review.

CJK = "漢"
#: IAC WILL NAWS, then the window's size: 20 columns, 24 rows.
NAWS_20 = bytes([255, 251, 31, 255, 250, 31, 0, 20, 0, 24, 255, 240])


class Page:
    """A bare WebSocket to the web port, as a page of the server's own would open it,
    from the attacker's address: it sends lines and counts what it is sent."""

    def __init__(self, session: aiohttp.ClientSession, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.session = session
        self.socket = socket
        self.received = 0
        self.texts: list[str] = []
        self.closed_by_server = False
        self._reading = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, port: int, address: str = ATTACKER) -> Page:
        session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0), force_close=True))
        origin = f"http://127.0.0.1:{port}"
        try:
            socket = await session.ws_connect(f"{origin}/ws?batch=1", origin=origin, max_msg_size=0)
        except BaseException:
            await session.close()
            raise
        return cls(session, socket)

    async def _read(self) -> None:
        async for message in self.socket:
            if message.type == aiohttp.WSMsgType.TEXT:
                self.received += len(message.data)
                sent = json.loads(message.data)
                self.texts += [part["text"] for part in (sent if isinstance(sent, list) else [sent]) if "text" in part]
        self.closed_by_server = not self.socket.closed or self.socket.close_code is not None

    async def send(self, line: str) -> None:
        await self.socket.send_str(json.dumps({"line": line}))

    async def said(self, text: str, timeout: float = 10.0) -> bool:
        """Whether ``text`` comes in what the page is sent within ``timeout`` seconds."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if any(text in part for part in self.texts):
                return True
            await asyncio.sleep(0.05)
        return False

    async def close(self) -> None:
        await self.socket.close()
        await self._reading
        await self.session.close()


async def help_at_20_columns(target: Target) -> dict[str, Any]:
    """Review 2, item 1: a telnet connection and a page that never log in, 20 columns
    wide, each send ``help`` and 8,100 CJK characters twice a second."""
    telnet = await target.raw()
    await telnet.expect(WELCOME_END)
    telnet.write(NAWS_20)
    page = await Page.open(target.server.web_port)
    target.opened.append(page)
    await page.said("create")
    await page.socket.send_str(json.dumps({"cols": 20}))
    await target.begin()
    line = "help " + CJK * 8100
    sent = 0
    while time.perf_counter() - target.began < target.seconds:
        telnet.write(f"{line}\r\n".encode())
        await page.send(line)
        sent += 2
        await asyncio.sleep(0.5)
    return {"lines_sent": sent, "echo_chars_seen": max((len(t) for t in page.texts), default=0)}


async def long_cards_room(url: str) -> None:
    """Before the server starts: a room of 150 cards of 2,000 CJK characters."""
    await imported_room(url, "Long", [f"loadcard Long {i}/T/{CJK * 2000}" for i in range(150)])


async def imported_room(url: str, room: str, lines: list[str]) -> None:
    """Import a room's deck as an operator would (``dvorak-mush deck import``)."""
    with tempfile.TemporaryDirectory(prefix="dvorak-bench-") as folder:
        deck = Path(folder) / "deck.txt"
        deck.write_text("".join(f"{line}\n" for line in lines))
        code = current_code()
        process = await asyncio.create_subprocess_exec(
            *code.command("deck", "import", str(deck), "--room", room, "--database-url", url),
            env={**os.environ, **code.env()},
            cwd=code.tree,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        _, errors = await process.communicate()
        if process.returncode:
            raise RuntimeError(f"could not import room {room}: {errors.decode()}")


async def viewall_at_20_columns(target: Target) -> dict[str, Any]:
    """Review 2, item 2: a player 20 columns wide in a room of 150 cards of 2,000 CJK
    characters types ``viewall`` as soon as each answer is in, for the attack's length."""
    viewer = await target.raw()
    viewer.write(NAWS_20)
    await viewer.log_in("Viewer")
    viewer.write(b"join long\r\n")
    if await viewer.expect(b"Seats") is None:
        raise RuntimeError(f"could not join the room: {bytes(viewer.received[-300:])!r}")
    # Each reply's end, short enough never to be wrapped.
    viewer.write(b"OUTPUTSUFFIX @@end@@\r\n")
    await target.begin()
    asked = 0
    while time.perf_counter() - target.began < target.seconds and not viewer.hung_up_on:
        before = viewer.received.count(b"@@end@@")
        viewer.write(b"viewall\r\n")
        asked += 1
        while viewer.received.count(b"@@end@@") == before and not viewer.hung_up_on:
            await asyncio.sleep(0.01)
    return {"viewall_asked": asked, "bytes_received": len(viewer.received), "cut_off": viewer.hung_up_on}


async def zero_width_joiners(target: Target, pages: int = 8) -> dict[str, Any]:
    """Review 2, item 3: eight pages that never log in send lines of 8,190 zero-width
    joiners as fast as the server reads them (the command rate allows 20 a second): each
    starts with WHO, so that what the server ran is counted by its answers."""
    opened = [await Page.open(target.server.web_port) for _ in range(pages)]
    target.opened.extend(opened)
    await asyncio.gather(*(page.said("create") for page in opened))
    await target.begin()
    line = "WHO" + "\u200d" * 8187
    sent = [0] * pages

    async def send(number: int, page: Page) -> None:
        while time.perf_counter() - target.began < target.seconds:
            try:
                await asyncio.wait_for(
                    page.send(line), max(0.01, target.seconds - (time.perf_counter() - target.began))
                )
            except (TimeoutError, ConnectionError):
                return
            sent[number] += 1
            await asyncio.sleep(0.05)

    await asyncio.gather(*(send(number, page) for number, page in enumerate(opened)))
    run = sum(text.count("Player Name") for page in opened for text in page.texts)
    return {
        "pages": pages,
        "lines_written": sum(sent),
        "lines_run": run,
        "mib_run": round(run * len(line.encode()) / MIB, 1),
    }


class SlowReader(asyncio.Protocol):
    """A lobby player who reads at most ``rate`` bytes a second (pausing the socket), with
    a small receive buffer, as a client far away has: what it does not read yet waits in
    the server."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.transport: asyncio.Transport | None = None
        self.received = bytearray()
        self.cut_off = False
        self._began = time.perf_counter()

    @classmethod
    async def open(cls, port: int, address: str, rate: float) -> SlowReader:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 * 1024)
        sock.bind((address, 0))
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
        _, reader = await asyncio.get_running_loop().create_connection(lambda: cls(rate), sock=sock)
        return reader

    def from_now(self) -> None:
        """Count the rate from now on (what it read before was the login and the baseline)."""
        self._began = time.perf_counter() - len(self.received) / self.rate

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.received += data
        ahead = len(self.received) / self.rate - (time.perf_counter() - self._began)
        if ahead > 0 and self.transport is not None:
            self.transport.pause_reading()
            asyncio.get_running_loop().call_later(ahead, self.transport.resume_reading)

    def connection_lost(self, exc: Exception | None) -> None:
        self.cut_off = True


async def long_says(target: Target, speakers: int = 10, listeners: int = 10) -> dict[str, Any]:
    """Review 2, item 4: ten pages of one player say 8 KB lines in the lobby within the
    command rate, while ten lobby players read 200 KB/s each."""
    readers = []
    for number in range(listeners):
        reader = await SlowReader.open(target.port, f"127.0.1.{number + 1}", 200_000)
        assert reader.transport is not None
        reader.transport.write(f"create Ear{number} {PASSWORD}\r\n".encode())
        readers.append(reader)
    pages = [await Page.open(target.server.web_port) for _ in range(speakers)]
    target.opened.extend(pages)
    await pages[0].said("create")
    await pages[0].send(f"create Loud {PASSWORD}")
    await pages[0].said("Players here")
    for page in pages[1:]:
        await page.send(f"connect Loud {PASSWORD}")
    await asyncio.gather(*(page.said("Players here") for page in pages))
    await target.begin()
    for reader in readers:
        reader.from_now()
    line = "say " + "x" * 8000
    sent = 0

    async def speak(page: Page) -> None:
        nonlocal sent
        while time.perf_counter() - target.began < target.seconds:
            await page.send(line)
            sent += 1
            await asyncio.sleep(0.05)

    await asyncio.gather(*(speak(page) for page in pages))
    cut_off = sum(reader.cut_off for reader in readers)
    for reader in readers:
        if reader.transport is not None:
            reader.transport.abort()
    return {
        "says_sent": sent,
        "says_refused": sum(t.count("You are saying more than others can read") for p in pages for t in p.texts),
        "listeners_cut_off": cut_off,
        "heard_per_listener_kib": round(statistics.fmean(len(r.received) for r in readers) / 1024, 1),
    }


async def password_change(target: Target) -> dict[str, Any]:
    """Review 2, item 5: a thief logged in (telnet and a page) before the owner changes
    the password: is the thief still in, and was the page given a token after it?"""
    owner = await target.framed()
    await owner.ask(f"create Owner {PASSWORD}")
    thief = await target.raw()
    await thief.expect(WELCOME_END)
    thief.write(f"connect Owner {PASSWORD}\r\n".encode())
    await thief.expect(b"Welcome back")
    page = await Page.open(target.server.web_port)
    target.opened.append(page)
    await page.said("create")
    await page.send(f"connect Owner {PASSWORD}")
    await page.said("Welcome back")
    await target.begin()
    await owner.ask(f"@password {PASSWORD}=another-one")
    await asyncio.sleep(1.0)
    thief.write(b"WHO\r\n")
    with contextlib.suppress(ConnectionError):
        await page.send("WHO")
    await asyncio.sleep(1.0)
    return {
        "telnet_thief_still_in": not thief.hung_up_on,
        "page_thief_still_in": not page.socket.closed,
    }


async def fake_notice(target: Target) -> dict[str, Any]:
    """Review 2, item 6: ``@emit x``, 78 spaces and a shutdown notice, seen by an
    80-column player: does a line start as the server's notices do?"""
    victim = await target.raw(COUNTER)
    await victim.log_in("Victim")
    emitter = await target.framed()
    await emitter.ask(f"create Emitter {PASSWORD}")
    await target.begin()
    await emitter.ask("@emit x" + " " * 78 + "*** The server is shutting down. Type your password to stay. ***")
    await asyncio.sleep(0.5)
    lines = bytes(victim.received).split(b"\r\n")
    return {"lines_starting_as_a_notice": sum(line.startswith(b"*** The server is shutting") for line in lines)}


async def clear_and_load(target: Target) -> dict[str, Any]:
    """Review 2, item 7: ``cleardeck`` and ten ``loadcard`` of 2 KB cards, over and over
    as the server answers, for the attack's length: what the database grows by."""
    loader = await target.framed()
    await loader.ask(f"create Loader {PASSWORD}")
    await loader.ask("newroom Growth")
    await target.begin()
    loaded = refused = 0
    card = "w" * 2000
    while time.perf_counter() - target.began < target.seconds:
        await loader.ask("cleardeck")
        for number in range(10):
            reply = await loader.ask(f"loadcard Card {number}/T/{card}")
            refused += "written as many" in reply
            loaded += "written as many" not in reply
    grown = await target.store.size() - target.db_before
    rows = await target.store.value("SELECT count(*) FROM cards")
    return {
        "loadcards_answered": loaded,
        "refused": refused,
        "card_rows_kept": rows,
        "db_growth_mib": round(grown / MIB, 2),
    }


async def hashed_room_passwords(target: Target, connections: int = 20) -> dict[str, Any]:
    """Review 2, item 8: twenty connections of one player send ``newroom <a taken
    name>=<password>`` as fast as the server answers, while another player logs in and
    out from elsewhere: their login's time."""
    owner = await Bystander.open_from(ROOM_OWNER, target.port)
    target.opened.append(owner)
    await owner.ask(f"create Owner {PASSWORD}")
    await owner.ask("newroom Taken")
    clients = [await target.framed() for _ in range(connections)]
    await clients[0].ask(f"create Mallory {PASSWORD}")
    for client in clients[1:]:
        await client.ask(f"connect Mallory {PASSWORD}")
    legit = await Bystander.open_from(COUNTER, target.port)
    target.opened.append(legit)
    await legit.ask(f"create Legit {PASSWORD}")
    await legit.ask("LOGOUT")
    await target.begin()
    tries = [0] * connections
    logins: list[float] = []

    async def guess(number: int, client: BenchClient) -> None:
        while time.perf_counter() - target.began < target.seconds:
            await client.ask(f"newroom Taken=hunter{tries[number]}")
            tries[number] += 1

    async def log_in_and_out() -> None:
        while time.perf_counter() - target.began < target.seconds:
            began = time.perf_counter()
            await legit.ask(f"connect Legit {PASSWORD}")
            logins.append((time.perf_counter() - began) * 1000)
            await legit.ask("LOGOUT")
            await asyncio.sleep(0.2)

    await asyncio.gather(*(guess(n, c) for n, c in enumerate(clients)), log_in_and_out())
    return {
        "newroom_tried": sum(tries),
        "legit_logins": len(logins),
        "legit_login_p50_ms": round(statistics.median(logins), 1) if logins else None,
        "legit_login_max_ms": round(max(logins), 1) if logins else None,
    }


async def slowloris(target: Target, connections: int = 3000) -> dict[str, Any]:
    """Review 2, item 9: 3,000 connections from one address to the web port that never
    finish their headers: how many does the server hold, and for how long."""
    web_port = target.server.web_port
    opened: list[asyncio.StreamWriter] = []
    await target.begin()
    fds_before = len(os.listdir(f"/proc/{target.server.process.pid}/fd")) if target.server.process else 0
    for _ in range(connections):
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", web_port)
        except OSError:
            break
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        opened.append(writer)
    held_at_once = len(os.listdir(f"/proc/{target.server.process.pid}/fd")) - fds_before if target.server.process else 0
    await asyncio.sleep(max(0.0, target.seconds - (time.perf_counter() - target.began)))
    held_after = len(os.listdir(f"/proc/{target.server.process.pid}/fd")) - fds_before if target.server.process else 0
    for writer in opened:
        writer.transport.abort()
    return {"connections_opened": len(opened), "server_fds_held_at_once": held_at_once, "held_at_end": held_after}


async def muted_writes(target: Target) -> dict[str, Any]:
    """Review 2, item 10: a muted host writes cards, rules, a room name, a saved deck's
    name and a team name: how many reach others."""
    host = await target.framed()
    await host.ask(f"create Host {PASSWORD}")
    await host.ask("newroom Quiet")
    await host.ask("loadcard Kept/T/A card.")
    staff = await target.framed()
    await staff.ask(f"create Mod {PASSWORD}")
    code = current_code()
    url = target.server.env["DVORAK_DATABASE_URL"]
    promoted = await asyncio.create_subprocess_exec(
        *code.command("admin", "grant", "Mod", "--role", "moderator", "--database-url", url),
        env={**os.environ, **code.env()},
        cwd=code.tree,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    await promoted.wait()
    await staff.ask("LOGOUT")
    await staff.ask(f"connect Mod {PASSWORD}")
    await staff.ask("@mute Host=1h spam")
    await target.begin()
    writes = (
        "newcard Shout/T/Buy gold",
        "newrule Shout/Buy gold",
        "loadcard Shout/T/Buy gold",
        "editcard 1/Shout/T/Buy gold",
        "savedeck BuyGold",
        "team Host=BuyGold",
        "newroom BuyGoldHere",
    )
    refused = 0
    for write in writes:
        refused += "You are muted" in await host.ask(write)
    return {"writes_tried": len(writes), "refused_as_muted": refused}


async def rebinding(target: Target) -> dict[str, Any]:
    """Review 2: a page of another site whose name points here (DNS rebinding): its
    WebSocket names evil.example as both Host and Origin."""
    await target.begin()
    host = f"evil.example:{target.server.web_port}"
    async with aiohttp.ClientSession() as session:
        try:
            socket = await session.ws_connect(
                f"http://127.0.0.1:{target.server.web_port}/ws", headers={"Host": host, "Origin": f"http://{host}"}
            )
        except aiohttp.WSServerHandshakeError as refused:
            return {"accepted": False, "status": refused.status}
        await socket.close()
        return {"accepted": True}


LOOK_ALIKES = (("Adam", "Aclam"), ("Jason", "Ja5on"), ("Bob", "Bo6"), ("Dean", "Clean"), ("Emma", "Enma"))


async def look_alike_names(target: Target) -> dict[str, Any]:
    """Review 2: names drawn like other players' (Aclam beside Adam, Ja5on, Bo6, Clean,
    Enma): how many are taken."""
    client = await target.framed()
    for name, _ in LOOK_ALIKES:
        await client.ask(f"create {name} {PASSWORD}")
        await client.ask("LOGOUT")
    await target.begin()
    taken = 0
    other = await Bystander.open_from(COUNTER, target.port)
    target.opened.append(other)
    for _, alike in LOOK_ALIKES:
        reply = await other.ask(f"create {alike} {PASSWORD}")
        if "Welcome," in reply:
            taken += 1
            await other.ask("LOGOUT")
    return {"names_tried": len(LOOK_ALIKES), "look_alikes_taken": taken}


async def right_passwords_at_once(target: Target, logins: int = 19) -> dict[str, Any]:
    """Review 2: nineteen right-password logins at the same moment from one address."""
    owner = await target.framed()
    await owner.ask(f"create Owner {PASSWORD}")
    clients = await asyncio.gather(*(target.raw() for _ in range(logins)))
    await asyncio.gather(*(client.expect(WELCOME_END) for client in clients))
    await target.begin()
    for client in clients:
        client.write(f"connect Owner {PASSWORD}\r\n".encode())
    welcome = b"Welcome back"
    answers = await asyncio.gather(*(client.expect(welcome, TOO_MANY_FAILURES, timeout=30) for client in clients))
    return {"logins": logins, "let_in": answers.count(welcome), "refused": answers.count(TOO_MANY_FAILURES)}


@dataclass(frozen=True)
class Attack:
    """One attack of the review, as :func:`run_attack` runs it."""

    name: str
    #: The item of the security review it reruns: the first review's as a number, the
    #: second's as "2.<item>" ("2.extra" for those the second listed after its items).
    review_item: int | str
    run: Callable[[Target], Awaitable[dict[str, Any]]]
    #: Settings other than the defaults, as DVORAK_* variables.
    settings: dict[str, str] = field(default_factory=dict)
    #: What is done to the database before the server starts.
    prepare: Callable[[str], Awaitable[None]] | None = None


IAC, NOP, SB = 255, 241, 250
ATTACKS = (
    Attack("empty-lines-2MiB", 1, lambda t: flood(t, b"\n" * (2 * MIB))),
    Attack("empty-lines-4MiB", 1, lambda t: flood(t, b"\n" * (4 * MIB))),
    Attack("empty-lines-12.7MiB", 1, lambda t: flood(t, b"\n" * int(12.7 * MIB))),
    Attack("telnet-nops-2MiB", 2, lambda t: flood(t, bytes([IAC, NOP]) * MIB)),
    Attack("endless-subnegotiation-2MiB", 2, lambda t: flood(t, bytes([IAC, SB, 24]) + b"x" * (2 * MIB))),
    Attack("telnet-nops-2MiB-x20", 2, lambda t: flood(t, bytes([IAC, NOP]) * MIB, connections=20)),
    Attack(
        "endless-subnegotiation-2MiB-x20",
        2,
        lambda t: flood(t, bytes([IAC, SB, 24]) + b"x" * (2 * MIB), connections=20),
    ),
    Attack("send-without-pause", 3, pour),
    Attack("pasted-emits-at-a-table", 4, paste_emits),
    Attack("pasted-loadcard-backlog-then-hang-up", 4, loadcard_backlog),
    Attack("savedeck-loop-on-big-room", 5, savedeck_loop, prepare=big_room),
    Attack("newroom-spam", 6, newroom_spam),
    Attack("create-spam-one-address", 6, create_spam),
    Attack("19-wrong-passwords-at-once", 7, guesses_at_once),
    Attack(
        "connect-timing",
        8,
        login_timing,
        # Guesses enough to time, and sent faster than the command rate lets them run.
        settings={
            "DVORAK_LOGIN_FAILURE_LIMIT": "1000",
            "DVORAK_PASSWORD_CHECKS_PER_MINUTE": "1000",
            "DVORAK_COMMAND_RATE": "1000",
            "DVORAK_COMMAND_BURST": "1000",
        },
    ),
    Attack("help-cjk-at-20-columns-before-login", "2.1", help_at_20_columns),
    Attack("viewall-150-cjk-cards-at-20-columns", "2.2", viewall_at_20_columns, prepare=long_cards_room),
    Attack("zero-width-joiner-lines-from-8-pages", "2.3", zero_width_joiners),
    Attack("8KB-says-from-10-pages-of-one-player", "2.4", long_says),
    Attack("password-change-with-a-thief-logged-in", "2.5", password_change),
    Attack("emit-padded-to-a-fake-notice", "2.6", fake_notice),
    Attack(
        "cleardeck-and-loadcard-loop",
        "2.7",
        clear_and_load,
        # The budget an hour made small, to be reached within the attack's seconds (a
        # release without it has no such setting).
        settings={"DVORAK_WRITES_PER_HOUR": "60"},
    ),
    Attack("newroom-taken-name-with-password-x20", "2.8", hashed_room_passwords),
    Attack("slowloris-3000-on-the-web-port", "2.9", slowloris, settings={"DVORAK_MAX_CONNECTIONS": "20000"}),
    Attack("muted-player-writes", "2.10", muted_writes),
    Attack("dns-rebinding-websocket", "2.extra", rebinding),
    Attack("look-alike-names", "2.extra", look_alike_names),
    Attack("19-right-passwords-at-once", "2.extra", right_passwords_at_once),
)


#: What is reported of the watchers' reply times, before and during an attack.
PERCENTILES = ("p50_ms", "p99_ms", "max_ms")


def latency_figures(phase: str, latencies: Latencies) -> dict[str, Any]:
    summary = latencies.summary()
    return {
        **{f"{phase}_who_{key}": round(summary[key], 1) if summary["count"] else None for key in PERCENTILES},
        f"{phase}_who_replies": summary["count"] - len(latencies.by_command.get(UNANSWERED, [])),
    }


async def run_attack(backend: str, attack: Attack, seconds: float) -> dict[str, Any]:
    """Run ``attack`` against a server of its own on a fresh database of ``backend``,
    ``seconds`` being the length the attacks that have one take; its figures."""
    async with fresh_database(backend) as url:
        store = Store(url)
        if attack.prepare is not None:
            await attack.prepare(url)
        server = dvorak_server(url, **attack.settings)
        await server.start()
        target = None
        try:
            target = Target(server, store, seconds, await Watchers.open(server.port))
            achieved = await attack.run(target)
            attack_seconds = time.perf_counter() - target.began
            await asyncio.sleep(max(0.0, MIN_DURING_SECONDS - attack_seconds))
            await target.watchers.stop()
            before, after = target.before, server.usage()
            assert before is not None, "the attack never began"
            db_after = await store.size()
            stopping = time.perf_counter()
            status = await server.stop(STOP_WITHIN)
            stop_seconds = time.perf_counter() - stopping
            return {
                "attack": attack.name,
                "review_item": attack.review_item,
                "non_default_settings": attack.settings,
                "achieved": achieved,
                "attack_s": round(attack_seconds, 1),
                **latency_figures("baseline", target.baseline),
                **latency_figures("during", target.during),
                "during_who_unanswered_at_end": len(target.during.by_command.get(UNANSWERED, [])),
                "watchers_disconnected": target.watchers.lost,
                "server_rss_mib_before": round(before.rss_kib / 1024, 1),
                "server_rss_mib_after": round(after.rss_kib / 1024, 1),
                "server_peak_rss_mib": round(after.peak_rss_kib / 1024, 1),
                "server_cpu_s": round(after.cpu_seconds - before.cpu_seconds, 2),
                "db_mib_before": round(target.db_before / MIB, 2),
                "db_mib_after": round(db_after / MIB, 2),
                "sigterm_exit_status": status,
                "sigterm_s": round(stop_seconds, 2),
            }
        finally:
            await server.stop()
            if target is not None:
                await target.close()
