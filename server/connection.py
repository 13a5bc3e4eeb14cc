"""One client connection, by telnet or from a browser: reading command lines from it and
writing text to it. :class:`Connection` is what every kind shares (output, framing, the
command state); :class:`TelnetConnection` is telnet's, :class:`server.web.WebConnection`
the browser's."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, ClassVar, cast

from i18n import ENGLISH, LANGUAGE, N_, Text, in_language, known_language, said
from server.telnet import MushTelnetServer, gmcp_enabled, gmcp_message, read_text, set_local_echo
from server.text import (
    COLOUR_END,
    COLOUR_SEPARATOR,
    COLOUR_START,
    TRANSLITERATE,
    WHOLE_LINE,
    clean_text,
    render_colours,
    wrap_lines,
)
from server.turn_cache import TurnCache

if TYPE_CHECKING:
    from telnetlib3 import TelnetReaderUnicode, TelnetWriterUnicode

    from server.hub import OnlinePlayer

log = logging.getLogger(__name__)

#: The connection whose command is running in the current task, if any. Output for that
#: connection is part of its command's reply; output for others is an interruption.
CURRENT_CONNECTION: ContextVar[Connection | None] = ContextVar("current_connection", default=None)


@contextmanager
def as_news() -> Iterator[None]:
    """Output sent inside is news, not the reply of the command running in this task
    (moves another node made, read from the database while making this one): a
    connection running a framed command holds it back until after the suffix."""
    token = CURRENT_CONNECTION.set(None)
    try:
        yield
    finally:
        CURRENT_CONNECTION.reset(token)


@contextmanager
def serving(connection: Connection) -> Iterator[None]:
    """Within the block, a command of ``connection`` runs: its output is the command's
    reply, and text is translated into the connection's language."""
    token = CURRENT_CONNECTION.set(connection)
    spoken = LANGUAGE.set(connection.language)
    try:
        yield
    finally:
        LANGUAGE.reset(spoken)
        CURRENT_CONNECTION.reset(token)


DEFAULT_WIDTH = 80
MIN_WIDTH, MAX_WIDTH = 20, 250
#: Bytes taken from the reader at a time.
_READ_CHUNK = 16 * 1024
#: What ends a line: telnet's CR LF (or CR NUL), or a bare LF or CR as some clients send.
_LINE_END = re.compile(r"\r[\n\x00]?|\n")


#: The most characters of one text laid out for a client (wrapped to its width): what one
#: command can make the server lay out at once, for each width it is shown at. Longer
#: text is cut at the end of a line, and says so (lists that can be long are shown a
#: page at a time instead: ``viewall 2``).
MOST_LAID_OUT = 32 * 1024
TOO_LONG_TO_SHOW = N_("(The rest is not shown: it is more than can be shown at once.)")


def _at_most_laid_out(text: str, language: str) -> str:
    """``text`` cut to :data:`MOST_LAID_OUT` characters, at the end of a line (saying
    so in ``language``)."""
    if len(text) <= MOST_LAID_OUT:
        return text
    cut = text.rfind("\n", 0, MOST_LAID_OUT)
    note = "\n" + in_language(said(TOO_LONG_TO_SHOW), language)
    if cut > 0:
        return text[:cut] + note
    # One line that long: cut inside it, its colour taken out (the cut may fall in a span).
    return render_colours(text[:MOST_LAID_OUT], False).translate(_NO_MARKUP) + note


_NO_MARKUP = dict.fromkeys(map(ord, (COLOUR_START, COLOUR_SEPARATOR, COLOUR_END)))


#: Text rendered in this turn of the event loop: by the text (the same object, shown to
#: everyone who sees it), width (0: unwrapped), whether in colour, and language.
_rendered_texts: TurnCache[tuple[str, int, bool, str], str] = TurnCache()


