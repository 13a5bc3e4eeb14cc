"""The ``dvorak-mush`` program as an operator runs it: help, migrate, serve, SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess

import pytest

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
