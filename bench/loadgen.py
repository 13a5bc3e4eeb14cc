"""The load generator: many telnet connections on loopback, scripted, timing every reply;
and WebSocket players (:class:`WebBenchClient`), as the browser page talks to the web port.

Each connection frames its commands with OUTPUTPREFIX/OUTPUTSUFFIX, so a reply is known
to be complete when its suffix arrives; the time from sending the command to that moment
is the command's latency. Everything else the server sends (other players' moves, chat)
is read and thrown away, as a real client would display it.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from dataclasses import dataclass, field

import aiohttp

PREFIX, SUFFIX = "{{<", ">}}"
_PREFIX_B, _SUFFIX_B = PREFIX.encode(), SUFFIX.encode()
#: Telnet in a reply: a subnegotiation (a GMCP message), a negotiation, a two-byte command.
_IAC_COMMAND = re.compile(rb"\xff\xfa.*?\xff\xf0|\xff[\xfb-\xfe].|\xff[\xf0-\xf9]", re.DOTALL)
#: IAC DO GMCP: what a MUD client (Mudlet, TinTin++) answers a server offering GMCP.
DO_GMCP = b"\xff\xfd\xc9"
WELCOME_END = b"<password>\r\n="


class Latencies:
    """Reply times of the commands of one run, in seconds."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        #: The same samples by the command's first word.
        self.by_command: dict[str, list[float]] = {}

    def add(self, seconds: float, command: str = "") -> None:
        self.samples.append(seconds)
        self.by_command.setdefault(command, []).append(seconds)

    @classmethod
    def merged(cls, *parts: Latencies) -> Latencies:
        """All the samples of ``parts`` together."""
        whole = cls()
        for part in parts:
            whole.samples += part.samples
            for command, samples in part.by_command.items():
                whole.by_command.setdefault(command, []).extend(samples)
        return whole

    def clear(self) -> None:
        self.samples.clear()
        self.by_command.clear()

    def slowest_commands(self) -> dict[str, float]:
        """Each command's p99 in ms, slowest first (the tail's culprits)."""
        p99 = {}
        for command, samples in self.by_command.items():
            ordered = sorted(samples)
            p99[command] = round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000, 1)
        return dict(sorted(p99.items(), key=lambda item: -item[1]))

    def summary_by_command(self) -> dict[str, dict[str, float]]:
        """Each command's :meth:`summary` (ms rounded to 0.1), by its first word."""
        summaries = {}
        for command, samples in sorted(self.by_command.items()):
            part = Latencies()
            part.samples = list(samples)
            summaries[command] = {key: round(value, 1) for key, value in part.summary().items()}
        return summaries

    def percentile(self, fraction: float) -> float:
        if not self.samples:
            return float("nan")
        ordered = sorted(self.samples)
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]

    def summary(self) -> dict[str, float]:
        return {
            "count": len(self.samples),
            "p50_ms": self.percentile(0.50) * 1000,
            "p99_ms": self.percentile(0.99) * 1000,
            "max_ms": max(self.samples, default=float("nan")) * 1000,
        }


class BenchClient(asyncio.Protocol):
    """One telnet connection that sends a command and waits for its framed reply. With
    ``gmcp`` it asks for GMCP as MUD clients do, and is sent the structured views after
    every move; they are read and dropped, and taken out of the replies."""

    def __init__(self, latencies: Latencies | None = None) -> None:
        self.latencies = latencies
        self.transport: asyncio.Transport | None = None
        self._buffer = bytearray()
        self._waiter: asyncio.Future[str] | None = None
        self._welcome: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sent_at = 0.0
        self._command = ""
        self.received = 0

    @classmethod
    async def open(
        cls, port: int, latencies: Latencies | None = None, framed: bool = True, gmcp: bool = False
    ) -> BenchClient:
        loop = asyncio.get_running_loop()
        _, client = await loop.create_connection(lambda: cls(latencies), "127.0.0.1", port)
        if gmcp:
            assert client.transport is not None
            client.transport.write(DO_GMCP)
        await asyncio.wait_for(client._welcome, 30)
        if framed:
            client.transport.write(f"OUTPUTPREFIX {PREFIX}\r\nOUTPUTSUFFIX {SUFFIX}\r\n".encode())
        return client

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self._closed.done():
            self._closed.set_result(None)
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_exception(ConnectionError("connection lost"))

    def data_received(self, data: bytes) -> None:
        self.received += len(data)
        if not self._welcome.done():
            self._buffer += data
            if WELCOME_END in self._buffer:
                self._welcome.set_result(None)
                self._buffer.clear()
            return
        if self._waiter is None:
            return  # nobody is waiting: this is other players' news, read and dropped
        self._buffer += data
        end = self._buffer.find(_SUFFIX_B)
        if end < 0:
            return
        start = self._buffer.rfind(_PREFIX_B, 0, end)
        reply = bytes(self._buffer[start + len(_PREFIX_B) : end]) if start >= 0 else b""
        del self._buffer[: end + len(_SUFFIX_B)]
        waiter, self._waiter = self._waiter, None
        if self.latencies is not None:
            self.latencies.add(time.perf_counter() - self._sent_at, self._command)
        if b"\xff" in reply:
            reply = _IAC_COMMAND.sub(b"", reply)
        waiter.set_result(reply.decode("utf-8", "replace"))

    async def ask(self, command: str) -> str:
        """Send ``command``; its whole reply."""
        assert self._waiter is None, "one command at a time"
        self._waiter = asyncio.get_running_loop().create_future()
        self._buffer.clear()
        self._sent_at = time.perf_counter()
        self._command = command.split(" ", 1)[0]
        assert self.transport is not None
        self.transport.write(command.encode() + b"\r\n")
        return await self._waiter

    def send(self, command: str) -> None:
        """Send without waiting for the reply (for setup)."""
        assert self.transport is not None
        self.transport.write(command.encode() + b"\r\n")

    async def close(self) -> None:
        if self.transport is not None:
            self.transport.close()
            await self._closed


