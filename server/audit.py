"""Auditing stored rooms: are they sound, and does each one's event log rebuild it exactly?

Used by ``dvorak-mush check`` (both) and ``dvorak-mush replay`` (the log alone), and by
the tests after every crash they cause.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import kind_of
from games.base import GameKind
from persistence.database import Database
from persistence.rooms import LoggedEvent, RoomStore, StoredRoom


@dataclass(frozen=True)
class RoomReport:
    """What an audit found in one room: nothing (sound) or the problems, in words."""

    name: str
    problems: list[str]

    @property
    def sound(self) -> bool:
        return not self.problems


class UnknownRoom(Exception):
    """There is no room of that name."""


async def _rooms(store: RoomStore, name: str | None) -> list[tuple[int, str]]:
    rooms = await store.all_ids()
    if name is None:
        return rooms
    chosen = [(room_id, room_name) for room_id, room_name in rooms if room_name.casefold() == name.casefold()]
    if not chosen:
        raise UnknownRoom(name)
    return chosen


async def check_rooms(database: Database, name: str | None = None) -> list[RoomReport]:
    """Check every room (or the one named) against the table's invariants and the rows',
    and against its event log: a stored room that its log does not rebuild was written
    by something other than its moves."""
    store = RoomStore(database)
    reports = []
    for room_id, room_name in await _rooms(store, name):
        stored = await store.load(room_id)
        assert stored is not None
        problems = kind_of(stored.game).problems(stored.state) + await store.row_problems(room_id)
        problems += [f"its event log rebuilds another room: {problem}" for problem in await _unlike_log(store, stored)]
        reports.append(RoomReport(room_name, problems))
    return reports


class BrokenLog(Exception):
    """An event's deltas cannot be applied to the table the events before it built."""


def replay(kind: GameKind, events: list[LoggedEvent], start: Any) -> Any:
    """A table of ``kind`` rebuilt from ``start`` (the state the room was opened with, see
    :meth:`GameKind.replay_start`) by applying each event's deltas in order."""
    state = start
    for logged in events:
        try:
            for delta in logged.event.deltas:
                state.apply(delta)
        except (KeyError, ValueError, IndexError, TypeError) as error:
            raise BrokenLog(f"event {logged.seq} ({logged.event.kind}) cannot be replayed: {error!r}") from None
    return state


async def replay_rooms(database: Database, name: str | None = None) -> list[RoomReport]:
    """Rebuild every room (or the one named) from its event log and compare it with the
    room as stored; a report lists the fields that differ."""
    store = RoomStore(database)
    reports = []
    for room_id, room_name in await _rooms(store, name):
        stored = await store.load(room_id)
        assert stored is not None
        reports.append(RoomReport(room_name, await _unlike_log(store, stored)))
    return reports


async def _unlike_log(store: RoomStore, stored: StoredRoom) -> list[str]:
    """How ``stored`` differs from the room its event log rebuilds (nothing if it is
    exactly that room)."""
    # Only the log up to the room's head as loaded: on a running server, moves stored
    # since then are not part of the room that was loaded.
    events = [logged for logged in await store.events(stored.id) if logged.seq <= stored.seq]
    kind = kind_of(stored.game)
    try:
        problems = kind.differences(replay(kind, events, kind.replay_start(stored.state)), stored.state)
    except BrokenLog as broken:
        problems = [str(broken)]
    if len(events) != stored.seq:
        problems.insert(0, f"the log holds {len(events)} events but the room says {stored.seq}")
    return problems
