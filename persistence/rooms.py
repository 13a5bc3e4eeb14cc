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
import json
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, String, Text, and_, bindparam, cast, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from games.dvorak.rules import Changes, Event
from games.dvorak.state import NO_OWNER, OVER, Card, Proposal, Seat, TableState, Turn, card_face, proposal_from_dict
from persistence.database import BULK_STATEMENTS, Database
from persistence.group_commit import GroupCommit
from persistence.models import (
    Account,
    CardRow,
    CardVersion,
    EventRow,
    GameResult,
    ProposalRow,
    Room,
    RoomTalk,
    VoteRow,
)
from persistence.models import Seat as SeatRow

_rooms = Room.__table__
_seats = SeatRow.__table__
_cards = CardRow.__table__
_events = EventRow.__table__
_results = GameResult.__table__
_accounts = Account.__table__
_proposals = ProposalRow.__table__
_votes = VoteRow.__table__
_versions = CardVersion.__table__
_talk = RoomTalk.__table__

PENDING_STATUS = "pending"
#: Lines said in a room kept for players who come back (the oldest go first).
TALK_KEPT = 100
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


@dataclass(frozen=True)
class RoomSummary:
    """What the room list shows about a room."""

    id: int
    name: str
    game: str
    phase: str
    has_password: bool
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
    here for speed: what ``_json`` would make of it.)"""
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


@dataclass
class StoredRoom:
    """A room as loaded: its table and how far its event log goes."""

    id: int
    name: str
    game: str
    password_hash: str | None
    state: TableState
    seq: int
    digest: str
    #: Deleted by its host or archived for lack of use (its rows and log are kept).
    archived: bool = False

    @property
    def head(self) -> LogHead:
        return LogHead(self.seq, self.digest)


@dataclass(frozen=True)
class CardVersionRecord:
    """One version of a card's face."""

    version: int
    name: str
    kind: str
    text: str
    colour: str
    created_at: datetime

    def as_card(self, number: int) -> Card:
        """This version as a card, for showing it."""
        return Card(number, self.name, self.kind, self.text, colour=self.colour, is_rule=self.kind == "Rule")

    def as_saved(self) -> dict[str, Any]:
        """This version as a saved deck keeps it (JSON-ready; the time in ISO 8601)."""
        return {
            "version": self.version,
            "name": self.name,
            "kind": self.kind,
            "text": self.text,
            "colour": self.colour,
            "created_at": self.created_at.isoformat(),
        }


@dataclass(frozen=True)
class SaidLine:
    """A line said in a room, kept for a player who was away."""

    created_at: datetime
    text: str


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


def room_key(name: str) -> str:
    return name.casefold()


def _now() -> datetime:
    return datetime.now(UTC)


