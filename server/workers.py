"""Every core of one host: ``dvorak-mush serve --workers N`` runs N worker processes, each a
whole node of the cluster (``<node name>-w<i>``), on one telnet port, one TLS port and one
web port, sharing the world's PostgreSQL database and MQTT broker as nodes on different
hosts do.

The process started is a small supervisor (:class:`Supervisor`, no event loop of its own).
It binds the listening sockets itself (:func:`bind_listeners`), a socket per worker per
port, all with ``SO_REUSEPORT``, so that the kernel spreads the connections over them by
their addresses; then it forks the workers, each of which serves its own sockets. Binding
first, in the supervisor, means that:

- a port already taken (by anything) is refused once, clearly, before any worker starts;
- port 0 (tests) is one port for all the workers, chosen once;
- a worker that dies and is started again serves the same socket: the connections the
  kernel gave it meanwhile wait in its queue for it, and none is reset.

The supervisor passes SIGTERM and SIGINT on to every worker (each counts down, if told
to, and stops cleanly; a second signal stops them at once), starts again a worker that
dies (after 0.5 s, doubling to 30 s while it keeps dying within 10 s of starting, and
gives up, stopping the others, after five such deaths in a row), and exits with status 0
once every worker has stopped cleanly (1 otherwise). Workers die with the supervisor
(``PR_SET_PDEATHSIG``): a supervisor that is gone can neither stop nor restart them, so
its end is the end of the node, as a crash, which the cluster survives (its players
reconnect and sit down again; every move was stored before anyone was told).

This module is of the server core: what a worker runs is given to the supervisor
(``dvorak-mush serve``'s, in :mod:`server.cli`).
"""

from __future__ import annotations

import ctypes
import dataclasses
import logging
import os
import signal
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import FrameType

from server.config import Settings
from server.handoff import bind_handoff_sockets, drain, handoff_address

log = logging.getLogger("server.workers")

#: Seconds before a dead worker is started again, doubled for each quick death in a row.
RESTART_FIRST = 0.5
RESTART_MOST = 30.0
#: A worker that dies sooner than this after starting died "at once".
QUICK_DEATH = 10.0
#: Quick deaths in a row after which the supervisor gives up.
GIVE_UP_AFTER = 5
#: Most workers on one host (each takes a metrics port after the first, with --metrics-port).
MOST_WORKERS = 256
#: Connections waiting to be accepted, per socket (asyncio's default).
BACKLOG = 100
_PR_SET_PDEATHSIG = 1
#: The signals that stop a node (passed on to every worker).
STOPPING_SIGNALS = {signal.SIGTERM, signal.SIGINT}


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def clustered(settings: Settings) -> bool:
    """Whether the settings make a node of a cluster: PostgreSQL and an MQTT broker."""
    return settings.resolved_database_url.startswith("postgresql") and bool(settings.mqtt_url)


def worker_count(settings: Settings) -> int:
    """How many workers ``settings`` ask for (0: one per core for a cluster's node, else
    one). Raises ValueError saying why if they cannot have them."""
    wanted = settings.workers
    if not 0 <= wanted <= MOST_WORKERS:
        raise ValueError(f"0 (one per core) to {MOST_WORKERS}, not {wanted}")
    if wanted == 0:
        return cores() if clustered(settings) and sys.platform == "linux" else 1
    if wanted > 1 and not clustered(settings):
        raise ValueError(
            "several workers are several nodes of one world, which share a PostgreSQL database "
            "(--database-url postgresql+asyncpg://...) and an MQTT broker (--mqtt-url); without both, run one"
        )
    if wanted > 1 and sys.platform != "linux":
        raise ValueError("several workers need Linux, whose SO_REUSEPORT spreads the connections over them")
    return wanted


def worker_settings(settings: Settings, number: int) -> Settings:
    """The settings of worker ``number`` (from 1): its own node name and metrics port
    (the metrics port plus ``number`` - 1), and one worker."""
    return dataclasses.replace(
        settings,
        node_name=f"{settings.resolved_node_name}-w{number}",
        metrics_port=settings.metrics_port + number - 1 if settings.metrics_port else 0,
        workers=1,
    )