def rendered(text: str, width: int, colour: bool, language: str = ENGLISH) -> str:
    """``text`` as a client is sent it: wrapped to ``width`` columns (0: not wrapped, only
    its :data:`WHOLE_LINE` marks taken out), its lines joined by CR LF, its colour markup
    made ANSI (``colour``) or taken out; wrapped, at most :data:`MOST_LAID_OUT` characters
    of it (text sent unwrapped, a deck to copy, is only split into lines). A line said to
    a room of a hundred is rendered once per width and colour, not once per listener: what
    is rendered is kept until the end of the event loop's turn."""
    key = (text, width, colour, language)
    found = _rendered_texts.get(key)
    if found is not None:
        return found
    lines = wrap_lines(_at_most_laid_out(text, language), width) if width else text.replace(WHOLE_LINE, "").split("\n")
    found = render_colours("\r\n".join(lines), colour)
    _rendered_texts.keep(key, found)
    return found


#: Text rendered for pages that wrap it themselves in this turn, by text, whether it is
#: wrapped (else laid out), and language.
_rendered_for_pages: TurnCache[tuple[str, bool, str], str] = TurnCache()


def rendered_for_page(text: str, wrap: bool, language: str = ENGLISH) -> str:
    """``text`` for a browser page that wraps text itself, to whatever width its text has
    at each moment: its lines as they are, at most :data:`MOST_LAID_OUT` characters of it,
    in colour; a line to be kept whole (:data:`WHOLE_LINE`: a usage line, and every line
    of text sent unwrapped, a board) still marked so, for the page to read. The page wraps
    the others, each continuation under the line's hanging indent as :func:`wrap_lines`
    puts it."""
    key = (text, wrap, language)
    found = _rendered_for_pages.get(key)
    if found is not None:
        return found
    if wrap:
        lines = _at_most_laid_out(text, language).split("\n")
    else:
        lines = [WHOLE_LINE + line for line in text.replace(WHOLE_LINE, "").split("\n")]
    found = render_colours("\n".join(lines), True)
    _rendered_for_pages.keep(key, found)
    return found


#: The connections written to in this turn of the event loop, by number (see :func:`flush_due`).
_written_now: TurnCache[int, Connection] = TurnCache()


def flush_due() -> None:
    """Send every connection what it has queued in this turn now, each in one write, rather
    than once the turn is over. Called after a burst of output that the end of a group
    commit made (the moves of a batch told, each mover answered): it saves those players
    a turn of the event loop, which lasts 10-15 ms when the server is saturated."""
    for connection in _written_now.values():
        if connection._flush_due:
            connection.flush()


class LineSplitter:
    """Splits what a client sends into lines, holding at most ``max_length`` characters
    of an unfinished line.

    :meth:`feed` yields each finished line (empty ones too), and None once for a line
    that grows past ``max_length``; the rest of that line is dropped unread. A CR at the
    end of one piece and LF (or NUL) at the start of the next end one line, not two.
    """

    def __init__(self, max_length: int) -> None:
        self.max_length = max_length
        self._partial: list[str] = []
        self._partial_length = 0
        self._too_long = False
        self._after_cr = False

    def feed(self, text: str) -> Iterator[str | None]:
        start = 1 if self._after_cr and text[:1] in ("\n", "\x00") else 0
        for end in _LINE_END.finditer(text, start):
            refused = self._keep(text[start : end.start()])
            start = end.end()
            self._after_cr = end.group() == "\r"
            if refused:
                yield None
            elif not self._too_long:
                yield "".join(self._partial)
            self._partial, self._partial_length, self._too_long = [], 0, False
        if start < len(text):
            self._after_cr = False
            if self._keep(text[start:]):
                yield None

    @property
    def holds_text(self) -> bool:
        """Whether part of a line is held (or a CR whose LF may follow)."""
        return bool(self._partial) or self._too_long or self._after_cr

    def _keep(self, piece: str) -> bool:
        """Hold ``piece`` of an unfinished line; True when that makes the line too long
        (the first time only: it is then dropped, and so is the rest of it)."""
        if self._too_long:
            return False
        self._partial_length += len(piece)
        if self._partial_length <= self.max_length:
            self._partial.append(piece)
            return False
        self._partial, self._too_long = [], True
        return True


