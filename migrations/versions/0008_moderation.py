"""Running a public server: roles, bans, the staff's audit log, ignores, reports, mutes,
locks and account deletion.

Additive only, like every migration of a release (see docs/operators.md, "Upgrading"):
nodes of the previous release keep running against the migrated schema. Every account
gets the role its ``is_admin`` says ("admin" or "player"); ``is_admin`` stays, kept equal
to ``role == "admin"``, for those nodes.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("role", sa.String(length=10), server_default="player", nullable=False))
        batch_op.add_column(sa.Column("muted_until", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("mute_reason", sa.String(length=200), server_default="", nullable=False))
        batch_op.add_column(sa.Column("locked_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("lock_reason", sa.String(length=200), server_default="", nullable=False))
        batch_op.add_column(sa.Column("delete_after", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
    accounts = sa.table("accounts", sa.column("role", sa.String()), sa.column("is_admin", sa.Boolean()))
    op.execute(accounts.update().where(accounts.c.is_admin == sa.true()).values(role="admin"))

    op.create_table(
        "bans",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("target", sa.String(length=64), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("created_by_account_id", sa.Integer(), nullable=False),
        sa.Column("created_by_name", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lifted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lifted_by_name", sa.String(length=32), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_bans")),
    )
    op.create_index("ix_bans_kind_target", "bans", ["kind", "target"])
    op.create_index("ix_bans_account", "bans", ["account_id"])

    op.create_table(
        "staff_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_account_id", sa.Integer(), nullable=True),
        sa.Column("actor_name", sa.String(length=32), nullable=False),
        sa.Column("action", sa.String(length=20), nullable=False),
        sa.Column("target", sa.String(length=64), server_default="", nullable=False),
        sa.Column("reason", sa.Text(), server_default="", nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_staff_log")),
    )
    op.create_index(op.f("ix_staff_log_at"), "staff_log", ["at"])

    op.create_table(
        "ignores",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("ignored_account_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name=op.f("fk_ignores_account_id_accounts"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["ignored_account_id"],
            ["accounts.id"],
            name=op.f("fk_ignores_ignored_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("account_id", "ignored_account_id", name=op.f("pk_ignores")),
    )

    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reporter_account_id", sa.Integer(), nullable=False),
        sa.Column("reporter_name", sa.String(length=32), nullable=False),
        sa.Column("subject_account_id", sa.Integer(), nullable=False),
        sa.Column("subject_name", sa.String(length=32), nullable=False),
        sa.Column("place", sa.String(length=80), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("closed_by_name", sa.String(length=32), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reports")),
    )
    op.create_index(op.f("ix_reports_created_at"), "reports", ["created_at"])
    op.create_index(op.f("ix_reports_subject_account_id"), "reports", ["subject_account_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_reports_subject_account_id"), table_name="reports")
    op.drop_index(op.f("ix_reports_created_at"), table_name="reports")
    op.drop_table("reports")
    op.drop_table("ignores")
    op.drop_index(op.f("ix_staff_log_at"), table_name="staff_log")
    op.drop_table("staff_log")
    op.drop_index("ix_bans_account", table_name="bans")
    op.drop_index("ix_bans_kind_target", table_name="bans")
    op.drop_table("bans")
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.drop_column("deleted_at")
        batch_op.drop_column("delete_after")
        batch_op.drop_column("lock_reason")
        batch_op.drop_column("locked_at")
        batch_op.drop_column("mute_reason")
        batch_op.drop_column("muted_until")
        batch_op.drop_column("role")
