"""A scripted browser for tests: the web client's WebSocket, spoken as the page speaks it
(``{"line": ...}`` out; text, structured views, tokens and echo changes in), with the
same ``expect`` as :class:`tests.client.MudClient`."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import aiohttp

from tests.client import DEFAULT_TIMEOUT, ScriptedClient


class WebClient(ScriptedClient):
    """One page's socket. ``send`` a line, ``expect`` a pattern in the text that comes back;
    :attr:`views` holds the latest structured view of each package."""

    def __init__(self, session: aiohttp.ClientSession, socket: aiohttp.ClientWebSocketResponse) -> None:
        self._session = session
        self.socket = socket
        #: Every text message, joined by newlines.
        self.transcript = ""
        self._unread = ""
        #: The latest data of each structured view, by package, and every one in order.
        self.views: dict[str, Any] = {}
        self.view_log: list[tuple[str, Any]] = []
        #: Every session token sent (None when told to forget it), and every echo change.
        self.tokens: list[str | None] = []
        self.echoes: list[bool] = []
        #: Every WebSocket message received, as sent (one object, or an array of them).
        self.frames: list[str] = []
        #: Every object received, in order (an array's each on its own).
        self.messages: list[dict[str, Any]] = []
        self.closed = False
        self.close_code: int | None = None

    @classmethod
    async def open(
        cls,
        port: int,
        origin: str | None = None,
        host: str = "127.0.0.1",
        cols: int | str | None = None,
        batches: bool = True,
        source: str | None = None,
        page_wraps: bool = False,
    ) -> WebClient:
        """Connect as a page served by that server (or from ``origin``) would, saying how
        many ``cols`` fit across its scrollback if given, and that it reads messages sent
        together as one array (as this release's page does) unless ``batches`` is False
        (a page of release 0.2.0 or before); from the address ``source`` if given; saying
        that it wraps the text itself if ``page_wraps`` (as this release's page does)."""
        connector = aiohttp.TCPConnector(local_addr=(source, 0)) if source is not None else None
        session = aiohttp.ClientSession(connector=connector)
        query = "?" + "&".join(
            [
                *([f"cols={cols}"] if cols is not None else []),
                *(["batch=1"] if batches else []),
                *(["wrap=page"] if page_wraps else []),
            ]
        )
        try:
            socket = await session.ws_connect(
                f"http://{host}:{port}/ws{query}", origin=origin or f"http://{host}:{port}", max_msg_size=0
            )
        except BaseException:
            await session.close()
            raise
        return cls(session, socket)

    def send_json(self, message: object) -> None:
        """Send one message as given (not waiting for it to go)."""
        asyncio.get_running_loop().create_task(self.socket.send_str(json.dumps(message)))

    def send(self, line: str) -> None:
        """Send one line, as the page does when Enter is pressed."""
        self.send_json({"line": line})

    async def _receive(self, timeout: float) -> bool:
        try:
            message = await self.socket.receive(timeout)
        except TimeoutError:
            return False
        if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
            self.closed = True
            self.close_code = self.socket.close_code
            return False
        if message.type is not aiohttp.WSMsgType.TEXT:
            self.closed = True
            return False
        self.frames.append(message.data)
        sent = json.loads(message.data)
        for fields in sent if isinstance(sent, list) else [sent]:
            self._take(fields)
        return True

    def _take(self, fields: dict[str, Any]) -> None:
        self.messages.append(fields)
        if "text" in fields:
            self.transcript += fields["text"] + "\n"
            self._unread += fields["text"] + "\n"
        elif "gmcp" in fields:
            self.views[fields["gmcp"]] = fields["data"]
            self.view_log.append((fields["gmcp"], fields["data"]))
        elif "token" in fields:
            self.tokens.append(fields["token"])
        elif "echo" in fields:
            self.echoes.append(fields["echo"])

    async def view(self, package: str, test: Any = bool, timeout: float = DEFAULT_TIMEOUT) -> Any:
        """Wait until the latest ``package`` view passes ``test``; that view."""
        await self.until(
            lambda: package in self.views and test(self.views[package]),
            f"no {package} view passing the test; the last was {self.views.get(package)!r}",
            timeout,
        )
        return self.views[package]

    async def until(self, done: Callable[[], bool], failure: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Read what comes until ``done()`` (or fail with ``failure`` once the page is
        closed without it, or after ``timeout`` seconds)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not done():
            remaining = deadline - loop.time()
            if remaining <= 0 or self.closed:
                raise AssertionError(failure)
            await self._receive(remaining)

    async def close(self) -> None:
        await self.socket.close()
        await self._session.close()


async def web_log_in(client: WebClient, name: str, password: str = "secret1", create: bool = True) -> None:
    """Create (or connect to) ``name`` from the page and wait until the player is in."""
    client.send(f'{"create" if create else "connect"} "{name}" {password}')
    await client.expect(r"Players here: .*\.\n")
