"""No input can hurt the server or a player: fuzzing with raw bytes and with random
commands, floods, connection limits, logins that never come, clients that stop reading."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import re
import socket
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import update

from commands.dispatch import in_a_room
from commands.dvorak.storage.models import CardRow
from games import KINDS
from server.app import FLOOD_NOTICE, LOGIN_TIMEOUT_NOTICE, MushServer
from server.audit import check_rooms
from tests.client import IAC, SB, MudClient
from tests.conftest import WELCOME_END, log_in
from tests.players import ScriptedPlayer, flat
from tests.server_process import ServerProcess, run_cli


def assert_no_errors_logged(caplog: pytest.LogCaptureFixture) -> None:
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]


async def table_in_play(port: int, room: str = "Target") -> ScriptedPlayer:
    host = await ScriptedPlayer.connect(port, "Host")
    await host.ask(f"newroom {room}")
    await host.ask("set turns=off")
    for i in range(20):
        await host.ask(f"loadcard Card {i}/{'AT'[i % 2]}/Text {i}.")
    await host.ask("start")
    return host


def garbage(rng: random.Random) -> bytes:
    """One of the nastier things a socket can be sent."""
    kind = rng.randrange(7)
    if kind == 0:
        return os.urandom(rng.randrange(1, 4000))
    if kind == 1:
        return bytes([IAC]) * rng.randrange(1, 3000)
    if kind == 2:
        return bytes([IAC, SB, rng.randrange(256)]) + os.urandom(rng.randrange(1, 3000))
    if kind == 3:
        return b"\x00" * rng.randrange(1, 2000) + b"\r\n"
    if kind == 4:
        return b"say \xc3\x28\xa0\xa1\xe2\x28\xa1\xf0\x28\x8c\xbc" * rng.randrange(1, 50) + b"\r\n"
    if kind == 5:
        return b"x" * rng.randrange(9000, 40000) + b"\r\n"
    return b"look\r\n" * rng.randrange(100, 3000)


async def test_raw_socket_fuzzing_while_two_players_keep_playing(start_server, caplog):
    caplog.set_level(logging.INFO)
    server = await start_server(login_timeout=5.0)
    host = await table_in_play(server.port)
    guest = await ScriptedPlayer.connect(server.port, "Guest")
    await guest.ask("join target")
    rng = random.Random(6)

    async def attacker(seed: int) -> None:
        local = random.Random(seed)
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        try:
            for _ in range(30):
                writer.write(garbage(local))
                await writer.drain()
                if local.random() < 0.3:
                    await asyncio.sleep(0.01)
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    attacks = [asyncio.create_task(attacker(rng.randrange(10**9))) for _ in range(6)]
    for _ in range(10):
        for player in (host, guest):
            drawn = re.search(r"You draw #(\d+)", await player.ask("draw"))
            assert drawn is not None
            assert f"You discard #{drawn.group(1)}" in flat(await player.ask(f"discard {drawn.group(1)}"))
        await host.ask("say still fine")
    await asyncio.gather(*attacks)

    fresh = await MudClient.open(server.port)
    await fresh.expect(WELCOME_END)
    await fresh.command("WHO", r"2 players connected")
    assert all(report.sound for report in await check_rooms(server.database))
    assert_no_errors_logged(caplog)


#: Every command usable in a room, except those that end the session (hanging up is not
#: breaking anything).
command_names = sorted(
    {
        name
        for game in KINDS
        for command_set in in_a_room(game)
        for c in command_set.commands
        for name in (c.key, *c.aliases)
    }
    - {"QUIT", "LOGOUT"}
)
arguments = st.one_of(
    st.text(max_size=40),
    st.integers(-5, 60).map(str),
    st.lists(
        st.sampled_from(["1", "#2", "99", "me", "Host", "Fuzzer", "to", "on", "=", "/", "A", "T", "on"]), max_size=6
    ).map(" ".join),
    st.text(alphabet="\x1b[]0123456789;m\x07\x00/=#%r", max_size=30),
)
command_lines = st.tuples(st.sampled_from(command_names), arguments).map(lambda pair: f"{pair[0]} {pair[1]}")


class ServerThread:
    """A server with its own event loop in a thread, for tests driven by hypothesis."""

    def __init__(self, settings_) -> None:  # type: ignore[no-untyped-def]
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server = MushServer(settings_)
        self.call(self.server.start())

    def call(self, coroutine):  # type: ignore[no-untyped-def]
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(60)

    def stop(self) -> None:
        self.call(self.server.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


class LineClient:
    """A blocking telnet-ish client for a test running outside any event loop."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.buffer = b""
        self.read_until(b'create "Jo Smith" <password>')

    def send(self, line: str) -> None:
        self.sock.sendall(line.encode("utf-8", "surrogateescape") + b"\r\n")

    def run_all(self, lines: list[str]) -> None:
        """Send ``lines`` and wait until the server has answered every one."""
        for line in lines:
            self.send(line)
        self.send("OUTPUTSUFFIX <<done>>")
        self.send("WHO")
        self.read_until(b"<<done>>")
        self.send("OUTPUTSUFFIX")

    def read_until(self, marker: bytes) -> bytes:
        deadline = time.monotonic() + 15
        while marker not in self.buffer:
            assert time.monotonic() < deadline, f"no {marker!r} in {self.buffer[-500:]!r}"
            data = self.sock.recv(65536)
            assert data, "the server hung up"
            self.buffer += data
        before, _, self.buffer = self.buffer.partition(marker)
        return before

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def fuzz_server(settings):  # type: ignore[no-untyped-def]
    from dataclasses import replace

    running = ServerThread(replace(settings, command_burst=10_000))
    host = LineClient(running.server.port)
    for line in (
        ["create Host secret1", "newroom Fuzz", "set turns=off"]
        + [f"loadcard Card {i}/{'AT'[i % 2]}/Text {i}." for i in range(30)]
        + ["start", "WHO"]
    ):
        host.send(line)
    host.read_until(b"player connected.")
    player = LineClient(running.server.port)
    player.send("create Fuzzer secret1")
    player.send("join fuzz")
    player.send("WHO")
    player.read_until(b"players connected")
    yield running, player
    player.close()
    host.close()
    running.stop()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(command_lines, min_size=1, max_size=25))
def test_random_commands_with_random_arguments_never_break_a_room(fuzz_server, lines):
    running, player = fuzz_server
    player.run_all(["join fuzz", *lines])
    reports = running.call(check_rooms(running.server.database))
    assert all(report.sound for report in reports), reports


async def test_bursts_are_paced_not_dropped_and_a_sustained_flood_is_cut_off(start_server):
    server = await start_server(command_rate=50.0, command_burst=20, flood_seconds=1.0)
    paced = await MudClient.open(server.port)
    await paced.expect(WELCOME_END)
    await log_in(paced, "Paster")
    paced.send(b"".join(f"@@ line {i}\r\n".encode() for i in range(40)) + b"say all forty read\r\n")
    await paced.expect(r'You say, "all forty read"', timeout=10)
    flood = await MudClient.open(server.port)
    await flood.expect(WELCOME_END)
    flood.send(b"WHO\r\n" * 5000)
    await flood.expect(r"\*\*\* You send commands far too fast", timeout=15)
    await flood.wait_closed()
    assert FLOOD_NOTICE in flood.transcript
    await paced.command("say the others are unaffected", r"You say")


async def test_connection_limits_per_address_and_in_all(start_server):
    server = await start_server(max_connections_per_address=3)
    clients = [await MudClient.open(server.port) for _ in range(3)]
    for client in clients:
        await client.expect(WELCOME_END)
    refused = await MudClient.open(server.port)
    await refused.expect(r"Too many connections from your address \(the limit is 3\)")
    await refused.wait_closed()
    full = await start_server(max_connections=2)
    first, second = await MudClient.open(full.port), await MudClient.open(full.port)
    await first.expect(WELCOME_END)
    await second.expect(WELCOME_END)
    third = await MudClient.open(full.port)
    await third.expect(r"The server is full")
    await third.wait_closed()


async def test_connections_closed_at_once_leave_no_error_in_the_log(database_url, tmp_path):
    # What a load balancer's health check does, every second; on the server as operators
    # run it (uvloop, where it is installed).
    node = ServerProcess(database_url, tmp_path)
    node.env["DVORAK_NEGOTIATION_WAIT"] = "0.5"
    await node.start()
    for _ in range(5):
        _, writer = await asyncio.open_connection("127.0.0.1", node.port)
        writer.close()
        await writer.wait_closed()
    await asyncio.sleep(1.0)
    client = await MudClient.open(node.port)
    await client.expect(WELCOME_END)
    await client.close()
    assert await node.stop() == 0
    assert "Exception in callback" not in node.log and "Traceback" not in node.log


async def proxied(port: int, header: bytes) -> MudClient:
    """A connection through a balancer speaking the PROXY protocol, its header sent."""
    client = await MudClient.open(port)
    client.send(header)
    return client


async def test_behind_a_balancer_the_proxy_header_gives_each_player_s_own_address(start_server, caplog):
    caplog.set_level(logging.INFO)
    server = await start_server(proxy_protocol=True, max_connections_per_address=2, login_failure_limit=2)
    ann = await proxied(server.port, b"PROXY TCP4 127.0.0.7 127.0.0.1 40001 6250\r\n")
    await ann.expect(WELCOME_END)
    await log_in(ann, "Ann")
    assert "login Ann (#1) from 127.0.0.7" in caplog.text
    # The limits count each player's address, not the balancer's.
    guesser = await proxied(server.port, b"PROXY TCP4 127.0.0.8 127.0.0.1 40002 6250\r\n")
    await guesser.expect(WELCOME_END)
    for _ in range(2):
        await guesser.command("connect Ann wrong", r"different password")
    await guesser.command("connect Ann secret1", r"Too many failed logins from your address")
    second = await proxied(server.port, b"PROXY TCP4 127.0.0.8 127.0.0.1 40003 6250\r\n")
    await second.expect(WELCOME_END)
    third = await proxied(server.port, b"PROXY TCP4 127.0.0.8 127.0.0.1 40004 6250\r\n")
    await third.expect(r"Too many connections from your address \(the limit is 2\)")
    again = await proxied(server.port, b"PROXY TCP6 ::1 ::1 40005 6250\r\nconnect Ann secret1\r\n")
    await again.expect(r"Welcome back, Ann\.")
    # A balancer's own check connection: its own address.
    check = await proxied(server.port, b"PROXY UNKNOWN\r\n")
    await check.expect(WELCOME_END)
    # Anything else is not from the balancer: closed before a word is said.
    mapped = await proxied(server.port, b"PROXY TCP6 ::ffff:127.0.0.9 ::1 40006 6250\r\nconnect Ann secret1\r\n")
    await mapped.expect(r"Welcome back, Ann\.")
    assert "login Ann (#1) from 127.0.0.9" in caplog.text
    junks = (
        b"connect Ann secret1\r\n",
        b"PROXY TCP4 ::1 127.0.0.1 1 2\r\n",
        b"\xff" * 200,
        b"PROXY TCP6 fe80::1%\x1b[31m ::1 1 2\r\n",
        b"PROXY TCP4 127.0.0.1 127.0.0.1 1 2" + b" " * 100 + b"\r\n",
    )
    for junk in junks:
        stranger = await proxied(server.port, junk)
        await stranger.wait_closed()
        assert "Welcome" not in stranger.transcript
    assert caplog.text.count("did not start with a PROXY header") == len(junks)
    await ann.command("WHO", r"Ann")


async def test_connections_that_never_log_in_are_closed(start_server):
    # Long enough for a player to be made in time on a loaded machine (0.5 s was not,
    # once, beside other tests on PostgreSQL), short enough to wait out.
    server = await start_server(login_timeout=2.0)
    lingering = await MudClient.open(server.port)
    await lingering.expect(WELCOME_END)
    await lingering.wait_closed(timeout=8)
    assert LOGIN_TIMEOUT_NOTICE in lingering.transcript
    prompt = await MudClient.open(server.port)
    await prompt.expect(WELCOME_END)
    await log_in(prompt, "Quick")
    await asyncio.sleep(2.5)
    await prompt.command("WHO", r"1 player connected")


async def test_a_client_that_stops_reading_is_cut_off_and_keeps_its_seat(start_server):
    server = await start_server(output_limit=64 * 1024, command_burst=10_000)
    host = await table_in_play(server.port)
    sleepy = socket.create_connection(("127.0.0.1", server.port))
    sleepy.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sleepy.sendall(b"create Sleepy secret1\r\njoin target\r\n")
    await host.client.expect(r"Sleepy takes a seat at the table\.")
    # Ask for far more output than the kernel's buffers hold, and never read any of it.
    await asyncio.get_running_loop().run_in_executor(None, sleepy.sendall, b"help\r\n" * 3000)
    await host.client.expect(r"Sleepy has disconnected; the seat is kept\.", timeout=30)
    assert "Sleepy" in (await host.table())[1]
    assert "You draw #" in flat(await host.ask("draw"))
    sleepy.close()


async def test_escape_sequences_in_cards_never_reach_another_terminal(server):
    host = await table_in_play(server.port, room="Escapes")
    watcher = await ScriptedPlayer.connect(server.port, "Watcher")
    await watcher.ask("watch escapes")
    await host.ask("newcard \x1b[2JWiper\x1b]0;pwned\x07/A/\x1b[31mRed\x1b[0m text\x9b5n.")
    await host.ask("loadcard Bell\x07/T/\x1bPdevice control\x1b\\ ok")
    await watcher.ask("viewall")
    await watcher.ask("viewvote")
    assert "Wiper" in watcher.client.transcript
    for forbidden in (b"\x1b", b"\x07", b"\x9b"):
        assert forbidden not in bytes(watcher.client.raw)


#: What a hostile deck file puts in every field: an OSC title change, a screen clear,
#: the server's own colour markup, an 8-bit CSI, a Unicode line separator, a bidi override.
HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x02\x01\x03\x9b31m\u2028fake\u202e"
FORBIDDEN = ("\x1b", "\x07", "\x9b", "\x01", "\x02", "\x03", "\u2028", "\u202e")


def hostile_decks(directory) -> dict[str, object]:  # type: ignore[no-untyped-def]
    """One deck file per import form, with the hostile text in every field it has."""
    h = HOSTILE
    json_deck = directory / "hostile.json"
    json_deck.write_text(
        json.dumps(
            {
                "format": "dvorak-deck",
                "cards": [
                    {
                        "name": f"J{h}name",
                        "type": f"T{h}",
                        "text": f"J{h}text",
                        "colour": f"hw{h}",
                        "creator": f"J{h}creator",
                    }
                ],
                "rules": [{"name": f"J{h}rule", "text": f"J{h}rule text"}],
            }
        )
    )
    tsv_deck = directory / "hostile.tsv"
    tsv_deck.write_text(
        "Name\tSet\tImageFile\tType\tCornerValue\tText\tFlavorText\tCreator\n"
        f"S{h}name\tset\t\tThing{h}\t\tS{h}text\tS{h}flavour\tS{h}creator\n"
    )
    paste_deck = directory / "hostile.txt"
    paste_deck.write_text(f"loadcard hw/P{h}name/Thing{h}/P{h}text\nloadrule P{h}rule/P{h}rule text\n")
    return {"json": json_deck, "tsv": tsv_deck, "paste": paste_deck}


async def test_every_field_of_every_imported_deck_is_cleaned(start_server, database_url, tmp_path):
    for form, path in hostile_decks(tmp_path).items():
        assert "cards and" in await run_cli(database_url, "deck", "import", str(path), "--room", f"Room {form}")
    for form in ("mush", "dvorax", "json", "tsv"):
        exported = await run_cli(database_url, "deck", "export", "--room", "Room json", "--format", form)
        assert not any(bad in exported for bad in FORBIDDEN), form
    server = await start_server()
    viewer = await ScriptedPlayer.connect(server.port, "Viewer")
    await viewer.ask("@color on")
    for form in ("json", "tsv", "paste"):
        await viewer.ask(f"join room {form}")
        for command in ("viewall", "logcards", "rules", "look", "readcard 1", "readcard 2", "log"):
            await viewer.ask(command)
        for export in ("mush", "dvorax", "json", "tsv"):
            await viewer.ask(f"exportdeck {export}")
        await viewer.ask("leave")
    text = bytes(viewer.client.raw).decode("utf-8", errors="replace")
    assert "Jfakename" in text and "Sfakename" in text and "Pfakename" in text
    # Colour is on: the server's own colour (SGR) sequences are all the escapes there are.
    leaked = [repr(bad) for bad in FORBIDDEN if bad in re.sub(r"\x1b\[[0-9;]*m", "", text)]
    assert leaked == []


async def test_a_colour_stored_before_cleaning_existed_never_reaches_a_terminal(server):
    host = await ScriptedPlayer.connect(server.port, "Host")
    await host.ask("newroom Old")
    await host.ask("loadcard Old card/T/From an old import.")
    room = await server.rooms.find("old")
    assert room is not None
    bad = "hw\x02\x1b]0;x\x07\x1b[2J"
    room.table.state.cards[1].colour = bad
    async with server.database.transaction() as connection:
        await connection.execute(update(CardRow).where(CardRow.number == 1).values(colour=bad[:8]))
    for colour in ("on", "off"):
        await host.ask(f"@color {colour}")
        for command in ("viewall", "logcards", "exportdeck dvorax", "exportdeck json", "readcard 1"):
            await host.ask(command)
    raw = bytes(host.client.raw).decode("utf-8", errors="replace")
    assert "]0;x" not in raw and "\x1b[2J" not in raw and "\x02" not in raw


async def test_a_proxy_header_is_believed_only_from_a_configured_balancer(start_server, caplog):
    caplog.set_level(logging.INFO)
    server = await start_server(proxy_protocol=True, proxy_from="127.0.0.2", login_failure_limit=3)
    owner = await MudClient.open(server.port)
    owner.send(b"PROXY TCP4 127.0.0.50 127.0.0.1 40000 6250\r\n")
    await owner.expect(WELCOME_END)
    await log_in(owner, "Ann")
    # Connecting straight to the node, not through the balancer: a header is just a line,
    # and every guess counts against the guesser's own address, whatever it claims.
    replies = []
    for i in range(6):
        guesser = await MudClient.open(server.port)
        guesser.send(f"PROXY TCP4 10.0.0.{i} 127.0.0.1 4000{i} 6250\r\n".encode())
        await guesser.expect(WELCOME_END)
        replies.append((await guesser.command("connect Ann guess", r"different password|Too many failed")).group())
        await guesser.close()
    assert replies.count("different password") == 3
    assert "10.0.0." not in caplog.text and "127.0.0.50" not in caplog.text
    # Through the balancer (from its address), the header gives the player's address.
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port, local_addr=("127.0.0.2", 0))
    balanced = MudClient(reader, writer)
    balanced.send(b"PROXY TCP4 127.0.0.9 127.0.0.1 40009 6250\r\n")
    await balanced.expect(WELCOME_END)
    await balanced.command("connect Ann secret1", r"Welcome back, Ann\.")
    assert "login Ann (#1) from 127.0.0.9" in caplog.text
    await balanced.close()
    await owner.close()
