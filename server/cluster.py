"""Several nodes, one world: what this node tells the others through an MQTT broker, and
what it makes of what they tell it.

The database stays the source of truth; MQTT only carries the news, fast. Topics, under
a prefix (``--mqtt-prefix``, ``dvorak`` by default):

``<prefix>/news/<to>/<from>``
    What happened on node ``<from>`` in the rooms that node ``<to>`` has loaded, in
    order, and nothing of other rooms: hidden cards travel in the events' deltas, and go
    nowhere they are not needed (each node announces the rooms it has loaded with its
    presence, below). ``{"news": [...]}``: as many items as the node had to tell that
    node when it sent them (one MQTT message for many keeps a busy node's news flowing:
    the receiving client reads one MQTT message per turn of the event loop, so one
    topic per receiving node, not per room). Each item is ``{"room": <id>, "before",
    "after", "events"}``: the node stored ``events``, taking the room's seq from
    ``before`` to ``after`` (``events`` is null when too big to send: read them from the
    database; empty, with ``before`` equal to ``after``, when the node has just heard
    that the receiver loaded the room: how far it goes here); or ``{"room": <id>,
    "say", "exclude", "speaker"}``: text said in the room (by account ``speaker``, null
    for staff or a notice: those who ignore the speaker are not shown it); or
    ``{"room": <id>, "closed"}``: the room was deleted or archived (the receiver checks
    the database, then sends its players there to the lobby with that text).
    Text to show players is in English; a message that each reader is shown in their
    own language also comes as ``<key>_said`` (see :func:`i18n.Said.to_wire`),
    which a node of release 0.2 or later shows instead.
``<prefix>/lobby/<from>``
    ``{"news": [{"say", "exclude", "speaker"}, ...]}``: what was said in the lobby on
    that node.
``<prefix>/node/<name>``
    For one node: ``{"tell", "account", "text", "speaker"}`` (a page: not shown if the
    player ignores the speaker), ``{"evict", "account", "place", "text"}`` (a kick),
    ``{"takeover", "account"}`` (logged in elsewhere).
``<prefix>/all/<from>``
    An announcement for every node (see :meth:`server.hub.Hub.announce`): a dict whose
    ``"kind"`` says what it is (a wall, a ban, a boot, ...) and what the rest holds.
``<prefix>/presence/<name>``
    Who is online on that node, and which rooms it has loaded. Every heartbeat the whole
    of it, retained (``{"full": true, "players": [...], "gone": [], "rooms": [...]}``); in
    between, changes (``"players"`` who came or moved, ``"gone"``: accounts that left,
    ``"loaded"`` and ``"unloaded"``: rooms). Each player is ``{"account", "name", "place",
    "since", "active", "doing", "role"}`` (``"role"`` marks staff in WHO; a node of release
    0.1 sends none). ``{"bye": true}`` when the node
    has gone, retained: its goodbye, or its last will when its connection drops (a node
    that is still alive answers its own will by announcing its players again). An empty
    payload only clears what the broker retains there (for a node found silent).

Every payload is sealed with the cluster's secret (see :mod:`server.envelopes`, which
also adds the sender's name, its run, a number and the time to each body): a message
that is not sealed for its topic, is too old, or was received before is refused whole.

A node that misses news (the broker restarted, the connection dropped, another node
had not yet heard that it loaded a room) finds out and catches up from the database:
each room's events are numbered, so a gap shows at the next event; and at every
heartbeat (broker or no broker) and every reconnection, each loaded room's number is
compared with the database's. Messages are sent at QoS 0: over a live connection they arrive in order,
and a lost one is found by those checks; acknowledgements would only add traffic and the
broker's queue limits, and would not make chat survive a broker restart either (chat is
not stored: what is said while the broker is away waits in the outbox, and is lost if
the node stops first).

What other nodes send is checked before it is used: a malformed message is refused
whole, text is cleaned as players' own input is, and news never decides what this node
writes: a room told of moves the database does not hold (seq and digest, see
:mod:`server.rooms`) is reloaded from it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import socket
import ssl
import time
from collections import deque
from collections.abc import Callable
from typing import Any, NamedTuple
from urllib.parse import unquote, urlsplit

import aiomqtt
from paho.mqtt.subscribeoptions import SubscribeOptions

from games.base import Event, json_text
from i18n import N_, Text, from_wire_fields, said, wire_fields
from persistence.accounts import ROLES
from server.envelopes import MESSAGE_WINDOW, Envelopes, Refused
from server.hub import Hub, OnlinePlayer, Peers, RemotePlayer
from server.metrics import UNWATCHED, Metrics
from server.rooms import RoomRegistry, room_id_in
from server.text import clean_text

log = logging.getLogger(__name__)

#: Events bigger than this (a whole deck loaded at once) are not sent: the others read them.
MAX_EVENTS_BYTES = 256 * 1024
#: Messages kept for the broker while it cannot be reached (older ones are dropped).
BACKLOG = 10_000
#: Most news items sent in one MQTT message.
NEWS_PER_MESSAGE = 500
#: A node not heard from for this many heartbeats is taken to be gone.
SILENT_HEARTBEATS = 3
RECONNECT_MIN, RECONNECT_MAX = 0.25, 5.0
#: Seconds a stranger (a client with no password) is given to connect to the broker and
#: be sent this node's own presence, which the broker keeps (see Cluster._check_privacy).
PRIVACY_CHECK_SECONDS = 5.0
TAKEN_OVER_NOTICE = N_("*** You have logged in from somewhere else; this connection is closed. ***")


_NODE_NAME = re.compile(r"[A-Za-z0-9_.:-]{1,64}")


def check_node_name(name: str) -> str | None:
    """Why ``name`` cannot name a node (it is part of MQTT topics), or None if it can."""
    if not _NODE_NAME.fullmatch(name):
        return f"{name!r} is not a node name: 1-64 letters, digits and _ . : -"
    return None


class Broker:
    """Where the broker is, from an ``mqtt://[user:password@]host[:port]`` URL
    (``mqtts://`` for TLS)."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
            raise ValueError(f"{url!r} is not an mqtt://host:port URL")
        self.tls = parts.scheme == "mqtts"
        self.host = parts.hostname
        self.port = parts.port or (8883 if self.tls else 1883)
        self.username = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None

    def __str__(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


class Outgoing(NamedTuple):
    """A message waiting in the outbox: sealed when it is published."""

    topic: str
    #: What it says; None for an empty payload (which only clears what the broker retains).
    content: dict[str, Any] | None
    retain: bool = False
    #: A news item: sent in one list with the items next to it for the same topic.
    news: bool = False


class Cluster(Peers):
    """This node's link to the other nodes: ``await start()``, then ``await stop()``."""

    shared = True

    def __init__(
        self,
        hub: Hub,
        rooms: RoomRegistry,
        url: str,
        node: str,
        prefix: str,
        heartbeat: float,
        secret: str,
        on_gone: Callable[[list[RemotePlayer]], Any],
        metrics: Metrics = UNWATCHED,
    ) -> None:
        self.hub = hub
        #: Where the link's state and its messages are counted.
        self.metrics = metrics
        self.rooms = rooms
        self.broker = Broker(url)
        self.node = node
        self.prefix = prefix
        self.heartbeat = heartbeat
        # A retained list is up to a heartbeat old when a node starts and reads it.
        self._envelopes = Envelopes(secret, node, window=max(MESSAGE_WINDOW, SILENT_HEARTBEATS * heartbeat))
        #: Told about players whose node has gone (died, or went without saying so).
        self._on_gone = on_gone
        self._client: aiomqtt.Client | None = None
        self._outbox: deque[Outgoing] = deque(maxlen=BACKLOG)
        self._outbox_ready = asyncio.Event()
        #: The rooms loaded here (announced with this node's presence), and each other
        #: node's, as it announced them: a room's news goes to the nodes that have it.
        self._rooms_loaded: set[int] = set()
        self._rooms_of: dict[str, set[int]] = {}
        #: Presence changes not yet sent: players (None: gone) and rooms (False: unloaded).
        self._changed: dict[int, OnlinePlayer | None] = {}
        self._rooms_changed: dict[int, bool] = {}
        self._last_heard: dict[str, float] = {}
        self._connected_at = 0.0
        self._tasks: set[asyncio.Task[Any]] = set()
        self._runner: asyncio.Task[None] | None = None
        #: Set while connected to the broker (and subscribed).
        self.connected = asyncio.Event()
        #: Whether a client without a password was found to read this world's messages
        #: (see :meth:`_check_privacy`), once it has been looked at.
        self.readable_by_anyone: bool | None = None
        self._privacy_checked = False

    # -- running -----------------------------------------------------------------------

    async def start(self) -> None:
        """Start talking to the broker (in the background: a node whose broker is down
        serves its own players and joins the others when the broker is back)."""
        self.hub.peers = self
        self._runner = asyncio.create_task(self._run(), name="cluster")

    async def stop(self) -> None:
        """Send what is queued, say goodbye (the others forget this node's players) and
        disconnect."""
        for _ in range(20):
            if not self._outbox or self._client is None:
                break
            await asyncio.sleep(0.05)
        client = self._client
        if client is not None:
            topic = self._presence_topic(self.node)
            with contextlib.suppress(aiomqtt.MqttError, TimeoutError):
                await client.publish(topic, self._envelopes.seal(topic, {"bye": True}), qos=1, retain=True, timeout=2)
        if self._runner is not None:
            # Cancelled until it ends: one cancellation can be lost while connecting (on
            # Python 3.11, asyncio.wait_for returns a result that came at the same moment
            # and drops the cancellation), and the link would go on for ever.
            while not self._runner.done():
                self._runner.cancel()
                await asyncio.wait([self._runner], timeout=0.5)
        for task in list(self._tasks):
            task.cancel()

    async def _run(self) -> None:
        delay = RECONNECT_MIN
        beat = asyncio.create_task(self._heartbeats())
        try:
            while True:
                try:
                    await self._session()
                except aiomqtt.MqttError as error:
                    if self._connected_at:
                        delay = RECONNECT_MIN  # it was up: start backing off afresh
                    log.warning("MQTT broker %s: %s; trying again in %.1f s", self.broker, error, delay)
                except Exception:
                    # Whatever went wrong, the link must not die for good: start again.
                    log.exception("the link to MQTT broker %s failed; trying again in %.1f s", self.broker, delay)
                self._connected_at = 0.0
                await asyncio.sleep(delay * random.uniform(0.8, 1.2))
                delay = min(delay * 2, RECONNECT_MAX)
        finally:
            beat.cancel()

    async def _session(self) -> None:
        """One connection to the broker, from connecting to losing it."""
        self._envelopes.new_session()
        presence = self._presence_topic(self.node)
        will = aiomqtt.Will(presence, self._envelopes.will(presence, {"bye": True}), qos=1, retain=True)
        async with aiomqtt.Client(
            self.broker.host,
            self.broker.port,
            username=self.broker.username,
            password=self.broker.password,
            identifier=f"{self.prefix}-{self.node}-{random.getrandbits(32):08x}",
            protocol=aiomqtt.ProtocolVersion.V5,
            will=will,
            keepalive=max(2, int(self.heartbeat * 2)),
            tls_context=ssl.create_default_context() if self.broker.tls else None,
            max_inflight_messages=1000,
            # Small messages, sent at once: without this, Nagle's algorithm holds each
            # one until the broker acknowledges the last (up to 40 ms on Linux).
            socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)],
        ) as client:
            client.pending_calls_threshold = BACKLOG
            not_own = SubscribeOptions(qos=0, noLocal=True)
            topics = (f"news/{self.node}/+", "lobby/+", f"node/{self.node}", "all/+", "presence/+")
            await client.subscribe([(f"{self.prefix}/{topic}", not_own) for topic in topics])
            sender = asyncio.create_task(self._send_outbox(client))
            try:
                self._client = client
                self._connected_at = time.monotonic()
                self.connected.set()
                self.metrics.mqtt_connected.set(1)
                log.info("connected to MQTT broker %s as node %s", self.broker, self.node)
                self._send_presence(full=True)
                self._spawn(self._reconcile())
                if not self._privacy_checked:
                    self._privacy_checked = True
                    self._spawn(self._check_privacy())
                async for message in client.messages:
                    self._receive(str(message.topic), message.payload, message.retain)
            finally:
                sender.cancel()
                self._client = None
                self.connected.clear()
                self.metrics.mqtt_connected.set(0)
                running = asyncio.current_task()  # this task: never None in a coroutine
                if running is not None and not running.cancelling():
                    log.warning("lost the MQTT broker %s", self.broker)

    async def _check_privacy(self) -> None:
        """Once connected, warn if a client that gives no user name or password can read
        this world's messages from the broker: they are signed, not encrypted, and carry
        players' hands and the draw pile's order. The broker keeps them private (its
        passwords and ACL: deploy/mosquitto.conf), and TLS (mqtts://) on the way; a
        broker that lets anyone in says so in the log at every start."""
        try:
            async with aiomqtt.Client(
                self.broker.host,
                self.broker.port,
                identifier=f"{self.prefix}-{self.node}-privacy-{random.getrandbits(32):08x}",
                tls_context=ssl.create_default_context() if self.broker.tls else None,
                timeout=PRIVACY_CHECK_SECONDS,
            ) as stranger:
                await stranger.subscribe(f"{self.prefix}/presence/+")
                async with asyncio.timeout(PRIVACY_CHECK_SECONDS):
                    async for _ in stranger.messages:
                        break
        except (aiomqtt.MqttError, TimeoutError):
            self.readable_by_anyone = False
            return
        self.readable_by_anyone = True
        log.warning(
            "MQTT broker %s lets a client with no password read this world's messages, players' hands "
            "included: give it passwords and an ACL (deploy/mosquitto.conf; docs/operators.md)",
            self.broker,
        )

    async def _heartbeats(self) -> None:
        """Every heartbeat: the full list of this node's players, forgetting nodes gone
        silent, and checking the loaded rooms against the database."""
        while True:
            await asyncio.sleep(self.heartbeat)
            try:
                if self._client is not None:
                    self._send_presence(full=True)
                    self._forget_silent_nodes()
                # Even with the broker away: moves stored by other nodes still show.
                await self._reconcile(patient=True)
            except Exception:
                log.exception("heartbeat failed")

    async def _reconcile(self, patient: bool = False) -> None:
        try:
            await self.rooms.reconcile(patient)
        except Exception:
            log.exception("could not check the rooms against the database")

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("cluster message failed", exc_info=task.exception())

    # -- sending -----------------------------------------------------------------------

    def _send(self, message: Outgoing) -> None:
        self._outbox.append(message)
        self._outbox_ready.set()

    async def _send_outbox(self, client: aiomqtt.Client) -> None:
        """Publish what is queued, in order, as fast as the broker takes it."""
        while True:
            await self._outbox_ready.wait()
            self._outbox_ready.clear()
            batch = self._packets(list(self._outbox))
            self._outbox.clear()
            try:
                await asyncio.gather(*(client.publish(t, p, qos=0, retain=r) for t, p, r in batch))
                self.metrics.mqtt_sent.inc(len(batch))
            except aiomqtt.MqttError as error:
                # The connection is going: the session ends, and so does this task.
                log.warning("could not publish to the MQTT broker: %s", error)
            except Exception:
                log.exception("could not publish %d messages; they are lost", len(batch))

    def _packets(self, queued: list[Outgoing]) -> list[tuple[str, bytes, bool]]:
        """The queued messages as sealed MQTT messages, in order: the news items queued
        between two other messages as one list per topic (in the order of their first
        item; each topic's items keep theirs)."""
        packets: list[tuple[str, bytes, bool]] = []
        news: dict[str, list[dict[str, Any]]] = {}

        def tell_news() -> None:
            for topic, items in news.items():
                for start in range(0, len(items), NEWS_PER_MESSAGE):
                    chunk = items[start : start + NEWS_PER_MESSAGE]
                    packets.append((topic, self._envelopes.seal(topic, {"news": chunk}), False))
            news.clear()

        for message in queued:
            if message.news and message.content is not None:  # a news item always has content
                news.setdefault(message.topic, []).append(message.content)
            else:
                tell_news()
                payload = b"" if message.content is None else self._envelopes.seal(message.topic, message.content)
                packets.append((message.topic, payload, message.retain))
        tell_news()
        return packets

    def relay(self, place_key: str, text: Text, exclude: int | None, speaker: int | None = None) -> None:
        said = {**wire_fields(text, "say"), "exclude": exclude, "speaker": speaker}
        room_id = room_id_in(place_key)
        if room_id is None:
            self._send(Outgoing(f"{self.prefix}/lobby/{self.node}", said, news=True))
        else:
            self._send_room_news(self._nodes_with(room_id), {"room": room_id, **said})

    def room_events(self, room_id: int, seq_before: int, events: list[Event]) -> None:
        nodes = self._nodes_with(room_id)
        if not nodes:
            return
        message: dict[str, Any] = {
            "room": room_id,
            "before": seq_before,
            "after": seq_before + len(events),
            "events": None,
        }
        encoded = [event.as_dict() for event in events]
        if len(json_text(encoded).encode()) <= MAX_EVENTS_BYTES:
            message["events"] = encoded
        self._send_room_news(nodes, message)

    def _nodes_with(self, room_id: int) -> list[str]:
        """The other nodes that have room ``room_id`` loaded (as they last said)."""
        return [node for node, rooms in self._rooms_of.items() if room_id in rooms]

    def _send_room_news(self, nodes: list[str], item: dict[str, Any]) -> None:
        for node in nodes:
            self._send(Outgoing(self._news_topic(node), item, news=True))

    def room_closed(self, room_id: int, text: Text) -> None:
        self._send_room_news(self._nodes_with(room_id), {"room": room_id, **wire_fields(text, "closed")})

    def tell(self, player: RemotePlayer, text: Text, speaker: int | None = None) -> None:
        message = {"tell": True, "account": player.account_id, **wire_fields(text, "text"), "speaker": speaker}
        self._send(Outgoing(self._node_topic(player.node), message))

    def evict(self, player: RemotePlayer, text: Text) -> None:
        message = {"evict": True, "account": player.account_id, "place": player.place, **wire_fields(text, "text")}
        self._send(Outgoing(self._node_topic(player.node), message))

    def to_all(self, announcement: dict[str, Any]) -> None:
        self._send(Outgoing(f"{self.prefix}/all/{self.node}", {"announcement": announcement}))

    def take_over(self, player: RemotePlayer) -> None:
        self._send(Outgoing(self._node_topic(player.node), {"takeover": True, "account": player.account_id}))

    def room_loaded(self, room_id: int) -> None:
        self._rooms_loaded.add(room_id)
        self._presence_soon()
        self._rooms_changed[room_id] = True

    def room_unloaded(self, room_id: int) -> None:
        self._rooms_loaded.discard(room_id)
        self._presence_soon()
        self._rooms_changed[room_id] = False

    def presence_changed(self, player: OnlinePlayer, online: bool) -> None:
        self._presence_soon()
        self._changed[player.account_id] = player if online else None

    def _presence_soon(self) -> None:
        """Send the presence changes of this turn of the event loop, all in one message."""
        if not self._changed and not self._rooms_changed:
            asyncio.get_running_loop().call_soon(self._send_presence_changes)

    def _send_presence_changes(self) -> None:
        changed, self._changed = self._changed, {}
        rooms, self._rooms_changed = self._rooms_changed, {}
        message = {
            "full": False,
            "players": [_presence(p) for p in changed.values() if p is not None],
            "gone": [account for account, p in changed.items() if p is None],
            "loaded": [room_id for room_id, loaded in rooms.items() if loaded],
            "unloaded": [room_id for room_id, loaded in rooms.items() if not loaded],
        }
        self._send(Outgoing(self._presence_topic(self.node), message))

    def _send_presence(self, full: bool) -> None:
        players = [_presence(p) for p in self.hub.players.values()]
        message = {"full": full, "players": players, "gone": [], "rooms": sorted(self._rooms_loaded)}
        self._send(Outgoing(self._presence_topic(self.node), message, retain=True))

    def _news_topic(self, node: str) -> str:
        """Where this node tells node ``node`` what happened in the rooms it has loaded."""
        return f"{self.prefix}/news/{node}/{self.node}"

    def _node_topic(self, node: str) -> str:
        return f"{self.prefix}/node/{node}"

    def _presence_topic(self, node: str) -> str:
        return f"{self.prefix}/presence/{node}"

    # -- receiving ---------------------------------------------------------------------

    def _receive(self, topic: str, payload: Any, retained: bool = False) -> None:
        """Act on one message from another node; one that is not sealed, stale, a replay
        or malformed is logged and ignored."""
        if not payload:
            return  # it only clears what the broker retains (see _forget_silent_nodes)
        self.metrics.mqtt_received.inc()
        if not isinstance(payload, (bytes, bytearray)):
            log.warning("refused a message on %s: not bytes", topic)
            self.metrics.mqtt_refused.inc()
            return
        try:
            message = self._envelopes.open(topic, payload)
        except Refused as refusal:
            # The broker hands every new subscription what it retains: messages this node
            # has taken already, or a node's list from long ago. Nothing to warn about.
            (log.info if retained else log.warning)("refused a message on %s: %s", topic, refusal)
            self.metrics.mqtt_refused.inc()
            return
        try:
            self._take(topic, message)
        except Exception:
            log.exception("ignored a malformed cluster message on %s", topic)
            self.metrics.mqtt_refused.inc()

    def _take(self, topic: str, message: dict[str, Any]) -> None:
        """Act on an opened message. A malformed one raises, having done nothing (a
        malformed news item is logged and skipped, the others are taken)."""
        kind, _, rest = topic.removeprefix(self.prefix + "/").partition("/")
        sender = message["node"]
        if kind == "news":
            if rest != f"{self.node}/{sender}":
                raise ValueError("not the sender's news topic for this node")
            self._heard(sender)
            self._room_news(sender, message["news"])
        elif kind == "lobby":
            if rest != sender:
                raise ValueError("not the sender's lobby topic")
            self._heard(sender)
            for item in _items(message["news"]):
                try:
                    said = _shown_text(item, "say")
                    self.hub.lobby.deliver(said, _account(item["exclude"]), _account(item.get("speaker")))
                except (KeyError, TypeError, ValueError):
                    log.exception("ignored a malformed news item from node %s", sender)
        elif kind == "node":
            self._heard(sender)
            self._for_this_node(message)
        elif kind == "all":
            if rest != sender:
                raise ValueError("not the sender's announcement topic")
            self._heard(sender)
            announcement = message["announcement"]
            if not isinstance(announcement, dict):
                raise TypeError("an announcement is a dict")
            self.hub.announced(announcement)
        elif kind == "presence":
            if rest != sender:
                raise ValueError("not the sender's presence topic")
            self._presence(sender, message)

    def _room_news(self, sender: str, news: Any) -> None:
        """Act on each news item about a room; a malformed one is logged and skipped."""
        for item in _items(news):
            try:
                room = self.rooms.loaded_room(_number(item["room"]))
                if room is None:
                    continue  # unloaded here a moment ago; it is read afresh when loaded again
                if "say" in item:
                    said = _shown_text(item, "say")
                    self._spawn(room.hear(said, _account(item["exclude"]), _account(item.get("speaker"))))
                    continue
                if "closed" in item:
                    self._spawn(self.rooms.closed_elsewhere(room.id, _shown_text(item, "closed")))
                    continue
                before, after, events = _number(item["before"]), _number(item["after"]), item["events"]
                if events is not None:
                    events = [_event(e) for e in events]
                    if after != before + len(events):
                        raise ValueError("the seq numbers do not count the events")
                elif after <= before:
                    raise ValueError("the seq numbers go backwards")
                self._spawn(room.receive(before, after, events))
            except (KeyError, TypeError, ValueError):
                log.exception("ignored a malformed news item from node %s", sender)

    def _heard(self, node: str) -> None:
        if node == self.node:
            log.error("another node calls itself %r too: give every node its own --node-name", node)
        self._last_heard[node] = time.monotonic()

    def _for_this_node(self, message: dict[str, Any]) -> None:
        player = self.hub.players.get(_number(message["account"]))
        if player is None:
            return
        if message.get("tell") is True:
            player.send_said(_shown_text(message, "text"), _account(message.get("speaker")))
        elif message.get("evict") is True:
            if player.place.key == _text(message["place"]):
                self.hub.move(player, self.hub.lobby)
                player.send(_shown_text(message, "text"))
        elif message.get("takeover") is True:
            player.taken_over = True
            for connection in list(player.connections):
                connection.end_session()
                connection.close(said(TAKEN_OVER_NOTICE))

    def _presence(self, node: str, message: dict[str, Any]) -> None:
        gone_whole = message.get("bye") is True
        if node == self.node:
            if gone_whole and self._client is not None:
                # Our own last will, from a connection that dropped a moment ago (or
                # another node of our name): we are here, say so again.
                self._send_presence(full=True)
            return
        if gone_whole:
            self._node_gone(node, "went away")
            return
        self._heard(node)
        players = [
            RemotePlayer(
                _number(p["account"]),
                _shown(p["name"]),
                node,
                _text(p["place"]),
                _moment(p["since"]),
                _moment(p["active"]),
                _shown(p["doing"]),
                _role(p.get("role", "player")),
            )
            for p in message["players"]
        ]
        gone = [_number(account) for account in message["gone"]]
        full = message["full"] is True
        had = self._rooms_of.get(node, set())
        if full:
            rooms = {_number(room_id) for room_id in message["rooms"]}
        else:
            loaded = {_number(room_id) for room_id in message["loaded"]}
            rooms = (had | loaded) - {_number(room_id) for room_id in message["unloaded"]}
        self.hub.update_remote(node, players, replace=full)
        if gone:
            self.hub.remove_remote(node, gone)
        self._rooms_of[node] = rooms
        self._tell_how_far(node, rooms - had)

    def _tell_how_far(self, node: str, room_ids: set[int]) -> None:
        """Node ``node`` has just loaded these rooms: tell it how far each goes here, so
        that it catches up at once with any move of this node it loaded too early to see
        and heard of too late to be sent."""
        for room_id in sorted(room_ids):
            room = self.rooms.loaded_room(room_id)
            if room is not None:
                self._send_room_news([node], {"room": room_id, "before": room.seq, "after": room.seq, "events": []})

    def _forget_silent_nodes(self) -> None:
        if time.monotonic() - self._connected_at < SILENT_HEARTBEATS * self.heartbeat:
            return  # just (re)connected: give the others time to speak
        deadline = time.monotonic() - SILENT_HEARTBEATS * self.heartbeat
        for node in self.hub.remote_nodes():
            if self._last_heard.get(node, 0.0) < deadline:
                self._node_gone(node, "has been silent")
                # Its retained list would make every node that starts later think its
                # players online until it, too, had waited: clear it (as its will would
                # have, had the broker been up when it died).
                self._send(Outgoing(self._presence_topic(node), None, retain=True))

    def _node_gone(self, node: str, why: str) -> None:
        gone = self.hub.remove_remote(node)
        self._last_heard.pop(node, None)
        self._rooms_of.pop(node, None)
        if gone:
            log.info("node %s %s; the %d players it had are offline", node, why, len(gone))
            self._spawn(self._on_gone(gone))