class RoomStore:
    """Game rooms in the database."""

    def __init__(self, database: Database) -> None:
        self._database = database
        self._grouped: GroupCommit[Move, LogHead] = GroupCommit(database, _write_batch)

    async def store(self, room_id: int, expected: LogHead, state: TableState, changes: Changes) -> LogHead:
        """Store one move together with the other rooms' moves of the moment (see
        :mod:`persistence.group_commit`); the room's new head. Raises :class:`StaleRoom`
        (storing nothing) if the stored head is not ``expected``."""
        return await self._grouped.store(Move(room_id, expected, state, changes))

    async def create(
        self,
        name: str,
        game: str,
        password_hash: str | None,
        settings: dict[str, Any],
        maker: int | None = None,
        rooms_per_player: int | None = None,
    ) -> int:
        """Store a new, empty room made by account ``maker``; its id. Raises
        :class:`RoomNameTaken`, or :class:`TooManyRooms` if the maker already hosts
        ``rooms_per_player`` rooms: those they host, and those they made that nobody
        hosts (an empty room keeps counting against its maker until someone else
        takes it over)."""
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
                        phase="waiting",
                        host_account_id=0,
                        settings=settings,
                        turn=asdict(Turn()),
                        result="",
                        next_card_number=1,
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
            for room_id, name in await connection.execute(
                select(_seats.c.room_id, _accounts.c.name)
                .join(_accounts, _accounts.c.id == _seats.c.account_id)
                .order_by(_seats.c.room_id, _seats.c.position)
            ):
                seated.setdefault(room_id, []).append(name)
        return [
            RoomSummary(
                row.id, row.name, row.game, row.phase, row.password_hash is not None, tuple(seated.get(row.id, ()))
            )
            for row in rooms
        ]

    async def room_with_seat(self, account_id: int) -> int | None:
        """The id of the open room where ``account_id`` has a seat, if any (a seat in a
        deleted or archived room is kept with it, but nobody comes back to it)."""
        async with self._database.snapshot() as connection:
            return (
                await connection.execute(
                    select(_seats.c.room_id)
                    .join(_rooms, _rooms.c.id == _seats.c.room_id)
                    .where(_seats.c.account_id == account_id, _OPEN)
                    .limit(1)
                )
            ).scalar_one_or_none()

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

    async def remember_talk(self, room_id: int, text: str) -> None:
        """Keep a line said in the room (for players away from it), only the last
        :data:`TALK_KEPT` of the room's; the room counts as used."""
        now = _now()
        async with self._database.transaction() as connection:
            await connection.execute(insert(_talk).values(room_id=room_id, created_at=now, text=text))
            oldest_kept = (
                select(_talk.c.id)
                .where(_talk.c.room_id == room_id)
                .order_by(_talk.c.id.desc())
                .offset(TALK_KEPT - 1)
                .limit(1)
                .scalar_subquery()
            )
            await connection.execute(delete(_talk).where(_talk.c.room_id == room_id, _talk.c.id < oldest_kept))
            await connection.execute(update(_rooms).where(_rooms.c.id == room_id).values(used_at=now))

    async def load(self, room_id: int) -> StoredRoom | None:
        """A room's table as stored, or None if there is no such room."""
        async with self._database.snapshot() as connection:
            row = (await connection.execute(select(_rooms).where(_rooms.c.id == room_id))).first()
            if row is None:
                return None
            seat_rows = (
                await connection.execute(
                    select(_seats, _accounts.c.name)
                    .join(_accounts, _accounts.c.id == _seats.c.account_id)
                    .where(_seats.c.room_id == room_id)
                    .order_by(_seats.c.position)
                )
            ).all()
            card_rows = (
                await connection.execute(
                    select(_cards)
                    .where(_cards.c.room_id == room_id)
                    .order_by(_cards.c.zone, _cards.c.owner, _cards.c.position)
                )
            ).all()
            proposal_rows = (
                await connection.execute(
                    select(_proposals)
                    .where(_proposals.c.room_id == room_id, _proposals.c.status == PENDING_STATUS)
                    .order_by(_proposals.c.id)
                )
            ).all()
            vote_rows = (
                await connection.execute(
                    select(_votes)
                    .where(_votes.c.room_id == room_id, _votes.c.proposal_id.in_([p.id for p in proposal_rows]))
                    .order_by(_votes.c.seq, _votes.c.account_id)
                )
            ).all()
        state = TableState(
            phase=row.phase,
            host=row.host_account_id,
            seats=[Seat(s.account_id, s.name, s.team, s.out, s.absent) for s in seat_rows],
            settings=dict(row.settings),
            turn=Turn(**row.turn),
            result=row.result,
            next_number=row.next_card_number,
            next_proposal=row.next_proposal,
        )
        for c in card_rows:
            state.cards[c.number] = Card(
                c.number,
                c.name,
                c.kind,
                c.text,
                c.author_account_id,
                c.author_name,
                c.zone,
                c.owner,
                c.attached_to,
                c.deck_owner,
                c.is_rule,
                c.colour,
                c.version,
            )
            state.piles.setdefault((c.zone, c.owner), []).append(c.number)
        for p in proposal_rows:
            state.proposals[p.id] = Proposal(
                p.id, p.kind, p.subject, p.proposer_account_id, p.proposer_name, p.face, p.bundle
            )
        for v in vote_rows:
            state.proposals[v.proposal_id].votes[v.account_id] = v.choice
        return StoredRoom(
            row.id, row.name, row.game, row.password_hash, state, row.seq, row.digest, row.archived_at is not None
        )

    async def commit(self, room_id: int, expected: LogHead, state: TableState, changes: Changes) -> LogHead:
        """Store one move in a transaction of its own; the room's new head. Raises
        :class:`StaleRoom` (storing nothing) if the stored head is not ``expected``."""
        move = Move(room_id, expected, state, changes)
        stale = await self._database.run_write(lambda connection: write_moves(connection, [move]))
        if stale:
            raise StaleRoom(room_id)
        return move.written

    async def card_history(self, room_id: int, number: int) -> list[CardVersionRecord]:
        """Every version of card ``number``, oldest first."""
        return (await self._card_versions(room_id, number)).get(number, [])

    async def card_histories(self, room_id: int) -> dict[int, list[CardVersionRecord]]:
        """Every version of every card of the room, by card number, oldest first."""
        return await self._card_versions(room_id)

    async def _card_versions(self, room_id: int, number: int | None = None) -> dict[int, list[CardVersionRecord]]:
        """The versions of the room's cards (only card ``number``'s, if given), by number."""
        where = [_versions.c.room_id == room_id]
        if number is not None:
            where.append(_versions.c.number == number)
        async with self._database.snapshot() as connection:
            query = select(_versions).where(*where).order_by(_versions.c.number, _versions.c.version)
            rows = (await connection.execute(query)).all()
        histories: dict[int, list[CardVersionRecord]] = {}
        for r in rows:
            histories.setdefault(r.number, []).append(
                CardVersionRecord(r.version, r.name, r.kind, r.text, r.colour, r.created_at)
            )
        return histories

    async def all_ids(self) -> list[tuple[int, str]]:
        """Every room's id and name, by name (deleted and archived ones too)."""
        async with self._database.snapshot() as connection:
            return [
                tuple(row)
                for row in await connection.execute(select(_rooms.c.id, _rooms.c.name).order_by(_rooms.c.name_key))
            ]

    async def row_problems(self, room_id: int) -> list[str]:
        """What is wrong with the stored rows themselves: gaps or repeats in pile
        positions, seat positions or the event log's numbering."""
        problems: list[str] = []
        async with self._database.snapshot() as connection:
            seq = (await connection.execute(select(_rooms.c.seq).where(_rooms.c.id == room_id))).scalar_one()
            cards = (
                await connection.execute(
                    select(_cards.c.zone, _cards.c.owner, _cards.c.position).where(_cards.c.room_id == room_id)
                )
            ).all()
            seats = (await connection.execute(select(_seats.c.position).where(_seats.c.room_id == room_id))).scalars()
            event_seqs = (
                await connection.execute(
                    select(_events.c.seq).where(_events.c.room_id == room_id).order_by(_events.c.seq)
                )
            ).scalars()
            seat_positions = sorted(seats)
            seqs = list(event_seqs)
        piles: dict[tuple[str, int], list[int]] = {}
        for zone, owner, position in cards:
            piles.setdefault((zone, owner), []).append(position)
        for (zone, owner), positions in sorted(piles.items()):
            if sorted(positions) != list(range(len(positions))):
                problems.append(f"pile {zone}/{owner} positions are not 0..{len(positions) - 1}: {sorted(positions)}")
        if seat_positions != list(range(len(seat_positions))):
            problems.append(f"seat positions are not 0..{len(seat_positions) - 1}: {seat_positions}")
        if seqs != list(range(1, seq + 1)):
            problems.append(f"the event log is not numbered 1..{seq} without gaps ({len(seqs)} events)")
        return problems

    async def events(self, room_id: int, after_seq: int = 0, last: int | None = None) -> list[LoggedEvent]:
        """The room's events after ``after_seq`` in order; only the ``last`` few if given."""
        async with self._database.snapshot() as connection:
            return await _read_events(connection, room_id, after_seq, last)

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
        room_seq = select(_rooms.c.seq).where(_rooms.c.id == room_id).scalar_subquery()
        async with self._database.transaction() as connection:
            await connection.execute(
                update(_seats)
                .where(
                    _seats.c.room_id == room_id,
                    _seats.c.account_id == account_id,
                    _seats.c.away_since_seq.is_(None),
                )
                .values(away_since_seq=room_seq, away_at=_now())
            )

    async def clear_away(self, room_id: int, account_id: int, last: int, last_said: int) -> Missed:
        """Note that a seated player is back: what they missed while away (nothing if
        they were not noted as away): the ``last`` few events and ``last_said`` lines
        said. One transaction: if it fails, they are still noted as away."""
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
                        select(_talk.c.created_at, _talk.c.text)
                        .where(*said_since)
                        .order_by(_talk.c.id.desc())
                        .limit(last_said)
                    )
                ).all()
                talk = [SaidLine(_aware(r.created_at), r.text) for r in reversed(rows)]
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

    async def heads(self) -> dict[int, LogHead]:
        """Every room's id and how far its event log goes, with its digest."""
        async with self._database.snapshot() as connection:
            rows = await connection.execute(select(_rooms.c.id, _rooms.c.seq, _rooms.c.digest))
            return {room_id: LogHead(seq, digest) for room_id, seq, digest in rows}


