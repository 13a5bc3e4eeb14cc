"""Saved decks: whole rooms stored under a name by the player who saved them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from commands.dvorak.storage.models import SavedDeck
from persistence.database import Database
from persistence.models import Account

_decks = SavedDeck.__table__
_accounts = Account.__table__


class DeckOwnedByOther(Exception):
    """A deck of that name exists and belongs to someone else."""


class TooManyDecks(Exception):
    """Saving would give the player more saved decks than they may keep."""

    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.limit = limit


class DecksTooBig(Exception):
    """Saving would make the player's saved decks bigger in all than they may be."""

    def __init__(self, limit: int, others: int, size: int) -> None:
        super().__init__(limit)
        #: The limit, what the player's other decks take, and this deck's size (bytes).
        self.limit, self.others, self.size = limit, others, size


def deck_size(data: dict[str, Any]) -> int:
    """What a saved deck counts against its owner's quota: its size as JSON, in bytes."""
    return len(json.dumps(data, separators=(",", ":")).encode())


@dataclass(frozen=True)
class DeckSummary:
    name: str
    owner_id: int
    owner_name: str
    card_count: int
    saved_at: datetime


def deck_key(name: str) -> str:
    return name.casefold()


class DeckStore:
    """Saved decks in the database, within each owner's quota: at most ``max_decks``
    decks, of at most ``max_bytes`` in all (None: no limit)."""

    def __init__(self, database: Database, max_decks: int | None = None, max_bytes: int | None = None) -> None:
        self._database = database
        self.max_decks = max_decks
        self.max_bytes = max_bytes

    async def save(
        self, name: str, owner_id: int, card_count: int, data: dict[str, Any], size: int | None = None
    ) -> bool:
        """Store ``data`` (of :func:`deck_size` ``size``, when known already) as deck
        ``name``; True if it replaced the owner's earlier save. Raises
        :class:`DeckOwnedByOther` if the name is someone else's, and :class:`TooManyDecks`
        or :class:`DecksTooBig` if it would put the owner over their quota (a deck saved
        again counts once, at its new size)."""
        now = datetime.now(UTC)
        size = deck_size(data) if size is None else size
        try:
            async with self._database.transaction() as connection:
                owner = (
                    await connection.execute(
                        select(_decks.c.owner_account_id).where(_decks.c.name_key == deck_key(name))
                    )
                ).scalar_one_or_none()
                if owner is not None and owner != owner_id:
                    raise DeckOwnedByOther(name)
                await self._check_quota(connection, owner_id, deck_key(name), size)
                values = {"name": name, "card_count": card_count, "saved_at": now, "data": data, "size_bytes": size}
                if owner is None:
                    await connection.execute(
                        insert(_decks).values(name_key=deck_key(name), owner_account_id=owner_id, **values)
                    )
                else:
                    await connection.execute(update(_decks).where(_decks.c.name_key == deck_key(name)).values(**values))
        except IntegrityError:
            raise DeckOwnedByOther(name) from None
        return owner is not None

    async def _check_quota(self, connection: AsyncConnection, owner_id: int, key: str, size: int) -> None:
        # The owner's row is held, so that one player's saves are checked one at a time.
        await connection.execute(select(_accounts.c.id).where(_accounts.c.id == owner_id).with_for_update())
        others = (
            await connection.execute(
                select(func.count(), func.coalesce(func.sum(_decks.c.size_bytes), 0)).where(
                    _decks.c.owner_account_id == owner_id, _decks.c.name_key != key
                )
            )
        ).one()
        count, used = int(others[0]), int(others[1])
        if self.max_decks is not None and count >= self.max_decks:
            raise TooManyDecks(self.max_decks)
        if self.max_bytes is not None and used + size > self.max_bytes:
            raise DecksTooBig(self.max_bytes, used, size)

    async def usage(self, owner_id: int) -> tuple[int, int]:
        """How many saved decks ``owner_id`` keeps, and their size in all (bytes)."""
        async with self._database.snapshot() as connection:
            count, used = (
                await connection.execute(
                    select(func.count(), func.coalesce(func.sum(_decks.c.size_bytes), 0)).where(
                        _decks.c.owner_account_id == owner_id
                    )
                )
            ).one()
        return int(count), int(used)

    async def load(self, name: str) -> tuple[str, dict[str, Any]] | None:
        """The deck's name (as saved) and data, or None."""
        async with self._database.snapshot() as connection:
            row = (
                await connection.execute(
                    select(_decks.c.name, _decks.c.data).where(_decks.c.name_key == deck_key(name))
                )
            ).first()
        return (row.name, dict(row.data)) if row is not None else None

    async def summaries(self) -> list[DeckSummary]:
        async with self._database.snapshot() as connection:
            rows = (
                await connection.execute(
                    select(
                        _decks.c.name,
                        _decks.c.owner_account_id,
                        _accounts.c.name,
                        _decks.c.card_count,
                        _decks.c.saved_at,
                    )
                    .join(_accounts, _accounts.c.id == _decks.c.owner_account_id)
                    .order_by(_decks.c.name_key)
                )
            ).all()
        return [DeckSummary(*row) for row in rows]

    async def owner_of(self, name: str) -> int | None:
        async with self._database.snapshot() as connection:
            return (
                await connection.execute(select(_decks.c.owner_account_id).where(_decks.c.name_key == deck_key(name)))
            ).scalar_one_or_none()

    async def delete(self, name: str) -> bool:
        async with self._database.transaction() as connection:
            result = await connection.execute(delete(_decks).where(_decks.c.name_key == deck_key(name)))
        return result.rowcount == 1
