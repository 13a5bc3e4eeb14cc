"""The telnet layer with real clients: nc-style raw sockets, telnetlib3, the telnet program;
and hostile input: long lines, control characters, escape sequences, invalid UTF-8."""

from __future__ import annotations

import asyncio
import io
import os
import re
import shutil

import pexpect
import pyte
import pytest
import telnetlib3
from telnetlib3.telopt import NAWS

from tests.client import MudClient
from tests.conftest import IN_CI, WELCOME_END, log_in


async def test_a_client_that_never_negotiates_is_greeted_within_a_second(start_server):
    server = await start_server(negotiation_wait=0.5)
    client = await MudClient.open(server.port)
    try:
        await client.expect(WELCOME_END, timeout=1.0)
        assert "D V O R A K" in client.transcript
        await client.command("create Alice secret1", r"Welcome, Alice!")
    finally:
        await client.close()


async def test_telnetlib3_client_negotiates_and_output_wraps_to_its_width(server):
    reader, writer = await telnetlib3.open_connection(
        "127.0.0.1", server.port, encoding="utf8", cols=40, rows=20, connect_minwait=0.05, connect_maxwait=1.0
    )
    received = ""

    async def read_until(text: str) -> None:
        nonlocal received
        while text not in received:
            chunk = await asyncio.wait_for(reader.read(4096), 5)
            assert chunk, f"connection closed before {text!r}"
            received += chunk

    try:
        await read_until("QUIT")
        # The tests' server greets after 0.05 s of negotiation, so on a busy machine the
        # greeting can come before the server has asked for the window size: log in only
        # once the client has told it (the size follows WILL NAWS at once, in order).
        async with asyncio.timeout(5):
            while not writer.local_option.enabled(NAWS):
                await asyncio.sleep(0.01)
        writer.write("create Wren secret1\r\n")
        await read_until("Players here: Wren.")
        lobby_text = received[received.index("The Lobby") :]
        assert [line for line in lobby_text.replace("\r", "").split("\n") if len(line) > 40] == []
        writer.write("say héllo wörld ✓\r\n")
        await read_until('You say, "héllo wörld ✓"')
    finally:
        writer.close()


@pytest.mark.skipif(shutil.which("telnet") is None and not IN_CI, reason="the telnet program is not installed")
async def test_the_telnet_program(server, connect):
    watcher = await connect()
    await log_in(watcher, "Watcher")

    def session() -> str:
        child = pexpect.spawn("telnet", ["127.0.0.1", str(server.port)], encoding="utf-8", timeout=10)
        try:
            child.expect("create <name> <password>")
            child.sendline("create Tess secret1")
            child.expect(r"Players here: .*Tess")
            child.sendline("say hello from telnet")
            child.expect('You say, "hello from telnet"')
            child.sendline("QUIT")
            child.expect("Goodbye")
            child.expect(pexpect.EOF)
            return child.before
        finally:
            child.close(force=True)

    await asyncio.get_running_loop().run_in_executor(None, session)
    await watcher.expect(r'Tess says, "hello from telnet"')
    await watcher.expect(r"Tess has disconnected\.")


def screen_of_the_telnet_program(port: int, keystrokes: list[tuple[str, str]]) -> list[str]:
    """What Debian's ``telnet`` (inetutils) shows in an 80-column terminal after typing
    each line of ``keystrokes`` and waiting for its pattern, pressing Enter as a terminal
    does (CR): the rows of a VT100 screen (pyte) fed everything the program wrote."""
    shown = io.BytesIO()
    child = pexpect.spawn("telnet", ["127.0.0.1", str(port)], timeout=10, dimensions=(300, 80))
    child.logfile_read = shown
    try:
        child.expect(b"create <name> <password>")
        for typed, reply in keystrokes:
            child.send(typed.encode() + b"\r")
            child.expect(reply.encode())
        child.send(b"QUIT\r")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    screen = pyte.Screen(80, 300)
    pyte.ByteStream(screen).feed(shown.getvalue())
    return [line.rstrip() for line in screen.display]


