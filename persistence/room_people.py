"""The people of each room as the database keeps them: the seated players away (since
which event and when, to tell them what they missed), the lines said for them while they
were (kept a moment in memory, :mod:`persistence.talk`), and the host's rules about
spectators (muted, barred)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from persistence.database import Database
from persistence.models import Account, Room, RoomSpectator, RoomTalk
from persistence.models import Seat as SeatRow
from persistence.room_log import LoggedEvent, as_utc, read_events, utc_now
from persistence.talk import KeptTalk

_rooms = Room.__table__
_seats = SeatRow.__table__
_accounts = Account.__table__
_talk = RoomTalk.__table__
_spectators = RoomSpectator.__table__


@dataclass(frozen=True)
class SpectatorRule:
    """What a room's host decided about someone not seated there (see
    :class:`persistence.models.RoomSpectator`)."""

    name: str
    #: They may watch, but not talk there.
    muted: bool = False
    #: They may not come back to watch, nor sit down.
    barred: bool = False


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


class RoomPeople:
    """Mixed into :class:`persistence.rooms.RoomStore`: who is away, what is said for
    them, and the spectators' rules."""

    _database: Database
    _talk: KeptTalk

    def remember_talk(self, room_id: int, text: str, speaker: int | None = None) -> None:
        """Keep a line said in the room by ``speaker`` (for players away from it), only
        the last :data:`~persistence.talk.TALK_KEPT` of the room's; the room counts as
        used. Written a moment later, with the other lines of that moment (see
        :mod:`persistence.talk`): the speaker does not wait for it."""
        self._talk.remember(room_id, text, speaker)

    async def close(self) -> None:
        """Write what is held to be written (the lines said, see :meth:`remember_talk`)."""
        await self._talk.close()

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
            values = {"muted": muted, "barred": barred, "set_by_account_id": set_by, "set_at": utc_now()}
            changed = await connection.execute(update(_spectators).where(*where).values(values))
            if not changed.rowcount:
                await connection.execute(insert(_spectators).values(room_id=room_id, account_id=account_id, **values))

    async def mark_away(self, room_id: int, account_id: int) -> None:
        """Note that a seated player went away now (at the room's current seq, and the
        time), unless they are already noted as away."""
        # The time is taken before waiting for the transaction: what is said from now on,
        # by those told they went, is what they missed (see clear_away).
        now = utc_now()
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
            missed = await read_events(connection, room_id, since, last)
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
                talk = [SaidLine(as_utc(r.created_at), r.text, r.speaker_account_id) for r in reversed(rows)]
            await connection.execute(update(_seats).where(*where).values(away_since_seq=None, away_at=None))
        return Missed((seq or since) - since, missed, said, talk)


async def _spectator_rules(connection: AsyncConnection, room_id: int) -> dict[int, SpectatorRule]:
    rows = await connection.execute(
        select(_spectators.c.account_id, _spectators.c.muted, _spectators.c.barred, _accounts.c.name)
        .join(_accounts, _accounts.c.id == _spectators.c.account_id)
        .where(_spectators.c.room_id == room_id)
    )
    return {row.account_id: SpectatorRule(row.name, row.muted, row.barred) for row in rows}