#: ANSI SGR codes: the web port always sends colour; a reply is read without them.
SGR = re.compile(r"\x1b\[[0-9;]*m")


class WebBenchClient:
    """One player's WebSocket to the web port, as the browser page opens it (Origin: the
    page's own), with :class:`BenchClient`'s interface: each line goes as ``{"line": ...}``
    and the reply is the text frames between the OUTPUTPREFIX and OUTPUTSUFFIX lines (the
    server frames a web connection's replies as a telnet one's). The structured views
    (GMCP frames) it is sent are counted and dropped, as is everything that arrives while
    no command is waiting."""

    def __init__(
        self, session: aiohttp.ClientSession, socket: aiohttp.ClientWebSocketResponse, latencies: Latencies | None
    ) -> None:
        self.latencies = latencies
        self.session = session
        self.socket = socket
        self._buffer = ""
        self._waiter: asyncio.Future[str] | None = None
        self._welcome: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sent_at = 0.0
        self._command = ""
        #: Characters of the frames received, and how many of them were GMCP.
        self.received = 0
        self.gmcp_frames = 0
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, port: int, latencies: Latencies | None = None, framed: bool = True) -> WebBenchClient:
        origin = f"http://127.0.0.1:{port}"
        session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0, force_close=True))
        try:
            socket = await session.ws_connect(f"{origin}/ws?batch=1", origin=origin, autoping=True, max_msg_size=0)
        except BaseException:
            await session.close()
            raise
        client = cls(session, socket, latencies)
        await asyncio.wait_for(client._welcome, 30)
        if framed:
            await client.socket.send_str(json.dumps({"line": f"OUTPUTPREFIX {PREFIX}\nOUTPUTSUFFIX {SUFFIX}"}))
        return client

    async def _read(self) -> None:
        try:
            async for message in self.socket:
                if message.type == aiohttp.WSMsgType.TEXT:
                    self._frame(message.data)
        finally:
            if self._waiter is not None and not self._waiter.done():
                self._waiter.set_exception(ConnectionError("connection lost"))
            if not self._welcome.done():
                self._welcome.set_exception(ConnectionError("closed before the welcome"))

    def _frame(self, data: str) -> None:
        """One WebSocket message: one object, or an array of those sent together."""
        self.received += len(data)
        self.gmcp_frames += data.count('{"gmcp"')
        if self._waiter is None and self._welcome.done():
            return  # nobody is waiting: other players' news, read and dropped
        sent = json.loads(data)
        for message in sent if isinstance(sent, list) else [sent]:
            if "text" in message:
                self._text(message["text"])

    def _text(self, text: str) -> None:
        if not self._welcome.done():
            self._welcome.set_result(None)
            return
        if self._waiter is None:
            return
        self._buffer += text + "\n"
        end = self._buffer.find(SUFFIX)
        if end < 0:
            return
        start = self._buffer.rfind(PREFIX, 0, end)
        reply = self._buffer[start + len(PREFIX) : end] if start >= 0 else ""
        self._buffer = self._buffer[end + len(SUFFIX) :]
        waiter, self._waiter = self._waiter, None
        assert waiter is not None
        if self.latencies is not None:
            self.latencies.add(time.perf_counter() - self._sent_at, self._command)
        waiter.set_result(SGR.sub("", reply))

    async def ask(self, command: str) -> str:
        """Send ``command``; its whole reply."""
        assert self._waiter is None, "one command at a time"
        self._waiter = asyncio.get_running_loop().create_future()
        self._buffer = ""
        self._sent_at = time.perf_counter()
        self._command = command.split(" ", 1)[0]
        await self.socket.send_str(json.dumps({"line": command}))
        return await self._waiter

    async def close(self) -> None:
        await self.socket.close()
        await self._reader
        await self.session.close()


#: A timestamp a sender puts in what it says: ``@<time.perf_counter_ns()>@``.
_MARK = re.compile(rb"@(\d{6,})@")


def mark() -> str:
    """Text carrying the moment it was made, for a :class:`Listener` to time."""
    return f"@{time.perf_counter_ns()}@"


class Listener(BenchClient):
    """A connection that times every :func:`mark` it is shown (sender and listener are in
    this one process, so their clocks agree): how long the server took to deliver it."""

    def __init__(self, latencies: Latencies | None = None) -> None:
        super().__init__(latencies)
        #: Where delivery times go, once set.
        self.heard: Latencies | None = None
        #: When each mark arrived (perf_counter_ns), by the moment it was made.
        self.arrivals: dict[int, int] = {}

    def data_received(self, data: bytes) -> None:
        if self.heard is not None:
            now = time.perf_counter_ns()
            for found in _MARK.finditer(data):
                made = int(found.group(1))
                self.heard.add((now - made) / 1e9)
                self.arrivals[made] = now
        super().data_received(data)


@dataclass
class Counters:
    """What a run did: commands answered, moves the server confirmed as committed (and,
    of those, approvals of a proposed card)."""

    commands: int = 0
    moves: int = 0
    approvals: int = 0
    errors: list[str] = field(default_factory=list)
