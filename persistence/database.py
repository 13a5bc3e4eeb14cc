"""The database connection: one engine for SQLite or PostgreSQL, and its migrations.

SQLite (the embedded default) runs in WAL mode with ``synchronous=FULL`` (a commit is on
disk before anyone is told about it), a busy timeout, foreign keys on, and write
transactions opened with ``BEGIN IMMEDIATE`` so that two writers never deadlock halfway
through. PostgreSQL is reached through asyncpg.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from alembic import command as alembic_command
from alembic.config import Config as AlembicConfig
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import create_engine, event, make_url, text
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import DataError, DBAPIError, DisconnectionError, IntegrityError, ProgrammingError
from sqlalchemy.exc import TimeoutError as SQLAlchemyTimeoutError
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry, SingletonThreadPool

import migrations

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Key for the advisory lock that keeps two nodes from migrating one PostgreSQL at once.
_MIGRATION_LOCK_KEY = 0x0D0A_4A6B

#: Seconds a statement may wait (for SQLite's write lock, for PostgreSQL's answer) before
#: the database counts as not answering.
DEFAULT_TIMEOUT = 10.0


@dataclass
class Writing:
    """A write transaction as the work in it sees it (see :meth:`Database.run_write`)."""

    connection: Connection
    #: ``(sql, values)`` statements the work leaves to run on the driver's connection
    #: after it, just before the commit: on SQLite, off the event loop.
    with_commit: list[tuple[str, list[Any]]] = field(default_factory=list)

    def run_left_statements(self) -> None:
        """Run the statements left for the commit now (where no commit thread runs them)."""
        for statement, values in self.with_commit:
            self.connection.exec_driver_sql(statement, tuple(values))
        self.with_commit.clear()


class MigrationError(Exception):
    """The schema cannot be brought to the revision asked for: the database is at a
    revision this code does not know (a newer release migrated it), or the revision asked
    for is not one of this code's. The message says which, for an operator."""


class DatabaseUnavailable(Exception):
    """The database did not answer (stopped, unreachable, locked, timed out). What was
    being written was not stored, or its fate is unknown and the caller must reload."""


class OutcomeUnknown(DatabaseUnavailable):
    """The database stopped answering as a write was being committed, and could not say
    afterwards whether the commit was made: what was written may or may not be stored."""


class DatabaseFull(DatabaseUnavailable):
    """The database answered, but has no room left to store anything (a full disk)."""


#: How SQLite and PostgreSQL say that the disk is full.
_FULL = ("database or disk is full", "No space left on device", "DiskFullError")

_DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg", "postgres": "postgresql+asyncpg"}


def normalize_url(url: str) -> URL:
    """Parse ``url``, giving plain ``sqlite://`` and ``postgresql://`` URLs their async driver."""
    parsed = make_url(url)
    if parsed.drivername in _DRIVERS:
        parsed = parsed.set(drivername=_DRIVERS[parsed.drivername])
    if parsed.get_backend_name() not in ("sqlite", "postgresql"):
        raise ValueError(f"unsupported database {parsed.drivername!r}: use SQLite or PostgreSQL")
    return parsed


def describe_url(url: URL) -> str:
    """``url`` as text that is safe to log (no password)."""
    return url.render_as_string(hide_password=True)


#: How often, at most, the WAL is copied back into the database file (seconds): by a
#: thread of its own, never by a commit (see :meth:`Database._checkpoint_soon`).
CHECKPOINT_EVERY = 1.0
#: The WAL file is cut back to this size (bytes) when a checkpoint lets it start over.
WAL_SIZE_LIMIT = 64 * 1024 * 1024
#: A checkpoint is made again while more pages than this were added during the last,
#: at most :data:`CHECKPOINT_ROUNDS` times; a WAL of :data:`WAL_RESTART_PAGES` pages or
#: more is then started over (SQLite's own checkpoint came at 1,000 pages).
CHECKPOINT_TAIL = 256
CHECKPOINT_ROUNDS = 4
WAL_RESTART_PAGES = 1000
#: How many batches of moves (see :mod:`persistence.group_commit`) are written at once on
#: PostgreSQL, each on a connection of its own (SQLite has one writer). A batch there is
#: four round trips, each waiting for a turn of the busy event loop: with one writer, a
#: move waited for the batch before its own too. Two cut the p99 at 3,000 moves a second
#: (22-41 ms in three runs of four, against 72-156 ms); three made smaller batches that
#: cost the loop more; below saturation two cost some CPU a move (docs/benchmarks-history.md).
POSTGRESQL_WRITERS = 2


