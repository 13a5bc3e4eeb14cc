"""A scripted telnet player for tests: a raw TCP client, like ``nc``, that never negotiates.

It drops the server's telnet commands (IAC sequences) from what it reads, decodes UTF-8,
and keeps every raw byte it received so tests can check that nothing hidden leaked.
"""

from __future__ import annotations

import asyncio
import codecs
import re
from abc import ABC, abstractmethod

IAC, SB, SE = 255, 250, 240
WILL, WONT, DO, DONT = 251, 252, 253, 254

DEFAULT_TIMEOUT = 10.0


class TelnetTextFilter:
    """Removes telnet command sequences from a byte stream, chunk by chunk."""

    def __init__(self) -> None:
        self._state = "data"
        self.subnegotiations: list[bytes] = []
        self._sb = bytearray()

    def feed(self, data: bytes) -> bytes:
        out = bytearray()
        for byte in data:
            state = self._state
            if state == "data":
                if byte == IAC:
                    self._state = "iac"
                else:
                    out.append(byte)
            elif state == "iac":
                if byte == IAC:
                    out.append(IAC)
                    self._state = "data"
                elif byte in (WILL, WONT, DO, DONT):
                    self._state = "option"
                elif byte == SB:
                    self._sb.clear()
                    self._state = "sb"
                else:
                    self._state = "data"
            elif state == "option":
                self._state = "data"
            elif state == "sb":
                if byte == IAC:
                    self._state = "sb-iac"
                else:
                    self._sb.append(byte)
            elif state == "sb-iac":
                if byte == SE:
                    self.subnegotiations.append(bytes(self._sb))
                    self._state = "data"
                else:
                    self._sb.append(byte)
                    self._state = "sb"
        return bytes(out)


class ScriptedClient(ABC):
    """What both scripted clients (telnet here, the browser's WebSocket in
    :mod:`tests.web_client`) share: waiting for patterns in the text that comes back."""

    #: Text received and not yet consumed by :meth:`expect`.
    _unread: str
    closed: bool

    @abstractmethod
    def send(self, line: str) -> None:
        """Send one line, as the player typed it."""

    @abstractmethod
    async def _receive(self, timeout: float) -> bool:
        """Take what arrives within ``timeout`` into the unread text; False if nothing did
        (or the connection closed)."""

    async def expect(self, pattern: str | re.Pattern[str], timeout: float = DEFAULT_TIMEOUT) -> re.Match[str]:
        """Wait for ``pattern`` (a regex; a string is compiled MULTILINE) in unread output;
        consume output up to its end."""
        regex = pattern if isinstance(pattern, re.Pattern) else re.compile(pattern, re.MULTILINE)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            match = regex.search(self._unread)
            if match is not None:
                self._unread = self._unread[match.end() :]
                return match
            remaining = deadline - loop.time()
            if remaining <= 0 or self.closed:
                raise AssertionError(
                    f"did not see {regex.pattern!r} within {timeout}s; unread output was:\n{self._unread[-3000:]}"
                )
            await self._receive(remaining)

    async def command(self, line: str, pattern: str, timeout: float = DEFAULT_TIMEOUT) -> re.Match[str]:
        """Send ``line`` and wait for ``pattern``."""
        self.send(line)
        return await self.expect(pattern, timeout)

    async def quiet(self, seconds: float = 0.3) -> str:
        """Collect whatever arrives until nothing has arrived for ``seconds``; return it."""
        while await self._receive(seconds):
            pass
        collected, self._unread = self._unread, ""
        return collected

    async def wait_closed(self, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Read until the server hangs up."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self.closed:
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError("the server did not close the connection")
            await self._receive(remaining)


class MudClient(ScriptedClient):
    """One scripted connection. ``send`` a line, ``expect`` a pattern in what comes back."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self._filter = TelnetTextFilter()
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        #: Every byte received, telnet commands included.
        self.raw = bytearray()
        #: Everything received as text, line ends normalised to "\n".
        self.transcript = ""
        self._unread = ""
        self.closed = False

    @classmethod
    async def open(cls, port: int, host: str = "127.0.0.1", source: str | None = None) -> MudClient:
        """Connect to ``host``:``port``, from the local address ``source`` if given (any
        loopback address, such as 127.0.0.2, to be another player's address)."""
        local = (source, 0) if source is not None else None
        reader, writer = await asyncio.open_connection(host, port, local_addr=local)
        return cls(reader, writer)

    def send(self, line: str | bytes) -> None:
        """Send one line (a newline is added) or raw bytes as given."""
        data = line if isinstance(line, bytes) else (line + "\r\n").encode("utf-8")
        self._writer.write(data)

    async def _receive(self, timeout: float) -> bool:
        try:
            data = await asyncio.wait_for(self._reader.read(65536), timeout)
        except TimeoutError:
            return False
        if not data:
            self.closed = True
            return False
        self.raw += data
        text = self._decoder.decode(self._filter.feed(data)).replace("\r\n", "\n").replace("\r", "")
        self.transcript += text
        self._unread += text
        return True

    async def wait_for(
        self, pattern: str | re.Pattern[str], start: int = 0, timeout: float = DEFAULT_TIMEOUT
    ) -> re.Match[str]:
        """Wait for ``pattern`` in the transcript from offset ``start`` on; consume nothing
        (a match's ``end()`` is where to look next)."""
        regex = pattern if isinstance(pattern, re.Pattern) else re.compile(pattern, re.MULTILINE)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            match = regex.search(self.transcript, start)
            if match is not None:
                return match
            remaining = deadline - loop.time()
            if remaining <= 0 or self.closed:
                raise AssertionError(
                    f"did not see {regex.pattern!r} within {timeout}s; the transcript ends:\n{self.transcript[-3000:]}"
                )
            await self._receive(remaining)

    @property
    def subnegotiations(self) -> list[bytes]:
        """Every telnet subnegotiation received (option byte first), GMCP messages included."""
        return self._filter.subnegotiations

    async def close(self) -> None:
        self._writer.close()
        try:
            await self._writer.wait_closed()
        except (ConnectionError, OSError):
            pass


def iac(command: int, option: int) -> bytes:
    """``IAC <command> <option>``, e.g. ``iac(WILL, NAWS)``."""
    return bytes([IAC, command, option])


def subnegotiation(option: int, payload: bytes) -> bytes:
    """``IAC SB <option> <payload> IAC SE``, with IAC bytes in the payload doubled."""
    return bytes([IAC, SB, option]) + payload.replace(b"\xff", b"\xff\xff") + bytes([IAC, SE])
