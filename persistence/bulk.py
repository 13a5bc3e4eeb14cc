"""Writing many rows at once: the few statements a batch of moves runs, each once for all
its rows, on PostgreSQL as executemany and on SQLite as multi-row statements run with
the commit, away from the event loop (see :meth:`Database.run_write`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from operator import itemgetter
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.sql import Executable

from persistence.database import Writing

#: Most ``?`` one SQLite statement may have (SQLite's own limit is 32766).
SQLITE_VARIABLES = 30_000


@dataclass(frozen=True)
class Bulk:
    """One statement written for many rows: as SQLAlchemy runs it (``core``, given the
    rows as they are), and as SQLite's multi-row form (``sqlite``: the SQL with a
    ``{values}`` slot, and the row fields to give for each row, in order)."""

    core: Executable
    sqlite: tuple[str, tuple[str, ...]]


def update_from_values(table: str, keys: dict[str, str], columns: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """``UPDATE <table> SET ... FROM (VALUES {values}) AS v WHERE <keys match>``, and the
    row fields to give for each row, in order. ``keys`` maps key columns to row fields."""
    fields = tuple(keys.values()) + columns
    match = " AND ".join(f"{table}.{column} = v.column{i + 1}" for i, column in enumerate(keys))
    assignments = ", ".join(f"{column} = v.column{len(keys) + i + 1}" for i, column in enumerate(columns))
    return f"UPDATE {table} SET {assignments} FROM (VALUES {{values}}) AS v WHERE {match}", fields


def insert_values(
    table: str, columns: tuple[str, ...], fields: tuple[str, ...] | None = None
) -> tuple[str, tuple[str, ...]]:
    """``INSERT INTO <table> (<columns>) VALUES {values}``, and the row fields to give for
    each row, in order (``fields``, or the columns' own names)."""
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES {{values}}", fields or columns


class RowWriter:
    """Runs :class:`Bulk` statements in the caller's transaction."""

    @staticmethod
    def for_writing(writing: Writing) -> RowWriter:
        if writing.connection.dialect.name == "sqlite":
            return SqliteRowWriter(writing)
        return RowWriter(writing)

    def __init__(self, writing: Writing) -> None:
        self.writing = writing
        self.connection: Connection = writing.connection

    def write(self, statement: Bulk, rows: list[dict[str, Any]]) -> None:
        if rows:
            self.connection.execute(statement.core, rows)


class SqliteRowWriter(RowWriter):
    """The same on SQLite, as a few multi-row statements that :meth:`Database.run_write`
    runs, with the commit, away from the event loop (each is one step inside SQLite, so
    that thread hardly needs the GIL). Values take the forms SQLAlchemy stores and reads:
    JSON text, naive UTC timestamps, 0/1."""

    def write(self, statement: Bulk, rows: list[dict[str, Any]]) -> None:
        if not rows:
            return
        shape, columns = statement.sqlite
        per_chunk = SQLITE_VARIABLES // len(columns)
        for start in range(0, len(rows), per_chunk):
            chunk = rows[start : start + per_chunk]
            marks = ", ".join(["(" + ", ".join("?" * len(columns)) + ")"] * len(chunk))
            fields = _fields(columns)
            values = [
                value if type(value) in _AS_THEY_ARE else sqlite_value(value) for row in chunk for value in fields(row)
            ]
            self.writing.with_commit.append((shape.format(values=marks), values))


#: Values SQLite takes as they are (``type``, not ``isinstance``: a bool is written as 0/1).
_AS_THEY_ARE = frozenset({int, str, float, bytes, type(None)})


@lru_cache(maxsize=64)
def _fields(columns: tuple[str, ...]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """What takes a row's ``columns``, in order, out of it (as one tuple)."""
    if len(columns) == 1:
        (column,) = columns
        return lambda row: (row[column],)
    return itemgetter(*columns)


def sqlite_value(value: Any) -> Any:
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    if isinstance(value, datetime):
        return _moment_text(value)
    if isinstance(value, bool):
        return int(value)
    return value


@lru_cache(maxsize=16)
def _moment_text(moment: datetime) -> str:
    """A timestamp as SQLAlchemy stores it on SQLite: naive UTC. A batch stamps every row
    with the same moment, so it is formatted once."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
