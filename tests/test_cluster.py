"""Several nodes, one world: nodes sharing one PostgreSQL database and one MQTT broker,
driven by players over real connections to different nodes.

These tests need PostgreSQL and an MQTT broker (``DVORAK_TEST_MQTT_URL``, default
``mqtt://127.0.0.1:1883``, which lets anyone in: the tests play the outsider with it);
without them they are skipped, except under ``CI=true``, where they fail. Tests that stop
the broker, or check its shipped configuration, start a private Mosquitto of their own.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import json
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace

import aiomqtt
import pytest
from sqlalchemy import update

from commands.dvorak.storage.models import CardRow
from games.dvorak.invariants import differences
from games.dvorak.rules import Event, Table
from i18n import in_language, said
from persistence.database import Database
from persistence.rooms import RoomStore
from server import envelopes
from server.app import MushServer
from server.audit import check_rooms, replay_rooms
from server.cluster import Broker, Cluster
from server.envelopes import Envelopes, Refused
from server.hub import Hub, RemotePlayer
from server.rooms import RoomRegistry
from tests.client import MudClient
from tests.conftest import IN_CI, WELCOME_END, log_in, postgres_database, server_settings
from tests.players import ScriptedPlayer, flat, loosely
from tests.server_process import ROOT, ServerProcess, free_port
from tests.test_cli import run
from tests.web_client import WebClient, web_log_in

MQTT_URL = os.environ.get("DVORAK_TEST_MQTT_URL", "mqtt://127.0.0.1:1883")
HEARTBEAT = 0.5
#: What the test nodes sign their messages with.
SECRET = "the-test-nodes-cluster-secret-0123456789abcdef"


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
        overrides = {"mqtt_prefix": prefix, "cluster_heartbeat": HEARTBEAT, "cluster_secret": SECRET, **overrides}
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


async def game_across(north: MushServer, south: MushServer) -> tuple[ScriptedPlayer, ScriptedPlayer]:
    """Ann on ``north`` and Ben on ``south`` at a game of 20 cards in room Den, started,
    and all the news of its start heard."""
    ann, ben = await player(north, "Ann"), await player(south, "Ben")
    await two_at_a_table(ann, ben, "Den", 20)
    await ann.ask("start")
    await ben.client.quiet(0.5)
    return ann, ben


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


async def test_moves_queued_at_once_on_two_nodes_are_all_kept(start_node):
    """Three players on each node draw at once: each node makes its queued draws
    together, the other node's store often first, so a group is refused as stale and
    made again one by one; every draw is kept, once."""
    north, south = await start_node("north"), await start_node("south")
    ann, ben = await player(north, "Ann"), await player(south, "Ben")
    await two_at_a_table(ann, ben, "Rush", 100)
    others = [await player(node, name) for node, name in ((north, "Cy"), (south, "Di"), (north, "Eve"), (south, "Fay"))]
    for who in others:
        await who.ask("join Rush")
    await ann.ask("start")
    drawers = [ann, ben, *others]

    async def draw(who: ScriptedPlayer, times: int) -> list[str]:
        return [flat(await who.ask("draw")) for _ in range(times)]

    replies = await asyncio.gather(*(draw(who, 10) for who in drawers))
    refused = [reply for each in replies for reply in each if "You draw #" not in reply]
    assert not refused
    await same_everywhere([north, south], "Rush")
    for who in drawers:
        _, counts = await who.table()
        assert counts == {name: 15 for name in ("Ann", "Ben", "Cy", "Di", "Eve", "Fay")}, counts


async def test_a_host_kicks_a_spectator_on_another_node(start_node):
    north, south = await start_node("north"), await start_node("south")
    ann, ben = await player(north, "Ann"), await player(south, "Ben")
    await ann.ask("newroom Den")
    assert "Watching: Ben" in flat(await ben.ask("watch Den"))
    await eventually(ann, "look", "Ben")
    await ann.ask("kick Ben")
    await ben.client.expect(loosely("Ann, the host, has removed you from room Den: you may not come back."))
    assert "Lobby" in await ben.ask("look")
    await eventually(ann, "rooms", "Den Dvorak waiting 0")


async def test_a_room_deleted_on_one_node_is_gone_on_the_others(start_node):
    north, south = await start_node("north"), await start_node("south")
    ann, ben = await player(north, "Ann"), await player(south, "Ben")
    await ann.ask("newroom Den")
    assert "Watching: Ben" in flat(await ben.ask("watch Den"))
    await eventually(ann, "look", "Ben")
    assert "You delete room Den." in flat(await ann.ask("delroom den=yes"))
    await ben.client.expect(loosely("Ann deletes room Den. You are in the lobby."))
    assert "Lobby" in await ben.ask("look")
    assert "There are no rooms yet." in flat(await ben.ask("rooms"))
    assert 'There is no room called "Den"' in flat(await ben.ask("watch Den"))


async def test_a_room_deleted_without_news_is_closed_at_the_second_look_at_the_database(start_node):
    # The news of a deletion says who deleted the room; the heartbeat's look at the
    # database may come first (news a moment late, on a loaded machine) and must not
    # close the room before it. Only a room still deleted at the next look (its news
    # lost: the deleting node died between its commit and its message) is closed so.
    north = await start_node("north", cluster_heartbeat=60.0)
    ann = await player(north, "Ann")
    await ann.ask("newroom Den")
    room = await north.rooms.find("Den")
    assert room is not None and await north.rooms.store.archive(room.id)
    await north.rooms.reconcile(patient=True)
    assert "closed" not in await ann.client.quiet(0.3)
    assert "Den" in flat(await ann.ask("look"))
    await north.rooms.reconcile(patient=True)
    await ann.client.expect(loosely("This room has been closed (deleted or archived). You are in the lobby."))
    assert "Lobby" in await ann.ask("look")


async def test_a_player_away_on_one_node_stops_counting_in_the_vote_on_the_other(start_node):
    north, south = await start_node("north", away_grace_seconds=0.5), await start_node("south", away_grace_seconds=0.5)
    ann, ben = await player(north, "Ann"), await player(south, "Ben")
    await ann.ask("newroom Den")
    await ann.ask("set vote=unanimous")
    await ben.ask("join Den")
    await eventually(ann, "look", "Ben")
    await ann.ask("newcard Waits/T/For Ben.")
    await ben.close()
    await ann.client.expect(loosely("Ben has been away too long: votes are counted without Ben until Ben is back."))
    await ann.client.expect(loosely("The vote on #1 Waits (Thing) is decided: accepted."))
    database = Database(north.settings.database_url)
    try:
        assert all(report.sound for report in await check_rooms(database) + await replay_rooms(database))
    finally:
        await database.dispose()


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


async def test_a_web_player_on_one_node_plays_with_a_telnet_player_on_another_and_resumes_on_either(start_node):
    north, south = await start_node("north"), await start_node("south")
    ann = await WebClient.open(north.web_port)
    await web_log_in(ann, "Ann")
    stones = [f"loadcard Stone{i}/T/A stone." for i in range(6)]
    for line in ["newroom Den", "set turns=off", "set handsize=2", *stones]:
        ann.send(line)
    await ann.expect("Stone5")
    ben = await player(south, "Ben")
    await eventually(ben, "rooms", "Den")
    await ben.ask("join Den")
    await ann.expect("Ben arrives")
    await ann.command("start", "You start a new game")
    hand = await ann.view("Dvorak.Hand", lambda view: len(view["cards"]) == 2)
    await ben.ask("drawcard")
    await ann.expect(r"Ben draws a card\.")
    ann.send(f"playcard {hand['cards'][0]['number']}")
    await ben.client.expect(rf"Ann plays #{hand['cards'][0]['number']} Stone")

    # The nodes share the cluster's secret: a token from one is good on the other.
    token = ann.tokens[-1]
    await ann.close()
    await ben.client.expect("Ann has disconnected; the seat is kept.")
    again = await WebClient.open(south.web_port)
    again.send_json({"resume": token})
    await again.expect("Welcome back, Ann.")
    info = await again.view("Room.Info", lambda view: view.get("kind") == "game")
    assert info["name"] == "Den"
    await again.close()


# -- nodes and the broker going away --------------------------------------------------------


async def test_a_killed_node_s_players_sit_down_again_on_another_node(start_node, cluster_database, prefix, tmp_path):
    doomed = ServerProcess(cluster_database, tmp_path)
    doomed.env.update(
        DVORAK_MQTT_URL=MQTT_URL,
        DVORAK_NODE_NAME="doomed",
        DVORAK_MQTT_PREFIX=prefix,
        DVORAK_CLUSTER_HEARTBEAT=str(HEARTBEAT),
        DVORAK_CLUSTER_SECRET=SECRET,
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


MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
#: The nodes' user, as deploy/mosquitto.acl names it.
MQTT_USER = "dvorak"


class PrivateBroker:
    """A Mosquitto of the test's own, configured as deploy/mosquitto.conf and
    deploy/mosquitto.acl have it (the ACL for the test's prefix), with a password file
    of its own for the nodes' user, on a free loopback port; the test can stop it. It
    runs as the user who starts it."""

    def __init__(self, directory: Path, prefix: str) -> None:
        self.port = free_port()
        self.password = uuid.uuid4().hex
        self.url = f"mqtt://{MQTT_USER}:{self.password}@127.0.0.1:{self.port}"
        passwords, acl = directory / "mosquitto.passwd", directory / "mosquitto.acl"
        subprocess.run([MOSQUITTO_PASSWD, "-b", "-c", str(passwords), MQTT_USER, self.password], check=True)
        acl.write_text((ROOT / "deploy" / "mosquitto.acl").read_text().replace(" dvorak/#", f" {prefix}/#"))
        shipped = (ROOT / "deploy" / "mosquitto.conf").read_text()
        assert re.search(r"^allow_anonymous false$", shipped, re.MULTILINE)
        self.config = directory / "mosquitto.conf"
        self.config.write_text(
            _set(shipped, listener=f"{self.port} 127.0.0.1", password_file=passwords, acl_file=acl)
            + f"user {getpass.getuser()}\n"
        )
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            MOSQUITTO, "-c", str(self.config), stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
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


def _set(config: str, **values: object) -> str:
    """``config`` with each named option's line (there must be one) set to the value."""
    for option, value in values.items():
        config, found = re.subn(rf"^{option} .*$", f"{option} {value}", config, flags=re.MULTILINE)
        assert found == 1, f"deploy/mosquitto.conf has no {option} line"
    return config


@pytest.fixture
async def private_broker(broker_url, prefix, tmp_path) -> AsyncIterator[PrivateBroker]:
    for program in (MOSQUITTO, MOSQUITTO_PASSWD):
        if not Path(program).exists():
            if IN_CI:
                pytest.fail(f"{program} is required in CI")
            pytest.skip(f"{program} is not installed")
    broker = PrivateBroker(tmp_path, prefix)
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
    ann, ben = await game_across(north, south)

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


async def test_moves_caught_up_with_during_a_command_come_after_its_framed_reply(start_node, monkeypatch):
    """A node that missed another node's proposal reads it from the database while
    running ``approve``: that news is not the command's reply, so it goes after the
    OUTPUTSUFFIX (it was seen inside the frame, before the reply)."""
    north = await start_node("north", cluster_heartbeat=60.0)
    south = await start_node("south", cluster_heartbeat=60.0)
    ann, ben = await game_across(north, south)
    monkeypatch.setattr(north.cluster, "room_events", lambda room_id, seq_before, events: None)
    proposed = flat(await ann.ask("newcard Moat/T/Nothing gets past."))
    number = re.search(r"#(\d+)", proposed).group(1)
    reply = flat(await ben.ask(f"approve {number}"))
    assert "Moat" in reply and "proposes" not in reply, reply
    assert "Ann proposes a new card" in flat(await ben.client.quiet(0.3))


async def test_votes_queued_on_a_node_that_missed_the_proposal_are_each_taken(start_node, monkeypatch):
    """Moves that queue up while a room is busy are made together, on a node with peers
    too; made on a copy that missed another node's proposal, they are refused there, so
    each is tried again alone after catching up, and every vote counts."""
    north = await start_node("north", cluster_heartbeat=60.0)
    south = await start_node("south", cluster_heartbeat=60.0)
    ann = await player(north, "Ann")
    voters = [await player(south, name) for name in ("Ben", "Cy", "Di")]
    await ann.ask("newroom Den")
    await ann.ask("set turns=off")
    await load_deck(ann, 20)
    for voter in voters:
        await voter.ask("join Den")
    await ann.ask("start")
    for voter in voters:
        await voter.client.quiet(0.3)
    monkeypatch.setattr(north.cluster, "room_events", lambda room_id, seq_before, events: None)
    number = re.search(r"#(\d+)", flat(await ann.ask("newcard Moat/T/Nothing gets past."))).group(1)
    room = await south.rooms.find("Den")
    async with room._lock:  # a move being stored: the votes queue up behind it
        replies = [asyncio.ensure_future(voter.ask(f"approve {number}")) for voter in voters]
        while len(room._queued) < len(voters):
            await asyncio.sleep(0.01)
    for voter, reply in zip(voters, await asyncio.gather(*replies), strict=True):
        assert f"You approve #{number}." in flat(reply), (voter.name, reply)
    assert "is decided: accepted" in flat(await ann.client.quiet(0.5))
    await same_everywhere([north, south], "Den")


async def test_a_node_that_missed_the_last_move_reads_it_at_a_heartbeat(start_node, monkeypatch):
    north, south = await start_node("north"), await start_node("south")
    ann, ben = await game_across(north, south)
    lost: list[int] = []
    monkeypatch.setattr(north.cluster, "room_events", lambda room_id, seq_before, events: lost.append(seq_before))
    await ann.ask("draw")
    # No move follows to reveal the gap: the heartbeats' check with the database does.
    await ben.client.expect(loosely("Ann draws a card."), timeout=5 * HEARTBEAT + 5)
    assert lost
    await same_everywhere([north, south], "Den")


async def test_an_unexpected_error_in_the_link_is_logged_and_the_link_starts_again(start_node, caplog, monkeypatch):
    south = await start_node("south")
    announce, failures = Cluster._send_presence, []

    def fail_once(cluster: Cluster, full: bool) -> None:
        # North's first presence, sent as it connects (installed before it starts: it
        # may be connected before start_node returns).
        if cluster.node == "north" and not failures:
            failures.append(full)
            raise RuntimeError("a bug in the link")
        announce(cluster, full)

    monkeypatch.setattr(Cluster, "_send_presence", fail_once)
    north = await start_node("north", connected=False)
    assert north.cluster is not None
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
        message = {"full": True, "players": [ghost], "gone": [], "rooms": []}
        await client.publish(topic, Envelopes(SECRET, "ghost").seal(topic, message), qos=1, retain=True)
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


async def test_malformed_or_unstored_news_from_a_node_is_refused_or_undone(start_node, broker_url, prefix, caplog):
    # A node that holds the secret, but sends what no node should (a bug, or a node
    # broken into): what it says is checked all the same.
    north = await start_node("north")
    ann, lou = await player(north, "Ann"), await player(north, "Lou")
    await ann.ask("newroom Den")
    await ann.ask("set turns=off")
    await load_deck(ann, 10)
    await ann.ask("start")
    room = await north.rooms.find("Den")
    seq = room.seq
    event = {"kind": "draw", "actor": 1, "actor_name": "Ann", "data": {}, "deltas": [], "forced": False}
    rogue = Envelopes(SECRET, "rogue")
    news, lobby = f"{prefix}/news/north/rogue", f"{prefix}/lobby/rogue"
    forged = [
        (news, {"news": [{"room": room.id, "before": seq, "after": 10**6, "events": []}]}),
        (news, {"news": [{"room": room.id, "before": "1", "after": 2, "events": None}]}),
        (lobby, {"news": [{"say": 5, "exclude": None}]}),
        (news, {"news": [{"room": "x"}]}),
        # Well formed, but with an escape sequence: shown without it.
        (lobby, {"news": [{"say": "Red \x1b[31malert\x07", "exclude": None}]}),
        # Well formed, but never stored: the node believes it until it checks the database.
        (news, {"news": [{"room": room.id, "before": seq, "after": seq + 1, "events": [event]}]}),
    ]
    bad_player = {"account": "x", "name": 5, "place": "lobby", "since": "now", "active": 0, "doing": ""}
    broker = Broker(broker_url)
    async with aiomqtt.Client(broker.host, broker.port) as client:
        await client.publish(news, b"not json")
        for topic, message in forged:
            await client.publish(topic, rogue.seal(topic, message))
        presence = f"{prefix}/presence/rogue"
        message = {"full": True, "players": [bad_player], "gone": [], "rooms": []}
        await client.publish(presence, rogue.seal(presence, message))
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
    assert "refused a message" in caplog.text
    await lou.client.expect("Red alert")
    assert b"\x1b[31m" not in lou.client.raw and b"\x07" not in lou.client.raw
    assert "reloading from the database" in caplog.text


def test_news_goes_out_in_order_many_items_to_a_message(prefix):
    hub = Hub()
    rooms = RoomRegistry(None, lambda room, events: None, hub)  # type: ignore[arg-type]
    cluster = Cluster(hub, rooms, "mqtt://127.0.0.1:1", "north", prefix, HEARTBEAT, SECRET, lambda gone: None)
    cluster._presence("south", {"full": True, "players": [], "gone": [], "rooms": [7]})
    cluster._presence("east", {"full": True, "players": [], "gone": [], "rooms": [8]})
    for number in range(1200):
        cluster.relay("room/7", f"line {number}", None)
        if number == 600:
            cluster.relay("lobby", "in the lobby", 3)
            cluster.tell(RemotePlayer(5, "Ben", "south", "lobby", 0.0, 0.0, ""), "a page")
    packets = cluster._packets(list(cluster._outbox))
    topics = [topic for topic, _, _ in packets]
    room, lobby = f"{prefix}/news/south/north", f"{prefix}/lobby/north"
    assert topics == [room, room, lobby, f"{prefix}/node/south", room, room]  # nothing for east
    south = Envelopes(SECRET, "south")
    news = [(topic, south.open(topic, payload)["news"]) for topic, payload, _ in packets if topic != topics[3]]
    assert [item["say"] for topic, items in news if topic == room for item in items] == [
        f"line {n}" for n in range(1200)
    ]
    assert [item for topic, items in news if topic == lobby for item in items] == [
        {"say": "in the lobby", "exclude": 3, "speaker": None}
    ]
    assert all(len(items) <= 500 for _, items in news)


async def test_stopping_ends_the_link_even_if_a_cancellation_is_lost(prefix, monkeypatch):
    # On Python 3.11, asyncio.wait_for (under aiomqtt's connect) returns a result that came
    # at the moment it was cancelled and drops the cancellation: a worker stopped just as
    # it connected to the broker went on serving the link, and never exited.
    async def a_session_that_drops_one_cancellation(self: Cluster) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(3600)
        await asyncio.sleep(3600)

    monkeypatch.setattr(Cluster, "_session", a_session_that_drops_one_cancellation)
    rooms = RoomRegistry(None, lambda room, events: None, Hub())  # type: ignore[arg-type]
    cluster = Cluster(rooms.hub, rooms, "mqtt://127.0.0.1:1", "north", prefix, HEARTBEAT, SECRET, lambda gone: None)
    await cluster.start()
    await asyncio.sleep(0.05)
    stopping = asyncio.ensure_future(cluster.stop())
    done, _ = await asyncio.wait([stopping], timeout=10)
    stopping.cancel()
    assert stopping in done, "the link went on after stop()"


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


def test_serve_refuses_to_join_without_a_cluster_secret_worth_the_name(tmp_path):
    node = ("serve", "--database-url", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
    node += ("--mqtt-url", "mqtt://127.0.0.1:1883", "--node-name", "north")
    result = run(*node)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "the nodes sign their messages with a cluster secret, and none is given" in result.stderr
    assert "DVORAK_CLUSTER_SECRET_FILE" in result.stderr
    result = run(*node, env={"DVORAK_CLUSTER_SECRET": "password123"})
    assert result.returncode != 0 and "the cluster secret is too easy to guess" in result.stderr
    missing = tmp_path / "no-such-secret"
    result = run(*node, "--cluster-secret-file", str(missing))
    assert result.returncode != 0 and f"--cluster-secret-file: cannot read {missing}" in result.stderr
    secret_file = tmp_path / "secret"
    secret_file.write_text(SECRET + "\n")
    result = run(*node, "--cluster-secret-file", str(secret_file), env={"DVORAK_CLUSTER_SECRET": SECRET})
    assert result.returncode != 0 and "give the cluster secret once" in result.stderr
    # A secret on the command line would be seen by every user of the host.
    result = run(*node, "--cluster-secret", SECRET)
    assert result.returncode != 0 and "--cluster-secret is not taken on the command line" in result.stderr
    assert SECRET not in result.stderr


# -- who may speak as a node ------------------------------------------------------------------


async def _logged(caplog: pytest.LogCaptureFixture, wanted: dict[str, int], seconds: float = 10.0) -> None:
    """Wait until each text of ``wanted`` has been logged as many times (at least)."""
    async with asyncio.timeout(seconds):
        while any(caplog.text.count(text) < times for text, times in wanted.items()):
            await asyncio.sleep(0.05)


async def _published(broker_url: str, messages: list[tuple[str, bytes]]) -> None:
    """Publish ``messages`` as a client of the broker that is no node, each acknowledged
    by the broker before the next (so the broker has passed them on before anything the
    test does next)."""
    broker = Broker(broker_url)
    async with aiomqtt.Client(broker.host, broker.port) as client:
        for topic, payload in messages:
            await client.publish(topic, payload, qos=1)


async def test_an_outside_client_of_the_broker_cannot_speak_as_a_node(start_node, broker_url, prefix, caplog):
    # Slow heartbeats: only the refusals keep the forgeries out (no heartbeat's check
    # with the database or announcement of the real players undoes them).
    north = await start_node("north", cluster_heartbeat=60.0)
    south = await start_node("south", cluster_heartbeat=60.0)
    ann, ben = await game_across(north, south)
    room = await north.rooms.find("Den")
    seq, hand = room.seq, [card.number for card in await ann.hand()]
    ann_id, ben_id = next(iter(north.hub.players)), next(iter(south.hub.players))
    drawn = room.table.state.piles[next(key for key in room.table.state.piles if key[0] == "draw")][-1]
    now = time.time()
    ben_on_rogue = {"account": ben_id, "name": "Ben", "place": "lobby", "since": now, "active": now, "doing": ""}
    forgeries = {
        # Ben is on node rogue now: his pages would go there.
        f"{prefix}/presence/rogue": {"full": True, "players": [ben_on_rogue], "gone": [], "rooms": []},
        f"{prefix}/node/north": {"tell": True, "account": ann_id, "text": "Forged page"},
        f"{prefix}/node/south": {"takeover": True, "account": ben_id},
        f"{prefix}/news/north/rogue": {
            "news": [
                {
                    "room": room.id,
                    "before": seq,
                    "after": seq + 1,
                    "events": [
                        {
                            "kind": "draw",
                            "actor": ann_id,
                            "actor_name": "Ann",
                            "data": {"card": drawn, "visible": False},
                            "deltas": [["move", drawn, "hand", ann_id, -1]],
                            "forced": False,
                        }
                    ],
                },
                {"room": room.id, "say": "Forged room chat", "exclude": None},
            ]
        },
        f"{prefix}/lobby/rogue": {"news": [{"say": "Forged lobby chat", "exclude": None}]},
    }
    unsigned = [(topic, json.dumps({"node": "rogue", **body}).encode()) for topic, body in forgeries.items()]
    impostor = Envelopes("not-the-cluster-secret-0123456789abcdefgh", "rogue")
    badly_signed = [(topic, impostor.seal(topic, body)) for topic, body in forgeries.items()]

    broker = Broker(broker_url)
    async with aiomqtt.Client(broker.host, broker.port) as spy:
        await spy.subscribe(f"{prefix}/node/rogue")
        await _published(broker_url, unsigned + badly_signed)
        assert "You paged Ben" in flat(await ann.ask("page Ben=Meet me at the docks."))
        await ben.client.expect(loosely("Ann pages: Meet me at the docks."))
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(1.0):
                async for message in spy.messages:
                    raise AssertionError(f"the forger got {message.payload!r}")

    assert ben_id in south.hub.players and "Den" in flat(await ben.ask("look"))
    assert room.seq == seq and [card.number for card in await ann.hand()] == hand and drawn not in hand
    assert "Forged" not in flat(ann.client.transcript) + flat(ben.client.transcript)
    assert "2 players connected" in flat(await ann.ask("WHO"))
    # North hears four of the five topics, south three (not north's); two forgeries each.
    assert caplog.text.count("not signed with the cluster's secret") == 2 * (4 + 3)
    await same_everywhere([north, south], "Den")


async def test_a_captured_message_said_again_is_refused(start_node, broker_url, prefix, caplog):
    north, south = await start_node("north"), await start_node("south")
    ann, ben = await player(north, "Ann"), await player(south, "Ben")
    await eventually(ann, "WHO", "Ben")
    captured: dict[str, bytes] = {}
    broker = Broker(broker_url)
    async with aiomqtt.Client(broker.host, broker.port) as spy:
        await spy.subscribe(f"{prefix}/#")

        async def capture(topic: str) -> None:
            async with asyncio.timeout(10):
                async for message in spy.messages:
                    if str(message.topic) == topic:
                        captured[topic] = message.payload
                        return

        await ben.ask("say Hello, once.")
        await capture(f"{prefix}/lobby/south")
        # Ann logs in on south: south tells north to let her go...
        ann_south = await player(south, "Ann", create=False)
        await capture(f"{prefix}/node/north")
        await ann.client.wait_closed()
        # ... and back on north, which tells south.
        ann = await player(north, "Ann", create=False)
        await ann_south.client.wait_closed()
        await eventually(ben, "WHO", "2 players connected")

    cy = await player(north, "Cy")
    await eventually(cy, "WHO", "3 players connected")
    await _published(broker_url, list(captured.items()))
    await ben.ask("say Last words.")
    await cy.client.expect(loosely('Ben says, "Last words."'))
    assert "Hello, once." not in flat(cy.client.transcript)
    assert next(iter(p for p in north.hub.players.values() if p.name == "Ann")).connections
    assert "You have logged in from somewhere else" not in flat(ann.client.transcript)
    # North has had both; south hears its own chat come back, and knows it for its own.
    # (Each node reads the replayed messages in its own time: Cy hearing Ben's last words
    # on north does not mean south has read its own chat again yet.)
    assert b"Hello, once." in captured[f"{prefix}/lobby/south"]
    await _logged(caplog, {"already received": 2, "sent by this node itself before": 1})
    assert caplog.text.count("already received") == 2
    assert caplog.text.count("sent by this node itself before") == 1
    assert flat(ben.client.transcript).count("Hello, once.") == 1


def test_envelopes_take_each_message_once_and_only_from_the_current_connection_and_run(monkeypatch):
    north, south = Envelopes(SECRET, "north"), Envelopes(SECRET, "south")
    topic = "dvorak/presence/north"
    north.new_session()
    will = north.will(topic, {"bye": True})
    first, second = north.seal(topic, {"full": True}), north.seal(topic, {"full": True})
    assert south.open(topic, second)["full"] is True
    assert south.open(topic, first)["n"] == 2  # late, but not seen yet
    for replayed in (first, second):
        with pytest.raises(Refused, match="already received"):
            south.open(topic, replayed)
    for tampered in (second.replace(b'"full":true', b'"full":false'), b"{}", b""):
        with pytest.raises(Refused, match="not signed"):
            south.open(topic, tampered)
    with pytest.raises(Refused, match="not signed"):
        south.open("dvorak/presence/south", north.seal(topic, {}))  # bound to its topic

    # The last will of a connection that north has replaced is refused; its current one
    # is taken, once.
    north.new_session()
    current_will = north.will(topic, {"bye": True})
    assert south.open(topic, north.seal(topic, {"full": True}))
    north.new_session()  # and it reconnects once more
    with pytest.raises(Refused, match="since replaced"):
        south.open(topic, will)
    assert south.open(topic, current_will)["bye"] is True
    with pytest.raises(Refused, match="already received"):
        south.open(topic, current_will)

    # North hears its own will, from the connection it replaced, once; nothing else of its own.
    assert north.open(topic, current_will)["bye"] is True
    for own in (current_will, will, second):
        with pytest.raises(Refused, match="this node itself"):
            north.open(topic, own)

    # A restarted north is a new run: the old run's messages are refused from then on.
    old = north.seal(topic, {"full": True})
    restarted = Envelopes(SECRET, "north")
    restarted.new_session()
    assert south.open(topic, restarted.seal(topic, {"full": True}))
    with pytest.raises(Refused, match="earlier run"):
        south.open(topic, old)
    with pytest.raises(Refused, match="earlier run"):
        south.open(topic, current_will)

    # Sent too long ago (or by a clock that is wrong) for the window: a message retained
    # by the broker for a node long gone, or one captured and said again after it.
    with monkeypatch.context() as patch:
        patch.setattr(envelopes, "time", SimpleNamespace(time=lambda: time.time() - 31, time_ns=time.time_ns))
        stale = Envelopes(SECRET, "east").seal("dvorak/presence/east", {"full": True})
    with pytest.raises(Refused, match="outside the 30 s window"):
        south.open("dvorak/presence/east", stale)


@pytest.mark.parametrize("secret", ["", "short", "a" * 64])
def test_a_cluster_secret_must_be_hard_to_guess(secret):
    with pytest.raises(ValueError, match="cluster secret"):
        Envelopes(secret, "north")


# -- news never decides what a node writes ----------------------------------------------------


@pytest.mark.parametrize("mended_by", ["its next move", "the check against the database"])
async def test_a_copy_told_of_a_move_never_stored_cannot_write_over_the_room(start_node, mended_by, caplog):
    # The review's attack: news of a move that was never stored took the seq of a real
    # move, the node dropped the real news as old, then stored its copy over the room.
    # (Slow heartbeats: the test runs the check against the database itself.)
    north = await start_node("north", cluster_heartbeat=60.0)
    south = await start_node("south", cluster_heartbeat=60.0)
    ann, ben = await game_across(north, south)
    room = await north.rooms.find("Den")
    ann_id = next(iter(north.hub.players))
    top = room.table.state.piles[next(key for key in room.table.state.piles if key[0] == "draw")][-1]
    deltas = [["move", top, "hand", ann_id, -1], ["setting", "handlimit", 99]]
    forged = Event("draw", ann_id, "Ann", {"card": top, "visible": False}, deltas)
    await room.receive(room.seq, room.seq + 1, [forged])
    assert top in [card.number for card in await ann.hand()]
    seq = room.seq
    assert "You draw #" in flat(await ben.ask("draw"))  # the real move with that seq
    await ann.client.quiet(0.5)
    assert room.seq == seq  # its news was taken for old

    if mended_by == "its next move":
        assert "You draw #" in flat(await ann.ask("draw"))
    else:
        await north.rooms.reconcile(patient=True)
    assert f"room Den: reloading from the database (seq {seq} here, {seq} there)" in caplog.text
    assert top not in [card.number for card in await ann.hand()]
    assert room.table.state.settings["handlimit"] == 5
    await same_everywhere([north, south], "Den")
    database = Database(north.settings.database_url)
    try:
        assert all(report.sound for report in await replay_rooms(database)), await replay_rooms(database)
    finally:
        await database.dispose()


async def test_check_reports_a_stored_room_that_its_log_does_not_rebuild(start_node, cluster_database):
    north = await start_node("north")
    ann = await player(north, "Ann")
    await ann.ask("newroom Den")
    await load_deck(ann, 6)
    await ann.ask("start")
    assert run("check", "--database-url", cluster_database).returncode == 0
    database = Database(cluster_database)
    try:
        async with database.transaction() as connection:
            cards = CardRow.__table__
            await connection.execute(update(cards).where(cards.c.number == 2).values(name="Forged"))
    finally:
        await database.dispose()
    result = run("check", "--database-url", cluster_database)
    assert result.returncode == 1
    assert "Den: PROBLEMS" in result.stdout and "its event log rebuilds another room: card #2: name" in result.stdout


# -- hidden cards go only where they are needed -----------------------------------------------


async def test_a_node_hears_a_room_s_news_only_while_it_has_the_room_loaded(start_node):
    north, south = await start_node("north"), await start_node("south")
    ann, ben = await player(north, "Ann"), await player(south, "Ben")
    heard: list[tuple[str, bytes]] = []
    receive = south.cluster._receive

    def spy(topic: str, payload: bytes, retained: bool = False) -> None:
        heard.append((topic, payload))
        receive(topic, payload, retained)

    south.cluster._receive = spy  # type: ignore[method-assign]
    await ann.ask("newroom Den")
    await ann.ask("set turns=off")
    await ann.ask("say Nobody else is here.")
    await load_deck(ann, 24)
    await ann.ask("start")
    await ann.ask("draw")
    await ann.ask("say Still nobody.")
    await eventually(ben, "rooms", "Den")
    room = await north.rooms.find("Den")
    in_den = f"{south.settings.mqtt_prefix}/news/south/"  # news of Den, the only room
    assert not [topic for topic, _ in heard if topic.startswith(in_den)]
    assert not [payload for _, payload in heard if b"Card0" in payload or b"Nobody" in payload]

    # Ben sits down: south loads the room, and from then on hears its news.
    assert "Seats, in turn order" in await ben.ask("join Den")
    await ann.ask("draw")
    await ben.client.expect(loosely("Ann draws a card."))
    assert [topic for topic, _ in heard if topic.startswith(in_den)]

    # Unloaded, it hears nothing of the room; loaded again, it follows it again and
    # catches up with what it missed meanwhile.
    south.cluster.room_unloaded(room.id)
    await asyncio.sleep(0.5)
    heard.clear()
    await ann.ask("draw")
    await asyncio.sleep(0.5)
    assert not [topic for topic, _ in heard if topic.startswith(in_den)]
    south.cluster.room_loaded(room.id)
    await same_everywhere([north, south], "Den")
    await ben.client.expect(loosely("Ann draws a card."))  # the draw it missed
    for _ in range(5):  # once the subscription has taken hold, news comes again
        await ann.ask("draw")
        await ben.client.expect(loosely("Ann draws a card."))
        if [topic for topic, _ in heard if topic.startswith(in_den)]:
            break
    assert [topic for topic, _ in heard if topic.startswith(in_den)]
    await same_everywhere([north, south], "Den")


async def test_a_room_nobody_on_a_node_uses_is_let_go_there_and_followed_again_when_used(start_node):
    north, south = await start_node("north"), await start_node("south", room_unload_seconds=0.4)
    ann, ben = await player(north, "Ann"), await player(south, "Ben")
    await two_at_a_table(ann, ben, "Den", 4)
    room = await north.rooms.find("Den")
    assert room is not None
    await ben.ask("leave")
    for _ in range(40):
        if south.rooms.loaded_room(room.id) is None:
            break
        await asyncio.sleep(0.1)
    assert south.rooms.loaded_room(room.id) is None
    heard: list[str] = []
    receive = south.cluster._receive

    def spy(topic: str, payload: bytes, retained: bool = False) -> None:
        heard.append(topic)
        receive(topic, payload, retained)

    south.cluster._receive = spy  # type: ignore[method-assign]
    await asyncio.sleep(2 * HEARTBEAT)  # the others have heard that south let the room go
    heard.clear()
    for i in range(3):
        await ann.ask(f"loadcard Unheard {i}/T/Made while south has no copy.")
    await asyncio.sleep(0.5)
    assert not [topic for topic in heard if topic.startswith(f"{south.settings.mqtt_prefix}/news/south/")]
    # Watched again from south: read afresh (with what it did not hear), and followed again.
    assert "Unheard 2" in flat(await ben.ask("watch Den") + await ben.ask("viewall"))
    await ann.ask("loadcard Heard/T/Made while south follows the room.")
    await ben.client.expect(loosely("Ann adds a card to the deck: #8 Heard (Thing)"))
    await same_everywhere([north, south], "Den")


# -- the shipped broker configuration ---------------------------------------------------------


async def test_the_shipped_broker_configuration_lets_in_only_the_nodes(start_node, private_broker, prefix):
    await private_broker.start()
    with pytest.raises(aiomqtt.MqttError):
        async with aiomqtt.Client("127.0.0.1", private_broker.port):
            pass
    with pytest.raises(aiomqtt.MqttError):
        async with aiomqtt.Client("127.0.0.1", private_broker.port, username=MQTT_USER, password="wrong"):
            pass
    north = await start_node("north", url=private_broker.url)
    south = await start_node("south", url=private_broker.url)
    ann, ben = await player(north, "Ann"), await player(south, "Ben")
    await eventually(ann, "WHO", "Ben")
    await eventually(ben, "WHO", "Ann")

    # The nodes' user has the world's topics, and no others.
    async with aiomqtt.Client(
        "127.0.0.1", private_broker.port, username=MQTT_USER, password=private_broker.password
    ) as client:
        await client.subscribe([("elsewhere/#", 0), (f"{prefix}/elsewhere", 0)])
        await client.publish("elsewhere/x", b"outside", qos=1)
        await client.publish(f"{prefix}/elsewhere", b"inside", qos=1)
        async with asyncio.timeout(5):
            async for message in client.messages:
                assert message.payload == b"inside"
                break


async def test_a_node_says_when_its_broker_lets_anyone_read_the_world_s_messages(
    start_node, private_broker, broker_url, caplog
):
    """The second review: the cluster's news (the draw pile's order, which cards went to
    which hand) is signed but not encrypted, and was readable by anyone who could
    subscribe to the broker. The shipped configuration lets only the nodes in (the test
    above); a node whose broker lets anyone read its world's messages says so."""
    caplog.set_level(logging.WARNING, logger="server.cluster")
    await private_broker.start()
    guarded = await start_node("north", url=private_broker.url)
    open_to_all = await start_node("south", url=broker_url)
    for node, readable in ((guarded, False), (open_to_all, True)):
        assert node.cluster is not None
        for _ in range(200):
            if node.cluster.readable_by_anyone is not None:
                break
            await asyncio.sleep(0.05)
        assert node.cluster.readable_by_anyone is readable
    warned = [r.getMessage() for r in caplog.records if "lets a client with no password read" in r.getMessage()]
    assert len(warned) == 1 and f":{private_broker.port}" not in warned[0]


async def test_what_one_node_tells_another_s_players_is_in_each_reader_s_language(start_node):
    """A page, talk in the lobby and an arrival, made on one node, reach a player on
    another in their own language: the message crosses as itself, not as English."""
    north, south = await start_node("north"), await start_node("south")
    rehor = await player(south, "Řehoř")
    await rehor.ask("@language cs")
    ann = await player(north, "Ann")
    await rehor.client.expect(re.escape(in_language(said("{name} has connected.", name="Ann"), "cs")))
    await eventually(ann, "WHO", "Řehoř")
    assert "You paged Řehoř" in flat(await ann.ask("page Rehor=Ahoj"))
    await rehor.client.expect(re.escape(in_language(said("{name} pages: {message}", name="Ann", message="Ahoj"), "cs")))
    await ann.ask("say Hello, south.")
    spoken = said('{name} says, "{text}"', name="Ann", text="Hello, south.")
    await rehor.client.expect(re.escape(in_language(spoken, "cs")))
    assert in_language(spoken, "cs") != in_language(spoken, "en")
