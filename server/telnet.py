"""The telnet protocol, as this MUSH speaks it, on top of telnetlib3.

On connecting, a client is asked for its terminal type (TTYPE, including MTTS), window
size (NAWS) and character set (CHARSET), and offered compression (MCCP2), GMCP and MSSP.
Clients that answer none of it, like ``nc``, are greeted after a short wait and get
plain UTF-8 text. The line discipline stays with the client (no server echo), except
that a password prompt turns the client's local echo off and on again.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import ipaddress
import logging
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, cast

import telnetlib3
from telnetlib3.telopt import BINARY, DO, ECHO, GMCP, IAC, MCCP2_COMPRESS, MSSP, SB, SE, WILL, WONT

from games.base import ascii_json
from server.limits import TokenBucket
from server.turn_cache import TurnCache

log = logging.getLogger(__name__)

#: What MSSP sends a crawler: name, players online, uptime, codebase, port, ...
MsspProvider = Callable[[], dict[str, str | list[str]]]


#: The longest a PROXY protocol v1 header may be, its CRLF included.
PROXY_HEADER_MAX = 107


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(text: str) -> tuple[Network, ...]:
    """Comma-separated addresses or networks (``10.0.0.5, 10.1.0.0/16, ::1``); ValueError
    if one is neither."""
    return tuple(ipaddress.ip_network(part.strip(), strict=False) for part in text.split(",") if part.strip())


def in_networks(address: str, networks: tuple[Network, ...]) -> bool:
    """Whether ``address`` (an IPv4-mapped IPv6 one as its IPv4 self) is in one of ``networks``."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    ip = getattr(ip, "ipv4_mapped", None) or ip
    return any(ip in network for network in networks)


def proxied_address(header: bytes) -> str | None:
    """The client's address in a PROXY protocol v1 header (``PROXY TCP4 <client>
    <proxy> <client port> <proxy port>``, without its CRLF); None for ``PROXY UNKNOWN``
    (the balancer's own connection, e.g. a health check). ValueError if it is not one."""
    parts = header.decode("ascii").split(" ")
    if parts[:2] == ["PROXY", "UNKNOWN"]:
        return None
    if len(parts) != 6 or parts[0] != "PROXY" or parts[1] not in ("TCP4", "TCP6"):
        raise ValueError("not a PROXY header")
    if "%" in parts[2] + parts[3]:
        raise ValueError("an address with a scope")
    client, proxy = ipaddress.ip_address(parts[2]), ipaddress.ip_address(parts[3])
    version = 4 if parts[1] == "TCP4" else 6
    if client.version != version or proxy.version != version:
        raise ValueError("the addresses are not of the kind the header says")
    if not all(port.isdigit() and int(port) <= 65535 for port in parts[4:]):
        raise ValueError("not a port number")
    mapped = getattr(client, "ipv4_mapped", None)
    return str(mapped or client)


class ClientTransport(asyncio.Transport):
    """A client's transport as the protocol and its reader see it.

    Its ``write`` may be replaced, as telnetlib3 does to compress output (MCCP2; uvloop's
    transports do not allow that). Reading from the client is paused while anything
    holds it: the reader's buffer being full (telnetlib3's reader calls
    ``pause_reading``/``resume_reading``), or what the client sent waiting to be parsed
    (more than is parsed at once, or more than its input rate allows). The kernel's
    buffers then fill and TCP slows the client down, so what one connection makes the
    server hold is bounded. Everything else is the transport's own.
    """

    def __init__(self, transport: asyncio.Transport) -> None:
        super().__init__()
        self._transport = transport
        self._holds: set[str] = set()

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self._transport.write(data)

    def hold(self, reason: str) -> None:
        """Stop reading from the client until ``release(reason)``."""
        if not self._holds and not self._transport.is_closing():
            self._transport.pause_reading()
        self._holds.add(reason)

    def release(self, reason: str) -> None:
        """Let go of the hold ``reason``; reading resumes when nothing else holds it."""
        if reason not in self._holds:
            return
        self._holds.discard(reason)
        if not self._holds and not self._transport.is_closing():
            self._transport.resume_reading()

    def pause_reading(self) -> None:
        self.hold("buffer full")

    def resume_reading(self) -> None:
        self.release("buffer full")

    # The rest of a transport is the client's own.

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._transport.get_extra_info(name, default)

    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def close(self) -> None:
        self._transport.close()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._transport.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._transport.get_protocol()

    def is_reading(self) -> bool:
        return self._transport.is_reading()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self._transport.set_write_buffer_limits(high, low)

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size()

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self._transport.get_write_buffer_limits()

    def writelines(self, list_of_data: Iterable[bytes | bytearray | memoryview]) -> None:
        self._transport.writelines(list_of_data)

    def write_eof(self) -> None:
        self._transport.write_eof()

    def can_write_eof(self) -> bool:
        return self._transport.can_write_eof()

    def abort(self) -> None:
        self._transport.abort()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


