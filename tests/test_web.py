"""The browser's way in, over a real WebSocket on the web port: the same accounts, commands,
limits and tables as telnet, the page's security headers, and coming back after a drop.

What the page does with it (clicking cards, rendering text as text) is tested in a real
browser in ``tests/browser/test_browser.py``.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import shutil
import socket
import ssl

import aiohttp
import pytest

from server.app import FLOOD_NOTICE
from server.sessions import SessionTokens
from server.web import MOST_MESSAGE_BYTES, SECURITY_HEADERS, WebConnection
from tests.client import MudClient
from tests.conftest import IN_CI, WELCOME_END, log_in
from tests.server_process import ROOT, free_port
from tests.web_client import WebClient, web_log_in

DECK = [f"loadcard Card{i}/T/Thing number {i}." for i in range(1, 9)]


async def web_player(server, name: str) -> WebClient:
    client = await WebClient.open(server.web_port)
    await client.expect(WELCOME_END)
    await web_log_in(client, name)
    return client


async def telnet_player(server, name: str) -> MudClient:
    client = await MudClient.open(server.port)
    await client.expect(WELCOME_END)
    await log_in(client, name)
    return client


async def text_until(socket: aiohttp.ClientWebSocketResponse, wanted: str) -> None:
    """Read a bare socket's messages until a text one holds ``wanted``."""
    while True:
        sent = await socket.receive_json(timeout=10)
        if any(wanted in message.get("text", "") for message in (sent if isinstance(sent, list) else [sent])):
            return


async def test_the_page_is_served_with_headers_that_let_only_the_servers_own_files_run(start_server):
    server = await start_server()
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{server.web_port}/") as response:
            assert response.status == 200
            assert response.content_type == "text/html"
            for header, value in SECURITY_HEADERS.items():
                assert response.headers[header] == value
            assert "script-src 'self'" in response.headers["Content-Security-Policy"]
            assert "unsafe-inline" not in response.headers["Content-Security-Policy"]
        for path in ("/static/../web.py", "/static/%2e%2e/web.py", "/static/../../pyproject.toml"):
            async with session.get(f"http://127.0.0.1:{server.web_port}{path}") as response:
                assert response.status in (403, 404), path
                assert "import" not in await response.text()


async def test_each_games_panel_is_served_and_nothing_else_under_its_path(start_server):
    server = await start_server()
    base = f"http://127.0.0.1:{server.web_port}"
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{base}/static/games/gnav.js") as response:
            assert response.status == 200
            assert 'registerGame("Gnav"' in await response.text()
            for header, value in SECURITY_HEADERS.items():
                assert response.headers[header] == value
        for style in ("ys", "gnav", "dvorak"):
            async with session.get(f"{base}/static/games/{style}.css") as response:
                assert response.status == 200 and response.content_type == "text/css"
        hostile = (
            "/static/games/chess.css",
            "/static/games/chess.js",
            "/static/games/gnav.py",
            "/static/games/gnav.js.js",
            "/static/games/gnav",
            "/static/games/game.py",
            "/static/games/%2e%2e/web.py",
            "/static/games/..%2fgame.py",
            "/static/games/__init__.js",
            "/static/games/" + "g" * 5000 + ".js",
        )
        for path in hostile:
            async with session.get(base + path) as response:
                assert response.status in (403, 404), path
                assert "import" not in await response.text(), path


async def test_a_socket_opened_by_another_sites_page_or_with_no_origin_is_refused(start_server):
    server = await start_server()
    async with aiohttp.ClientSession() as session:
        for origin in ("http://evil.example", f"http://127.0.0.1:{server.web_port}.evil.example", None):
            headers = {"Origin": origin} if origin else {}
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(f"http://127.0.0.1:{server.web_port}/ws", headers=headers)
            assert refused.value.status == 403
    assert server.hub.connections == set()


async def test_another_origin_may_connect_when_the_operator_names_it(start_server):
    server = await start_server(web_origins="https://play.example.org")
    client = await WebClient.open(server.web_port, origin="https://play.example.org")
    await client.expect(WELCOME_END)
    await client.close()


