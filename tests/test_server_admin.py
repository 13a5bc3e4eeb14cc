"""Staff running the server: ``@wall`` reaches everyone on every node, ``@shutdown``
counts down on every node and then each stops (its process exiting 0), SIGTERM counts
down as ``--shutdown-countdown`` says, and ``--log-format json`` logs JSON lines."""

from __future__ import annotations

import asyncio
import json
import math
import signal
from pathlib import Path

import pytest

from persistence.accounts import AccountStore
from persistence.database import Database
from persistence.staff_log import StaffLog
from server.app import SHUTDOWN_NOTICE
from server.shutdown import duration, notice
from tests.client import WILL, MudClient, iac
from tests.conftest import WELCOME_END, log_in
from tests.harness import World
from tests.players import ScriptedPlayer, flat, loosely
from tests.scraping import scrape, value
from tests.server_process import ServerProcess
from tests.test_cluster import (  # noqa: F401 (broker_url: a fixture the others use)
    HEARTBEAT,
    MQTT_URL,
    SECRET,
    broker_url,
    cluster_database,
    prefix,
    start_node,
)
from tests.test_help import INDEX_ENTRY, framed, unfilled
from tests.test_telnet_features import NAWS, naws
from tests.web_client import WebClient, web_log_in

SHUTTING_DOWN = loosely(SHUTDOWN_NOTICE)


async def grant(database_url: str, name: str, role: str = "admin") -> None:
    """Give player ``name`` the role ``role`` (as ``dvorak-mush admin grant`` does)."""
    database = Database(database_url)
    try:
        await AccountStore(database).set_role(name, role)
    finally:
        await database.dispose()


async def staff(port: int, database_url: str, name: str, role: str = "admin") -> ScriptedPlayer:
    """A new player ``name`` with ``role``, logged in afresh (the role is read at login)."""
    first = await ScriptedPlayer.connect(port, name)
    await first.close()
    await grant(database_url, name, role)
    return await ScriptedPlayer.connect(port, name, create=False)


async def audit_log(database_url: str) -> list[tuple[str, str, str, str]]:
    database = Database(database_url)
    try:
        return [(e.actor_name, e.action, e.target, e.reason) for e in await StaffLog(database).recent(50)]
    finally:
        await database.dispose()


# -- wording -------------------------------------------------------------------------------


def test_durations_and_notices_read_as_words():
    assert str(duration(600)) == "10 minutes"
    assert str(duration(3)) == "3 seconds"
    assert str(duration(2.2)) == "3 seconds"
    assert str(duration(5400)) == "1 hour 30 minutes"
    assert str(duration(61)) == "1 minute 1 second"
    assert str(notice(300, "Upgrading.", "Ann")) == "*** Ann: the server will shut down in 5 minutes. Upgrading. ***"
    assert str(notice(0, "", "Ann")) == "*** Ann: the server is shutting down now. ***"
    assert str(notice(30, "", "")) == "*** The server will shut down in 30 seconds. ***"


# -- refusals, without sockets ----------------------------------------------------------------


@pytest.fixture
async def staffed(world: World) -> World:
    """Ann an administrator, Mo a moderator, Bo a player, all logged in."""
    await world.log_in("Ann", "Mo", "Bo")
    await AccountStore(world.database).set_role("Ann", "admin")
    await AccountStore(world.database).set_role("Mo", "moderator")
    for name in ("Ann", "Mo"):
        await world.call(name, "LOGOUT")
        await world.call(name, f"connect {name} secret1")
    return world


async def test_players_have_no_staff_commands_and_moderators_no_shutdown(staffed):
    for line in ("@wall hello", "@shutdown", "@shutdown/cancel"):
        seen = await staffed.call("Bo", line)
        assert seen["Bo"].startswith("Huh?"), seen
        assert not seen["Ann"] and not seen["Mo"]
    assert (await staffed.call("Mo", "@shutdown 5"))["Mo"].startswith("Huh?")
    assert "@wall" not in (await staffed.call("Bo", "help"))["Bo"]
    moderator_help = (await staffed.call("Mo", "help"))["Mo"]
    assert "@wall" in moderator_help and "@shutdown" not in moderator_help
    admin_help = (await staffed.call("Ann", "help"))["Ann"]
    assert "Admin:" in admin_help and "@wall" in admin_help and "@shutdown" in admin_help
    assert "Shut the server down" in (await staffed.call("Ann", "help @shutdown"))["Ann"]
    assert not staffed.countdown.running
    assert await StaffLog(staffed.database).recent() == []


