"""The database layer on each backend: migrations, accounts, SQLite durability settings,
and the guard on each room's row (its log's head)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
from datetime import UTC, datetime

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sqlalchemy import inspect, select, text
from sqlalchemy.ext.asyncio import AsyncConnection

from games.base import ascii_json, json_text
from games.dvorak.rules import Event, Table
from persistence import database as database_module
from persistence.accounts import AccountStore, NameTaken
from persistence.bulk import Bulk, RowWriter
from persistence.database import Database, DatabaseUnavailable, OutcomeUnknown, Writing, normalize_url
from persistence.group_commit import GroupCommit
from persistence.models import EventRow, Room
from persistence.rooms import EMPTY_LOG, LogHead, Move, RoomStore, StaleRoom, chain


async def table_names(database: Database) -> set[str]:
    async with database.snapshot() as connection:
        return set(await connection.run_sync(lambda sync: inspect(sync).get_table_names()))


async def test_migrations_go_up_from_empty_and_back_down(database_url):
    database = Database(database_url)
    try:
        assert await table_names(database) == set()
        await database.upgrade()
        assert {"accounts", "alembic_version"} <= await table_names(database)
        await database.upgrade()  # nothing pending: a no-op
        await database.downgrade()
        assert await table_names(database) <= {"alembic_version"}
        await database.upgrade()
        assert "accounts" in await table_names(database)
    finally:
        await database.dispose()


async def test_account_names_are_unique_case_insensitively(database):
    store = AccountStore(database)
    created = await store.create("Alice", "$argon2id$fake")
    found = await store.find("aLICE")
    assert found is not None and found.id == created.id and found.name == "Alice"
    with pytest.raises(NameTaken):
        await store.create("ALICE", "$argon2id$other")
    assert await store.find("Bob") is None


async def test_login_is_recorded_and_hash_replaced(database):
    store = AccountStore(database)
    created = await store.create("Alice", "$argon2id$old")
    await store.record_login(created.id, "$argon2id$new")
    found = await store.find("alice")
    assert found.password_hash == "$argon2id$new"
    assert found.last_login_at >= created.last_login_at


async def test_sqlite_runs_in_wal_with_full_sync_and_immediate_transactions(tmp_path):
    database = Database(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    try:
        async with database.transaction() as connection:
            assert (await connection.execute(text("PRAGMA journal_mode"))).scalar() == "wal"
            assert (await connection.execute(text("PRAGMA synchronous"))).scalar() == 2  # FULL
            assert (await connection.execute(text("PRAGMA busy_timeout"))).scalar() > 0
            # BEGIN IMMEDIATE took the write lock before any write: a second writer cannot start.
            other = sqlite3.connect(tmp_path / "x.sqlite3", timeout=0, isolation_level=None)
            try:
                with pytest.raises(sqlite3.OperationalError, match="locked"):
                    other.execute("BEGIN IMMEDIATE")
            finally:
                other.close()
    finally:
        await database.dispose()


async def test_a_batch_on_sqlite_holds_the_write_lock_from_its_first_statement(tmp_path):
    """The batch writer's BEGIN (sent to the driver directly) is IMMEDIATE too: before the
    work has written anything, no other writer can start."""
    path = tmp_path / "x.sqlite3"
    database = Database(f"sqlite:///{path}")
    refused: list[str] = []

    def work(writing: Writing) -> None:
        other = sqlite3.connect(path, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            refused.append(str(error))
        finally:
            other.close()

    try:
        await database.run_write(work)
        await database.run_write(work)  # and again, on the writer's connection as it was left
    finally:
        await database.dispose()
    assert refused == ["database is locked", "database is locked"]


async def test_sqlite_copies_its_wal_back_in_a_thread_of_its_own_while_writes_go_on(tmp_path, monkeypatch):
    """No commit copies the WAL back (SQLite's own checkpoint after 1,000 pages made the
    commit that met it wait for the copy); the checkpoint thread does, and the WAL starts
    over again and again however steadily it is written to."""
    monkeypatch.setattr(database_module, "CHECKPOINT_EVERY", 0.0)
    monkeypatch.setattr(database_module, "WAL_RESTART_PAGES", 50)
    path = tmp_path / "x.sqlite3"
    database = Database(f"sqlite:///{path}")
    wal = path.with_name("x.sqlite3-wal")
    try:
        async with database.transaction() as connection:
            assert (await connection.execute(text("PRAGMA wal_autocheckpoint"))).scalar() == 0
            await connection.execute(text("CREATE TABLE filler (data BLOB)"))
        largest = 0
        for _ in range(600):  # 2.4 MB written, one page a write, with no pause
            await database.run_write(
                lambda writing: writing.connection.exec_driver_sql("INSERT INTO filler VALUES (randomblob(4000))")
            )
            largest = max(largest, wal.stat().st_size)
    finally:
        await database.dispose()
    assert largest < 1024 * 1024
    # The database file itself holds what was written, without its WAL.
    copy = tmp_path / "copy.sqlite3"
    copy.write_bytes(path.read_bytes())
    connection = sqlite3.connect(copy)
    try:
        assert connection.execute("SELECT count(*) FROM filler").fetchone()[0] == 600
    finally:
        connection.close()


async def test_connections_postgresql_ended_are_replaced_before_anyone_uses_them(database, backend):
    """A restarted PostgreSQL (here: every backend of the database ended) leaves the pool
    holding closed connections; none of them is handed out, so the next transactions,
    reads and batches all go through on new ones rather than failing once each."""
    if backend != "postgresql":
        pytest.skip("SQLite has no server to lose")
    import asyncpg

    held = []
    async with database.snapshot() as first, database.snapshot() as second:
        for connection in (first, second):
            held.append((await connection.execute(text("SELECT pg_backend_pid()"))).scalar_one())
    admin = await asyncpg.connect(database.url.set(drivername="postgresql").render_as_string(hide_password=False))
    try:
        ended = await admin.fetch("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid", held)
    finally:
        await admin.close()
    assert [row[0] for row in ended] == [True, True]
    await asyncio.sleep(0.2)  # the event loop reads the ends of the sockets
    for _ in range(2):
        async with database.snapshot() as connection:
            assert (await connection.execute(text("SELECT pg_backend_pid()"))).scalar_one() not in held
    async with database.transaction() as connection:
        await connection.execute(text("CREATE TABLE marks (n integer)"))
    await database.run_write(lambda writing: writing.connection.exec_driver_sql("INSERT INTO marks VALUES (1)"))


async def test_a_connection_lost_as_postgresql_commits_leaves_the_outcome_unknown(database, backend):
    """PostgreSQL's connection lost as a transaction commits: whether the commit was made
    is not known (:class:`OutcomeUnknown`), where the connection lost before the commit
    is a plain outage, after which nothing was stored."""
    if backend != "postgresql":
        pytest.skip("SQLite has no server to lose")
    import asyncpg

    async with database.transaction() as connection:
        await connection.execute(text("CREATE TABLE marks (n integer)"))
    admin = await asyncpg.connect(database.url.set(drivername="postgresql").render_as_string(hide_password=False))

    async def end(connection: AsyncConnection) -> None:
        pid = (await connection.execute(text("SELECT pg_backend_pid()"))).scalar_one()
        assert (await admin.fetchval("SELECT pg_terminate_backend($1)", pid)) is True
        await asyncio.sleep(0.2)  # the event loop reads the end of the socket

    try:
        with pytest.raises(OutcomeUnknown):
            async with database.transaction() as connection:
                await connection.execute(text("INSERT INTO marks VALUES (1)"))
                await end(connection)
        with pytest.raises(DatabaseUnavailable) as outage:
            async with database.transaction() as connection:
                await end(connection)
                await connection.execute(text("INSERT INTO marks VALUES (2)"))
        assert not isinstance(outage.value, OutcomeUnknown)
    finally:
        await admin.close()
    async with database.snapshot() as connection:
        assert (await connection.execute(text("SELECT count(*) FROM marks"))).scalar_one() == 0


def test_plain_urls_get_async_drivers():
    assert normalize_url("sqlite:///x.db").drivername == "sqlite+aiosqlite"
    assert normalize_url("postgresql://u@127.0.0.1/db").drivername == "postgresql+asyncpg"
    with pytest.raises(ValueError):
        normalize_url("mysql://u@127.0.0.1/db")


async def test_the_migrations_build_exactly_the_schema_the_models_describe(database):
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from persistence.models import schema

    def differences(sync_connection):
        context = MigrationContext.configure(sync_connection, opts={"compare_type": True})
        return compare_metadata(context, schema())

    async with database.snapshot() as connection:
        assert await connection.run_sync(differences) == []


async def test_a_room_s_digest_chains_its_logged_events_and_guards_its_row(database):
    """Whatever a move stores, the room's digest is the chain of its events as the log
    gives them back; a copy at the stored seq with another digest cannot write."""
    ann, ben = [(await AccountStore(database).create(name, "$argon2id$fake")).id for name in ("Ann", "Ben")]
    store = RoomStore(database)
    room_id = await store.create("Den", "dvorak", None)
    stored = await store.load(room_id)
    assert stored.head == EMPTY_LOG
    table, head = Table(stored.state), stored.head

    async def move(make) -> None:
        nonlocal head
        make(table)
        head = await store.store(Move(room_id, head, table.state, table.take_changes()))

    await move(lambda t: t.sit(ann, "Ann"))
    await move(lambda t: t.sit(ben, "Ben"))
    for i in range(16):
        await move(lambda t, i=i: t.load_card(ann, "Ann", f"Card {i}", "Thing", f"Text \u00e9 {i}"))
    await move(lambda t: t.start(ann))
    await move(lambda t: t.propose_card(ben, "Idea", "Action", "Do it."))
    await move(lambda t: t.vote(ann, max(t.state.cards), "approve"))
    events = [logged.event for logged in await store.events(room_id)]
    assert head == LogHead(len(events), chain("", events)) == (await store.load(room_id)).head
    assert await store.heads() == {room_id: head}

    # A copy told of an event that was never stored, at the seq the database has reached.
    forged = Table((await store.load(room_id)).state)
    card = forged.state.piles[next(key for key in forged.state.piles if key[0] == "draw")][-1]
    fake = Event("draw", ann, "Ann", {"card": card, "visible": False}, [["move", card, "hand", ann, -1]])
    for delta in fake.deltas:
        forged.state.apply(delta)
    forged_head = LogHead(head.seq + 1, chain(head.digest, [fake]))
    await move(lambda t: t.draw(ben, forced=True))
    assert head.seq == forged_head.seq and head != forged_head
    forged.draw(ann, forced=True)
    changes = forged.take_changes()
    with pytest.raises(StaleRoom):
        await store.store(Move(room_id, forged_head, forged.state, changes))
    with pytest.raises(StaleRoom):
        await store.commit(room_id, forged_head, forged.state, changes)
    async with store.claimed(room_id) as claim:
        assert claim.head == head
        with pytest.raises(StaleRoom):
            await claim.store(forged_head, forged.state, changes)
    assert (await store.load(room_id)).head == head


async def test_an_item_the_database_refuses_fails_alone_not_the_batch_it_was_written_with(database):
    """Group commit writes what queued together in one transaction; if the database
    refuses one item's data (a lone surrogate, which no driver can encode), the others
    are written again each alone, and only that item's writer is told it failed."""
    batches: list[list[str]] = []

    def write(writing: Writing, items: list[str]) -> list[str | Exception]:
        batches.append(list(items))
        return [writing.connection.execute(text("SELECT :v"), {"v": item}).scalar_one() for item in items]

    commit: GroupCommit[str, str] = GroupCommit(database, write)
    stored = await asyncio.gather(*(commit.store(item) for item in ("Ann", "Bo\ud800", "Cy")), return_exceptions=True)
    assert stored[0] == "Ann" and stored[2] == "Cy"
    assert isinstance(stored[1], Exception) and not isinstance(stored[1], DatabaseUnavailable)
    assert batches == [["Ann", "Bo\ud800", "Cy"], ["Ann"], ["Bo\ud800"], ["Cy"]]


