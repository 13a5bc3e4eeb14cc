"""Players keeping themselves safe: who said each line kept for away players (so that
those who ignore the speaker are not shown it), and the spectators a room's host muted
or barred.

Additive only, like every migration of a release (see docs/operators.md, "Upgrading"):
lines kept before it have no speaker (shown to everyone, as before); no room has a muted
or barred spectator.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("room_talk", schema=None) as batch_op:
        batch_op.add_column(sa.Column("speaker_account_id", sa.Integer(), nullable=True))

    op.create_table(
        "room_spectators",
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("muted", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("barred", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("set_by_account_id", sa.Integer(), nullable=False),
        sa.Column("set_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_room_spectators_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name=op.f("fk_room_spectators_account_id_accounts"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("room_id", "account_id", name=op.f("pk_room_spectators")),
    )


def downgrade() -> None:
    op.drop_table("room_spectators")
    with op.batch_alter_table("room_talk", schema=None) as batch_op:
        batch_op.drop_column("speaker_account_id")
