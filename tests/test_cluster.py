"""Several nodes, one world: nodes sharing one PostgreSQL database and one MQTT broker,
driven by players over real connections to different nodes.

These tests need PostgreSQL and an MQTT broker (``DVORAK_TEST_MQTT_URL``, default
``mqtt://127.0.0.1:1883``); without them they are skipped, except under ``CI=true``,
where they fail. Tests that stop the broker start a private Mosquitto of their own.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import socket
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import aiomqtt
import pytest

from games.dvorak.invariants import differences
from games.dvorak.rules import Table
from persistence.database import Database
from persistence.rooms import RoomStore
from server.app import MushServer
from server.audit import check_rooms
from server.cluster import Broker, Cluster
from server.hub import Hub, RemotePlayer
from tests.client import MudClient
from tests.conftest import IN_CI, WELCOME_END, log_in, postgres_database, server_settings
from tests.players import ScriptedPlayer, flat, loosely
from tests.server_process import ROOT, ServerProcess, free_port
from tests.test_cli import run

MQTT_URL = os.environ.get("DVORAK_TEST_MQTT_URL", "mqtt://127.0.0.1:1883")
HEARTBEAT = 0.5


def _reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except OSError:
        return False


@pytest.fixture(scope="session")
def broker_url() -> str:
    """The shared broker's URL; skipped (failed in CI) when nothing listens there."""
    broker = Broker(MQTT_URL)
    if not _reachable(broker.host, broker.port):
        if IN_CI:
            pytest.fail(f"an MQTT broker at {MQTT_URL} is required in CI")
        pytest.skip(f"no MQTT broker at {MQTT_URL}")
    return MQTT_URL


@pytest.fixture
async def cluster_database(request: pytest.FixtureRequest) -> AsyncIterator[str]:
    """An empty PostgreSQL database for the nodes to share."""
    if not request.getfixturevalue("postgres_available"):
        pytest.skip("PostgreSQL is not reachable")
    async with postgres_database() as url:
        yield url


StartNode = Callable[..., Awaitable[MushServer]]


@pytest.fixture
def prefix() -> str:
    """A topic prefix of this test's own, so that tests never hear each other."""
    return f"dvorak-test-{uuid.uuid4().hex[:8]}"


@pytest.fixture
async def start_node(cluster_database: str, broker_url: str, prefix: str, tmp_path) -> AsyncIterator[StartNode]:
    """Start nodes on the shared database and broker (in this process); ``connected``
    waits until the node has joined the others. All are stopped at the end."""
    started: list[MushServer] = []

    async def start(name: str, url: str = broker_url, connected: bool = True, **overrides: object) -> MushServer:
        overrides = {"mqtt_prefix": prefix, "cluster_heartbeat": HEARTBEAT, **overrides}
        node = MushServer(server_settings(cluster_database, tmp_path, mqtt_url=url, node_name=name, **overrides))
        await node.start()
        started.append(node)
        if connected:
            assert node.cluster is not None
            await asyncio.wait_for(node.cluster.connected.wait(), 10)
        return node

    yield start
    for node in started:
        await node.stop()


async def player(node: MushServer, name: str, create: bool = True) -> ScriptedPlayer:
    return await ScriptedPlayer.connect(node.port, name, create=create)