# What other nodes send is checked before it is used: a malformed message (a bug, or
# someone else publishing under the prefix) is refused whole, never half taken in.


def _items(news: Any) -> list[dict[str, Any]]:
    if not isinstance(news, list) or not all(isinstance(item, dict) for item in news):
        raise ValueError("not a list of news items")
    return news


def _number(value: Any) -> int:
    if type(value) is not int or value < 0:
        raise ValueError(f"{value!r} is not a number here")
    return value


def _account(value: Any) -> int | None:
    return None if value is None else _number(value)


def _seat(value: Any) -> int:
    """An event's actor: a seat's id, which for a computer player is negative."""
    if type(value) is not int:
        raise ValueError(f"{value!r} is not a seat here")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not text")
    return value


def _shown(value: Any) -> str:
    """Text to show players: no escape sequence or control character gets through."""
    return "\n".join(clean_text(line) for line in _text(value).split("\n"))


def _shown_text(item: dict[str, Any], key: str) -> Text:
    """Text under ``key`` (see :func:`i18n.wire_fields`), cleaned as :func:`_shown` cleans."""
    return from_wire_fields(item, key, _shown)


def _role(value: Any) -> str:
    """A player's role (nodes of release 0.1 send none: they are players to them)."""
    if value not in ROLES:
        raise ValueError(f"{value!r} is not a role")
    return str(value)


def _moment(value: Any) -> float:
    if type(value) not in (int, float):
        raise ValueError(f"{value!r} is not a time")
    return float(value)


def _event(value: Any) -> Event:
    if not isinstance(value, dict) or set(value) != {"kind", "actor", "actor_name", "data", "deltas", "forced"}:
        raise ValueError("not an event")
    if not (isinstance(value["data"], dict) and isinstance(value["deltas"], list) and type(value["forced"]) is bool):
        raise ValueError("not an event")
    return Event.from_dict(
        {
            **value,
            "kind": _text(value["kind"]),
            "actor": _seat(value["actor"]),
            "actor_name": _shown(value["actor_name"]),
        }
    )


def _presence(player: OnlinePlayer) -> dict[str, Any]:
    now = time.time()
    return {
        "account": player.account_id,
        "name": player.name,
        "place": player.place.key,
        "since": round(now - player.online_seconds, 3),
        "active": round(now - player.idle_seconds, 3),
        "doing": player.doing,
        "role": player.role,
    }
