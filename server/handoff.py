"""A player handed to the worker that serves their room (``serve --workers N``).

The kernel spreads a host's connections over its workers by address, knowing nothing of
rooms, so the five players of a table land on about two workers of two (four of eight),
and every move is then made, stored and rendered on one and applied and rendered again
on each other that holds the room (docs/benchmarks.md, "Every core"). Instead, each room
has one worker of the host that serves it (:meth:`Handoff.owner_of`), and a worker whose
telnet player sits down in (or watches) a room of another's passes the player's socket
to that worker, with what the connection knows of its client (its telnet options,
terminal, window, character set) and who is logged in on it: the player notices
nothing, and the table is played on one worker. A page's player is relayed instead: its
WebSocket stays with the worker that has it (a WebSocket is not served halfway through
by another process's web server), which hands over one end of a socket pair and passes
the page's messages through it, both ways, as they are (:mod:`server.web`).

Between two workers, over Unix datagram sockets the supervisor bound before starting
them (one each, in the abstract namespace; only a process of the same user is listened
to, as the kernel vouches with ``SO_PASSCRED``):

1. ``offer`` (with the socket, ``SCM_RIGHTS``): the giver has stopped reading from the
   client and (telnet) holds back what it would send it; a page's messages, relayed,
   stay in order on their own.
2. ``answer``: ``taken`` true or false. The taker has not touched the socket yet.
3. ``released``: the giver, told ``taken``, has sent the client what it held back and
   let go of the player without a word to anyone; now the taker serves the connection.
   It says how far in the room's events the player was shown: the taker's copy of the
   room catches up to there before the player is in it, so that no event is shown twice.

A giver that hears nothing within :data:`ANSWER_WAIT`, or is refused, or cannot send
``released``, goes on serving the player itself; a taker that has no ``released``
within :data:`RELEASE_WAIT` of the offer closes its copy of the socket unused. So at
any moment one worker at most reads from and writes to the client. A worker that stops
refuses offers from then on but listens until those it took are released or given up
(:meth:`Handoff.settle`): a player let go of then is let in, and told it stops as everyone
it had, rather than served by no one.
"""

from __future__ import annotations

import array
import asyncio
import itertools
import json
import logging
import os
import secrets
import socket
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

#: Seconds a giver waits for the answer before it keeps the player.
ANSWER_WAIT = 2.0
#: Seconds a taker keeps an offered socket waiting for ``released``; longer than
#: :data:`ANSWER_WAIT`, so that a giver that is still waiting is never dropped.
RELEASE_WAIT = 5.0
#: Seconds a worker that did not answer, refused, or could not be reached is not offered
#: another player: one that died (the supervisor keeps its socket for the worker started
#: again) would otherwise hold every line of its rooms' players here for ANSWER_WAIT.
RETRY_AFTER = 10.0
#: The largest message between workers (an offer is a few hundred bytes).
MESSAGE_MAX = 64 * 1024
_CREDENTIALS = struct.Struct("3i")  # struct ucred: pid, uid, gid


def handoff_address(supervisor_pid: int, number: int) -> bytes:
    """The abstract Unix address of worker ``number``'s handoff socket."""
    return f"\0dvorak-mush-{supervisor_pid}-handoff-w{number}".encode()


def bind_handoff_sockets(count: int) -> list[socket.socket]:
    """One datagram socket per worker, bound to its address (see :func:`handoff_address`)."""
    bound: list[socket.socket] = []
    try:
        for number in range(1, count + 1):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            bound.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
            sock.bind(handoff_address(os.getpid(), number))
            sock.setblocking(False)
    except OSError:
        for sock in bound:
            sock.close()
        raise
    return bound


@dataclass
class Arrival:
    """A player offered to this worker: the client's socket and what came with it."""

    sock: socket.socket
    state: dict[str, Any]


#: What a taker does with an arrival once it is released: serve it (it owns the socket).
OnArrival = Callable[[Arrival], None]
#: Whether a taker can take one more player now (not full, not stopping).
CanTake = Callable[[dict[str, Any]], bool]


def worker_serving(room_id: int, workers: int) -> int:
    """The number (from 1) of the worker of ``workers`` that serves room ``room_id``."""
    return room_id % workers + 1