class Database:
    """An async engine plus the conventions every store relies on.

    ``transaction()`` opens a write transaction that commits when the block ends (or
    rolls back on an exception); ``snapshot()`` opens a read-only one.
    """

    def __init__(self, url: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.url = normalize_url(url)
        self.backend = self.url.get_backend_name()
        self.timeout = timeout
        self._sqlite_writer: Engine | None = None
        #: The SQLite database's file (None on PostgreSQL, or for an in-memory database).
        database = self.url.database
        self._sqlite_file = database if self.backend == "sqlite" and database and database != ":memory:" else None
        if self.backend == "sqlite":
            if self._sqlite_file is not None:
                Path(self._sqlite_file).expanduser().parent.mkdir(parents=True, exist_ok=True)
            self.engine = create_async_engine(self.url, connect_args={"timeout": timeout})
            self._configure_sqlite(self.engine.sync_engine)
            # Batched writes run on a plain sqlite3 connection in the event loop's own
            # thread: a batch is a few milliseconds of work, and a writer thread would
            # spend far longer waiting for the GIL than writing. It never waits for the
            # lock inside SQLite (that would stall every player): if another process
            # holds it, the write is retried after a pause, until the timeout.
            self._sqlite_writer = create_engine(
                self.url.set(drivername="sqlite+pysqlite"),
                poolclass=SingletonThreadPool,
                connect_args={"timeout": 0, "check_same_thread": False},
            )
            self._configure_sqlite(self._sqlite_writer, busy_ms=0)
            self._commit_thread = ThreadPoolExecutor(1, thread_name_prefix="sqlite-commit")
            self._checkpoint_thread = ThreadPoolExecutor(1, thread_name_prefix="sqlite-checkpoint")
            self._checkpoint: asyncio.Future[None] | None = None
            self._checkpointed_at = 0.0
        else:
            self.engine = create_async_engine(
                self.url,
                pool_size=20,
                max_overflow=20,
                pool_timeout=timeout,
                connect_args={"timeout": timeout, "command_timeout": timeout},
            )
            event.listen(self.engine.sync_engine, "checkout", _refuse_closed_connection)
        # A snapshot reads several tables (a room's row, its seats, a game's own rows): on
        # PostgreSQL, READ COMMITTED would let another node's commit land between two of
        # its statements; REPEATABLE READ gives all of them the moment of the first. (In
        # SQLite's WAL mode a read transaction is such a snapshot already.)
        isolation = {} if self.backend == "sqlite" else {"isolation_level": "REPEATABLE READ"}
        self._reader = self.engine.execution_options(dvorak_read_only=True, **isolation)
        #: SQLite allows one writer: this process's writers queue here rather than
        #: sleeping in SQLite's busy handler (other processes still meet the busy timeout).
        self._write_turn = asyncio.Lock() if self.backend == "sqlite" else None
        #: Told of every failure to answer (a :class:`DatabaseUnavailable` about to be
        #: raised; a :class:`DatabaseFull` too), once per failed transaction: the server
        #: counts them (see :mod:`server.metrics`).
        self.on_unavailable: Callable[[DatabaseUnavailable], None] | None = None

    @property
    def writers(self) -> int:
        """How many write transactions are worth running at once (group commit's batches)."""
        return 1 if self.backend == "sqlite" else POSTGRESQL_WRITERS

    def _configure_sqlite(self, engine: Engine, busy_ms: int | None = None) -> None:
        busy_ms = int(self.timeout * 1000) if busy_ms is None else busy_ms

        @event.listens_for(engine, "connect")
        def _configure(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
            # Let SQLAlchemy, not the sqlite3 module, decide when transactions begin.
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            for pragma in (
                "journal_mode=WAL",
                "synchronous=FULL",
                f"busy_timeout={busy_ms}",
                "foreign_keys=ON",
                # No commit of this process copies the WAL back into the database file
                # (SQLite's default: the one that finds 1,000 pages in it, which then
                # takes as long as that copy, with every move of its batch waiting);
                # the checkpoint thread does (Database._checkpoint_soon).
                "wal_autocheckpoint=0",
                f"journal_size_limit={WAL_SIZE_LIMIT}",
            ):
                cursor.execute(f"PRAGMA {pragma}")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _begin(connection: Connection) -> None:
            if connection.get_execution_options().get("dvorak_read_only"):
                connection.exec_driver_sql("BEGIN")
            elif engine is self._sqlite_writer:
                # Straight to the driver, as the batch's statements: a batch's BEGIN through
                # SQLAlchemy's statement machinery was a fifth of its cost on the event loop.
                _driver_connection(connection).execute("BEGIN IMMEDIATE")
            else:
                connection.exec_driver_sql("BEGIN IMMEDIATE")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction, committed when the block exits without an exception.
        Raises :class:`DatabaseUnavailable` if the database does not answer, and
        :class:`OutcomeUnknown` if it stopped answering as the commit was made."""
        async with self._write_turn if self._write_turn is not None else nullcontext():
            with self._observed(), _unavailable_as_such():
                async with self.engine.connect() as connection, connection.begin() as transaction:
                    yield connection
                    with _answer_lost_as_such():
                        await transaction.commit()
        self._checkpoint_soon()

    async def run_write(self, work: Callable[[Writing], T], then: Callable[[T], None] | None = None) -> T:
        """Run ``work`` in a write transaction and commit; its result. The work is plain
        synchronous SQLAlchemy: with SQLite it runs right here on the writer connection,
        with PostgreSQL on an async connection. Raises :class:`DatabaseUnavailable`.

        ``then``, if given, is called with the result on the event loop as soon as the
        commit is made: with SQLite in the turn of the loop that learns it from the
        commit thread, one turn before the caller goes on (what ``then`` wakes runs in
        the caller's turn, not the one after it)."""
        if self._sqlite_writer is None:
            async with self.transaction() as connection:
                result = await connection.run_sync(_work_then_left_statements, work)
            if then is not None:
                then(result)
            return result
        assert self._write_turn is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        async with self._write_turn:
            while True:
                try:
                    return await self._sqlite_write(work, then)
                except DatabaseUnavailable as outage:
                    if "locked" not in str(outage) or loop.time() >= deadline:
                        # Tries that found the lock taken and were made again are no
                        # failure: only the one given up on is told.
                        self._note(outage)
                        raise
                await asyncio.sleep(0.005)

    async def _sqlite_write(self, work: Callable[[Writing], T], then: Callable[[T], None] | None) -> T:
        """The work here; the statements it left for the commit (:attr:`Writing.with_commit`)
        and the commit, which waits for the disk, in the commit thread: SQLite lets go
        of the GIL meanwhile, so players are served. ``then`` as :meth:`run_write` says."""
        assert self._sqlite_writer is not None
        with _unavailable_as_such(), self._sqlite_writer.connect() as connection:
            transaction = connection.begin()
            try:
                writing = Writing(connection)
                result = work(writing)
                bulk = writing.with_commit
                raw = _driver_connection(connection)

                def finish() -> None:
                    for statement, values in bulk:
                        raw.execute(statement, values)
                    transaction.commit()

                loop = asyncio.get_running_loop()
                committing = self._commit_thread.submit(finish)
                committed: asyncio.Future[None] = loop.create_future()
                # The caller is woken and ``then`` called in one callback on the loop, in
                # that order: the caller goes on first (a writer, to its next batch, which
                # the commit thread can then write while the tasks ``then`` wakes go on),
                # and in the same turn as they do. (Two callbacks, each handed over by the
                # commit thread, could fall in different turns.)
                committing.add_done_callback(
                    lambda done: loop.is_closed() or loop.call_soon_threadsafe(_settle, done, committed, then, result)
                )
                try:
                    await committed
                except asyncio.CancelledError:
                    committing.cancel()  # not begun yet: then it never will be
                    raise
            except BaseException:
                if transaction.is_active:
                    transaction.rollback()
                raise
        self._checkpoint_soon()
        return result

    def _checkpoint_soon(self) -> None:
        """After a write to an SQLite file: copy the WAL back into the database file (see
        :meth:`_copy_wal_back`) if the last copy is done and began :data:`CHECKPOINT_EVERY`
        seconds ago or more."""
        if self._sqlite_writer is None or self._checkpoint is not None and not self._checkpoint.done():
            return
        database = self._sqlite_file
        if database is None:
            return
        loop = asyncio.get_running_loop()
        if loop.time() - self._checkpointed_at < CHECKPOINT_EVERY:
            return
        self._checkpointed_at = loop.time()
        self._checkpoint = asyncio.ensure_future(self._copy_wal_back(database))
        self._checkpoint.add_done_callback(_log_checkpoint_failure)

    async def _copy_wal_back(self, database: str) -> None:
        """SQLite's passive checkpoint, in the checkpoint thread, while this process's
        writers go on: each copies what was in the WAL when it began, so it is made again
        (a few times at most) until what they added meanwhile is under
        :data:`CHECKPOINT_TAIL` pages. Then, if the WAL is long enough to be worth
        starting over (:data:`WAL_RESTART_PAGES`), that tail is copied holding the
        writers' turn: all of the WAL copied, the next write starts it over (and cuts the
        file back to :data:`WAL_SIZE_LIMIT`). A WAL always being added to would otherwise
        grow without end. A reader still using part of the WAL keeps it for next time."""
        assert self._write_turn is not None
        loop = asyncio.get_running_loop()
        for _ in range(CHECKPOINT_ROUNDS):
            pages, copied = await loop.run_in_executor(
                self._checkpoint_thread, _passive_checkpoint, database, self.timeout
            )
            if pages - copied <= CHECKPOINT_TAIL:
                break
        if pages < WAL_RESTART_PAGES:
            return
        async with self._write_turn:
            await loop.run_in_executor(self._checkpoint_thread, _passive_checkpoint, database, self.timeout)

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[AsyncConnection]:
        """A read-only transaction: a consistent view that never blocks writers."""
        with self._observed(), _unavailable_as_such():
            async with self._reader.begin() as connection:
                yield connection

    async def ping(self) -> None:
        """Raise :class:`DatabaseUnavailable` unless the database answers a trivial
        write transaction: one that takes SQLite's write lock (and gives it back,
        having written nothing), or a PostgreSQL connection's. What a health check asks."""
        async with self.transaction() as connection:
            await connection.execute(text("SELECT 1"))

    @contextmanager
    def _observed(self) -> Iterator[None]:
        """Tell :attr:`on_unavailable` of a failure to answer raised inside."""
        try:
            yield
        except DatabaseUnavailable as outage:
            self._note(outage)
            raise

    def _note(self, outage: DatabaseUnavailable) -> None:
        if self.on_unavailable is not None:
            try:
                self.on_unavailable(outage)
            except Exception:
                log.exception("the observer of database failures failed")

    async def upgrade(self, revision: str = "head") -> None:
        """Apply Alembic migrations up to ``revision`` (all pending ones by default)."""
        await self._run_migrations(alembic_command.upgrade, revision)

    async def downgrade(self, revision: str = "base") -> None:
        """Undo Alembic migrations back to ``revision`` (an empty schema by default)."""
        await self._run_migrations(alembic_command.downgrade, revision)

    async def revision(self) -> str | None:
        """The schema's Alembic revision (None for a database never migrated)."""
        async with self.engine.connect() as connection:
            return await connection.run_sync(lambda sync: MigrationContext.configure(sync).get_current_revision())

    async def _run_migrations(self, step: Callable[[AlembicConfig, str], None], revision: str) -> None:
        sqlite = self.backend == "sqlite"

        def run(sync_connection: Connection) -> None:
            config = alembic_config()
            config.attributes["connection"] = sync_connection
            _refuse_unknown_revisions(config, sync_connection, revision)
            try:
                step(config, revision)
            except CommandError as error:
                raise MigrationError(str(error)) from None
            if sqlite:
                _refuse_broken_references(sync_connection)

        async with self.engine.connect() as connection:
            if sqlite:
                # SQLite changes a table (batch mode) by copying it and dropping the old
                # one, which fails while other tables' rows refer to it and foreign keys
                # are enforced. They are off for the migration (only possible outside a
                # transaction) and every reference is checked before it commits.
                await connection.run_sync(_enforce_foreign_keys, False)
            try:
                async with connection.begin():
                    if self.backend == "postgresql":
                        # Nodes starting together take turns; the second finds nothing to do.
                        await connection.execute(
                            text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK_KEY}
                        )
                    await connection.run_sync(run)
            finally:
                if sqlite:
                    await connection.run_sync(_enforce_foreign_keys, True)

    async def dispose(self) -> None:
        """Close every pooled connection. An SQLite file is left with everything copied
        back from its WAL, as far as no other process still reads it.

        SQLite's last connection to close copies the WAL back itself, but only if it can
        lock the file alone: two of this process's connections closing at once (the
        writer's, and the checkpoint thread's finishing) can each find the other there,
        and leave the last writes in the WAL (safe there, but the file alone then lacks
        them). So a last passive checkpoint is made once they are all closed."""
        await self.engine.dispose()
        if self._sqlite_writer is not None:
            self._sqlite_writer.dispose()
            self._commit_thread.shutdown(wait=False)
            if self._checkpoint is not None:
                await asyncio.wait([self._checkpoint])
            database = self._sqlite_file
            if database is not None and Path(database).expanduser().exists():
                try:
                    await asyncio.get_running_loop().run_in_executor(
                        self._checkpoint_thread, _passive_checkpoint, database, self.timeout
                    )
                except sqlite3.Error as error:
                    log.warning("copying the WAL back into the database file at the end failed: %s", error)
            self._checkpoint_thread.shutdown(wait=False)


def _refuse_closed_connection(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry, _proxy: Any) -> None:
    """Hand out no pooled PostgreSQL connection that the server has closed (restarted,
    or ended the backend): the pool drops it and takes another, or makes one.

    asyncpg learns of it without asking, as soon as the event loop reads the end of the
    socket, so checking costs nothing. SQLAlchemy's ``pool_pre_ping`` asks the server
    instead, with three round trips (BEGIN, an empty query, ROLLBACK) on every checkout:
    a fifth of a batch's and most of a read's. A connection lost without a word (the
    network cut) is found out by its first statement, which fails; the pool then
    replaces every connection of that age (SQLAlchemy's handling of disconnects)."""
    if dbapi_connection.driver_connection.is_closed():
        raise DisconnectionError("PostgreSQL closed the connection")


def _passive_checkpoint(database: str, timeout: float) -> tuple[int, int]:
    """Copy what SQLite's WAL holds back into ``database``'s file, as far as no reader
    still needs it (run in the checkpoint thread: SQLite lets go of the GIL meanwhile);
    the pages in the WAL, and how many of them are copied."""
    connection = sqlite3.connect(database, timeout=timeout, isolation_level=None)
    try:
        _busy, pages, copied = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    finally:
        connection.close()
    return max(pages, 0), max(copied, 0)


def _log_checkpoint_failure(checkpoint: asyncio.Future[None]) -> None:
    """A checkpoint that failed is tried again after the next write; it is only logged."""
    if not checkpoint.cancelled() and checkpoint.exception() is not None:
        log.warning("copying the WAL back into the database file failed: %s", checkpoint.exception())


def _settle(done: Future[None], committed: asyncio.Future[None], then: Callable[[T], None] | None, result: T) -> None:
    """On the event loop, once the commit thread is ``done``: ``committed`` (which the
    caller awaits) takes its outcome, unless the caller stopped waiting; then, if the
    commit was made, ``then(result)``."""
    if not committed.done():
        if done.cancelled():
            committed.cancel()
        elif (error := done.exception()) is not None:
            committed.set_exception(error)
        else:
            committed.set_result(None)
    if then is not None and not done.cancelled() and done.exception() is None:
        then(result)


def _work_then_left_statements(connection: Connection, work: Callable[[Writing], T]) -> T:
    writing = Writing(connection)
    result = work(writing)
    writing.run_left_statements()
    return result


def _refuse_unknown_revisions(config: AlembicConfig, connection: Connection, wanted: str) -> None:
    """Raise :class:`MigrationError` if the database is at a revision this code's
    migrations do not know, or ``wanted`` is not one of them."""
    scripts = ScriptDirectory.from_config(config)
    newest = scripts.get_current_head()
    current = MigrationContext.configure(connection).get_current_revision()
    if current is not None:
        try:
            scripts.get_revision(current)
        except CommandError:
            raise MigrationError(
                f"The database is at schema revision {current}, which this version of the server does not know "
                f"(its newest is {newest}): a newer release migrated it. Run that release, or undo its migrations "
                f"with its own `dvorak-mush downgrade {newest}` first."
            ) from None
    if wanted not in ("head", "base"):
        try:
            scripts.get_revision(wanted)
        except CommandError:
            raise MigrationError(f"There is no schema revision {wanted!r} (the newest is {newest}).") from None


def _enforce_foreign_keys(connection: Connection, on: bool) -> None:
    """Turn SQLite's enforcement of foreign keys on or off (outside any transaction: the
    statement goes straight to the driver, not through SQLAlchemy's BEGIN)."""
    cursor = _driver_connection(connection).cursor()
    try:
        cursor.execute(f"PRAGMA foreign_keys = {'ON' if on else 'OFF'}")
    finally:
        cursor.close()


def _refuse_broken_references(connection: Connection) -> None:
    """Fail (rolling the migration back) if a row refers to one that does not exist."""
    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
    if broken:
        raise RuntimeError(f"the migration would leave rows referring to nothing: {broken[:5]}")


@contextmanager
def _unavailable_as_such() -> Iterator[None]:
    """Turn the many ways a database can fail to answer into :class:`DatabaseUnavailable`;
    let mistakes (a broken constraint, bad SQL) through as they are."""
    try:
        yield
    except (IntegrityError, ProgrammingError, DataError):
        raise
    # sqlite3's own OperationalError comes from the statements run on the raw connection
    # (the bulk statements and the commit of a batch): locked, full, read-only, I/O.
    except (DBAPIError, SQLAlchemyTimeoutError, OSError, TimeoutError, sqlite3.OperationalError) as error:
        if _cannot_encode(error):
            raise  # a value no driver can send (asyncpg says so as a driver error)
        said = _first_line(error)
        full = any(sign in said for sign in _FULL) or getattr(getattr(error, "orig", None), "sqlstate", None) == "53100"
        raise (DatabaseFull if full else DatabaseUnavailable)(said) from error


@contextmanager
def _answer_lost_as_such() -> Iterator[None]:
    """Around a commit: the connection lost, or no answer in time, is
    :class:`OutcomeUnknown` (the server may have made the commit before its answer was
    lost). Any other failure is the database's answer: nothing was committed."""
    try:
        yield
    except (DBAPIError, OSError, TimeoutError) as error:
        lost = not isinstance(error, DBAPIError) or error.connection_invalidated
        if not lost:
            raise
        raise OutcomeUnknown(f"the commit's answer was lost: {_first_line(error)}") from error


def _first_line(error: BaseException) -> str:
    """What ``error`` says, in a line for the log and the exception it becomes: a driver's
    timeout says nothing of itself."""
    said = str(error).split("\n", 1)[0]
    if said:
        return said
    return "no answer in time" if isinstance(error, TimeoutError) else type(error).__name__


def _cannot_encode(error: BaseException) -> bool:
    """Whether ``error`` comes of a value its driver could not encode (text with a lone
    surrogate, say): a mistake in what was written, not the database failing to answer."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, UnicodeError):
            return True
        seen.add(id(cause))
        cause = getattr(cause, "orig", None) or cause.__cause__ or cause.__context__
    return False


def alembic_config() -> AlembicConfig:
    """An Alembic configuration pointing at this project's ``migrations`` package."""
    config = AlembicConfig()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    return config


def _driver_connection(connection: Connection) -> DBAPIConnection:
    """The driver's own connection under ``connection``; SQLAlchemy drops it only when the
    connection is invalidated, which a connection in use here never is."""
    raw = connection.connection.dbapi_connection
    if raw is None:
        raise RuntimeError("the database connection was invalidated")
    return raw
