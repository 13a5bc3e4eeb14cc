"""Player safety across nodes: ignoring a player on another node (chat in the lobby and in
a room, poses, pages), a host muting and barring a spectator on another node, reports
reaching staff on every node, and a deletion known everywhere. Needs PostgreSQL and an
MQTT broker, as :mod:`tests.test_cluster` does (its fixtures start the nodes)."""

from __future__ import annotations

from persistence.accounts import AccountStore
from server.audit import check_rooms, replay_rooms
from server.cluster import Cluster
from server.config import Settings
from server.hub import Hub
from server.rooms import RoomRegistry
from tests import test_cluster
from tests.harness import KeptConnection
from tests.players import ScriptedPlayer, flat, loosely
from tests.test_cluster import eventually, player
from tests.test_player_safety import TINY_COOLOFF_DAYS, marker

# The nodes are started by test_cluster's fixtures (found by name).
broker_url, cluster_database, prefix = test_cluster.broker_url, test_cluster.cluster_database, test_cluster.prefix
start_node = test_cluster.start_node


async def test_an_ignored_player_on_another_node_is_not_heard_in_the_lobby_a_room_or_a_page(start_node):
    north, south = await start_node("north"), await start_node("south")
    ann = await player(north, "Ann")
    ben, cy = await player(south, "Ben"), await player(south, "Cy")
    await eventually(ann, "WHO", "Cy")
    assert "You ignore Ben" in flat(await ann.ask("ignore Ben"))
    # The lobby: Ben's say and pose reach Cy (on his node) but not Ann (on hers).
    await ben.ask("say hidden-lobby-say")
    await ben.ask("pose hidden-lobby-pose")
    await cy.client.wait_for("Ben hidden-lobby-pose")
    assert flat(await ben.ask("page Ann=hidden-page")) == "Ann is not accepting pages from you."
    assert flat(await ben.ask("page Ann=:hidden-pose-page")) == "Ann is not accepting pages from you."
    await marker(cy, [ann], "lobby-marker")
    assert "hidden" not in ann.client.transcript
    # A room: Ann hosts it on north; Ben sits and Cy watches from south.
    await ann.ask("newroom Duo")
    await ann.ask("loadcard Box/T/Holds things.")
    await ben.ask("join Duo")
    await cy.ask("watch Duo")
    await ann.client.wait_for("Ben takes a seat")  # the game's moves are never hidden
    await eventually(ann, "look", "Watching: Cy")
    await ben.ask("say hidden-room-say")
    await ben.ask("@emit hidden-room-emit")
    await cy.client.wait_for("hidden-room-emit")
    await marker(cy, [ann], "room-marker")
    assert "hidden" not in ann.client.transcript
    # Ann logs in again, on the other node: what she ignores is stored, so it holds there.
    ann.client.send("QUIT")
    await ann.client.wait_closed()
    ann = await ScriptedPlayer.connect(south.port, "Ann", create=False)
    await ben.ask("say hidden-after-moving")
    await marker(cy, [ann], "south-marker")
    assert "hidden" not in ann.client.transcript
    assert flat(await ann.ask("unignore Ben")) == "You no longer ignore Ben."
    await ben.ask("say heard-again")
    await ann.client.wait_for('Ben says, "heard-again"')


async def test_a_host_mutes_and_bars_a_spectator_on_another_node(start_node):
    north, south = await start_node("north"), await start_node("south")
    ann, ben = await player(north, "Ann"), await player(south, "Ben")
    await ann.ask("newroom Den")
    assert "Watching: Ben" in flat(await ben.ask("watch Den"))
    await eventually(ann, "look", "Ben")
    assert "You mute Ben here" in flat(await ann.ask("mutespec Ben"))
    await ben.client.expect(loosely("The host of room Den has muted you: you may watch, but not talk here."))
    await eventually(ben, "say hello", "has muted you here")
    await ann.ask("kick Ben")
    await ben.client.expect(loosely("Ann, the host, has removed you from room Den: you may not come back."))
    await eventually(ben, "watch Den", "The host of room Den has barred you from it.")
    assert flat(await ben.ask("join Den")) == "The host of room Den has barred you from it."
    assert flat(await ann.ask("allowspec Ben")) == "Ben may come back to room Den."
    await eventually(ben, "watch Den", "Watching: Ben")
    assert "has muted you here" in flat(await ben.ask("say still muted"))  # kick kept the mute


