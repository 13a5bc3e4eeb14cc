"""Lines said in game rooms, kept for the seated players who are away from them.

A speaker does not wait for their line to be stored: it is held here and written with
every other line of the moment, at most :data:`FLUSH_EVERY` seconds later, in one
transaction that also trims each room's lines to the last :data:`TALK_KEPT` (one
statement a room, not one a line). A crash loses at most that last moment of talk, never
a move: moves are stored before anyone is told of them (see :mod:`persistence.rooms`).

Whoever reads the kept lines (a player coming back) calls :meth:`KeptTalk.flush` first,
so that what was said on this node a moment ago is among them.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, insert, select, update

from persistence.database import Database, DatabaseUnavailable, Writing
from persistence.models import Room, RoomTalk

log = logging.getLogger(__name__)

_rooms = Room.__table__
_talk = RoomTalk.__table__

#: Lines said in a room kept for players who come back (the oldest go first).
TALK_KEPT = 100
#: Seconds a line said waits, at most, to be written with the others of the moment.
FLUSH_EVERY = 0.5
#: Seconds before writing again once the database did not answer (the lines wait, the
#: last :data:`TALK_KEPT` of each room).
RETRY_AFTER = 5.0


@dataclass(frozen=True)
class _Line:
    said_at: datetime
    text: str
    speaker: int | None


class KeptTalk:
    """The lines said in rooms and not written yet, and the timer that writes them."""

    def __init__(self, database: Database) -> None:
        self._database = database
        #: By room id, the lines not written yet, oldest first (no more than are kept).
        self._pending: dict[int, deque[_Line]] = {}
        #: One write at a time: a reader's flush waits for the one under way.
        self._writing = asyncio.Lock()
        self._timer: asyncio.TimerHandle | None = None
        self._flusher: asyncio.Task[None] | None = None

    def remember(self, room_id: int, text: str, speaker: int | None) -> None:
        """Keep ``text``, said in room ``room_id`` by account ``speaker``: written soon."""
        lines = self._pending.get(room_id)
        if lines is None:
            lines = self._pending[room_id] = deque(maxlen=TALK_KEPT)
        lines.append(_Line(datetime.now(UTC), text, speaker))
        if self._timer is None and self._flusher is None:
            self._timer = asyncio.get_running_loop().call_later(FLUSH_EVERY, self._flush_later)

    def pending(self) -> int:
        """How many lines wait to be written."""
        return sum(len(lines) for lines in self._pending.values())

    async def flush(self) -> None:
        """Write every line waiting now (after the write under way, if any). Raises
        :class:`DatabaseUnavailable`, the lines still waiting."""
        async with self._writing:
            taken, self._pending = self._pending, {}
            if not taken:
                return
            try:
                await self._database.run_write(lambda writing: _write(writing, taken))
            except DatabaseUnavailable:
                for room_id, said_since in self._pending.items():
                    taken.setdefault(room_id, deque(maxlen=TALK_KEPT)).extend(said_since)
                self._pending = taken
                raise
            except Exception:
                # The database refused these lines (their room deleted meanwhile, say):
                # trying them again would fail again and keep every later line waiting.
                log.exception("lines said in rooms %s could not be kept; they are dropped", sorted(taken))

    async def close(self) -> None:
        """Write what waits, once every command is over (the server stopping)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        try:
            await self.flush()
        except DatabaseUnavailable as outage:
            log.warning("%d lines said in rooms were not kept: %s", self.pending(), outage)

    def _flush_later(self) -> None:
        self._timer = None
        self._flusher = asyncio.create_task(self._flush_then_again(), name="kept talk")

    async def _flush_then_again(self) -> None:
        wait = FLUSH_EVERY
        try:
            await self.flush()
        except DatabaseUnavailable as outage:
            log.warning("could not keep what was said in rooms (trying again in %g s): %s", RETRY_AFTER, outage)
            wait = RETRY_AFTER
        finally:
            self._flusher = None
        if self._pending and self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(wait, self._flush_later)


def _write(writing: Writing, taken: dict[int, deque[_Line]]) -> None:
    """Store ``taken`` and keep only the last :data:`TALK_KEPT` lines of each room; the
    rooms count as used."""
    connection = writing.connection
    connection.execute(
        insert(_talk),
        [
            {"room_id": room_id, "created_at": line.said_at, "text": line.text, "speaker_account_id": line.speaker}
            for room_id, lines in taken.items()
            for line in lines
        ],
    )
    for room_id, lines in taken.items():
        oldest_kept = (
            select(_talk.c.id)
            .where(_talk.c.room_id == room_id)
            .order_by(_talk.c.id.desc())
            .offset(TALK_KEPT - 1)
            .limit(1)
            .scalar_subquery()
        )
        connection.execute(delete(_talk).where(_talk.c.room_id == room_id, _talk.c.id < oldest_kept))
        connection.execute(update(_rooms).where(_rooms.c.id == room_id).values(used_at=lines[-1].said_at))