async def test_a_moderator_walls_everyone_and_it_is_audited(staffed):
    seen = await staffed.call("Mo", "@wall  Spam in the lobby: do not click its links. ")
    line = "Announcement from Mo: Spam in the lobby: do not click its links."
    assert all(flat(text) == line for text in seen.values()), seen
    [entry] = await StaffLog(staffed.database).recent(about="Mo")
    assert (entry.action, entry.reason) == ("wall", "Spam in the lobby: do not click its links.")


@pytest.mark.parametrize(
    ("line", "refusal"),
    [
        ("@wall", "Wall what?"),
        ("@wall    ", "Wall what?"),
        ("@wall " + "x" * 1001, "A wall is at most 1000 characters; yours has 1001. Nothing was sent."),
        ("@shutdown nan", "Give the time in minutes"),
        ("@shutdown inf", "Give the time in minutes"),
        ("@shutdown -1", "Give the time in minutes"),
        ("@shutdown 1e3", "Give the time in minutes"),
        ("@shutdown 5 minutes", "Give the time in minutes"),
        ("@shutdown 0x10", "Give the time in minutes"),
        ("@shutdown 1441", "A shutdown is at most a day away (1440 minutes)."),
        ("@shutdown 86401s", "A shutdown is at most a day away"),
        ("@shutdown 99999999999", "Give the time in minutes"),
        ("@shutdown 5=" + "m" * 501, "A shutdown message is at most 500 characters; yours has 501."),
        ("@shutdown/cancel", "No shutdown is counting down."),
        ("@shutdown/cancel now", '@shutdown has one switch: "@shutdown/cancel", alone.'),
        ("@shutdown/now 5", '@shutdown has one switch: "@shutdown/cancel", alone.'),
    ],
)
async def test_bad_staff_input_is_refused_and_changes_nothing(staffed, line, refusal):
    seen = await staffed.call("Ann", line)
    assert flat(seen["Ann"]).startswith(refusal), seen
    assert not seen["Bo"] and not seen["Mo"]
    assert not staffed.countdown.running
    assert [e for e in await StaffLog(staffed.database).recent() if e.actor_name == "Ann"] == []


async def test_a_second_shutdown_is_refused_while_one_counts_down(staffed):
    seen = await staffed.call("Ann", "@shutdown 90s=Moving house.")
    assert flat(seen["Bo"]) == "*** Ann: the server will shut down in 1 minute 30 seconds. Moving house. ***"
    assert "Every node shuts down in 1 minute 30 seconds." in flat(seen["Ann"])
    refused = await staffed.call("Ann", "@shutdown 1")
    assert flat(refused["Ann"]).startswith("A shutdown is counting down already (1 minute")
    assert not refused["Bo"]
    cancelled = await staffed.call("Ann", "@shutdown/cancel")
    assert flat(cancelled["Bo"]) == "*** Ann: the shutdown is cancelled. ***"
    assert not staffed.countdown.running and not staffed.shutdown_due
    actions = [(e.action, e.target, e.reason) for e in await StaffLog(staffed.database).recent(about="Ann")]
    assert actions[:2] == [("shutdown-cancel", "", ""), ("shutdown", "in 1 minute 30 seconds", "Moving house.")]


@pytest.mark.parametrize(
    "announcement",
    [
        {"kind": "wall", "from": "Eve", "text": ""},
        {"kind": "wall", "from": "", "text": "hi"},
        {"kind": "wall", "from": 7, "text": "hi"},
        {"kind": "wall", "from": "Eve", "text": ["hi"]},
        {"kind": "wall", "from": "Eve", "text": "x" * 1001},
        {"kind": "wall", "from": "E" * 33, "text": "hi"},
        {"kind": "wall", "text": "hi"},
        {"kind": "shutdown", "seconds": True, "message": "", "by": "Eve"},
        {"kind": "shutdown", "seconds": math.nan, "message": "", "by": "Eve"},
        {"kind": "shutdown", "seconds": math.inf, "message": "", "by": "Eve"},
        {"kind": "shutdown", "seconds": -1, "message": "", "by": "Eve"},
        {"kind": "shutdown", "seconds": 86401, "message": "", "by": "Eve"},
        {"kind": "shutdown", "seconds": "10", "message": "", "by": "Eve"},
        {"kind": "shutdown", "seconds": 10, "message": None, "by": "Eve"},
        {"kind": "shutdown", "seconds": 10, "message": "m" * 501, "by": "Eve"},
        {"kind": "shutdown", "seconds": 10, "message": ""},
        {"kind": "shutdown", "seconds": 10, "message": "", "by": ""},
        {"kind": "shutdown-cancel"},
        {"kind": "shutdown-cancel", "by": 3},
    ],
)
async def test_malformed_announcements_from_other_nodes_are_refused_whole(staffed, announcement):
    staffed.take_output()
    with pytest.raises(ValueError):
        staffed.hub.announced(announcement)
    assert not staffed.countdown.running
    assert set(staffed.take_output().values()) == {""}