async def test_a_web_player_and_a_telnet_player_play_at_one_table(start_server):
    server = await start_server()
    ann = await web_player(server, "Ann")
    ann.send_json({"cols": 60})
    for line in ["newroom Table", "set turns=off", "set handsize=3", *DECK]:
        ann.send(line)
    await ann.expect("Card8")
    bo = await telnet_player(server, "Bo")
    await bo.command("join Table", r"Draw pile: .*")
    await ann.expect("Bo arrives")
    await ann.command("start", r"dealt|deals")
    hand = await ann.view("Dvorak.Hand", lambda view: len(view["cards"]) == 3)
    number = hand["cards"][0]["number"]
    name = hand["cards"][0]["name"]

    ann.send(f"playcard {number}")
    await bo.expect(rf"Ann plays #{number} {name}")
    table = await ann.view("Dvorak.Table", lambda view: any(seat["in_play"] for seat in view["seats"]))
    assert [card["number"] for seat in table["seats"] if seat["name"] == "Ann" for card in seat["in_play"]] == [number]

    seen_before = len(ann.transcript)
    bo.send("drawcard")
    drawn = await bo.expect(r"You draw #(\d+) (\w+)")
    await ann.expect(r"Bo draws a card\.")
    await ann.view("Dvorak.Table", lambda view: {s["name"]: s["cards"] for s in view["seats"]}["Bo"] == 4)
    # What Bo drew is Bo's alone: the page is told how many cards Bo holds, never which.
    assert drawn.group(2) not in ann.transcript[seen_before:]
    assert all(
        {card["number"] for card in view["cards"]} <= {card["number"] for card in hand["cards"]}
        for package, view in ann.view_log
        if package == "Dvorak.Hand"
    )
    await ann.close()
    await bo.close()


async def test_half_a_utf16_pair_from_the_page_reads_as_a_replacement_character_and_fails_nothing(start_server):
    """JSON can carry a lone surrogate, which no database driver or client can encode:
    it used to fail the command with a server error (and the moves stored with it)."""
    server = await start_server()
    ann = await web_player(server, "Ann")
    ann.send("newroom Den")
    await ann.expect("You made room Den")
    bo = await telnet_player(server, "Bo")
    await bo.command("join Den", r"Draw pile")
    ann.send("loadcard Elk\ud800/T/Big.")
    await bo.expect("Ann adds a card to the deck: #1 Elk\ufffd")
    ann.send("say A\ud800B")
    await bo.expect('Ann says, "A\ufffdB"')
    assert "server error" not in ann.transcript + bo.transcript
    await ann.close()
    await bo.close()


async def test_text_keeps_its_colours_and_is_wrapped_to_the_pages_width(start_server):
    server = await start_server()
    ann = await web_player(server, "Ann")
    ann.send_json({"cols": 30})
    ann.send("newroom Colours")
    await ann.expect("You made room Colours")
    ann.send("loadcard hr/Rose/T/" + "A very long text about a red rose " * 3)
    await ann.expect("Rose")
    rose_lines = [line for message in ann.messages if "text" in message for line in message["text"].split("\n")]
    assert any("\x1b[" in line for line in rose_lines), "the page is sent ANSI colour"
    await ann.quiet()
    ann.send("say " + "word " * 30)
    said = await ann.expect(r'You say, "(?:.*\n)*.*"')
    assert all(len(line) <= 30 for line in said.group(0).split("\n"))
    await ann.close()


async def test_a_dropped_socket_comes_back_to_its_seat_with_its_session_token(start_server):
    server = await start_server()
    ann = await web_player(server, "Ann")
    for line in ["newroom Table", *DECK]:
        ann.send(line)
    await ann.expect("Card8")
    bo = await telnet_player(server, "Bo")
    await bo.command("join Table", r"Draw pile: .*")
    token = ann.tokens[-1]
    assert token
    await ann.close()
    await bo.expect("Ann has disconnected; the seat is kept.")

    again = await WebClient.open(server.web_port)
    again.send_json({"resume": token})
    await again.expect("Welcome back, Ann.")
    info = await again.view("Room.Info", lambda view: view.get("kind") == "game")
    assert info["name"] == "Table"
    await bo.expect("Ann")
    assert again.tokens and again.tokens[-1] not in (None, token)
    seats = await again.view("Dvorak.Table", lambda view: view.get("room") == "Table")
    assert [seat["name"] for seat in seats["seats"]] == ["Ann", "Bo"]
    await again.close()
    await bo.close()


