"""Players' own CCG decks: the set cards (by name) and how many copies of each, saved by
the player who built them and seen, loaded and deleted by them alone."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Row, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from commands.dvorak.storage.decks import TooManyDecks
from commands.dvorak.storage.models import PlayerDeck
from persistence.database import Database

_decks = PlayerDeck.__table__


@dataclass(frozen=True)
class SavedPlayerDeck:
    name: str
    #: The room whose set it was built from, and that set's version then.
    room_name: str
    set_version: int
    #: Set card names and how many copies of each.
    cards: list[tuple[str, int]]
    saved_at: datetime

    @property
    def card_count(self) -> int:
        return sum(copies for _, copies in self.cards)


def _key(name: str) -> str:
    return name.casefold()


class PlayerDeckStore:
    """Each player's saved CCG decks, at most ``max_decks`` a player (None: any number)."""

    def __init__(self, database: Database, max_decks: int | None = None) -> None:
        self._database = database
        self.max_decks = max_decks

    async def save(self, owner_id: int, deck: SavedPlayerDeck) -> bool:
        """Store ``deck`` as the owner's; True if it replaced one of theirs of that name.
        Raises :class:`TooManyDecks` if it would give the owner more than they may keep."""
        values = {
            "name": deck.name,
            "room_name": deck.room_name,
            "set_version": deck.set_version,
            "card_count": deck.card_count,
            "saved_at": deck.saved_at,
            "data": {"cards": [[name, copies] for name, copies in deck.cards]},
        }
        mine = (_decks.c.owner_account_id == owner_id, _decks.c.name_key == _key(deck.name))
        try:
            async with self._database.transaction() as connection:
                replaced = await connection.execute(update(_decks).where(*mine).values(values))
                if replaced.rowcount:
                    return True
                if self.max_decks is not None:
                    count = (
                        await connection.execute(
                            select(func.count()).select_from(_decks).where(_decks.c.owner_account_id == owner_id)
                        )
                    ).scalar_one()
                    if count >= self.max_decks:
                        raise TooManyDecks(self.max_decks)
                await connection.execute(
                    insert(_decks).values(owner_account_id=owner_id, name_key=_key(deck.name), **values)
                )
                return False
        except IntegrityError:
            # Saved by the same player at the same moment on another connection: that one stands.
            return True

    async def load(self, owner_id: int, name: str) -> SavedPlayerDeck | None:
        async with self._database.snapshot() as connection:
            row = (
                await connection.execute(
                    select(_decks).where(_decks.c.owner_account_id == owner_id, _decks.c.name_key == _key(name))
                )
            ).first()
        return _deck(row) if row is not None else None

    async def list(self, owner_id: int) -> list[SavedPlayerDeck]:
        """The owner's decks, by name."""
        async with self._database.snapshot() as connection:
            rows = (
                await connection.execute(
                    select(_decks).where(_decks.c.owner_account_id == owner_id).order_by(_decks.c.name_key)
                )
            ).all()
        return [_deck(row) for row in rows]

    async def delete(self, owner_id: int, name: str) -> bool:
        """Delete the owner's deck ``name``; False if they have none of that name."""
        async with self._database.transaction() as connection:
            result = await connection.execute(
                delete(_decks).where(_decks.c.owner_account_id == owner_id, _decks.c.name_key == _key(name))
            )
        return bool(result.rowcount)


def _deck(row: Row[Any]) -> SavedPlayerDeck:
    saved_at = row.saved_at
    return SavedPlayerDeck(
        row.name,
        row.room_name,
        row.set_version,
        [(str(name), int(copies)) for name, copies in row.data["cards"]],
        saved_at if saved_at.tzinfo else saved_at.replace(tzinfo=UTC),
    )
