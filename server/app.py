"""The server process: database, hub, telnet listeners and the web port wired together,
started and stopped."""

from __future__ import annotations

import asyncio
import functools
import logging
import ssl
import time
from collections.abc import Callable
from contextlib import aclosing
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import telnetlib3
from prometheus_client import ProcessCollector

from commands.base import Services
from commands.dispatch import CommandProcessor
from commands.games import all_game_commands, announce, web_panels
from commands.safety import delete_due_accounts
from games import KINDS
from i18n import N_, Said, Text, said
from persistence.accounts import AccountStore
from persistence.database import Database, DatabaseFull, DatabaseUnavailable, describe_url
from persistence.moderation import ModerationStore
from persistence.rooms import RoomStore
from persistence.staff_log import StaffLog
from server.accounts import AccountService, LoginThrottle
from server.budgets import Budgets
from server.cluster import Cluster
from server.config import Settings, installed_version
from server.connection import Connection, TelnetConnection, flush_due
from server.handing_over import HandingOver
from server.handoff import Handoff
from server.housekeeping import Housekeeping
from server.hub import Hub
from server.limits import CommandRate
from server.metrics import UNWATCHED, Health, Metrics, MetricsPort, StateCollector
from server.rooms import RoomRegistry
from server.safety import PlayerSafety
from server.sessions import SessionTokens
from server.shutdown import Countdown
from server.telnet import MushTelnetServer, ParsingTurns, parse_networks
from server.web import WebFront
from server.workers import Listeners

log = logging.getLogger("server")

SHUTDOWN_NOTICE = N_("*** The server is shutting down. Your game is saved; come back soon. ***")
FLOOD_NOTICE = N_("*** You send commands far too fast, so you are disconnected. ***")
LOGIN_TIMEOUT_NOTICE = N_("*** You did not log in in time. Goodbye. ***")
#: What MUD listing crawlers are told the server is (MSSP): this release.
CODEBASE = f"dvorak-mush {installed_version()}"
#: Seconds a connection has to send its PROXY header (a balancer sends it at once).
PROXY_HEADER_WAIT = 10


class TlsConnection(TelnetConnection):
    """A client connected over telnet on the TLS port."""

    kind = "tls"


@dataclass(eq=False)
class World:
    """One node's game world without its listeners: who is online, the rooms, the
    accounts and the stores, and the command processor over them."""

    hub: Hub
    budgets: Budgets
    accounts: AccountService
    rooms: RoomRegistry
    safety: PlayerSafety
    countdown: Countdown
    session_tokens: SessionTokens
    processor: CommandProcessor


def build_world(
    settings: Settings,
    database: Database,
    time_is_up: Callable[[], None],
    metrics: Metrics = UNWATCHED,
    hashing_threads: int = 2,
) -> World:
    """The world on ``database`` as ``settings`` say, wired once for the server and the
    tests' socket-free harness alike; ``time_is_up`` is called when a shutdown's
    countdown ends."""
    hub = Hub()
    # What one player or address may make this node do (talk, writes, password hashes).
    budgets = Budgets(settings, metrics)
    accounts = AccountService(
        AccountStore(database),
        LoginThrottle(settings.login_failure_limit, settings.login_failure_window),
        hashing_threads=hashing_threads,
        time_cost=settings.argon2_time_cost,
        memory_kib=settings.argon2_memory_kib,
        accounts_per_address=settings.accounts_per_address,
        metrics=metrics,
        budgets=budgets,
    )
    rooms = RoomRegistry(
        RoomStore(database, answered=flush_due),
        announce,
        hub,
        # Every game's tables are told the server's limits; a game reads those it has.
        table_options={"card_limit": settings.max_cards_per_room},
        rooms_per_player=settings.max_rooms_per_player,
        metrics=metrics,
    )
    safety = PlayerSafety(database, timedelta(days=settings.account_delete_days))
    # A shutdown counting down (@shutdown, or SIGTERM with --shutdown-countdown).
    countdown = Countdown(hub, time_is_up)
    # Browsers log in again with these after a drop: with the cluster's secret, on any node.
    session_tokens = SessionTokens(settings.resolved_cluster_secret if settings.mqtt_url else "")
    processor = CommandProcessor(
        hub,
        accounts,
        rooms,
        Services(
            *(service for game in all_game_commands().values() for service in game.services(database, settings)),
            session_tokens,
            ModerationStore(database),
            StaffLog(database),
            safety,
            countdown,
            budgets,
        ),
        metrics=metrics,
    )
    return World(hub, budgets, accounts, rooms, safety, countdown, session_tokens, processor)


