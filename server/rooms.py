"""Game rooms: the authority over each table, and the registry that loads them.

A room changes only through :meth:`GameRoom.perform`: one move at a time (a lock per
room), checked by the rules, stored in one transaction, and only then announced. If
storing fails the move is undone in memory too, so the room always matches what the
database holds; if another node changed the room first, it is reloaded and the move
tried again on the fresh table.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from typing import TypeVar

from games.dvorak.rules import Event, Table
from games.dvorak.settings import defaults as default_settings
from persistence.rooms import CardVersionRecord, LoggedEvent, RoomStore, RoomSummary, StaleRoom, StoredRoom
from server.hub import Place

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Renders and sends a room's new events to everyone in it.
Announcer = Callable[["GameRoom", list[Event]], None]

_STALE_RETRIES = 3

ROOM_NAME_MAX = 30
ROOM_NAME_RULE = (
    f"A room name is 2-{ROOM_NAME_MAX} characters: letters, digits, single spaces and - _ ' . ! ?, "
    "starting with a letter or digit."
)
_ROOM_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9_'.!?-]| (?! ))*")


def check_room_name(name: str) -> str | None:
    """Why ``name`` cannot name a room, or None if it can."""
    if not 2 <= len(name) <= ROOM_NAME_MAX or not _ROOM_NAME.fullmatch(name) or name.endswith(" "):
        return ROOM_NAME_RULE
    return None


class GameRoom(Place):
    """A named room where a table of Dvorak is played; seated players and spectators."""

    def __init__(self, stored: StoredRoom, store: RoomStore, announce: Announcer) -> None:
        super().__init__()
        self.id = stored.id
        self.name = stored.name
        self.game = stored.game
        self.password_hash = stored.password_hash
        self.table = Table(stored.state)
        self.seq = stored.seq
        #: Seated accounts that are away, with the room's seq when they went.
        self.away_since = stored.away_since
        self._store = store
        self._announce = announce
        self._lock = asyncio.Lock()
        #: A store failed mid-move: reload before trusting the table again.
        self._suspect = False

    def is_seated(self, account_id: int) -> bool:
        return self.table.state.seat(account_id) is not None

    def spectators(self) -> list[str]:
        """Names of the people here who are not seated."""
        return [p.name for p in self.occupants.values() if not self.is_seated(p.account_id)]

    async def perform(self, move: Callable[[Table], T]) -> T:
        """Make ``move`` on the table, store it, announce it; returns what the move returns.

        A :class:`~games.dvorak.rules.RuleViolation` from the move propagates with
        nothing changed; so does any storage error (the move is undone).
        """
        async with self._lock:
            if self._suspect:
                await self._reload()
            for _ in range(_STALE_RETRIES):
                try:
                    result = move(self.table)
                except BaseException:
                    self.table.undo(self.table.take_changes())
                    raise
                changes = self.table.take_changes()
                if not changes.events:
                    return result
                try:
                    self.seq = await self._store.store(self.id, self.seq, self.table.state, changes)
                except StaleRoom:
                    log.info("room %s changed elsewhere; reloading", self.name)
                    await self._reload()
                    continue
                except BaseException:
                    # Most likely nothing was stored; but a commit interrupted at the wrong
                    # moment may have been, so the next move first reloads the room.
                    self.table.undo(changes)
                    self._suspect = True
                    raise
                self._announce(self, changes.events)
                return result
            raise StaleRoom(self.id)

    async def inspect(self, look: Callable[[Table], T]) -> T:
        """Read the table between moves, never while one is being stored. (After a failed
        store this is the table as undone in memory; the next move reloads it.)"""
        async with self._lock:
            return look(self.table)

    async def _reload(self) -> None:
        stored = await self._store.load(self.id)
        if stored is None:
            raise StaleRoom(self.id)
        self.table = Table(stored.state)
        self.seq = stored.seq
        self.away_since = stored.away_since
        self._suspect = False

    async def events(self, after_seq: int = 0, last: int | None = None) -> list[LoggedEvent]:
        """The room's stored events after ``after_seq`` (only the ``last`` few if given)."""
        return await self._store.events(self.id, after_seq=after_seq, last=last)

    async def card_history(self, number: int) -> list[CardVersionRecord]:
        """Every stored version of card ``number``, oldest first."""
        return await self._store.card_history(self.id, number)

    async def set_away(self, account_id: int, away: bool) -> None:
        """Record that a seated player's last connection went (or came back)."""
        since = self.seq if away else None
        self.away_since[account_id] = since
        await self._store.set_away(self.id, account_id, since)


class RoomRegistry:
    """Every game room of this node, loaded from the database when first used."""

    def __init__(self, store: RoomStore, announce: Announcer) -> None:
        self.store = store
        self._announce = announce
        self._rooms: dict[int, GameRoom] = {}
        self._loading: dict[int, asyncio.Task[GameRoom | None]] = {}

    def loaded(self) -> list[GameRoom]:
        return list(self._rooms.values())

    async def get(self, room_id: int) -> GameRoom | None:
        """The room with that id, loading it if this node has not yet."""
        room = self._rooms.get(room_id)
        if room is not None:
            return room
        task = self._loading.get(room_id)
        if task is None:
            task = asyncio.ensure_future(self._load(room_id))
            self._loading[room_id] = task
        try:
            return await asyncio.shield(task)
        finally:
            self._loading.pop(room_id, None)

    async def _load(self, room_id: int) -> GameRoom | None:
        stored = await self.store.load(room_id)
        if stored is None:
            return None
        room = GameRoom(stored, self.store, self._announce)
        self._rooms[room_id] = room
        return room

    async def find(self, name: str) -> GameRoom | None:
        """The room called ``name`` (any letter case), or None."""
        key = name.casefold()
        for room in self._rooms.values():
            if room.name.casefold() == key:
                return room
        room_id = await self.store.find_id(name)
        return await self.get(room_id) if room_id is not None else None

    async def create(self, name: str, password_hash: str | None) -> GameRoom:
        """Store a new Dvorak room and load it; raises RoomNameTaken."""
        room_id = await self.store.create(name, "dvorak", password_hash, default_settings())
        room = await self.get(room_id)
        assert room is not None
        return room

    async def with_seat_for(self, account_id: int) -> GameRoom | None:
        """The room where ``account_id`` is seated, if any."""
        for room in self._rooms.values():
            if room.is_seated(account_id):
                return room
        room_id = await self.store.room_with_seat(account_id)
        return await self.get(room_id) if room_id is not None else None

    async def summaries(self) -> list[tuple[RoomSummary, GameRoom | None]]:
        """Every room as stored, with its live room where this node has it loaded."""
        return [(summary, self._rooms.get(summary.id)) for summary in await self.store.summaries()]