#: Terminal types (from TTYPE) of clients known to show ANSI colour.
_COLOUR_TERMINALS = re.compile(
    r"xterm|ansi|color|screen|tmux|linux|rxvt|putty|konsole|cygwin|mudlet|tintin|mushclient|cmud|zmud|vt[3-5]\d\d",
    re.IGNORECASE,
)
_MTTS = re.compile(r"MTTS (\d+)")


def client_has_colour(writer: TelnetWriterUnicode) -> bool:
    """Whether the client's terminal type (TTYPE, or an MTTS bit field) says it has colour."""
    for key in ("ttype1", "ttype2", "ttype3", "TERM"):
        value = str(writer.get_extra_info(key) or "")
        mtts = _MTTS.match(value)
        if mtts is not None and int(mtts.group(1)) & 1:
            return True
        if _COLOUR_TERMINALS.search(value):
            return True
    return False


SecretPrompt = Callable[[str], Awaitable[None]]


class Connection(ABC):
    """A client connected, before or after logging in.

    ``player`` is set while the connection is logged in to an account. Several
    connections may share one player: all of them receive the player's output. Each kind
    of connection says how it reads lines and writes text (the abstract members).
    """

    #: What kind of client it is, for the log: "telnet", "web".
    kind: ClassVar[str]
    #: Whether the client is the browser page, which is also sent the packages it draws
    #: its lobby, rules and results from (``Lobby.List``, ``Room.Rules``, ``Room.Results``);
    #: a telnet client, GMCP or not, has the commands (``rooms``, ``help``, ``results``).
    browser_page: ClassVar[bool] = False

    def __init__(self, number: int, address: str, max_line_length: int, output_limit: int) -> None:
        self.number = number
        self.address = address
        self.max_line_length = max_line_length
        #: Bytes of output the client may leave unread before it is cut off.
        self.output_limit = output_limit
        self.connected_at = time.monotonic()
        self.logged_in_at = self.connected_at
        self.last_command_at = self.connected_at
        self.player: OnlinePlayer | None = None
        #: PennMUSH OUTPUTPREFIX / OUTPUTSUFFIX: lines that frame each command's output.
        self.output_prefix = ""
        self.output_suffix = ""
        self._in_framed_command = False
        self._held_back: list[tuple[str, bool]] = []
        self.closing = False
        #: A secret the client is being asked for (a password): the next line answers it.
        self.secret_prompt: SecretPrompt | None = None
        self._outbox: list[str] = []
        #: Whether the event loop will :meth:`flush` the outbox once this turn is over.
        self._flush_due = False
        #: The event loop the connection is served in (see :meth:`_write`).
        self._loop: asyncio.AbstractEventLoop | None = None
        #: The language the client is written to in (see :mod:`i18n`): the
        #: player's choice, else what the client prefers, else English.
        self.language = ENGLISH
        #: Whether the language was chosen before login (``@language``, the page's
        #: menu): kept for the player who logs in, rather than theirs taken.
        self.language_chosen = False

    def __repr__(self) -> str:
        who = self.player.name if self.player else "not logged in"
        return f"<Connection {self.number} {self.address} {who}>"

    @property
    @abstractmethod
    def width(self) -> int:
        """The client's window width in characters."""

    def client_language(self) -> str | None:
        """The language the client says its user reads, if the server speaks it."""
        return None

    def set_language(self, code: str) -> None:
        """Write to the client in language ``code`` from now on (the rest of the command
        running for it included)."""
        self.language = code
        if CURRENT_CONNECTION.get() is self:
            LANGUAGE.set(code)

    @property
    def idle_seconds(self) -> float:
        """Seconds since the last command other than ``IDLE``."""
        return time.monotonic() - self.last_command_at

    @property
    def online_seconds(self) -> float:
        """Seconds since this connection logged in (or connected, before login)."""
        return time.monotonic() - self.logged_in_at

    def touch(self) -> None:
        """Reset the idle time: the player did something."""
        self.last_command_at = time.monotonic()

    def send(self, text: Text, wrap: bool = True) -> None:
        """Write ``text`` (one or more lines, or a message put in the client's language)
        to the client, wrapped to its width unless ``wrap`` is False (text meant to be
        copied, such as a deck export).

        While this connection runs a command framed by OUTPUTPREFIX/OUTPUTSUFFIX, output
        caused by anyone else is held back and sent after the suffix, so a bot reading
        between the markers sees only its own command's reply.
        """
        text = in_language(text, self.language)
        if self._in_framed_command and CURRENT_CONNECTION.get() is not self:
            self._held_back.append((text, wrap))
            return
        self._write(text, wrap)

    @property
    def colour(self) -> bool:
        """Whether to send ANSI colour: the player's choice (@color), or, left on auto,
        whether the client shows colour."""
        mode = self.player.color if self.player is not None else "auto"
        if mode != "auto":
            return mode == "on"
        return self.client_has_colour

    @property
    @abstractmethod
    def client_has_colour(self) -> bool:
        """Whether the client shows ANSI colour."""

    @property
    def charset(self) -> str:
        """The character set the client's text is sent and read in."""
        return "utf-8"

    def choose_charset(self, name: str | None) -> bool:
        """Send and read the client's text in ``name`` from now on (None: as the client
        said); False if this kind of connection has no choice (a page reads UTF-8)."""
        return False

    def _write(self, text: str, wrap: bool = True, hold: bool = False) -> None:
        """Queue ``text`` for the client: everything written in one turn of the event
        loop goes out together, in one write. Text written with ``hold`` waits for the
        next text written (or the next :meth:`flush`) to go out with it."""
        if self.closing:
            return
        self._outbox.append(self._rendered(text, wrap))
        if not hold and not self._flush_due:  # checked here too: a line to each of a crowd
            self._flush_soon()

    def _rendered(self, text: str, wrap: bool) -> str:
        """``text`` as this client is sent it (see :func:`rendered`)."""
        return rendered(text, self.width if wrap else 0, self.colour, self.language)

    def _flush_soon(self) -> None:
        """Have the event loop :meth:`flush` once this turn is over, unless it will already."""
        if self._flush_due:
            return
        self._flush_due = True
        _written_now.keep(self.number, self)
        loop = self._loop
        if loop is None:
            # Looked up once: on Python 3.11 every asyncio.get_running_loop() asks the
            # kernel for the process id, a system call per line written.
            loop = self._loop = asyncio.get_running_loop()
        loop.call_soon(self.flush)

    def flush(self) -> None:
        """Write out everything queued (called by the event loop, or before hanging up)."""
        self._flush_due = False
        if not self._outbox:
            return
        lines = self._outbox
        self._outbox = []
        self._deliver(lines)

    @abstractmethod
    def _deliver(self, texts: list[str]) -> None:
        """Send the client ``texts``, each one or more lines joined by CR LF."""

    @property
    @abstractmethod
    def gmcp(self) -> bool:
        """Whether the client takes the structured views (GMCP)."""

    @abstractmethod
    def send_gmcp(self, package: str, data: object) -> None:
        """Send a structured view, if the client takes them (after any queued text)."""

    @abstractmethod
    def hide_input(self, hidden: bool) -> None:
        """Stop showing what the player types (for a password), or show it again."""

    def end_session(self) -> None:  # noqa: B027 - a hook: only some kinds keep a session
        """The player ended this session on purpose (QUIT), or logged in elsewhere: a
        client keeping a session token forgets it rather than coming back with it."""

    def session_changed(self) -> None:  # noqa: B027 - a hook: only some kinds keep a session
        """The connection was logged in or out (``player`` was just set or cleared), or a
        session could not be resumed: a client keeping a session token is told its new one."""

    @contextmanager
    def framed(self) -> Iterator[None]:
        """Surround one command's output with the prefix and suffix lines, if set."""
        framing = bool(self.output_prefix or self.output_suffix)
        if framing:
            self._in_framed_command = True
            if self.output_prefix:
                # Sent with the command's first output, not alone: a move's reply comes
                # after its commit, and the prefix on its own would cost a write.
                self._write(self.output_prefix, hold=True)
        try:
            yield
        finally:
            if framing:
                if self.output_suffix:
                    self._write(self.output_suffix)
                self._in_framed_command = False
                held, self._held_back = self._held_back, []
                for text, wrap in held:
                    self._write(text, wrap)
                self._flush_soon()

    @abstractmethod
    def lines(self) -> AsyncGenerator[str, None]:
        """Yield every line the client sends, cleaned, until it hangs up: empty lines too,
        since every line counts against the limits. A line longer than
        ``max_line_length`` is refused with a message, and an empty line stands for it."""

    @property
    @abstractmethod
    def gone(self) -> bool:
        """Whether the connection is closed or closing, by either end: nothing more it
        sent is run."""

    def _refuse_long_line(self) -> None:
        log.info("connection %d sent a line over %d characters", self.number, self.max_line_length)
        self.send(said("That line is longer than {n} characters; it was ignored.", n=self.max_line_length))

    def close(self, message: Text | None = None) -> None:
        """Say ``message`` (if any) and hang up."""
        if self.closing:
            return
        if message:
            self._write(in_language(message, self.language))
        self.flush()
        self.closing = True
        self._hang_up()

    @abstractmethod
    def _hang_up(self) -> None:
        """Close the client's connection (what was sent before goes out first)."""


