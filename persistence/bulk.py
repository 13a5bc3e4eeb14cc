"""Writing many rows at once: the few statements a batch of moves runs, each once for all
its rows, whatever their number: on PostgreSQL as one statement taking each column as an
array (``unnest``), on SQLite as multi-row statements run with the commit, away from the
event loop (see :meth:`Database.run_write`).

Both go to the driver as SQL text, without SQLAlchemy's compiling and per-row parameter
processing, which cost more than the rest of storing a batch. On PostgreSQL the statement's
text is the same for any number of rows, so it is prepared once per connection; an
executemany or a multi-row VALUES would be prepared again for each new count of rows.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from operator import itemgetter
from typing import Any

from sqlalchemy import JSON, Table
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import Connection

from games.base import json_text
from persistence.database import Writing

#: Most ``?`` one SQLite statement may have (SQLite's own limit is 32766).
SQLITE_VARIABLES = 30_000

_POSTGRESQL = postgresql.dialect()


@dataclass(frozen=True)
class Bulk:
    """One statement written for many rows, in each backend's form: SQLite's (``sqlite``:
    the SQL with a ``{values}`` slot for the rows, and the row fields to give for each row,
    in order) and PostgreSQL's (``postgresql``: the SQL taking one array per field, the
    fields in order, and which of them go into JSON columns). A field for a JSON column is
    written as JSON text if it is a dict or a list, and as the JSON text it is if it is a
    string (as the event rows' data, digested as that text). Made by :meth:`insert` and
    :meth:`update`."""

    sqlite: tuple[str, tuple[str, ...]]
    postgresql: tuple[str, tuple[str, ...], frozenset[str]]

    @classmethod
    def insert(cls, table: Table, columns: tuple[str, ...], fields: tuple[str, ...] | None = None) -> Bulk:
        """``INSERT INTO <table> (<columns>)`` the rows, giving each column the row's field
        of the same place in ``fields`` (by default, of the column's own name)."""
        fields = fields or columns
        arrays, picked = _unnest(table, columns)
        into = f"INSERT INTO {table.name} ({', '.join(columns)})"
        return cls(
            (f"{into} VALUES {{values}}", fields),
            (f"{into} SELECT {picked} FROM {arrays}", fields, _json(table, columns, fields)),
        )

    @classmethod
    def update(cls, table: Table, keys: dict[str, str], columns: tuple[str, ...]) -> Bulk:
        """``UPDATE <table> SET <columns>`` from each row's fields of the same names, in
        the row whose key columns (``keys``' keys) hold its key fields (``keys``' values)."""
        fields = tuple(keys.values()) + columns
        every = tuple(keys) + columns
        arrays, _ = _unnest(table, every)
        match = " AND ".join(f"{table.name}.{column} = v.column{i + 1}" for i, column in enumerate(keys))

        def assignments(cast: bool) -> str:
            return ", ".join(
                f"{column} = v.column{len(keys) + i + 1}{_cast(table, column) if cast else ''}"
                for i, column in enumerate(columns)
            )

        update = f"UPDATE {table.name} SET"
        return cls(
            (f"{update} {assignments(False)} FROM (VALUES {{values}}) AS v WHERE {match}", fields),
            (f"{update} {assignments(True)} FROM {arrays} WHERE {match}", fields, _json(table, every, fields)),
        )


def _is_json(table: Table, column: str) -> bool:
    return isinstance(table.c[column].type, JSON)


def _cast(table: Table, column: str) -> str:
    """What makes the text given for a JSON column JSON (PostgreSQL)."""
    return "::json" if _is_json(table, column) else ""


def _unnest(table: Table, columns: tuple[str, ...]) -> tuple[str, str]:
    """PostgreSQL's ``unnest($1::<type>[], ...) AS v(column1, ...)``, one typed array per
    column (text for JSON columns), and the select list that casts them back."""
    types = [
        "TEXT" if _is_json(table, column) else table.c[column].type.compile(dialect=_POSTGRESQL) for column in columns
    ]
    arrays = ", ".join(f"${i + 1}::{kind}[]" for i, kind in enumerate(types))
    aliases = ", ".join(f"column{i + 1}" for i in range(len(columns)))
    picked = ", ".join(f"v.column{i + 1}{_cast(table, column)}" for i, column in enumerate(columns))
    return f"unnest({arrays}) AS v({aliases})", picked


def _json(table: Table, columns: tuple[str, ...], fields: tuple[str, ...]) -> frozenset[str]:
    """The fields that go into JSON columns."""
    return frozenset(field for column, field in zip(columns, fields, strict=True) if _is_json(table, column))


class RowWriter:
    """Runs :class:`Bulk` statements in the caller's transaction, by :meth:`finish`.

    On PostgreSQL they are held, then sent as one statement, each but the last a
    data-modifying ``WITH`` clause: one round trip for all of them. Every clause sees the
    tables as they were before the statement, not each other's rows; a batch writes no
    row twice (a room's moves in one batch are merged into one; a card is inserted or
    updated, never both), so none needs to. What is run at once on the connection meanwhile
    (a room's seats, a proposal, a vote) goes before them, as on SQLite."""

    @staticmethod
    def for_writing(writing: Writing) -> RowWriter:
        if writing.connection.dialect.name == "sqlite":
            return SqliteRowWriter(writing)
        return RowWriter(writing)

    def __init__(self, writing: Writing) -> None:
        self.writing = writing
        self.connection: Connection = writing.connection
        self._held: list[tuple[str, list[list[Any]]]] = []

    def write(self, statement: Bulk, rows: list[dict[str, Any]]) -> None:
        if not rows:
            return
        sql, fields, json_fields = statement.postgresql
        arrays = [[row[field] for row in rows] for field in fields]
        for index, field in enumerate(fields):
            if field in json_fields:
                arrays[index] = [_json_text(value) for value in arrays[index]]
        self._held.append((sql, arrays))

    def finish(self) -> None:
        """Send the statements written (and hold none)."""
        if not self._held:
            return
        held, self._held = self._held, []
        clauses: list[str] = []
        values: list[list[Any]] = []
        for sql, arrays in held:
            clauses.append(_numbered_from(sql, len(values)))
            values += arrays
        *first, last = clauses
        with_clauses = "WITH " + ", ".join(f"w{i} AS ({c})" for i, c in enumerate(first)) + " " if first else ""
        self.connection.exec_driver_sql(with_clauses + last, tuple(values))


@lru_cache(maxsize=256)
def _numbered_from(sql: str, offset: int) -> str:
    """``sql`` with its parameters ``$1``, ``$2``... numbered from ``offset`` + 1."""
    return re.sub(r"\$(\d+)", lambda number: f"${int(number.group(1)) + offset}", sql)


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

    def finish(self) -> None:
        """Nothing to send: the statements run with the commit (see :meth:`Database.run_write`)."""


#: Values SQLite takes as they are (``type``, not ``isinstance``: a bool is written as 0/1).
_AS_THEY_ARE = frozenset({int, str, float, bytes, type(None)})


@lru_cache(maxsize=64)
def _fields(columns: tuple[str, ...]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """What takes a row's ``columns``, in order, out of it (as one tuple)."""
    if len(columns) == 1:
        (column,) = columns
        return lambda row: (row[column],)
    return itemgetter(*columns)


def _json_text(value: Any) -> Any:
    """A JSON column's value as its text: a dict or a list made JSON, anything else (JSON
    text already, or None) as it is."""
    return json_text(value) if isinstance(value, (dict, list)) else value


def sqlite_value(value: Any) -> Any:
    if isinstance(value, datetime):
        return _moment_text(value)
    if isinstance(value, bool):
        return int(value)
    return _json_text(value)


@lru_cache(maxsize=16)
def _moment_text(moment: datetime) -> str:
    """A timestamp as SQLAlchemy stores it on SQLite: naive UTC. A batch stamps every row
    with the same moment, so it is formatted once."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
