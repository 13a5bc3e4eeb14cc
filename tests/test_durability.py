"""Nothing acknowledged is lost: SIGKILL at random moments, many connections at once,
replaying every room's log, the check and replay commands, backups."""

from __future__ import annotations

import asyncio
import random
import signal
import sqlite3

import pytest
from sqlalchemy import select, update

from commands.dvorak.storage.decks import deck_size
from commands.dvorak.storage.models import CardRow, SavedDeck
from persistence.database import Database
from persistence.models import Account, EventRow
from persistence.rooms import RoomStore
from server.audit import check_rooms, replay_rooms
from tests.chaos import RandomPlayer, start_all, unconfirmed_in_log
from tests.players import ScriptedPlayer, flat
from tests.server_process import PROGRAM, ROOT, ServerProcess

KILLS = 20
ROOMS = (("North", ("Ann", "Bo", "Cy")), ("South", ("Di", "Ed", "Flo")))


async def account_ids(database_url: str) -> dict[str, int]:
    database = Database(database_url)
    try:
        async with database.snapshot() as connection:
            return {name: id_ for id_, name in await connection.execute(select(Account.id, Account.name))}
    finally:
        await database.dispose()


async def set_up_rooms(port: int) -> None:
    """Two rooms of three players, a deck each, games running with turns off."""
    for room, names in ROOMS:
        players = [await ScriptedPlayer.connect(port, name) for name in names]
        await players[0].ask(f"newroom {room}")
        for player in players[1:]:
            await player.ask(f"join {room}")
        await players[0].ask("set turns=off")
        for i in range(30):
            await players[0].ask(f"loadcard {room} card {i}/{'AT'[i % 2]}/Card number {i}.")
        await players[0].ask("start")
        for player in players:
            await player.close()


async def audit(database_url: str) -> tuple[list[str], dict[str, list]]:
    """Problems found by check and replay, and every room's event log."""
    database = Database(database_url)
    try:
        reports = await check_rooms(database) + await replay_rooms(database)
        store = RoomStore(database)
        logs = {name: await store.events(room_id) for room_id, name in await store.all_ids()}
    finally:
        await database.dispose()
    return [f"{r.name}: {p}" for r in reports for p in r.problems], logs


async def test_sigkill_at_random_moments_loses_no_confirmed_move(database_url, tmp_path):
    rng = random.Random(20261129)
    setup = ServerProcess(database_url, tmp_path)
    await setup.start()
    await set_up_rooms(setup.port)
    await setup.stop()
    ids = await account_ids(database_url)
    everyone = [RandomPlayer(name, ids[name], seed=i) for i, name in enumerate(n for _, names in ROOMS for n in names)]

    kills = 0
    for _ in range(KILLS):
        node = ServerProcess(database_url, tmp_path)
        await node.start()
        for player in everyone:
            await player.connect(node.port)
        tasks = await start_all(everyone)
        await asyncio.sleep(rng.uniform(0.05, 0.8))
        assert await node.stop(signal.SIGKILL) == -signal.SIGKILL
        kills += 1
        await asyncio.gather(*tasks)
        for player in everyone:
            await player.player.close()
        problems, logs = await audit(database_url)
        assert problems == []
        events = [event for log in logs.values() for event in log]
        assert unconfirmed_in_log(everyone, events) == []

    confirmed = sum(len(p.confirmed) for p in everyone)
    sent = sum(p.sent for p in everyone)
    print(f"\n{kills} SIGKILLs, {sent} commands sent, {confirmed} confirmed moves all found in the logs")
    assert kills >= 20
    assert confirmed >= 100


async def test_many_connections_hammering_one_room_lose_and_repeat_nothing(server, database_url):
    names = [f"Player{i}" for i in range(8)]
    scripted = [await ScriptedPlayer.connect(server.port, name) for name in names]
    await scripted[0].ask("newroom Crowded")
    for player in scripted[1:]:
        await player.ask("join crowded")
    await scripted[0].ask("set turns=off")
    for i in range(40):
        await scripted[0].ask(f"loadcard Crowd {i}/{'AT'[i % 2]}/Card {i}.")
    await scripted[0].ask("start")
    ids = await account_ids(database_url)
    players = [RandomPlayer(p.name, ids[p.name], seed=i, player=p) for i, p in enumerate(scripted)]
    for player in players:
        await player.refresh_hand()
    await asyncio.gather(*await start_all(players, moves=30))
    room = await server.rooms.find("crowded")
    events = await room.events()
    assert len(events) == room.seq
    assert [e.seq for e in events] == list(range(1, room.seq + 1))
    assert unconfirmed_in_log(players, events) == []
    problems, _ = await audit(database_url)
    assert problems == []
    # Every card is in exactly one place, and what players hold is what the room says.
    for player in players:
        await player.refresh_hand()
        assert player.hand == set(room.table.hand(player.account_id))


async def test_two_servers_on_one_database_racing_for_one_room_store_every_move_whole(start_server, database_url):
    # Without a broker, each server learns of the other's moves only when its own move
    # finds the room changed: then it reads them and stores again, holding the room.
    first, second = await start_server(), await start_server()
    ann, ben = await ScriptedPlayer.connect(first.port, "Ann"), await ScriptedPlayer.connect(second.port, "Ben")
    await ann.ask("newroom Race")
    await ben.ask("join race")

    async def proposals(player: ScriptedPlayer) -> list[str]:
        return [await player.ask(f"newcard {player.name} {i}/T/Proposed by {player.name}.") for i in range(15)]

    replies = await asyncio.gather(proposals(ann), proposals(ben))
    assert all("You propose a new card" in reply for reply in replies[0] + replies[1])
    problems, _ = await audit(database_url)
    assert problems == []
    database = Database(database_url)
    try:
        store = RoomStore(database)
        stored = await store.load(await store.find_id("Race"))
        events = await store.events(stored.id)
    finally:
        await database.dispose()
    assert [e.seq for e in events] == list(range(1, stored.seq + 1))
    assert sorted(e.event.actor_name for e in events if e.event.kind == "newcard") == ["Ann"] * 15 + ["Ben"] * 15
    assert len(stored.state.proposals) == 30
    numbers = [card.number for card in stored.state.cards.values()]
    assert len(numbers) == len(set(numbers)) == 30


