"""Alembic environment: runs migrations on the connection the server hands over.

``persistence.database.Database.upgrade`` passes its own connection in
``config.attributes["connection"]``. When Alembic is run from its own command line
instead, a connection is opened from ``DVORAK_DATABASE_URL`` (default: the SQLite file
in ``./data``).
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from persistence.models import schema

config = context.config


def run_on(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=schema(),
        # SQLite cannot ALTER most things in place: batch mode copies the table instead.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_from_settings() -> None:
    from persistence.database import Database
    from server.config import Settings

    database = Database(Settings.from_sources().resolved_database_url)
    try:
        async with database.engine.begin() as connection:
            await connection.run_sync(run_on)
    finally:
        await database.dispose()


if context.is_offline_mode():
    raise SystemExit("Offline (--sql) migrations are not supported; run them against a database.")

given = config.attributes.get("connection")
if given is not None:
    run_on(given)
else:
    asyncio.run(run_from_settings())