class Handoff:
    """This worker's end: :meth:`offer` a player to another worker (and :meth:`release`
    them once taken), and take those offered to this one."""

    def __init__(self, sock: socket.socket, addresses: list[bytes]) -> None:
        self.sock = sock
        #: Every worker's address, by number - 1, and this worker's number (from 1).
        self.addresses = addresses
        self.number = addresses.index(sock.getsockname()) + 1
        # From a random start: a worker started again must not reuse the numbers of
        # offers its previous self left pending.
        self._numbers = itertools.count(secrets.randbits(48))
        self._warned_at = 0.0
        #: Offers made, by number, waiting for their answer.
        self._asked: dict[int, asyncio.Future[bool]] = {}
        #: Workers not to be offered anyone before the time given (monotonic).
        self._resting: dict[int, float] = {}
        #: Sockets offered here, by (giver's address, offer number), waiting for ``released``.
        self._offered: dict[tuple[bytes, int], tuple[Arrival, asyncio.TimerHandle]] = {}
        #: Set whenever one of them is released or dropped (see :meth:`settle`).
        self._settled = asyncio.Event()
        self._on_arrival: OnArrival | None = None
        self._can_take: CanTake | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def count(self) -> int:
        return len(self.addresses)

    def owner_of(self, room_id: int) -> int:
        """The number of the worker that serves room ``room_id``."""
        return worker_serving(room_id, self.count)

    def start(self, can_take: CanTake, on_arrival: OnArrival) -> None:
        self._can_take, self._on_arrival = can_take, on_arrival
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(self.sock.fileno(), self._readable)

    async def settle(self) -> None:
        """Wait until every player this worker took has been let go by the giver (then
        :data:`OnArrival` serves them) or was never released (then they were left where
        they were): at most :data:`RELEASE_WAIT`. A worker that stops calls this before
        :meth:`stop`, having refused new offers (:data:`CanTake`): otherwise a player
        the giver lets go of just then would be served by no one, and cut off without
        a word."""
        while self._offered:
            self._settled.clear()
            await self._settled.wait()

    def stop(self) -> None:
        if self._loop is not None:
            self._loop.remove_reader(self.sock.fileno())
        for future in self._asked.values():
            if not future.done():
                future.set_result(False)  # the player stays where they are
        for arrival, timer in self._offered.values():
            timer.cancel()
            arrival.sock.close()
        self._asked.clear()
        self._offered.clear()

    # -- giving -------------------------------------------------------------------------

    async def offer(self, number: int, state: dict[str, Any], fd: int) -> int | None:
        """Offer the client on ``fd`` to worker ``number``; the offer's number if it was
        taken (then :meth:`release` it), None if not (refused, no answer, or the worker
        cannot be reached; then it is not offered anyone for :data:`RETRY_AFTER`): keep
        serving it."""
        if time.monotonic() < self._resting.get(number, 0.0):
            return None
        offer = next(self._numbers)
        data = _encoded({"kind": "offer", "offer": offer, "sent": time.time(), "state": state})
        if len(data) > MESSAGE_MAX:
            self._warn("a handoff of %d bytes is too big to send; the player stays here", len(data))
            return None
        future = asyncio.get_running_loop().create_future()
        self._asked[offer] = future
        taken = False
        try:
            taken = self._send(number, data, fd) and await asyncio.wait_for(future, ANSWER_WAIT)
        except TimeoutError:
            log.warning("worker w%d did not answer a handoff in %g s; the player stays here", number, ANSWER_WAIT)
        finally:
            self._asked.pop(offer, None)
            if not taken:
                self._resting[number] = time.monotonic() + RETRY_AFTER
        return offer if taken else None

    def release(self, number: int, offer: int, seq: int) -> bool:
        """Tell worker ``number`` it now serves the client of ``offer``, who was shown the
        room's events up to ``seq`` here; False if it could not be told (then it drops the
        socket, and this worker keeps serving)."""
        return self._send(number, _encoded({"kind": "released", "offer": offer, "seq": seq}))

    def _send(self, number: int, data: bytes, fd: int | None = None) -> bool:
        rights = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [fd]))] if fd is not None else []
        try:
            self.sock.sendmsg([data], rights, 0, self.addresses[number - 1])
        except OSError as error:  # not listening (stopped), or its queue is full
            log.warning("could not reach worker w%d for a handoff: %s", number, error)
            return False
        return True

    # -- taking -------------------------------------------------------------------------

    def _readable(self) -> None:
        for _ in range(64):  # then let the others have the loop
            try:
                data, ancillary, _flags, sender = self.sock.recvmsg(
                    MESSAGE_MAX, socket.CMSG_SPACE(4 * 4) + socket.CMSG_SPACE(_CREDENTIALS.size)
                )
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:
                log.warning("handoff socket: %s", error)
                return
            fds, uid = _unpack(ancillary)
            try:
                if uid != os.getuid() or not isinstance(sender, bytes) or sender not in self.addresses:
                    self._warn("a handoff message from someone else (uid %s, %r) was dropped", uid, sender)
                    continue
                fds = self._take(sender, data, fds)
            except (ValueError, KeyError, TypeError, OSError) as error:
                self._warn("a malformed handoff message from %r was dropped: %s", sender, error)
            finally:
                for fd in fds:
                    os.close(fd)

    def _take(self, sender: bytes, data: bytes, fds: list[int]) -> list[int]:
        """Act on one message; returns the descriptors it did not keep."""
        message = json.loads(data)
        kind, offer = message["kind"], int(message["offer"])
        if kind == "answer":
            future = self._asked.get(offer)
            if future is not None and not future.done():
                future.set_result(message["taken"] is True)
        elif kind == "offer":
            state = message["state"]
            taken = (
                len(fds) == 1
                and well_formed(state)
                and time.time() - float(message["sent"]) < ANSWER_WAIT
                and self._can_take is not None
                and self._can_take(state)
            )
            if taken:
                arrival = Arrival(socket.socket(fileno=fds[0]), state)
                fds.pop()
                assert self._loop is not None
                timer = self._loop.call_later(RELEASE_WAIT, self._not_released, (sender, offer))
                self._offered[(sender, offer)] = (arrival, timer)
            self._answer(sender, offer, taken)
        elif kind == "released":
            waiting = self._offered.pop((sender, offer), None)
            if waiting is not None:
                self._settled.set()
                arrival, timer = waiting
                timer.cancel()
                arrival.state["seq"] = int(message["seq"])
                assert self._on_arrival is not None
                self._on_arrival(arrival)
        return fds

    def _answer(self, sender: bytes, offer: int, taken: bool) -> None:
        try:
            self.sock.sendto(_encoded({"kind": "answer", "offer": offer, "taken": taken}), sender)
        except OSError as error:
            log.warning("could not answer a handoff: %s", error)

    def _warn(self, message: str, *args: object) -> None:
        """Log a dropped message, at most once a minute (anyone on the host may send them)."""
        now = time.monotonic()
        if now - self._warned_at >= 60:
            self._warned_at = now
            log.warning(message, *args)

    def _not_released(self, key: tuple[bytes, int]) -> None:
        waiting = self._offered.pop(key, None)
        if waiting is not None:
            self._settled.set()
            waiting[0].sock.close()


