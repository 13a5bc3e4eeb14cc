"""The database schema, as SQLAlchemy declarative models. Alembic migrations follow it."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Index, Integer, MetaData, String, Text
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

#: Deterministic constraint names, so that migrations (and SQLite batch mode) can name them.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UtcDateTime(TypeDecorator[datetime]):
    """A moment in UTC, read back timezone-aware on every backend (SQLite drops the zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return value.astimezone(UTC) if value is not None else None

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Account(Base):
    """A player's account: the name they connect with and their password hash."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    #: ``name`` case-folded: names are unique regardless of case.
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    #: argon2id hash in PHC string form; the password itself is never stored.
    password_hash: Mapped[str] = mapped_column(String(255))
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    last_login_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class Room(Base):
    """A named game room: its table's settings, turn and phase. The cards, seats and
    events are rows of their own. ``seq`` is the number of the room's last event: it
    only grows, and a write that expected another value lost a race and is refused."""

    __tablename__ = "rooms"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    game: Mapped[str] = mapped_column(String(20))
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    phase: Mapped[str] = mapped_column(String(10))
    host_account_id: Mapped[int] = mapped_column(Integer)
    settings: Mapped[dict] = mapped_column(JSON)
    turn: Mapped[dict] = mapped_column(JSON)
    result: Mapped[str] = mapped_column(Text)
    next_card_number: Mapped[int] = mapped_column(Integer)
    seq: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class Seat(Base):
    """A player seated in a room, in turn order. A seat outlives the connection."""

    __tablename__ = "seats"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True, index=True)
    position: Mapped[int] = mapped_column(Integer)
    team: Mapped[str] = mapped_column(String(20))
    out: Mapped[bool] = mapped_column(Boolean)
    #: The room's ``seq`` when the player's last connection dropped (None while online).
    away_since_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)


class CardRow(Base):
    """A card of a room: its face, and exactly one place (zone, owner, position)."""

    __tablename__ = "cards"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    kind: Mapped[str] = mapped_column(String(60))
    text: Mapped[str] = mapped_column(Text)
    author_account_id: Mapped[int] = mapped_column(Integer)
    author_name: Mapped[str] = mapped_column(String(32))
    zone: Mapped[str] = mapped_column(String(10))
    owner: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)
    attached_to: Mapped[int | None] = mapped_column(Integer, nullable=True)
    deck_owner: Mapped[int] = mapped_column(Integer)

    __table_args__ = (Index("ix_cards_place", "room_id", "zone", "owner", "position"),)


class EventRow(Base):
    """One entry of a room's append-only event log: what happened and the deltas that
    replay it."""

    __tablename__ = "events"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    actor_account_id: Mapped[int] = mapped_column(Integer)
    actor_name: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str] = mapped_column(String(20))
    forced: Mapped[bool] = mapped_column(Boolean)
    data: Mapped[dict] = mapped_column(JSON)
    deltas: Mapped[list] = mapped_column(JSON)


class GameResult(Base):
    """How a finished game ended."""

    __tablename__ = "game_results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[datetime] = mapped_column(UtcDateTime())
    result: Mapped[str] = mapped_column(Text)
    players: Mapped[list] = mapped_column(JSON)