@dataclass
class Listeners:
    """The listening sockets of one worker, bound before it started."""

    telnet: socket.socket
    tls: socket.socket | None = None
    web: socket.socket | None = None
    metrics: socket.socket | None = None
    #: With several workers: this one's socket for handing players over, and every
    #: worker's address (see :mod:`server.handoff`).
    handoff: socket.socket | None = None
    handoff_peers: list[bytes] = field(default_factory=list)

    def sockets(self) -> list[socket.socket]:
        return [s for s in (self.telnet, self.tls, self.web, self.metrics, self.handoff) if s is not None]

    def close(self) -> None:
        for each in self.sockets():
            each.close()

    def close_ports(self) -> None:
        """Stop listening on the ports, so that the kernel gives their connections to the
        other workers. The handoff socket stays bound, so that its name is never free for
        another process to take (and be offered players), but takes nothing more: an
        offer to it fails at once (and the sockets of any offered already are closed)."""
        for each in self.sockets():
            if each is not self.handoff:
                each.close()
        if self.handoff is not None:
            self.handoff.shutdown(socket.SHUT_RD)
            drain(self.handoff)


def _address(host: str, port: int) -> tuple[socket.AddressFamily, tuple[str, int]]:
    """The first address ``host`` names (as asyncio binds a host name's first)."""
    family, _, _, _, address = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[
        0
    ]
    return family, (str(address[0]), int(address[1]))


def _bind(host: str, port: int, reuse_port: bool) -> socket.socket:
    family, address = _address(host, port)
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
        sock.listen(BACKLOG)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


def _shared_port(host: str, port: int, count: int, what: str) -> list[socket.socket]:
    """``count`` sockets listening on one port with SO_REUSEPORT. The port is first bound
    without it, alone: so it is refused if anyone listens there already (even another
    world's workers, who would otherwise share it), and port 0 becomes a free port."""
    try:
        probe = _bind(host, port, reuse_port=False)
    except OSError as error:
        raise OSError(f"cannot listen for {what} on {host} port {port}: {error.strerror or error}") from None
    port = probe.getsockname()[1]
    probe.close()
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            sockets.append(_bind(host, port, reuse_port=True))
    except OSError as error:
        for each in sockets:
            each.close()
        raise OSError(f"cannot listen for {what} on {host} port {port}: {error.strerror or error}") from None
    return sockets


def bind_listeners(settings: Settings, count: int) -> list[Listeners]:
    """The sockets of ``count`` workers: one each on the telnet port, the TLS port (with
    a certificate) and the web port (unless off), shared; with a metrics port, one each
    on its own (``metrics_port`` + the worker's index); with several workers (handoff
    on), one each for handing players over (see :mod:`server.handoff`)."""
    host = settings.host
    bound: list[list[socket.socket]] = []
    try:
        telnet = _shared_port(host, settings.port, count, "telnet")
        bound.append(telnet)
        tls: list[socket.socket | None] = [None] * count
        if settings.tls_cert and settings.tls_key:
            tls = list(_shared_port(host, settings.tls_port, count, "telnet over TLS"))
            bound.append([s for s in tls if s is not None])
        web: list[socket.socket | None] = [None] * count
        if settings.web:
            web = list(_shared_port(host, settings.web_port, count, "browsers"))
            bound.append([s for s in web if s is not None])
        metrics: list[socket.socket | None] = [None] * count
        if settings.metrics_port:
            for index in range(count):
                port = settings.metrics_port + index
                try:
                    metrics[index] = _bind(host, port, reuse_port=False)
                except OSError as error:
                    raise OSError(
                        f"cannot listen for worker {index + 1}'s metrics on {host} port {port}: "
                        f"{error.strerror or error}"
                    ) from None
                bound.append([s for s in metrics[index : index + 1] if s is not None])
        handoff: list[socket.socket | None] = [None] * count
        if count > 1 and settings.handoff:
            handoff = list(bind_handoff_sockets(count))
            bound.append([s for s in handoff if s is not None])
    except OSError:
        for sockets in bound:
            for each in sockets:
                each.close()
        raise
    peers = [handoff_address(os.getpid(), number) for number in range(1, count + 1)] if handoff[0] else []
    return [Listeners(telnet[i], tls[i], web[i], metrics[i], handoff[i], peers) for i in range(count)]


def die_with_parent() -> None:
    """Have the kernel kill this process when its parent (the supervisor) dies."""
    parent = os.getppid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it died before we asked
        os._exit(1)


#: What a worker runs: its settings, its sockets and its number; its exit status.
RunWorker = Callable[[Settings, Listeners, int], int]


@dataclass
class Worker:
    number: int
    settings: Settings
    listeners: Listeners
    pid: int | None = None
    started_at: float = 0.0
    quick_deaths: int = 0
    #: When to start it again (monotonic), if it is to be.
    restart_at: float | None = None
    #: The exit status it last ended with (None while it has not ended).
    status: int | None = None


