"""Rooms for any game: a room's game-specific state moves to one snapshot, and a seat
need not be an account.

``rooms.state`` is the JSON snapshot of the part of a table the game does not keep in
tables of its own (see ``games.base.GameKind.snapshot``). Dvorak's was four columns of
``rooms`` (``turn``, ``result``, ``next_card_number``, ``next_proposal``): they are
carried into the snapshot, as Dvorak's snapshot holds them, and dropped. Dvorak's cards,
proposals, votes and card versions stay as they are: Dvorak's own tables.

A seat may hold a computer player, which is no account (its id is negative): the seat
keeps its ``name`` (a person's is filled from their account) and ``bot`` (its level;
"" for a person), and ``seats.account_id`` no longer refers to ``accounts``.

Going back, what a later release added to a room's snapshot (the deck's version,
face-down cards, when votes opened, the settings a room was opened with, ...) has no
column to go to: it is kept in the room's settings under ``_snapshot_kept``, and going
forward again puts it back, so a room that went back and forth replays as it did.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_DVORAK_COLUMNS = ("turn", "result", "next_card_number", "next_proposal")
#: Where a downgrade keeps the parts of a room's snapshot that the columns before cannot
#: hold (what later releases added: the deck's version, face-down cards, when votes
#: opened, ...): in the room's settings, for the upgrade to put back where they were.
_KEPT = "_snapshot_kept"
#: The snapshot's keys for the columns.
_SNAPSHOT_OF_COLUMNS = ("turn", "result", "next_number", "next_proposal")


def _rooms(*columns: str) -> sa.TableClause:
    types = {"turn": sa.JSON(), "state": sa.JSON(), "settings": sa.JSON()}
    return sa.table("rooms", sa.column("id", sa.Integer()), *(sa.column(c, types.get(c)) for c in columns))


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("state", sa.JSON(), nullable=True))
    rooms = _rooms("state", "settings", *_DVORAK_COLUMNS)
    connection = op.get_bind()
    for room_id, settings, turn, result, next_number, next_proposal in connection.execute(
        sa.select(rooms.c.id, rooms.c.settings, *(rooms.c[c] for c in _DVORAK_COLUMNS))
    ).all():
        snapshot = {"turn": turn, "result": result, "next_number": next_number, "next_proposal": next_proposal}
        values: dict[str, object] = {"state": snapshot}
        if isinstance(settings, dict) and _KEPT in settings:
            values["settings"] = {name: value for name, value in settings.items() if name != _KEPT}
            snapshot.update(settings[_KEPT])
        connection.execute(sa.update(rooms).where(rooms.c.id == room_id).values(values))
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.alter_column("state", existing_type=sa.JSON(), nullable=False)
        for column in _DVORAK_COLUMNS:
            batch_op.drop_column(column)

    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("name", sa.String(length=32), server_default="", nullable=False))
        batch_op.add_column(sa.Column("bot", sa.String(length=10), server_default="", nullable=False))
        batch_op.drop_constraint("fk_seats_account_id_accounts", type_="foreignkey")
    seats = sa.table("seats", sa.column("account_id", sa.Integer()), sa.column("name", sa.String()))
    accounts = sa.table("accounts", sa.column("id", sa.Integer()), sa.column("name", sa.String()))
    account_name = sa.select(accounts.c.name).where(accounts.c.id == seats.c.account_id).scalar_subquery()
    op.execute(sa.update(seats).values(name=account_name))


def downgrade() -> None:
    """Only rooms of Dvorak can go back (a room of another game has nowhere to keep its
    state, nor a seat without an account anywhere to sit): the others are deleted."""
    connection = op.get_bind()
    connection.execute(sa.text("DELETE FROM seats WHERE account_id < 0"))
    connection.execute(sa.text("DELETE FROM rooms WHERE game <> 'dvorak'"))
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.create_foreign_key("fk_seats_account_id_accounts", "accounts", ["account_id"], ["id"])
        batch_op.drop_column("bot")
        batch_op.drop_column("name")

    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("turn", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("result", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("next_card_number", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("next_proposal", sa.Integer(), server_default="1", nullable=False))
    rooms = _rooms("state", "settings", *_DVORAK_COLUMNS)
    for room_id, snapshot, settings in connection.execute(sa.select(rooms.c.id, rooms.c.state, rooms.c.settings)).all():
        values = {
            "turn": snapshot["turn"],
            "result": snapshot["result"],
            "next_card_number": snapshot["next_number"],
            "next_proposal": snapshot["next_proposal"],
        }
        kept = {key: value for key, value in snapshot.items() if key not in _SNAPSHOT_OF_COLUMNS}
        if kept:
            values["settings"] = {**settings, _KEPT: kept}
        connection.execute(sa.update(rooms).where(rooms.c.id == room_id).values(values))
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.alter_column("turn", existing_type=sa.JSON(), nullable=False)
        batch_op.alter_column("result", existing_type=sa.Text(), nullable=False)
        batch_op.alter_column("next_card_number", existing_type=sa.Integer(), nullable=False)
        batch_op.drop_column("state")