async def test_a_report_on_one_node_reaches_staff_on_the_other(start_node):
    north, south = await start_node("north"), await start_node("south")
    ann, ben = await player(south, "Ann"), await player(south, "Ben")
    mod = await player(north, "Mod")
    mod.client.send("QUIT")
    await mod.client.wait_closed()
    await AccountStore(north.database).set_role("Mod", "moderator")
    mod = await player(north, "Mod", create=False)
    await eventually(ann, "WHO", "Mod")
    assert "(report #1)" in flat(await ann.ask("report Ben=Rude."))
    await mod.client.wait_for(r"\[Staff\] New report #1, about Ben")
    assert "Ann about Ben, in the lobby:" in flat(await mod.ask("@reports"))
    await ben.ask("look")
    assert "report" not in ben.client.transcript.lower()


async def test_a_deletion_is_known_on_every_node(start_node):
    north = await start_node("north", account_delete_days=TINY_COOLOFF_DAYS)
    south = await start_node("south", account_delete_days=TINY_COOLOFF_DAYS)
    ann, ben = await player(south, "Ann"), await player(north, "Ben")
    await ann.ask("newroom Shop")
    await ann.ask("loadcard Box/T/Holds things.")
    await ben.ask("join Shop")
    assert "By: Ann" in flat(await ben.ask("readcard 1"))
    assert "Your player will be deleted at" in flat(await ann.ask("@delete me=secret1"))
    await ann.client.wait_for(r"Your player has been deleted, as you asked\.")
    await ann.client.wait_closed()
    await ben.client.wait_for(r"Ann leaves the table\.")
    assert "By: a former player" in flat(await ben.ask("readcard 1"))
    await eventually(ben, "WHO", "1 player connected")
    fresh = await player(north, "Ann")
    assert "Welcome, Ann!" in fresh.client.transcript
    reports = await check_rooms(north.database) + await replay_rooms(north.database)
    assert reports and [r.problems for r in reports if r.problems] == []


async def test_each_node_leaves_out_its_own_players_who_ignore_the_speaker(prefix, caplog):
    hub = Hub()
    rooms = RoomRegistry(None, lambda room, events: None, hub)  # type: ignore[arg-type]
    cluster = Cluster(hub, rooms, "mqtt://127.0.0.1:1", "north", prefix, 0.5, test_cluster.SECRET, lambda gone: None)
    settings = Settings()
    heard: dict[str, KeptConnection] = {}
    for account_id, name in ((1, "Ann"), (2, "Cy")):
        connection = KeptConnection(account_id, "127.0.0.1", settings)
        hub.log_in(connection, account_id, name, "player", "off")
        heard[name] = connection
    hub.players[1].ignoring = {5}
    lobby = f"{prefix}/lobby/south"
    said = [
        {"say": "from the ignored", "exclude": None, "speaker": 5},
        {"say": "from staff", "exclude": None, "speaker": None},
        {"say": "from an old node", "exclude": None},
        {"say": "malformed", "exclude": None, "speaker": "5"},
    ]
    cluster._take(lobby, {"node": "south", "news": said})
    cluster._take(f"{prefix}/node/north", {"node": "south", "tell": True, "account": 1, "text": "a page", "speaker": 5})
    cluster._take(f"{prefix}/node/north", {"node": "south", "tell": True, "account": 1, "text": "old page"})
    ann, cy = heard["Ann"].take_text(), heard["Cy"].take_text()
    assert "from the ignored" not in ann and "a page" not in ann
    assert "from staff" in ann and "from an old node" in ann and "old page" in ann
    assert "from the ignored" in cy
    assert "malformed" not in ann + cy and "ignored a malformed news item" in caplog.text
