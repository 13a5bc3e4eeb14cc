"""The CCG game and results: copies of set cards, players' saved decks, and how each
game ended.

``cards.copy_of`` marks a copy in a player's CCG deck (the set card's number); every
existing card is no copy. ``player_decks`` holds the decks players save. Each result
gains its outcome, winners and the deck's version: games recorded before have none
(their result sentence says how they ended).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("cards", schema=None) as batch_op:
        batch_op.add_column(sa.Column("copy_of", sa.Integer(), nullable=True))

    with op.batch_alter_table("game_results", schema=None) as batch_op:
        batch_op.add_column(sa.Column("outcome", sa.String(length=20), server_default="", nullable=False))
        batch_op.add_column(sa.Column("winners", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("deck_version", sa.Integer(), nullable=True))

    op.create_table(
        "player_decks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_account_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("name_key", sa.String(length=40), nullable=False),
        sa.Column("room_name", sa.String(length=80), nullable=False),
        sa.Column("set_version", sa.Integer(), nullable=False),
        sa.Column("card_count", sa.Integer(), nullable=False),
        sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["owner_account_id"],
            ["accounts.id"],
            name=op.f("fk_player_decks_owner_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_decks")),
    )
    op.create_index("ix_player_decks_owner_name", "player_decks", ["owner_account_id", "name_key"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_player_decks_owner_name", table_name="player_decks")
    op.drop_table("player_decks")

    with op.batch_alter_table("game_results", schema=None) as batch_op:
        batch_op.drop_column("deck_version")
        batch_op.drop_column("winners")
        batch_op.drop_column("outcome")

    with op.batch_alter_table("cards", schema=None) as batch_op:
        batch_op.drop_column("copy_of")
