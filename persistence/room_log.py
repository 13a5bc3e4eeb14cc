"""The append-only event log of every room, and the pipeline that stores moves into it,
many rooms' moves in one transaction (:mod:`persistence.group_commit`).

A room's **head** is how far its log goes: ``seq``, the number of its last event, and
``digest``, which chains every event (see :func:`chain`). ``seq`` alone would let a copy
of the room that was told of events never stored (a forged or mistaken message from
another node) write over the room once its number came round; the digest tells such a
copy apart, so it is refused like one that is behind.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any, Protocol

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection

from games import KINDS, kind_of
from games.base import OVER, Changes, Event, Seat, merged_changes
from persistence.bulk import Bulk, RowWriter, SqliteRowWriter
from persistence.database import Database, OutcomeUnknown, Writing
from persistence.group_commit import GroupCommit
from persistence.models import EventRow, GameResult, Room
from persistence.models import Seat as SeatRow

_rooms = Room.__table__
_seats = SeatRow.__table__
_events = EventRow.__table__
_results = GameResult.__table__


class StaleRoom(Exception):
    """The room changed in the database since it was loaded; reload it and try again."""


class Projection(Protocol):
    """The tables a game keeps of its own, beside the generic rooms, seats and event log:
    how they are read into a table's state and written with each move (in the same
    transaction). A game without tables of its own is stored as a snapshot on the room's
    row (:meth:`games.base.GameKind.snapshot`) and needs none."""

    async def load(self, connection: AsyncConnection, room_id: int, state: Any) -> None: ...

    def write(self, rows: RowWriter, moves: list[Move], now: datetime) -> None: ...

    async def row_problems(self, connection: AsyncConnection, room_id: int) -> list[str]: ...


@cache
def projection_of(game: str) -> Projection | None:
    """The tables the game called ``game`` keeps of its own (None: it keeps none, or there
    is no such game): the ``PROJECTION`` of the module its kind names
    (:attr:`games.base.GameKind.projection`)."""
    kind = KINDS.get(game)
    return importlib.import_module(kind.projection).PROJECTION if kind is not None and kind.projection else None


@dataclass(frozen=True)
class LogHead:
    """How far a room's event log goes: the ``seq`` of its last event, and the ``digest``
    chaining every event up to it (see :func:`chain`)."""

    seq: int
    digest: str


#: The head of a room with no events yet.
EMPTY_LOG = LogHead(0, "")


#: JSON as it is stored and digested: compact, keys in the order they were made (which
#: JSON columns keep, and ``json.loads`` gives back). One encoder, made once.
_json = json.JSONEncoder(separators=(",", ":")).encode
_text = json.encoder.encode_basestring_ascii


def _link(digest: str, event: Event, data: str, deltas: str) -> str:
    """The digest after ``event``, from ``digest`` before it; ``data`` and ``deltas`` are
    the event's as :func:`_json` writes them. (The JSON of the whole event, written out
    here for speed: what ``_json`` makes of :meth:`Event.as_dict`, as a test checks.)"""
    actor = "null" if event.actor is None else str(event.actor)
    logged = (
        f'{{"kind":{_text(event.kind)},"actor":{actor},"actor_name":{_text(event.actor_name)},'
        f'"data":{data},"deltas":{deltas},"forced":{"true" if event.forced else "false"}}}'
    )
    return hashlib.sha256((digest + logged).encode()).hexdigest()


def chain(digest: str, events: Iterable[Event]) -> str:
    """The digest of a room's log after ``events``, from ``digest`` before them:
    ``digest_n = sha256(digest_(n-1) + JSON of event n)``, the JSON being exactly what is
    stored of the event (kind, actor, actor's name, data, deltas, forced). A room starts
    from the empty string (and so do rooms made before digests were kept, from the first
    event stored after)."""
    for event in events:
        digest = _link(digest, event, _json(event.data), _json(event.deltas))
    return digest


@dataclass(frozen=True)
class LoggedEvent:
    """One stored event of a room's log."""

    seq: int
    created_at: datetime
    event: Event


@dataclass(frozen=True)
class GameRecord:
    """One finished game of a room, as its result was recorded."""

    seq: int
    finished_at: datetime
    #: The sentence the table was told.
    result: str
    #: Who was seated when it ended.
    players: list[str]
    #: won, forfeit, last standing, draw, stalemate, boredom, no winner, abandoned
    #: ("" for games recorded before outcomes were).
    outcome: str
    winners: list[str]
    #: The deck's (a CCG room's card set's) version; None for games recorded before.
    deck_version: int | None


def utc_now() -> datetime:
    """Now, in UTC: when a row is written."""
    return datetime.now(UTC)


class RoomLog:
    """Mixed into :class:`persistence.rooms.RoomStore`: its rooms' event logs, and the
    storing of moves."""

    _database: Database
    _grouped: GroupCommit[Move, LogHead]

    async def store(self, move: Move) -> LogHead:
        """Store one move together with the other rooms' moves of the moment (see
        :mod:`persistence.group_commit`); its room's new head. Raises :class:`StaleRoom`
        (storing nothing) if the stored head is not the one the move expected. If the
        caller is cancelled once a writer has taken the move, the move is written all the
        same, the cancellation waits for that, and :attr:`Move.written_anyway` says how it
        went."""
        return await self._grouped.store(move)

    def waiting(self, move: Move) -> bool:
        """Whether ``move`` waits to be stored and no writer has taken it yet: moves made
        after it may still be added to it (:meth:`add_to`)."""
        return self._grouped.waiting(move)

    def add_to(self, move: Move, changes: Changes) -> None:
        """Add ``changes``, made on the table right after ``move``'s, to ``move``, which
        must still be :meth:`waiting`: both are stored as one move, in one commit."""
        if not self._grouped.waiting(move):
            raise ValueError("a writer has taken this move: nothing can be added to it")
        move.changes = merged_changes([move.changes, changes])

    async def commit(self, room_id: int, expected: LogHead, state: Any, changes: Changes) -> LogHead:
        """Store one move in a transaction of its own; the room's new head. Raises
        :class:`StaleRoom` (storing nothing) if the stored head is not ``expected``."""
        move = Move(room_id, expected, state, changes)
        stale = await self._database.run_write(lambda writing: write_moves(writing, [move]))
        if stale:
            raise StaleRoom(room_id)
        return move.written

    async def events(self, room_id: int, after_seq: int = 0, last: int | None = None) -> list[LoggedEvent]:
        """The room's events after ``after_seq`` in order; only the ``last`` few if given."""
        async with self._database.snapshot() as connection:
            return await read_events(connection, room_id, after_seq, last)

    async def results(self, room_id: int, last: int) -> list[GameRecord]:
        """How the room's ``last`` finished games ended, the latest first."""
        async with self._database.snapshot() as connection:
            rows = (
                await connection.execute(
                    select(_results).where(_results.c.room_id == room_id).order_by(_results.c.seq.desc()).limit(last)
                )
            ).all()
        return [
            GameRecord(
                row.seq,
                as_utc(row.finished_at),
                row.result,
                list(row.players),
                row.outcome,
                list(row.winners or []),
                row.deck_version,
            )
            for row in rows
        ]

    @asynccontextmanager
    async def claimed(self, room_id: int) -> AsyncIterator[ClaimedRoom]:
        """The room's row locked for the block (PostgreSQL's ``SELECT ... FOR UPDATE``):
        no other node can store a move for the room until the block ends, so a move
        stored inside it cannot be overtaken. What is stored inside is committed when
        the block ends without an exception."""
        async with self._database.transaction() as connection:
            row = (
                await connection.execute(
                    select(_rooms.c.seq, _rooms.c.digest).where(_rooms.c.id == room_id).with_for_update()
                )
            ).first()
            yield ClaimedRoom(connection, room_id, LogHead(row.seq, row.digest) if row is not None else EMPTY_LOG)

    async def seq(self, room_id: int) -> int | None:
        """How far the room's event log goes (None if there is no such room)."""
        async with self._database.snapshot() as connection:
            return await connection.scalar(select(_rooms.c.seq).where(_rooms.c.id == room_id))

    async def head(self, room_id: int) -> LogHead | None:
        """How far the room's event log goes, and its digest (None if there is no such room)."""
        async with self._database.snapshot() as connection:
            row = (
                await connection.execute(select(_rooms.c.seq, _rooms.c.digest).where(_rooms.c.id == room_id))
            ).first()
            return LogHead(row.seq, row.digest) if row is not None else None

    async def holds(self, room_id: int, before: LogHead, after: LogHead) -> bool:
        """Whether the room's stored log went from ``before`` to ``after`` (whatever came
        after that): so a node tells, once a commit's answer was lost, whether the commit
        was made. Its events are then stored, and their chain from ``before`` is
        ``after``'s digest; another node's events in their place are not."""
        async with self._database.snapshot() as connection:
            stored = await read_events(connection, room_id, before.seq, None, through=after.seq)
        passed = [logged.event for logged in stored]
        return len(passed) == after.seq - before.seq and chain(before.digest, passed) == after.digest

    async def heads(self) -> dict[int, LogHead]:
        """Every room's id and how far its event log goes, with its digest."""
        async with self._database.snapshot() as connection:
            rows = await connection.execute(select(_rooms.c.id, _rooms.c.seq, _rooms.c.digest))
            return {room_id: LogHead(seq, digest) for room_id, seq, digest in rows}


async def read_events(
    connection: AsyncConnection, room_id: int, after_seq: int, last: int | None, through: int | None = None
) -> list[LoggedEvent]:
    """The room's events after ``after_seq`` (through ``through``, if given), in order;
    only the ``last`` few if given."""
    query = select(_events).where(_events.c.room_id == room_id, _events.c.seq > after_seq)
    if through is not None:
        query = query.where(_events.c.seq <= through)
    if last is not None:
        query = query.order_by(_events.c.seq.desc()).limit(last)
    else:
        query = query.order_by(_events.c.seq)
    rows = list((await connection.execute(query)).all())
    if last is not None:
        rows.reverse()
    return [
        LoggedEvent(
            row.seq,
            as_utc(row.created_at),
            Event(row.kind, row.actor_account_id, row.actor_name, dict(row.data), list(row.deltas), row.forced),
        )
        for row in rows
    ]


def as_utc(moment: datetime) -> datetime:
    """``moment`` as UTC (SQLite gives back times without their zone)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class ClaimedRoom:
    """A room whose row this node holds locked (see :meth:`RoomStore.claimed`)."""

    def __init__(self, connection: AsyncConnection, room_id: int, head: LogHead) -> None:
        self._connection = connection
        self.room_id = room_id
        #: How far the room's event log goes (it cannot change while the room is held).
        self.head = head

    async def events(self, room_id: int, after_seq: int = 0) -> list[LoggedEvent]:
        """The room's events after ``after_seq``: all there are, while the room is held."""
        assert room_id == self.room_id
        return await read_events(self._connection, room_id, after_seq, None)

    async def store(self, expected: LogHead, state: Any, changes: Changes) -> LogHead:
        """Write one move, to be committed when the claim ends; the room's new head.
        Raises :class:`StaleRoom` if the room's head is not ``expected``."""
        move = Move(self.room_id, expected, state, changes)
        if await self._connection.run_sync(_write_now, move):
            raise StaleRoom(self.room_id)
        return move.written


def _write_now(connection: Connection, move: Move) -> list[Move]:
    """:func:`write_moves` for one move, with the statements it leaves for the commit
    (SQLite's multi-row statements) run here too."""
    writing = Writing(connection)
    stale = write_moves(writing, [move])
    writing.run_left_statements()
    return stale


@dataclass
class Move:
    """One room's move waiting to be stored: the events and rows it changed, and the
    head of the room's log that the copy it was made on had."""

    room_id: int
    expected: LogHead
    state: Any
    changes: Changes
    #: The room's head once the move is written (set by :func:`write_moves`).
    written: LogHead = EMPTY_LOG
    #: Whether it was written (or may have been) though the caller storing it was
    #: cancelled, once a writer had taken it (see :meth:`RoomStore.store`).
    written_anyway: bool = False


def _cancelled_outcome(move: Move, outcome: LogHead | BaseException) -> None:
    move.written_anyway = isinstance(outcome, LogHead | OutcomeUnknown)


#: The room row's columns a move writes.
_ROOM_COLUMNS = ("seq", "digest", "phase", "host_account_id", "settings", "state", "used_at")
_UPDATE_ROOM = Bulk.update(_rooms, {"id": "r"}, _ROOM_COLUMNS)
_EVENT_COLUMNS = ("room_id", "seq", "created_at", "actor_account_id", "actor_name", "kind", "forced", "data", "deltas")
#: The event rows' fields, in the order of those columns: data and deltas come as the JSON
#: text the digest was computed over (see write_moves).
_INSERT_EVENT = Bulk.insert(_events, _EVENT_COLUMNS, (*_EVENT_COLUMNS[:-2], "data_json", "deltas_json"))


def write_moves(writing: Writing, moves: list[Move]) -> list[Move]:
    """Write ``moves`` (of different rooms) in the caller's transaction, a few statements
    for all of them together; returns the moves that are stale (their room's stored head
    was not what they expected), of which nothing is written. Each event is turned into
    JSON once: that text is both digested and stored."""
    now = utc_now()
    rows = RowWriter.for_writing(writing)
    connection = writing.connection
    logged = {id(move): _logged_events(move, now) for move in moves}
    stored = _claim_rooms(rows, [move.room_id for move in moves])
    stale = [m for m in moves if stored.get(m.room_id, (None, ""))[0] != m.expected]
    fresh = [m for m in moves if m not in stale]
    by_game: dict[str, list[Move]] = {}
    for move in fresh:
        by_game.setdefault(stored[move.room_id][1], []).append(move)
    room_rows: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    for game, game_moves in by_game.items():
        kind = kind_of(game)
        for move in game_moves:
            state = move.state
            room_rows.append(
                {
                    "r": move.room_id,
                    "seq": move.written.seq,
                    "digest": move.written.digest,
                    "phase": state.phase,
                    "host_account_id": state.host,
                    "settings": state.settings,
                    "state": kind.snapshot(state),
                    "used_at": now,
                }
            )
            events += logged[id(move)]
            if move.changes.seats_changed:
                _store_seats(connection, move.room_id, state.seats)
            ending = next((event.data for event in move.changes.events if event.data.get("result")), None)
            if state.phase == OVER and ending is not None:
                connection.execute(
                    insert(_results).values(
                        room_id=move.room_id,
                        seq=move.written.seq,
                        finished_at=now,
                        result=state.result,
                        players=[seat.name for seat in state.seats],
                        outcome=ending.get("outcome", ""),
                        winners=ending.get("winners"),
                        deck_version=ending.get("deck_version"),
                    )
                )
        projection = projection_of(game)
        if projection is not None:
            projection.write(rows, game_moves, now)
    rows.write(_UPDATE_ROOM, room_rows)
    rows.write(_INSERT_EVENT, events)
    rows.finish()
    return stale


def _claim_rooms(rows: RowWriter, room_ids: list[int]) -> dict[int, tuple[LogHead, str]]:
    """Each room's stored head and game, its row held until the commit: PostgreSQL's
    ``SELECT ... FOR UPDATE`` (in the order of the ids, as every node locks them: two
    batches never deadlock); on SQLite, BEGIN IMMEDIATE already holds the write lock."""
    ids = sorted(set(room_ids))
    if isinstance(rows, SqliteRowWriter):
        # Straight to the driver, as the batch's other statements: no statement to build.
        driver = rows.connection.connection.dbapi_connection
        assert driver is not None
        found = driver.execute(
            f"SELECT id, seq, digest, game FROM rooms WHERE id IN ({', '.join('?' * len(ids))})", ids
        ).fetchall()
    else:
        # As text, one statement for any number of rooms: prepared once per connection.
        found = rows.connection.exec_driver_sql(
            "SELECT id, seq, digest, game FROM rooms WHERE id = ANY($1::INTEGER[]) ORDER BY id FOR UPDATE", (ids,)
        ).all()
    return {room: (LogHead(seq, digest), game) for room, seq, digest, game in found}


def _logged_events(move: Move, now: datetime) -> list[dict[str, Any]]:
    """The event rows of ``move``, with their data and deltas as JSON text; sets the head
    the move will give its room (digesting that same text)."""
    rows = []
    seq, digest = move.expected.seq, move.expected.digest
    for event in move.changes.events:
        seq += 1
        data, deltas = _json(event.data), _json(event.deltas)
        digest = _link(digest, event, data, deltas)
        rows.append(
            {
                "room_id": move.room_id,
                "seq": seq,
                "created_at": now,
                "actor_account_id": event.actor,
                "actor_name": event.actor_name,
                "kind": event.kind,
                "forced": event.forced,
                "data_json": data,
                "deltas_json": deltas,
            }
        )
    move.written = LogHead(seq, digest)
    return rows


def _write_batch(writing: Writing, items: list[Move]) -> list[LogHead | Exception]:
    """For group commit: each move's room's new head, or :class:`StaleRoom`."""
    stale = {id(move) for move in write_moves(writing, items)}
    return [StaleRoom(move.room_id) if id(move) in stale else move.written for move in items]


def _seat_fields(seat: Seat) -> dict[str, Any]:
    return {
        "name": seat.name,
        "team": seat.team,
        "out": seat.out,
        "absent": seat.absent,
        "bot": seat.bot,
    }


def _store_seats(connection: Connection, room_id: int, seats: Iterable[Seat]) -> None:
    """Make the room's seat rows what ``seats`` says, keeping each player's away mark."""
    stored = set((connection.execute(select(_seats.c.account_id).where(_seats.c.room_id == room_id))).scalars())
    seats = list(seats)
    current = {seat.account_id for seat in seats}
    if stored - current:
        connection.execute(delete(_seats).where(_seats.c.room_id == room_id, _seats.c.account_id.in_(stored - current)))
    rows = [
        {"r": room_id, "a": seat.account_id, "position": index, **_seat_fields(seat)}
        for index, seat in enumerate(seats)
    ]
    existing = [row for row in rows if row["a"] in stored]
    if existing:
        connection.execute(
            update(_seats)
            .where(_seats.c.room_id == bindparam("r"), _seats.c.account_id == bindparam("a"))
            .values({column: bindparam(column) for column in ("position", "name", "team", "out", "absent", "bot")}),
            existing,
        )
    new = [row for row in rows if row["a"] not in stored]
    if new:
        connection.execute(
            insert(_seats),
            [
                {"room_id": r["r"], "account_id": r["a"], **{k: v for k, v in r.items() if k not in ("r", "a")}}
                for r in new
            ],
        )
