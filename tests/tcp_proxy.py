"""A TCP proxy on loopback that can cut its traffic: a database that stops answering."""

from __future__ import annotations

import asyncio
import contextlib


class CuttableProxy:
    """Forwards connections from a free local port to ``target``. ``cut()`` drops every
    open connection and refuses new ones, as a stopped or unreachable server would;
    ``restore()`` lets traffic through again."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.cut_off = False
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.StreamWriter] = set()

    @property
    def port(self) -> int:
        assert self._server is not None
        return self._server.sockets[0].getsockname()[1]

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)

    async def _handle(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        if self.cut_off:
            client_writer.close()
            return
        try:
            server_reader, server_writer = await asyncio.open_connection(*self.target)
        except OSError:
            client_writer.close()
            return
        self._pipes |= {client_writer, server_writer}
        await asyncio.gather(
            self._pump(client_reader, server_writer), self._pump(server_reader, client_writer), return_exceptions=True
        )
        self._pipes -= {client_writer, server_writer}

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        finally:
            writer.close()

    def cut(self) -> None:
        self.cut_off = True
        for writer in list(self._pipes):
            with contextlib.suppress(Exception):
                writer.transport.abort()

    def restore(self) -> None:
        self.cut_off = False

    async def stop(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