async def test_a_session_token_is_no_good_after_logging_out_or_when_forged(start_server):
    server = await start_server()
    ann = await web_player(server, "Ann")
    token = ann.tokens[-1]
    assert token is not None
    body, _, signature = token.partition(".")
    forged = body[:-2] + ("AA" if body[-2:] != "AA" else "BB") + "." + signature
    ann.send("LOGOUT")
    await ann.expect("You are logged out.")
    await ann.quiet()
    assert ann.tokens[-1] is None
    await ann.close()

    for tried in (token, forged, "not-a-token", "x" * 5000):
        client = await WebClient.open(server.web_port)
        await client.expect(WELCOME_END)
        client.send_json({"resume": tried})
        await client.expect("That session has ended: log in with your name and password.")
        await client.quiet()
        assert client.tokens == [None]
        assert not server.hub.players
        await client.close()


async def resumed(server, token: str) -> str:
    """What a new page that comes back with ``token`` is told."""
    client = await WebClient.open(server.web_port)
    await client.expect(WELCOME_END)
    client.send_json({"resume": token})
    said = await client.expect(r"(Welcome back, \w+\.|That session has ended: log in with your name and password\.)")
    await client.close()
    return said.group(0)


async def test_a_changed_password_ends_the_browser_sessions_made_before_it(start_server):
    """Whoever had a token (a thief with the old password) cannot come back with it once the
    password changes: by the player's own @password, or by staff's @newpassword, which
    also disconnects them, on any node (the token says which password it was made under)."""
    server = await start_server()
    ann = await web_player(server, "Ann")
    stolen = ann.tokens[-1]
    assert stolen
    await ann.command("@password secret1=secret2", "Your password has been changed.")
    await ann.quiet()
    fresh = ann.tokens[-1]
    assert fresh not in (None, stolen)
    await ann.close()
    assert "That session has ended" in await resumed(server, stolen)
    assert "Welcome back, Ann." in await resumed(server, fresh)

    thief = await WebClient.open(server.web_port)
    await thief.expect(WELCOME_END)
    thief.send_json({"resume": fresh})
    await thief.expect("Welcome back, Ann.")
    adm = await telnet_player(server, "Adm")
    assert await server.accounts.store.set_role("Adm", "admin") is not None
    await adm.command("LOGOUT", "You are logged out.")
    await adm.command("connect Adm secret1", "Welcome back, Adm.")
    await adm.command(
        "@newpassword Ann=another1", "Ann has a new password; anyone logged in as them has been disconnected."
    )
    await thief.expect("The staff have set a new password for your player: log in again with it.")
    await thief.wait_closed()
    assert "That session has ended" in await resumed(server, fresh)
    await adm.close()


async def test_a_password_asked_for_is_typed_hidden(start_server):
    server = await start_server()
    first = await web_player(server, "Ann")
    await first.close()
    client = await WebClient.open(server.web_port)
    await client.expect(WELCOME_END)
    await client.command('connect "Ann"', "Password for Ann:")
    await client.quiet()
    assert client.echoes == [False]
    client.send("secret1")
    await client.expect("Welcome back, Ann.")
    assert client.echoes == [False, True]
    await client.close()


async def test_a_web_connection_has_the_same_limits_as_telnet(start_server):
    server = await start_server(max_line_length=100, max_connections_per_address=2)
    client = await WebClient.open(server.web_port)
    await client.expect(WELCOME_END)
    client.send("say " + "x" * 200)
    await client.expect("That line is longer than 100 characters; it was ignored.")
    client.send_json(["not", "an", "object"])
    await client.expect("That message is not one this server understands.")
    # A binary message is refused as plainly, and the page stays connected.
    await client.socket.send_bytes(b'{"line": "WHO"}')
    await client.expect("That message is not one this server understands.")
    client.send("WHO")
    await client.expect(r"players? connected")
    second = await WebClient.open(server.web_port)
    await second.expect(WELCOME_END)
    third = await WebClient.open(server.web_port)
    await third.expect(r"Too many connections from your address \(the limit is 2\)")
    await third.wait_closed()
    await second.close()

    await client.socket.send_str(json.dumps({"line": "y" * (MOST_MESSAGE_BYTES + 10)}))
    await client.wait_closed()
    assert client.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
    await client.close()


