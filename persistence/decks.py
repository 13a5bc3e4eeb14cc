"""Saved decks: whole rooms stored under a name by the player who saved them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from persistence.database import Database
from persistence.models import Account, SavedDeck

_decks = SavedDeck.__table__
_accounts = Account.__table__


class DeckOwnedByOther(Exception):
    """A deck of that name exists and belongs to someone else."""


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
    """Saved decks in the database."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def save(self, name: str, owner_id: int, card_count: int, data: dict[str, Any]) -> bool:
        """Store ``data`` as deck ``name``; True if it replaced the owner's earlier save.
        Raises :class:`DeckOwnedByOther` if the name is someone else's."""
        now = datetime.now(UTC)
        try:
            async with self._database.transaction() as connection:
                owner = (
                    await connection.execute(
                        select(_decks.c.owner_account_id).where(_decks.c.name_key == deck_key(name))
                    )
                ).scalar_one_or_none()
                if owner is not None and owner != owner_id:
                    raise DeckOwnedByOther(name)
                values = {"name": name, "card_count": card_count, "saved_at": now, "data": data}
                if owner is None:
                    await connection.execute(
                        insert(_decks).values(name_key=deck_key(name), owner_account_id=owner_id, **values)
                    )
                else:
                    await connection.execute(update(_decks).where(_decks.c.name_key == deck_key(name)).values(**values))
        except IntegrityError:
            raise DeckOwnedByOther(name) from None
        return owner is not None

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