async def eventually(who: ScriptedPlayer, command: str, wanted: str, timeout: float = 10.0) -> str:
    """Ask ``command`` until its reply contains ``wanted`` (news between nodes takes a moment)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        reply = flat(await who.ask(command))
        if wanted in reply:
            return reply
        if loop.time() > deadline:
            raise AssertionError(f"{command!r} never said {wanted!r}; last reply: {reply}")
        await asyncio.sleep(0.1)


async def spectator(node: MushServer, name: str, room: str) -> MudClient:
    """A plain client watching ``room``, reading nothing until the test looks."""
    client = await MudClient.open(node.port)
    await client.expect(WELCOME_END)
    await log_in(client, name)
    await client.command(f"watch {room}", rf"Watching: .*\b{name}\b")
    return client


async def load_deck(host: ScriptedPlayer, size: int) -> None:
    for i in range(size):
        await host.ask(f"loadcard Card{i:02d}/{'A' if i % 2 else 'T'}/Text of card {i:02d}.")


async def two_at_a_table(host: ScriptedPlayer, guest: ScriptedPlayer, room: str, deck: int) -> None:
    """``host`` makes ``room`` with turns off and a deck of ``deck`` cards; ``guest``
    (on another node) sits down."""
    await host.ask(f"newroom {room}")
    await host.ask("set turns=off")
    await load_deck(host, deck)
    assert "Seats, in turn order" in await guest.ask(f"join {room}")


async def same_everywhere(nodes: list[MushServer], room_name: str, timeout: float = 10.0) -> None:
    """Wait until every node's copy of the room is the database's, field for field; and
    check the stored room is sound."""
    database = Database(nodes[0].settings.database_url)
    try:
        store = RoomStore(database)
        room_id = await store.find_id(room_name)
        assert room_id is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            stored = await store.load(room_id)
            assert stored is not None
            copies = [await node.rooms.get(room_id) for node in nodes]
            apart = {
                node.settings.node_name: differences(room.table.state, Table(stored.state).state)
                for node, room in zip(nodes, copies, strict=True)
                if room.seq != stored.seq or differences(room.table.state, Table(stored.state).state)
            }
            if not apart:
                break
            if loop.time() > deadline:
                raise AssertionError(f"nodes differ from the database (seq {stored.seq}): {apart}")
            await asyncio.sleep(0.1)
        assert all(report.sound for report in await check_rooms(database)), await check_rooms(database)
    finally:
        await database.dispose()


# -- one world ----------------------------------------------------------------------------


async def test_who_page_rooms_and_lobby_chat_reach_every_node(start_node):
    north, south = await start_node("north"), await start_node("south")
    ann, ben = await player(north, "Ann"), await player(south, "Ben")

    who = await eventually(ann, "WHO", "Ben")
    assert "Ann" in who and "2 players connected" in who
    await eventually(ben, "WHO", "Ann")

    assert "You paged Ben" in flat(await ann.ask("page Ben=Are you on the other node?"))
    await ben.client.expect(loosely("Ann pages: Are you on the other node?"))
    await ann.ask("newroom Den")
    assert re.search(r"Den +Dvorak +waiting", await eventually(ben, "rooms", "Den"))
    await ann.ask("leave")
    await ben.ask("say Hello from the south.")
    await ann.client.expect(loosely('Ben says, "Hello from the south."'))
    await ben.ask("@doing Dealing cards")
    await eventually(ann, "WHO", "Dealing cards")

    await ben.close()
    await eventually(ann, "WHO", "1 player connected")
    assert "Ben" not in await ann.ask("WHO")


async def test_three_nodes_play_a_whole_game_with_new_cards_and_every_spectator_sees_the_same(start_node):
    nodes = [await start_node(name) for name in ("north", "south", "east")]
    ann = await player(nodes[0], "Ann")
    await ann.ask("newroom Table")
    await ann.ask("set vote=majority")
    await load_deck(ann, 24)
    watchers = [await spectator(node, f"Watcher{i}", "Table") for i, node in enumerate(nodes)]
    for watcher in watchers:
        await watcher.quiet(0.5)
    before = [len(watcher.transcript) for watcher in watchers]
    ben, cara = await player(nodes[1], "Ben"), await player(nodes[2], "Cara")
    assert "Seats, in turn order" in await ben.ask("join Table")
    assert "Seats, in turn order" in await cara.ask("join Table")
    by_name = {p.name: p for p in (ann, ben, cara)}

    started = flat(await ann.ask("start"))
    current = re.search(r"(\w+) goe?s? first", started).group(1).replace("You", "Ann")
    proposal = flat(await ben.ask("newcard Armageddon/A/Destroy all Things."))
    number = re.search(r"#(\d+) Armageddon", proposal).group(1)
    await eventually(cara, "viewvote", "Armageddon")
    await cara.ask(f"approve {number}")
    await ann.client.expect(loosely(f"The vote on #{number} Armageddon (Action) is decided: accepted."))
    for _ in range(9):
        replies = await by_name[current].play_turn()
        current = re.search(r"It is now (\w+)'s turn", flat(replies[-1])).group(1)
    await ann.ask("win Cara")
    for watcher in watchers:
        await watcher.expect(r"\*\*\* Cara wins! \*\*\*")
        await watcher.quiet(0.5)

    # Every spectator saw every move, in the same order. (Comings and goings are not
    # moves: a node that read a move from the database before an arrival reached it
    # shows the two the other way round.)
    seen = [w.transcript[start:].splitlines() for w, start in zip(watchers, before, strict=True)]
    moves = [[line for line in lines if not line.endswith((" arrives.", " arrives to watch."))] for lines in seen]
    assert moves[0] == moves[1] == moves[2]
    assert all(lines.count("Ben arrives.") == lines.count("Cara arrives.") == 1 for lines in seen)
    told = flat(" ".join(moves[0]))
    assert "Armageddon" in told and told.count("ends the turn.") == 9 and told.count("plays #") >= 9
    await same_everywhere(nodes, "Table")


async def test_moves_made_at_once_on_two_nodes_are_all_kept(start_node):
    north, south = await start_node("north"), await start_node("south")
    ann, ben = await player(north, "Ann"), await player(south, "Ben")
    await two_at_a_table(ann, ben, "Rush", 60)
    await ann.ask("start")

    async def draw(who: ScriptedPlayer, times: int) -> list[str]:
        return [flat(await who.ask("draw")) for _ in range(times)]

    ann_draws, ben_draws = await asyncio.gather(draw(ann, 20), draw(ben, 20))
    refused = [reply for reply in ann_draws + ben_draws if "You draw #" not in reply]
    assert not refused
    assert len(await ann.hand()) == 25 and len(await ben.hand()) == 25
    await same_everywhere([north, south], "Rush")
    for who in (ann, ben):
        _, counts = await who.table()
        assert counts == {"Ann": 25, "Ben": 25}
    assert "10 cards" in flat(await ben.ask("countdraw"))


async def test_a_host_kicks_a_spectator_on_another_node(start_node):
    north, south = await start_node("north"), await start_node("south")
    ann, ben = await player(north, "Ann"), await player(south, "Ben")
    await ann.ask("newroom Den")
    assert "Watching: Ben" in flat(await ben.ask("watch Den"))
    await eventually(ann, "look", "Ben")
    await ann.ask("kick Ben")
    await ben.client.expect(loosely("You have been removed from room Den by Ann. You are in the lobby."))
    assert "Lobby" in await ben.ask("look")
    await eventually(ann, "rooms", "Den Dvorak waiting 0")


async def test_logging_in_on_another_node_takes_the_player_over_there(start_node):
    north, south = await start_node("north"), await start_node("south")
    ann = await player(north, "Ann")
    await ann.ask("newroom Den")
    watcher = await spectator(north, "Watcher", "Den")
    await eventually(await player(south, "Ben"), "WHO", "Ann")

    again = await player(south, "Ann", create=False)
    await ann.client.expect(r"You have logged in from somewhere else; this connection is closed")
    await ann.client.wait_closed()
    assert "Den" in flat(await again.ask("look"))
    who = await eventually(again, "WHO", "2 players connected")
    assert who.count("Ann") == 1
    said = await watcher.quiet(1.0)
    assert "Ann has disconnected" not in said


# -- nodes and the broker going away --------------------------------------------------------


async def test_a_killed_node_s_players_sit_down_again_on_another_node(start_node, cluster_database, prefix, tmp_path):
    doomed = ServerProcess(cluster_database, tmp_path)
    doomed.env.update(
        DVORAK_MQTT_URL=MQTT_URL,
        DVORAK_NODE_NAME="doomed",
        DVORAK_MQTT_PREFIX=prefix,
        DVORAK_CLUSTER_HEARTBEAT=str(HEARTBEAT),
    )
    await doomed.start()
    survivor = await start_node("survivor")
    try:
        ann, ben = await player(doomed, "Ann"), await player(survivor, "Ben")
        await two_at_a_table(ann, ben, "Den", 20)
        await ann.ask("start")
        drawn = re.search(r"You draw #(\d+)", flat(await ann.ask("draw"))).group(1)
        await ben.client.expect(loosely("Ann draws a card."))

        assert await doomed.stop(signal.SIGKILL) == -signal.SIGKILL
        await ben.client.expect(loosely("Ann has disconnected; the seat is kept."))
        await eventually(ben, "WHO", "1 player connected")

        ann = await player(survivor, "Ann", create=False)
        assert "You are back at your seat in room Den" in flat(ann.client.transcript)
        await ben.client.expect(loosely("Ann is back."))
        held = [card.number for card in await ann.hand()]
        assert int(drawn) in held and len(held) == 6
        assert "You play" in flat(await ann.ask(f"play {held[0]}"))
        await ben.client.expect(loosely(f"Ann plays #{held[0]}"))
        await same_everywhere([survivor], "Den")
    finally:
        if doomed.process is not None and doomed.process.returncode is None:
            await doomed.stop(signal.SIGKILL)


class PrivateBroker:
    """A Mosquitto of the test's own (as deploy/mosquitto.conf has it), on a free
    loopback port, that the test can stop."""

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.url = f"mqtt://127.0.0.1:{self.port}"
        self.config = directory / "mosquitto.conf"
        recommended = (ROOT / "deploy" / "mosquitto.conf").read_text()
        self.config.write_text(recommended.replace("listener 1883 ", f"listener {self.port} "))
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        program = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        self.process = await asyncio.create_subprocess_exec(
            program, "-c", str(self.config), stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
        )
        for _ in range(100):
            if _reachable("127.0.0.1", self.port):
                return
            await asyncio.sleep(0.05)
        raise AssertionError("the private Mosquitto did not start")

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()


@pytest.fixture
async def private_broker(broker_url, tmp_path) -> AsyncIterator[PrivateBroker]:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        if IN_CI:
            pytest.fail("Mosquitto is required in CI")
        pytest.skip("Mosquitto is not installed")
    broker = PrivateBroker(tmp_path)
    yield broker
    await broker.stop()


async def test_play_goes_on_through_a_broker_restart_and_every_node_catches_up(start_node, private_broker):
    await private_broker.start()
    north = await start_node("north", url=private_broker.url)
    south = await start_node("south", url=private_broker.url)
    ann, ben = await player(north, "Ann"), await player(south, "Ben")
    await two_at_a_table(ann, ben, "Den", 30)
    watchers = [await spectator(north, "Nia", "Den"), await spectator(south, "Sol", "Den")]
    await ann.ask("start")
    await ann.ask("draw")
    for watcher in watchers:
        await watcher.expect(loosely("Ann draws a card."))

    await private_broker.stop()
    for node in (north, south):
        while node.cluster.connected.is_set():
            await asyncio.sleep(0.05)
    # Each node goes on serving its own players; the database orders their moves.
    for _ in range(3):
        assert "You draw #" in flat(await ann.ask("draw"))
        assert "You draw #" in flat(await ben.ask("draw"))
    # Still without a broker, the heartbeats' check with the database shows each node
    # the other's moves, even when no move of its own reveals them.
    assert "You draw #" in flat(await ann.ask("draw"))
    for _ in range(4):
        await watchers[1].expect(loosely("Ann draws a card."), timeout=5 * HEARTBEAT + 5)
    await private_broker.start()
    for node in (north, south):
        await asyncio.wait_for(node.cluster.connected.wait(), 15)
    assert "You draw #" in flat(await ben.ask("draw"))
    await ann.ask("say That was the last draw.")
    await same_everywhere([north, south], "Den", timeout=15)
    for watcher in watchers:
        await watcher.expect(loosely('Ann says, "That was the last draw."'), timeout=15)
        await watcher.quiet(0.5)

    # Every spectator saw every draw, in the order the database holds them.
    seen = [re.findall(r"(Ann|Ben) draws a card\.", flat(w.transcript)) for w in watchers]
    assert seen[0] == seen[1]
    assert seen[0].count("Ann") == 5 and seen[0].count("Ben") == 4
    room = await north.rooms.find("Den")
    stored = [e.event.actor_name for e in await room.events() if e.event.kind == "draw"]
    assert seen[0] == stored


async def test_a_node_that_missed_a_move_notices_at_the_next_one(start_node, monkeypatch):
    # Slow heartbeats: only the numbering of the events can reveal the gap here.
    north = await start_node("north", cluster_heartbeat=60.0)
    south = await start_node("south", cluster_heartbeat=60.0)
    ann, ben = await player(north, "Ann"), await player(south, "Ben")
    await two_at_a_table(ann, ben, "Den", 20)
    await ann.ask("start")
    await ben.client.quiet(0.5)

    publish = north.cluster.room_events
    dropped: list[int] = []

    def lose_the_first(room_id, seq_before, events):
        if not dropped:
            dropped.append(seq_before)
            return
        publish(room_id, seq_before, events)

    monkeypatch.setattr(north.cluster, "room_events", lose_the_first)
    await ann.ask("draw")
    assert "Ann draws" not in await ben.client.quiet(0.5)
    await ann.ask("say Anyone there?")
    await ann.ask("draw")
    said = flat(await ben.client.quiet(0.5))
    assert said.count("Ann draws a card.") == 2
    assert dropped
    await same_everywhere([north, south], "Den")


async def test_a_node_that_missed_the_last_move_reads_it_at_a_heartbeat(start_node, monkeypatch):
    north, south = await start_node("north"), await start_node("south")
    ann, ben = await player(north, "Ann"), await player(south, "Ben")
    await two_at_a_table(ann, ben, "Den", 20)
    await ann.ask("start")
    await ben.client.quiet(0.5)
    lost: list[int] = []
    monkeypatch.setattr(north.cluster, "room_events", lambda room_id, seq_before, events: lost.append(seq_before))
    await ann.ask("draw")
    # No move follows to reveal the gap: the heartbeats' check with the database does.
    await ben.client.expect(loosely("Ann draws a card."), timeout=5 * HEARTBEAT + 5)
    assert lost
    await same_everywhere([north, south], "Den")


async def test_an_unexpected_error_in_the_link_is_logged_and_the_link_starts_again(start_node, caplog):
    south = await start_node("south")
    north = await start_node("north", connected=False)
    assert north.cluster is not None
    announce, failures = north.cluster._send_presence, []

    def fail_once(full: bool) -> None:
        if not failures:
            failures.append(full)
            raise RuntimeError("a bug in the link")
        announce(full)

    north.cluster._send_presence = fail_once  # type: ignore[method-assign]
    await asyncio.wait_for(north.cluster.connected.wait(), 15)
    ann, ben = await player(north, "Ann"), await player(south, "Ben")
    await eventually(ben, "WHO", "Ann")
    await eventually(ann, "WHO", "Ben")
    assert failures and "the link to MQTT broker" in caplog.text and "a bug in the link" in caplog.text


async def test_a_node_started_while_the_broker_is_down_joins_when_it_comes_up(start_node, private_broker):
    north = await start_node("north", url=private_broker.url, connected=False)
    ann = await player(north, "Ann")
    await ann.ask("newroom Den")
    assert "Den" in await ann.ask("rooms")
    await private_broker.start()
    await asyncio.wait_for(north.cluster.connected.wait(), 15)
    south = await start_node("south", url=private_broker.url)
    ben = await player(south, "Ben")
    await eventually(ben, "WHO", "Ann")
    await eventually(ann, "WHO", "Ben")


async def test_a_node_that_died_unseen_is_forgotten_and_its_retained_list_cleared(start_node, broker_url, prefix):
    # A node that died while the broker was down left its list of players, and no will.
    broker, topic = Broker(broker_url), f"{prefix}/presence/ghost"
    now = time.time()
    ghost = {"account": 999, "name": "Ghost", "place": "lobby", "since": now, "active": now, "doing": ""}
    async with aiomqtt.Client(broker.host, broker.port) as client:
        message = {"node": "ghost", "full": True, "players": [ghost], "gone": []}
        await client.publish(topic, json.dumps(message), qos=1, retain=True)
    ann = await player(await start_node("north"), "Ann")
    await eventually(ann, "WHO", "Ghost")
    await eventually(ann, "WHO", "1 player connected")
    assert "Ghost has disconnected." in flat(ann.client.transcript)
    async with aiomqtt.Client(broker.host, broker.port) as client:
        await client.subscribe(topic)
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(1.0):
                async for message in client.messages:
                    raise AssertionError(f"still retained: {message.payload!r}")


async def test_forged_messages_are_refused_or_undone(start_node, broker_url, prefix, caplog):
    north = await start_node("north")
    ann, lou = await player(north, "Ann"), await player(north, "Lou")
    await ann.ask("newroom Den")
    await ann.ask("set turns=off")
    await load_deck(ann, 10)
    await ann.ask("start")
    room = await north.rooms.find("Den")
    seq = room.seq
    event = {"kind": "draw", "actor": 1, "actor_name": "Ann", "data": {}, "deltas": [], "forced": False}
    forged = [
        b"not json",
        json.dumps({"node": "rogue", "news": [{"room": room.id, "before": seq, "after": 10**6, "events": []}]}),
        json.dumps({"node": "rogue", "news": [{"room": room.id, "before": "1", "after": 2, "events": None}]}),
        json.dumps({"node": "rogue", "news": [{"lobby": True, "say": 5, "exclude": None}, {"room": "x"}]}),
        # Well formed, but with an escape sequence: shown without it.
        json.dumps({"node": "rogue", "news": [{"lobby": True, "say": "Red \x1b[31malert\x07", "exclude": None}]}),
        # Well formed, but never stored: the node believes it until it checks the database.
        json.dumps({"node": "rogue", "news": [{"room": room.id, "before": seq, "after": seq + 1, "events": [event]}]}),
    ]
    bad_player = {"account": "x", "name": 5, "place": "lobby", "since": "now", "active": 0, "doing": ""}
    broker = Broker(broker_url)
    async with aiomqtt.Client(broker.host, broker.port) as client:
        for payload in forged:
            await client.publish(f"{prefix}/news/rogue", payload)
        presence = {"node": "rogue", "full": True, "players": [bad_player], "gone": []}
        await client.publish(f"{prefix}/presence/rogue", json.dumps(presence))
    await eventually(ann, "look", "Draw pile")
    assert "2 players connected" in flat(await ann.ask("WHO"))
    for _ in range(100):
        if room.seq == seq + 1:
            break  # the forged move was taken in
        await asyncio.sleep(0.05)
    # A move made on the forged copy finds the database behind it, and reloads first.
    assert "You draw #" in flat(await ann.ask("draw"))
    assert room.seq == seq + 1
    await same_everywhere([north], "Den")
    assert caplog.text.count("ignored a malformed") >= 4
    await lou.client.expect("Red alert")
    assert b"\x1b[31m" not in lou.client.raw and b"\x07" not in lou.client.raw
    assert "reloading from the database" in caplog.text


def test_news_goes_out_in_order_many_items_to_a_message(prefix):
    cluster = Cluster(Hub(), None, "mqtt://127.0.0.1:1", "north", prefix, HEARTBEAT, lambda gone: None)  # type: ignore[arg-type]
    for number in range(1200):
        cluster.relay("room/7", f"line {number}", None)
        if number == 600:
            cluster.relay("lobby", "in the lobby", 3)
            cluster.tell(RemotePlayer(5, "Ben", "south", "lobby", 0.0, 0.0, ""), "a page")
    packets = cluster._packets(list(cluster._outbox))
    topics = [topic for topic, _, _ in packets]
    news = f"{prefix}/news/north"
    assert topics == [news, news, f"{prefix}/node/south", news, news]
    items = [item for topic, payload, _ in packets if topic == news for item in json.loads(payload)["news"]]
    assert [item["say"] for item in items] == [
        *(f"line {n}" for n in range(601)),
        "in the lobby",
        *(f"line {n}" for n in range(601, 1200)),
    ]
    assert items[601] == {"lobby": True, "say": "in the lobby", "exclude": 3}
    assert all(len(json.loads(payload)["news"]) <= 500 for topic, payload, _ in packets if topic == news)


def test_serve_refuses_a_broker_url_it_cannot_use(tmp_path):
    result = run("serve", "--data-dir", str(tmp_path), "--mqtt-url", "http://127.0.0.1:1883")
    assert result.returncode != 0
    assert "--mqtt-url: 'http://127.0.0.1:1883' is not an mqtt://host:port URL" in result.stderr
    assert "Traceback" not in result.stderr
    # Nodes share one PostgreSQL database: a SQLite file each would be worlds apart.
    result = run("serve", "--data-dir", str(tmp_path), "--mqtt-url", "mqtt://127.0.0.1:1883")
    assert result.returncode != 0 and "share one PostgreSQL database" in result.stderr
    postgres = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
    result = run("serve", "--database-url", postgres, "--mqtt-url", "mqtt://127.0.0.1:1883", "--node-name", "a/#")
    assert result.returncode != 0 and "--node-name: 'a/#' is not a node name" in result.stderr