#: Bytes of what a client sends parsed in one go (see MushTelnetServer._take_in_some).
PARSE_SLICE = 1024
IAC_BYTE = 255
#: Seconds of parsing telnet commands done per turn of the event loop, for all clients.
PARSING_PER_TURN = 0.002


class ParsingTurns:
    """The connections whose next slice of input holds telnet commands, each waiting its
    turn: one slice each, round robin, and at most ``budget`` seconds of them per turn of
    the event loop, so that however many clients send telnet commands, the others are
    served in between (everyone's plain text is parsed at once)."""

    def __init__(self, budget: float = PARSING_PER_TURN) -> None:
        self.budget = budget
        self._waiting: deque[Callable[[], None]] = deque()
        self._scheduled = False

    def wait(self, turn: Callable[[], None]) -> None:
        """Call ``turn`` when it comes (it parses one slice, and may wait again)."""
        self._waiting.append(turn)
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._take_turns)

    def _take_turns(self) -> None:
        deadline = time.perf_counter() + self.budget
        while self._waiting and time.perf_counter() < deadline:
            self._waiting.popleft()()
        self._scheduled = bool(self._waiting)
        if self._scheduled:
            asyncio.get_running_loop().call_soon(self._take_turns)


#: Bytes the reader holds for the connection before it stops reading from the client
#: (telnetlib3 pauses at twice this), so that what one connection makes the server
#: buffer is bounded by TCP back-pressure rather than by the client's patience.
READER_LIMIT = 16 * 1024


async def read_text(reader: telnetlib3.TelnetReaderUnicode, most: int) -> str:
    """Up to ``most`` bytes the client sent, decoded; "" once it has hung up.

    telnetlib3 5.0.1's ``TelnetReaderUnicode.read(n)`` decodes its whole buffer and,
    when that is longer than ``n`` characters, starts again one byte at a time with
    ``bytearray.pop(0)``: quadratic in what is buffered (see docs/telnetlib3.md). The
    bytes are taken here with the byte reader's ``read``, which is linear, and decoded
    by the reader's own incremental decoder.
    """
    data = await telnetlib3.TelnetReader.read(reader, most)
    return reader.decode(data) if data else ""


#: The key of the character set a player chose with ``@charset`` among what the
#: connection was told (it outranks what the client said, and goes with it when handed).
CHOSEN_CHARSET = "chosen_charset"

#: What a connection handed to another worker takes along of what its client told
#: (:meth:`MushTelnetServer.handoff_state`), and at most how much of each text.
TOLD_KEPT = frozenset(
    {"TERM", "term", "LANG", "charset", CHOSEN_CHARSET, "cols", "rows", "ttype1", "ttype2", "ttype3", "ttype4"}
)
TOLD_MOST = 256

#: The character sets offered to a client (CHARSET) and taken from it (CHARSET, or its
#: LANG): telnetlib3's offer without UTF-16, which, like EBCDIC (cp037) and the rest a
#: client could name, does not keep ASCII as ASCII: line splitting and telnet commands
#: need that, and its decoder fails on what it reads. A choice outside them is UTF-8.
CHARSETS = (
    "UTF-8",
    "LATIN1",
    "CP1252",
    "ISO-8859-15",
    "CP437",
    "SHIFT_JIS",
    "CP932",
    "BIG5",
    "CP950",
    "GBK",
    "GB2312",
    "CP936",
    "EUC-KR",
    "CP949",
    "US-ASCII",
    # Central European and Cyrillic, for the seeds' players (Czech, Slovak, Russian).
    "CP1250",
    "ISO-8859-2",
    "CP1251",
    "KOI8-R",
)
_CHARSET_CODECS = frozenset(codecs.lookup(name).name for name in CHARSETS)


