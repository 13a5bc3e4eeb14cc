"""Dvorak's own tables, on the schema's declarative base (:class:`persistence.models.Base`):
Alembic's migrations (migrations/versions) make them with the rest, and
:func:`persistence.models.schema` finds them through Dvorak's registration."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Boolean, ForeignKey, ForeignKeyConstraint, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.sql.expression import false as sa_false

from persistence.models import Base, UtcDateTime


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
    is_rule: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    colour: Mapped[str] = mapped_column(String(8), default="", server_default="")
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    #: A copy in a player's CCG deck: the number of the set card it copies.
    copy_of: Mapped[int | None] = mapped_column(Integer, nullable=True)

    __table_args__ = (Index("ix_cards_place", "room_id", "zone", "owner", "position"),)


class ProposalRow(Base):
    """A proposal put to a room's vote, and how it ended (pending, accepted, rejected,
    withdrawn)."""

    __tablename__ = "proposals"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    subject: Mapped[int] = mapped_column(Integer)
    proposer_account_id: Mapped[int] = mapped_column(Integer)
    proposer_name: Mapped[str] = mapped_column(String(32))
    face: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    bundle: Mapped[int | None] = mapped_column(Integer, nullable=True)
    status: Mapped[str] = mapped_column(String(10))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    created_seq: Mapped[int] = mapped_column(Integer)
    decided_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    decided_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)


class VoteRow(Base):
    """One player's current vote on a pending proposal: who, what, when."""

    __tablename__ = "votes"

    room_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    proposal_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    choice: Mapped[str] = mapped_column(String(8))
    voted_at: Mapped[datetime] = mapped_column(UtcDateTime())
    seq: Mapped[int] = mapped_column(Integer)

    __table_args__ = (
        ForeignKeyConstraint(["room_id", "proposal_id"], ["proposals.room_id", "proposals.id"], ondelete="CASCADE"),
    )


class CardVersion(Base):
    """One version of a card's face: the first, and one more for each accepted edit."""

    __tablename__ = "card_versions"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    kind: Mapped[str] = mapped_column(String(60))
    text: Mapped[str] = mapped_column(Text)
    colour: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    seq: Mapped[int] = mapped_column(Integer)


class PlayerDeck(Base):
    """A CCG deck a player built and saved: set cards by name and how many copies."""

    __tablename__ = "player_decks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40))
    #: The room whose set it was built from, and that set's version then.
    room_name: Mapped[str] = mapped_column(String(80))
    set_version: Mapped[int] = mapped_column(Integer)
    card_count: Mapped[int] = mapped_column(Integer)
    saved_at: Mapped[datetime] = mapped_column(UtcDateTime())
    #: ``{"cards": [[name, copies], ...]}``
    data: Mapped[dict] = mapped_column(JSON)

    __table_args__ = (Index("ix_player_decks_owner_name", "owner_account_id", "name_key", unique=True),)


class SavedDeck(Base):
    """A room saved under a name by its owner: cards, piles, rules, settings, votes, turn."""

    __tablename__ = "saved_decks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    card_count: Mapped[int] = mapped_column(Integer)
    saved_at: Mapped[datetime] = mapped_column(UtcDateTime())
    data: Mapped[dict] = mapped_column(JSON)
    #: The size of ``data`` as JSON, in bytes: what counts against the owner's quota.
    size_bytes: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