async def test_a_page_that_floods_is_cut_off_like_a_telnet_client(start_server):
    server = await start_server(command_rate=20.0, command_burst=10, flood_seconds=0.5)
    client = await WebClient.open(server.web_port)
    await client.expect(WELCOME_END)
    for _ in range(400):
        client.send_json({"cols": 80})
    await client.expect(FLOOD_NOTICE.replace("*", r"\*"))
    await client.wait_closed()
    await client.close()


async def test_outputprefix_frames_each_commands_reply_for_a_web_client_too(start_server):
    server = await start_server()
    ann = await web_player(server, "Ann")
    bo = await telnet_player(server, "Bo")
    ann.send("OUTPUTPREFIX <<begin>>")
    ann.send("OUTPUTSUFFIX <<end>>")
    await ann.quiet()
    ann.send("WHO")
    who = await ann.expect(r"<<begin>>\n((?:.*\n)*?)<<end>>")
    assert "2 players connected" in who.group(1)
    await ann.close()
    await bo.close()


async def test_the_server_stops_cleanly_with_web_players_on(start_server):
    server = await start_server()
    ann = await web_player(server, "Ann")
    await server.stop()
    await ann.expect("The server is shutting down")
    await ann.wait_closed()
    await ann.close()


async def test_no_web_turns_the_web_port_off(start_server):
    server = await start_server(web=False)
    assert server.web is None
    client = await MudClient.open(server.port)
    await client.expect(WELCOME_END)
    await client.close()
    await asyncio.sleep(0)


async def test_with_a_certificate_the_page_and_its_socket_are_served_over_tls(start_server, self_signed):
    cert, key = self_signed
    server = await start_server(tls_port=0, tls_cert=str(cert), tls_key=str(key))
    context = ssl.create_default_context(cafile=str(cert))
    context.check_hostname = False
    origin = f"https://127.0.0.1:{server.web_port}"
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{origin}/", ssl=context) as response:
            assert response.status == 200
        with pytest.raises(aiohttp.ClientError):
            await session.get(f"http://127.0.0.1:{server.web_port}/")
        async with session.ws_connect(f"{origin}/ws", ssl=context, origin=origin) as socket:
            await socket.send_json({"line": "WHO"})
            await text_until(socket, "connected")


@pytest.fixture
def haproxy() -> str:
    """The haproxy program (required in CI, where .ci/run installs it)."""
    program = shutil.which("haproxy") or ("/usr/sbin/haproxy" if os.path.exists("/usr/sbin/haproxy") else None)
    if program is None:
        if IN_CI:
            pytest.fail("haproxy is required in CI")
        pytest.skip("haproxy is not installed")
    return program


async def test_behind_the_shipped_haproxy_config_players_get_tls_and_the_server_sees_their_address(
    start_server, self_signed, haproxy, tmp_path
):
    cert, key = self_signed
    both = tmp_path / "both.pem"
    both.write_text(cert.read_text() + key.read_text())
    server = await start_server(web_proxy_from="127.0.0.1")
    port = free_port()
    env = {
        **os.environ,
        "WEB_BIND": f"127.0.0.1:{port}",
        "WEB_CERT": str(both),
        "NODE1": f"127.0.0.1:{server.web_port}",
    }
    process = await asyncio.create_subprocess_exec(
        haproxy, "-db", "-f", str(ROOT / "deploy" / "haproxy-web.cfg"), env=env, stdout=asyncio.subprocess.DEVNULL
    )
    try:
        context = ssl.create_default_context(cafile=str(cert))
        context.check_hostname = False
        origin = f"https://127.0.0.1:{port}"
        async with aiohttp.ClientSession() as session:
            for _ in range(100):
                try:
                    async with session.get(f"{origin}/", ssl=context) as response:
                        if response.status == 200:
                            break
                except aiohttp.ClientError:
                    pass
                await asyncio.sleep(0.1)
            # A player's own X-Forwarded-For is not believed: HAProxy says who connected.
            headers = {"X-Forwarded-For": "203.0.113.9"}
            async with session.ws_connect(f"{origin}/ws", ssl=context, origin=origin, headers=headers) as socket:
                await socket.send_json({"line": 'create "Ann" secret1'})
                await text_until(socket, "Players here")
                [connection] = server.hub.connections
                assert connection.kind == "web" and connection.address == "127.0.0.1"
                await socket.send_json({"line": "say through the proxy"})
                await text_until(socket, 'You say, "through the proxy"')
    finally:
        process.terminate()
        await process.wait()


