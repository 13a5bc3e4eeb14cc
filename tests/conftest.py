"""Test fixtures: a fresh database per test on each backend, servers on free ports, clients.

Every test that takes ``database_url`` (directly or through ``server``) runs once per
database backend: SQLite always, and PostgreSQL at ``DVORAK_TEST_POSTGRES_URL``
(default ``postgresql://postgres@127.0.0.1:5432/test``). When PostgreSQL cannot be
reached the PostgreSQL runs are skipped, except under ``CI=true``, where they fail.
Choose backends with ``--backend sqlite|postgresql|all``.

The database drivers and the server are imported only by the fixtures that use them, so
the pure rules tests (which take none of these fixtures) run without them: see
:data:`PURE_TIER` and :mod:`tests.no_database_drivers`.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from server.config import Settings
from tests.client import MudClient

if TYPE_CHECKING:
    from persistence.database import Database
    from server.app import MushServer
    from tests.harness import World

#: The pure tier's folder: the rules alone, no database driver, no server, no network.
#: :mod:`tests.test_fast_tier` runs it with the drivers made impossible to import.
PURE_TIER = Path(__file__).parent / "pure"

POSTGRES_ADMIN_URL = os.environ.get("DVORAK_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def pytest_asyncio_loop_factories(config: pytest.Config, item: pytest.Item) -> dict[str, Callable[[], Any]]:
    """Every asynchronous test runs on the event loop the server runs on by default
    (``DVORAK_EVENT_LOOP=auto``: uvloop where it is installed), so that what one loop does
    and the other does not (a timer handle with no ``when()``) fails a test, not a
    player's command."""
    from server.cli import loop_factory

    return {"the server's loop": loop_factory()}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--backend",
        choices=("sqlite", "postgresql", "all"),
        default=os.environ.get("DVORAK_TEST_BACKEND", "all"),
        help="database backend(s) to run database tests against (default: all)",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The fast tier (``pytest -m fast``) is the pure tier's folder and the files that
    mark themselves ``fast`` (commands run without sockets, :mod:`tests.harness`)."""
    for item in items:
        if PURE_TIER in item.path.parents:
            item.add_marker(pytest.mark.fast)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        chosen = metafunc.config.getoption("--backend")
        backends = ["sqlite", "postgresql"] if chosen == "all" else [chosen]
        metafunc.parametrize("backend", backends, scope="session")


def _postgres_dsn(database: str | None = None) -> str:
    from sqlalchemy import make_url

    url = make_url(POSTGRES_ADMIN_URL).set(drivername="postgresql")
    if database is not None:
        url = url.set(database=database)
    return url.render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def postgres_available() -> bool:
    import asyncpg

    async def probe() -> str | None:
        try:
            connection = await asyncpg.connect(_postgres_dsn(), timeout=5)
        except (OSError, asyncpg.PostgresError, TimeoutError) as error:
            return str(error)
        await connection.close()
        return None

    # A fixture of its own event loop, in a thread: tests' loops may already be running.
    with ThreadPoolExecutor(1) as thread:
        problem = thread.submit(asyncio.run, probe()).result()
    if problem is None:
        return True
    if IN_CI:
        pytest.fail(f"PostgreSQL at {POSTGRES_ADMIN_URL} is required in CI: {problem}")
    return False


@pytest.fixture
async def database_url(backend: str, tmp_path, request: pytest.FixtureRequest) -> AsyncIterator[str]:
    """A URL to an empty database of the test's backend, removed afterwards."""
    if backend == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'dvorak.sqlite3'}"
        return
    if not request.getfixturevalue("postgres_available"):
        pytest.skip(f"PostgreSQL is not reachable at {POSTGRES_ADMIN_URL}")
    async with postgres_database() as url:
        yield url


@pytest.fixture
async def database(database_url: str) -> AsyncIterator[Database]:
    """The test's database, migrated to the newest schema."""
    from persistence.database import Database

    migrated = Database(database_url)
    await migrated.upgrade()
    yield migrated
    await migrated.dispose()


@asynccontextmanager
async def postgres_database() -> AsyncIterator[str]:
    """A new, empty PostgreSQL database (its SQLAlchemy URL), dropped afterwards."""
    import asyncpg
    from sqlalchemy import make_url

    name = f"dvorak_test_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(_postgres_dsn())
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        yield make_url(_postgres_dsn(name)).set(drivername="postgresql+asyncpg").render_as_string(hide_password=False)
    finally:
        admin = await asyncpg.connect(_postgres_dsn())
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


def server_settings(database_url: str, data_dir: Path, **overrides: Any) -> Settings:
    """Settings for a test server: loopback, a free port, quick to greet and to stop."""
    return Settings(
        host="127.0.0.1",
        port=0,
        web_port=0,
        data_dir=str(data_dir),
        database_url=database_url,
        negotiation_wait=0.05,
        shutdown_grace=2.0,
        **overrides,
    )


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    """Settings for a test server on the test's database."""
    return server_settings(database_url, tmp_path)


StartServer = Callable[..., Awaitable["MushServer"]]


@pytest.fixture
async def start_server(settings: Settings) -> AsyncIterator[StartServer]:
    """Start servers on the test's database, with settings overridden by keyword; all are
    stopped at the end of the test."""
    from server.app import MushServer

    started: list[MushServer] = []

    async def start(**overrides: object) -> MushServer:
        server = MushServer(replace(settings, **overrides))
        await server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        await server.stop()


@pytest.fixture
async def server(start_server: StartServer) -> MushServer:
    """A running server on the test's database."""
    return await start_server()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty SQLite database at the newest schema, made once: each world starts from a copy."""
    from tests.harness import migrated_database

    template = tmp_path_factory.mktemp("migrated") / "template.sqlite3"
    # Its own event loop, in a thread: tests' loops may already be running.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, migrated_database(template)).result()
    return template


@pytest.fixture
async def world(tmp_path: Path, migrated_sqlite: Path) -> AsyncIterator[World]:
    """A server without sockets on a temporary SQLite database (see :mod:`tests.harness`)."""
    from tests.harness import World

    opened = await World.open(tmp_path / "world.sqlite3", template=migrated_sqlite)
    yield opened
    await opened.close()


#: The last line of the welcome screen.
WELCOME_END = r'create "Jo Smith" <password>\n=+\n'

OpenClient = Callable[..., Awaitable[MudClient]]


@pytest.fixture
async def connect(server: MushServer) -> AsyncIterator[OpenClient]:
    """Open a client to ``server`` (or to the server given) that has seen the welcome screen."""
    clients: list[MudClient] = []

    async def open_client(to: MushServer | None = None) -> MudClient:
        client = await MudClient.open((to or server).port)
        clients.append(client)
        await client.expect(WELCOME_END)
        return client

    yield open_client
    for client in clients:
        await client.close()


async def log_in(client: MudClient, name: str, password: str = "secret1", create: bool = True) -> None:
    """Create (or connect to) ``name`` on ``client`` and wait until the player is in."""
    verb = "create" if create else "connect"
    quoted = f'"{name}"' if " " in name else name
    client.send(f"{verb} {quoted} {password}")
    await client.expect(r"Players here: .*\.\n")


@pytest.fixture(scope="session")
def self_signed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for localhost and its key, as PEM files."""
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=localhost",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key
