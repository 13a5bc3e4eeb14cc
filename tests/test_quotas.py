"""Quotas on what a player can make (cards in a room, saved decks, rooms), each reached
over a real connection: a clear refusal, nothing changed, nothing already stored lost.
And rooms nobody uses are let go from memory, and come back whole when used again."""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select

import commands.rooms as rooms_commands
from commands.dvorak.storage.models import CardRow, SavedDeck
from persistence.models import Room
from server.rooms import GameRoom
from tests.players import ScriptedPlayer, flat


async def test_a_room_holds_only_so_many_cards_and_rules(start_server):
    server = await start_server(max_cards_per_room=5)
    host = await ScriptedPlayer.connect(server.port, "Host")
    await host.ask("newroom Full")
    for i in range(4):
        await host.ask(f"loadcard Card {i}/T/Text {i}.")
    await host.ask("loadrule Rule/The fifth.")
    refusal = flat(await host.ask("loadcard One more/T/Too many."))
    assert "This room already holds 5 cards and rules, the most a room may." in refusal
    assert "already holds" in flat(await host.ask("newcard Proposed/T/Also too many."))
    assert "already holds" in flat(await host.ask("newrule Proposed rule/Also too many."))
    room = await server.rooms.find("full")
    assert room is not None and len(room.table.state.cards) == 5
    # Removed cards do not count: clearing the deck makes room again.
    await host.ask("cleardeck")
    assert "You add a card" in flat(await host.ask("loadcard Fresh/T/Fits again."))
    async with server.database.snapshot() as connection:
        assert await connection.scalar(select(func.count()).select_from(CardRow)) == 6


async def test_a_saved_deck_too_many_or_too_big_is_refused_and_the_others_are_kept(start_server):
    server = await start_server(max_saved_decks=2, max_saved_deck_bytes=20_000)
    host = await ScriptedPlayer.connect(server.port, "Host")
    await host.ask("newroom Saver")
    for i in range(5):
        await host.ask(f"loadcard Card {i}/T/Text {i}.")
    assert "You save the room as deck One" in flat(await host.ask("savedeck One"))
    assert "You save the room as deck Two" in flat(await host.ask("savedeck Two"))
    refusal = flat(await host.ask("savedeck Three"))
    assert "You have 2 saved decks, the most a player may keep." in refusal
    # Saving over one of your own is allowed: it counts once, at its new size.
    assert "You save the room again as deck Two" in flat(await host.ask("savedeck Two"))
    for i in range(5, 60):
        await host.ask(f"loadcard Card {i}/T/{'A long text. ' * 20}")
    refusal = flat(await host.ask("savedeck One"))
    assert "a player may keep. Delete one first" in refusal
    listing = flat(await host.ask("listdecks"))
    assert "Yours: 2 of 2 decks" in listing
    async with server.database.snapshot() as connection:
        kept = dict((await connection.execute(select(SavedDeck.name, SavedDeck.card_count))).all())
    assert kept == {"One": 5, "Two": 5}
    await host.ask("deletedeck Two")
    await host.ask("cleardeck")
    await host.ask("loadcard Small/T/Fits.")
    assert "You save the room as deck Three" in flat(await host.ask("savedeck Three"))


async def test_a_player_hosts_only_so_many_rooms_even_empty_ones_they_made(start_server):
    server = await start_server(max_rooms_per_player=2)
    maker = await ScriptedPlayer.connect(server.port, "Maker")
    await maker.ask("newroom First")
    await maker.ask("newroom Second")  # leaves First empty: it still counts
    refusal = flat(await maker.ask("newroom Third"))
    assert "You already have 2 rooms, the most a player may: First, Second (those you host" in refusal
    assert "delete one (delroom <room>)" in refusal
    # Made at once from two connections: still no more.
    twin = await ScriptedPlayer.connect(server.port, "Maker", create=False)
    replies = await asyncio.gather(maker.ask("newroom Fourth"), twin.ask("newroom Fifth"))
    assert all("the most a player may" in flat(reply) for reply in replies)
    # Handing a room over frees a place.
    other = await ScriptedPlayer.connect(server.port, "Other")
    await other.ask("join second")
    await maker.ask("host Other")
    assert "You made room Third" in flat(await maker.ask("newroom Third"))
    async with server.database.snapshot() as connection:
        assert await connection.scalar(select(func.count()).select_from(Room)) == 3