@pytest.mark.skipif(shutil.which("telnet") is None and not IN_CI, reason="the telnet program is not installed")
async def test_the_telnet_program_shows_every_reply_flush_left(server):
    """Debian's telnet showed the first line of each reply starting where the typed
    command ended: the server had it send in binary, so the client's terminal echoed
    Enter as a bare line feed."""
    typed = [
        ("create Tess secret1", "Players here:"),
        ("WHO", "players? connected"),
        ("help say", "Also: "),
        ("say tick ✓ done", 'You say, "tick ✓ done"'),  # typed UTF-8 arrives whole
    ]
    rows = await asyncio.get_running_loop().run_in_executor(None, screen_of_the_telnet_program, server.port, typed)
    for command, _ in typed:
        at = rows.index(command)
        assert rows[at + 1] and not rows[at + 1][0].isspace(), rows[at : at + 3]
    assert rows[rows.index("WHO") + 1].startswith("Player Name")
    assert rows[rows.index("help say") + 1] == "Help for say:"


async def test_a_line_over_the_limit_is_refused_and_the_connection_lives(start_server, connect):
    server = await start_server(max_line_length=1000)
    alice, bob = await connect(server), await connect(server)
    await log_in(alice, "Alice")
    await log_in(bob, "Bob")
    alice.send("say " + "x" * 5000)
    await alice.expect(r"That line is longer than 1000 characters; it was ignored\.")
    # The same, arriving in pieces with no line end until the end.
    for _ in range(4):
        alice.send(b"y" * 700)
        await asyncio.sleep(0.02)
    alice.send(b"\r\n")
    await alice.expect(r"That line is longer than 1000 characters; it was ignored\.")
    await alice.command("say still here", r'You say, "still here"')
    await bob.expect(r'Alice says, "still here"')
    assert "xxx" not in bob.transcript and "yyy" not in bob.transcript


async def test_escape_sequences_and_control_characters_never_reach_other_players(connect):
    alice, bob = await connect(), await connect()
    await log_in(alice, "Alice")
    await log_in(bob, "Bob")
    hostile = (
        "say \x1b[31mred\x1b[0m \x07bell\x00 \x1b]0;owned\x07title \x1b[2J\x1b[Hclear "
        "\u202eevil\u202c \x9b31mC1 \x1bPdcs\x1b\\ done"
    )
    alice.send(hostile.encode("utf-8") + b"\r\n")
    await bob.expect(r'Alice says, "red bell title clear evil C1  done"')
    await alice.command("@doing \x1b[5mblink\x1b[0m", r"Your @doing is now: blink")
    await alice.command("pose \x1b[1mbold\x1b[0m move", r"Alice bold move")
    await bob.expect(r"Alice bold move")
    await bob.command("WHO", r"Alice .* blink")
    text = bob.raw.decode("utf-8", errors="replace")
    for forbidden in ("\x1b", "\x07", "\x9b", "\u202e", "\x00"):
        assert forbidden not in text


async def test_invalid_utf8_is_replaced_not_fatal(connect):
    alice, bob = await connect(), await connect()
    await log_in(alice, "Alice")
    await log_in(bob, "Bob")
    alice.send(b"say caf\xc3 na\xefve \xe2\x82 ok\r\n")
    await bob.expect('Alice says, "caf\ufffd na\ufffdve \ufffd ok"')
    await alice.command("say fine", r'You say, "fine"')


async def test_garbage_before_login_does_no_harm(connect):
    client = await connect()
    client.send(bytes(range(1, 255)) + b"\r\n")
    client.send(os.urandom(64).replace(b"\xff", b"") + b"\r\n")
    client.send(b"\x00\x00\r\n\r\n\n\n")
    await client.command("WHO", r"0 players connected\.")
    await log_in(client, "Alice")


async def test_every_script_reaches_other_players_intact_and_invisible_tricks_do_not(connect):
    from tests.test_text_and_rules import ORDINARY

    alice, bob = await connect(), await connect()
    await log_in(alice, "Alice")
    await log_in(bob, "Bob")
    for text in ORDINARY:
        await alice.command(f"say {text}", r"You say")
        await bob.expect(re.escape(f'Alice says, "{text}"'))
    alice.send("say real line\u2028Server: the server is shutting down\u200b")
    await bob.expect(r'Alice says, "real lineServer: the server is shutting down"')
    assert "\u2028" not in bob.transcript and "\u200b" not in bob.transcript
