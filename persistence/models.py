"""The database schema, as SQLAlchemy declarative models. Alembic migrations follow it.

A game that keeps tables of its own declares them on :class:`Base` in its own storage
module, the one its kind names as its projection (:attr:`games.base.GameKind.projection`);
:func:`schema` is every table, theirs too."""

from __future__ import annotations

import importlib
from datetime import UTC, datetime
from types import ModuleType
from typing import ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.sql.expression import false as sa_false
from sqlalchemy.types import TypeDecorator

from games import KINDS

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
    # Every model here is mapped to one Table (no mapping to a join or a select), so its
    # __table__ is a Table, which insert(), update() and delete() accept; DeclarativeBase
    # declares only the wider FromClause.
    __table__: ClassVar[Table]


class Account(Base):
    """A player's account: the name they connect with and their password hash."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    #: ``name`` case-folded: names are unique regardless of case.
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    #: What the name looks like (see :func:`persistence.accounts.name_skeleton`): a new
    #: player's may not be another's. None: made by a node of 0.2.0 during an upgrade.
    name_skeleton: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    #: argon2id hash in PHC string form; the password itself is never stored.
    password_hash: Mapped[str] = mapped_column(String(255))
    #: Kept equal to ``role == "admin"`` for nodes of release 0.1, which read only this
    #: during a rolling upgrade (see docs/operators.md); ``role`` is what counts.
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    #: "player", "moderator" or "admin" (see :data:`persistence.accounts.ROLES`).
    role: Mapped[str] = mapped_column(String(10), default="player", server_default="player")
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    last_login_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    #: ANSI colour: "auto" (when the client says it has colour), "on" or "off".
    color: Mapped[str] = mapped_column(String(4), default="auto", server_default="auto")
    #: The language the player is written to in (``@language``: a code of
    #: :data:`i18n.LANGUAGES`); None: what their client prefers.
    language: Mapped[str | None] = mapped_column(String(8), nullable=True)
    #: The address the account was made from (None for accounts made before it was
    #: kept): how many accounts one address may make in an hour is limited.
    created_address: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: The room the player was last watching as a spectator (None: not watching): they
    #: are put back there when they log in again.
    watching_room_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: Until when the player may not speak in public (None: they may); and why.
    muted_until: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    mute_reason: Mapped[str] = mapped_column(String(200), default="", server_default="")
    #: When staff locked the account (None: not locked): nobody may log in to it.
    locked_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    lock_reason: Mapped[str] = mapped_column(String(200), default="", server_default="")
    #: The player asked for the account to be deleted: it is, at this moment, unless they
    #: change their mind first (the cool-off).
    delete_after: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    #: When the account was deleted: its name is free again and nobody can log in to it;
    #: the row stays, so that what it made (cards, moves) still names an account.
    deleted_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)

    __table_args__ = (Index("ix_accounts_created_from", "created_address", "created_at"),)


class Room(Base):
    """A named game room of one ``game``: its table's phase, host, settings and state.
    The seats and events (and a game's own tables, like Dvorak's cards) are rows of
    their own. ``seq`` is the number of the room's last event: it
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
    #: The table's state as the game keeps it on the room's row: all of it but the seats,
    #: or for a game with tables of its own, what they do not hold (see
    #: ``games.base.GameKind.snapshot``).
    state: Mapped[dict] = mapped_column(JSON)
    seq: Mapped[int] = mapped_column(Integer)
    #: A digest chaining the room's events (see :mod:`persistence.room_log`): a write that
    #: expected another digest came from a copy of the room that the database does not
    #: hold, and is refused like a stale ``seq``.
    digest: Mapped[str] = mapped_column(String(64), default="", server_default="")
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    #: The player who made the room (None for rooms made before it was kept): how many
    #: rooms one player may host is limited.
    created_by_account_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    #: When a move was last stored in the room or something said there was kept (None
    #: for rooms made before it was kept: their ``created_at`` counts).
    used_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    #: When the room was deleted by its host or archived for lack of use (None: it is
    #: open). An archived room keeps its rows and log but is listed and found no more,
    #: and its ``name_key`` gets ``~<id>`` added so that the name is free again.
    archived_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class Seat(Base):
    """A player seated in a room, in turn order. A seat outlives the connection. A
    computer player's seat is no account: its ``account_id`` is negative, the table's own."""

    __tablename__ = "seats"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, primary_key=True, index=True)
    #: The player's name (an account's, or a computer player's).
    name: Mapped[str] = mapped_column(String(32), default="", server_default="")
    #: A computer player's level ("" for a person).
    bot: Mapped[str] = mapped_column(String(10), default="", server_default="")
    position: Mapped[int] = mapped_column(Integer)
    team: Mapped[str] = mapped_column(String(20))
    out: Mapped[bool] = mapped_column(Boolean)
    #: The room's ``seq`` when the player's last connection dropped (None while online).
    away_since_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: When the player's last connection dropped (None while online): what was said in
    #: the room since then is shown to them when they come back.
    away_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    #: Away longer than the grace period: not counted in votes until back (the table's
    #: state, changed by events like ``out``).
    absent: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())


