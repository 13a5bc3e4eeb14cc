"""The database connection: one engine for SQLite or PostgreSQL, and its migrations.

SQLite (the embedded default) runs in WAL mode with ``synchronous=FULL`` (a commit is on
disk before anyone is told about it), a busy timeout, foreign keys on, and write
transactions opened with ``BEGIN IMMEDIATE`` so that two writers never deadlock halfway
through. PostgreSQL is reached through asyncpg.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

from alembic import command as alembic_command
from alembic.config import Config as AlembicConfig
from sqlalchemy import event, make_url, text
from sqlalchemy.engine import URL, Connection
from sqlalchemy.exc import DataError, DBAPIError, IntegrityError, ProgrammingError
from sqlalchemy.exc import TimeoutError as SQLAlchemyTimeoutError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

import migrations

log = logging.getLogger(__name__)

#: Key for the advisory lock that keeps two nodes from migrating one PostgreSQL at once.
_MIGRATION_LOCK_KEY = 0x0D0A_4A6B

#: Seconds a statement may wait (for SQLite's write lock, for PostgreSQL's answer) before
#: the database counts as not answering.
DEFAULT_TIMEOUT = 10.0


class DatabaseUnavailable(Exception):
    """The database did not answer (stopped, unreachable, locked, timed out). What was
    being written was not stored, or its fate is unknown and the caller must reload."""


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


class Database:
    """An async engine plus the conventions every store relies on.

    ``transaction()`` opens a write transaction that commits when the block ends (or
    rolls back on an exception); ``snapshot()`` opens a read-only one.
    """

    def __init__(self, url: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.url = normalize_url(url)
        self.backend = self.url.get_backend_name()
        self.timeout = timeout
        if self.backend == "sqlite":
            self.engine = self._sqlite_engine()
        else:
            self.engine = create_async_engine(
                self.url,
                pool_pre_ping=True,
                pool_size=10,
                pool_timeout=timeout,
                connect_args={"timeout": timeout, "command_timeout": timeout},
            )
        self._reader = self.engine.execution_options(dvorak_read_only=True)

    def _sqlite_engine(self) -> AsyncEngine:
        database = self.url.database
        if database and database != ":memory:":
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        busy_ms = int(self.timeout * 1000)
        engine = create_async_engine(self.url, connect_args={"timeout": self.timeout})

        @event.listens_for(engine.sync_engine, "connect")
        def _configure(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
            # Let SQLAlchemy, not the sqlite3 module, decide when transactions begin.
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            for pragma in (
                "journal_mode=WAL",
                "synchronous=FULL",
                f"busy_timeout={busy_ms}",
                "foreign_keys=ON",
            ):
                cursor.execute(f"PRAGMA {pragma}")
            cursor.close()

        @event.listens_for(engine.sync_engine, "begin")
        def _begin(connection: Connection) -> None:
            if connection.get_execution_options().get("dvorak_read_only"):
                connection.exec_driver_sql("BEGIN")
            else:
                connection.exec_driver_sql("BEGIN IMMEDIATE")

        return engine

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction, committed when the block exits without an exception.
        Raises :class:`DatabaseUnavailable` if the database does not answer."""
        with _unavailable_as_such():
            async with self.engine.begin() as connection:
                yield connection

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[AsyncConnection]:
        """A read-only transaction: a consistent view that never blocks writers."""
        with _unavailable_as_such():
            async with self._reader.begin() as connection:
                yield connection

    async def upgrade(self, revision: str = "head") -> None:
        """Apply Alembic migrations up to ``revision`` (all pending ones by default)."""
        await self._run_migrations(alembic_command.upgrade, revision)

    async def downgrade(self, revision: str = "base") -> None:
        """Undo Alembic migrations back to ``revision`` (an empty schema by default)."""
        await self._run_migrations(alembic_command.downgrade, revision)

    async def _run_migrations(self, step: Callable[[AlembicConfig, str], None], revision: str) -> None:
        async with self.engine.begin() as connection:
            if self.backend == "postgresql":
                # Nodes starting together take turns; the second finds nothing to do.
                await connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK_KEY})

            def run(sync_connection: Connection) -> None:
                config = alembic_config()
                config.attributes["connection"] = sync_connection
                step(config, revision)

            await connection.run_sync(run)

    async def dispose(self) -> None:
        """Close every pooled connection."""
        await self.engine.dispose()


@contextmanager
def _unavailable_as_such() -> Iterator[None]:
    """Turn the many ways a database can fail to answer into :class:`DatabaseUnavailable`;
    let mistakes (a broken constraint, bad SQL) through as they are."""
    try:
        yield
    except (IntegrityError, ProgrammingError, DataError):
        raise
    except (DBAPIError, SQLAlchemyTimeoutError, OSError, TimeoutError) as error:
        raise DatabaseUnavailable(str(error).split("\n", 1)[0]) from error


def alembic_config() -> AlembicConfig:
    """An Alembic configuration pointing at this project's ``migrations`` package."""
    config = AlembicConfig()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    return config
