"""Quotas and trust: who made each room, where each account was made from, how big each
saved deck is, and a digest of each room's event log.

``rooms.digest`` chains every event stored from here on (existing rooms start from the
empty string), so that a node's copy of a room that does not match the database cannot
be written back over it. ``rooms.created_by_account_id`` and
``accounts.created_address`` are unknown (NULL) for what was made before; saved decks'
sizes are measured now.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("digest", sa.String(length=64), server_default="", nullable=False))
        batch_op.add_column(sa.Column("created_by_account_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_rooms_created_by_account_id"), ["created_by_account_id"], unique=False)

    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("created_address", sa.String(length=64), nullable=True))
        batch_op.create_index("ix_accounts_created_from", ["created_address", "created_at"], unique=False)

    with op.batch_alter_table("saved_decks", schema=None) as batch_op:
        batch_op.add_column(sa.Column("size_bytes", sa.Integer(), server_default="0", nullable=False))

    decks = sa.table(
        "saved_decks", sa.column("id", sa.Integer()), sa.column("data", sa.JSON()), sa.column("size_bytes")
    )
    connection = op.get_bind()
    for deck_id, data in connection.execute(sa.select(decks.c.id, decks.c.data)).all():
        size = len(json.dumps(data, separators=(",", ":")).encode())
        connection.execute(sa.update(decks).where(decks.c.id == deck_id).values(size_bytes=size))


def downgrade() -> None:
    with op.batch_alter_table("saved_decks", schema=None) as batch_op:
        batch_op.drop_column("size_bytes")

    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.drop_index("ix_accounts_created_from")
        batch_op.drop_column("created_address")

    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rooms_created_by_account_id"))
        batch_op.drop_column("created_by_account_id")
        batch_op.drop_column("digest")
