"""What players do to keep themselves safe from each other, as stored: whom each player
ignores, the reports they make for staff, and the deletion of their own accounts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import String, and_, cast, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from persistence.database import Database
from persistence.models import Account, Ignore, Report, RoomSpectator, StaffAction, account_rows

_accounts = Account.__table__
_ignores = Ignore.__table__
_reports = Report.__table__
_spectators = RoomSpectator.__table__
_staff_log = StaffAction.__table__

#: The audit log's name for closing a report (see :mod:`persistence.staff_log`).
CLOSE_REPORT = "close report"

#: What a deleted account's password hash becomes: no password matches it (it is no
#: argon2 hash at all, so checking one against it fails at once).
UNUSABLE_PASSWORD = "!deleted"


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class IgnoredPlayer:
    """A player someone ignores."""

    account_id: int
    name: str
    #: Their role now (staff are heard even when ignored, while they are staff).
    role: str


class TooManyIgnored(Exception):
    """The player already ignores as many players as one may."""


class IgnoreStore:
    """Whom each player ignores: their chat and pages no longer reach them."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def ignored_by(self, account_id: int) -> list[IgnoredPlayer]:
        """The players ``account_id`` ignores, by name."""
        query = (
            select(_accounts.c.id, _accounts.c.name, _accounts.c.role)
            .join(_ignores, _ignores.c.ignored_account_id == _accounts.c.id)
            .where(_ignores.c.account_id == account_id)
            .order_by(func.lower(_accounts.c.name))
        )
        async with self._database.snapshot() as connection:
            rows = (await connection.execute(query)).all()
        return [IgnoredPlayer(row.id, row.name, row.role) for row in rows]

    async def ignored_ids(self, account_id: int) -> set[int]:
        """The accounts ``account_id`` ignores."""
        async with self._database.snapshot() as connection:
            rows = await connection.execute(
                select(_ignores.c.ignored_account_id).where(_ignores.c.account_id == account_id)
            )
            return set(rows.scalars())

    async def ignores(self, account_id: int, other: int) -> bool:
        """Whether ``account_id`` ignores ``other``."""
        async with self._database.snapshot() as connection:
            found = await connection.scalar(
                select(_ignores.c.account_id).where(
                    _ignores.c.account_id == account_id, _ignores.c.ignored_account_id == other
                )
            )
        return found is not None

    async def add(self, account_id: int, other: int, limit: int) -> bool:
        """``account_id`` ignores ``other`` from now on; False if they already did.
        Raises :class:`TooManyIgnored` if they ignore ``limit`` players already."""
        try:
            async with self._database.transaction() as connection:
                # The player's row is held, so that one player's ignores are counted one at a time.
                await connection.execute(select(_accounts.c.id).where(_accounts.c.id == account_id).with_for_update())
                count = await connection.scalar(
                    select(func.count()).select_from(_ignores).where(_ignores.c.account_id == account_id)
                )
                if (count or 0) >= limit:
                    raise TooManyIgnored()
                await connection.execute(
                    insert(_ignores).values(account_id=account_id, ignored_account_id=other, created_at=_now())
                )
        except IntegrityError:
            return False
        return True

    async def remove(self, account_id: int, other: int) -> bool:
        """``account_id`` no longer ignores ``other``; False if they did not."""
        async with self._database.transaction() as connection:
            result = await connection.execute(
                delete(_ignores).where(_ignores.c.account_id == account_id, _ignores.c.ignored_account_id == other)
            )
            return bool(result.rowcount)


@dataclass(frozen=True)
class StoredReport:
    """A report as stored."""

    id: int
    created_at: datetime
    reporter_name: str
    subject_name: str
    #: Where the reporter was: a room's name, or "the lobby".
    place: str
    text: str
    closed_at: datetime | None
    closed_by_name: str | None