async def test_rooms_nobody_uses_are_let_go_and_come_back_whole(start_server):
    server = await start_server(room_unload_seconds=0.4)
    host = await ScriptedPlayer.connect(server.port, "Host")
    guest = await ScriptedPlayer.connect(server.port, "Guest")
    await host.ask("newroom Sleepy")
    await guest.ask("join sleepy")
    for i in range(6):
        await host.ask(f"loadcard Card {i}/T/Text {i}.")
    await host.ask("newcard Pending/T/Waiting for a vote.")
    room = await server.rooms.find("sleepy")
    assert room is not None
    # Both drop: their seats are kept, and nobody here is in the room any more.
    await host.close()
    await guest.close()
    for _ in range(40):
        if server.rooms.loaded_room(room.id) is None:
            break
        await asyncio.sleep(0.1)
    assert server.rooms.loaded_room(room.id) is None
    assert room.key not in server.hub.places
    host = await ScriptedPlayer.connect(server.port, "Host", create=False)
    assert "You are back at your seat in room Sleepy" in flat(host.client.transcript)
    viewed = flat(await host.ask("viewall"))
    assert all(f"Card {i}" in viewed for i in range(6))
    assert "Pending" in flat(await host.ask("viewvote"))
    # While someone is in it, it stays.
    await asyncio.sleep(1.0)
    assert server.rooms.loaded_room(room.id) is not None


async def test_a_room_let_go_while_its_player_comes_back_is_the_one_they_sit_in(start_server, monkeypatch):
    # Coming back takes a few trips to the database between finding the room and going in;
    # a room let go meanwhile (nobody in it yet) must not be the copy the player enters,
    # which no one else would find: they sit in the room as this node has it.
    server = await start_server(room_unload_seconds=0.2)
    host = await ScriptedPlayer.connect(server.port, "Host")
    await host.ask("newroom Slow")
    await host.close()
    room = await server.rooms.find("slow")
    assert room is not None
    for _ in range(40):
        if server.rooms.loaded_room(room.id) is None:
            break
        await asyncio.sleep(0.1)
    came_back = GameRoom.came_back

    async def slowly(self, *args, **kwargs):
        await asyncio.sleep(0.6)  # longer than the room stays loaded with nobody in it
        return await came_back(self, *args, **kwargs)

    monkeypatch.setattr(GameRoom, "came_back", slowly)
    host = await ScriptedPlayer.connect(server.port, "Host", create=False)
    assert "You are back at your seat in room Slow" in flat(host.client.transcript)
    here = server.rooms.loaded_room(room.id)
    assert here is not None and [player.name for player in here.occupants.values()] == ["Host"]
    guest = await ScriptedPlayer.connect(server.port, "Guest")
    await guest.ask("join slow")
    await host.client.expect("Guest arrives")


async def test_a_room_let_go_while_a_player_joins_it_is_the_one_they_sit_in(start_server, monkeypatch):
    # The same on the way in by join: between finding the room and going in, its password
    # is checked (a slow hash, on purpose), and a room nobody is in may be let go meanwhile.
    server = await start_server(room_unload_seconds=0.2)
    host = await ScriptedPlayer.connect(server.port, "Host")
    await host.ask("newroom Gated=sesame")
    await host.ask("leave")
    room = await server.rooms.find("gated")
    assert room is not None
    checked = rooms_commands._check_room_password

    async def slowly(*args, **kwargs):
        await asyncio.sleep(0.6)  # longer than the room stays loaded with nobody in it
        return await checked(*args, **kwargs)

    monkeypatch.setattr(rooms_commands, "_check_room_password", slowly)
    guest = await ScriptedPlayer.connect(server.port, "Guest")
    assert "You take a seat" in flat(await guest.ask("join gated=sesame"))
    here = server.rooms.loaded_room(room.id)
    assert here is not None and [player.name for player in here.occupants.values()] == ["Guest"]
    await host.ask("join gated=sesame")
    await guest.client.expect("Host arrives")


async def test_commands_that_make_the_server_work_hard_take_more_of_the_command_rate(start_server):
    # savedeck snapshots and stores a whole room: ten commands' worth of the rate. Twenty
    # at once fit a burst of twenty ordinary commands, but not of twenty saves.
    server = await start_server(command_rate=10.0, command_burst=20, flood_seconds=0.5)
    host = await ScriptedPlayer.connect(server.port, "Host")
    await host.ask("newroom Heavy")
    await host.ask("loadcard Card/T/Text.")
    host.client.send(b"".join(b"savedeck Heavy\r\n" for _ in range(20)))
    await host.client.expect(r"\*\*\* You send commands far too fast", timeout=15)
    assert host.client.transcript.count("You save the room") < 5
    talker = await ScriptedPlayer.connect(server.port, "Talker")  # 7 of the 20: create costs 5
    for _ in range(12):
        await talker.ask("say ordinary commands are one each")
