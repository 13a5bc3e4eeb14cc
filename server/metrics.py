"""What a node measures, for Prometheus, and whether it is healthy, for balancers.

:class:`Metrics` holds the counters and histograms the server adds to as it works (a
command run, a move committed, an MQTT message), in a registry of its own per node;
:class:`StateCollector` reads what is best counted when asked (connections, players,
rooms loaded) from the server's own state at each scrape, so that nothing on the way of
a command keeps it up to date. Every metric is named ``dvorak_...``, and its labels take
few values: a connection's kind, a command's name (never what was typed: a line that
calls no command counts as ``huh``), a game's name, a reason.

:class:`Health` answers ``/healthz``: whether the database answers a trivial write
transaction within :data:`HEALTH_TIMEOUT` seconds and the node takes new players (it
is not counting down to a shutdown nor stopping). Both pages are served on the web port
(:func:`add_routes`) and, for a scraper that must not reach the players' port, on
``--metrics-port`` (:class:`MetricsPort`).

Lower layers know nothing of this: the database is handed an observer of its failures
(:attr:`persistence.database.Database.on_unavailable`), and the server core's parts a
:class:`Metrics` to add to.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import socket
import time
from collections import Counter as Tally
from collections.abc import Awaitable, Callable, Iterator

from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, disable_created_metrics
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import choose_encoder
from prometheus_client.registry import Collector

from games import KINDS
from server.hub import Hub

log = logging.getLogger(__name__)

# No ``..._created`` series beside each counter and histogram (when it was made): they
# double what a scrape carries and tell nothing a restart's drop in the counters does not.
disable_created_metrics()

#: Seconds, for the command and commit histograms: from half a millisecond (a command
#: that stores nothing) to ten seconds (the database's default timeout).
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: Seconds between two looks at how late the event loop runs a timer (see
#: :meth:`Metrics.watch_loop_lag`): ten a second, each a timer and a histogram sample.
LOOP_LAG_EVERY = 0.1
#: The kinds of connection, each counted even when there is none of it.
CONNECTION_KINDS = ("telnet", "tls", "web")
#: Why a login failed: no player has that name, the password was wrong, or the address
#: had failed too often and was told to wait.
LOGIN_FAILURES = ("unknown_name", "wrong_password", "throttled")
#: How the database failed: it did not answer, or it answered that its disk is full.
DATABASE_FAILURES = ("unavailable", "full")
#: The counter of a line that calls no command.
UNKNOWN_COMMAND = "huh"
#: Seconds a scrape's answer is given again as it is: Prometheus asks every 15 seconds or
#: so, but anyone who reaches the web port may ask as often as they like, and a scrape
#: costs milliseconds with thousands of connections to count.
SCRAPE_FRESH = 1.0
#: The format versions ``/metrics`` answers in (text 0.0.4; text or OpenMetrics 1.0.0),
#: whatever else a scraper's Accept header names.
FORMAT_VERSIONS = ("0.0.4", "1.0.0")
#: Seconds ``/healthz`` waits for the database before calling it down.
HEALTH_TIMEOUT = 2.0
#: Seconds a health answer is given again without asking the database again (balancers
#: ask every second or two each; anyone else may ask as often as they like).
HEALTH_FRESH = 1.0


class Metrics:
    """The counters and histograms of one node, in a registry of its own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        self.logins = Counter(
            "dvorak_logins",
            "Connections logged in to a player: with a password, as a new player, or with a browser's session token",
            registry=registry,
        )
        self.failed_logins = Counter("dvorak_failed_logins", "Logins refused, by reason", ["reason"], registry=registry)
        self.refused_over_budget = Counter(
            "dvorak_over_budget",
            "Requests refused because a player or an address was over a budget, by budget (speech, writes, "
            "saved_bytes, password_checks, hashing_queue, web_pending)",
            ["budget"],
            registry=registry,
        )
        self.commands = Counter(
            "dvorak_commands",
            'Commands run, by command ("huh": a line that calls none)',
            ["command"],
            registry=registry,
        )
        self.command_seconds = Histogram(
            "dvorak_command_seconds",
            "Seconds from a command's start to its reply, waiting for the database included",
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.commit_seconds = Histogram(
            "dvorak_commit_seconds",
            "Seconds a move waited for its transaction to commit (with the others of its group commit)",
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.loop_lag_seconds = Histogram(
            "dvorak_event_loop_lag_seconds",
            "Seconds the event loop ran a timer late, looked at ten times a second: how long anything new "
            "(a command, a reply) waits for the loop before it is taken up",
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.database_errors = Counter(
            "dvorak_database_errors",
            'Times the database failed to answer ("unavailable") or had no room left ("full")',
            ["kind"],
            registry=registry,
        )
        self.mqtt_connected = Gauge(
            "dvorak_mqtt_connected", "1 while linked to the other nodes' MQTT broker", registry=registry
        )
        self.mqtt_sent = Counter("dvorak_mqtt_messages_sent", "MQTT messages published", registry=registry)
        self.mqtt_received = Counter(
            "dvorak_mqtt_messages_received", "MQTT messages received from other nodes", registry=registry
        )
        self.mqtt_refused = Counter(
            "dvorak_mqtt_messages_refused",
            "MQTT messages refused: not sealed with the cluster's secret, stale, replayed or malformed",
            registry=registry,
        )
        self.bot_moves = Counter(
            "dvorak_bot_moves", "Moves made by computer players, by game", ["game"], registry=registry
        )
        # Every labelled series exists from the start, at 0: a rate over it is then
        # defined before the first event, and a dashboard shows every line.
        for reason in LOGIN_FAILURES:
            self.failed_logins.labels(reason)
        for kind in DATABASE_FAILURES:
            self.database_errors.labels(kind)
        for game in KINDS:
            self.bot_moves.labels(game)
        self.commands.labels(UNKNOWN_COMMAND)
        #: Each command's counter, found without prometheus_client's label lookup.
        self._command_counters: dict[str, Counter] = {}
        #: The last answer to a scrape in each format: when, and what.
        self._exposed: dict[str, tuple[float, bytes]] = {}

    def command_done(self, name: str, seconds: float) -> None:
        """Count a command run (``name``: its key, or :data:`UNKNOWN_COMMAND`) that took
        ``seconds``."""
        counter = self._command_counters.get(name)
        if counter is None:
            counter = self._command_counters[name] = self.commands.labels(name)
        counter.inc()
        self.command_seconds.observe(seconds)

    async def watch_loop_lag(self) -> None:
        """Look, every :data:`LOOP_LAG_EVERY` seconds until cancelled, at how much later
        than asked the event loop wakes a sleeping task, and count it. Everything a node
        does runs in its one event loop; when the loop has more to do than it can, every
        command waits its turn, and this is the wait (a node that keeps up lags a
        millisecond or less: the loop's timers are that coarse)."""
        loop = asyncio.get_running_loop()
        observe = self.loop_lag_seconds.observe
        while True:
            asked = loop.time() + LOOP_LAG_EVERY
            await asyncio.sleep(LOOP_LAG_EVERY)
            observe(max(0.0, loop.time() - asked))

    def over_budget(self, budget: str) -> None:
        """A request was refused: its player or address was over ``budget``."""
        self.refused_over_budget.labels(budget).inc()

    def login_failed(self, reason: str) -> None:
        """Count a refused login (``reason``: one of :data:`LOGIN_FAILURES`)."""
        self.failed_logins.labels(reason).inc()

    def database_failed(self, full: bool) -> None:
        """Count a failure of the database (``full``: it said its disk is full)."""
        self.database_errors.labels("full" if full else "unavailable").inc()

    def exposition(self, accept: str = "") -> tuple[bytes, str]:
        """Every metric, and its content type: in the format the scraper's Accept header
        asks for (OpenMetrics), or Prometheus's text format. At most
        :data:`SCRAPE_FRESH` seconds old."""
        encode, content_type = _encoder(accept)
        now = time.monotonic()
        kept = self._exposed.get(content_type)
        if kept is None or now - kept[0] >= SCRAPE_FRESH:
            kept = self._exposed[content_type] = (now, encode(self.registry))
        return kept[1], content_type


def _encoder(accept: str) -> tuple[Callable[[CollectorRegistry], bytes], str]:
    """What prometheus_client chooses for ``accept``, in one of the few formats Prometheus
    asks for (:data:`FORMAT_VERSIONS`), else the text format: it answers in any version
    the header names (a new Content-Type, so a new answer kept, for each) and raises on
    one it cannot compare ("1.x")."""
    try:
        encode, content_type = choose_encoder(accept)
    except (TypeError, ValueError):
        return choose_encoder("")
    version = re.search(r"; version=([^;]*)", content_type)
    if version is None or version.group(1) not in FORMAT_VERSIONS:
        return choose_encoder("")
    return encode, content_type


#: The metrics of parts that no node scrapes (tests that build a hub or a room registry
#: alone): counted, never shown.
UNWATCHED = Metrics()


class StateCollector(Collector):
    """What a node holds now, read at each scrape: its connections by kind, its players,
    the rooms it has loaded, its tasks, and whether it takes new players."""

    def __init__(self, hub: Hub, rooms_loaded: Callable[[], int], accepting: Callable[[], bool]) -> None:
        self.hub = hub
        self.rooms_loaded = rooms_loaded
        self.accepting = accepting

    def collect(self) -> Iterator[Metric]:
        by_kind = Tally(connection.kind for connection in self.hub.connections)
        connections = GaugeMetricFamily("dvorak_connections", "Connections open now, by kind", labels=["kind"])
        for kind in sorted({*CONNECTION_KINDS, *by_kind}):
            connections.add_metric([kind], by_kind[kind])
        yield connections
        yield GaugeMetricFamily("dvorak_players_online", "Players logged in on this node", value=len(self.hub.players))
        yield GaugeMetricFamily(
            "dvorak_players_elsewhere", "Players logged in on the other nodes", value=len(self.hub.remote)
        )
        yield GaugeMetricFamily(
            "dvorak_rooms_loaded", "Game rooms this node holds in memory", value=self.rooms_loaded()
        )
        try:
            tasks = len(asyncio.all_tasks())
        except RuntimeError:  # read outside the node's event loop (a registry under test)
            tasks = 0
        yield GaugeMetricFamily(
            "dvorak_tasks", "Tasks alive in the node's event loop (steady while nothing leaks)", value=tasks
        )
        yield GaugeMetricFamily(
            "dvorak_accepting",
            "1 while the node takes new players; 0 while it counts down to a shutdown or stops",
            value=1 if self.accepting() else 0,
        )


class Health:
    """Whether the node is fit to be sent players: its database answers ``ping`` within
    ``timeout`` seconds, and ``accepting()`` says it takes new players. Checks made while
    one is under way wait for its answer, and an answer is kept for ``fresh`` seconds,
    so that however often it is asked the database is asked at most once a second."""

    def __init__(
        self,
        ping: Callable[[], Awaitable[None]],
        accepting: Callable[[], bool],
        timeout: float = HEALTH_TIMEOUT,
        fresh: float = HEALTH_FRESH,
    ) -> None:
        self._ping = ping
        self.accepting = accepting
        self.timeout = timeout
        self.fresh = fresh
        self._probe: asyncio.Future[bool] | None = None
        self._answer: tuple[float, bool] | None = None

    async def check(self) -> tuple[bool, dict[str, object]]:
        """Whether the node is healthy, and what ``/healthz`` says about it."""
        database = await self.database_answers()
        accepting = self.accepting()
        healthy = database and accepting
        return healthy, {
            "status": "ok" if healthy else "unavailable",
            "database": "ok" if database else "down",
            "accepting": accepting,
        }

    async def database_answers(self) -> bool:
        """Whether the database answered (now, or less than ``fresh`` seconds ago)."""
        now = time.monotonic()
        if self._answer is not None and now - self._answer[0] < self.fresh:
            return self._answer[1]
        if self._probe is None or self._probe.done():
            self._probe = asyncio.ensure_future(self._ask())
        try:
            return await asyncio.wait_for(asyncio.shield(self._probe), self.timeout)
        except TimeoutError:
            log.warning("health check: the database did not answer in %.1f s", self.timeout)
            self._answer = (time.monotonic(), False)
            return False

    async def _ask(self) -> bool:
        """Ping the database, and keep the answer: kept by the probe itself, so that a
        check coming between its end and its waiters' waking finds it."""
        try:
            await self._ping()
            answered = True
        except Exception as error:
            log.warning("health check: the database did not answer: %s", str(error).split("\n", 1)[0])
            answered = False
        self._answer = (time.monotonic(), answered)
        return answered


def add_routes(app: web.Application, metrics: Metrics, health: Health) -> None:
    """Serve ``/metrics`` and ``/healthz`` from ``app``."""

    async def scrape(request: web.Request) -> web.Response:
        body, content_type = metrics.exposition(request.headers.get("Accept", ""))
        response = web.Response(body=body)
        response.headers["Content-Type"] = content_type
        return response

    async def healthz(request: web.Request) -> web.Response:
        healthy, body = await health.check()
        text = json.dumps(body, separators=(",", ":"))
        return web.Response(text=text, status=200 if healthy else 503, content_type="application/json")

    app.router.add_get("/metrics", scrape)
    app.router.add_get("/healthz", healthz)


class MetricsPort:
    """``/metrics`` and ``/healthz`` alone, on a port of their own (``--metrics-port``)."""

    def __init__(
        self, host: str, port: int, metrics: Metrics, health: Health, sock: socket.socket | None = None
    ) -> None:
        self.host = host
        self.wanted_port = port
        #: Bound already (for a worker), or None to bind ``port``.
        self.sock = sock
        app = web.Application()
        add_routes(app, metrics, health)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)

    @property
    def port(self) -> int:
        """The port actually listened on."""
        return int(self._runner.addresses[0][1])

    async def start(self) -> None:
        await self._runner.setup()
        if self.sock is not None:
            await web.SockSite(self._runner, self.sock).start()
        else:
            await web.TCPSite(self._runner, self.host, self.wanted_port).start()
        log.info("serving metrics and health checks on http://%s:%d/metrics and /healthz", self.host, self.port)

    async def stop(self) -> None:
        await self._runner.cleanup()