class ReportStore:
    """Players' reports about each other, for staff."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def add(
        self, reporter_id: int, reporter_name: str, subject_id: int, subject_name: str, place: str, text: str
    ) -> int:
        """Store a report; its id."""
        async with self._database.transaction() as connection:
            result = await connection.execute(
                insert(_reports)
                .values(
                    created_at=_now(),
                    reporter_account_id=reporter_id,
                    reporter_name=reporter_name,
                    subject_account_id=subject_id,
                    subject_name=subject_name,
                    place=place[:80],
                    text=text,
                )
                .returning(_reports.c.id)
            )
            return int(result.scalar_one())

    async def made_since(self, reporter_id: int, since: datetime) -> list[datetime]:
        """When ``reporter_id`` made each report since ``since``, oldest first."""
        async with self._database.snapshot() as connection:
            rows = await connection.execute(
                select(_reports.c.created_at)
                .where(_reports.c.reporter_account_id == reporter_id, _reports.c.created_at > since)
                .order_by(_reports.c.created_at)
            )
            return list(rows.scalars())

    async def listing(self, closed_too: bool, limit: int) -> list[StoredReport]:
        """The newest ``limit`` reports, newest first: the open ones, or all (``closed_too``)."""
        query = select(_reports).order_by(_reports.c.id.desc()).limit(limit)
        if not closed_too:
            query = query.where(_reports.c.closed_at.is_(None))
        async with self._database.snapshot() as connection:
            rows = (await connection.execute(query)).all()
        return [
            StoredReport(
                r.id, r.created_at, r.reporter_name, r.subject_name, r.place, r.text, r.closed_at, r.closed_by_name
            )
            for r in rows
        ]

    async def find(self, report_id: int) -> StoredReport | None:
        """Report ``report_id``, or None."""
        async with self._database.snapshot() as connection:
            r = (await connection.execute(select(_reports).where(_reports.c.id == report_id))).first()
        if r is None:
            return None
        return StoredReport(
            r.id, r.created_at, r.reporter_name, r.subject_name, r.place, r.text, r.closed_at, r.closed_by_name
        )

    async def close(self, report: StoredReport, closer_id: int, closer_name: str, note: str) -> bool:
        """Mark open ``report`` dealt with by ``closer_name`` (account ``closer_id``), and
        add that to the staff's audit log with ``note``, in one transaction; False if it
        is not open (closed a moment ago by someone else)."""
        now = _now()
        async with self._database.transaction() as connection:
            result = await connection.execute(
                update(_reports)
                .where(_reports.c.id == report.id, _reports.c.closed_at.is_(None))
                .values(closed_at=now, closed_by_name=closer_name[:32])
            )
            if not result.rowcount:
                return False
            reason = f"report #{report.id}" + (f": {note}" if note else "")
            await connection.execute(
                insert(_staff_log).values(
                    at=now,
                    actor_account_id=closer_id,
                    actor_name=closer_name[:32],
                    action=CLOSE_REPORT,
                    target=report.subject_name[:64],
                    reason=reason,
                )
            )
        return True


@dataclass(frozen=True)
class DueDeletion:
    """An account whose owner asked for it to be deleted, and whose cool-off is over."""

    account_id: int
    name: str


class AccountDeletions:
    """Players deleting their own accounts: asked for, called off, and done when the
    cool-off is over. A deleted account keeps its row (what it made names it), but its
    name is free (``~<id>`` is added to its ``name_key``, as for archived rooms), no
    password opens it, and what only it used (whom it ignored and who ignored it, its
    own CCG decks, what hosts decided about it as a spectator) is dropped."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def schedule(self, account_id: int, at: datetime) -> datetime | None:
        """Delete ``account_id`` at ``at``, unless asked already: then when it is to be."""
        async with self._database.transaction() as connection:
            row = (
                await connection.execute(
                    select(_accounts.c.delete_after).where(_accounts.c.id == account_id).with_for_update()
                )
            ).first()
            if row is not None and row.delete_after is not None:
                return _aware(row.delete_after)
            await connection.execute(
                update(_accounts)
                .where(_accounts.c.id == account_id, _accounts.c.deleted_at.is_(None))
                .values(delete_after=at)
            )
        return None

    async def cancel(self, account_id: int) -> bool:
        """Keep ``account_id`` after all; False if its deletion was not asked for."""
        async with self._database.transaction() as connection:
            result = await connection.execute(
                update(_accounts)
                .where(
                    _accounts.c.id == account_id,
                    _accounts.c.delete_after.is_not(None),
                    _accounts.c.deleted_at.is_(None),
                )
                .values(delete_after=None)
            )
            return bool(result.rowcount)

    async def due(self, now: datetime | None = None) -> list[DueDeletion]:
        """The accounts to delete now: asked for, cool-off over, and not staff (an account
        made staff during its cool-off is kept while it is)."""
        moment = now or _now()
        async with self._database.snapshot() as connection:
            rows = await connection.execute(
                select(_accounts.c.id, _accounts.c.name).where(
                    _accounts.c.delete_after <= moment, _accounts.c.deleted_at.is_(None), _accounts.c.role == "player"
                )
            )
            return [DueDeletion(row.id, row.name) for row in rows]

    async def delete(self, account_id: int, now: datetime | None = None) -> bool:
        """Delete ``account_id`` if it is due: True if this call did (several nodes may
        try at once; one does)."""
        moment = now or _now()
        async with self._database.transaction() as connection:
            result = await connection.execute(
                update(_accounts)
                .where(
                    _accounts.c.id == account_id,
                    _accounts.c.delete_after <= moment,
                    _accounts.c.deleted_at.is_(None),
                    _accounts.c.role == "player",
                )
                .values(
                    deleted_at=moment,
                    name_key=_accounts.c.name_key + "~" + cast(_accounts.c.id, String),
                    password_hash=UNUSABLE_PASSWORD,
                    watching_room_id=None,
                )
            )
            if not result.rowcount:
                return False
            await connection.execute(
                delete(_ignores).where(
                    or_(_ignores.c.account_id == account_id, _ignores.c.ignored_account_id == account_id)
                )
            )
            for table, column in account_rows():
                await connection.execute(delete(table).where(table.c[column] == account_id))
            await connection.execute(delete(_spectators).where(_spectators.c.account_id == account_id))
        return True

    async def deleted_ids(self) -> set[int]:
        """Every deleted account."""
        async with self._database.snapshot() as connection:
            rows = await connection.execute(select(_accounts.c.id).where(_accounts.c.deleted_at.is_not(None)))
            return set(rows.scalars())

    async def deleted_among(self, account_ids: set[int]) -> set[int]:
        """Those of ``account_ids`` that are deleted."""
        if not account_ids:
            return set()
        async with self._database.snapshot() as connection:
            rows = await connection.execute(
                select(_accounts.c.id).where(and_(_accounts.c.id.in_(account_ids), _accounts.c.deleted_at.is_not(None)))
            )
            return set(rows.scalars())


def _aware(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment
