"""Telnet for every client: NAWS and resizes, TTYPE/MTTS colour, CHARSET, MCCP2, GMCP,
MSSP, hidden passwords, TLS; with telnetlib3's client, the telnet program and raw sockets."""

from __future__ import annotations

import asyncio
import importlib.metadata
import json
import shutil
import ssl
import struct
from types import SimpleNamespace
from typing import Any, cast

import pexpect
import pytest
import telnetlib3
from telnetlib3.mud import gmcp_decode, gmcp_encode
from telnetlib3.telopt import GMCP, SB, SE

from server.connection import TelnetConnection
from server.telnet import gmcp_message
from tests.client import DO, IAC, WILL, MudClient, iac, subnegotiation
from tests.conftest import IN_CI, WELCOME_END, log_in

NAWS, TTYPE, CHARSET, MSSP_OPTION, NEW_ENVIRON = 31, 24, 42, 70, 39
TTYPE_IS, TTYPE_SEND, CHARSET_ACCEPTED = 0, 1, 2
ENVIRON_SEND, ENVIRON_VAR = 1, 0


def naws(cols: int, rows: int = 24) -> bytes:
    return subnegotiation(NAWS, struct.pack(">HH", cols, rows))


async def test_output_wraps_to_the_window_and_follows_resizes(server):
    client = await MudClient.open(server.port)
    client.send(iac(WILL, NAWS) + naws(40))
    await client.expect(WELCOME_END)
    await log_in(client, "Wendy")
    reply = await client.command("help", r"Type \"help <command>\".*(?:\n.*)*?\n  @password")
    assert max(len(line) for line in reply.group(0).splitlines()) <= 40
    client.send(naws(100))
    await asyncio.sleep(0.1)
    client.send("help")
    text = await client.quiet(0.3)
    widths = [len(line) for line in text.splitlines()]
    assert max(widths) <= 100 and max(widths) > 40


class GmcpClient(telnetlib3.TelnetClient):
    """telnetlib3's client, agreeing to GMCP and keeping every message it gets."""

    def connection_made(self, transport):  # type: ignore[no-untyped-def]
        super().connection_made(transport)
        self.gmcp: list[tuple[str, object]] = []
        self.writer.passive_do.add(GMCP)
        self.writer.set_ext_callback(GMCP, lambda package, data: self.gmcp.append((package, data)))


async def open_gmcp_client(port: int):  # type: ignore[no-untyped-def]
    reader, writer = await telnetlib3.open_connection(
        "127.0.0.1", port, client_factory=GmcpClient, encoding="utf8", connect_minwait=0.05, connect_maxwait=1.0
    )
    return reader, writer


async def read_until(reader, text: str, seen: list[str]) -> None:  # type: ignore[no-untyped-def]
    while text not in seen[0]:
        chunk = await asyncio.wait_for(reader.read(65536), 5)
        assert chunk, f"closed before {text!r}"
        seen[0] += chunk


def latest(protocol: GmcpClient, package: str):  # type: ignore[no-untyped-def]
    found = [data for name, data in protocol.gmcp if name == package]
    assert found, f"no {package} among {[name for name, _ in protocol.gmcp]}"
    return found[-1]


async def started_game(reader, writer, connect, seen: list[str], host: str, guest: str, room: str) -> MudClient:  # type: ignore[no-untyped-def]
    """On a telnetlib3 client past the welcome: log in as ``host``, make ``room`` with a
    deck, seat ``guest`` (a new client, returned) and start the game."""
    writer.write(f"create {host} secret1\r\n")
    await read_until(reader, f"Players here: {host}.", seen)
    writer.write(f"newroom {room}\r\n")
    for i in range(12):
        writer.write(f"loadcard Card {i}/T/Text {i}.\r\n")
    other = await connect()
    await log_in(other, guest)
    await other.command(f"join {room.lower()}", r"Seats, in turn order")
    writer.write("start\r\n")
    await read_until(reader, "each player is dealt", seen)
    await asyncio.sleep(0.2)
    return other