def masked_text_frame(text: str) -> bytes:
    """One WebSocket text frame as a client must send it (masked; short payloads only)."""
    payload = text.encode()
    assert len(payload) < 126
    mask = os.urandom(4)
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def test_a_page_that_stops_reading_is_cut_off_and_keeps_its_seat(start_server):
    server = await start_server(output_limit=64 * 1024, command_burst=10_000)
    ann = await web_player(server, "Ann")
    for line in ["newroom Target", *DECK]:
        ann.send(line)
    await ann.expect("Card8")
    sleepy = socket.create_connection(("127.0.0.1", server.web_port))
    sleepy.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sleepy.sendall(
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{server.web_port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\nSec-WebSocket-Version: 13\r\n"
        f"Origin: http://127.0.0.1:{server.web_port}\r\n\r\n".encode()
    )
    assert await asyncio.get_running_loop().run_in_executor(None, sleepy.recv, 12) == b"HTTP/1.1 101"
    for line in ('{"line": "create Sleepy secret1"}', '{"line": "join target"}'):
        sleepy.sendall(masked_text_frame(line))
    await ann.expect(r"Sleepy takes a seat at the table\.")
    # Ask for far more output than the kernel's buffers hold, and never read any of it.
    frames = masked_text_frame('{"line": "help"}') * 3000
    await asyncio.get_running_loop().run_in_executor(None, sleepy.sendall, frames)
    await ann.expect(r"Sleepy has disconnected; the seat is kept\.", timeout=30)
    table = await ann.view("Dvorak.Table", lambda view: any(seat["away"] for seat in view["seats"]))
    assert [seat["name"] for seat in table["seats"]] == ["Ann", "Sleepy"]
    sleepy.close()
    await ann.close()


async def test_a_message_nested_too_deep_to_read_is_refused_like_any_other_it_cannot_read(start_server):
    server = await start_server()
    client = await WebClient.open(server.web_port)
    await client.expect(WELCOME_END)
    await client.socket.send_str("[" * 30_000 + "]" * 30_000)
    await client.expect("That message is not one this server understands.")
    await client.command("WHO", "connected")
    await client.close()


async def a_page_and_a_telnet_player_at_a_game(server) -> tuple[WebClient, MudClient]:
    """Ann on the page, host of a running game with two cards each, and Bo over telnet;
    everything sent to the page so far read."""
    ann = await web_player(server, "Ann")
    for line in ["newroom Table", "set turns=off", "set handsize=2", *DECK]:
        ann.send(line)
    await ann.expect("Card8")
    bo = await telnet_player(server, "Bo")
    await bo.command("join Table", r"Draw pile: .*")
    await ann.command("start", "You start a new game")
    await ann.view("Dvorak.Hand", lambda view: len(view["cards"]) == 2)
    await ann.quiet()
    return ann, bo


async def test_a_page_is_sent_a_view_only_when_it_changed(start_server):
    ann, bo = await a_page_and_a_telnet_player_at_a_game(await start_server())
    sent_before = [package for package, _ in ann.view_log]
    bo.send("drawcard")
    await ann.view("Dvorak.Table", lambda view: {s["name"]: s["cards"] for s in view["seats"]}["Bo"] == 3)
    await ann.quiet()
    # Bo's draw changed the table; Ann's hand and the votes are as they were.
    assert [package for package, _ in ann.view_log][len(sent_before) :] == ["Dvorak.Table"]
    await ann.close()
    await bo.close()


async def test_a_moves_news_and_the_views_it_changed_reach_a_page_in_one_message(start_server):
    ann, bo = await a_page_and_a_telnet_player_at_a_game(await start_server())
    frames_before = len(ann.frames)
    bo.send("drawcard")
    await ann.view("Dvorak.Table", lambda view: {s["name"]: s["cards"] for s in view["seats"]}["Bo"] == 3)
    await ann.quiet()
    # One write to the socket: the text first, then the view, as one JSON array.
    [message] = ann.frames[frames_before:]
    sent = json.loads(message)
    assert [next(iter(part)) for part in sent] == ["text", "gmcp"]
    assert "Bo draws" in sent[0]["text"] and sent[1]["gmcp"] == "Dvorak.Table"
    await ann.close()
    await bo.close()


async def test_going_from_one_game_s_room_straight_to_another_game_s_clears_the_first_game_s_views(
    start_server,
):
    """Cy watches a Dvorak table, then makes a Ys room (which takes her there from the
    table, not by way of the lobby): her page is told the Dvorak packages are empty, as
    on leaving for the lobby, and not left showing a table she is no longer at."""
    server = await start_server()
    ann, bo = await a_page_and_a_telnet_player_at_a_game(server)
    cy = await web_player(server, "Cy")
    cy.send("watch Table")
    await cy.view("Dvorak.Table", lambda view: view.get("room") == "Table" and "Cy" in view["watching"])
    cy.send("newroom/ys Harbour")
    await cy.view("Ys.View", lambda view: bool(view))
    await cy.view("Dvorak.Table", lambda view: view == {})
    await cy.view("Dvorak.Hand", lambda view: view == {"cards": []})
    await cy.view("Dvorak.Votes", lambda view: view == {"pending": []})
    # And back: the Ys packages are emptied when she goes from Harbour straight to the table.
    cy.send("watch Table")
    await cy.view("Dvorak.Table", lambda view: view.get("room") == "Table")
    await cy.view("Ys.View", lambda view: not view)
    for client in (ann, cy):
        await client.close()
    await bo.close()


async def test_a_page_of_an_older_release_still_gets_one_message_at_a_time(start_server):
    # A page loaded before an upgrade reconnects by itself with its old script, which
    # reads one JSON object a message: it does not ask for arrays, and is sent none.
    server = await start_server()
    ann = await WebClient.open(server.web_port, batches=False)
    await ann.expect(WELCOME_END)
    await web_log_in(ann, "Ann")
    for line in ["newroom Table", "set turns=off", "set handsize=2", *DECK, "start"]:
        ann.send(line)
    await ann.view("Dvorak.Hand", lambda view: len(view["cards"]) == 2)
    await ann.quiet()
    assert ann.frames and all(isinstance(json.loads(frame), dict) for frame in ann.frames)
    await ann.close()


async def test_the_welcome_fits_the_width_the_page_asks_with(start_server):
    server = await start_server()
    narrow = await WebClient.open(server.web_port, cols=40)
    await narrow.expect(WELCOME_END)
    assert max(len(line) for line in narrow.transcript.split("\n")) <= 40
    await narrow.close()
    # Widths no client has are held to the bounds every client has (20 to 250 columns).
    for hostile in ("0", "99999", "-5", "abc", "1" * 50):
        client = await WebClient.open(server.web_port, cols=hostile)
        await client.expect(r"^=+\n(?![\s\S]*=)")
        assert 20 <= max(len(line) for line in client.transcript.split("\n")) <= 250
        await client.close()


async def test_a_password_typed_in_the_page_is_never_logged(start_server, caplog):
    caplog.set_level(logging.DEBUG)
    server = await start_server()
    client = await WebClient.open(server.web_port)
    await client.expect(WELCOME_END)
    await web_log_in(client, "Ann", password="hunter2-unlogged")
    client.send("@password hunter2-unlogged=changed-unlogged")
    await client.expect("Your password has been changed|password is changed|changed")
    client.send("LOGOUT")
    await client.expect("You are logged out.")
    client.send('connect "Ann" wrong-unlogged')
    await client.expect("has a different password")
    await client.close()
    assert "unlogged" not in caplog.text


class _StuckSocket:
    """A WebSocket whose page never takes anything: every send waits for ever."""

    closed = False

    async def send_str(self, frame: str) -> None:
        await asyncio.Event().wait()

    async def close(self) -> None:
        self.closed = True


class _Transport:
    aborted = False

    def abort(self) -> None:
        self.aborted = True


async def test_a_page_that_never_takes_its_last_output_is_dropped_after_a_wait(monkeypatch):
    monkeypatch.setattr("server.web.GOODBYE_WAIT", 0.2)
    transport = _Transport()
    connection = WebConnection(1, _StuckSocket(), transport, "127.0.0.1", 100, 1 << 20, SessionTokens())  # type: ignore[arg-type]
    connection.send("Goodbye.")
    connection.flush()
    connection.close()
    await asyncio.wait_for(connection.finished(), 5)
    assert transport.aborted


async def test_the_socket_is_never_compressed_so_a_token_cannot_leak_through_sizes(start_server):
    server = await start_server()
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(
            f"http://127.0.0.1:{server.web_port}/ws", origin=f"http://127.0.0.1:{server.web_port}", compress=15
        ) as socket,
    ):
        assert socket.compress == 0
        assert "permessage-deflate" not in socket._response.headers.get("Sec-WebSocket-Extensions", "")


