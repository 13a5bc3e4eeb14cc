"""Reading and writing game rooms: the table as rows, and the append-only event log.

A room's move is stored in one transaction: the room row (guarded by its log's head, so
a writer whose copy of the room is not the stored one loses and is told so), the cards
and seats it touched, and its events. Either all of it is stored or none. A writer that
lost may claim the room's row (:meth:`RoomStore.claimed`) to catch up and store without
losing again.

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
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from typing import Any, Protocol

from sqlalchemy import String, and_, bindparam, cast, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from games import KINDS, kind_of
from games.base import NOBODY, OVER, WAITING, Changes, Event, Seat, merged_changes
from persistence.bulk import Bulk, RowWriter, SqliteRowWriter
from persistence.database import Database, OutcomeUnknown, Writing
from persistence.group_commit import GroupCommit
from persistence.models import Account, EventRow, GameResult, Room, RoomSpectator, RoomTalk
from persistence.models import Seat as SeatRow
from persistence.talk import KeptTalk

_rooms = Room.__table__
_seats = SeatRow.__table__
_events = EventRow.__table__
_results = GameResult.__table__
_accounts = Account.__table__
_talk = RoomTalk.__table__
_spectators = RoomSpectator.__table__

#: A room that is open: not deleted or archived.
_OPEN = _rooms.c.archived_at.is_(None)


class RoomNameTaken(Exception):
    """A room with that name (in any letter case) already exists."""


class TooManyRooms(Exception):
    """The player hosts as many rooms as a player may (``names``: those rooms)."""

    def __init__(self, names: list[str]) -> None:
        super().__init__(", ".join(names))
        self.names = names


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
class RoomSummary:
    """What the room list shows about a room."""

    id: int
    name: str
    game: str
    phase: str
    has_password: bool
    #: The names of those seated, in turn order (computer players marked).
    seated: tuple[str, ...]


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
class SpectatorRule:
    """What a room's host decided about someone not seated there (see
    :class:`persistence.models.RoomSpectator`)."""

    name: str
    #: They may watch, but not talk there.
    muted: bool = False
    #: They may not come back to watch, nor sit down.
    barred: bool = False


@dataclass
class StoredRoom:
    """A room as loaded: its table and how far its event log goes."""

    id: int
    name: str
    game: str
    password_hash: str | None
    state: Any
    seq: int
    digest: str
    #: Deleted by its host or archived for lack of use (its rows and log are kept).
    archived: bool = False
    #: The spectators its host muted or barred, by account.
    spectators: dict[int, SpectatorRule] = field(default_factory=dict)

    @property
    def head(self) -> LogHead:
        return LogHead(self.seq, self.digest)


@dataclass(frozen=True)
class SaidLine:
    """A line said in a room, kept for a player who was away."""

    created_at: datetime
    text: str
    #: Who said it (None: staff, or not known).
    speaker: int | None = None


@dataclass(frozen=True)
class Missed:
    """What a seated player missed while away: how many events, the last few of them,
    and the last few lines said in the room (``said`` of them in all)."""

    count: int
    events: list[LoggedEvent]
    said: int
    talk: list[SaidLine]


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


def room_key(name: str) -> str:
    return name.casefold()


def _now() -> datetime:
    return datetime.now(UTC)


class RoomStore:
    """Game rooms in the database."""

    def __init__(self, database: Database, answered: Callable[[], None] | None = None) -> None:
        """``answered`` is called once the moves of a stored batch have gone on (see
        :class:`GroupCommit`)."""
        self._database = database
        self._grouped: GroupCommit[Move, LogHead] = GroupCommit(
            database, _write_batch, database.writers, answered, _cancelled_outcome
        )
        self._talk = KeptTalk(database)

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

    @property
    def database(self) -> Database:
        return self._database

    async def create(
        self,
        name: str,
        game: str,
        password_hash: str | None,
        maker: int | None = None,
        rooms_per_player: int | None = None,
    ) -> int:
        """Store a new, empty room of ``game`` made by account ``maker``; its id. Raises
        :class:`RoomNameTaken`, or :class:`TooManyRooms` if the maker already hosts
        ``rooms_per_player`` rooms: those they host, and those they made that nobody
        hosts (an empty room keeps counting against its maker until someone else
        takes it over)."""
        kind = kind_of(game)
        state = kind.new_room_state()
        try:
            async with self._database.transaction() as connection:
                if maker is not None and rooms_per_player is not None:
                    hosted = await _hosted_by(connection, maker)
                    if len(hosted) >= rooms_per_player:
                        raise TooManyRooms(hosted)
                result = await connection.execute(
                    insert(_rooms)
                    .values(
                        name=name,
                        name_key=room_key(name),
                        game=game,
                        password_hash=password_hash,
                        phase=WAITING,
                        host_account_id=NOBODY,
                        settings=state.settings,
                        state=kind.snapshot(state),
                        seq=EMPTY_LOG.seq,
                        digest=EMPTY_LOG.digest,
                        created_at=_now(),
                        used_at=_now(),
                        created_by_account_id=maker,
                    )
                    .returning(_rooms.c.id)
                )
                return result.scalar_one()
        except IntegrityError:
            raise RoomNameTaken(name) from None

    async def refuse_new(self, name: str, maker: int, rooms_per_player: int | None) -> None:
        """Raise :class:`RoomNameTaken` or :class:`TooManyRooms` as :meth:`create` would
        now, writing nothing: so that nothing costly (hashing the room's password) is done
        for a room that cannot be made. :meth:`create` checks again."""
        async with self._database.snapshot() as connection:
            taken = await connection.execute(select(_rooms.c.id).where(_rooms.c.name_key == room_key(name), _OPEN))
            if taken.first() is not None:
                raise RoomNameTaken(name)
            if rooms_per_player is not None:
                hosted = await _hosted_by(connection, maker, hold=False)
                if len(hosted) >= rooms_per_player:
                    raise TooManyRooms(hosted)

    async def find_id(self, name: str) -> int | None:
        async with self._database.snapshot() as connection:
            return (
                await connection.execute(select(_rooms.c.id).where(_rooms.c.name_key == room_key(name), _OPEN))
            ).scalar_one_or_none()

    async def summaries(self) -> list[RoomSummary]:
        """Every open room (not deleted or archived), by name, with who is seated."""
        async with self._database.snapshot() as connection:
            rooms = (
                await connection.execute(
                    select(_rooms.c.id, _rooms.c.name, _rooms.c.game, _rooms.c.phase, _rooms.c.password_hash)
                    .where(_OPEN)
                    .order_by(_rooms.c.name_key)
                )
            ).all()
            seated: dict[int, list[str]] = {}
            for room_id, name, bot in await connection.execute(
                select(_seats.c.room_id, _seats.c.name, _seats.c.bot).order_by(_seats.c.room_id, _seats.c.position)
            ):
                seated.setdefault(room_id, []).append(f"{name} (bot)" if bot else name)
        return [
            RoomSummary(
                row.id, row.name, row.game, row.phase, row.password_hash is not None, tuple(seated.get(row.id, ()))
            )
            for row in rooms
        ]

    async def rooms_with_seat(self, account_id: int) -> list[int]:
        """The ids of the open rooms where ``account_id`` has a seat row, oldest room first
        (a seat in a deleted or archived room is kept with it, but nobody comes back to it).
        Mostly one; a Gnav player who forfeited a match keeps its seat row until it ends,
        and may meanwhile sit down elsewhere."""
        async with self._database.snapshot() as connection:
            return list(
                (
                    await connection.execute(
                        select(_seats.c.room_id)
                        .join(_rooms, _rooms.c.id == _seats.c.room_id)
                        .where(_seats.c.account_id == account_id, _OPEN)
                        .order_by(_seats.c.room_id)
                    )
                ).scalars()
            )

    async def set_watching(self, account_id: int, room_id: int | None) -> None:
        """Remember the room ``account_id`` watches as a spectator (None: none)."""
        async with self._database.transaction() as connection:
            await connection.execute(
                update(_accounts).where(_accounts.c.id == account_id).values(watching_room_id=room_id)
            )

    async def watched_by(self, account_id: int) -> int | None:
        """The open room ``account_id`` was last watching as a spectator, if any."""
        async with self._database.snapshot() as connection:
            return (
                await connection.execute(
                    select(_rooms.c.id)
                    .join(_accounts, _accounts.c.watching_room_id == _rooms.c.id)
                    .where(_accounts.c.id == account_id, _OPEN)
                )
            ).scalar_one_or_none()

    async def archive(self, room_id: int) -> bool:
        """Delete (archive) an open room: it is listed and found no more, its name is
        free again, and its rows and log are kept. False if it was not open."""
        async with self._database.transaction() as connection:
            result = await connection.execute(
                update(_rooms)
                .where(_rooms.c.id == room_id, _OPEN)
                .values(archived_at=_now(), name_key=_rooms.c.name_key + "~" + cast(_rooms.c.id, String))
            )
            return bool(result.rowcount)

    async def archive_unused(self, unused_since: datetime, spared: Iterable[int]) -> list[int]:
        """Archive every open room not used since ``unused_since``, except those whose
        ids are ``spared`` (someone is in them); the ids archived."""
        spared = set(spared)
        async with self._database.snapshot() as connection:
            idle = (
                await connection.execute(
                    select(_rooms.c.id).where(
                        _OPEN, func.coalesce(_rooms.c.used_at, _rooms.c.created_at) < unused_since
                    )
                )
            ).scalars()
            candidates = [room_id for room_id in idle if room_id not in spared]
        archived = []
        for room_id in candidates:
            if await self.archive(room_id):
                archived.append(room_id)
        return archived

    async def prune_archived(self, before: datetime) -> list[str]:
        """Delete for good every room deleted or archived before ``before``, with its log,
        cards, proposals, votes, card versions, results and what was said there (their
        rows go with the room's); the names of those deleted."""
        async with self._database.transaction() as connection:
            doomed = _rooms.c.archived_at < before
            names = list((await connection.execute(select(_rooms.c.name).where(doomed))).scalars())
            await connection.execute(delete(_rooms).where(doomed))
        return names

    async def archived_among(self, room_ids: Iterable[int]) -> set[int]:
        """Those of ``room_ids`` that are deleted or archived, or not there at all."""
        wanted = set(room_ids)
        if not wanted:
            return set()
        async with self._database.snapshot() as connection:
            open_ids = set(
                (await connection.execute(select(_rooms.c.id).where(_rooms.c.id.in_(wanted), _OPEN))).scalars()
            )
        return wanted - open_ids

    def remember_talk(self, room_id: int, text: str, speaker: int | None = None) -> None:
        """Keep a line said in the room by ``speaker`` (for players away from it), only
        the last :data:`~persistence.talk.TALK_KEPT` of the room's; the room counts as
        used. Written a moment later, with the other lines of that moment (see
        :mod:`persistence.talk`): the speaker does not wait for it."""
        self._talk.remember(room_id, text, speaker)

    async def close(self) -> None:
        """Write what is held to be written (the lines said, see :meth:`remember_talk`)."""
        await self._talk.close()

    async def load(self, room_id: int) -> StoredRoom | None:
        """A room's table as stored, or None if there is no such room."""
        async with self._database.snapshot() as connection:
            row = (await connection.execute(select(_rooms).where(_rooms.c.id == room_id))).first()
            if row is None:
                return None
            seat_rows = (
                await connection.execute(select(_seats).where(_seats.c.room_id == room_id).order_by(_seats.c.position))
            ).all()
            kind = kind_of(row.game)
            seats = [
                {
                    "account_id": s.account_id,
                    "name": s.name,
                    "team": s.team,
                    "out": s.out,
                    "absent": s.absent,
                    "bot": s.bot,
                }
                for s in seat_rows
            ]
            state = kind.restore(row.phase, row.host_account_id, row.settings, seats, row.state)
            projection = projection_of(row.game)
            if projection is not None:
                await projection.load(connection, room_id, state)
            spectators = await _spectator_rules(connection, room_id)
        return StoredRoom(
            row.id,
            row.name,
            row.game,
            row.password_hash,
            state,
            row.seq,
            row.digest,
            row.archived_at is not None,
            spectators,
        )

    async def spectator_rules(self, room_id: int) -> dict[int, SpectatorRule]:
        """The spectators the host of room ``room_id`` muted or barred, by account."""
        async with self._database.snapshot() as connection:
            return await _spectator_rules(connection, room_id)

    async def set_spectator_rule(self, room_id: int, account_id: int, muted: bool, barred: bool, set_by: int) -> None:
        """Store what the host (account ``set_by``) decided about ``account_id`` in room
        ``room_id``: neither muted nor barred forgets them."""
        where = (_spectators.c.room_id == room_id, _spectators.c.account_id == account_id)
        async with self._database.transaction() as connection:
            if not muted and not barred:
                await connection.execute(delete(_spectators).where(*where))
                return
            values = {"muted": muted, "barred": barred, "set_by_account_id": set_by, "set_at": _now()}
            changed = await connection.execute(update(_spectators).where(*where).values(values))
            if not changed.rowcount:
                await connection.execute(insert(_spectators).values(room_id=room_id, account_id=account_id, **values))

    async def commit(self, room_id: int, expected: LogHead, state: Any, changes: Changes) -> LogHead:
        """Store one move in a transaction of its own; the room's new head. Raises
        :class:`StaleRoom` (storing nothing) if the stored head is not ``expected``."""
        move = Move(room_id, expected, state, changes)
        stale = await self._database.run_write(lambda writing: write_moves(writing, [move]))
        if stale:
            raise StaleRoom(room_id)
        return move.written

    async def all_ids(self) -> list[tuple[int, str]]:
        """Every room's id and name, by name (deleted and archived ones too)."""
        async with self._database.snapshot() as connection:
            return [
                (room_id, name)
                for room_id, name in await connection.execute(
                    select(_rooms.c.id, _rooms.c.name).order_by(_rooms.c.name_key)
                )
            ]

    async def row_problems(self, room_id: int) -> list[str]:
        """What is wrong with the stored rows themselves: gaps or repeats in seat
        positions or the event log's numbering (and in the game's own tables)."""
        problems: list[str] = []
        async with self._database.snapshot() as connection:
            seq, game = (
                await connection.execute(select(_rooms.c.seq, _rooms.c.game).where(_rooms.c.id == room_id))
            ).one()
            seats = (await connection.execute(select(_seats.c.position).where(_seats.c.room_id == room_id))).scalars()
            event_seqs = (
                await connection.execute(
                    select(_events.c.seq).where(_events.c.room_id == room_id).order_by(_events.c.seq)
                )
            ).scalars()
            seat_positions = sorted(seats)
            seqs = list(event_seqs)
            projection = projection_of(game)
            if projection is not None:
                problems += await projection.row_problems(connection, room_id)
        if seat_positions != list(range(len(seat_positions))):
            problems.append(f"seat positions are not 0..{len(seat_positions) - 1}: {seat_positions}")
        if seqs != list(range(1, seq + 1)):
            problems.append(f"the event log is not numbered 1..{seq} without gaps ({len(seqs)} events)")
        return problems

    async def events(self, room_id: int, after_seq: int = 0, last: int | None = None) -> list[LoggedEvent]:
        """The room's events after ``after_seq`` in order; only the ``last`` few if given."""
        async with self._database.snapshot() as connection:
            return await _read_events(connection, room_id, after_seq, last)

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
                _aware(row.finished_at),
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

    async def mark_away(self, room_id: int, account_id: int) -> None:
        """Note that a seated player went away now (at the room's current seq, and the
        time), unless they are already noted as away."""
        # The time is taken before waiting for the transaction: what is said from now on,
        # by those told they went, is what they missed (see clear_away).
        now = _now()
        room_seq = select(_rooms.c.seq).where(_rooms.c.id == room_id).scalar_subquery()
        async with self._database.transaction() as connection:
            await connection.execute(
                update(_seats)
                .where(
                    _seats.c.room_id == room_id,
                    _seats.c.account_id == account_id,
                    _seats.c.away_since_seq.is_(None),
                )
                .values(away_since_seq=room_seq, away_at=now)
            )

    async def clear_away(self, room_id: int, account_id: int, last: int, last_said: int) -> Missed:
        """Note that a seated player is back: what they missed while away (nothing if
        they were not noted as away): the ``last`` few events and ``last_said`` lines
        said. One transaction: if it fails, they are still noted as away."""
        await self._talk.flush()  # what was said here a moment ago is among what they missed
        where = (_seats.c.room_id == room_id, _seats.c.account_id == account_id)
        async with self._database.transaction() as connection:
            row = (await connection.execute(select(_seats.c.away_since_seq, _seats.c.away_at).where(*where))).first()
            if row is None or row.away_since_seq is None:
                return Missed(0, [], 0, [])
            since, away_at = row.away_since_seq, row.away_at
            seq = await connection.scalar(select(_rooms.c.seq).where(_rooms.c.id == room_id))
            missed = await _read_events(connection, room_id, since, last)
            said, talk = 0, []
            if away_at is not None:
                said_since = (_talk.c.room_id == room_id, _talk.c.created_at >= away_at)
                said = await connection.scalar(select(func.count()).select_from(_talk).where(*said_since)) or 0
                rows = (
                    await connection.execute(
                        select(_talk.c.created_at, _talk.c.text, _talk.c.speaker_account_id)
                        .where(*said_since)
                        .order_by(_talk.c.id.desc())
                        .limit(last_said)
                    )
                ).all()
                talk = [SaidLine(_aware(r.created_at), r.text, r.speaker_account_id) for r in reversed(rows)]
            await connection.execute(update(_seats).where(*where).values(away_since_seq=None, away_at=None))
        return Missed((seq or since) - since, missed, said, talk)

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
            stored = await _read_events(connection, room_id, before.seq, None, through=after.seq)
        passed = [logged.event for logged in stored]
        return len(passed) == after.seq - before.seq and chain(before.digest, passed) == after.digest

    async def heads(self) -> dict[int, LogHead]:
        """Every room's id and how far its event log goes, with its digest."""
        async with self._database.snapshot() as connection:
            rows = await connection.execute(select(_rooms.c.id, _rooms.c.seq, _rooms.c.digest))
            return {room_id: LogHead(seq, digest) for room_id, seq, digest in rows}


# -- storing moves, many at a time ------------------------------------------------------


async def _spectator_rules(connection: AsyncConnection, room_id: int) -> dict[int, SpectatorRule]:
    rows = await connection.execute(
        select(_spectators.c.account_id, _spectators.c.muted, _spectators.c.barred, _accounts.c.name)
        .join(_accounts, _accounts.c.id == _spectators.c.account_id)
        .where(_spectators.c.room_id == room_id)
    )
    return {row.account_id: SpectatorRule(row.name, row.muted, row.barred) for row in rows}


async def _read_events(
    connection: AsyncConnection, room_id: int, after_seq: int, last: int | None, through: int | None = None
) -> list[LoggedEvent]:
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
            _aware(row.created_at),
            Event(row.kind, row.actor_account_id, row.actor_name, dict(row.data), list(row.deltas), row.forced),
        )
        for row in rows
    ]


def _aware(moment: datetime) -> datetime:
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
        return await _read_events(self._connection, room_id, after_seq, None)

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
    now = _now()
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


async def _hosted_by(connection: AsyncConnection, account_id: int, hold: bool = True) -> list[str]:
    """The names of the rooms that count against ``account_id``'s quota, holding the
    account's row (unless not to ``hold`` it: only to look) so that one player's rooms
    are made one at a time."""
    if hold:
        await connection.execute(select(_accounts.c.id).where(_accounts.c.id == account_id).with_for_update())
    counted = _OPEN & or_(
        _rooms.c.host_account_id == account_id,
        and_(_rooms.c.created_by_account_id == account_id, _rooms.c.host_account_id == NOBODY),
    )
    return list((await connection.execute(select(_rooms.c.name).where(counted).order_by(_rooms.c.name_key))).scalars())


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