async def test_group_commit_writes_up_to_its_writers_batches_at_once_and_queues_the_rest():
    """Work that queues while every writer is busy waits for the first writer to be free,
    then goes in one batch; while a writer is free, it starts another batch at once."""

    class HeldDatabase:
        """Holds each write transaction open until the test lets it finish."""

        def __init__(self) -> None:
            self.open = 0
            self.most_open = 0
            self.finish = asyncio.Event()

        async def run_write(self, work, then=None):
            self.open += 1
            self.most_open = max(self.most_open, self.open)
            await self.finish.wait()
            self.open -= 1
            return committed(work, then)

    async def batches_written(writers: int) -> tuple[list[list[str]], int]:
        held = HeldDatabase()
        batches: list[list[str]] = []

        def write(_writing, items: list[str]) -> list[str]:
            batches.append(list(items))
            return [item.upper() for item in items]

        commit: GroupCommit[str, str] = GroupCommit(held, write, writers)  # type: ignore[arg-type]
        stores = []
        for item in ("a", "b", "c", "d"):
            stores.append(asyncio.create_task(commit.store(item)))
            for _ in range(3):
                await asyncio.sleep(0)  # each is being written, if a writer was free, before the next comes
        held.finish.set()
        assert await asyncio.gather(*stores) == ["A", "B", "C", "D"]
        return sorted(batches), held.most_open

    assert await batches_written(1) == ([["a"], ["b", "c", "d"]], 1)
    assert await batches_written(2) == ([["a"], ["b"], ["c", "d"]], 2)
    assert await batches_written(3) == ([["a"], ["b"], ["c"], ["d"]], 3)


