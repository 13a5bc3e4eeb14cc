"""Auditing stored rooms: are they sound, and does each one's event log rebuild it exactly?

Used by ``dvorak-mush check`` and ``dvorak-mush replay``, and by the tests after every
crash they cause.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.dvorak.invariants import differences, table_problems
from games.dvorak.rules import Table
from games.dvorak.state import TableState
from persistence.database import Database
from persistence.rooms import LoggedEvent, RoomStore


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
    """Check every room (or the one named) against the table's invariants and the rows'."""
    store = RoomStore(database)
    reports = []
    for room_id, room_name in await _rooms(store, name):
        stored = await store.load(room_id)
        assert stored is not None
        problems = table_problems(Table(stored.state).state) + await store.row_problems(room_id)
        reports.append(RoomReport(room_name, problems))
    return reports


class BrokenLog(Exception):
    """An event's deltas cannot be applied to the table the events before it built."""


def replay(events: list[LoggedEvent]) -> TableState:
    """A table rebuilt from nothing by applying each event's deltas in order."""
    state = Table().state
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
        events = await store.events(room_id)
        try:
            problems = differences(replay(events), Table(stored.state).state)
        except BrokenLog as broken:
            problems = [str(broken)]
        if len(events) != stored.seq:
            problems.insert(0, f"the log holds {len(events)} events but the room says {stored.seq}")
        reports.append(RoomReport(room_name, problems))
    return reports
