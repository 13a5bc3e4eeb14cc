"""Signed messages between the nodes of one world.

Every message a node publishes is sealed: its payload is the HMAC-SHA256, under the
cluster's secret (``DVORAK_CLUSTER_SECRET_FILE`` or ``DVORAK_CLUSTER_SECRET``), of the
topic and the body, as 64 hexadecimal digits, followed by the body: a JSON object that
names the sender and when and in which order it sent it, beside what it says::

    <hmac-sha256(secret, topic + "\\n" + body), hex> {"node": "north", "boot": <ns>,
        "session": <n>, "n": <n>, "t": <unix time>, ...what the message says...}

A node opens what it receives only if the seal is good for that topic (so a message
cannot be moved to another topic either), and the message is neither old nor seen
before:

- ``boot`` names one run of the sender (the moment it started, in nanoseconds), ``n``
  counts the messages of that run (and ``session`` is the ``n`` at which its current
  connection to the broker began). A message of the sender's current run is taken once:
  one whose ``n`` was seen, or is too far behind the newest to tell, is refused.
- ``t`` must be within the window (``MESSAGE_WINDOW`` seconds, or three heartbeats if
  longer) of the receiver's clock: the nodes' clocks must agree that well. This bounds
  what can be replayed to a node that has never heard of the sender's run (it started
  since), and lets a retained message of a node long gone be told from a live one.
- A new run of the sender (a higher ``boot``) replaces the one before, whose messages are
  refused from then on; a run older than the current one is refused while the current
  one is alive (and, if a node restarted with its clock set back, as soon as the
  previous run has left its will or been silent for the window).
- The last will is sealed when the connection to the broker is made, and published by
  the broker whenever that connection dies, perhaps days later: it has no ``n`` and no
  window. It is taken once, and only while its run and its connection are the sender's
  newest: the will of a connection that the sender has since replaced (it reconnected,
  or restarted), once the receiver has heard from the new one, is refused. (Heard the
  other way round, the will makes the sender's players go offline for a moment, until
  the new connection announces them again.) A node's own will, from a connection it has replaced, is
  taken once too (the node answers it by announcing its players again); anything else
  of its own run that comes back to it is refused.

What this protects: nobody without the secret can say anything to the nodes, and nothing
said can be said again. What it does not: the broker and anyone who can read its traffic
see every message (use ``mqtts://`` and broker credentials, and an ACL); a node holding
the secret can say anything, as any node; and a node that has not heard of a sender's
current run accepts, once, a message of it replayed within the window.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass, field
from typing import Any

from games.base import json_text

#: Seconds a message may be away from the receiver's clock (at least).
MESSAGE_WINDOW = 30.0
#: Fewest characters a cluster secret may have.
MIN_SECRET_LENGTH = 32
#: How many of the sender's latest message numbers are remembered: a message that comes
#: later than that many newer ones is refused, as a replay would be.
REPLAY_WINDOW = 64
#: Earlier runs of each sender remembered, to refuse their messages.
PAST_RUNS = 16
_SIGNATURE = 64


class Refused(Exception):
    """A message that is not taken in; the message says why."""


def check_cluster_secret(secret: str) -> str | None:
    """Why ``secret`` cannot be the cluster's secret, or None if it can."""
    if not secret:
        return "the nodes sign their messages with a cluster secret, and none is given"
    if len(secret) < MIN_SECRET_LENGTH or len(set(secret)) < 8:
        return (
            f"the cluster secret is too easy to guess: give at least {MIN_SECRET_LENGTH} random characters "
            "(e.g. from `openssl rand -hex 32`)"
        )
    return None


@dataclass
class _Run:
    """What this node knows of another node's current run (one process start)."""

    boot: int
    #: The newest connection to the broker this run has been heard on (see ``session``).
    session: int
    #: The newest message number taken, and which of the REPLAY_WINDOW below it were
    #: taken (bit i: number ``newest - i``).
    newest: int
    taken: int
    #: When the last message of this run was taken (this node's monotonic clock).
    heard_at: float
    #: The session whose last will was taken (this run's connection died then).
    will_taken: int | None = None
    #: Earlier runs of the node, refused from now on.
    past: list[int] = field(default_factory=list)