def committed(work, then):
    """What a test's stand-in for :meth:`Database.run_write` does once it lets a write
    through: the work's result, told to ``then`` (if given) as a commit's would be."""
    result = work(None)
    if then is not None:
        then(result)
    return result


class QuickDatabase:
    """Writes each batch at once, without a database."""

    async def run_write(self, work, then=None):
        return committed(work, then)


def upper_case(_writing, items: list[str]) -> list[str]:
    """A batch writer whose outcome for each item is the item in capitals."""
    return [item.upper() for item in items]


async def test_group_commit_stores_what_comes_right_after_its_writer_finished():
    """The writer that has just written the last batch is done before its waiters run
    again: what one of them stores next starts a new writer, and is stored."""
    for writers in (1, 2):
        commit: GroupCommit[str, str] = GroupCommit(QuickDatabase(), upper_case, writers)  # type: ignore[arg-type]
        assert await commit.store("a") == "A"
        async with asyncio.timeout(1):
            assert await commit.store("b") == "B"


async def test_a_write_s_then_is_told_as_soon_as_the_commit_is_made(database, backend):
    """``run_write``'s ``then`` gets the work's result once the commit is made, and never
    for a write that fails. With SQLite it is called in the turn of the event loop that
    learns of the commit from the commit thread: a task it wakes goes on in the turn in
    which the caller does, not the one after (the group commit's waiters, told so,
    answer a turn sooner)."""
    async with database.transaction() as connection:
        await connection.execute(text("CREATE TABLE marks (n integer)"))
    loop = asyncio.get_running_loop()
    turns, counting = 0, True

    def count_turns() -> None:
        nonlocal turns
        turns += 1
        if counting:
            loop.call_soon(count_turns)

    told: asyncio.Future[int] = loop.create_future()

    async def woken() -> int:
        await told
        return turns

    def work(writing: Writing) -> int:
        writing.connection.exec_driver_sql("INSERT INTO marks VALUES (1)")
        return 1

    waiting = asyncio.create_task(woken())
    count_turns()
    assert await database.run_write(work, told.set_result) == 1
    caller_went_on = turns
    assert told.result() == 1
    assert await waiting == caller_went_on + (0 if backend == "sqlite" else 1)
    counting = False

    def failing(writing: Writing) -> None:
        writing.connection.exec_driver_sql("INSERT INTO marks VALUES (2)")
        raise ValueError("refused")

    never: list[object] = []
    with pytest.raises(ValueError):
        await database.run_write(failing, never.append)
    assert never == []
    async with database.snapshot() as connection:
        assert (await connection.execute(text("SELECT count(*) FROM marks"))).scalar_one() == 1


