"""The server process: database, hub and telnet listener wired together, started and stopped."""

from __future__ import annotations

import asyncio
import functools
import logging
from contextlib import aclosing

import telnetlib3

from commands.dispatch import CommandProcessor
from commands.dvorak.render import announce
from persistence.accounts import AccountStore
from persistence.database import Database, DatabaseUnavailable, describe_url
from persistence.decks import DeckStore
from persistence.rooms import RoomStore
from server.accounts import AccountService, LoginThrottle
from server.config import Settings
from server.connection import Connection
from server.hub import Hub
from server.rooms import RoomRegistry

log = logging.getLogger("server")

SHUTDOWN_NOTICE = "*** The server is shutting down. Your game is saved; come back soon. ***"


class MushServer:
    """One Dvorak MUSH node: ``await start()``, then ``await stop()``."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.database = Database(settings.resolved_database_url, settings.database_timeout)
        self.hub = Hub()
        self.accounts = AccountService(
            AccountStore(self.database),
            LoginThrottle(settings.login_failure_limit, settings.login_failure_window),
        )
        self.rooms = RoomRegistry(RoomStore(self.database), announce)
        self.decks = DeckStore(self.database)
        self.processor = CommandProcessor(self.hub, self.accounts, self.rooms, self.decks)
        self._listener: asyncio.Server | None = None
        self._stopping = False
        self._sessions: set[asyncio.Task[None]] = set()
        self._running_commands = 0
        self._no_running_commands = asyncio.Event()
        self._no_running_commands.set()

    @property
    def port(self) -> int:
        """The port actually listened on (useful when started with port 0)."""
        assert self._listener is not None
        return self._listener.sockets[0].getsockname()[1]

    async def start(self) -> None:
        """Apply pending migrations, then start accepting telnet connections."""
        log.info("database %s", describe_url(self.database.url))
        await self.database.upgrade()
        protocol = functools.partial(
            telnetlib3.TelnetServer,
            shell=self._session,
            encoding="utf8",
            encoding_errors="replace",
            force_binary=True,
            line_mode=True,
            connect_maxwait=self.settings.negotiation_wait,
            timeout=0,
        )
        self._listener = await asyncio.get_running_loop().create_server(
            protocol, self.settings.host, self.settings.port
        )
        log.info("listening for telnet on %s port %d", self.settings.host, self.port)

    async def _session(self, reader: telnetlib3.TelnetReaderUnicode, writer: telnetlib3.TelnetWriterUnicode) -> None:
        """Serve one connection from greeting to hang-up."""
        if self._stopping:
            writer.close()
            return
        peer = writer.get_extra_info("peername") or ("unknown",)
        connection = Connection(
            self.hub.next_connection_number(), reader, writer, str(peer[0]), self.settings.max_line_length
        )
        task = asyncio.current_task()
        assert task is not None
        self._sessions.add(task)
        self.hub.add_connection(connection)
        log.info("connection %d from %s", connection.number, connection.address)
        try:
            self.processor.welcome(connection)
            async with aclosing(connection.lines()) as lines:
                async for line in lines:
                    if self._stopping:
                        break
                    await self._execute(connection, line)
                    if connection.closing:
                        break
        except ConnectionError:
            pass
        except Exception:
            log.exception("error serving %r", connection)
        finally:
            connection.close()
            try:
                await self.processor.disconnected(connection)
            except DatabaseUnavailable as outage:
                log.warning("could not note that %r went away: %s", connection, outage)
            except Exception:
                log.exception("error after %r disconnected", connection)
            self._sessions.discard(task)
            log.info("connection %d closed", connection.number)

    async def _execute(self, connection: Connection, line: str) -> None:
        self._running_commands += 1
        self._no_running_commands.clear()
        try:
            await self.processor.execute(connection, line)
        finally:
            self._running_commands -= 1
            if self._running_commands == 0:
                self._no_running_commands.set()

    async def stop(self, notice: str = SHUTDOWN_NOTICE) -> None:
        """Stop cleanly: refuse new connections and commands, let running commands finish
        (they commit or roll back whole), tell everyone, hang up, close the database."""
        if self._stopping:
            return
        self._stopping = True
        log.info("shutting down")
        if self._listener is not None:
            self._listener.close()
        try:
            await asyncio.wait_for(self._no_running_commands.wait(), self.settings.shutdown_grace)
        except TimeoutError:
            log.warning("%d commands still running at shutdown", self._running_commands)
        for connection in list(self.hub.connections):
            connection.close(notice)
        if self._sessions:
            await asyncio.wait(self._sessions, timeout=self.settings.shutdown_grace)
        self.accounts.close()
        await self.database.dispose()
        log.info("stopped")
