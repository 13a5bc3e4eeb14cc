"""The ``dvorak-mush`` program as an operator runs it: help, migrate, serve, SIGTERM."""

from __future__ import annotations

import asyncio
import gc
import importlib.metadata
import os
import signal
import sqlite3
import subprocess
import sys

import pytest

from server.cli import SWITCH_INTERVAL, tune_interpreter
from tests.client import MudClient
from tests.conftest import WELCOME_END, log_in
from tests.server_process import PROGRAM, ROOT, ServerProcess


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PROGRAM, *args], capture_output=True, text=True, timeout=60, cwd=ROOT, env={**os.environ, **(env or {})}
    )


@pytest.mark.parametrize("args", [["--help"], ["serve", "--help"], ["migrate", "--help"]])
def test_help(args):
    result = run(*args)
    assert result.returncode == 0
    assert "usage: dvorak-mush" in result.stdout


def test_serve_help_names_every_environment_variable():
    text = run("serve", "--help").stdout
    for variable in ("DVORAK_HOST", "DVORAK_PORT", "DVORAK_DATA_DIR", "DVORAK_DATABASE_URL", "DVORAK_LOG_LEVEL"):
        assert variable in text


def test_migrate_creates_the_sqlite_schema_in_the_data_dir(tmp_path):
    result = run("migrate", "--data-dir", str(tmp_path / "data"))
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(tmp_path / "data" / "dvorak.sqlite3") as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"accounts", "alembic_version"} <= tables
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_sigterm_tells_players_and_exits_cleanly_and_data_survives(database_url, tmp_path):
    node = ServerProcess(database_url, tmp_path)
    await node.start()
    alice = await MudClient.open(node.port)
    await alice.expect(WELCOME_END)
    await log_in(alice, "Alice")
    assert await node.stop(signal.SIGTERM) == 0
    await alice.expect(r"The server is shutting down")
    await alice.wait_closed()
    assert "login Alice" in node.log and "stopped" in node.log
    assert "Traceback" not in node.log

    again = ServerProcess(database_url, tmp_path)
    await again.start()
    client = await MudClient.open(again.port)
    await client.expect(WELCOME_END)
    await client.command("connect Alice secret1", r"Welcome back, Alice\.")
    await client.close()
    assert await again.stop(signal.SIGINT) == 0


async def test_log_has_a_line_per_connection_login_and_failed_login(database_url, tmp_path):
    node = ServerProcess(database_url, tmp_path)
    await node.start()
    client = await MudClient.open(node.port)
    await client.expect(WELCOME_END)
    await client.command("create Alice secret1", r"Welcome")
    await client.command("LOGOUT", WELCOME_END)
    await client.command("connect Alice nope-nope", r"different password")
    await client.close()
    await asyncio.sleep(0.1)
    await node.stop()
    assert "connection 1 from 127.0.0.1" in node.log
    assert "created player Alice" in node.log
    assert "login Alice (#1) from 127.0.0.1" in node.log
    assert "failed login as 'Alice' from 127.0.0.1" in node.log
    assert "nope-nope" not in node.log and "secret1" not in node.log


