"""The load generator's player for Evennia: one telnet connection that logs in as
Evennia's default login screen asks (``create``, ``connect``), then says things and
times each from sending it to seeing its own echo.

Evennia knows nothing of OUTPUTPREFIX/OUTPUTSUFFIX, so a reply cannot be framed as our
server's are (:class:`bench.loadgen.BenchClient`). Instead every command sent through
:meth:`EvenniaClient.ask` ends with a token of its own, ``=<client>.<sequence>=``, and
its reply is the first line that shows that token: for ``say`` the speaker's echo,
``You say, "... =3.41="``. Every other player's line (``Talker7 says, "..."``) is
counted as heard, so a run shows that the room really heard what was said.

The telnet side is a client that refuses every option the server offers (``IAC DONT``
to each ``WILL``, ``IAC WONT`` to each ``DO``): no compression, no GMCP, no window size,
so Evennia's stream is plain text with ANSI colours, which are stripped.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import deque

from bench.loadgen import Latencies

IAC, SB, SE = 0xFF, 0xFA, 0xF0
WILL, WONT, DO, DONT = 0xFB, 0xFC, 0xFD, 0xFE
#: ANSI escape sequences (colours, cursor movement): a line is read without them.
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
#: The last line of Evennia's default connection screen that tells how to log in.
LOGIN_SCREEN = "create <username> <password>"
#: What Evennia asks after ``create <name> <password>``, and what it says once it is done.
CREATE_CONFIRM = "Is this what you intended?"
CREATED = "A new account"
#: What Evennia says once ``connect`` has put the account in its character (in Limbo).
PUPPETED = "You become"
#: How a line of another player's speech starts after the speaker's name.
SAYS = ' says, "'


def token(client: int, sequence: int) -> str:
    """The mark a command of connection ``client`` carries: no other command's mark
    contains it (the closing ``=`` keeps ``=3.4=`` from matching ``=3.41=``)."""
    return f"={client}.{sequence}="


def is_echo(line: str, mark: str) -> bool:
    """Whether ``line`` is the speaker's own echo of the say that carries ``mark``."""
    return line.startswith("You say") and mark in line


def is_heard(line: str) -> bool:
    """Whether ``line`` is another player's speech (``Name says, "..."``)."""
    return SAYS in line and not line.startswith("You ")


class TelnetText:
    """A telnet stream from the server, as the lines of text it carries and the
    answers this client owes it.

    Options are refused: ``WILL x`` is answered ``DONT x`` and ``DO x`` ``WONT x``, once
    each (a refusal is not answered). Subnegotiations and two-byte commands (``NOP``,
    ``GA``) are dropped, ``IAC IAC`` is a 0xFF byte of text. A sequence cut in two by the
    network waits for its rest. Lines end at ``\\n`` (``\\r`` and NULs are dropped), are
    decoded as UTF-8 and have their ANSI escapes removed; an unfinished line waits.
    """

    def __init__(self) -> None:
        self._pending = b""
        self._line = bytearray()
        self._answered: set[tuple[int, int]] = set()

    def feed(self, data: bytes) -> tuple[bytes, list[str]]:
        """Take ``data`` as received; the bytes to send back and the lines completed."""
        data = self._pending + data
        self._pending = b""
        answers = bytearray()
        text = bytearray()
        position = 0
        while True:
            found = data.find(IAC, position)
            if found < 0:
                text += data[position:]
                break
            text += data[position:found]
            if found + 1 >= len(data):
                self._pending = data[found:]
                break
            command = data[found + 1]
            if command == IAC:
                text.append(IAC)
                position = found + 2
            elif command in (WILL, WONT, DO, DONT):
                if found + 2 >= len(data):
                    self._pending = data[found:]
                    break
                option = data[found + 2]
                answers += self._answer(command, option)
                position = found + 3
            elif command == SB:
                end = data.find(bytes((IAC, SE)), found + 2)
                if end < 0:
                    self._pending = data[found:]
                    break
                position = end + 2
            else:
                position = found + 2
        return bytes(answers), self._lines(text)

    def _answer(self, command: int, option: int) -> bytes:
        refusal = {WILL: DONT, DO: WONT}.get(command)
        if refusal is None or (command, option) in self._answered:
            return b""
        self._answered.add((command, option))
        return bytes((IAC, refusal, option))

    def _lines(self, text: bytearray) -> list[str]:
        self._line += text
        if b"\n" not in self._line:
            return []
        *complete, rest = bytes(self._line).split(b"\n")
        self._line = bytearray(rest)
        return [
            ANSI.sub("", line.replace(b"\r", b"").replace(b"\x00", b"").decode("utf-8", "replace")) for line in complete
        ]


