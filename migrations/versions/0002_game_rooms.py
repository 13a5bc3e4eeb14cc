"""Game rooms: rooms, seats, cards, the event log, game results.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("name_key", sa.String(length=40), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=True),
        sa.Column("phase", sa.String(length=10), nullable=False),
        sa.Column("host_account_id", sa.Integer(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("turn", sa.JSON(), nullable=False),
        sa.Column("result", sa.Text(), nullable=False),
        sa.Column("next_card_number", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rooms")),
        sa.UniqueConstraint("name_key", name=op.f("uq_rooms_name_key")),
    )
    op.create_table(
        "seats",
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("team", sa.String(length=20), nullable=False),
        sa.Column("out", sa.Boolean(), nullable=False),
        sa.Column("away_since_seq", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name=op.f("fk_seats_account_id_accounts")),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_seats_room_id_rooms"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("room_id", "account_id", name=op.f("pk_seats")),
    )
    op.create_index(op.f("ix_seats_account_id"), "seats", ["account_id"])
    op.create_table(
        "cards",
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("kind", sa.String(length=60), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("author_account_id", sa.Integer(), nullable=False),
        sa.Column("author_name", sa.String(length=32), nullable=False),
        sa.Column("zone", sa.String(length=10), nullable=False),
        sa.Column("owner", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("attached_to", sa.Integer(), nullable=True),
        sa.Column("deck_owner", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_cards_room_id_rooms"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("room_id", "number", name=op.f("pk_cards")),
    )
    op.create_index("ix_cards_place", "cards", ["room_id", "zone", "owner", "position"])
    op.create_table(
        "events",
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_account_id", sa.Integer(), nullable=False),
        sa.Column("actor_name", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("forced", sa.Boolean(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("deltas", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_events_room_id_rooms"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("room_id", "seq", name=op.f("pk_events")),
    )
    op.create_table(
        "game_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("result", sa.Text(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_game_results_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_results")),
    )
    op.create_index(op.f("ix_game_results_room_id"), "game_results", ["room_id"])


def downgrade() -> None:
    op.drop_table("game_results")
    op.drop_table("events")
    op.drop_index("ix_cards_place", table_name="cards")
    op.drop_table("cards")
    op.drop_index(op.f("ix_seats_account_id"), table_name="seats")
    op.drop_table("seats")
    op.drop_table("rooms")