def _positions(state: TableState, numbers: Iterable[int]) -> dict[int, int]:
    """Each card's index in its pile, computing each touched pile's index once."""
    positions: dict[int, int] = {}
    for number in numbers:
        if number in positions:
            continue
        card = state.cards[number]
        for index, other in enumerate(state.pile(card.zone, card.owner)):
            positions[other] = index
    return positions


def _card_row(room_id: int, card: Card, position: int) -> dict[str, Any]:
    return {
        "room_id": room_id,
        "number": card.number,
        "name": card.name,
        "kind": card.kind,
        "text": card.text,
        "author_account_id": card.author,
        "author_name": card.author_name,
        "zone": card.zone,
        "owner": card.owner,
        "position": position,
        "attached_to": card.attached_to,
        "deck_owner": card.deck_owner,
        "is_rule": card.is_rule,
        "colour": card.colour,
        "version": card.version,
    }


# -- storing moves, many at a time ------------------------------------------------------


async def _read_events(
    connection: AsyncConnection, room_id: int, after_seq: int, last: int | None
) -> list[LoggedEvent]:
    query = select(_events).where(_events.c.room_id == room_id, _events.c.seq > after_seq)
    if last is not None:
        query = query.order_by(_events.c.seq.desc()).limit(last)
    else:
        query = query.order_by(_events.c.seq)
    rows = (await connection.execute(query)).all()
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

    async def store(self, expected: LogHead, state: TableState, changes: Changes) -> LogHead:
        """Write one move, to be committed when the claim ends; the room's new head.
        Raises :class:`StaleRoom` if the room's head is not ``expected``."""
        move = Move(self.room_id, expected, state, changes)
        if await self._connection.run_sync(_write_now, move):
            raise StaleRoom(self.room_id)
        return move.written