async def test_announced_text_is_cleaned_of_escape_sequences(staffed):
    staffed.take_output()
    staffed.hub.announced({"kind": "wall", "from": "Eve\x1b[2J", "text": "hi\x1b]0;pwned\x07 there\x00"})
    staffed.hub.announced({"kind": "shutdown", "seconds": 600, "message": "bye\x1b[31m", "by": "Eve"})
    staffed.hub.announced({"kind": "shutdown-cancel", "by": "Eve"})
    await asyncio.sleep(0)
    seen = staffed.take_output()
    assert "\x1b" not in seen["Bo"] and "\x00" not in seen["Bo"]
    assert "Announcement from Eve: hi there" in seen["Bo"]
    assert "*** Eve: the server will shut down in 10 minutes. bye ***" in seen["Bo"]


# -- over real connections, on one node --------------------------------------------------------


async def test_a_wall_reaches_telnet_and_web_players_in_the_lobby_and_at_tables(start_server, database_url):
    server = await start_server()
    ann = await staff(server.port, database_url, "Ann", "moderator")
    bo = await ScriptedPlayer.connect(server.port, "Bo")
    await bo.ask("newroom Quiet Corner")
    web = await WebClient.open(server.web_port)
    await web_log_in(web, "Cy")
    web.send("watch quiet corner")
    await web.expect("Watching")
    assert flat(await bo.ask("@wall hello")).startswith("Huh?")
    await ann.ask("@wall The server restarts at noon (UTC), for about a minute.")
    wanted = loosely("Announcement from Ann: The server restarts at noon (UTC), for about a minute.")
    await bo.client.expect(wanted)
    await web.expect(wanted)
    assert wanted.search(ann.client.transcript)
    await web.close()
    assert ("Ann", "wall", "", "The server restarts at noon (UTC), for about a minute.") in await audit_log(
        database_url
    )


async def test_a_timed_shutdown_tells_everyone_then_stops_the_node(start_server, database_url):
    server = await start_server()
    ann = await staff(server.port, database_url, "Ann")
    bo = await ScriptedPlayer.connect(server.port, "Bo")
    await bo.ask("newroom Den")
    await ann.ask("@shutdown 0.05=Back in a minute.")
    await bo.client.expect(loosely("*** Ann: the server will shut down in 3 seconds. Back in a minute. ***"))
    await asyncio.wait_for(server.stopped(), 15)
    await bo.client.expect(SHUTTING_DOWN)
    await bo.client.wait_closed()
    await ann.client.wait_closed()
    assert ("Ann", "shutdown", "in 3 seconds", "Back in a minute.") in await audit_log(database_url)


async def test_shutdown_cancelled_tells_everyone_and_the_node_runs_on(start_server, database_url):
    server = await start_server()
    ann = await staff(server.port, database_url, "Ann")
    bo = await ScriptedPlayer.connect(server.port, "Bo")
    await ann.ask("@shutdown 0.1")
    await bo.client.expect(loosely("*** Ann: the server will shut down in 6 seconds. ***"))
    assert server.countdown.running and not server.accepting()
    await ann.ask("@shutdown/cancel")
    await bo.client.expect(loosely("*** Ann: the shutdown is cancelled. ***"))
    await asyncio.sleep(7)
    assert 'You say, "still here"' in await bo.ask("say still here")
    assert server.accepting()
    assert SHUTDOWN_NOTICE not in bo.client.transcript


