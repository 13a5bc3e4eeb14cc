"""Votes and decks: proposals, votes, card versions, saved decks; card colours and rules;
the per-account colour choice.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29 21:44:42.613916
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "card_versions",
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("kind", sa.String(length=60), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("colour", sa.String(length=8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_card_versions_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("room_id", "number", "version", name=op.f("pk_card_versions")),
    )
    op.create_table(
        "proposals",
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("subject", sa.Integer(), nullable=False),
        sa.Column("proposer_account_id", sa.Integer(), nullable=False),
        sa.Column("proposer_name", sa.String(length=32), nullable=False),
        sa.Column("face", sa.JSON(), nullable=True),
        sa.Column("bundle", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_seq", sa.Integer(), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("decided_seq", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_proposals_room_id_rooms"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("room_id", "id", name=op.f("pk_proposals")),
    )
    op.create_table(
        "saved_decks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("name_key", sa.String(length=40), nullable=False),
        sa.Column("owner_account_id", sa.Integer(), nullable=False),
        sa.Column("card_count", sa.Integer(), nullable=False),
        sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["owner_account_id"], ["accounts.id"], name=op.f("fk_saved_decks_owner_account_id_accounts")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_saved_decks")),
        sa.UniqueConstraint("name_key", name=op.f("uq_saved_decks_name_key")),
    )
    with op.batch_alter_table("saved_decks", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_saved_decks_owner_account_id"), ["owner_account_id"], unique=False)

    op.create_table(
        "votes",
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("proposal_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("choice", sa.String(length=8), nullable=False),
        sa.Column("voted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["room_id", "proposal_id"],
            ["proposals.room_id", "proposals.id"],
            name=op.f("fk_votes_room_id_proposals"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("room_id", "proposal_id", "account_id", name=op.f("pk_votes")),
    )
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("color", sa.String(length=4), server_default="auto", nullable=False))

    with op.batch_alter_table("cards", schema=None) as batch_op:
        batch_op.add_column(sa.Column("is_rule", sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column("colour", sa.String(length=8), server_default="", nullable=False))
        batch_op.add_column(sa.Column("version", sa.Integer(), server_default="1", nullable=False))

    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("next_proposal", sa.Integer(), server_default="1", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("next_proposal")

    with op.batch_alter_table("cards", schema=None) as batch_op:
        batch_op.drop_column("version")
        batch_op.drop_column("colour")
        batch_op.drop_column("is_rule")

    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.drop_column("color")

    op.drop_table("votes")
    with op.batch_alter_table("saved_decks", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_saved_decks_owner_account_id"))

    op.drop_table("saved_decks")
    op.drop_table("proposals")
    op.drop_table("card_versions")