def _write_now(connection: Connection, move: Move) -> list[Move]:
    """:func:`write_moves` for one move, with the statements it leaves for the commit
    (SQLite's multi-row statements, see :func:`deferred_statements`) run here too."""
    stale = write_moves(connection, [move])
    for statement, values in connection.info.pop(BULK_STATEMENTS, []):
        connection.exec_driver_sql(statement, tuple(values))
    return stale


@dataclass
class Move:
    """One room's move waiting to be stored: the events and rows it changed, and the
    head of the room's log that the copy it was made on had."""

    room_id: int
    expected: LogHead
    state: TableState
    changes: Changes
    #: The room's head once the move is written (set by :func:`write_moves`).
    written: LogHead = EMPTY_LOG


_CARD_COLUMNS = ("name", "kind", "text", "zone", "owner", "position", "attached_to", "deck_owner", "colour", "version")
#: The room row's columns a move writes.
_ROOM_COLUMNS = (
    "seq",
    "digest",
    "phase",
    "host_account_id",
    "settings",
    "turn",
    "result",
    "next_card_number",
    "next_proposal",
    "used_at",
)
_UPDATE_ROOM = update(_rooms).where(_rooms.c.id == bindparam("r")).values({c: bindparam(c) for c in _ROOM_COLUMNS})
_UPDATE_CARD = (
    update(_cards)
    .where(_cards.c.room_id == bindparam("r"), _cards.c.number == bindparam("n"))
    .values({column: bindparam(column) for column in _CARD_COLUMNS})
)
_INSERT_CARD = insert(_cards)
# Data and deltas come as the JSON text the digest was computed over (see write_moves).
_INSERT_EVENT = insert(_events).values(
    data=cast(bindparam("data_json", type_=Text), JSON), deltas=cast(bindparam("deltas_json", type_=Text), JSON)
)
_INSERT_VERSION = insert(_versions)
_STATEMENTS = {
    "insert_card": _INSERT_CARD,
    "update_card": _UPDATE_CARD,
    "insert_event": _INSERT_EVENT,
    "insert_version": _INSERT_VERSION,
}