async def test_mccp2_compression_and_gmcp_state_with_telnetlib3s_client(server, connect):
    reader, writer = await open_gmcp_client(server.port)
    protocol = writer.protocol
    seen = [""]
    try:
        await read_until(reader, "QUIT", seen)
        assert writer.mccp2_active, "the server did not start MCCP2 compression"
        other = await started_game(reader, writer, connect, seen, "Gemma", "Otto", "Gmcp Room")
        assert latest(protocol, "Char.Name") == {"name": "Gemma", "fullname": "Gemma"}
        assert latest(protocol, "Room.Info")["name"] == "Gmcp Room"
        table = latest(protocol, "Dvorak.Table")
        assert [seat["name"] for seat in table["seats"]] == ["Gemma", "Otto"]
        assert [seat["cards"] for seat in table["seats"]] == [5, 5]
        hand = latest(protocol, "Dvorak.Hand")["cards"]
        assert len(hand) == 5 and all({"number", "name", "type", "text"} <= set(card) for card in hand)
        assert latest(protocol, "Dvorak.Votes") == {"policy": "unanimous", "pending": []}
        await other.command("newcard Idea/A/Made up.", r"Vote with")
        await asyncio.sleep(0.2)
        assert latest(protocol, "Dvorak.Votes")["pending"][0]["waiting"] == ["Gemma"]
        # Nobody else's hand is ever in what this client is sent.
        otto_hand = await other.command("hand", r"Your hand \(5 cards\):\n((?:  .*\n)+)")
        everything = json.dumps(protocol.gmcp)
        for line in otto_hand.group(1).splitlines():
            assert line.strip() not in everything
    finally:
        writer.close()


def sent(protocol: GmcpClient, package: str) -> int:
    return sum(name == package for name, _ in protocol.gmcp)


async def test_a_gmcp_client_is_sent_a_view_only_when_it_changed(server, connect):
    """Each move rebuilds the room's views; a client already holding one as it is (its own
    hand, when someone else moves) is not sent it again, as the web page is not."""
    reader, writer = await open_gmcp_client(server.port)
    protocol = writer.protocol
    seen = [""]
    try:
        await read_until(reader, "QUIT", seen)
        other = await started_game(reader, writer, connect, seen, "Vera", "Olaf", "Views")
        hands, tables, votes = (
            sent(protocol, "Dvorak.Hand"),
            sent(protocol, "Dvorak.Table"),
            sent(protocol, "Dvorak.Votes"),
        )
        hand = latest(protocol, "Dvorak.Hand")
        await other.command("newcard Idea/A/Made up.", r"Vote with")
        await asyncio.sleep(0.2)
        # The votes changed, Vera's hand did not.
        assert sent(protocol, "Dvorak.Votes") == votes + 1
        assert latest(protocol, "Dvorak.Votes")["pending"][0]["waiting"] == ["Vera"]
        assert sent(protocol, "Dvorak.Hand") == hands and latest(protocol, "Dvorak.Hand") == hand
        writer.write("approve 13\r\n")
        await read_until(reader, "is decided", seen)
        await asyncio.sleep(0.2)
        assert latest(protocol, "Dvorak.Votes")["pending"] == []
        assert sent(protocol, "Dvorak.Hand") == hands
        # A move that changes the table is sent as ever.
        assert sent(protocol, "Dvorak.Table") >= tables
        mover = "Vera" if "You go first" in seen[0] else "Olaf"
        if mover == "Vera":
            writer.write("draw\r\n")
            await read_until(reader, "You draw", seen)
        else:
            await other.command("draw", r"You draw")
        await asyncio.sleep(0.2)
        assert sent(protocol, "Dvorak.Table") > tables
        assert sent(protocol, "Dvorak.Hand") == hands + (mover == "Vera")
    finally:
        writer.close()