async def test_logging_out_and_in_again_on_one_page_gives_it_every_view_again(start_server):
    server = await start_server()
    ann = await web_player(server, "Ann")
    ann.send("LOGOUT")
    await ann.expect("You are logged out.")
    await ann.quiet()
    ann.views.clear()
    await web_log_in(ann, "Ann", create=False)
    assert (await ann.view("Char.Name"))["name"] == "Ann"
    assert (await ann.view("Room.Info"))["kind"] == "lobby"
    await ann.close()


async def test_quit_ends_the_session_the_page_does_not_come_back_with_it(start_server):
    server = await start_server()
    ann = await web_player(server, "Ann")
    token = ann.tokens[-1]
    ann.send("QUIT")
    await ann.expect("Goodbye. Come back soon!")
    await ann.wait_closed()
    assert ann.tokens[-1] is None
    await ann.close()
    again = await WebClient.open(server.web_port)
    again.send_json({"resume": token})
    await again.expect("That session has ended")
    await again.close()


async def test_logging_out_retracts_every_token_the_page_was_given(start_server, monkeypatch):
    monkeypatch.setattr("server.web.TOKEN_REFRESH", 0.1)
    server = await start_server()
    ann = await web_player(server, "Ann")
    while len([token for token in ann.tokens if token]) < 3:
        await ann._receive(1.0)
    given = [token for token in ann.tokens if token]
    ann.send("LOGOUT")
    await ann.expect("You are logged out.")
    await ann.close()
    for token in given:
        client = await WebClient.open(server.web_port)
        client.send_json({"resume": token})
        await client.expect("That session has ended")
        await client.close()


