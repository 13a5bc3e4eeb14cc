"""Away players and archived rooms: who counts in a vote, what was said while a player
was away, which room a spectator watches, and rooms deleted or archived.

``seats.absent`` is part of the table (set by the ``away`` and ``back`` events): every
existing seat counts, as before. ``seats.away_at`` and ``room_talk`` serve the catch-up
of a player who comes back; ``accounts.watching_room_id`` puts a spectator back in the
room they watched. ``rooms.used_at`` starts as the time of a room's last event (or when
it was made) and ``rooms.archived_at`` empty: every existing room is open.

(Another branch may add a migration numbered 0005 too: this one renumbers cleanly, it
only adds columns and a table.)

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("away_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("absent", sa.Boolean(), server_default=sa.false(), nullable=False))

    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("watching_room_id", sa.Integer(), nullable=True))

    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("used_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("archived_at", sa.DateTime(timezone=True), nullable=True))

    # A room was last used when its last event was stored (or, without any, when it was made).
    rooms, events = (
        sa.table("rooms", sa.column("id"), sa.column("created_at"), sa.column("used_at")),
        sa.table("events", sa.column("room_id"), sa.column("created_at")),
    )
    last_event = sa.select(sa.func.max(events.c.created_at)).where(events.c.room_id == rooms.c.id).scalar_subquery()
    op.execute(sa.update(rooms).values(used_at=sa.func.coalesce(last_event, rooms.c.created_at)))

    op.create_table(
        "room_talk",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_room_talk_room_id_rooms"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_room_talk")),
    )
    op.create_index("ix_room_talk_room", "room_talk", ["room_id", "id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_room_talk_room", table_name="room_talk")
    op.drop_table("room_talk")

    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("archived_at")
        batch_op.drop_column("used_at")

    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.drop_column("watching_room_id")

    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("absent")
        batch_op.drop_column("away_at")
