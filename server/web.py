"""The browser's way in, on the web port: the page and its files over HTTP, and a WebSocket
per player that goes through the same command processor as telnet.

What travels on the socket (docs/contributors.md, "The web client's protocol") is JSON,
one object a frame. From the page: ``{"line": ...}`` (what the player typed, split into
lines as a telnet client's input is), ``{"cols": n}`` (the scrollback's width) and
``{"resume": token}`` (log in again after a drop). To the page: ``{"text": ...}`` (the
lines a telnet player would read, with the same ANSI colours), ``{"gmcp": package,
"data": ...}`` (the structured views telnet clients get over GMCP), ``{"token": ...}``
(the session token, see :mod:`server.sessions`), ``{"echo": bool}`` (a password is
being asked for) and ``{"language": code}`` (the language the server writes in from now
on: the page puts its own labels in it).

With ``serve --workers N``, a page's player who sits down in a room another worker of the
host serves is relayed there (see :mod:`server.handoff`): the worker holding the socket
passes each message, as it is, both ways over a Unix socket pair whose other end it handed
to the room's worker, which serves the player as if the page were its own
(:class:`RelaySocket`).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import ipaddress
import json
import logging
import socket
import ssl
import time
from collections import Counter as Tally
from collections import deque
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

from aiohttp import WSMessage, WSMsgType, web
from aiohttp.typedefs import Handler
from aiohttp.web_protocol import RequestHandler

from games.base import json_text
from i18n import ENGLISH, LANGUAGES, N_, Text, in_language, known_language, page_texts, preferred_language, said
from server.config import Settings
from server.connection import DEFAULT_WIDTH, MAX_WIDTH, MIN_WIDTH, Connection, LineSplitter, rendered_for_page
from server.hub import Hub
from server.limits import TokenBucket
from server.metrics import Health, Metrics, add_routes
from server.sessions import MOST_TOKEN_LENGTH, TOKEN_LIFETIME, SessionTokens
from server.telnet import Network, in_networks, parse_networks
from server.text import clean_text
from server.turn_cache import TurnCache

log = logging.getLogger(__name__)

NOT_UNDERSTOOD = N_("That message is not one this server understands.")

#: The page and its files (the page's own code, its styles, vendored libraries).
WEB_ROOT = Path(__file__).resolve().parent / "webclient"
#: Largest message a page may send, in bytes (a pasted deck fits; the line limit still applies).
MOST_MESSAGE_BYTES = 64 * 1024
#: Seconds between fresh session tokens for a logged-in connection.
TOKEN_REFRESH = TOKEN_LIFETIME / 3
#: A connection's newest tokens it keeps, to retract when the session ends: those still
#: good (one a refresh, over a lifetime, and the one before them); older ones ran out.
TOKENS_KEPT = 4
#: Seconds between WebSocket pings (a page that stops answering is taken to be gone).
HEARTBEAT = 30.0
#: Seconds a closed connection's page has to take what was still queued for it.
GOODBYE_WAIT = 10.0
#: Seconds a page has to answer the server's closing of its socket (a browser does at once;
#: a page that stopped reading its socket, or stopped being read for sending too fast, is
#: not waited for longer).
CLOSE_ANSWER_WAIT = 1.0
#: Every response's security headers: only the page's own files run, nothing inline, and
#: the only connection it may open is back to this server.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-cache",
}


class WebConnection(Connection):
    """A player's browser, over one WebSocket. It always shows colour and the structured
    views; its width is what the page says fits across its scrollback."""

    kind = "web"
    browser_page = True
    _relay_end: socket.socket | None

    def __init__(
        self,
        number: int,
        socket: web.WebSocketResponse | RelaySocket,
        transport: asyncio.Transport | None,
        address: str,
        max_line_length: int,
        output_limit: int,
        tokens: SessionTokens,
        input_rate: TokenBucket | None = None,
    ) -> None:
        super().__init__(number, address, max_line_length, output_limit)
        self.socket = socket
        #: Bytes the page may send a second (as a telnet client may): past them, its next
        #: message is not read until the rate allows (the socket then stops being read,
        #: and the page's sending waits). None: no limit.
        self.input_rate = input_rate
        #: The TCP connection under the socket, dropped at once when the page stops reading.
        self.transport = transport
        self.tokens = tokens
        self._width = DEFAULT_WIDTH
        #: Frames waiting for the socket, and their size in characters.
        self._frames: deque[str] = deque()
        self._unsent = 0
        self._more = asyncio.Event()
        self._hanging_up = False
        #: Set once the connection hangs up (what waits for the input rate stops waiting).
        self._hung_up = asyncio.Event()
        #: Every token this connection was given (all retracted when the player ends the session).
        self._tokens: list[str] = []
        self._token_refresh: asyncio.TimerHandle | None = None
        #: When the newest token was given; and, handed over with the page's tokens, in
        #: how many seconds the next is due (the refresh goes on where it was).
        self._token_given_at = 0.0
        self._next_token_in: float | None = None
        #: The last data and frame of each view sent, to leave out those that did not change.
        self._views: dict[str, tuple[object, str]] = {}
        #: Whether the page reads the frames queued in one turn as one message, a JSON array.
        self.batches = False
        #: Whether the page wraps the text itself, to its width at each moment, so that what
        #: it shows wraps anew when it is resized (pages of this release: ``?wrap=page``).
        self.page_wraps = False
        #: The language the browser asked for first (Accept-Language), if the server speaks it.
        self.browser_language: str | None = None
        #: What the page sent that is read but not run yet: lines, and None for one too long.
        self._splitter = LineSplitter(max_line_length)
        self._unread: deque[str | None] = deque()
        #: Passing messages between the page and the worker that serves its player now,
        #: through this end of a socket pair.
        self._relay: asyncio.Task[None] | None = None
        self._relay_end = None
        self._sender = asyncio.create_task(self._send_frames(), name=f"web connection {number} sender")

    @property
    def width(self) -> int:
        return self._width

    def client_language(self) -> str | None:
        return self.browser_language

    def set_width(self, cols: object) -> None:
        """Wrap to ``cols`` characters from now on (what fits across the page's scrollback),
        within the bounds every client has; anything but a whole number is ignored."""
        if isinstance(cols, int) and not isinstance(cols, bool):
            self._width = min(MAX_WIDTH, max(MIN_WIDTH, cols))

    @property
    def client_has_colour(self) -> bool:
        return True

    def _rendered(self, text: str, wrap: bool) -> str:
        if self.page_wraps:
            return rendered_for_page(text, wrap, self.language)
        return super()._rendered(text, wrap)

    def _post(self, message: dict[str, Any]) -> None:
        """Queue one message for the page."""
        self._queue(json_text(message))

    def _queue(self, frame: str) -> None:
        """Queue one frame for the page; a page that stops reading is cut off once what
        it left unread passes the output limit."""
        if self._hanging_up:
            return
        self._frames.append(frame)
        self._unsent += len(frame)
        self._more.set()
        if self._unsent > self.output_limit:
            log.warning(
                "web connection %d stopped reading (%d characters unread); cutting it off", self.number, self._unsent
            )
            self.closing = True
            self._frames.clear()
            self._hang_up()
            if self.transport is not None:
                self.transport.abort()

    async def _send_frames(self) -> None:
        """Send the queued frames in order, then close the socket once hung up. To a page
        that reads them so (:attr:`batches`), what was queued together (in one turn of the
        event loop: a move's text and the views it changed, say) goes as one WebSocket
        message, a JSON array of them: one write to the socket a turn, not one a frame."""
        try:
            while True:
                while self._frames:
                    await self.socket.send_str(self._next_message())
                if self._hanging_up:
                    return
                self._more.clear()
                await self._more.wait()
        except ConnectionError:
            self.closing = True
        finally:
            if not self.socket.closed:
                await self.socket.close()

    def _next_message(self) -> str:
        """Take the next message to send from the queue (see :meth:`_send_frames`)."""
        if self.batches and len(self._frames) > 1:
            frames = list(self._frames)
            self._frames.clear()
            self._unsent -= sum(len(frame) for frame in frames)
            return "[" + ",".join(frames) + "]"
        message = self._frames.popleft()
        self._unsent -= len(message)
        return message

    def send_now(self) -> None:
        """Write everything queued into the relay at once (a page relayed here, whose
        player goes on to another worker: nothing may be left to send after that)."""
        assert isinstance(self.socket, RelaySocket)
        self.flush()
        while self._frames:
            self.socket.write(self._next_message())

    def _deliver(self, texts: list[str]) -> None:
        self._post({"text": "\n".join(texts).replace("\r\n", "\n")})

    @property
    def gmcp(self) -> bool:
        return not self.closing

    def send_gmcp(self, package: str, data: object) -> None:
        """Send a view unless the page already has it as it is (equal to the last one
        sent: views are built afresh each time, never changed once sent). A view sent to
        a whole room (the same object, in the same turn of the event loop) is encoded once."""
        if not self.gmcp:
            return
        last = self._views.get(package)
        if last is not None and last[0] == data:
            return  # the page has it as it is: no need to encode it to see so
        frame = _view_frame(package, data)
        self._views[package] = (data, frame)
        if last is not None and last[1] == frame:
            return
        self.flush()
        self._queue(frame)

    def hide_input(self, hidden: bool) -> None:
        self.flush()
        self._post({"echo": not hidden})

    def set_language(self, code: str) -> None:
        """Write in ``code`` from now on, and tell the page, which puts its own labels in
        it (what was written before goes out first)."""
        changed = code != self.language
        super().set_language(code)
        if changed:
            self.flush()
            self._post({"language": code})

    def session_changed(self) -> None:
        """Logged in: the page is given a session token (and a fresh one from time to
        time), and every view again. Logged out by the player, or a token refused: the
        session is ended (see :meth:`end_session`). A connection that dropped keeps its
        tokens good, to come back with."""
        self._views.clear()
        if self._token_refresh is not None:
            self._token_refresh.cancel()
            self._token_refresh = None
        if self.player is not None:
            if self._next_token_in is not None:
                self._token_refresh = asyncio.get_running_loop().call_later(self._next_token_in, self._give_token)
                self._next_token_in = None
            else:
                self._give_token()
        elif not self.gone:
            self.end_session()

    def end_session(self) -> None:
        """Every token this connection was given is retracted, and the page told to
        forget its own: it does not come back by itself."""
        for token in self._tokens:
            self.tokens.retract(token)
        self._tokens.clear()
        self.flush()
        self._post({"token": None})

    def _give_token(self) -> None:
        if self.player is None or self.gone:
            return
        token = self.tokens.issue(self.player.account_id, self.player.name, self.player.credential)
        self._tokens.append(token)
        del self._tokens[:-TOKENS_KEPT]
        self._token_given_at = time.monotonic()
        self._post({"token": token})
        self._token_refresh = asyncio.get_running_loop().call_later(TOKEN_REFRESH, self._give_token)

    async def lines(self) -> AsyncGenerator[str, None]:
        """Every line the page sends (see :meth:`Connection.lines`). Every message counts
        against the limits: one that is not a line stands as an empty one; and every byte
        against the input rate, as a telnet client's does."""
        async for message in self.socket:
            if self.closing or message.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                return
            wait = self.input_rate.take(_size_of(message.data)) if self.input_rate is not None else 0.0
            if message.type == WSMsgType.BINARY:
                self.send(said(NOT_UNDERSTOOD))
                self._unread.append("")
            else:
                self._unread.extend(self._lines_in(message.data))
            while self._unread:
                line = self._unread.popleft()
                if line is None:
                    self._refuse_long_line()
                    yield ""
                else:
                    yield line
            if wait:
                # Not read again until the rate allows, or the connection hangs up.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(wait):
                        await self._hung_up.wait()

    def _lines_in(self, data: str) -> list[str | None]:
        """The lines one message from the page stands for, cleaned (None for one too long)."""
        try:
            fields = json.loads(data)
        except (ValueError, RecursionError):
            fields = None
        if not isinstance(fields, dict):
            self.send(said(NOT_UNDERSTOOD))
            return [""]
        line, cols, token = fields.get("line"), fields.get("cols"), fields.get("resume")
        if isinstance(line, str):
            return [None if piece is None else clean_text(piece).strip() for piece in self._splitter.feed(line + "\n")]
        if isinstance(token, str) and self.player is None:
            # A token longer than any we make is refused whole, not read.
            return [f"@resume {clean_text(token[: MOST_TOKEN_LENGTH + 1]).strip()}"]
        self.set_width(cols)
        return [""]

    @property
    def holds_input(self) -> bool:
        """Whether anything the page sent is read but not yet run (here, or relayed here
        but not taken yet)."""
        if isinstance(self.socket, RelaySocket) and self.socket.holds_input:
            return True
        return bool(self._unread) or self._splitter.holds_text

    @property
    def relayed(self) -> bool:
        """Whether this page's socket is held by another worker of the host, which relays it here."""
        return isinstance(self.socket, RelaySocket)

    def handoff_state(self) -> dict[str, Any]:
        """What the room's worker needs to serve this page's player (see :meth:`restore`)."""
        return {
            "input_rate": self.input_rate.state() if self.input_rate is not None else None,
            "width": self._width,
            "batches": self.batches,
            "page_wraps": self.page_wraps,
            "tokens": list(self._tokens),
            "token_age": time.monotonic() - self._token_given_at,
        }

    def restore(self, state: dict[str, Any]) -> None:
        """Take up where the worker that holds the page left off (:meth:`handoff_state`),
        each field checked for type (it comes from a worker of this host)."""
        self.set_width(state.get("width"))
        self.batches = state.get("batches") is True
        self.page_wraps = state.get("page_wraps") is True
        input_rate = state.get("input_rate")
        if self.input_rate is not None and isinstance(input_rate, dict):
            self.input_rate.restore(input_rate)
        tokens, age = state.get("tokens"), state.get("token_age")
        if isinstance(tokens, list):
            self._tokens = [token for token in tokens[-TOKENS_KEPT:] if isinstance(token, str)]
        if self._tokens and isinstance(age, int | float) and age >= 0:
            # The page has a good token: no new one at the login here, the next when due.
            self._next_token_in = max(0.0, TOKEN_REFRESH - age)

    def relay_through(self, pair: socket.socket) -> None:
        """From now on another worker of the host serves this page's player, through
        ``pair`` (the other end of it is theirs): what the page sends goes there as it is,
        and what comes back goes to the page in order, after anything queued here. Nothing
        of this worker's own is sent or run any more; :meth:`finished` waits for the relay
        to end (the page or the other worker hung up)."""
        self.closing = True
        self.batches = False  # the other worker sends whole messages, arrays already
        if self._token_refresh is not None:
            self._token_refresh.cancel()
            self._token_refresh = None
        self._relay_end = pair
        self._relay = asyncio.create_task(self._pass_messages(), name=f"web connection {self.number} relay")

    @property
    def relaying(self) -> bool:
        """Whether this page's messages are being relayed to another worker (see :meth:`relay_through`)."""
        return self._relay is not None and not self._relay.done()

    def end_relay(self, notice: Text) -> None:
        """Stop relaying (this worker stops), telling the page ``notice``; it comes back
        with its token, as after any drop, to a worker that serves it."""
        if self.relaying:
            assert self._relay is not None
            self._relay.cancel()
            self._post({"text": in_language(notice, self.language)})

    async def _pass_messages(self) -> None:
        pair, self._relay_end = self._relay_end, None  # this task's to close from here
        assert pair is not None and isinstance(self.socket, web.WebSocketResponse)
        # What one turn of the other worker's event loop sends at most, in UTF-8: under
        # its output limit in characters, with a comma between frames batched together.
        most = 8 * (self.output_limit + 1)
        try:
            _transport, relay = await asyncio.get_running_loop().connect_accepted_socket(
                lambda: RelaySocket(most), sock=pair
            )
        except BaseException:
            pair.close()
            raise
        page = self.socket

        async def from_the_page() -> None:
            async for message in page:
                if message.type != WSMsgType.TEXT:
                    return
                await relay.send_str(message.data)

        async def to_the_page() -> None:
            async for message in relay:
                self._queue(message.data)
                if self._hanging_up:
                    return

        directions = [asyncio.create_task(from_the_page()), asyncio.create_task(to_the_page())]
        try:
            await asyncio.wait(directions, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for direction in directions:
                direction.cancel()
            await asyncio.gather(*directions, return_exceptions=True)
            await relay.close()

    @property
    def gone(self) -> bool:
        return self.closing or self.socket.closed

    def _hang_up(self) -> None:
        self._hanging_up = True
        self._hung_up.set()
        if self._token_refresh is not None:
            self._token_refresh.cancel()
        self._more.set()

    async def finished(self) -> None:
        """Wait until the relay (if any) has ended, what was queued has been sent and the
        socket is closed; a page that does not take it within :data:`GOODBYE_WAIT` seconds
        is dropped."""
        if self._relay is not None:
            try:
                await asyncio.shield(self._relay)
            except asyncio.CancelledError:
                if not self._relay.cancelled():  # this wait was cancelled, not the relay
                    self._relay.cancel()
                    self._sender.cancel()
                    raise
            except Exception:
                log.exception("the relay of web connection %d failed", self.number)
            finally:
                if self._relay_end is not None:  # the relay was cancelled before it began
                    self._relay_end.close()
        self._hang_up()
        try:
            await asyncio.wait_for(asyncio.shield(self._sender), GOODBYE_WAIT)
        except TimeoutError:
            log.info("web connection %d did not take its last output; dropped", self.number)
            if self.transport is not None:
                self.transport.abort()
            self._sender.cancel()


def _size_of(data: str | bytes) -> int:
    """A message's size in bytes, as the page sent it (text in UTF-8)."""
    return len(data) if isinstance(data, bytes) else len(data.encode(errors="replace"))


#: Views encoded in this turn of the event loop, by package: the data (held, so that it
#: cannot be freed and its id taken by another) and its frame.
_encoded_views: TurnCache[str, tuple[object, str]] = TurnCache()


def _view_frame(package: str, data: object) -> str:
    """The frame of a view, encoded once however many pages it is sent to in one turn."""
    cached = _encoded_views.get(package)
    if cached is not None and cached[0] is data:
        return cached[1]
    frame = json_text({"gmcp": package, "data": data})
    _encoded_views.keep(package, (data, frame))
    return frame


class RelaySocket(asyncio.Protocol):
    """The WebSocket of a page that another worker of this host holds, as that worker
    relays it (see :meth:`WebConnection.relay_through`): a Unix socket carrying each
    message whole, its length in four bytes and then its UTF-8 text. What
    :class:`WebConnection` uses of a WebSocket: ``send_str``, ``close``, ``closed`` and
    the page's messages, in order, by ``async for``; and what handing the socket on to
    another worker needs: whether anything read is not taken yet (:attr:`holds_input`).
    The worker holding the page speaks the same at its end of the relay, taking messages
    as large as the other's output limit allows (``most`` bytes)."""

    def __init__(self, most: int = MOST_MESSAGE_BYTES) -> None:
        self.transport: asyncio.Transport | None = None
        self.closed = False
        #: The largest message taken (one larger ends the relay).
        self.most = most
        #: What was read: whole messages not taken yet, and the start of the next.
        self._messages: deque[str] = deque()
        self._partial = bytearray()
        self._arrived = asyncio.Event()
        self._writable = asyncio.Event()
        self._writable.set()
        #: Whether reading is paused: held (while the socket is offered to another worker),
        #: or read far enough ahead.
        self._held = False
        self._paused = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast("asyncio.Transport", transport)

    def data_received(self, data: bytes) -> None:
        self._partial += data
        messages, done, good = _relay_frames(self._partial, self.most)
        del self._partial[:done]
        if messages:
            self._messages.extend(messages)
            self._arrived.set()
            self._steer()
        if not good:
            self._end()

    def _steer(self) -> None:
        """Read no more from the socket once :data:`RELAY_READ_AHEAD` messages wait (one
        read may bring more; the page waits at the command rate), and nothing while held."""
        pause = self._held or len(self._messages) >= RELAY_READ_AHEAD
        if pause != self._paused and self.transport is not None and not self.closed:
            self._paused = pause
            if pause:
                self.transport.pause_reading()
            else:
                self.transport.resume_reading()

    def hold_reading(self, held: bool) -> None:
        """Stop reading (the socket is being offered to another worker), or go on."""
        self._held = held
        self._steer()

    def fileno(self) -> int:
        """This worker's end of the relay."""
        assert self.transport is not None
        return int(self.transport.get_extra_info("socket").fileno())

    def write_buffer_size(self) -> int:
        """Bytes written to the relay that the kernel has not taken yet."""
        return self.transport.get_write_buffer_size() if self.transport is not None else 0

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._arrived.set()
        self._writable.set()

    def pause_writing(self) -> None:
        self._writable.clear()

    def resume_writing(self) -> None:
        self._writable.set()

    @property
    def holds_input(self) -> bool:
        """Whether anything the page sent is read here but not taken yet."""
        return bool(self._messages or self._partial)

    async def send_str(self, text: str) -> None:
        self.write(text)
        await self._writable.wait()

    def write(self, text: str) -> None:
        """Send one message (without waiting for the other end to take it)."""
        if self.closed or self.transport is None:
            raise ConnectionResetError("the relay has ended")
        self.transport.write(_relay_frame(text))

    async def close(self) -> None:
        self._end()

    def _end(self) -> None:
        self.closed = True
        self._arrived.set()
        if self.transport is not None:
            self.transport.close()

    async def __aiter__(self) -> AsyncGenerator[WSMessage, None]:
        while True:
            while self._messages:
                text = self._messages.popleft()
                self._steer()
                yield WSMessage(WSMsgType.TEXT, text, None)
            if self.closed:
                return
            self._arrived.clear()
            await self._arrived.wait()


#: Messages a relayed page's worker lets wait before it reads no more from the relay.
RELAY_READ_AHEAD = 16


def _relay_frames(buffer: bytearray, most: int) -> tuple[list[str], int, bool]:
    """The whole relayed messages at the start of ``buffer``, how many bytes they took,
    and False if the next is over ``most`` bytes or not UTF-8 (the relay ends there)."""
    messages: list[str] = []
    start = 0
    while len(buffer) - start >= 4:
        size = int.from_bytes(buffer[start : start + 4], "big")
        if size > most:
            log.warning("a relayed message of %d bytes; the relay ends", size)
            return messages, start, False
        end = start + 4 + size
        if len(buffer) < end:
            break
        try:
            messages.append(buffer[start + 4 : end].decode())
        except UnicodeDecodeError:
            return messages, start, False
        start = end
    return messages, start, True


def _relay_frame(text: str) -> bytes:
    data = text.encode()
    return len(data).to_bytes(4, "big") + data


class PendingConnections:
    """The web port's connections that are not (yet) a game's WebSocket: page and file
    requests, and those still sending their headers. At most ``per_address`` from one
    address at once (one more is closed as it comes), and each is closed unless it sends
    a request's headers within ``timeout`` seconds of connecting (or of its last answer),
    so that connections that never finish their headers (slowloris) hold nothing for
    long. A reverse proxy's connections (``proxies``) are not counted: whose each is, the
    proxy says only in its headers."""

    def __init__(self, timeout: float, per_address: int, proxies: tuple[Network, ...], metrics: Metrics | None) -> None:
        self.timeout = timeout
        self.per_address = per_address
        self._proxies = proxies
        self._metrics = metrics
        #: Each connection counted: its address, and its timer while it owes its headers.
        self._pending: dict[RequestHandler, tuple[str, asyncio.TimerHandle | None]] = {}
        self._by_address: Tally[str] = Tally()

    def watch(self, server: web.Server) -> None:
        """Be told of every connection ``server`` (an AppRunner's, once set up) takes and
        loses: aiohttp has no hook of its own for it, so its own two are wrapped."""
        made, lost = server.connection_made, server.connection_lost

        def connection_made(handler: RequestHandler, transport: asyncio.Transport) -> None:
            made(handler, transport)
            self._made(handler, transport)

        def connection_lost(handler: RequestHandler, exc: BaseException | None = None) -> None:
            lost(handler, exc)
            self._forget(handler)

        server.connection_made = connection_made  # type: ignore[method-assign]
        server.connection_lost = connection_lost  # type: ignore[method-assign]

    def _made(self, handler: RequestHandler, transport: asyncio.Transport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else "unknown"
        if self._proxies and in_networks(address, self._proxies):
            return
        if self._by_address[address] >= self.per_address:
            if self._metrics is not None:
                self._metrics.over_budget("web_pending")
            log.info("web connection from %s refused: %d not yet WebSockets already", address, self.per_address)
            # Once aiohttp is done taking it in (closed inside this call, it would trip).
            asyncio.get_running_loop().call_soon(handler.force_close)
            return
        self._by_address[address] += 1
        self._pending[handler] = (address, self._timer(handler))

    def _timer(self, handler: RequestHandler) -> asyncio.TimerHandle:
        return asyncio.get_running_loop().call_later(self.timeout, self._too_slow, handler)

    def _too_slow(self, handler: RequestHandler) -> None:
        found = self._pending.get(handler)
        if found is not None:
            log.info("web connection from %s closed: no request's headers in %g s", found[0], self.timeout)
            self._pending[handler] = (found[0], None)
            handler.force_close()

    def headers_came(self, request: web.BaseRequest) -> None:
        """A request's headers came whole: the connection owes none until it is answered."""
        found = self._pending.get(request.protocol)
        if found is not None and found[1] is not None:
            found[1].cancel()
            self._pending[request.protocol] = (found[0], None)

    def answered(self, request: web.BaseRequest) -> None:
        """The request was answered: the connection owes the next one's headers in time."""
        found = self._pending.get(request.protocol)
        if found is not None and found[1] is None:
            self._pending[request.protocol] = (found[0], self._timer(request.protocol))

    def upgraded(self, request: web.BaseRequest) -> None:
        """The request became a game's WebSocket, which the session's limits count."""
        self._forget(request.protocol)

    def _forget(self, handler: RequestHandler) -> None:
        found = self._pending.pop(handler, None)
        if found is None:
            return
        address, timer = found
        if timer is not None:
            timer.cancel()
        self._by_address[address] -= 1
        if not self._by_address[address]:
            del self._by_address[address]


#: Where the page's head takes its games' panels.
PANELS_MARK = "<!-- game panels -->"
#: Where the login form takes the languages to choose from.
LANGUAGES_MARK = "<!-- languages -->"
#: The page's language, as it comes from the files (the server sets the reader's).
PAGE_LANGUAGE = '<html lang="en">'


def page_with_panels(page: str, panels: Mapping[str, Path]) -> str:
    """The page ``page`` with each game's panel (its script, and its style if it has one)
    in place of :data:`PANELS_MARK`."""
    tags = []
    for game, folder in panels.items():
        if (folder / "panel.css").is_file():
            tags.append(f'<link rel="stylesheet" href="/static/games/{game}.css">')
        tags.append(f'<script type="module" src="/static/games/{game}.js"></script>')
    return page.replace(PANELS_MARK, "\n  ".join(tags))


def page_with_languages(page: str) -> str:
    """The page ``page`` with the languages a player may choose (each named in itself)
    in place of :data:`LANGUAGES_MARK`."""
    options = (f'<option value="{code}" lang="{code}">{html.escape(name)}</option>' for code, name in LANGUAGES.items())
    return page.replace(LANGUAGES_MARK, "\n          ".join(options))


class WebFront:
    """The web port: the page, its files and the players' WebSockets, and for operators
    ``/metrics`` and ``/healthz`` (given ``metrics`` and ``health``). Each socket is
    served by ``serve`` (the same session every telnet connection has), and so is each
    page another worker relays here (:meth:`relayed_page`)."""

    def __init__(
        self,
        settings: Settings,
        hub: Hub,
        tokens: SessionTokens,
        serve: Callable[[Connection, dict[str, Any] | None], Awaitable[None]],
        metrics: Metrics | None = None,
        health: Health | None = None,
        panels: Mapping[str, Path] | None = None,
    ) -> None:
        self.settings = settings
        self.hub = hub
        self.tokens = tokens
        self._serve = serve
        self._metrics = metrics
        self._health = health
        #: Each game's panel for the page, by game: the folder of its ``panel.js`` (and
        #: ``panel.css``, if it has one), served as ``/static/games/<game>.js`` (``.css``).
        self._panels = dict(panels or {})
        self._page_html = page_with_languages(page_with_panels((WEB_ROOT / "index.html").read_text(), self._panels))
        self._origins = {
            origin.strip().rstrip("/").lower() for origin in settings.web_origins.split(",") if origin.strip()
        }
        self._proxies = parse_networks(settings.web_proxy_from)
        #: The names browsers reach this server by (for the WebSocket's Host: see
        #: :meth:`_host_allowed`): --web-hosts, and the hosts of --web-origins.
        self._hosts = {host.strip().lower() for host in settings.web_hosts.split(",") if host.strip()} | {
            urlsplit(origin).hostname or "" for origin in self._origins
        }
        self._pending = PendingConnections(
            settings.web_header_timeout, settings.web_pending_per_address, self._proxies, metrics
        )
        self._runner: web.AppRunner | None = None
        self._site: web.BaseSite | None = None
        #: Pages whose players are served by another worker, through this one.
        self._relaying: set[WebConnection] = set()

    def application(self) -> web.Application:
        app = web.Application(client_max_size=MOST_MESSAGE_BYTES, middlewares=[self._headers_in_time])
        app.router.add_get("/", self._page)
        app.router.add_get("/ws", self._socket)
        app.router.add_get("/static/games/{file}", self._panel_file)
        app.router.add_get("/i18n/{file}", self._page_texts)
        app.router.add_static("/static/", WEB_ROOT, show_index=False, follow_symlinks=False)
        if self._metrics is not None and self._health is not None:
            add_routes(app, self._metrics, self._health)
        app.on_response_prepare.append(_add_security_headers)
        return app

    @property
    def port(self) -> int:
        """The web port actually listened on (useful when started with port 0)."""
        assert self._runner is not None
        return self._runner.addresses[0][1]

    @property
    def secure(self) -> bool:
        """Whether the page is served over TLS (https and wss)."""
        return bool(self.settings.tls_cert and self.settings.tls_key)

    async def start(self, sock: socket.socket | None = None) -> None:
        """Listen on the web port, or on ``sock`` (bound already, for a worker)."""
        context = None
        if self.secure:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(self.settings.tls_cert, self.settings.tls_key)
        self._runner = web.AppRunner(
            self.application(),
            access_log=None,
            handle_signals=False,
            shutdown_timeout=1.0,
            # An idle kept-alive connection is closed as one that owes its headers is.
            keepalive_timeout=self.settings.web_header_timeout,
        )
        await self._runner.setup()
        assert self._runner.server is not None
        self._pending.watch(self._runner.server)
        if sock is not None:
            self._site = web.SockSite(self._runner, sock, ssl_context=context)
        else:
            self._site = web.TCPSite(self._runner, self.settings.host, self.settings.web_port, ssl_context=context)
        await self._site.start()
        scheme = "https" if self.secure else "http"
        log.info("listening for browsers on %s://%s:%d/", scheme, self.settings.host, self.port)

    async def stop_listening(self) -> None:
        """Take no more connections (those open go on until they are closed)."""
        if self._site is not None:
            await self._site.stop()

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _page(self, request: web.Request) -> web.StreamResponse:
        """The page, in the language asked for (``?lang=``: the one its menu chose), else
        the browser's first that the server speaks (Accept-Language), else English."""
        code = known_language(request.query.get("lang", "")[:20]) or preferred_language(
            request.headers.get("Accept-Language", "")[:500]
        )
        page = self._page_html
        if code is not None and code != ENGLISH:
            page = page.replace(PAGE_LANGUAGE, f'<html lang="{code}">', 1)
        return web.Response(text=page, content_type="text/html")

    async def _page_texts(self, request: web.Request) -> web.StreamResponse:
        """``<language>.json``: the page's own texts in that language, by their English."""
        code, dot, suffix = request.match_info["file"].partition(".")
        if not dot or suffix != "json" or known_language(code) != code:
            raise web.HTTPNotFound()
        return web.json_response(page_texts(code))

    async def _panel_file(self, request: web.Request) -> web.StreamResponse:
        """A game's panel script or style: ``<game>.js`` or ``<game>.css``."""
        game, dot, suffix = request.match_info["file"].partition(".")
        folder = self._panels.get(game)
        path = folder / f"panel.{suffix}" if folder is not None and dot and suffix in ("js", "css") else None
        if path is None or not path.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(path)

    @web.middleware
    async def _headers_in_time(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Every request: its connection owes no headers while it is answered."""
        self._pending.headers_came(request)
        try:
            return await handler(request)
        finally:
            self._pending.answered(request)

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        if not self._host_allowed(request):
            log.info("web socket from %s refused: host %r", request.remote, request.host)
            raise web.HTTPForbidden(text="This server is not reached by that name.")
        if not self._origin_allowed(request):
            log.info("web socket from %s refused: origin %r", request.remote, request.headers.get("Origin"))
            raise web.HTTPForbidden(text="This page's origin may not connect here.")
        # No compression: a session token would share a compression stream with text
        # other players choose, which leaks it a byte at a time through the sizes (CRIME).
        socket = web.WebSocketResponse(
            max_msg_size=MOST_MESSAGE_BYTES, heartbeat=HEARTBEAT, compress=False, timeout=CLOSE_ANSWER_WAIT
        )
        await socket.prepare(request)
        self._pending.upgraded(request)
        settings = self.settings
        connection = WebConnection(
            self.hub.next_connection_number(),
            socket,
            request.transport,
            self._address(request),
            settings.max_line_length,
            settings.output_limit,
            self.tokens,
            TokenBucket(settings.input_rate, settings.input_burst),
        )
        # The page says in the request how wide its scrollback is, so the welcome fits,
        # and whether it reads messages sent together as one array (pages of release
        # 0.2.0 and before do not: still open across an upgrade, they get them one by one).
        cols = request.query.get("cols", "")
        if cols.isdigit() and len(cols) < 5:
            connection.set_width(int(cols))
        connection.batches = request.query.get("batch") == "1"
        connection.page_wraps = request.query.get("wrap") == "page"
        # The language chosen in the page's menu, else the browser's first choice.
        chosen = known_language(request.query.get("lang", "")[:20])
        if chosen is not None:
            connection.language_chosen = True
            connection.set_language(chosen)
        connection.browser_language = preferred_language(request.headers.get("Accept-Language", "")[:500])
        try:
            await self.serve_page(connection)
        finally:
            # aiohttp (3.14) leaves the socket's data callback on the connection's protocol
            # after it is closed, a cycle that only a full collection frees, which the
            # server makes rare (see server.cli.tune_interpreter): untie it here.
            if request.protocol is not None:
                request.protocol._data_received_cb = None
        return socket

    async def serve_page(self, connection: WebConnection, handed: dict[str, Any] | None = None) -> None:
        """Serve a page's connection (or one ``handed`` over, see :meth:`relayed_page`)
        until it is done with: its session, then, if its player was handed to another
        worker, the relay, then its last output."""
        try:
            await self._serve(connection, handed)
            if connection.relaying:
                self._relaying.add(connection)
        finally:
            try:
                await connection.finished()
            finally:
                self._relaying.discard(connection)

    async def relays_ended(self, grace: float, notice: Text) -> None:
        """Wait up to ``grace`` seconds for the pages this worker relays to be closed by
        the workers serving them (a host that stops stops them all, and each tells its
        players why); then end the rest, telling them ``notice``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        while any(connection.relaying for connection in self._relaying) and loop.time() < deadline:
            await asyncio.sleep(0.05)
        for connection in list(self._relaying):
            connection.end_relay(notice)

    async def relayed_page(self, pair: socket.socket, handed: dict[str, Any]) -> WebConnection:
        """The connection of a page another worker holds and relays through ``pair`` (see
        :meth:`WebConnection.relay_through`), ``handed`` over as it was there: for
        :meth:`serve_page`."""
        _transport, relay = await asyncio.get_running_loop().connect_accepted_socket(RelaySocket, sock=pair)
        settings = self.settings
        connection = WebConnection(
            self.hub.next_connection_number(),
            relay,
            relay.transport,
            handed["address"],
            settings.max_line_length,
            settings.output_limit,
            self.tokens,
            TokenBucket(settings.input_rate, settings.input_burst),
        )
        connection.restore(handed["web"])
        return connection

    def _host_allowed(self, request: web.Request) -> bool:
        """Whether the page asking reached this server by one of its own names: an address,
        localhost, or one of ``--web-hosts`` (or of ``--web-origins``' hosts). A page of
        another site whose name was made to point here (DNS rebinding) names its own host,
        and its own origin: the origin check alone would let it in."""
        host = urlsplit("//" + request.host).hostname or ""
        try:
            ipaddress.ip_address(host)
        except ValueError:
            return host == "localhost" or host.endswith(".localhost") or host in self._hosts
        return True

    def _origin_allowed(self, request: web.Request) -> bool:
        """Whether the page asking is this server's own (or one of ``--web-origins``): a
        browser says so in Origin, and another site's page cannot pretend otherwise."""
        origin = request.headers.get("Origin", "")
        if origin.rstrip("/").lower() in self._origins:
            return True
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and parts.netloc.lower() == request.host.lower()

    def _address(self, request: web.Request) -> str:
        """The player's address: the connection's own, or, from a reverse proxy named in
        ``--web-proxy-from``, the last address its X-Forwarded-For gives."""
        remote = request.remote or "unknown"
        forwarded = request.headers.get("X-Forwarded-For", "")
        if forwarded and self._proxies and in_networks(remote, self._proxies):
            last = forwarded.split(",")[-1].strip()
            try:
                return str(ipaddress.ip_address(last))
            except ValueError:
                log.warning("proxy %s sent X-Forwarded-For %r, which is no address", remote, forwarded[:100])
        return remote


async def _add_security_headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(SECURITY_HEADERS)
