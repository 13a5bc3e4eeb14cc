"""Names told apart by eye: each account's name as it looks (``name_skeleton``, see
:func:`persistence.accounts.name_skeleton`), so that a new player cannot take a name
that passes for another's (AIice for Alice).

Additive only, like every migration of a release (see docs/operators.md, "Upgrading"):
a nullable column, filled in for the accounts there are; an account a node of 0.2.0
makes during an upgrade has none (and is not looked at as a lookalike).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from persistence.accounts import name_skeleton

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("name_skeleton", sa.String(length=32), nullable=True))
        batch_op.create_index(batch_op.f("ix_accounts_name_skeleton"), ["name_skeleton"], unique=False)
    accounts = sa.table(
        "accounts",
        sa.column("id", sa.Integer()),
        sa.column("name", sa.String()),
        sa.column("name_skeleton", sa.String()),
    )
    connection = op.get_bind()
    for account_id, name in connection.execute(sa.select(accounts.c.id, accounts.c.name)).all():
        connection.execute(
            accounts.update().where(accounts.c.id == account_id).values(name_skeleton=name_skeleton(name))
        )


def downgrade() -> None:
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_accounts_name_skeleton"))
        batch_op.drop_column("name_skeleton")