class EvenniaClient(asyncio.Protocol):
    """One player's telnet connection to Evennia (see the module's docstring)."""

    def __init__(self, number: int, latencies: Latencies | None = None) -> None:
        self.number = number
        self.latencies = latencies
        self.transport: asyncio.Transport | None = None
        self._telnet = TelnetText()
        self._sequence = 0
        #: The text the waiting :meth:`ask` or :meth:`expect` looks for, and its future.
        self._awaited = ""
        self._echo = False
        self._waiter: asyncio.Future[str] | None = None
        self._sent_at = 0.0
        self._closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        #: Bytes received, and lines of other players' speech among them.
        self.received = 0
        self.heard = 0
        #: The last lines received, for saying what went wrong.
        self.recent: deque[str] = deque(maxlen=12)

    @classmethod
    async def open(cls, port: int, number: int, latencies: Latencies | None = None) -> EvenniaClient:
        """Connect and wait for the login screen."""
        loop = asyncio.get_running_loop()
        _, client = await loop.create_connection(lambda: cls(number, latencies), "127.0.0.1", port)
        waiting = client._wait_for(LOGIN_SCREEN)
        await asyncio.wait_for(waiting, 60)
        return client

    async def log_in(self, name: str, password: str, timeout: float = 120) -> None:
        """Create the account ``name`` (its character is made in Limbo with it) and
        connect, which puts the account in the character."""
        steps = [(f"create {name} {password}", CREATE_CONFIRM), ("y", CREATED)]
        steps.append((f"connect {name} {password}", PUPPETED))
        for line, answer in steps:
            try:
                await asyncio.wait_for(self.expect(line, answer), timeout)
            except TimeoutError:
                shown = "\n".join(self.recent)
                word = line.split()[0]
                raise RuntimeError(f"{name}: no {answer!r} after {word!r}; the last lines:\n{shown}") from None

    @property
    def waiting(self) -> bool:
        """Whether a command sent has not yet had its answer."""
        return self._waiter is not None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self._closed.done():
            self._closed.set_result(None)
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_exception(ConnectionError(f"connection lost waiting for {self._awaited!r}"))

    def data_received(self, data: bytes) -> None:
        self.received += len(data)
        answers, lines = self._telnet.feed(data)
        if answers and self.transport is not None:
            self.transport.write(answers)
        for line in lines:
            self._line(line)

    def _line(self, line: str) -> None:
        self.recent.append(line)
        waiter = self._waiter
        if waiter is not None and (is_echo(line, self._awaited) if self._echo else self._awaited in line):
            self._waiter = None
            if self._echo and self.latencies is not None:
                self.latencies.add(time.perf_counter() - self._sent_at, "say")
            waiter.set_result(line)
        elif is_heard(line):
            self.heard += 1

    def _wait_for(self, text: str, echo: bool = False) -> asyncio.Future[str]:
        assert self._waiter is None, "one command at a time"
        self._awaited, self._echo = text, echo
        self._waiter = asyncio.get_running_loop().create_future()
        return self._waiter

    def _send(self, line: str) -> None:
        assert self.transport is not None
        self._sent_at = time.perf_counter()
        self.transport.write(line.encode() + b"\r\n")

    async def expect(self, line: str, text: str) -> str:
        """Send ``line``; the first line received after it that contains ``text``."""
        waiting = self._wait_for(text)
        self._send(line)
        return await waiting

    async def ask(self, command: str) -> str:
        """Send ``command`` (a ``say``) with a token of its own at its end; the speaker's
        echo of it, timed from sending."""
        self._sequence += 1
        mark = token(self.number, self._sequence)
        waiting = self._wait_for(mark, echo=True)
        self._send(f"{command} {mark}")
        return await waiting

    async def close(self) -> None:
        if self.transport is not None:
            self.transport.close()
            await self._closed