async def test_a_batch_s_answer_comes_after_its_waiters_went_on_in_the_same_turn():
    """The group commit's ``answered`` runs once the waiters of a batch have gone on (told
    its outcome), before anything they scheduled for the next turn of the event loop."""
    order: list[str] = []
    loop = asyncio.get_running_loop()

    commit: GroupCommit[str, str] = GroupCommit(  # type: ignore[arg-type]
        QuickDatabase(), upper_case, 1, answered=lambda: order.append("answered")
    )

    async def waiter(item: str) -> None:
        order.append(f"{await commit.store(item)} went on")
        loop.call_soon(order.append, f"{item}'s next turn")

    await asyncio.gather(waiter("a"), waiter("b"))
    await asyncio.sleep(0)
    assert order == ["A went on", "B went on", "answered", "a's next turn", "b's next turn"]


async def test_group_commit_items_wait_until_a_writer_takes_them_and_are_written_as_they_are_then():
    """An item may still be changed while it waits (a room adds the moves made meanwhile
    to its waiting move): it waits until a writer takes it, and is written as it is then."""
    release = asyncio.Event()

    class HeldDatabase:
        async def run_write(self, work, then=None):
            await release.wait()
            return committed(work, then)

    def write(_writing, items: list[list[str]]) -> list[str]:
        return ["+".join(item) for item in items]

    commit: GroupCommit[list[str], str] = GroupCommit(HeldDatabase(), write, 1)  # type: ignore[arg-type]
    first, second = ["a"], ["b"]
    stores = [asyncio.create_task(commit.store(first))]
    await asyncio.sleep(0)  # the writer takes the first
    stores.append(asyncio.create_task(commit.store(second)))
    await asyncio.sleep(0)
    assert not commit.waiting(first) and commit.waiting(second) and not commit.waiting(["b"])
    second.append("c")
    release.set()
    await asyncio.sleep(0)
    assert not commit.waiting(second)
    assert await asyncio.gather(*stores) == ["a", "b+c"]