async def test_every_room_replays_to_its_stored_state_after_a_long_random_game(server, database_url):
    for room, names in ROOMS:
        scripted = [await ScriptedPlayer.connect(server.port, name) for name in names]
        await scripted[0].ask(f"newroom {room}")
        for player in scripted[1:]:
            await player.ask(f"join {room}")
        await scripted[0].ask("set turns=off")
        for i in range(20):
            await scripted[0].ask(f"loadcard {room} {i}/{'AT'[i % 2]}/Text {i}.")
        await scripted[0].ask("start")
        ids = await account_ids(database_url)
        players = [RandomPlayer(p.name, ids[p.name], seed=len(room) + i, player=p) for i, p in enumerate(scripted)]
        for player in players:
            await player.refresh_hand()
        await asyncio.gather(*await start_all(players, moves=60))
        await scripted[1].ask("leave now")
        await scripted[0].ask("eliminate me")
    database = Database(database_url)
    try:
        reports = await replay_rooms(database)
        assert [r.name for r in reports] == ["North", "South"]
        assert all(r.sound for r in reports), reports
        assert all(r.sound for r in await check_rooms(database))
    finally:
        await database.dispose()


async def run_cli(*args: str) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        *PROGRAM, *args, cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    out, _ = await process.communicate()
    return process.returncode, out.decode()


async def test_check_and_replay_commands_find_damage(server, database_url):
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    await ann.ask("newroom Damaged")
    for i in range(6):
        await ann.ask(f"loadcard Card {i}/T/Text.")
    await ann.ask("start")
    code, out = await run_cli("check", "--database-url", database_url)
    assert code == 0 and "Damaged: ok" in out and "1 room sound." in out
    code, out = await run_cli("replay", "--room", "damaged", "--database-url", database_url)
    assert code == 0 and "Damaged: ok" in out
    await server.stop()
    database = Database(database_url)
    try:
        async with database.transaction() as connection:
            await connection.execute(update(CardRow).where(CardRow.number == 1).values(position=42))
            row = (
                await connection.execute(select(EventRow.seq, EventRow.deltas).where(EventRow.kind == "load"))
            ).first()
            await connection.execute(update(EventRow).where(EventRow.seq == row.seq).values(deltas=[]))
    finally:
        await database.dispose()
    code, out = await run_cli("check", "--database-url", database_url)
    assert code == 1 and "positions are not 0.." in out and "NOT sound" in out
    code, out = await run_cli("replay", "--database-url", database_url)
    assert code == 1 and "Damaged: PROBLEMS" in out and "cannot be replayed" in out


async def test_online_backup_of_sqlite_while_playing(start_server, tmp_path, backend):
    if backend != "sqlite":
        pytest.skip("backup copies SQLite databases; PostgreSQL is backed up with pg_dump")
    server = await start_server()
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    await ann.ask("newroom Backed Up")
    for i in range(10):
        await ann.ask(f"loadcard Card {i}/T/Text.")
    copy = tmp_path / "copy.sqlite3"
    busy = asyncio.create_task(ann.ask("set turns=off"))
    code, out = await run_cli("backup", str(copy), "--data-dir", str(tmp_path))
    await busy
    assert code == 0, out
    with sqlite3.connect(copy) as db:
        assert db.execute("SELECT name FROM accounts").fetchall() == [("Ann",)]
        assert db.execute("SELECT count(*) FROM cards").fetchone()[0] == 10
    code, out = await run_cli("check", "--database-url", f"sqlite:///{copy}")
    assert code == 0, out


async def test_a_database_made_before_the_quotas_and_digests_carries_on_whole(start_server, database_url):
    # A game in progress, a vote pending and a saved deck, taken back to the schema of
    # before (0003: no digests, makers, origins or deck sizes) and brought forward again.
    server = await start_server()
    ann, bo = await ScriptedPlayer.connect(server.port, "Ann"), await ScriptedPlayer.connect(server.port, "Bo")
    await ann.ask("newroom Old")
    await bo.ask("join old")
    # As rooms of that schema were: play goes on while a vote is pending.
    await ann.ask("set halt=off")
    await ann.ask("set turns=off")
    for i in range(12):
        await ann.ask(f"loadcard Old card {i}/T/Text {i}.")
    await ann.ask("start")
    await ann.ask("draw")
    await bo.ask("newcard Pending/T/Waiting for Ann.")
    await ann.ask("savedeck Before")
    await ann.close()
    await bo.close()
    await server.stop()
    database = Database(database_url)
    try:
        await database.downgrade("0003")
        await database.upgrade()
        assert [r.problems for r in await check_rooms(database) + await replay_rooms(database)] == [[], []]
        async with database.snapshot() as connection:
            data, size = (await connection.execute(select(SavedDeck.data, SavedDeck.size_bytes))).one()
        assert size == deck_size(data) > 0
    finally:
        await database.dispose()
    again = await start_server()
    ann = await ScriptedPlayer.connect(again.port, "Ann", create=False)
    assert "You draw #" in flat(await ann.ask("draw"))
    assert "decided: accepted" in flat(await ann.ask("approve 13"))
    assert "You save the room again as deck Before" in flat(await ann.ask("savedeck Before"))
    problems, _ = await audit(database_url)
    assert problems == []