def write_moves(connection: Connection, moves: list[Move]) -> list[Move]:
    """Write ``moves`` (of different rooms) in the caller's transaction, a few statements
    for all of them together; returns the moves that are stale (their room's stored head
    was not what they expected), of which nothing is written. Each event is turned into
    JSON once: that text is both digested and stored."""
    now = _now()
    rows = _RowWriter.for_connection(connection)
    logged = {id(move): _logged_events(move, now) for move in moves}
    room_rows = [
        {
            "r": m.room_id,
            "expected": m.expected,
            "seq": m.written.seq,
            "digest": m.written.digest,
            "phase": m.state.phase,
            "host_account_id": m.state.host,
            "settings": m.state.settings,
            "turn": dict(vars(m.state.turn)),
            "result": m.state.result,
            "next_card_number": m.state.next_number,
            "next_proposal": m.state.next_proposal,
            "used_at": now,
        }
        for m in moves
    ]
    stale_ids = rows.claim_rooms(room_rows)
    stale = [m for m in moves if m.room_id in stale_ids]
    fresh = [m for m in moves if m.room_id not in stale_ids]
    new_cards: list[dict[str, Any]] = []
    moved_cards: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    versions: list[dict[str, Any]] = []
    for move in fresh:
        state, changes = move.state, move.changes
        touched = [n for n in changes.cards | changes.new_cards if n in state.cards]
        positions = _positions(state, touched)
        for number in touched:
            row = _card_row(move.room_id, state.cards[number], positions[number])
            if number in changes.new_cards:
                new_cards.append(row)
            else:
                moved_cards.append({"r": move.room_id, "n": number, **{c: row[c] for c in _CARD_COLUMNS}})
        events += logged[id(move)]
        for offset, event in enumerate(changes.events, start=1):
            seq = move.expected.seq + offset
            for delta in event.deltas:
                if delta[0] == "add":
                    history = delta[2] if len(delta) > 2 else []
                    versions += _version_rows(move.room_id, delta[1]["number"], delta[1], history, now, seq)
                elif delta[0] == "face":
                    face = {**card_face(state.cards[delta[1]]), **delta[2]}
                    versions += _version_rows(move.room_id, delta[1], face, [], now, seq)
                elif delta[0] in ("propose", "vote", "bundle", "decide"):
                    _store_vote_delta(connection, move.room_id, delta, now, seq)
        if any(delta[0] == "seats" for event in changes.events for delta in event.deltas):
            _store_seats(connection, move.room_id, state.seats)
        if state.phase == OVER and any(event.data.get("result") for event in changes.events):
            connection.execute(
                insert(_results).values(
                    room_id=move.room_id,
                    seq=move.written.seq,
                    finished_at=now,
                    result=state.result,
                    players=[seat.name for seat in state.seats],
                )
            )
    rows.write("insert_card", new_cards)
    rows.write("update_card", moved_cards)
    rows.write("insert_event", events)
    rows.write("insert_version", versions)
    return stale