async def test_an_item_whose_waiter_is_cancelled_before_a_writer_takes_it_is_never_written():
    """A waiter cancelled while its item is queued takes the item out: nothing of it is
    written (its room undoes it and makes what joined it again). Once a writer has taken
    an item, cancelling its waiter does not stop it being written."""
    release = asyncio.Event()
    written: list[str] = []

    class HeldDatabase:
        async def run_write(self, work, then=None):
            await release.wait()
            return committed(work, then)

    def write(_writing, items: list[str]) -> list[str]:
        written.extend(items)
        return [item.upper() for item in items]

    commit: GroupCommit[str, str] = GroupCommit(HeldDatabase(), write, 1)  # type: ignore[arg-type]
    taken = asyncio.create_task(commit.store("a"))
    await asyncio.sleep(0)  # the writer takes it
    queued = [asyncio.create_task(commit.store(item)) for item in ("b", "c", "d")]
    await asyncio.sleep(0)
    assert commit.waiting("c")
    queued[1].cancel()
    taken.cancel()
    await asyncio.sleep(0)
    assert not commit.waiting("c")
    release.set()
    assert await asyncio.gather(queued[0], queued[2]) == ["B", "D"]
    assert written == ["a", "b", "d"]
    assert taken.cancelled() and queued[1].cancelled()


async def test_a_waiter_cancelled_once_its_item_was_taken_waits_for_the_write_and_is_told_how_it_went():
    """Cancelling the waiter of an item a writer has taken does not end it at once: it
    waits (cancelled again or not) until the write is over, so nothing the writer reads
    of the item changes meanwhile, and is told the outcome, or the error, before the
    cancellation goes on."""
    release = asyncio.Event()
    told: list[tuple[str, object]] = []

    class HeldDatabase:
        async def run_write(self, work, then=None):
            await release.wait()
            return committed(work, then)

    def write(_writing, items: list[str]) -> list[str | Exception]:
        return [ValueError(item) if item.startswith("bad") else item.upper() for item in items]

    commit: GroupCommit[str, str] = GroupCommit(  # type: ignore[arg-type]
        HeldDatabase(), write, 1, cancelled_outcome=lambda item, outcome: told.append((item, outcome))
    )
    waiters = [asyncio.create_task(commit.store(item)) for item in ("a", "bad b")]
    await asyncio.sleep(0)  # the writer takes both
    for waiter in waiters:
        waiter.cancel()
    for _ in range(3):
        await asyncio.sleep(0)
    waiters[0].cancel()
    await asyncio.sleep(0)
    assert not any(waiter.done() for waiter in waiters), "they wait for the write"
    release.set()
    for waiter in waiters:
        with pytest.raises(asyncio.CancelledError):
            await waiter
    assert [(item, str(outcome)) for item, outcome in told] == [("a", "A"), ("bad b", "bad b")]
    assert isinstance(told[1][1], ValueError)
    assert commit._late == {}, "nothing is kept once told"


