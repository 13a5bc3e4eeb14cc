"""Reading and writing game rooms: the table as rows, and the append-only event log.

A room's move is stored in one transaction: the room row (guarded by its log's head, so
a writer whose copy of the room is not the stored one loses and is told so), the cards
and seats it touched, and its events. Either all of it is stored or none. A writer that
lost may claim the room's row (:meth:`RoomStore.claimed`) to catch up and store without
losing again.

The event log and the pipeline that stores moves are :mod:`persistence.room_log`; who
is away, the talk kept for them and the host's rules about spectators are
:mod:`persistence.room_people`; :class:`RoomStore` is all three.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import String, and_, cast, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from games import kind_of
from games.base import NOBODY, WAITING
from persistence.database import Database
from persistence.group_commit import GroupCommit
from persistence.models import Account, EventRow, Room
from persistence.models import Seat as SeatRow
from persistence.names import folded
from persistence.room_log import (
    EMPTY_LOG,
    ClaimedRoom,
    GameRecord,
    LoggedEvent,
    LogHead,
    Move,
    Projection,
    RoomLog,
    StaleRoom,
    _cancelled_outcome,
    _write_batch,
    chain,
    projection_of,
    utc_now,
)
from persistence.room_people import Missed, RoomPeople, SaidLine, SpectatorRule, _spectator_rules
from persistence.talk import KeptTalk

_rooms = Room.__table__
_seats = SeatRow.__table__
_events = EventRow.__table__
_accounts = Account.__table__

#: A room that is open: not deleted or archived.
_OPEN = _rooms.c.archived_at.is_(None)


class RoomNameTaken(Exception):
    """A room with that name (in any letter case) already exists."""


class TooManyRooms(Exception):
    """The player hosts as many rooms as a player may (``names``: those rooms)."""

    def __init__(self, names: list[str]) -> None:
        super().__init__(", ".join(names))
        self.names = names


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


def room_key(name: str) -> str:
    """The form of a room's name that must be unique among open rooms."""
    return folded(name)


class RoomStore(RoomLog, RoomPeople):
    """Game rooms in the database: their life (made, listed, archived), their tables, and
    (mixed in) their event logs and their people."""

    def __init__(self, database: Database, answered: Callable[[], None] | None = None) -> None:
        """``answered`` is called once the moves of a stored batch have gone on (see
        :class:`GroupCommit`)."""
        self._database = database
        self._grouped: GroupCommit[Move, LogHead] = GroupCommit(
            database, _write_batch, database.writers, answered, _cancelled_outcome
        )
        self._talk = KeptTalk(database)

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
                        created_at=utc_now(),
                        used_at=utc_now(),
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

    async def open_names(self) -> list[tuple[int, str]]:
        """Every open room's id and name."""
        async with self._database.snapshot() as connection:
            rows = await connection.execute(select(_rooms.c.id, _rooms.c.name).where(_OPEN))
            return [(row.id, row.name) for row in rows]

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
            # The seats of open rooms only: those of archived rooms are kept for ever.
            for room_id, name, bot in await connection.execute(
                select(_seats.c.room_id, _seats.c.name, _seats.c.bot)
                .join(_rooms, _rooms.c.id == _seats.c.room_id)
                .where(_OPEN)
                .order_by(_seats.c.room_id, _seats.c.position)
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
                .values(archived_at=utc_now(), name_key=_rooms.c.name_key + "~" + cast(_rooms.c.id, String))
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


# -- storing moves, many at a time ------------------------------------------------------


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


#: What other modules take from here (the log's and the people's records among them).
__all__ = [
    "EMPTY_LOG",
    "ClaimedRoom",
    "GameRecord",
    "LogHead",
    "LoggedEvent",
    "Missed",
    "Move",
    "Projection",
    "RoomNameTaken",
    "RoomStore",
    "RoomSummary",
    "SaidLine",
    "SpectatorRule",
    "StaleRoom",
    "StoredRoom",
    "TooManyRooms",
    "chain",
    "projection_of",
    "room_key",
]