def _version_rows(
    room_id: int, number: int, face: dict[str, Any], history: list[dict[str, Any]], now: datetime, seq: int
) -> list[dict[str, Any]]:
    """The card_versions rows a card's new face makes: the face itself, dated now; for a
    card brought in from a saved deck, its earlier versions too, dated when they were
    made (and the face is dated as saved if the saved deck holds it unchanged)."""
    current = face.get("version", 1)
    faces = {entry["version"]: entry for entry in history if entry["version"] < current}
    saved = next((entry for entry in history if entry["version"] == current), None)
    unchanged = saved is not None and all(saved[key] == face.get(key, "") for key in ("name", "kind", "text", "colour"))
    faces[current] = {**face, "created_at": saved["created_at"] if unchanged else None}
    return [
        {
            "room_id": room_id,
            "number": number,
            "version": version,
            "name": entry["name"],
            "kind": entry["kind"],
            "text": entry["text"],
            "colour": entry.get("colour", ""),
            "created_at": datetime.fromisoformat(entry["created_at"]) if entry.get("created_at") else now,
            "seq": seq,
        }
        for version, entry in sorted(faces.items())
    ]


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


class _RowWriter:
    """The few statements every batch runs, each once for all its rows."""

    @staticmethod
    def for_connection(connection: Connection) -> _RowWriter:
        if connection.dialect.name == "sqlite":
            return _SqliteRowWriter(connection)
        return _RowWriter(connection)

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def claim_rooms(self, rows: list[dict[str, Any]]) -> set[int]:
        """Advance each room's row; the ids of the rooms whose head (``seq`` and
        ``digest``) was not the expected one (left as they were). The rows stay locked
        until the commit."""
        # In the order of their ids, as every node locks them: two batches never deadlock.
        ids = sorted({r["r"] for r in rows})
        locked = (
            select(_rooms.c.id, _rooms.c.seq, _rooms.c.digest)
            .where(_rooms.c.id.in_(ids))
            .order_by(_rooms.c.id)
            .with_for_update()
        )
        stored = {room: LogHead(seq, digest) for room, seq, digest in self.connection.execute(locked)}
        stale = {r["r"] for r in rows if stored.get(r["r"]) != r["expected"]}
        fresh = [{k: v for k, v in r.items() if k != "expected"} for r in rows if r["r"] not in stale]
        if fresh:
            self.connection.execute(_UPDATE_ROOM, fresh)
        return stale

    def write(self, statement: str, rows: list[dict[str, Any]]) -> None:
        if rows:
            self.connection.execute(_STATEMENTS[statement], rows)


