"""The staff's audit log: every staff action, who did it, to whom, why and when. Rows are
only ever added."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, insert, or_, select

from persistence.database import Database
from persistence.models import StaffAction

_log = StaffAction.__table__

#: Who does what is done from the command line (``dvorak-mush admin``).
CONSOLE = "(console)"


@dataclass(frozen=True)
class LoggedAction:
    """One entry of the audit log."""

    id: int
    at: datetime
    actor_name: str
    action: str
    target: str
    reason: str


class StaffLog:
    """The audit log in the database."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def record(
        self, actor_account_id: int | None, actor_name: str, action: str, target: str = "", reason: str = ""
    ) -> None:
        """Add an entry: ``actor_name`` (account ``actor_account_id``, None for the
        console) did ``action`` to ``target`` because ``reason``."""
        async with self._database.transaction() as connection:
            await connection.execute(
                insert(_log).values(
                    at=datetime.now(UTC),
                    actor_account_id=actor_account_id,
                    actor_name=actor_name[:32],
                    action=action[:20],
                    target=target[:64],
                    reason=reason,
                )
            )

    async def recent(self, limit: int = 20, about: str | None = None) -> list[LoggedAction]:
        """The last ``limit`` entries, newest first; with ``about``, only those whose actor
        or target is that name (any letter case)."""
        query = select(_log).order_by(_log.c.id.desc()).limit(limit)
        if about is not None:
            # lower() folds ASCII letters on every backend, but SQLite's no others: a name
            # in other letters (Šárka) is also looked for as it is typed in its usual cases.
            key = about.lower()
            cases = sorted({about, about.lower(), about.capitalize(), about.title(), about.upper()})
            query = query.where(
                or_(
                    func.lower(_log.c.actor_name) == key,
                    func.lower(_log.c.target) == key,
                    _log.c.actor_name.in_(cases),
                    _log.c.target.in_(cases),
                )
            )
        async with self._database.snapshot() as connection:
            rows = (await connection.execute(query)).all()
        return [LoggedAction(r.id, r.at, r.actor_name, r.action, r.target, r.reason) for r in rows]