class MushServer(HandingOver):
    """One Dvorak MUSH node: ``await start()``, then ``await stop()`` (or, once stopping
    is under way by itself, after a shutdown's countdown, ``await stopped()``)."""

    processor: CommandProcessor

    def __init__(self, settings: Settings, listeners: Listeners | None = None) -> None:
        self.settings = settings
        #: The sockets to serve, bound already (a worker of ``serve --workers``), or None
        #: to bind the ports the settings give.
        self.listeners = listeners
        #: What this node counts, for Prometheus (``/metrics``).
        self.metrics = Metrics()
        self.database = Database(settings.resolved_database_url, settings.database_timeout)
        self.database.on_unavailable = lambda outage: self.metrics.database_failed(isinstance(outage, DatabaseFull))
        world = build_world(settings, self.database, self._time_is_up, self.metrics)
        self.hub = world.hub
        self.budgets = world.budgets
        self.accounts = world.accounts
        self.rooms = world.rooms
        self.safety = world.safety
        self.countdown = world.countdown
        self.session_tokens = world.session_tokens
        self.processor = world.processor
        self.health = Health(self.database.ping, self.accepting)
        self.metrics.registry.register(StateCollector(self.hub, lambda: len(self.rooms.loaded()), self.accepting))
        ProcessCollector(registry=self.metrics.registry)  # CPU, memory and open files of the process
        self.web = (
            WebFront(settings, self.hub, self.session_tokens, self._serve, self.metrics, self.health, web_panels())
            if settings.web
            else None
        )
        self.metrics_port = (
            MetricsPort(
                settings.host,
                settings.metrics_port,
                self.metrics,
                self.health,
                listeners.metrics if listeners is not None else None,
            )
            if settings.metrics_port
            else None
        )
        self.cluster: Cluster | None = None
        if settings.mqtt_url:
            self.cluster = Cluster(
                self.hub,
                self.rooms,
                settings.mqtt_url,
                settings.resolved_node_name,
                settings.mqtt_prefix,
                settings.cluster_heartbeat,
                settings.resolved_cluster_secret,
                self.processor.remote_players_gone,
                self.metrics,
            )
        self.handoff = (
            Handoff(listeners.handoff, listeners.handoff_peers)
            if listeners is not None and listeners.handoff is not None
            else None
        )
        #: Every connection's telnet commands are parsed in turns (see ParsingTurns).
        self._parsing_turns = ParsingTurns()
        #: The balancers trusted to say, in a PROXY header, whose connection it is.
        self._proxy_from = parse_networks(settings.proxy_from)
        self._listeners: list[asyncio.Server] = []
        self.housekeeping = Housekeeping(
            settings,
            self.rooms,
            self.metrics,
            lambda: delete_due_accounts(self.hub, self.rooms, self.safety),
            self.safety.delete_cooloff.total_seconds(),
            chores=[(self.processor.lobby_board.run, "lobby board")],
        )
        self._stopping = False
        self._stop_task: asyncio.Task[None] | None = None
        self._stop_begun = asyncio.Event()
        #: How many times the process was asked to stop (SIGTERM, SIGINT).
        self._terminations = 0
        self._sessions: set[asyncio.Task[None]] = set()
        self._arrivals: set[asyncio.Task[None]] = set()
        self._running_commands = 0
        self._no_running_commands = asyncio.Event()
        self._no_running_commands.set()
        self._started_at = time.time()

    @property
    def port(self) -> int:
        """The telnet port actually listened on (useful when started with port 0)."""
        return self._listeners[0].sockets[0].getsockname()[1]

    @property
    def web_port(self) -> int:
        """The web port actually listened on."""
        assert self.web is not None
        return self.web.port

    @property
    def tls_port(self) -> int:
        """The TLS port actually listened on."""
        return self._listeners[1].sockets[0].getsockname()[1]

    async def start(self) -> None:
        """Apply pending migrations, then start accepting telnet connections."""
        log.info("database %s", describe_url(self.database.url))
        await self.database.upgrade()
        await self.safety.load()
        if self.cluster is not None:
            log.info("node %s, linked to the other nodes by MQTT broker %s", self.cluster.node, self.cluster.broker)
            await self.cluster.start()
        loop = asyncio.get_running_loop()
        settings = self.settings
        bound = self.listeners
        if bound is not None:
            self._listeners.append(await loop.create_server(self._protocol(True), sock=bound.telnet))
        else:
            self._listeners.append(await loop.create_server(self._protocol(True), settings.host, settings.port))
        log.info("listening for telnet on %s port %d", settings.host, self.port)
        if settings.tls_cert and settings.tls_key:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(settings.tls_cert, settings.tls_key)
            if bound is not None and bound.tls is not None:
                tls = await loop.create_server(self._protocol(False), sock=bound.tls, ssl=context)
            else:
                tls = await loop.create_server(self._protocol(False), settings.host, settings.tls_port, ssl=context)
            self._listeners.append(tls)
            log.info("listening for telnet over TLS on %s port %d", settings.host, self.tls_port)
        if self.web is not None:
            await self.web.start(bound.web if bound is not None else None)
        if self.handoff is not None:
            self.handoff.start(self._can_take, self._arrived)
        if self.metrics_port is not None:
            await self.metrics_port.start()
        self.housekeeping.start()

    def _protocol(self, plain: bool, handed: dict[str, Any] | None = None) -> functools.partial[MushTelnetServer]:
        """The protocol for the plain telnet listener, or (not ``plain``) the TLS one; or
        for a plain telnet connection ``handed`` over by another worker (server.handoff)."""
        return functools.partial(
            MushTelnetServer,
            mssp=self._mssp,
            # A balancer passing TLS through would put its header before the handshake:
            # the PROXY protocol is spoken on the plain port only (and read once).
            proxy_from=self._proxy_from if plain and handed is None and self.settings.proxy_protocol else (),
            resume=handed["telnet"] if handed is not None else None,
            input_rate=self.settings.input_rate,
            input_burst=self.settings.input_burst,
            turns=self._parsing_turns,
            shell=functools.partial(self._session, tls=not plain, handed=handed),
            encoding="utf8",
            encoding_errors="replace",
            force_binary=True,
            line_mode=True,
            connect_maxwait=self.settings.negotiation_wait,
            timeout=0,
            # MCCP2 is offered in the clear only: compressing before encrypting leaks.
            compression=plain,
        )

    def _mssp(self) -> dict[str, str | list[str]]:
        """What MUD listing crawlers are told (MSSP)."""
        return {
            "NAME": self.settings.server_name,
            "PLAYERS": str(len(self.hub.everyone())),
            "UPTIME": str(int(self._started_at)),
            "CODEBASE": CODEBASE,
            "PORT": str(self.port),
            "GAMESYSTEM": [game.capitalize() for game in KINDS],
            "GENRE": "Card game",
            "GAMEPLAY": "Card game, Player-created content",
            "FAMILY": "Custom",
            "CHARSET": "UTF-8",
            "ANSI": "1",
            "GMCP": "1",
            "MCCP": "1",
            "UTF-8": "1",
            "LANGUAGE": "English",
        }

    def _admit(self, connection: Connection) -> Said | None:
        """Why a new connection is turned away (too many), or None to let it in."""
        if len(self.hub.connections) > self.settings.max_connections:
            return said("*** The server is full. Please try again later. ***")
        if self.hub.per_address[connection.address] > self.settings.max_connections_per_address:
            limit = self.settings.max_connections_per_address
            return said("*** Too many connections from your address (the limit is {n}). ***", n=limit)
        return None

    async def _session(
        self,
        reader: telnetlib3.TelnetReaderUnicode,
        writer: telnetlib3.TelnetWriterUnicode,
        tls: bool = False,
        handed: dict[str, Any] | None = None,
    ) -> None:
        """Serve one connection (on the TLS port: ``tls``) from greeting to hang-up, or
        from where another worker ``handed`` it over."""
        protocol = writer.protocol
        try:
            if self._stopping and handed is None:
                writer.close()
                return
            address = await self._address_of(writer) if handed is None else str(handed["address"])
            if address is None:
                writer.close()
                return
            settings = self.settings
            connection = (TlsConnection if tls else TelnetConnection)(
                self.hub.next_connection_number(),
                reader,
                writer,
                address,
                settings.max_line_length,
                settings.output_limit,
            )
            if isinstance(protocol, MushTelnetServer):
                protocol.on_gmcp = functools.partial(self.processor.gmcp_ready, connection)
            await self._serve(connection, handed)
        finally:
            if isinstance(protocol, MushTelnetServer):
                protocol.let_go()

    async def _serve(self, connection: Connection, handed: dict[str, Any] | None = None) -> None:
        """Serve one connection, telnet or web, from greeting to hang-up (or, ``handed``
        over by another worker, from where it was there). A player handed over as this
        worker stops is let in all the same, and then told and let go as everyone was."""
        if self._stopping and handed is None:
            connection.close(said(SHUTDOWN_NOTICE))
            return
        task = asyncio.current_task()
        assert task is not None
        self._sessions.add(task)
        self.hub.add_connection(connection)
        how = connection.kind if handed is None else f"{connection.kind}, handed over"
        log.info("connection %d from %s (%s)", connection.number, connection.address, how)
        refusal = self._admit(connection)
        login_deadline = asyncio.get_running_loop().call_later(
            self.settings.login_timeout, self._login_timeout, connection
        )
        try:
            if refusal is not None:
                log.info("connection %d refused: %s", connection.number, str(refusal).strip("* "))
                connection.close(refusal)
                return
            if handed is None:
                self.processor.welcome(connection)
            elif not await self.processor.come_over(connection, handed):
                return
            if self._stopping:
                connection.close(said(SHUTDOWN_NOTICE))
                return
            await self._serve_lines(connection, handed)
        except ConnectionError:
            pass
        except Exception:
            log.exception("error serving %r", connection)
        finally:
            login_deadline.cancel()
            connection.close()
            try:
                await self.processor.disconnected(connection)
            except DatabaseUnavailable as outage:
                log.warning("could not note that %r went away: %s", connection, outage)
            except Exception:
                log.exception("error after %r disconnected", connection)
            self._sessions.discard(task)
            log.info("connection %d closed", connection.number)

    async def _serve_lines(self, connection: Connection, handed: dict[str, Any] | None = None) -> None:
        """Run what the connection sends, command by command, at the command rate: every
        line counts (an empty one too), and so does every command of a pasted deck that
        arrived as one line (a connection ``handed`` over goes on at the rate it had).
        Once the connection has gone, what it sent but was not run yet is dropped."""
        settings = self.settings
        rate = CommandRate(settings.command_rate, settings.command_burst, settings.flood_seconds)
        if handed is not None and isinstance(handed.get("command_rate"), dict):
            rate.restore(handed["command_rate"])
        async with aclosing(connection.lines()) as lines:
            async for line in lines:
                for command in self.processor.commands_in(connection, line):
                    delay = rate.delay(self.processor.cost_of(connection, command))
                    if rate.flooding():
                        log.warning("connection %d from %s flooded; cut off", connection.number, connection.address)
                        connection.close(said(FLOOD_NOTICE))
                        return
                    if delay:
                        await asyncio.sleep(delay)
                    if self._stopping or connection.gone:
                        return
                    if command:
                        await self._execute(connection, command)
                if self.handoff is not None and await self._hand_over(connection, rate):
                    return

    async def _address_of(self, writer: telnetlib3.TelnetWriterUnicode) -> str | None:
        """The player's address: the connection's own, or behind a balancer speaking the
        PROXY protocol, the one its header gives (None if it sent none in time)."""
        protocol = writer.protocol
        if isinstance(protocol, MushTelnetServer) and protocol.proxied_address is not None:
            try:
                return await asyncio.wait_for(asyncio.shield(protocol.proxied_address), PROXY_HEADER_WAIT)
            except TimeoutError:
                log.warning("a connection sent no PROXY header in %d s; closed", PROXY_HEADER_WAIT)
                return None
        peer = writer.get_extra_info("peername") or ("unknown",)
        return str(peer[0])

    def _login_timeout(self, connection: Connection) -> None:
        if connection.player is None and not connection.closing:
            log.info("connection %d did not log in in time", connection.number)
            connection.close(said(LOGIN_TIMEOUT_NOTICE))

    async def _execute(self, connection: Connection, line: str) -> None:
        self._running_commands += 1
        self._no_running_commands.clear()
        try:
            await self.processor.execute(connection, line)
        finally:
            self._running_commands -= 1
            if self._running_commands == 0:
                self._no_running_commands.set()

    def accepting(self) -> bool:
        """Whether this node takes new players: not while it counts down to a shutdown,
        nor while it stops (what ``/healthz`` tells balancers)."""
        return not self._stopping and not self.countdown.running

    def terminate(self) -> None:
        """The process was asked to stop (SIGTERM, SIGINT): with ``--shutdown-countdown``,
        count down telling the players, then stop; asked again (or without a countdown),
        stop now."""
        self._terminations += 1
        seconds = self.settings.shutdown_countdown
        if self._terminations == 1 and seconds > 0:
            log.info("asked to stop: shutting down in %g s", seconds)
            self.countdown.start_here(seconds)
        else:
            log.info("asked to stop: shutting down now")
            self._begin_stop()

    def _time_is_up(self) -> None:
        """The shutdown's countdown is over."""
        self._begin_stop()

    def _begin_stop(self) -> asyncio.Task[None]:
        if self._stop_task is None:
            self._stop_task = asyncio.create_task(self._stop(), name="shutdown")
            self._stop_begun.set()
        return self._stop_task

    async def stopped(self) -> None:
        """Wait until the node has stopped, however it was asked to."""
        await self._stop_begun.wait()
        assert self._stop_task is not None
        await asyncio.shield(self._stop_task)

    async def stop(self) -> None:
        """Stop cleanly: refuse new connections and commands, let running commands finish
        (they commit or roll back whole), tell everyone, hang up, close the database.
        Stopping under way already (a countdown ran out), wait until it is done."""
        await asyncio.shield(self._begin_stop())

    async def _stop(self, notice: Text = said(SHUTDOWN_NOTICE)) -> None:
        self._stopping = True
        self.countdown.halt()
        log.info("shutting down")
        self.housekeeping.stop()
        for listener in self._listeners:
            listener.close()
        if self.web is not None:
            await self.web.stop_listening()
        try:
            await asyncio.wait_for(self._no_running_commands.wait(), self.settings.shutdown_grace)
        except TimeoutError:
            log.warning("%d commands still running at shutdown", self._running_commands)
        if self.handoff is not None:
            # Offers are refused from now on (see _can_take); those taken are let in.
            await self.handoff.settle()
            self.handoff.stop()
        for connection in list(self.hub.connections):
            connection.close(notice)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.settings.shutdown_grace
        # Until the sessions end, and those of players let in just now, who are told as they come.
        while (sessions := self._sessions | self._arrivals) and loop.time() < deadline:
            await asyncio.wait(sessions, timeout=deadline - loop.time())
        if self.web is not None:
            await self.web.relays_ended(self.settings.shutdown_grace, notice)
            await self.web.stop()
        if self.metrics_port is not None:
            await self.metrics_port.stop()
        if self.cluster is not None:
            await self.cluster.stop()
        self.accounts.close()
        await self.rooms.store.close()
        await self.database.dispose()
        log.info("stopped")
