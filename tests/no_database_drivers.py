"""A pytest plugin that makes the database drivers (and SQLAlchemy, Alembic) impossible to
import, to show that the pure rules tests need none of them::

    .venv/bin/python -m pytest -p tests.no_database_drivers tests/pure/test_dvorak_rules.py

It is loaded before ``tests/conftest.py`` and before any test module, so anything that
imports a driver, even indirectly, fails with ImportError. :mod:`tests.test_fast_tier`
runs the pure tier this way.
"""

from __future__ import annotations

import sys
from importlib.abc import MetaPathFinder

BLOCKED = ("asyncpg", "aiosqlite", "sqlalchemy", "alembic")


class RefuseDatabaseDrivers(MetaPathFinder):
    """Refuses to find the blocked packages and anything inside them."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{name} is blocked: this run must not need a database driver", name=name)


for name in list(sys.modules):
    if name.split(".")[0] in BLOCKED:
        raise RuntimeError(f"{name} was imported before tests.no_database_drivers could block it")
sys.meta_path.insert(0, RefuseDatabaseDrivers())
