"""What staff decide about players, as stored: bans (of an account, an address or a
network), mutes and account locks. Every node reads them from here, so they hold on every
node and survive restarts; bans and mutes end by themselves, by the clock, when they are
looked at (nothing has to run at the moment they expire)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Row, and_, insert, or_, select, update

from persistence.database import Database
from persistence.models import Account, Ban

_bans = Ban.__table__
_accounts = Account.__table__

#: The kinds of ban: a player's account, one address, a network (CIDR).
BAN_KINDS = ("account", "address", "network")
#: Longest reason stored (the columns' size).
REASON_MAX = 200


@dataclass(frozen=True)
class BanRecord:
    """One ban as stored."""

    id: int
    #: One of :data:`BAN_KINDS`.
    kind: str
    #: The banned account (kind "account"), else None.
    account_id: int | None
    #: The account's name, the address or the network, as shown.
    target: str
    reason: str
    created_by_name: str
    created_at: datetime
    #: When it ends by itself (None: never).
    expires_at: datetime | None

    def active(self, now: datetime) -> bool:
        """Whether it is still in force at ``now`` (a lifted ban is never read back as one)."""
        return self.expires_at is None or self.expires_at > now


def _now() -> datetime:
    return datetime.now(UTC)


def _in_force(now: datetime) -> Any:
    """The bans neither lifted nor expired at ``now``."""
    return and_(_bans.c.lifted_at.is_(None), or_(_bans.c.expires_at.is_(None), _bans.c.expires_at > now))


def _same_target(kind: str, target: str, account_id: int | None) -> Any:
    if kind == "account":
        return and_(_bans.c.kind == "account", _bans.c.account_id == account_id)
    return and_(_bans.c.kind == kind, _bans.c.target == target)


class ModerationStore:
    """Bans, mutes and locks in the database."""

    def __init__(self, database: Database) -> None:
        self._database = database

    # -- bans ----------------------------------------------------------------------------

    async def ban(
        self,
        kind: str,
        target: str,
        account_id: int | None,
        reason: str,
        by_account_id: int,
        by_name: str,
        expires_at: datetime | None,
    ) -> tuple[BanRecord, list[BanRecord]]:
        """Ban ``target`` (of ``kind``; ``account_id`` for an account) until ``expires_at``
        (None: for good). The bans of the same target still in force are lifted, in the
        same transaction: the new one replaces them. Returns it, and those it replaced."""
        if kind not in BAN_KINDS:
            raise ValueError(f"no kind of ban {kind!r}")
        if (kind == "account") != (account_id is not None):
            raise ValueError("an account ban, and only one, names an account")
        now = _now()
        target, reason, by_name = target[:64], reason[:REASON_MAX], by_name[:32]
        async with self._database.transaction() as connection:
            same = and_(_same_target(kind, target, account_id), _in_force(now))
            replaced = [_ban(row) for row in (await connection.execute(select(_bans).where(same))).all()]
            if replaced:
                await connection.execute(update(_bans).where(same).values(lifted_at=now, lifted_by_name=by_name))
            new = insert(_bans).values(
                kind=kind,
                account_id=account_id,
                target=target,
                reason=reason,
                created_by_account_id=by_account_id,
                created_by_name=by_name,
                created_at=now,
                expires_at=expires_at,
            )
            ban_id = (await connection.execute(new.returning(_bans.c.id))).scalar_one()
        ban = BanRecord(ban_id, kind, account_id, target, reason, by_name, now, expires_at)
        return ban, replaced

    async def active_bans(self, kinds: tuple[str, ...] = BAN_KINDS) -> list[BanRecord]:
        """The bans in force now, of ``kinds``, oldest first."""
        query = select(_bans).where(_in_force(_now()), _bans.c.kind.in_(kinds)).order_by(_bans.c.id)
        async with self._database.snapshot() as connection:
            return [_ban(row) for row in (await connection.execute(query)).all()]

    async def account_ban(self, account_id: int) -> BanRecord | None:
        """The ban in force now on the account that lasts longest, or None."""
        query = select(_bans).where(_in_force(_now()), _bans.c.kind == "account", _bans.c.account_id == account_id)
        async with self._database.snapshot() as connection:
            bans = [_ban(row) for row in (await connection.execute(query)).all()]
        forever = datetime.max.replace(tzinfo=UTC)
        return max(bans, key=lambda ban: ban.expires_at or forever, default=None)

    async def lift(
        self,
        by_name: str,
        ban_id: int | None = None,
        kind: str | None = None,
        target: str = "",
        account_id: int | None = None,
    ) -> list[BanRecord]:
        """Lift the ban numbered ``ban_id``, or those on ``target`` of ``kind``, that are in
        force; returns those lifted (none: there was no such ban in force)."""
        now = _now()
        if ban_id is not None:
            which = _bans.c.id == ban_id
        elif kind is not None:
            which = _same_target(kind, target, account_id)
        else:
            raise ValueError("lift which ban?")
        async with self._database.transaction() as connection:
            chosen = and_(which, _in_force(now))
            lifted = [_ban(row) for row in (await connection.execute(select(_bans).where(chosen))).all()]
            if lifted:
                await connection.execute(update(_bans).where(chosen).values(lifted_at=now, lifted_by_name=by_name[:32]))
        return lifted

    # -- mutes and locks -------------------------------------------------------------------

    async def set_mute(self, account_id: int, until: datetime | None, reason: str = "") -> None:
        """Mute the account until ``until`` (None: unmute it), because ``reason``."""
        values = {"muted_until": until, "mute_reason": reason[:REASON_MAX] if until is not None else ""}
        async with self._database.transaction() as connection:
            await connection.execute(update(_accounts).where(_accounts.c.id == account_id).values(**values))

    async def set_lock(self, account_id: int, locked: bool, reason: str = "") -> None:
        """Lock the account (nobody may log in to it) because ``reason``, or unlock it."""
        values = {"locked_at": _now() if locked else None, "lock_reason": reason[:REASON_MAX] if locked else ""}
        async with self._database.transaction() as connection:
            await connection.execute(update(_accounts).where(_accounts.c.id == account_id).values(**values))


def _ban(row: Row[Any]) -> BanRecord:
    return BanRecord(
        id=row.id,
        kind=row.kind,
        account_id=row.account_id,
        target=row.target,
        reason=row.reason,
        created_by_name=row.created_by_name,
        created_at=row.created_at,
        expires_at=row.expires_at,
    )