async def test_gmcp_messages_go_out_among_the_text_in_the_order_sent(server, connect):
    """A move's news and the view it changed reach a GMCP client in the order the server
    sent them (they go out together, in one write): the news line, then the votes; and the
    text's IAC bytes (0xFF is ÿ in Latin-1) are doubled while the message's are not."""
    client = await MudClient.open(server.port)
    client.send(iac(DO, GMCP[0]) + iac(WILL, CHARSET))
    await client.expect(WELCOME_END)
    await asyncio.sleep(0.2)
    client.send(subnegotiation(CHARSET, bytes([CHARSET_ACCEPTED]) + b"ISO-8859-1"))
    await log_in(client, "Lat")
    await client.command("newroom Order", r"host")
    other = await connect()
    await log_in(other, "Uni")
    await other.command("join order", r"Seats, in turn order")
    await client.quiet(0.3)
    before = len(client.raw)
    await other.command("newcard ÿes/T/ÿ is 0xFF in Latin-1.", r"You propose")
    await client.quiet(0.3)
    news = bytes(client.raw[before:])
    line = news.index(b"Uni proposes a new card: #1 \xff\xffes (Thing): \xff\xff is 0xFF in Latin-1.\r\n")
    votes = news.index(bytes([IAC]) + SB + GMCP + b"Dvorak.Votes {")
    assert line < votes
    assert b'"waiting":["Lat"]' in news[votes:]
    await client.close()


class RecordingWriter:
    """What a telnet connection uses of telnetlib3's writer, keeping every write: a Latin-1
    client with GMCP on, reading all it is sent."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.connection_closed = False
        self.protocol = SimpleNamespace(cols=None, terminal_version=0, output_encoding=lambda: "latin-1")
        self.transport = SimpleNamespace(get_write_buffer_size=lambda: 0)
        self.local_option = SimpleNamespace(enabled=lambda option: option == GMCP)

    def get_extra_info(self, key: str, default: object = None) -> object:
        return default

    def is_closing(self) -> bool:
        return False

    def close(self) -> None:
        self.connection_closed = True

    def send_iac(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def _write(self, data: bytes, escape_iac: bool = True) -> None:  # telnetlib3's bytes-level write
        self.writes.append(data.replace(b"\xff", b"\xff\xff") if escape_iac else data)


async def test_a_turns_text_and_gmcp_messages_leave_in_one_write_in_the_order_sent():
    writer = RecordingWriter()
    connection = TelnetConnection(1, cast(Any, None), cast(Any, writer), "127.0.0.1", 1000, 1 << 20)
    connection.send("ÿ one")
    connection.send_gmcp("Dvorak.Votes", {"pending": []})
    connection.send("two")
    connection.send_gmcp("Dvorak.Votes", {"pending": []})  # the client has it as it is: not again
    connection.send_gmcp("Dvorak.Hand", {"cards": []})
    assert writer.writes == []
    await asyncio.sleep(0)
    votes = gmcp_message("Dvorak.Votes", {"pending": []})
    hand = gmcp_message("Dvorak.Hand", {"cards": []})
    assert writer.writes == [b"\xff\xff one\r\n" + votes + b"two\r\n" + hand]
    connection.send("three")
    connection.send_gmcp("Dvorak.Votes", {"pending": [1]})
    connection.close()  # what was queued goes out first, in one write
    assert writer.writes[1:] == [b"three\r\n" + gmcp_message("Dvorak.Votes", {"pending": [1]})]


def test_a_gmcp_message_is_made_once_per_turn_as_telnetlib3_would_make_it():
    async def in_one_turn() -> tuple[bytes, bytes, bytes]:
        view = {"seats": [{"name": "Zoë", "cards": 5}], "text": 'quote " and \u00ff'}
        first, again = gmcp_message("Dvorak.Table", view), gmcp_message("Dvorak.Table", view)
        other = gmcp_message("Dvorak.Table", dict(view))  # equal, but another object: made again
        assert first is again and other == first and other is not first
        await asyncio.sleep(0)
        return first, gmcp_message("Dvorak.Table", view), gmcp_message("Char.Name", None)

    first, next_turn, bare = asyncio.run(in_one_turn())
    assert next_turn == first and next_turn is not first  # nothing kept past the turn
    start, end = bytes([IAC]) + SB + GMCP, bytes([IAC]) + SE
    assert first.startswith(start) and first.endswith(end)
    view = {"seats": [{"name": "Zoë", "cards": 5}], "text": 'quote " and ÿ'}
    assert first[3:-2] == gmcp_encode("Dvorak.Table", view)
    assert gmcp_decode(first[3:-2]) == ("Dvorak.Table", view)
    assert bare == start + b"Char.Name" + end


async def test_ttype_and_mtts_turn_colour_on_for_clients_that_have_it(server):
    async def with_terminal(ttype: bytes) -> bytes:
        client = await MudClient.open(server.port)
        client.send(iac(WILL, TTYPE))
        for _ in range(3):
            await asyncio.sleep(0.05)
            client.send(subnegotiation(TTYPE, bytes([TTYPE_IS]) + ttype))
        await client.expect(WELCOME_END)
        await client.command(f"create Term{len(ttype)} secret1", r"Players here")
        await client.command(f"newroom Colours {len(ttype)}", r"host")
        await client.command("loadcard hr/Crash/A/Boom.", r"Crash")
        await client.close()
        return bytes(client.raw)

    assert b"\x1b[1;31mCrash\x1b[0m" in await with_terminal(b"XTERM-256COLOR")
    assert b"\x1b[1;31mCrash\x1b[0m" in await with_terminal(b"MTTS 137")
    assert b"\x1b[" not in await with_terminal(b"DUMB")


async def test_a_client_that_chooses_latin1_gets_latin1_with_ascii_fallbacks(server, connect):
    client = await MudClient.open(server.port)
    client.send(iac(WILL, CHARSET))
    await client.expect(WELCOME_END)
    await asyncio.sleep(0.2)
    client.send(subnegotiation(CHARSET, bytes([CHARSET_ACCEPTED]) + b"ISO-8859-1"))
    await log_in(client, "Lat")
    speaker = await connect()
    await log_in(speaker, "Uni")
    await speaker.command("say café ✓ 漢", r"You say")
    await client.quiet(0.3)
    # What Latin-1 lacks: a letter in ASCII letters, a symbol a question mark.
    assert b'Uni says, "caf\xe9 ? Han"' in client.raw


@pytest.mark.parametrize("choice", [b"UTF-16", b"nosuchcharset", b"cp037"])
async def test_a_character_set_the_server_cannot_use_is_not_offered_and_not_taken(server, choice):
    """UTF-16 (offered by telnetlib3) and EBCDIC do not keep ASCII as ASCII; choosing one,
    or one never offered, dropped the connection with a decoder's error. The client is
    served in UTF-8 instead."""
    client = await MudClient.open(server.port)
    client.send(iac(WILL, CHARSET))
    await client.expect(WELCOME_END)
    await asyncio.sleep(0.2)
    offers = [sb for sb in client._filter.subnegotiations if sb[:1] == bytes([CHARSET])]
    assert offers and b"UTF-16" not in offers[0] and b"UTF-8" in offers[0]
    client.send(subnegotiation(CHARSET, bytes([CHARSET_ACCEPTED]) + choice))
    await log_in(client, "Uta")
    await client.command("say caf\u00e9", r'You say, "caf\u00e9"')
    await client.close()


async def test_an_iac_se_that_ends_no_subnegotiation_is_ignored(server):
    """telnetlib3 read its SE as a byte of text: the line it began was garbled ("Huh?"),
    and alone it cost the connection."""
    client = await MudClient.open(server.port)
    await client.expect(WELCOME_END)
    client.send(bytes([255, SE[0]]) + b"WHO\r\n")
    await client.expect(r"players? connected")
    client.send(bytes([255, SE[0]]))
    await asyncio.sleep(1.5)
    await client.command("WHO", r"players? connected")
    assert "Huh?" not in client.transcript
    await client.close()


async def test_only_the_environment_variables_the_server_uses_are_asked_for(server):
    """NEW-ENVIRON asks for TERM (colour) and LANG (character set), not USER, DISPLAY..."""
    client = await MudClient.open(server.port)
    client.send(iac(WILL, TTYPE))
    await asyncio.sleep(0.05)
    client.send(subnegotiation(TTYPE, bytes([TTYPE_IS]) + b"XTERM") + iac(WILL, NEW_ENVIRON))
    await client.expect(WELCOME_END)
    await client.quiet(0.3)
    requests = [sb for sb in client._filter.subnegotiations if sb[:2] == bytes([NEW_ENVIRON, ENVIRON_SEND])]
    assert len(requests) == 1
    asked = [name for name in requests[0][2:].split(bytes([ENVIRON_VAR])) if name]
    assert asked == [b"TERM", b"LANG"]
    await client.close()


async def test_mssp_tells_a_crawler_about_the_server(server, connect):
    player = await connect()
    await log_in(player, "Listed")
    crawler = await MudClient.open(server.port)
    crawler.send(iac(DO, MSSP_OPTION))
    await crawler.expect(WELCOME_END)
    await asyncio.sleep(0.3)
    await crawler.quiet(0.2)
    mssp = next(sb for sb in crawler._filter.subnegotiations if sb[:1] == bytes([MSSP_OPTION]))
    fields = dict(part.split(b"\x02", 1) for part in mssp[1:].split(b"\x01") if part)
    assert fields[b"NAME"] == b"Dvorak MUSH"
    # Every game a room can hold, each a value of its own (MSSP's list form).
    assert fields[b"GAMESYSTEM"].split(b"\x02") == [b"Dvorak", b"Gnav", b"Ys"]
    assert fields[b"PLAYERS"] == b"1"
    assert fields[b"CODEBASE"] == f"dvorak-mush {importlib.metadata.version('dvorak-mush')}".encode()
    assert fields[b"PORT"] == str(server.port).encode()
    assert int(fields[b"UPTIME"]) > 1_700_000_000


async def test_a_password_prompt_turns_the_clients_echo_off_and_on(server):
    client = await MudClient.open(server.port)
    client.send(iac(WILL, NAWS) + naws(80))
    await client.expect(WELCOME_END)
    await client.command("create Quiet", r"Choose a password for Quiet:")
    assert bytes([IAC, WILL, 1]) in client.raw
    client.send(iac(DO, 1))
    await client.command("hushhush", r"Welcome, Quiet!")
    assert client.raw.rfind(bytes([IAC, 252, 1])) > client.raw.rfind(bytes([IAC, WILL, 1]))


@pytest.mark.skipif(shutil.which("telnet") is None and not IN_CI, reason="the telnet program is not installed")
async def test_the_telnet_program_does_not_show_a_prompted_password(server):
    def session() -> str:
        child = pexpect.spawn("telnet", ["127.0.0.1", str(server.port)], encoding="utf-8", timeout=10)
        try:
            child.expect("create <name> <password>")
            child.sendline("create Hidden")
            child.expect("Choose a password for Hidden:")
            # The program turns its terminal's echo off once it has read the server's
            # WILL ECHO, which came before the prompt; a busy machine may show the prompt
            # first. Typed before that, the line would be echoed by the terminal itself.
            assert child.waitnoecho(timeout=15)
            child.sendline("invisible-ink")
            child.expect("Welcome, Hidden!")
            seen = child.before
            child.sendline("QUIT")
            child.expect(pexpect.EOF)
            return seen
        finally:
            child.close(force=True)

    seen = await asyncio.get_running_loop().run_in_executor(None, session)
    assert "invisible-ink" not in seen


async def test_telnet_over_tls(start_server, self_signed):
    cert, key = self_signed
    server = await start_server(tls_port=0, tls_cert=str(cert), tls_key=str(key))
    context = ssl.create_default_context(cafile=str(cert))
    context.check_hostname = False
    reader, writer = await asyncio.open_connection("127.0.0.1", server.tls_port, ssl=context)
    client = MudClient(reader, writer)
    try:
        await client.expect(WELCOME_END)
        await log_in(client, "Secure")
        assert writer.get_extra_info("ssl_object") is not None
        # No compression over TLS (compress-then-encrypt leaks).
        assert bytes([IAC, WILL, 86]) not in client.raw
    finally:
        await client.close()