class RoomTalk(Base):
    """A line said in a room while one of its seated players was away, kept to show them
    when they come back (only the last few of each room are kept)."""

    __tablename__ = "room_talk"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    text: Mapped[str] = mapped_column(Text)
    #: Who said it, for those who ignore them (None: staff, whom nobody can ignore, or
    #: said before speakers were kept).
    speaker_account_id: Mapped[int | None] = mapped_column(Integer, nullable=True)

    __table_args__ = (Index("ix_room_talk_room", "room_id", "id"),)


class RoomSpectator(Base):
    """What a room's host decided about one person who is not seated there: muted (they
    may watch but not talk there) or barred (they may not come back to watch or sit). A
    row is removed when neither holds."""

    __tablename__ = "room_spectators"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    muted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    barred: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    #: The host who last changed it, and when.
    set_by_account_id: Mapped[int] = mapped_column(Integer)
    set_at: Mapped[datetime] = mapped_column(UtcDateTime())


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
    #: How it ended: won, forfeit, last standing, draw, stalemate, boredom, no winner,
    #: abandoned ("" for games recorded before outcomes were).
    outcome: Mapped[str] = mapped_column(String(20), default="", server_default="")
    winners: Mapped[list | None] = mapped_column(JSON, nullable=True)
    #: The version of the deck (a CCG room's card set) it was played with.
    deck_version: Mapped[int | None] = mapped_column(Integer, nullable=True)


class Ban(Base):
    """A ban: an account, an address or a network may not connect, until it expires or
    is lifted. Kept after that, as the record of it."""

    __tablename__ = "bans"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: "account", "address" or "network".
    kind: Mapped[str] = mapped_column(String(10))
    #: The banned account (kind "account"), else None.
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: What is banned, as shown: the account's name, an address, a network (CIDR).
    target: Mapped[str] = mapped_column(String(64))
    reason: Mapped[str] = mapped_column(String(200))
    created_by_account_id: Mapped[int] = mapped_column(Integer)
    created_by_name: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    #: When it ends by itself (None: never).
    expires_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    #: When staff lifted it (None: not lifted).
    lifted_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    lifted_by_name: Mapped[str | None] = mapped_column(String(32), nullable=True)

    __table_args__ = (Index("ix_bans_kind_target", "kind", "target"), Index("ix_bans_account", "account_id"))


class StaffAction(Base):
    """One entry of the audit log: a staff action (who, what, to whom, why, when). Only
    ever added to."""

    __tablename__ = "staff_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(UtcDateTime(), index=True)
    actor_account_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: Who did it: a player's name, or "(console)" for the command line.
    actor_name: Mapped[str] = mapped_column(String(32))
    #: What: "boot", "ban", "unban", "mute", "grant", "wall", "shutdown", ...
    action: Mapped[str] = mapped_column(String(20))
    #: To whom or what ("" for the whole server).
    target: Mapped[str] = mapped_column(String(64), default="", server_default="")
    reason: Mapped[str] = mapped_column(Text, default="", server_default="")


class Ignore(Base):
    """A player no longer hears another's chat and pages."""

    __tablename__ = "ignores"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    ignored_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class Report(Base):
    """A player's report about another, for staff to read (``@reports``)."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), index=True)
    reporter_account_id: Mapped[int] = mapped_column(Integer)
    reporter_name: Mapped[str] = mapped_column(String(32))
    subject_account_id: Mapped[int] = mapped_column(Integer, index=True)
    subject_name: Mapped[str] = mapped_column(String(32))
    #: Where the reporter was (a room's name, or "the lobby").
    place: Mapped[str] = mapped_column(String(80))
    text: Mapped[str] = mapped_column(Text)
    #: When a staff member marked it dealt with (None: open), and who.
    closed_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    closed_by_name: Mapped[str | None] = mapped_column(String(32), nullable=True)


def game_storage() -> list[ModuleType]:
    """The storage module of each registered game that keeps tables of its own (the
    module its kind names as its projection), imported: its models are then part of
    the schema."""
    return [importlib.import_module(kind.projection) for kind in KINDS.values() if kind.projection]


def schema() -> MetaData:
    """Every table of the database, the games' own too: what migrations must make."""
    game_storage()
    return Base.metadata


def account_rows() -> list[tuple[Table, str]]:
    """The games' own rows that belong to one account (a storage module's
    ``ACCOUNT_ROWS``: each table with the column naming the account), deleted with it."""
    return [rows for module in game_storage() for rows in getattr(module, "ACCOUNT_ROWS", ())]
