"""When the database stops answering: commands fail with a short message, nothing is
changed, the server stays up, and it recovers by itself when the database is back."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Protocol

import pytest
from sqlalchemy import event, make_url

from persistence.database import DatabaseFull
from tests.client import MudClient
from tests.conftest import IN_CI, WELCOME_END
from tests.players import ScriptedPlayer, flat, loosely
from tests.tcp_proxy import CuttableProxy
from tests.test_durability import audit

DOWN = "The database is not answering, so nothing was changed. Please try again in a moment."


class Outage(Protocol):
    """A way to make the test's database stop answering, and to bring it back."""

    url: str

    async def cut(self) -> None: ...

    async def restore(self) -> None: ...


class LockedSqlite:
    """Another process holds SQLite's write lock: every write waits, then gives up."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._holder: sqlite3.Connection | None = None

    async def cut(self) -> None:
        self._holder = sqlite3.connect(make_url(self.url).database, isolation_level=None)
        self._holder.execute("BEGIN EXCLUSIVE")

    async def restore(self) -> None:
        assert self._holder is not None
        self._holder.execute("ROLLBACK")
        self._holder.close()


class UnreachablePostgres:
    """PostgreSQL reached through a proxy whose traffic is cut and restored."""

    def __init__(self, url: str, proxy: CuttableProxy) -> None:
        self.url = url
        self.proxy = proxy

    async def cut(self) -> None:
        self.proxy.cut()

    async def restore(self) -> None:
        self.proxy.restore()


@pytest.fixture
async def outage(backend: str, database_url: str) -> AsyncIterator[Outage]:
    if backend == "sqlite":
        yield LockedSqlite(database_url)
        return
    url = make_url(database_url)
    proxy = CuttableProxy(url.host or "127.0.0.1", url.port or 5432)
    await proxy.start()
    try:
        yield UnreachablePostgres(url.set(port=proxy.port).render_as_string(hide_password=False), proxy)
    finally:
        await proxy.stop()


async def room_in_play(port: int) -> tuple[ScriptedPlayer, ScriptedPlayer]:
    ann = await ScriptedPlayer.connect(port, "Ann")
    bo = await ScriptedPlayer.connect(port, "Bo")
    await ann.ask("newroom Fragile")
    await bo.ask("join fragile")
    await ann.ask("set turns=off")
    for i in range(20):
        await ann.ask(f"loadcard Card {i}/T/Text {i}.")
    await ann.ask("start")
    return ann, bo


async def test_an_outage_fails_commands_cleanly_and_the_server_recovers(start_server, outage, database_url):
    server = await start_server(database_url=outage.url, database_timeout=1.0)
    ann, bo = await room_in_play(server.port)
    hand_before = await ann.hand()

    await outage.cut()
    assert flat(await ann.ask("draw")) == DOWN
    assert await ann.hand() == hand_before
    assert 'You say, "still talking"' in await ann.ask("say still talking")
    await bo.client.expect(r'Ann says, "still talking"')
    assert "Seats, in turn order:" in await bo.ask("look")
    newcomer = await MudClient.open(server.port)
    await newcomer.expect(WELCOME_END)
    await newcomer.command("connect Bo secret1", DOWN.split(",")[0])

    await outage.restore()
    assert "You draw #" in await ann.ask("draw")
    await newcomer.command("connect Bo secret1", r"Welcome back, Bo\.")
    await newcomer.close()
    problems, logs = await audit(database_url)
    assert problems == []
    assert sum(1 for e in logs["Fragile"] if e.event.kind == "draw") == 1


def _cluster() -> list[str]:
    version = sorted(os.listdir("/etc/postgresql"))[0]
    return ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main"]


@pytest.mark.serial
@pytest.mark.skipif(
    not (IN_CI and Path("/etc/postgresql").is_dir() and os.geteuid() == 0),
    reason="stops the machine's PostgreSQL: only in CI, as root",
)
async def test_postgresql_stopped_and_started_under_a_running_server(start_server, backend):
    if backend != "postgresql":
        pytest.skip("PostgreSQL only")
    server = await start_server(database_timeout=2.0)
    ann, bo = await room_in_play(server.port)
    subprocess.run([*_cluster(), "stop", "-m", "fast"], check=True)
    try:
        assert flat(await ann.ask("draw")) == DOWN
        await ann.ask("say the server is still up")
        await bo.client.expect(r"Ann says, \"the server is still up\"")
    finally:
        subprocess.run([*_cluster(), "start"], check=True)
    for _ in range(30):
        if subprocess.run(["pg_isready", "-q", "-h", "127.0.0.1"]).returncode == 0:
            break
        await asyncio.sleep(0.5)
    assert "You draw #" in await ann.ask("draw")


FULL = "The server has no room left to store anything (its disk is full), so nothing was changed."


async def test_logging_in_when_the_disk_is_full_leaves_nobody_half_inside(start_server, monkeypatch):
    # Seen: "Welcome back", then "The database is not answering", and the player half in
    # the room. Now everything the database must do comes first.
    server = await start_server()
    ann, bo = await room_in_play(server.port)
    await ann.close()
    await bo.client.expect(r"Ann has disconnected; the seat is kept\.")
    await bo.ask("draw")

    async def full(*args: object) -> object:
        raise DatabaseFull("(sqlite3.OperationalError) database or disk is full")

    monkeypatch.setattr(server.rooms.store, "clear_away", full)
    again = await MudClient.open(server.port)
    await again.expect(WELCOME_END)
    await again.command("connect Ann secret1", loosely(FULL))
    assert "Welcome back" not in again.transcript
    assert "Ann" not in flat(await bo.ask("WHO")).split("Doing", 1)[1].split("connected")[0].replace("Bo", "")
    assert "Ann is back" not in bo.client.transcript
    await again.command("look", r"You are not logged in")

    monkeypatch.undo()
    await again.command("connect Ann secret1", r"You are back at your seat in room Fragile\.")
    await again.expect(r"While you were away:")
    await again.expect(r"Bo draws a card\.")
    await bo.client.expect(r"Ann is back\.")


async def test_a_full_sqlite_database_refuses_a_move_and_says_why(start_server, backend):
    if backend != "sqlite":
        pytest.skip("SQLite's page limit stands in for a full disk")
    server = await start_server()
    ann, _ = await room_in_play(server.port)
    pages = sqlite3.connect(make_url(server.database.url).database).execute("PRAGMA page_count").fetchone()[0]

    @event.listens_for(server.database.engine.sync_engine, "connect")
    @event.listens_for(server.database._sqlite_writer, "connect")
    def _no_room_to_grow(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
        dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")

    await server.database.engine.dispose()
    server.database._sqlite_writer.dispose()
    reply = flat(await ann.ask("force loadcard Huge/T/" + "words " * 330))
    assert reply.startswith(FULL)
    assert "Huge" not in flat(await ann.ask("viewall"))
    problems, _ = await audit(str(server.database.url))
    assert problems == []