def test_version_is_the_installed_package_version():
    result = run("--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"dvorak-mush {importlib.metadata.version('dvorak-mush')}\n"


def _revision(path) -> str:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT version_num FROM alembic_version").fetchone()[0]


def test_a_database_a_newer_release_migrated_is_refused_with_a_clear_message(tmp_path):
    """A node of a release restarted on a database a newer release has migrated: it says
    what happened and what to do, in one line, and exits 1 without touching the database."""
    assert run("migrate", "--data-dir", str(tmp_path)).returncode == 0
    database = tmp_path / "dvorak.sqlite3"
    head = _revision(database)
    with sqlite3.connect(database) as db:
        db.execute("UPDATE alembic_version SET version_num = '9999'")
    for command in (["migrate"], ["check"], ["serve", "--port", "0", "--no-web"]):
        result = run(*command, "--data-dir", str(tmp_path))
        assert result.returncode == 1, (command, result.stderr)
        assert (
            f"The database is at schema revision 9999, which this version of the server does not know "
            f"(its newest is {head}): a newer release migrated it." in result.stderr
        )
        assert "Traceback" not in result.stderr
    assert _revision(database) == "9999"


def test_downgrade_goes_back_to_a_revision_and_migrate_comes_forward_again(tmp_path):
    assert run("migrate", "--data-dir", str(tmp_path)).returncode == 0
    database = tmp_path / "dvorak.sqlite3"
    head = _revision(database)
    result = run("downgrade", "0006", "--data-dir", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "is at schema revision 0006" in result.stderr
    assert _revision(database) == "0006"
    with sqlite3.connect(database) as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "player_decks" not in tables  # made by 0007
    result = run("migrate", "--data-dir", str(tmp_path))
    assert f"(schema revision {head})" in result.stderr
    assert _revision(database) == head


@pytest.mark.parametrize(
    ("revision", "said"),
    [
        ("base", "downgrade takes the schema revision to go back to"),
        ("head", "downgrade takes the schema revision to go back to"),
        ("9999", "There is no schema revision '9999'"),
        ("0007; DROP TABLE accounts", "There is no schema revision"),
        ("-1", "There is no schema revision"),
    ],
)
def test_downgrade_refuses_what_is_not_a_revision_to_go_back_to_and_changes_nothing(tmp_path, revision, said):
    assert run("migrate", "--data-dir", str(tmp_path)).returncode == 0
    database = tmp_path / "dvorak.sqlite3"
    head = _revision(database)
    result = run("downgrade", revision, "--data-dir", str(tmp_path))
    assert result.returncode == 1
    assert said in result.stderr and "Traceback" not in result.stderr
    assert _revision(database) == head


async def _accounts_at_0007(database_url: str, *admins: bool) -> None:
    """The database at revision 0007 (before roles), with a player Ann, and Bo (an
    administrator if ``admins`` says so)."""
    from datetime import UTC, datetime

    from sqlalchemy import text

    from persistence.database import Database

    database = Database(database_url)
    try:
        await database.upgrade("0007")
        async with database.transaction() as connection:
            for name, is_admin in zip(("Ann", "Bo"), (False, *admins), strict=False):
                await connection.execute(
                    text(
                        "INSERT INTO accounts (name, name_key, password_hash, is_admin, created_at) "
                        "VALUES (:name, :key, 'x', :admin, :at)"
                    ),
                    {"name": name, "key": name.lower(), "admin": is_admin, "at": datetime.now(UTC)},
                )
    finally:
        await database.dispose()


async def _roles_and_log(database_url: str) -> tuple[dict[str, tuple[str, bool]], list[tuple[str, str, str, str]]]:
    """Each account's role and is_admin, and the audit log, oldest first."""
    from sqlalchemy import select

    from persistence.database import Database
    from persistence.models import Account, StaffAction

    database = Database(database_url)
    try:
        async with database.snapshot() as connection:
            accounts = Account.__table__
            roles = {
                row.name: (row.role, bool(row.is_admin))
                for row in await connection.execute(select(accounts.c.name, accounts.c.role, accounts.c.is_admin))
            }
            log = StaffAction.__table__
            query = select(log.c.actor_name, log.c.action, log.c.target, log.c.reason).order_by(log.c.id)
            entries = [tuple(row) for row in await connection.execute(query)]
    finally:
        await database.dispose()
    return roles, entries


async def test_migration_0008_makes_administrators_admins_and_admin_grant_and_revoke_set_roles(database_url):
    await _accounts_at_0007(database_url, True)
    assert run("migrate", "--database-url", database_url).returncode == 0
    roles, log = await _roles_and_log(database_url)
    assert roles == {"Ann": ("player", False), "Bo": ("admin", True)}
    assert log == []

    granted = run("admin", "grant", "ann", "--role", "moderator", "--database-url", database_url)
    assert granted.returncode == 0, granted.stderr
    assert granted.stdout.strip() == "Ann is now a moderator (was a player)."
    again = run("admin", "grant", "ANN", "--role", "moderator", "--database-url", database_url)
    assert again.stdout.strip() == "Ann was a moderator already."
    promoted = run("admin", "grant", "Ann", "--database-url", database_url)
    assert promoted.stdout.strip() == "Ann is now an administrator (was a moderator)."
    revoked = run("admin", "revoke", "Bo", "--database-url", database_url)
    assert revoked.stdout.strip() == "Bo is now a player (was an administrator)."
    missing = run("admin", "grant", "Nobody", "--database-url", database_url)
    assert missing.returncode == 1
    assert 'There is no player called "Nobody"' in missing.stderr
    wrong = run("admin", "grant", "Ann", "--role", "god", "--database-url", database_url)
    assert wrong.returncode == 2 and "invalid choice" in wrong.stderr

    roles, log = await _roles_and_log(database_url)
    # is_admin stays equal to role == "admin", for nodes of release 0.1.
    assert roles == {"Ann": ("admin", True), "Bo": ("player", False)}
    assert log == [
        ("(console)", "grant", "Ann", "moderator"),
        ("(console)", "grant", "Ann", "moderator"),
        ("(console)", "grant", "Ann", "admin"),
        ("(console)", "revoke", "Bo", "player"),
    ]


def test_serving_tunes_the_interpreter_for_the_commit_thread():
    """The server's other threads (SQLite's commit, password hashing) wait at most
    SWITCH_INTERVAL for the GIL, not Python's 5 ms a time, and collections are rarer."""
    interval, thresholds = sys.getswitchinterval(), gc.get_threshold()
    try:
        tune_interpreter()
        assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL)
        assert SWITCH_INTERVAL < 0.001
        assert gc.get_threshold()[0] >= 10_000
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        sys.setswitchinterval(interval)