#: What an offer's state holds, each of its type, whatever else it holds.
OFFER_FIELDS = {"address": str, "account": int, "name": str, "room": int}
#: What is handed, by the field (a dict) holding its own state: a telnet client's socket
#: itself, or one end of a socket pair relaying a page's WebSocket (:mod:`server.web`).
CONNECTION_KINDS = ("telnet", "web")


def well_formed(state: Any) -> bool:
    """Whether an offer's ``state`` has the fields every taker reads (:data:`OFFER_FIELDS`)
    and one kind of connection's (:data:`CONNECTION_KINDS`)."""
    return (
        isinstance(state, dict)
        and all(isinstance(state.get(key), kind) for key, kind in OFFER_FIELDS.items())
        and sum(isinstance(state.get(kind), dict) for kind in CONNECTION_KINDS) == 1
    )


def _encoded(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode()


def drain(sock: socket.socket) -> None:
    """Read whatever waits on a handoff socket nobody will serve, closing the sockets
    offered in it."""
    while True:
        try:
            _data, ancillary, _flags, _sender = sock.recvmsg(MESSAGE_MAX, socket.CMSG_SPACE(4 * 4))
        except OSError:  # nothing more (or never bound)
            return
        if not _data and not ancillary:
            return
        for fd in _unpack(ancillary)[0]:
            os.close(fd)


def _unpack(ancillary: list[tuple[int, int, bytes]]) -> tuple[list[int], int | None]:
    """The descriptors and the sender's uid in a message's ancillary data."""
    fds: list[int] = []
    uid = None
    for level, kind, data in ancillary:
        if level != socket.SOL_SOCKET:
            continue
        if kind == socket.SCM_RIGHTS:
            usable = len(data) - len(data) % 4
            fds.extend(array.array("i", data[:usable]))
        elif kind == socket.SCM_CREDENTIALS and len(data) >= _CREDENTIALS.size:
            uid = _CREDENTIALS.unpack(data[: _CREDENTIALS.size])[1]
    return fds, uid