async def test_a_page_has_no_character_set_to_choose(start_server):
    server = await start_server()
    page = await web_player(server, "Ann")
    await page.command("@charset cp1250", "A browser always reads and writes UTF-8: there is nothing to choose.")
    await page.command("@charset", "Your text is sent and read in UTF-8.")
    await page.close()


async def test_a_page_that_wraps_text_itself_is_sent_lines_unwrapped_and_told_which_to_keep_whole(start_server):
    """This release's page wraps the text to its width at every moment (?wrap=page): each
    line comes whole, those never to be wrapped marked (an example in help, a board's lines)."""
    server = await start_server()
    page = await WebClient.open(server.web_port, cols=40, page_wraps=True)
    await page.expect(WELCOME_END)
    await web_log_in(page, "Ann")
    words = " ".join(f"word{i}" for i in range(30))
    page.send(f"say {words}")
    said = await page.expect(r'You say, "word0[^"]*"')
    assert "\n" not in said.group(0) and len(said.group(0)) > 40
    page.send("help gnav")
    await page.expect(r"\n\x04 +Cuckoo: shown; the deal ends at once\.\n")
    # A page of an earlier release (no ?wrap=page) is sent the text wrapped, as before.
    old = await web_player(server, "Bo")
    old.send_json({"cols": 40})
    old.send(f"say {words}")
    wrapped = await old.expect(r'You say, "word0[^"]*"')
    assert "\n" in wrapped.group(0) and "\x04" not in old.transcript
    await page.close()
    await old.close()