async def test_a_batch_is_told_its_outcome_once_even_if_the_commit_s_news_comes_after_its_failure():
    """A writer interrupted while the commit thread commits tells the batch it was
    interrupted; the commit's own news, coming after, is then ignored: each waiter is
    told once, and nothing is kept for a waiter that does not exist."""

    class InterruptedDatabase:
        async def run_write(self, work, then=None):
            asyncio.get_running_loop().call_soon(then, work(None))
            raise DatabaseUnavailable("the write was interrupted")

    commit: GroupCommit[str, str] = GroupCommit(InterruptedDatabase(), upper_case, 1)  # type: ignore[arg-type]
    outcomes = await asyncio.gather(commit.store("a"), commit.store("b"), return_exceptions=True)
    assert [str(outcome) for outcome in outcomes] == ["the write was interrupted"] * 2
    await asyncio.sleep(0)  # the commit's news
    assert commit._late == {}


async def test_moves_of_many_rooms_stored_at_once_each_extend_their_own_room_s_log(database):
    """Thirty rooms moving at once, their moves stored in batches (several written at once
    on PostgreSQL, see Database.writers): every room's log holds its own moves, in order,
    and its head chains them."""
    assert database.writers == (1 if database.backend == "sqlite" else 2)
    ann = (await AccountStore(database).create("Ann", "$argon2id$fake")).id
    store = RoomStore(database)
    rooms = [await store.create(f"Den{i}", "dvorak", None) for i in range(30)]

    async def play(room_id: int) -> LogHead:
        stored = await store.load(room_id)
        table, head = Table(stored.state), stored.head
        table.sit(ann, "Ann")
        head = await store.store(Move(room_id, head, table.state, table.take_changes()))
        for i in range(4):
            table.load_card(ann, "Ann", f"Card {room_id}-{i}", "Thing", "Text")
            head = await store.store(Move(room_id, head, table.state, table.take_changes()))
        return head

    heads = await asyncio.gather(*(play(room_id) for room_id in rooms))
    for room_id, head in zip(rooms, heads, strict=True):
        events = [logged.event for logged in await store.events(room_id)]
        assert [event.kind for event in events] == ["join"] + ["load"] * 4
        assert [event.deltas[0][1]["name"] for event in events[1:]] == [f"Card {room_id}-{i}" for i in range(4)]
        assert head == LogHead(5, chain("", events)) == (await store.load(room_id)).head
        assert await store.row_problems(room_id) == []