class _SqliteRowWriter(_RowWriter):
    """The same on SQLite, as a few multi-row statements that :meth:`Database.run_write`
    runs, with the commit, away from the event loop (each is one step inside SQLite, so
    that thread hardly needs the GIL). Values take the forms SQLAlchemy stores and reads:
    JSON text, naive UTC timestamps, 0/1."""

    def claim_rooms(self, rows: list[dict[str, Any]]) -> set[int]:
        # BEGIN IMMEDIATE holds SQLite's write lock: nobody can change a room between
        # this read and the update.
        wanted = {row["r"]: row["expected"] for row in rows}
        query = select(_rooms.c.id, _rooms.c.seq, _rooms.c.digest).where(_rooms.c.id.in_(list(wanted)))
        stored = {room: LogHead(seq, digest) for room, seq, digest in self.connection.execute(query)}
        stale = {room for room, head in wanted.items() if stored.get(room) != head}
        self.write("update_room", [row for row in rows if row["r"] not in stale])
        return stale

    def write(self, statement: str, rows: list[dict[str, Any]]) -> None:
        if not rows:
            return
        shape, columns = _SQLITE[statement]
        per_chunk = SQLITE_VARIABLES // len(columns)
        for start in range(0, len(rows), per_chunk):
            chunk = rows[start : start + per_chunk]
            marks = ", ".join(["(" + ", ".join("?" * len(columns)) + ")"] * len(chunk))
            values = [_sqlite_value(row[column]) for row in chunk for column in columns]
            deferred_statements(self.connection).append((shape.format(values=marks), values))


#: Most ``?`` one SQLite statement may have (SQLite's own limit is 32766).
SQLITE_VARIABLES = 30_000


def deferred_statements(connection: Connection) -> list[tuple[str, list[Any]]]:
    """Statements :meth:`Database.run_write` runs on the DB-API connection after the work,
    just before committing (SQLite only)."""
    return connection.info.setdefault(BULK_STATEMENTS, [])


def _sqlite_value(value: Any) -> Any:
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    if isinstance(value, datetime):
        return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(value, bool):
        return int(value)
    return value


