"""Issue 46: what is said at a table while a seated player is away is kept for them
without making the speaker wait: held a moment, then written with the other lines of
that moment (see :mod:`persistence.talk`). A crash loses at most that moment; a clean
stop loses nothing; the database not answering loses nothing it answers again for."""

from __future__ import annotations

import asyncio
import signal

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.engine import Engine

from persistence.database import DatabaseUnavailable
from persistence.models import RoomTalk
from persistence.rooms import RoomStore
from persistence.talk import FLUSH_EVERY, TALK_KEPT, KeptTalk
from tests.client import MudClient
from tests.conftest import WELCOME_END
from tests.players import flat, seated_at
from tests.server_process import ServerProcess


async def back_at_the_table(port: int, name: str, last: str) -> str:
    """What ``name``, connecting again, is told they missed, through the line ``last``."""
    client = await MudClient.open(port)
    try:
        await client.expect(WELCOME_END)
        client.send(f"connect {name} secret1")
        caught = await client.expect(rf"While you were away:\n((?:.*\n)*?.*{last}.*\n)", 10)
        return caught.group(1)
    finally:
        await client.close()


async def test_talk_survives_a_crash_a_moment_after_and_a_clean_stop_at_once(database_url, tmp_path):
    node = ServerProcess(database_url, tmp_path)
    await node.start()
    ann, bo = await seated_at(node.port, ["Ann", "Bo"], "Parlour", cards=8)
    await ann.ask("start")
    await bo.close()
    await ann.client.expect(r"Bo has disconnected; the seat is kept\.")
    for i in range(3):
        assert f'You say, "before the crash {i}"' in flat(await ann.ask(f"say before the crash {i}"))
    await asyncio.sleep(FLUSH_EVERY + 1)  # "a crash may lose at most the last second"
    assert await node.stop(signal.SIGKILL) == -signal.SIGKILL

    node = ServerProcess(database_url, tmp_path)
    await node.start()
    ann = await MudClient.open(node.port)
    await ann.expect(WELCOME_END)
    ann.send("connect Ann secret1")
    await ann.expect(r"You are back at your seat")
    ann.send("say said just before a clean stop")
    await ann.expect(r'You say, "said just before a clean stop"')
    assert await node.stop() == 0  # at once: the line is still held, and written on the way out

    node = ServerProcess(database_url, tmp_path)
    await node.start()
    try:
        missed = await back_at_the_table(node.port, "Bo", "said just before a clean stop")
    finally:
        await node.stop()
    for i in range(3):
        assert f'Ann says, "before the crash {i}"' in missed
    assert 'Ann says, "said just before a clean stop"' in missed


async def test_one_write_a_moment_for_every_line_and_room_and_only_the_last_kept(database):
    store = RoomStore(database)
    rooms = [await store.create(name, "dvorak", None) for name in ("North", "South")]
    talk = KeptTalk(database)
    statements: list[str] = []

    def counted(_conn, _cursor, statement, _parameters, _context, _executemany) -> None:
        statements.append(statement.split()[0].upper())

    event.listen(Engine, "before_cursor_execute", counted)
    try:
        for i in range(TALK_KEPT * 2 + 50):
            for room in rooms:
                talk.remember(room, f"line {i}", None)
        assert talk.pending() == 2 * TALK_KEPT  # no more is ever written than is kept
        await talk.flush()
    finally:
        event.remove(Engine, "before_cursor_execute", counted)
    writes = [kind for kind in statements if kind in ("INSERT", "DELETE", "UPDATE")]
    # One insert of every line, then a trim and a "used" mark a room: not one a line.
    assert sorted(writes) == ["DELETE", "DELETE", "INSERT", "UPDATE", "UPDATE"]

    for i in range(10):
        talk.remember(rooms[0], f"later {i}", None)
    await talk.flush()
    async with database.snapshot() as connection:
        for room, newest in zip(rooms, ("later 9", f"line {TALK_KEPT * 2 + 49}"), strict=True):
            kept = (
                await connection.execute(select(RoomTalk.text).where(RoomTalk.room_id == room).order_by(RoomTalk.id))
            ).scalars()
            kept = list(kept)
            assert len(kept) == TALK_KEPT and kept[-1] == newest
    assert talk.pending() == 0


async def test_lines_wait_while_the_database_does_not_answer_and_are_written_once_it_does(database, monkeypatch):
    store = RoomStore(database)
    room = await store.create("Cellar", "dvorak", None)
    talk = KeptTalk(database)
    real_write = database.run_write

    async def unanswered(*_args, **_kwargs):
        raise DatabaseUnavailable("the database does not answer")

    monkeypatch.setattr(database, "run_write", unanswered)
    talk.remember(room, "said in the outage", 7)
    with pytest.raises(DatabaseUnavailable):
        await talk.flush()
    talk.remember(room, "said after the failed write", 7)
    assert talk.pending() == 2
    monkeypatch.setattr(database, "run_write", real_write)
    await talk.flush()
    async with database.snapshot() as connection:
        kept = (await connection.execute(select(RoomTalk.text).order_by(RoomTalk.id))).scalars()
        assert list(kept) == ["said in the outage", "said after the failed write"]


async def test_a_line_said_is_written_within_the_moment_by_itself(database):
    store = RoomStore(database)
    room = await store.create("Attic", "dvorak", None)
    talk = KeptTalk(database)
    talk.remember(room, "nobody reads this yet", None)
    await asyncio.sleep(FLUSH_EVERY + 0.5)
    assert talk.pending() == 0
    async with database.snapshot() as connection:
        assert await connection.scalar(select(func.count()).select_from(RoomTalk)) == 1