def usable_charset(name: str) -> bool:
    """Whether ``name`` is one of :data:`CHARSETS` (by any of its names)."""
    try:
        return codecs.lookup(name).name in _CHARSET_CODECS
    except LookupError:
        return False


#: The longest telnet subnegotiation a client may send (its GMCP, terminal type, window
#: size, character set...); a longer one is dropped unread.
SUBNEGOTIATION_MAX = 8192


class MushTelnetWriter(telnetlib3.TelnetWriterUnicode):
    """telnetlib3's writer, with two changes.

    It holds at most :data:`SUBNEGOTIATION_MAX` bytes of a subnegotiation: telnetlib3
    5.0.1 holds up to a million, each as an entry of a deque (about 8.5 MiB per
    connection, see docs/telnetlib3.md). Past the limit the subnegotiation is dropped
    until its end, as telnetlib3 does past its own.

    It ignores an ``IAC SE`` that ends no subnegotiation (telnetlib3 reads its SE as text).

    It does not offer to send binary (``WILL BINARY``), only agrees when a client asks
    (``DO BINARY``). Debian's ``telnet`` (inetutils), told the server sends binary, turns
    its terminal's output processing off, so its own echo of Enter is a bare line feed
    and every reply starts at the column where the typed command ended. The server asks
    the client to send binary instead (``DO BINARY``): without it that client reads UTF-8
    typed at the keyboard as control keys (0x9C as ^\\, sent as BREAK). What the server
    sends is UTF-8 either way (``force_binary``), which such clients show as it is.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._asked_for_binary = False
        # An IAC SE that ends no subnegotiation: telnetlib3 takes its SE for a byte of
        # text (0xF0), which garbled the line it began and could cost the connection.
        self.set_iac_callback(SE, self._stray_se)

    def _stray_se(self, _command: bytes) -> None:
        """Ignore an IAC SE outside a subnegotiation."""

    def handle_do(self, opt: bytes) -> bool:
        if opt == BINARY:
            self._asked_for_binary = True
        return bool(super().handle_do(opt))

    def iac(self, cmd: bytes, opt: bytes = b"") -> bool:
        if cmd == WILL and opt == BINARY and not self._asked_for_binary:
            return False
        return bool(super().iac(cmd, opt))

    def feed_byte(self, byte: bytes) -> bool:
        if len(self._sb_buffer) >= SUBNEGOTIATION_MAX:
            self._sb_buffer.clear()
            self._sb_overflow = True
        return bool(super().feed_byte(byte))


def _encoding_once_let_go(**_directions: bool) -> str:
    """The encoding of a connection let go (:meth:`MushTelnetServer.let_go`): nothing is
    read or written then, but a late call must not find the protocol it was untied from."""
    return "utf-8"


class MushTelnetServer(telnetlib3.TelnetServer):
    """telnetlib3's server protocol, offering GMCP and MSSP and reporting when a client
    turns them on."""

    def __init__(
        self,
        *,
        mssp: MsspProvider,
        input_rate: float,
        input_burst: int,
        turns: ParsingTurns,
        proxy_from: tuple[Network, ...] = (),
        resume: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(limit=READER_LIMIT, writer_factory_encoding=MushTelnetWriter, **kwargs)
        #: For a connection handed over by another worker (server.handoff): what its client
        #: agreed to and told there (:meth:`handoff_state`); it is not negotiated again.
        self._resume = resume
        #: Bytes the client may send: reading pauses while it is overdrawn.
        self._input = TokenBucket(input_rate, input_burst)
        self._flow: ClientTransport | None = None
        #: What the client sent that is not parsed yet; whether it waits (for its turn, or
        #: for its input rate: then the call that goes on with it).
        self._unparsed = bytearray()
        self._waiting = False
        self._resume_parsing: asyncio.TimerHandle | None = None
        self._turns = turns
        #: With the PROXY protocol: the player's address, once the balancer's header has
        #: been read (None if the connection sent something else and is being closed).
        self.proxied_address: asyncio.Future[str | None] | None = None
        #: The balancers whose connections start with a PROXY header (PROXY protocol on).
        self._proxy_from = proxy_from
        self._proxy_header = b""
        self._mssp = mssp
        self._mssp_sent = False
        self._gmcp_seen = False
        #: Called once when the client agrees to GMCP (set by the connection).
        self.on_gmcp: Callable[[], None] | None = None
        #: Goes up whenever the client tells its terminal type, so that what depends on
        #: it (colour) is worked out again.
        self.terminal_version = 0

    def on_ttype(self, ttype: str) -> None:
        super().on_ttype(ttype)
        self.terminal_version += 1

    def on_request_environ(self) -> list[str | bytes]:
        """The environment variables asked of a client (NEW-ENVIRON): only those the
        server uses, TERM for colour and LANG for the character set. telnetlib3 asks for
        USER, LOGNAME, DISPLAY, EDITOR and anything else the client will volunteer."""
        return ["TERM", "LANG"]

    def on_environ(self, mapping: dict[str, str]) -> None:
        super().on_environ(mapping)
        self.terminal_version += 1

    def on_request_charset(self) -> list[str]:
        return list(CHARSETS)

    def on_charset(self, charset: str) -> None:
        super().on_charset(charset)
        self.terminal_version += 1

    def encoding(self, outgoing: bool | None = None, incoming: bool | None = None) -> str | bool:
        """The character set the player chose (``@charset``), else telnetlib3's choice
        (the client's LANG, else its CHARSET, else UTF-8), kept only if it is one of
        :data:`CHARSETS`: otherwise UTF-8."""
        chosen = self.get_extra_info(CHOSEN_CHARSET) or super().encoding(outgoing, incoming)
        return chosen if not isinstance(chosen, str) or usable_charset(chosen) else "utf-8"

    def choose_charset(self, name: str | None) -> None:
        """Send and read the client's text in ``name`` (one of :data:`CHARSETS`) from now
        on, whatever it said; None: as it said."""
        if name is None:
            self._extra.pop(CHOSEN_CHARSET, None)
        else:
            self._extra[CHOSEN_CHARSET] = name
        self.terminal_version += 1

    def on_naws(self, rows: int, cols: int) -> None:
        super().on_naws(rows, cols)
        self.cols = cols

    #: The window width the client reported (NAWS), if it did.
    cols: int | None = None

    def output_encoding(self) -> str:
        """The character set to send the client text in (UTF-8 unless it chose another),
        worked out again only when the client has said something new."""
        if self._encoding_for != self.terminal_version:
            self._encoding = str(self.encoding(outgoing=True))
            self._encoding_for = self.terminal_version
        return self._encoding

    _encoding = "utf-8"
    _encoding_for = -1

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # A stream protocol is given a whole transport (reading and writing), though
        # asyncio's stubs type connection_made's argument as the BaseTransport every
        # protocol gets; uvloop's transports do not subclass asyncio.Transport, so this
        # is a cast, not an isinstance check.
        self._flow = ClientTransport(cast(asyncio.Transport, transport))
        super().connection_made(self._flow)
        if self._proxy_from and in_networks(self._peer_address(), self._proxy_from):
            # From a balancer: the player's address is in the header it sends first.
            # Anyone else is a player connecting directly, at their own address.
            self.proxied_address = asyncio.get_running_loop().create_future()
        # telnetlib3's server never gives its reader the transport, so the reader's
        # buffer would grow without bound (docs/telnetlib3.md): give it ours.
        assert self.reader is not None and self.writer is not None
        self.reader.set_transport(self._flow)
        # Special line characters are only simulated for remote line editing, which
        # this server never asks for; left on, every byte the client sends is examined
        # in Python before the reader gets it, instead of by one bytes.find for IAC.
        self.writer.slc_simulated = False
        if self._resume is not None:
            self._restore(self._resume)

    def begin_negotiation(self) -> None:
        if self._resume is None:
            super().begin_negotiation()
        elif not self._waiter_connected.done():
            # Negotiated on the worker that handed the connection over: serve it now.
            self._waiter_connected.set_result(None)

    def handoff_state(self) -> dict[str, Any] | None:
        """What the client agreed to and told (options, terminal, window, character set),
        for the worker this connection is handed to (see :mod:`server.handoff`); None
        while anything it sent waits to be parsed or is half parsed (a telnet command, a
        character): then it is not handed over now."""
        writer, reader = self.writer, self.reader
        if writer is None or reader is None or self._flow is None:
            return None
        decoder = getattr(reader, "_decoder", None)
        if (
            self._unparsed
            or self._waiting
            or writer.is_oob
            or not self._waiter_connected.done()
            or reader._buffer
            or (decoder is not None and decoder.getstate()[0])
            or self._mccp2_pending != (self._mccp2_compressor is not None)
        ):
            return None
        return {
            "input": self._input.state(),
            "local": _enabled(writer.local_option),
            "remote": _enabled(writer.remote_option),
            # Asked for and not answered (a client like nc never answers): an answer
            # that comes later is then taken as one, not as a request.
            "pending": [option.hex() for option, on in writer.pending_option.items() if on],
            # What the server reads of what the client told (terminal type, character
            # set, window), each cut short: a client may tell much more, and the whole
            # state must fit in one message between workers.
            "extra": {
                key: value[:TOLD_MOST] if isinstance(value, str) else value
                for key, value in self._extra.items()
                if key in TOLD_KEPT and isinstance(value, str | int)
            },
            "advanced": bool(self._advanced),
            "binary_asked": bool(getattr(writer, "_asked_for_binary", False)),
            "mccp2": self._mccp2_compressor is not None,
            "cols": self.cols,
        }

    def _restore(self, state: dict[str, Any]) -> None:
        """Take up a client's state from :meth:`handoff_state` (each value checked: a bad
        one is left out), before anything the client sent meanwhile is read. Compression,
        which the other worker ended, starts again (a new stream, as MCCP2 allows)."""
        writer = self.writer
        assert writer is not None
        for table, numbers in ((writer.local_option, state.get("local")), (writer.remote_option, state.get("remote"))):
            for number in numbers if isinstance(numbers, list) else ():
                if isinstance(number, int) and 0 <= number <= 255:
                    table[bytes([number])] = True
        pending = state.get("pending")
        for option in pending if isinstance(pending, list) else ():
            if isinstance(option, str) and 0 < len(option) <= 8:
                with contextlib.suppress(ValueError):
                    writer.pending_option[bytes.fromhex(option)] = True
        extra = state.get("extra")
        if isinstance(extra, dict):
            self._extra.update(
                (key, value) for key, value in extra.items() if isinstance(value, str | int | float | bool)
            )
        self._advanced = state.get("advanced") is True
        if isinstance(writer, MushTelnetWriter):
            writer._asked_for_binary = state.get("binary_asked") is True
        cols = state.get("cols")
        self.cols = cols if isinstance(cols, int) and cols > 0 else None
        self.terminal_version += 1
        bucket = state.get("input")
        if isinstance(bucket, dict):
            self._input.restore(bucket)
        # Told there: not sent again; and its first byte was no TLS handshake.
        self._mssp_sent = self._gmcp_seen = True
        self._tls_checked = True
        if state.get("mccp2") is True:
            self.start_compression()

    def end_compression(self) -> None:
        """End the MCCP2 stream, if one runs (the client reads plain bytes after it)."""
        if self._mccp2_compressor is not None:
            self._mccp2_end()

    def start_compression(self) -> None:
        """Start a new MCCP2 stream (after :meth:`end_compression`)."""
        if self._mccp2_compressor is None:
            self._mccp2_start()

    def hold_reading(self, reason: str) -> None:
        """Stop reading from the client until :meth:`release_reading` (see ClientTransport)."""
        assert self._flow is not None
        self._flow.hold(reason)

    def release_reading(self, reason: str) -> None:
        assert self._flow is not None
        self._flow.release(reason)

    def begin_advanced_negotiation(self) -> None:
        # The base class offers MCCP3 (client-to-server compression) with MCCP2; with
        # telnetlib3 5.0.1 the server cannot read what its own client compresses, so only
        # MCCP2 (server-to-client, where the bytes are) is offered.
        offer_mccp2 = self._mccp2_enabled
        self._mccp2_enabled = False
        super().begin_advanced_negotiation()
        self._mccp2_enabled = offer_mccp2
        writer = self.writer
        assert writer is not None
        if offer_mccp2 and writer.get_extra_info("ssl_object") is None:
            writer.iac(WILL, MCCP2_COMPRESS)
        writer.iac(WILL, GMCP)
        writer.iac(WILL, MSSP)
        # telnetlib3 asks for it only once the client agrees to receive binary, which
        # this server no longer offers (see MushTelnetWriter).
        writer.iac(DO, BINARY)

    def data_received(self, data: bytes) -> None:
        """Take in what the client sent (see :meth:`_take_in_some`)."""
        self._unparsed += data
        if not self._waiting:
            self._take_in_some()

    def _take_in_some(self, my_turn: bool = False) -> None:
        """Parse what the client sent, :data:`PARSE_SLICE` bytes at a time, as long as it
        stays within its input rate (every byte counts, telnet commands included); while
        it waits, reading from the client stays paused. Plain text is parsed at once. A
        slice with telnet commands in it (or inside a subnegotiation) waits its turn
        among every connection's (:class:`ParsingTurns`): telnetlib3 spends about a
        microsecond on each of those bytes, and however many clients send them, everyone
        else must be served between two slices."""
        self._waiting = False
        self._resume_parsing = None
        assert self._flow is not None
        while self._unparsed:
            if self._flow.is_closing():
                self._unparsed.clear()
                return
            data = bytes(self._unparsed[:PARSE_SLICE])
            if not my_turn and (IAC_BYTE in data or self._in_subnegotiation):
                self._wait()
                self._turns.wait(self._take_in_turn)
                return
            my_turn = False
            del self._unparsed[:PARSE_SLICE]
            wait = self._input.take(len(data))
            self._take_in(data)
            if wait:
                self._wait()
                self._resume_parsing = asyncio.get_running_loop().call_later(wait, self._take_in_some)
                return
        self._flow.release("parsing")

    def _take_in_turn(self) -> None:
        self._take_in_some(my_turn=True)

    @property
    def _in_subnegotiation(self) -> bool:
        """Whether the client is in the middle of a subnegotiation, every byte of which
        telnetlib3 takes apart as it does telnet commands."""
        return self.writer is not None and bool(self.writer.is_oob)

    def _wait(self) -> None:
        """Stop reading from the client until what it sent has been parsed."""
        assert self._flow is not None
        self._waiting = True
        self._flow.hold("parsing")

    def _take_in(self, data: bytes) -> None:
        """One slice of what the client sent: the PROXY header first, then telnet."""
        if self.proxied_address is not None and not self.proxied_address.done():
            data = self._read_proxy_header(data)
            if not data:
                return
        super().data_received(data)
        writer = self.writer
        if writer is None or self._closing:
            return
        if not self._mssp_sent and writer.local_option.enabled(MSSP):
            self._mssp_sent = True
            writer.send_mssp(self._mssp())
        if not self._gmcp_seen and writer.local_option.enabled(GMCP):
            self._gmcp_seen = True
            if self.on_gmcp is not None:
                self.on_gmcp()

    def _check_negotiation_timer(self) -> None:
        # telnetlib3 5.0 would set the result of a waiter that a connection closed
        # during negotiation has already cancelled (an error logged per health check).
        if self._waiter_connected.done():
            return
        super()._check_negotiation_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._resume_parsing is not None:
            self._resume_parsing.cancel()
            self._resume_parsing = None
        self._unparsed.clear()
        if self.proxied_address is not None and not self.proxied_address.done():
            self.proxied_address.set_result(None)
        super().connection_lost(exc)

    def let_go(self) -> None:
        """Untie this connection's objects from each other, its session over: telnetlib3's
        writer keeps its own methods in its tables and the protocol's in ``fn_encoding``,
        and the protocol keeps the writer, so that a closed connection is a cycle that
        only the collector's oldest generation frees, which the server reaches rarely
        (see :func:`server.cli.tune_interpreter`). Untied, it is freed at once."""
        if self._check_later is not None:
            self._check_later.cancel()
        self.on_gmcp = None
        writer, reader = self.writer, self.reader
        if isinstance(writer, telnetlib3.TelnetWriterUnicode):
            for table in (
                writer._iac_callback,
                writer._slc_callback,
                writer._ext_callback,
                writer._ext_send_callback,
                writer._ext_offer_callback,
            ):
                table.clear()
            for option in (writer.local_option, writer.remote_option, writer.pending_option):
                option._on_change = None
            writer.fn_encoding = _encoding_once_let_go
        if isinstance(reader, telnetlib3.TelnetReaderUnicode):
            reader.fn_encoding = _encoding_once_let_go

    def _read_proxy_header(self, data: bytes) -> bytes:
        """Take the PROXY header off the front of the stream; returns what follows it."""
        assert self.proxied_address is not None
        self._proxy_header += data
        end = self._proxy_header.find(b"\r\n", 0, PROXY_HEADER_MAX)
        if end < 0 and len(self._proxy_header) < PROXY_HEADER_MAX:
            return b""
        header, rest = self._proxy_header[: max(end, 0)], self._proxy_header[end + 2 :]
        self._proxy_header = b""
        try:
            address = proxied_address(header) if end >= 0 else None
        except ValueError:
            address = None
        if address is None and not header.startswith(b"PROXY UNKNOWN"):
            log.warning("connection from %s did not start with a PROXY header; closed", self._peer_address())
            self.proxied_address.set_result(None)
            assert self._transport is not None
            self._transport.close()
            return b""
        self.proxied_address.set_result(address or self._peer_address())
        return rest

    def _peer_address(self) -> str:
        assert self._transport is not None
        peer = self._transport.get_extra_info("peername") or ("unknown",)
        return str(peer[0])

    @property
    def negotiates(self) -> bool:
        """Whether the client answers telnet negotiation at all (``nc`` does not)."""
        return bool(self._advanced)


def _enabled(options: dict[bytes, bool]) -> list[int]:
    """The telnet options on in ``options`` (a writer's local or remote option table)."""
    return sorted(option[0] for option, on in options.items() if on and len(option) == 1)


def gmcp_enabled(writer: telnetlib3.TelnetWriterUnicode) -> bool:
    return bool(writer.local_option.enabled(GMCP))


#: GMCP messages made in this turn of the event loop, by package: the data (held, so that
#: it cannot be freed and its id taken by another) and the message.
_gmcp_messages: TurnCache[str, tuple[object, bytes]] = TurnCache()


def gmcp_message(package: str, data: object) -> bytes:
    """A GMCP message as it goes on the wire (``IAC SB GMCP <package> <JSON> IAC SE``, the
    JSON as telnetlib3's ``gmcp_encode`` writes it: compact, ASCII, see
    :func:`games.base.ascii_json`), made once however many clients are sent the same view
    in one turn of the event loop."""
    cached = _gmcp_messages.get(package)
    if cached is not None and cached[0] is data:
        return cached[1]
    payload = package.encode() if data is None else package.encode() + b" " + ascii_json(data)
    payload = payload.replace(IAC, IAC + IAC)
    message = IAC + SB + GMCP + payload + IAC + SE
    _gmcp_messages.keep(package, (data, message))
    return message


def set_local_echo(writer: telnetlib3.TelnetWriterUnicode, visible: bool) -> None:
    """Ask the client to stop (or resume) echoing what is typed, for a password. The
    server says it will echo (WILL ECHO) and then echoes nothing; clients that ignore this
    simply keep echoing."""
    writer.iac(WONT if visible else WILL, ECHO)
