"""The database layer on each backend: migrations, accounts, SQLite durability settings."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy import inspect, text

from persistence.accounts import AccountStore, NameTaken
from persistence.database import Database, normalize_url


@pytest.fixture
async def database(database_url):
    database = Database(database_url)
    await database.upgrade()
    yield database
    await database.dispose()


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


def test_plain_urls_get_async_drivers():
    assert normalize_url("sqlite:///x.db").drivername == "sqlite+aiosqlite"
    assert normalize_url("postgresql://u@127.0.0.1/db").drivername == "postgresql+asyncpg"
    with pytest.raises(ValueError):
        normalize_url("mysql://u@127.0.0.1/db")


async def test_the_migrations_build_exactly_the_schema_the_models_describe(database):
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from persistence.models import Base

    def differences(sync_connection):
        context = MigrationContext.configure(sync_connection, opts={"compare_type": True})
        return compare_metadata(context, Base.metadata)

    async with database.snapshot() as connection:
        assert await connection.run_sync(differences) == []