def _update_from_values(table: str, keys: dict[str, str], columns: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """``UPDATE <table> SET ... FROM (VALUES {values}) AS v WHERE <keys match>``, and the
    row fields to give for each row, in order. ``keys`` maps key columns to row fields."""
    fields = tuple(keys.values()) + columns
    match = " AND ".join(f"{table}.{column} = v.column{i + 1}" for i, column in enumerate(keys))
    assignments = ", ".join(f"{column} = v.column{len(keys) + i + 1}" for i, column in enumerate(columns))
    return f"UPDATE {table} SET {assignments} FROM (VALUES {{values}}) AS v WHERE {match}", fields


def _insert_values(
    table: str, columns: tuple[str, ...], fields: tuple[str, ...] | None = None
) -> tuple[str, tuple[str, ...]]:
    """``INSERT INTO <table> (<columns>) VALUES {values}``, and the row fields to give for
    each row, in order (``fields``, or the columns' own names)."""
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES {{values}}", fields or columns


_CARD_INSERT_COLUMNS = (
    "room_id",
    "number",
    "name",
    "kind",
    "text",
    "author_account_id",
    "author_name",
    "zone",
    "owner",
    "position",
    "attached_to",
    "deck_owner",
    "is_rule",
    "colour",
    "version",
)
_EVENT_COLUMNS = ("room_id", "seq", "created_at", "actor_account_id", "actor_name", "kind", "forced", "data", "deltas")
#: The event rows' fields, in the order of those columns (data and deltas are JSON text).
_EVENT_FIELDS = (*_EVENT_COLUMNS[:-2], "data_json", "deltas_json")
_VERSION_COLUMNS = ("room_id", "number", "version", "name", "kind", "text", "colour", "created_at", "seq")
_SQLITE = {
    "update_room": _update_from_values("rooms", {"id": "r"}, _ROOM_COLUMNS),
    "insert_card": _insert_values("cards", _CARD_INSERT_COLUMNS),
    "update_card": _update_from_values("cards", {"room_id": "r", "number": "n"}, _CARD_COLUMNS),
    "insert_event": _insert_values("events", _EVENT_COLUMNS, _EVENT_FIELDS),
    "insert_version": _insert_values("card_versions", _VERSION_COLUMNS),
}


async def _hosted_by(connection: AsyncConnection, account_id: int) -> list[str]:
    """The names of the rooms that count against ``account_id``'s quota, holding the
    account's row so that one player's rooms are made one at a time."""
    await connection.execute(select(_accounts.c.id).where(_accounts.c.id == account_id).with_for_update())
    counted = _OPEN & or_(
        _rooms.c.host_account_id == account_id,
        and_(_rooms.c.created_by_account_id == account_id, _rooms.c.host_account_id == NO_OWNER),
    )
    return list((await connection.execute(select(_rooms.c.name).where(counted).order_by(_rooms.c.name_key))).scalars())


def _write_batch(connection: Connection, items: list[Move]) -> list[LogHead | Exception]:
    """For group commit: each move's room's new head, or :class:`StaleRoom`."""
    stale = {id(move) for move in write_moves(connection, items)}
    return [StaleRoom(move.room_id) if id(move) in stale else move.written for move in items]


def _store_vote_delta(connection: Connection, room_id: int, delta: list, now: datetime, seq: int) -> None:  # type: ignore[type-arg]
    """Write what a proposal delta changed: a new proposal, a vote, a bundle, a decision."""
    kind = delta[0]
    if kind == "propose":
        proposal = proposal_from_dict(delta[1])
        connection.execute(
            insert(_proposals).values(
                room_id=room_id,
                id=proposal.id,
                kind=proposal.kind,
                subject=proposal.subject,
                proposer_account_id=proposal.proposer,
                proposer_name=proposal.proposer_name,
                face=proposal.face,
                bundle=proposal.bundle,
                status=PENDING_STATUS,
                created_at=now,
                created_seq=seq,
            )
        )
        for account, choice in proposal.votes.items():
            _store_vote(connection, room_id, proposal.id, account, choice, now, seq)
    elif kind == "vote":
        _, proposal_id, account, choice = delta
        _store_vote(connection, room_id, proposal_id, account, choice, now, seq)
    elif kind == "bundle":
        _, ids, bundle = delta
        connection.execute(
            update(_proposals).where(_proposals.c.room_id == room_id, _proposals.c.id.in_(ids)).values(bundle=bundle)
        )
        connection.execute(delete(_votes).where(_votes.c.room_id == room_id, _votes.c.proposal_id.in_(ids)))
    elif kind == "decide":
        _, proposal_id, outcome = delta
        connection.execute(
            update(_proposals)
            .where(_proposals.c.room_id == room_id, _proposals.c.id == proposal_id)
            .values(status=outcome, decided_at=now, decided_seq=seq)
        )


def _store_vote(
    connection: Connection,
    room_id: int,
    proposal_id: int,
    account: int,
    choice: str | None,
    now: datetime,
    seq: int,
) -> None:
    connection.execute(
        delete(_votes).where(
            _votes.c.room_id == room_id, _votes.c.proposal_id == proposal_id, _votes.c.account_id == account
        )
    )
    if choice is not None:
        connection.execute(
            insert(_votes).values(
                room_id=room_id, proposal_id=proposal_id, account_id=account, choice=choice, voted_at=now, seq=seq
            )
        )


def _seat_fields(seat: Seat) -> dict[str, Any]:
    return {"team": seat.team, "out": seat.out, "absent": seat.absent}


def _store_seats(connection: Connection, room_id: int, seats: list[Seat]) -> None:
    """Make the room's seat rows what ``seats`` says, keeping each player's away mark."""
    stored = set((connection.execute(select(_seats.c.account_id).where(_seats.c.room_id == room_id))).scalars())
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
            .values(
                position=bindparam("position"), team=bindparam("team"), out=bindparam("out"), absent=bindparam("absent")
            ),
            existing,
        )
    new = [row for row in rows if row["a"] not in stored]
    if new:
        connection.execute(
            insert(_seats),
            [
                {
                    "room_id": r["r"],
                    "account_id": r["a"],
                    "position": r["position"],
                    "team": r["team"],
                    "out": r["out"],
                    "absent": r["absent"],
                }
                for r in new
            ],
        )