@pytest.mark.parametrize("width", [60, 132])
async def test_staff_commands_help_is_filled_to_the_window(start_server, database_url, width):
    server = await start_server()
    await (await ScriptedPlayer.connect(server.port, "Ann")).close()
    await grant(database_url, "Ann")
    client = await MudClient.open(server.port)
    client.send(iac(WILL, NAWS) + naws(width))
    await client.expect(WELCOME_END)
    await log_in(client, "Ann", create=False)
    client.send("OUTPUTPREFIX <<")
    client.send("OUTPUTSUFFIX >>")
    index = await framed(client, "help")
    staff_set = [m.group(1) for m in map(INDEX_ENTRY.match, index[index.index("Staff:") + 1 :]) if m]
    admin_set = [m.group(1) for m in map(INDEX_ENTRY.match, index[index.index("Admin:") + 1 :]) if m]
    assert "@wall" in staff_set and admin_set[-1] == "@shutdown"
    for name in ("@wall", "@shutdown"):
        lines = await framed(client, f"help {name}")
        assert lines[0] == f"Help for {name}:", lines
        assert not unfilled(lines, width), unfilled(lines, width)
        assert all(len(line) <= width for line in lines if not line.startswith("  ")), lines
    await client.close()


# -- several nodes -----------------------------------------------------------------------------


async def test_a_wall_reaches_every_node_and_a_shutdown_is_cancelled_on_every_node(
    start_node,  # noqa: F811
    cluster_database,  # noqa: F811
):
    north, south = await start_node("north"), await start_node("south")
    ann = await staff(north.port, cluster_database, "Ann")
    bo = await ScriptedPlayer.connect(south.port, "Bo")
    cy = await ScriptedPlayer.connect(south.port, "Cy")
    await cy.ask("newroom/gnav Fjord")
    while "Bo" not in flat(await ann.ask("WHO")):
        await asyncio.sleep(0.1)
    assert "Announcement from Ann: Hello, every node." in await ann.ask("@wall Hello, every node.")
    for player in (bo, cy):
        await player.client.expect("Announcement from Ann: Hello, every node.")
    for node in (north, south):
        samples = await scrape(node.web_port)
        assert value(samples, "dvorak_mqtt_connected") == 1
        assert value(samples, "dvorak_mqtt_messages_sent_total") > 0
        assert value(samples, "dvorak_mqtt_messages_received_total") > 0
        assert value(samples, "dvorak_mqtt_messages_refused_total") == 0
        assert value(samples, "dvorak_players_online") + value(samples, "dvorak_players_elsewhere") == 3

    await ann.ask("@shutdown 10")
    for player in (bo, cy):
        await player.client.expect(loosely("*** Ann: the server will shut down in 10 minutes. ***"))
    assert north.countdown.running and south.countdown.running
    assert flat(await bo.ask("say fine")).startswith("You say")
    await ann.ask("@shutdown/cancel")
    for player in (bo, cy):
        await player.client.expect(loosely("*** Ann: the shutdown is cancelled. ***"))
    assert not north.countdown.running and not south.countdown.running


async def test_a_timed_shutdown_reaches_everyone_on_two_nodes_and_both_processes_exit_0(
    cluster_database,  # noqa: F811
    broker_url,  # noqa: F811
    prefix,  # noqa: F811
    tmp_path,
):
    nodes = []
    for name in ("east", "west"):
        node = ServerProcess(cluster_database, tmp_path / name)
        node.env.update(
            DVORAK_MQTT_URL=MQTT_URL,
            DVORAK_NODE_NAME=name,
            DVORAK_MQTT_PREFIX=prefix,
            DVORAK_CLUSTER_HEARTBEAT=str(HEARTBEAT),
            DVORAK_CLUSTER_SECRET=SECRET,
        )
        await node.start()
        nodes.append(node)
    east, west = nodes
    try:
        ann = await staff(east.port, cluster_database, "Ann")
        bo = await ScriptedPlayer.connect(west.port, "Bo")
        await bo.ask("newroom Den")
        cy = await ScriptedPlayer.connect(east.port, "Cy")
        while "Bo" not in flat(await ann.ask("WHO")):
            await asyncio.sleep(0.1)
        told = loosely("*** Ann: the server will shut down in 3 seconds. Upgrading. ***")
        assert told.search(await ann.ask("@shutdown 0.05=Upgrading."))
        for player in (bo, cy):
            await player.client.expect(told)
        assert await east.exited(20) == 0
        assert await west.exited(20) == 0
        for player in (ann, bo, cy):
            await player.client.expect(SHUTTING_DOWN)
            await player.client.wait_closed()
        for node in nodes:
            assert "the shutdown countdown is over" in node.log and "stopped" in node.log
            assert "Traceback" not in node.log
    finally:
        for node in nodes:
            if node.process is not None and node.process.returncode is None:
                await node.stop(signal.SIGKILL)


