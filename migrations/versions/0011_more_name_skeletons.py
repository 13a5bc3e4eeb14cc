"""Names told apart by eye, more of them: the skeleton of a name now also reads five as
s, six as b, cl as d, and an n beside an m as another m (Ja5on, Bo6, Aclam, Enma), so
every account's ``name_skeleton`` is worked out again.

Data only, like every migration of a release additive (see docs/operators.md,
"Upgrading"): a node of the release before reads the column as it always did.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from persistence.accounts import name_skeleton

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ACCOUNTS = sa.table(
    "accounts",
    sa.column("id", sa.Integer()),
    sa.column("name", sa.String()),
    sa.column("name_skeleton", sa.String()),
)


def upgrade() -> None:
    connection = op.get_bind()
    for account_id, name, stored in connection.execute(
        sa.select(_ACCOUNTS.c.id, _ACCOUNTS.c.name, _ACCOUNTS.c.name_skeleton)
    ).all():
        skeleton = name_skeleton(name)
        if skeleton != stored:
            connection.execute(_ACCOUNTS.update().where(_ACCOUNTS.c.id == account_id).values(name_skeleton=skeleton))


def downgrade() -> None:
    """Nothing to undo: the skeletons read more alike than the release before would have
    them, which only refuses more look-alike names."""