@dataclass
class Supervisor:
    """Starts the workers, passes signals on, starts again those that die (see the
    module's documentation); :meth:`run` returns the exit status."""

    settings: Settings
    listeners: list[Listeners]
    run_worker: RunWorker
    workers: list[Worker] = field(default_factory=list)
    stopping: bool = False
    gave_up: bool = False

    def __post_init__(self) -> None:
        self.workers = [
            Worker(number, worker_settings(self.settings, number), listeners)
            for number, listeners in enumerate(self.listeners, start=1)
        ]

    def run(self) -> int:
        for signum in STOPPING_SIGNALS:
            signal.signal(signum, self._forward)
        port = self.listeners[0].telnet.getsockname()[1]
        log.info("supervisor (pid %d): %d workers on telnet port %d", os.getpid(), len(self.workers), port)
        for worker in self.workers:
            if not self.stopping:  # a signal while the first ones started
                self._start(worker)
        while True:
            self._reap()
            now = time.monotonic()
            for worker in self.workers:
                if worker.pid is None and worker.restart_at is not None and now >= worker.restart_at:
                    self._start(worker)
            if all(worker.pid is None and worker.restart_at is None for worker in self.workers):
                break
            time.sleep(0.05)
        for listeners in self.listeners:
            listeners.close()
        clean = not self.gave_up and all(worker.status == 0 for worker in self.workers)
        log.info("supervisor: every worker has stopped%s", "" if clean else " (not all cleanly)")
        return 0 if clean else 1

    def _forward(self, signum: int, frame: FrameType | None) -> None:
        self.stopping = True
        for worker in self.workers:
            worker.restart_at = None
            if worker.pid is not None:
                try:
                    os.kill(worker.pid, signum)
                except ProcessLookupError:
                    pass

    def _start(self, worker: Worker) -> None:
        worker.restart_at = None
        worker.status = None
        # No signal between the fork and the worker's own handlers: the supervisor's
        # would run in the child and pass the signal on to its brothers.
        signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING_SIGNALS)
        try:
            pid = os.fork()
            if pid == 0:
                self._be_worker(worker)
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING_SIGNALS)
        worker.pid, worker.started_at = pid, time.monotonic()
        log.info("worker w%d (node %s) is pid %d", worker.number, worker.settings.resolved_node_name, pid)

    def _be_worker(self, worker: Worker) -> None:
        """In the forked child: serve as ``worker``, then exit (never returns)."""
        status = 1
        try:
            for signum in STOPPING_SIGNALS:
                signal.signal(signum, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING_SIGNALS)
            # Out of the terminal's process group: Ctrl-C reaches the supervisor alone,
            # which passes it on once (two would stop the worker at once, countdown or not).
            os.setpgid(0, 0)
            die_with_parent()
            for other in self.listeners:
                if other is not worker.listeners:
                    other.close()
            status = self.run_worker(worker.settings, worker.listeners, worker.number)
        except BaseException:
            log.exception("worker w%d failed", worker.number)
        finally:
            logging.shutdown()
            os._exit(status)

    def _reap(self) -> None:
        while True:
            try:
                pid, wait_status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            worker = next((w for w in self.workers if w.pid == pid), None)
            if worker is None:
                continue
            worker.pid = None
            worker.status = status = os.waitstatus_to_exitcode(wait_status)
            how = f"exit status {status}" if status >= 0 else f"signal {signal.Signals(-status).name}"
            if status == 0:
                log.info("worker w%d (pid %d) stopped", worker.number, pid)
                if not self.stopping:
                    # Stopped for good (an administrator's @shutdown): its ports go, so
                    # that the kernel gives its connections to the others.
                    worker.listeners.close_ports()
                continue
            if self.stopping:
                log.warning("worker w%d (pid %d) ended with %s while stopping", worker.number, pid, how)
                continue
            lived = time.monotonic() - worker.started_at
            worker.quick_deaths = worker.quick_deaths + 1 if lived < QUICK_DEATH else 0
            if worker.quick_deaths >= GIVE_UP_AFTER:
                log.error(
                    "worker w%d (pid %d) ended with %s, %d times in a row within %g s of starting: giving up, "
                    "stopping the other workers",
                    worker.number,
                    pid,
                    how,
                    worker.quick_deaths,
                    QUICK_DEATH,
                )
                self.gave_up = True
                self._forward(signal.SIGTERM, None)
                continue
            delay = min(RESTART_FIRST * 2 ** max(worker.quick_deaths - 1, 0), RESTART_MOST)
            log.warning(
                "worker w%d (pid %d) ended with %s after %.1f s; starting it again in %g s",
                worker.number,
                pid,
                how,
                lived,
                delay,
            )
            worker.restart_at = time.monotonic() + delay
