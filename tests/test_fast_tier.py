"""The pure tier needs no database driver: it runs with asyncpg, aiosqlite, SQLAlchemy
and Alembic made impossible to import (:mod:`tests.no_database_drivers`)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import PURE_TIER


def run_blocked(*arguments: str) -> subprocess.CompletedProcess[str]:
    """Python, in the project's directory, with ``arguments``."""
    return subprocess.run(
        [sys.executable, *arguments],
        cwd=PURE_TIER.parent.parent,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_blocker_makes_every_database_driver_unimportable():
    for module in ("asyncpg", "aiosqlite", "sqlalchemy", "alembic", "persistence.database"):
        result = run_blocked("-c", f"import tests.no_database_drivers, {module}")
        assert result.returncode != 0 and "is blocked" in result.stderr, (module, result.stderr)


def test_the_pure_tier_passes_with_no_database_driver_importable():
    result = run_blocked(
        "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.no_database_drivers", str(PURE_TIER)
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert " passed" in result.stdout and "skipped" not in result.stdout