# -- SIGTERM and the log ------------------------------------------------------------------------


async def test_sigterm_with_a_countdown_tells_players_then_stops_cleanly(database_url, tmp_path):
    node = ServerProcess(database_url, tmp_path)
    node.env["DVORAK_SHUTDOWN_COUNTDOWN"] = "2"
    await node.start()
    alice = await MudClient.open(node.port)
    await alice.expect(WELCOME_END)
    await log_in(alice, "Alice")
    assert node.process is not None
    node.process.send_signal(signal.SIGTERM)
    await alice.expect(loosely("*** The server will shut down in 2 seconds. ***"))
    assert await node.exited(20) == 0
    await alice.expect(SHUTTING_DOWN)
    await alice.wait_closed()
    assert "asked to stop: shutting down in 2 s" in node.log and "stopped" in node.log


async def test_a_second_sigterm_stops_at_once(database_url, tmp_path):
    node = ServerProcess(database_url, tmp_path)
    node.env["DVORAK_SHUTDOWN_COUNTDOWN"] = "600"
    await node.start()
    alice = await MudClient.open(node.port)
    await alice.expect(WELCOME_END)
    await log_in(alice, "Alice")
    assert node.process is not None
    node.process.send_signal(signal.SIGTERM)
    await alice.expect(loosely("*** The server will shut down in 10 minutes. ***"))
    assert await node.stop(signal.SIGTERM) == 0
    await alice.expect(SHUTTING_DOWN)
    assert "asked to stop: shutting down now" in node.log


async def test_an_impossible_countdown_is_refused_at_start(database_url, tmp_path):
    for seconds in ("-1", "nan", "90000"):
        node = ServerProcess(database_url, tmp_path)
        node.env["DVORAK_SHUTDOWN_COUNTDOWN"] = seconds
        with pytest.raises(AssertionError, match="--shutdown-countdown: 0 to 86400 seconds"):
            await node.start()
        assert await node.exited(10) == 1


async def test_json_log_lines_parse_as_json(database_url, tmp_path: Path):
    node = ServerProcess(database_url, tmp_path)
    node.env["DVORAK_LOG_FORMAT"] = "json"
    await node.start()
    client = await MudClient.open(node.port)
    await client.expect(WELCOME_END)
    await client.command("create Alice secret1", r"Welcome")
    await client.command("LOGOUT", WELCOME_END)
    await client.command("connect Alice nope-nope", r"different password")
    await client.close()
    await asyncio.sleep(0.1)
    assert await node.stop() == 0
    records = [json.loads(line) for line in node.log.splitlines()]
    assert all({"time", "level", "logger", "message"} <= set(record) for record in records)
    messages = [record["message"] for record in records]
    assert any(m.startswith("listening for telnet") for m in messages)
    assert any(m.startswith("failed login as 'Alice'") for m in messages)
    assert records[0]["time"].endswith("+00:00") and records[0]["level"] == "INFO"


async def test_a_countdown_sigterm_asked_for_is_neither_put_off_nor_cancelled_by_another_nodes_shutdown(staffed):
    # A service manager's SIGTERM must stop the node: an administrator's @shutdown on
    # another node replaced its countdown by a longer one, which @shutdown/cancel then
    # cancelled; and a SIGTERM during an announced countdown kept that one, cancellable.
    countdown = staffed.countdown
    countdown.start_here(60)
    staffed.hub.announced({"kind": "shutdown", "seconds": 3600, "message": "Later.", "by": "Eve"})
    staffed.hub.announced({"kind": "shutdown-cancel", "by": "Eve"})
    left = countdown.seconds_left
    assert left is not None and left <= 60

    # One announced sooner than SIGTERM's is welcome, and still stops the node.
    staffed.hub.announced({"kind": "shutdown", "seconds": 30, "message": "Sooner.", "by": "Eve"})
    staffed.hub.announced({"kind": "shutdown-cancel", "by": "Eve"})
    left = countdown.seconds_left
    assert left is not None and left <= 30
    countdown.halt()

    staffed.hub.announced({"kind": "shutdown", "seconds": 60, "message": "", "by": "Eve"})
    countdown.start_here(600)
    staffed.hub.announced({"kind": "shutdown-cancel", "by": "Eve"})
    left = countdown.seconds_left
    assert left is not None and left <= 60
    countdown.halt()