class TelnetConnection(Connection):
    """A client connected over telnet."""

    kind = "telnet"

    def __init__(
        self,
        number: int,
        reader: TelnetReaderUnicode,
        writer: TelnetWriterUnicode,
        address: str,
        max_line_length: int,
        output_limit: int,
    ) -> None:
        super().__init__(number, address, max_line_length, output_limit)
        self.reader = reader
        self.writer = writer
        self._client_colour: tuple[int, bool] | None = None
        #: The last GMCP message sent of each package: its data and the message.
        self._gmcp_sent: dict[str, tuple[object, bytes]] = {}
        #: GMCP messages waiting to go out with the text: each with its place in the outbox.
        self._messages: list[tuple[int, bytes]] = []
        self._splitter = LineSplitter(max_line_length)
        #: Lines read and split but not yet taken by :meth:`lines` (None: one too long).
        self._unread: deque[str | None] = deque()
        #: Being offered to another worker (server.handoff): output waits until it is settled.
        self._output_held = False

    @property
    def width(self) -> int:
        """The client's window width (from NAWS), or 80 columns when unknown."""
        cols = self.writer.protocol.cols
        return min(MAX_WIDTH, max(MIN_WIDTH, cols)) if cols else DEFAULT_WIDTH

    def client_language(self) -> str | None:
        """The language of the client's LANG (``cs_CZ.UTF-8``), if the server speaks it."""
        told = self.writer.get_extra_info("LANG")
        return known_language(told) if isinstance(told, str) else None

    @property
    def charset(self) -> str:
        protocol = self.writer.protocol
        return protocol.output_encoding() if isinstance(protocol, MushTelnetServer) else "utf-8"

    def choose_charset(self, name: str | None) -> bool:
        protocol = self.writer.protocol
        if not isinstance(protocol, MushTelnetServer):
            return False
        # What is queued was written for the character set chosen before: it goes first.
        self.flush()
        protocol.choose_charset(name)
        return True

    @property
    def client_has_colour(self) -> bool:
        """Whether the client said it has colour (worked out again when it says more)."""
        version = getattr(self.writer.protocol, "terminal_version", 0)
        if self._client_colour is None or self._client_colour[0] != version:
            self._client_colour = (version, client_has_colour(self.writer))
        return self._client_colour[1]

    def flush(self) -> None:
        if self._output_held:
            self._flush_due = True  # flushed when the hold ends
            return
        if self._messages and not self._outbox:
            self._flush_due = False
            self._deliver([])
        else:
            super().flush()

    def _deliver(self, texts: list[str]) -> None:
        messages, self._messages = self._messages, []
        if self.writer.connection_closed:
            return
        # Text and GMCP messages in the order they were sent, in one write.
        encoding = self.writer.protocol.output_encoding()
        parts, start = [], 0
        for place, message in messages:
            if place > start:
                parts.append(_telnet_text(texts[start:place], encoding))
            parts.append(message)
            start = place
        if start < len(texts):
            parts.append(_telnet_text(texts[start:], encoding))
        self.writer.send_iac(b"".join(parts))  # as it is: the text's IAC bytes are doubled
        self._check_backlog()

    def _check_backlog(self) -> None:
        """A client that stops reading is cut off once its unread output passes the limit,
        so it can neither make the server buffer without bound nor slow anyone else."""
        unread = self.write_buffer_size()
        if unread > self.output_limit:
            log.warning("connection %d stopped reading (%d bytes unread); cutting it off", self.number, unread)
            self.closing = True
            cast("asyncio.Transport", self.writer.transport).abort()

    @property
    def gmcp(self) -> bool:
        """Whether the client asked for GMCP."""
        return not self.closing and gmcp_enabled(self.writer)

    def send_gmcp(self, package: str, data: object) -> None:
        """Send a GMCP message, if the client asked for GMCP (after any queued text), unless
        the client has that package as it is already: equal to the last one sent (views are
        built afresh each time, never changed once sent), as the web page does. A view sent
        to a whole room (the same object, in one turn of the event loop) is encoded once,
        and goes out with the turn's text, in one write."""
        if not self.gmcp:
            return
        last = self._gmcp_sent.get(package)
        if last is not None and last[0] == data:
            return
        message = gmcp_message(package, data)
        self._gmcp_sent[package] = (data, message)
        if last is not None and last[1] == message:
            return
        # Out with the text written in this turn, after what was written before it.
        self._messages.append((len(self._outbox), message))
        self._flush_soon()

    def hide_input(self, hidden: bool) -> None:
        """Turn the client's local echo off (for a password) or back on. Clients that do
        not negotiate at all (``nc``) are not sent the request."""
        protocol = self.writer.protocol
        if getattr(protocol, "negotiates", False):
            set_local_echo(self.writer, visible=not hidden)

    async def lines(self) -> AsyncGenerator[str, None]:
        """Every line the client sends (see :meth:`Connection.lines`).

        What is read is taken from the reader a chunk at a time, as it is asked for: a
        client that sends faster than its lines are run fills the reader, which then
        stops reading from it (see :class:`server.telnet.ClientTransport`).
        """
        while not self.closing:
            if not self._unread:
                chunk = await read_text(self.reader, _READ_CHUNK)
                if not chunk:
                    return
                self._unread.extend(self._splitter.feed(chunk))
                continue
            line = self._unread.popleft()
            if line is None:
                self._refuse_long_line()
                yield ""
            else:
                yield clean_text(line).strip()

    @property
    def holds_input(self) -> bool:
        """Whether anything the client sent is read but not yet run: lines not taken, or
        part of a line."""
        return bool(self._unread) or self._splitter.holds_text

    def fileno(self) -> int:
        """The client's socket."""
        return int(self.writer.get_extra_info("socket").fileno())

    def write_buffer_size(self) -> int:
        """Bytes written to the client that the kernel has not taken yet."""
        # telnetlib3's writer is made with a (read and write) transport, ours
        # (server.telnet.ClientTransport), but its property is annotated as BaseTransport.
        transport = cast("asyncio.Transport | None", self.writer.transport)
        return transport.get_write_buffer_size() if transport is not None else 0

    def let_go(self) -> None:
        """Close this process's hold on the socket without a word: another worker serves
        the client now (see :mod:`server.handoff`)."""
        self.closing = True
        self._hang_up()

    def hold_output(self, held: bool) -> None:
        """Hold what is written to the client (while the connection is offered to another
        worker), or let it go out, with what was held, in one write."""
        self._output_held = held
        if not held and self._flush_due:
            self.flush()

    @property
    def gone(self) -> bool:
        transport = self.writer.transport
        return self.closing or self.writer.connection_closed or transport is None or transport.is_closing()

    def _hang_up(self) -> None:
        self.writer.close()


def _telnet_text(texts: list[str], encoding: str) -> bytes:
    """Text as telnet sends it: each piece followed by CR LF, any IAC byte doubled; what
    the client's character set lacks written in ASCII letters (see :data:`TRANSLITERATE`)."""
    return ("\r\n".join(texts) + "\r\n").encode(encoding, TRANSLITERATE).replace(b"\xff", b"\xff\xff")
