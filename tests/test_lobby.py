"""The lobby as a place to start games, over real connections: ``play <game>`` (a game
against computer players in one command) and the ``Lobby.List`` board the browser page
draws its lobby from (the games, the rooms and who is online)."""

from __future__ import annotations

import asyncio

from commands import lobby
from games import KINDS
from i18n import _, language
from tests.client import DO, MudClient, iac
from tests.conftest import WELCOME_END, log_in
from tests.gnav_players import GMCP
from tests.test_web import telnet_player, web_player


async def test_play_makes_a_room_seats_computer_players_and_starts_at_once(server):
    ann = await telnet_player(server, "Ann")
    await ann.command("play gnav", r"A match of Gnav begins")
    room = await server.rooms.find("Gnav 1")
    assert room is not None and room.table.state.phase in ("playing", "over")
    seats = room.table.state.seats
    assert [seat.name for seat in seats][0] == "Ann" and len(seats) == 4
    assert all(seat.bot == "normal" for seat in seats[1:])
    assert room.table.state.host == seats[0].account_id

    # Another player's quick game takes the next free name; a spectator sees its moves.
    bo = await telnet_player(server, "Bo")
    await bo.command("play ys", r"A game of Ys begins")
    assert [seat.name for seat in (await server.rooms.find("Ys 1")).table.state.seats][0] == "Bo"
    cy = await telnet_player(server, "Cy")
    await cy.command("watch Gnav 1", r"Watching: Cy\.")
    ann_id = seats[0].account_id
    for _tick in range(400):  # Ann's turn (the computer players move first if before her)
        if room.table.state.turn == ann_id:
            break
        await asyncio.sleep(0.05)
    ann.send("keep")
    await cy.expect(r"Ann keeps")


async def test_play_refuses_a_game_without_computer_players_and_makes_nothing(server):
    ann = await telnet_player(server, "Ann")
    await ann.command("play dvorak", r"Dvorak has no computer players: make a room with newroom/dvorak\s+<name>\.")
    for line in ("play", "play chess", "play " + "ж" * 500):
        ann.send(line)
        await ann.expect(r"Which game\? You can play gnav, ys against computer players now\. Usage: play\s+<game>")
    await ann.command("games", r"Play one now against computer players: play\s+<game>\s+\(gnav, ys\)\.")
    await ann.command("rooms", r"There are no rooms yet")


async def test_play_keeps_to_the_rooms_a_player_may_have(start_server):
    server = await start_server(max_rooms_per_player=2)
    ann = await telnet_player(server, "Ann")
    for number in (1, 2):
        await ann.command("play gnav", rf"You arrive in Gnav {number}|A match of Gnav begins")
        await ann.command("leave now", r"The Lobby")
    await ann.command("play gnav", r"You already have 2 rooms, the most a player may")
    assert await server.rooms.find("Gnav 3") is None


async def test_the_page_is_sent_the_lobby_s_games_rooms_and_players_and_kept_up_to_date(server, monkeypatch):
    monkeypatch.setattr(lobby, "REFRESH", 0.1)
    page = await web_player(server, "Ann")
    board = await page.view("Lobby.List")
    assert [(game["name"], game["quick"]) for game in board["games"]] == [
        ("dvorak", False),
        ("gnav", True),
        ("ys", True),
    ]
    assert board["rooms"] == [] and board["online"] == ["Ann"]
    assert all(game["title"] for game in board["games"])

    bo = await telnet_player(server, "Bo")
    await bo.command("newroom/gnav Fjord=sesame", r"You made room Fjord")
    await bo.command("addbot easy", r"takes a seat")
    board = await page.view("Lobby.List", lambda view: any(room["seated"][1:] for room in view["rooms"]))
    assert board["rooms"] == [
        {
            "name": "Fjord",
            "game": "gnav",
            "phase": "waiting",
            "seated": ["Bo", "Olga (bot)"],
            "watching": 0,
            "password": True,
        }
    ]
    assert board["online"] == ["Ann", "Bo"]
    await bo.command("start", r"A match of Gnav begins")
    await page.view("Lobby.List", lambda view: view["rooms"][0]["phase"] != "waiting")

    # In a room the page draws that room: the lobby's board is not sent there.
    page.send("play gnav")
    await page.view("Room.Info", lambda view: view.get("name") == "Gnav 1")
    sent = len(page.view_log)
    await asyncio.sleep(0.5)
    assert [package for package, _view in page.view_log[sent:] if package == "Lobby.List"] == []
    # Back in the lobby, it is sent at once, in the reader's language.
    page.send("@language cs")
    page.send("leave now")
    with language("cs"):
        czech = _(KINDS["gnav"].title)
    assert czech != _(KINDS["gnav"].title)
    board = await page.view("Lobby.List", lambda view: len(view["rooms"]) == 2 and view["games"][1]["title"] == czech)
    assert {room["name"] for room in board["rooms"]} == {"Fjord", "Gnav 1"}


async def test_a_telnet_client_with_gmcp_is_not_sent_the_lobby_s_board(server, monkeypatch):
    """Telnet players list rooms with "rooms"; their GMCP stays the packages they know."""
    monkeypatch.setattr(lobby, "REFRESH", 0.1)
    client = await MudClient.open(server.port)
    await client.expect(WELCOME_END)
    client.send(iac(DO, GMCP))
    await log_in(client, "Ann")
    await client.command("newroom Den", r"You made room Den")
    await client.command("leave", r"The Lobby")
    await asyncio.sleep(0.5)
    sent = b"".join(client.subnegotiations)
    assert b"Room.Info" in sent and b"Lobby.List" not in sent


async def test_play_is_the_lobby_s_and_makes_nothing_from_a_table(server):
    """At a table, "play" is the game's own word (a Ys action card), or none: a quick game
    is started from the lobby."""
    ann = await telnet_player(server, "Ann")
    await ann.command("play gnav", r"A match of Gnav begins")
    await ann.command("play ys", r"That command is used at Dvorak and Ys tables, not at this Gnav table\.")
    assert await server.rooms.find("Ys 1") is None
    assert (await server.rooms.find("Gnav 1")).table.state.phase == "playing"


async def test_two_players_who_play_at_once_get_a_room_each(server):
    ann, bo = await telnet_player(server, "Ann"), await telnet_player(server, "Bo")
    ann.send("play gnav")
    bo.send("play gnav")
    await ann.expect(r"A match of Gnav begins")
    await bo.expect(r"A match of Gnav begins")
    hosts = {name: (await server.rooms.find(name)).table.state.seats[0].name for name in ("Gnav 1", "Gnav 2")}
    assert sorted(hosts.values()) == ["Ann", "Bo"]