class Envelopes:
    """Seals what this node publishes and opens what it receives (see the module's doc)."""

    def __init__(self, secret: str, node: str, window: float = MESSAGE_WINDOW) -> None:
        problem = check_cluster_secret(secret)
        if problem:
            raise ValueError(problem)
        self._key = secret.encode()
        self.node = node
        self.window = window
        #: This run of this node.
        self.boot = time.time_ns()
        self._count = 0
        self._session = 0
        #: The newest of this run's connections whose last will has come back.
        self._own_will = 0
        self._runs: dict[str, _Run] = {}

    # -- sealing -----------------------------------------------------------------------

    def new_session(self) -> None:
        """A new connection to the broker begins: later messages, and its last will, are
        numbered from here."""
        self._count += 1
        self._session = self._count

    def seal(self, topic: str, content: dict[str, Any]) -> bytes:
        """The payload that says ``content`` on ``topic``, as this node, now."""
        self._count += 1
        return self._signed(topic, {**self._envelope(), "n": self._count, **content})

    def will(self, topic: str, content: dict[str, Any]) -> bytes:
        """The payload of the last will of the current connection: ``content`` on
        ``topic``, said when the broker finds the connection dead."""
        return self._signed(topic, {**self._envelope(), "will": True, **content})

    def _envelope(self) -> dict[str, Any]:
        return {"node": self.node, "boot": self.boot, "session": self._session, "t": round(time.time(), 3)}

    def _signed(self, topic: str, body: dict[str, Any]) -> bytes:
        encoded = json_text(body).encode()
        return self._signature(topic, encoded) + encoded

    def _signature(self, topic: str, body: bytes) -> bytes:
        return hmac.new(self._key, topic.encode() + b"\n" + body, hashlib.sha256).hexdigest().encode()

    # -- opening -----------------------------------------------------------------------

    def open(self, topic: str, payload: bytes | bytearray) -> dict[str, Any]:
        """The body of a message received on ``topic``; raises :class:`Refused` if it is
        not sealed with the cluster's secret for that topic, or is stale or a replay."""
        signature, body = bytes(payload[:_SIGNATURE]), bytes(payload[_SIGNATURE:])
        if not hmac.compare_digest(signature, self._signature(topic, body)):
            raise Refused("not signed with the cluster's secret")
        try:
            message = json.loads(body)
        except ValueError:
            raise Refused("signed, but not JSON") from None
        if not (
            isinstance(message, dict)
            and isinstance(message.get("node"), str)
            and _count(message.get("boot"))
            and _count(message.get("session"))
            and type(message.get("t")) in (int, float)
        ):
            raise Refused("signed, but without the envelope's fields")
        if message["node"] == self.node and message["boot"] == self.boot:
            self._take_own(message)
        elif message.get("will") is True:
            self._take_will(message["node"], message["boot"], message["session"])
        elif _count(message.get("n")):
            self._take(message["node"], message["boot"], message["session"], message["n"], message["t"])
        else:
            raise Refused("signed, but not numbered")
        return message

    def _take(self, node: str, boot: int, session: int, number: int, sent: float) -> None:
        off = sent - time.time()
        if abs(off) > self.window:
            raise Refused(
                f"sent {abs(off):.0f} s {'ago' if off < 0 else 'from now'}, outside the {self.window:.0f} s window "
                "(a replay, a message retained long ago, or clocks that disagree)"
            )
        now = time.monotonic()
        run = self._runs.get(node)
        if run is None or boot != run.boot:
            if run is not None:
                if boot in run.past:
                    raise Refused(f"from an earlier run of node {node}")
                over = run.will_taken == run.session or now - run.heard_at > self.window
                if boot < run.boot and not over:
                    raise Refused(f"from an earlier run of node {node} than the one running")
            self._runs[node] = _Run(boot, session, number, 1, now, past=_past(run))
            return
        behind = run.newest - number
        if behind >= REPLAY_WINDOW or (behind >= 0 and run.taken >> behind & 1):
            raise Refused(f"already received (message {number} of node {node})")
        if behind < 0:
            run.taken = (run.taken << -behind | 1) & _ALL_TAKEN
            run.newest = number
        else:
            run.taken |= 1 << behind
        run.session = max(run.session, session)
        run.heard_at = now

    def _take_own(self, message: dict[str, Any]) -> None:
        """A message of this very run of this node, come back: the last will of one of
        its connections that has been replaced (once; the node then says it is here), or
        what it said before on a topic the broker retains; anything else is a replay."""
        session = message["session"]
        if message.get("will") is not True or not self._own_will < session < self._session:
            raise Refused("sent by this node itself before")
        self._own_will = session

    def _take_will(self, node: str, boot: int, session: int) -> None:
        run = self._runs.get(node)
        if run is None:
            return  # a node this one knows nothing of has gone: nothing to forget
        if boot == run.boot:
            if session < run.session:
                raise Refused(f"a last will of node {node} from a connection it has since replaced")
            if run.will_taken == session:
                raise Refused(f"already received (the last will of node {node})")
            run.will_taken = run.session = session
        elif boot > run.boot and boot not in run.past:
            # A newer run that died before this node heard from it: nothing it said
            # before its will may be taken now.
            self._runs[node] = _Run(boot, session, session, _ALL_TAKEN, time.monotonic(), session, _past(run))
        else:
            raise Refused(f"a last will of an earlier run of node {node}")


_ALL_TAKEN = (1 << REPLAY_WINDOW) - 1


def _past(run: _Run | None) -> list[int]:
    """The earlier runs to remember once ``run`` is replaced by a newer one."""
    return [*run.past[-(PAST_RUNS - 1) :], run.boot] if run is not None else []


def _count(value: Any) -> bool:
    return type(value) is int and value >= 0