async def test_a_batch_s_statements_store_every_kind_of_value_for_any_number_of_rows(database):
    """The multi-row statements a batch of moves runs (persistence.bulk, on SQLite and
    PostgreSQL each in its own form): JSON given as objects and as text already (with a
    null inside), booleans, moments and text that needs quoting come back as written (JSON
    with a key that is not a string or an integer past 64 bits as the standard library
    reads it back), and an update changes exactly the rows its keys name, for one row as
    for several."""
    store = RoomStore(database)
    rooms = [await store.create(f"Den{i}", "dvorak", None) for i in range(4)]
    events = EventRow.__table__
    fields = ("room_id", "seq", "at", "who", "name", "kind", "forced", "d", "dl")
    insert_events = Bulk.insert(events, tuple(c.name for c in events.columns), fields)
    update_rooms = Bulk.update(Room.__table__, {"id": "r"}, ("phase", "settings", "used_at"))
    moment = datetime(2026, 12, 2, 10, 30, 5, 123456, tzinfo=UTC)

    def event(room: int, seq: int) -> dict[str, object]:
        return {
            "room_id": room, "seq": seq, "at": moment, "who": seq, "name": "O'Neil; --", "kind": "say",
            "forced": seq % 2 == 0, "d": {"text": "\u00e9 \"quoted\"", "n": [1, None]}, "dl": '[["move",1]]',
        }  # fmt: skip

    def room_settings(room: int) -> dict[object, object]:
        return {"k": room, 7: "a key not a string", "big": 2**70, "small": 1e-05, "name": "Zo\u00eb"}

    def write(writing, batch) -> None:
        rows = RowWriter.for_writing(writing)
        rows.write(insert_events, batch)
        rows.write(update_rooms, [{"r": room, "phase": "over", "settings": room_settings(room), "used_at": moment}
                                  for room in {row["room_id"] for row in batch}])  # fmt: skip
        rows.finish()

    await database.run_write(lambda writing: write(writing, [event(rooms[0], 1)]))
    several = [event(rooms[1], 1), event(rooms[1], 2), event(rooms[2], 1)]
    await database.run_write(lambda writing: write(writing, several))
    async with database.snapshot() as connection:
        stored = (await connection.execute(select(events).order_by(events.c.room_id, events.c.seq))).all()
        room_rows = (await connection.execute(select(Room.__table__).order_by(Room.__table__.c.id))).all()
    assert [(row.room_id, row.seq) for row in stored] == [(rooms[0], 1), (rooms[1], 1), (rooms[1], 2), (rooms[2], 1)]
    for row in stored:
        assert row.created_at == moment and row.actor_account_id == row.seq and row.actor_name == "O'Neil; --"
        assert row.forced is (row.seq % 2 == 0)
        assert row.data == {"text": '\u00e9 "quoted"', "n": [1, None]} and row.deltas == [["move", 1]]
    assert [(row.phase, row.settings, row.used_at) for row in room_rows[:3]] == [
        ("over", json.loads(json.dumps(room_settings(room))), moment) for room in rooms[:3]
    ]
    assert room_rows[3].phase != "over" and room_rows[3].used_at != moment


@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
        lambda inner: st.lists(inner) | st.dictionaries(st.text() | st.integers(), inner),
        max_leaves=20,
    )
)
def test_json_text_reads_back_as_the_standard_library_s_json(value):
    """What is stored or sent as JSON (games.base.json_text: orjson, or the standard
    library where orjson refuses) reads back as ``json.dumps`` would, and is always text
    that can be sent as UTF-8 (a lone surrogate escaped, not written raw)."""
    text = json_text(value)
    text.encode()
    assert json.loads(text) == json.loads(json.dumps(value))


@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(),
        lambda inner: st.lists(inner) | st.dictionaries(st.text() | st.integers(), inner),
        max_leaves=20,
    ),
    st.floats(allow_nan=False, allow_infinity=False),
)
@example({"\x7f": None}, 0.0)  # DEL: ASCII that the standard library escapes (found by Hypothesis)
def test_ascii_json_is_the_standard_library_s_compact_json(value, number):
    """GMCP's JSON (games.base.ascii_json, by orjson where it can) is byte for byte what
    telnetlib3 wrote with the standard library: ASCII, everything else escaped; a float
    may be written otherwise, but is the same number."""
    assert ascii_json(value) == json.dumps(value, separators=(",", ":")).encode()
    with_float = ascii_json([value, number])
    assert with_float.isascii() and json.loads(with_float) == json.loads(json.dumps([value, number]))


def test_a_digest_link_is_the_sha256_of_the_previous_digest_and_the_event_s_json():
    event = Event("say", 7, 'Zoë "Z"', {"text": "✓\n"}, [["setting", "handsize", 6]], forced=True)
    stored = {"kind": "say", "actor": 7, "actor_name": 'Zoë "Z"', "data": event.data, "deltas": event.deltas}
    text = json.dumps({**stored, "forced": True}, separators=(",", ":"))
    first = hashlib.sha256(text.encode()).hexdigest()
    assert chain("", [event]) == first
    assert chain("", [event, event]) == hashlib.sha256((first + text).encode()).hexdigest()


def test_the_digest_is_of_the_event_as_its_one_serialiser_writes_it():
    event = Event("draw", 3, "Åsa “Ann”", {"card": 5, "visible": False}, [["move", 5, "hand", 3, -1]], True)
    as_json = json.dumps(event.as_dict(), separators=(",", ":"))
    assert chain("", [event]) == hashlib.sha256(as_json.encode()).hexdigest()
    assert Event.from_dict(json.loads(as_json)) == event
