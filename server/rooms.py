"""Game rooms: the authority over each table, and the registry that loads them.

A room changes only through :meth:`GameRoom.perform`: one move at a time (a lock per
room), checked by the rules, stored in one transaction, and only then announced. If
storing fails the move is undone in memory too, so the room always matches what the
database holds; if another node changed the room first, the move is
tried again after them: its moves are shown here first, from the database, in order.
A move that comes while the room's last move waits for the database's writer is made
at once and stored in the same transaction, and announced after it.
The other nodes hear of each stored move (see :mod:`server.cluster`) and make it on
their copy of the room, or read it from the database if they missed one.

A table may want moves made by itself (:meth:`games.base.GameTable.due`): a computer
player's turn, a person's turn timer, the next deal. :mod:`server.room_clock` times them
and makes them through :meth:`GameRoom.perform`, like any player's move. Who is here,
away or watching is :mod:`server.room_presence`'s.

Each copy keeps the head of the log it was built from (the last event's ``seq`` and the
digest chaining every event, see :class:`persistence.room_log.LogHead`), and a move is
stored only if the database's head is that one: a copy told of events that were never
stored (whatever the news said) can never write over the room, only be reloaded.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import re
import time
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar, cast

from games import DEFAULT_KIND, kind_of
from games.base import Changes, Event, GameTable, RuleViolation, merged_changes
from i18n import N_, Text, _, said
from persistence.database import DatabaseUnavailable, OutcomeUnknown
from persistence.names import folded, letters_problem, plain
from persistence.rooms import (
    EMPTY_LOG,
    GameRecord,
    LoggedEvent,
    LogHead,
    Move,
    RoomStore,
    RoomSummary,
    StaleRoom,
    StoredRoom,
    chain,
)
from server.connection import as_news
from server.hub import Hub, OnlinePlayer, Place
from server.metrics import UNWATCHED, Metrics
from server.room_clock import TableClock
from server.room_presence import RoomPresence

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Renders and sends a room's new events to everyone in it.
Announcer = Callable[["GameRoom", list[Event]], None]

ROOM_NAME_MAX = 30
ROOM_NAME_RULE = N_(
    "A room name is 2-{most} characters: letters (Latin, Cyrillic or Greek), digits, "
    "single spaces and - _ ' . ! ?, starting with a letter or digit."
)
#: Letters of any alphabet (\w less digits and _), ASCII digits, punctuation and single
#: spaces; :func:`persistence.names.letters_problem` then checks the alphabets.
_ROOM_NAME = re.compile(r"(?:[^\W\d_]|[0-9])(?:[^\W\d_]|[0-9_'.!?-]| (?! ))*")


#: What those in a room are told when it is closed other than by its host's ``delroom``.
ARCHIVED_NOTICE = N_("This room has been closed (deleted or archived). You are in the lobby.")


def place_key(room_id: int) -> str:
    """The key that names room ``room_id`` as a place, on every node."""
    return f"room/{room_id}"


def room_id_in(key: str) -> int | None:
    """The id of the room a place key names (None for the lobby)."""
    prefix, _, number = key.partition("/")
    return int(number) if prefix == "room" and number.isdigit() else None


def check_room_name(name: str) -> str | None:
    """Why ``name`` (composed: :func:`persistence.names.normal`) cannot name a room, or
    None if it can."""
    if not 2 <= len(name) <= ROOM_NAME_MAX or not _ROOM_NAME.fullmatch(name) or name.endswith(" "):
        return _(ROOM_NAME_RULE).format(most=ROOM_NAME_MAX)
    return letters_problem(name, N_("A room name"))


class _Queued:
    """A move waiting for its room (see :meth:`GameRoom.perform`): the mover's context
    (it is made and told in it), and once ``done``, what it returned or raised. A move
    that joined the room's waiting store (see :meth:`GameRoom._join`) also has what it
    changed, and ``settled``: True once it is stored and told, False if that store failed
    and it waits to be made again."""

    __slots__ = ("changes", "context", "done", "error", "move", "result", "settled")

    def __init__(self, move: Callable[[GameTable], object], context: contextvars.Context) -> None:
        self.move = move
        self.context = context
        self.done = False
        self.result: object = None
        self.error: BaseException | None = None
        self.changes: Changes | None = None
        self.settled: asyncio.Future[bool] | None = None

    def reset(self) -> None:
        self.done, self.result, self.error, self.changes, self.settled = False, None, None, None, None


class _WrittenThoughCancelled(asyncio.CancelledError):
    """The task was cancelled once a writer had taken its move's store, which the writer
    wrote all the same (or may have): the moves stored with it are not to be made again.
    (Python 3.11's ``asyncio.timeout`` takes only a plain CancelledError for its own, so
    no room move may run under one.)"""


class _Storing:
    """A room's move being stored, and the moves made on top of it before a writer took
    it, which are stored with it (see :meth:`GameRoom._join`)."""

    __slots__ = ("joined", "move")

    def __init__(self, move: Move) -> None:
        self.move = move
        self.joined: list[_Queued] = []


class GameRoom(TableClock, RoomPresence, Place):
    """A named room where a table of some game is played; seated players and spectators.
    It commits moves (here); its table's own moves are timed by :class:`TableClock`,
    who is here, away or watching is :class:`RoomPresence`'s."""

    def __init__(
        self,
        stored: StoredRoom,
        store: RoomStore,
        announce: Announcer,
        hub: Hub,
        table_options: Mapping[str, Any] | None = None,
        metrics: Metrics = UNWATCHED,
    ) -> None:
        super().__init__(place_key(stored.id))
        self.id = stored.id
        self.name = stored.name
        self.game = stored.game
        #: The room's game (see :mod:`games`).
        self.kind = kind_of(stored.game)
        self.password_hash = stored.password_hash
        #: What the server tells its game's tables (limits: see :meth:`GameKind.table`).
        self.table_options: Mapping[str, Any] = table_options or {}
        self.table: GameTable = self.kind.table(stored.state, **self.table_options)
        #: How far the log this copy of the room was built from goes (see the module's doc).
        self.head = stored.head
        #: When a command last found the room (see :meth:`RoomRegistry.unload_idle`).
        self.used_at = time.monotonic()
        self._store = store
        self._announce = announce
        self._hub = hub
        self._metrics = metrics
        self._lock = asyncio.Lock()
        #: Moves waiting to be made (see :meth:`perform`), in the order they came.
        self._queued: list[_Queued] = []
        #: The move being stored, while later moves may join it (see :meth:`_join`).
        self._storing: _Storing | None = None
        #: The moves that joined the last store, and the seq before the first of their
        #: events: stored, to be told after the move they joined (see :meth:`_tell_joined`).
        self._joined_stored: tuple[int, list[_Queued]] = (0, [])
        #: A store failed mid-move: catch up with the database before trusting the table.
        self._suspect = False
        self._start_clock()
        self._start_presence(dict(stored.spectators))

    @property
    def seq(self) -> int:
        """The number of the last event this copy of the room has."""
        return self.head.seq

    async def perform(self, move: Callable[[GameTable], T]) -> T:
        """Make ``move`` on the table, store it, announce it; returns what the move returns.

        A :class:`~games.base.RuleViolation` from the move propagates with
        nothing changed; so does any storage error (the move is undone). If another node
        moved first, its moves are shown here and ``move`` is tried again after them,
        this time with the room's row locked so that no node can overtake it again.

        A move that comes while the room's last move waits to be stored, before the
        database's writer has taken it, is made at once and stored with it, in the same
        commit (see :meth:`_join`). The moves that queue up while the room is being
        written are made together, in the order they came, and stored in one go (see
        :meth:`_perform_queued`): four votes on one card wait for one or two commits, not
        four. Each is still told to no one before it is stored.
        """
        if not (self._lock.locked() or self._queued):
            # Nothing to wait for: taking a free lock does not yield.
            async with self._lock:
                result, seq_before, events = await self._perform_locked(move, None, joinable=True)
                try:
                    if events:
                        self._tell(seq_before, events)
                finally:
                    self._tell_joined()
                return result
        entry = _Queued(move, contextvars.copy_context())
        if self._join(entry):
            assert entry.settled is not None
            if await entry.settled:
                if entry.error is not None:
                    raise entry.error
                return cast(T, entry.result)
            # The store it joined failed: it was queued again, first, to be made again.
        else:
            self._queued.append(entry)
        try:
            async with self._lock:
                if not entry.done:
                    await self._perform_queued()
        finally:
            if not entry.done and entry in self._queued:
                self._queued.remove(entry)  # cancelled while waiting: never made
        if entry.error is not None:
            raise entry.error
        return cast(T, entry.result)

    async def _perform_queued(self) -> None:
        """Make every move queued for the room, in order, holding the lock: those made
        after the first that changed something are stored with it, in one store, and
        each is told (in its own mover's context, so its lines are part of its reply)
        once stored. What a move returns or raises after the first change is given only
        once that change is stored: it was decided on a table not yet stored. If the
        store fails, the first changed move gets the failure (as a move alone would) and
        the rest are made again one by one, as if each had come alone; so they are if a
        move was refused on a copy that other nodes have moved on from (the single move's
        way then takes over: catch up, and try again)."""
        group, self._queued = self._queued, []
        try:
            if self._suspect:
                await self._catch_up(self._store.events)
        except BaseException:
            self._queued[:0] = group
            raise
        made: list[tuple[_Queued, Changes]] = []
        first = len(group)  # the first move that changed something
        try:
            for index, entry in enumerate(group):
                try:
                    entry.result, changes = entry.context.run(self._make, entry.move)
                except Exception as error:  # a rule broken (or a bug): the mover's reply
                    entry.error = error
                    changes = None
                if changes is not None:
                    made.append((entry, changes))
                    first = min(first, index)
                elif index < first:
                    entry.done = True  # decided on the stored table
        except BaseException:
            self._put_back(group, first, made)
            raise
        refused = next((i for i, entry in enumerate(group) if isinstance(entry.error, RuleViolation)), len(group))
        if refused < len(group):
            again = min(first, refused)
            try:
                behind = await self._behind()
            except Exception:
                behind = True  # the database cannot say: each move alone will
            except BaseException:
                self._put_back(group, again, made)
                raise
            if behind:
                self._unmake(made)
                await self._one_by_one(group[again:])
                return
        if not made:
            return
        merged = merged_changes([changes for _, changes in made])
        seq_before = self.seq
        try:
            await self._store_made(merged, joinable=True)
        except StaleRoom:
            self.table.undo(merged)
            await self._one_by_one(group[first:])
            return
        except BaseException as error:
            self._undo_unstored(merged)
            for entry in group[first:]:
                entry.reset()
            if isinstance(error, _WrittenThoughCancelled):
                lost = OutcomeUnknown("the moves were cancelled as they were written")
                for entry in group[first:]:
                    entry.error, entry.done = lost, True
                raise
            if not isinstance(error, Exception):
                self._queued[:0] = group[first:]
                raise
            if isinstance(error, OutcomeUnknown):  # made again, they could be made twice
                for entry in group[first:]:
                    entry.error, entry.done = error, True
                return
            group[first].error, group[first].done = error, True
            await self._one_by_one(group[first + 1 :])
            return
        seq = seq_before
        try:
            for entry, changes in made:
                entry.context.run(self._tell, seq, changes.events)
                seq += len(changes.events)
        finally:
            self._tell_joined()
        for entry in group[first:]:
            entry.done = True

    def _put_back(self, group: list[_Queued], start: int, made: list[tuple[_Queued, Changes]]) -> None:
        """Interrupted: undo the moves ``made`` (not stored), and queue the entries of
        ``group`` from ``start`` again, first, as they came (those before were decided)."""
        self._unmake(made)
        for entry in group[start:]:
            entry.reset()
        self._queued[:0] = [entry for entry in group if not entry.done]

    def _unmake(self, made: list[tuple[_Queued, Changes]]) -> None:
        """Undo moves made on the table and not stored, the last first."""
        for _move, changes in reversed(made):
            self.table.undo(changes)

    async def _one_by_one(self, entries: list[_Queued]) -> None:
        """Make ``entries`` one at a time, each stored and told before the next."""
        for position, entry in enumerate(entries):
            entry.reset()
            try:
                entry.result, seq_before, events = await self._perform_locked(entry.move, entry.context)
            except Exception as error:
                entry.error = error
            except BaseException:
                self._queued[:0] = entries[position:]
                raise
            else:
                if events:
                    entry.context.run(self._tell, seq_before, events)
            entry.done = True

    async def _perform_locked(
        self, move: Callable[[GameTable], T], context: contextvars.Context | None, joinable: bool = False
    ) -> tuple[T, int, list[Event]]:
        """One move, holding the lock: what it returns, and the events stored (with the
        seq before them) for the caller to tell. If ``joinable`` (no move that came
        earlier waits), later moves may join its store; the caller then tells them after
        it (:meth:`_tell_joined`)."""
        if self._suspect:
            await self._catch_up(self._store.events)
        try:
            result, changes = context.run(self._make, move) if context is not None else self._make(move)
        except RuleViolation:
            if not await self._behind():
                raise
            return await self._perform_claimed(move, context)  # refused by an old copy: try again
        if changes is None:
            return result, self.seq, []
        seq_before = self.seq
        try:
            await self._store_made(changes, joinable)
        except StaleRoom:
            self.table.undo(changes)
            return await self._perform_claimed(move, context)
        except BaseException:
            self._undo_unstored(changes)
            raise
        return result, seq_before, changes.events

    async def _store_made(self, changes: Changes, joinable: bool = False) -> None:
        """Store ``changes``, made on this copy, with the node's other moves (group
        commit); the room's head moves on and the commit's time is counted. Raises
        :class:`StaleRoom` if the stored room is not the one this copy was made from.

        If the database stops answering as the commit is made, the room's stored log
        says whether it was made after all (:meth:`_made_after_all`): if so, the store
        succeeded; if the database cannot say, :class:`OutcomeUnknown`.

        If ``joinable``, moves that come until a writer takes it are made on top of it
        and stored with it (:meth:`_join`), to be told after it (:meth:`_tell_joined`);
        if the store fails, they are undone first and queued to be made again (or given
        the same :class:`OutcomeUnknown`: made again, they could be made twice). So are
        they if this task is cancelled once a writer has taken the store, which the writer
        writes all the same (:class:`_WrittenThoughCancelled`); the room's next move
        catches up."""
        started = time.perf_counter()
        storing = _Storing(Move(self.id, self.head, self.table.state, changes))
        self._storing = storing if joinable else None
        try:
            try:
                head = await self._store.store(storing.move)
            except OutcomeUnknown as lost:
                head = await self._made_after_all(storing.move.expected, storing.move.written, lost)
        except BaseException as error:
            if storing.move.written_anyway:
                unknown = OutcomeUnknown("the move they were stored with was cancelled as it was written")
                self._give_back(storing.joined, unknown)
                raise _WrittenThoughCancelled from error
            self._give_back(storing.joined, error if isinstance(error, OutcomeUnknown) else None)
            if isinstance(error, StaleRoom):
                log.info("room %s changed on another node (or here, unstored); catching up", self.name)
            raise
        finally:
            self._storing = None
        self.head = head
        joined_events = sum(len(entry.changes.events) for entry in storing.joined if entry.changes is not None)
        self._joined_stored = (head.seq - joined_events, storing.joined)
        self._metrics.commit_seconds.observe(time.perf_counter() - started)

    def _join(self, entry: _Queued) -> bool:
        """Make ``entry``'s move at once, on top of the room's move waiting to be stored,
        if no writer has taken that yet and no move that came earlier waits: it is then
        stored in the same commit. Whether it did. What the move returns (or raises) is
        given once the store succeeds: it was decided on a table not yet stored."""
        storing = self._storing
        if storing is None or self._queued or self._suspect or not self._store.waiting(storing.move):
            return False
        try:
            entry.result, entry.changes = entry.context.run(self._make, entry.move)
        except Exception as error:  # a rule broken (or a bug): the mover's reply, once stored
            entry.error = error
        if entry.changes is not None:
            self._store.add_to(storing.move, entry.changes)
        entry.settled = asyncio.get_running_loop().create_future()
        storing.joined.append(entry)
        return True

    def _give_back(self, joined: list[_Queued], unknown: OutcomeUnknown | None = None) -> None:
        """The store that ``joined`` were made on top of failed: undo them, the last
        first, and queue them again, first, in the order they came, to be made again as
        if each had come alone; or, if that store may have been made after all
        (``unknown``), give each that error instead. (Those whose mover is gone are
        dropped: never made.)"""
        for entry in reversed(joined):
            if entry.changes is not None:
                self.table.undo(entry.changes)
        waiting = [entry for entry in joined if entry.settled is not None and not entry.settled.done()]
        if unknown is None:
            self._queued[:0] = waiting
        for entry in waiting:
            settled = cast("asyncio.Future[bool]", entry.settled)
            entry.reset()
            if unknown is None:
                settled.set_result(False)
            else:
                entry.error, entry.done = unknown, True
                settled.set_result(True)

    async def _made_after_all(self, before: LogHead, after: LogHead, lost: OutcomeUnknown) -> LogHead:
        """A store taking the room from ``before`` to ``after`` lost its commit's answer
        (``lost``): ``after`` if the room's stored log shows that the commit was made.
        Raises :class:`DatabaseUnavailable` if it was not (or wrote nothing), and
        ``lost`` again if the database cannot say."""
        try:
            made = after.seq > before.seq and await self._store.holds(self.id, before, after)
        except Exception as checking:
            log.warning("room %s: a commit's answer was lost (%s), and the check's too (%s)", self.name, lost, checking)
            raise lost from checking
        if not made:
            raise DatabaseUnavailable(f"{lost}; it was not made") from lost
        log.warning("room %s: a commit's answer was lost (%s), but it was made", self.name, lost)
        return after

    def _tell_joined(self) -> None:
        """Tell the moves stored with the last store (:meth:`_join`), after it, each in its
        mover's context, and let their movers go on (each even if telling one failed)."""
        seq, joined = self._joined_stored
        self._joined_stored = (0, [])
        for entry in joined:
            try:
                if entry.changes is not None:
                    entry.context.run(self._tell, seq, entry.changes.events)
                    seq += len(entry.changes.events)
            except Exception:
                log.exception("could not tell a move in room %s", self.name)
            finally:
                entry.done = True
                if entry.settled is not None and not entry.settled.done():
                    entry.settled.set_result(True)

    async def _perform_claimed(
        self, move: Callable[[GameTable], T], context: contextvars.Context | None
    ) -> tuple[T, int, list[Event]]:
        """:meth:`perform`'s second try, holding the room's row: catch up (or, if this
        copy is not what the database holds, reload), move, store."""
        changes = None
        head_before = head_after = EMPTY_LOG
        try:
            try:
                async with self._store.claimed(self.id) as claim:
                    await self._catch_up(claim.events)
                    if self.head != claim.head:
                        await self._reload()  # told of moves that were never stored, or not so
                    result, changes = context.run(self._make, move) if context is not None else self._make(move)
                    if changes is None:
                        return result, self.seq, []
                    seq_before, head_before = self.seq, self.head
                    started = time.perf_counter()
                    head_after = await claim.store(self.head, self.table.state, changes)
                    self._metrics.commit_seconds.observe(time.perf_counter() - started)
            except OutcomeUnknown as lost:
                await self._made_after_all(head_before, head_after, lost)
        except BaseException:
            if changes is not None:
                self._undo_unstored(changes)
            raise
        assert changes is not None  # stored (a move that changed nothing returned above)
        self.head = head_after
        return result, seq_before, changes.events

    def _make(self, move: Callable[[GameTable], T]) -> tuple[T, Changes | None]:
        """Make ``move`` on the table: what it returns, and what it changed (None if it
        changed nothing). A move that raises is undone."""
        try:
            result = move(self.table)
            if self.table.has_changes:
                self.table.settle()
        except BaseException:
            self.table.undo(self.table.take_changes())
            raise
        changes = self.table.take_changes()
        return result, changes if changes.events else None

    def _tell(self, seq_before: int, events: list[Event]) -> None:
        """Show stored events here, and tell the other nodes."""
        self._announce(self, events)
        self._hub.peers.room_events(self.id, seq_before, events)
        self.reschedule()

    # -- moves the table makes by itself ---------------------------------------------------

    def enter(self, player: OnlinePlayer) -> None:
        super().enter(player)
        self.reschedule()

    def leave(self, player: OnlinePlayer) -> None:
        super().leave(player)
        self.reschedule()

    def remote_changed(self) -> None:
        self.reschedule()

    async def _behind(self) -> bool:
        """Whether another node has stored moves this node has not heard of yet."""
        return self._hub.peers.shared and (await self._store.seq(self.id) or 0) > self.seq

    def _undo_unstored(self, changes: Changes) -> None:
        # Most likely nothing was stored; but a commit interrupted at the wrong moment
        # may have been, so the next move first catches up.
        self.table.undo(changes)
        self._suspect = True

    @property
    def busy(self) -> bool:
        """Whether a move is being made or stored (or news taken in) right now."""
        return self._lock.locked()

    async def inspect(self, look: Callable[[GameTable], T]) -> T:
        """Read the table between moves, never while one is being stored. (After a failed
        store this is the table as undone in memory; the next move catches up.)"""
        async with self._lock:
            return look(self.table)

    async def receive(self, seq_before: int, seq_after: int, events: list[Event] | None) -> None:
        """Another node stored ``events``, taking the room from ``seq_before`` to
        ``seq_after``: make them here and show them. Events this node already has are
        ignored; if some before them are missing (or ``events`` is None: too many to
        send), they all come from the database instead, in order."""
        async with self._lock:
            if seq_after <= self.seq:
                return
            if seq_before != self.seq or events is None or self._suspect:
                await self._catch_up(self._store.events)
                return
            try:
                for event in events:
                    for delta in event.deltas:
                        self.table.state.apply(delta)
            except (KeyError, ValueError, IndexError, TypeError):
                log.exception("room %s: events %d-%d do not apply; reloading", self.name, seq_before + 1, seq_after)
                await self._reload_and_show(seq_before)
                return
            self.head = LogHead(seq_after, chain(self.head.digest, events))
            self._announce(self, events)
            self.reschedule()

    async def hear(self, text: Text, exclude: int | None, speaker: int | None = None) -> None:
        """Show what was said here on another node (by account ``speaker``), in its place
        among the room's events."""
        async with self._lock:
            self.deliver(text, exclude, speaker)

    async def catch_up(self) -> None:
        """Make and show whatever the database holds past this node's copy of the room."""
        async with self._lock:
            await self._catch_up(self._store.events)

    async def _catch_up(self, read_events: Callable[[int, int], Awaitable[list[LoggedEvent]]]) -> None:
        seq_before = self.seq
        missed = await read_events(self.id, seq_before)
        if not missed:
            self._suspect = False
            return
        try:
            if [e.seq for e in missed] != list(range(seq_before + 1, seq_before + 1 + len(missed))):
                raise ValueError("the stored events do not follow on")
            for logged in missed:
                for delta in logged.event.deltas:
                    self.table.state.apply(delta)
        except (KeyError, ValueError, IndexError, TypeError):
            log.exception("room %s: the log from seq %d does not apply; reloading", self.name, seq_before + 1)
            await self._reload_and_show(seq_before)
            return
        events = [logged.event for logged in missed]
        self.head = LogHead(missed[-1].seq, chain(self.head.digest, events))
        self._suspect = False
        with as_news():
            self._announce(self, events)
        self.reschedule()

    async def reload_unless_stored(self) -> None:
        """Load the room afresh from the database unless this copy is what it holds, or
        only behind it (which a catch-up mends): a copy ahead of the database, or at its
        seq with another digest, was told of events that were never stored."""
        async with self._lock:
            stored = await self._store.head(self.id)
            if stored is None or self.seq < stored.seq or self.head == stored:
                return
            await self._reload()

    async def _reload(self) -> None:
        stored = await self._store.load(self.id)
        if stored is None:
            raise StaleRoom(self.id)
        log.warning("room %s: reloading from the database (seq %d here, %d there)", self.name, self.seq, stored.seq)
        self.table = self.kind.table(stored.state, **self.table_options)
        self.head, self._suspect = stored.head, False
        self.spectator_rules = dict(stored.spectators)
        self.reschedule()

    async def _reload_and_show(self, seq_before: int) -> None:
        """Load the room afresh and show the events after ``seq_before`` (the last resort,
        when the events cannot be made on the table in memory)."""
        await self._reload()
        missed = await self._store.events(self.id, after_seq=seq_before)
        with as_news():
            self._announce(self, [logged.event for logged in missed if logged.seq <= self.seq])

    async def events(self, after_seq: int = 0, last: int | None = None) -> list[LoggedEvent]:
        """The room's stored events after ``after_seq`` (only the ``last`` few if given)."""
        return await self._store.events(self.id, after_seq=after_seq, last=last)

    async def events_held(self, after_seq: int) -> list[LoggedEvent]:
        """The events after ``after_seq`` that this copy of the room holds (and has shown
        its players), from the database: those stored since it last looked are left to
        be shown as they come."""
        held: list[LoggedEvent] = []
        while self.seq > (since := held[-1].seq if held else after_seq):
            more = [logged for logged in await self.events(after_seq=since) if logged.seq <= self.seq]
            if not more:
                break
            held += more
        return held

    async def results(self, last: int) -> list[GameRecord]:
        """How the room's ``last`` finished games ended, the latest first."""
        return await self._store.results(self.id, last)


class RoomRegistry:
    """Every game room of this node, loaded from the database when first used and let go
    again when nobody here has used it for a while (:meth:`unload_idle`)."""

    def __init__(
        self,
        store: RoomStore,
        announce: Announcer,
        hub: Hub,
        table_options: Mapping[str, Any] | None = None,
        rooms_per_player: int | None = None,
        metrics: Metrics = UNWATCHED,
    ) -> None:
        self.store = store
        self.hub = hub
        self.metrics = metrics
        self._announce = announce
        #: What the server tells every game's tables (limits, by the names the games
        #: read: see :meth:`GameKind.table`), and rooms a player may host (None: no limit).
        self.table_options: Mapping[str, Any] = table_options or {}
        self.rooms_per_player = rooms_per_player
        self._rooms: dict[int, GameRoom] = {}
        self._loading: dict[int, asyncio.Task[GameRoom | None]] = {}
        #: Each loaded room's seq in the database at the last patient reconcile, and the
        #: loaded rooms it found deleted.
        self._seen_ahead: dict[int, int] = {}
        self._seen_deleted: set[int] = set()

    def loaded(self) -> list[GameRoom]:
        return list(self._rooms.values())

    async def get(self, room_id: int) -> GameRoom | None:
        """The room with that id, loading it if this node has not yet. A loaded room is
        given without yielding to the event loop: a player who holds a room across
        awaits gets it again here right before going in, so as not to enter a copy let
        go meanwhile (:meth:`unload_idle`), which no one else here would find."""
        room = self._rooms.get(room_id)
        if room is not None:
            room.used_at = time.monotonic()
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
        if stored is None or stored.archived:
            return None
        room = GameRoom(stored, self.store, self._announce, self.hub, self.table_options, self.metrics)
        self._rooms[room_id] = room
        self.hub.add_place(room)
        self.hub.peers.room_loaded(room_id)
        room.reschedule()
        return room

    def loaded_room(self, room_id: int) -> GameRoom | None:
        """The room with that id if this node has it loaded (no database access)."""
        return self._rooms.get(room_id)

    async def reconcile(self, patient: bool = False) -> int:
        """Catch up every loaded room that the database shows has moved on without this
        node hearing of it; how many had. ``patient``: only as far as the database was
        at the last patient check, so that news still on its way (from moves stored a
        moment ago) arrives as news, in its place among what was said, rather than
        being read from the database first. A room whose copy is ahead of the database,
        or at its seq with another digest, is reloaded. A room deleted behind this node's
        back is closed here (when ``patient``, once found deleted at two checks running:
        the news of who deleted it comes first, unless it was lost)."""
        if not self._rooms:
            return 0
        rooms = list(self._rooms.values())
        deleted = await self.store.archived_among(room.id for room in rooms)
        if patient:
            deleted, self._seen_deleted = deleted & self._seen_deleted, deleted
        for room_id in deleted:
            log.info("room %s was deleted on another node; closing it here", room_id)
            self.close(room_id, said(ARCHIVED_NOTICE))
        rooms = [room for room in rooms if room.id in self._rooms]
        heads = await self.store.heads()
        stored = {room_id: head.seq for room_id, head in heads.items()}
        if patient:
            due, self._seen_ahead = self._seen_ahead, {r.id: stored[r.id] for r in rooms if r.id in stored}
        else:
            due = stored
        for room in rooms:
            head = heads.get(room.id)
            if head is not None and (head.seq < room.seq or (head.seq == room.seq and head != room.head)):
                # Told of events that were never stored (a bug, or someone else
                # publishing as a node). The database is the truth.
                await room.reload_unless_stored()
        behind = [room for room in rooms if due.get(room.id, room.seq) > room.seq]
        for room in behind:
            log.info("room %s: seq %d in the database, %d here; catching up", room.name, due[room.id], room.seq)
            await room.catch_up()
        return len(behind)

    async def mark_absentees(self, grace: float) -> None:
        """In every loaded room, mark the seated players away for ``grace`` seconds or
        more as not counting in the vote, and those back as counting again (moves of the
        log: on several nodes at once, the second finds nothing left to do)."""
        for room in list(self._rooms.values()):
            gone, back = room.overdue(grace)
            for account_id in gone:
                await room.perform(_marking_absent(account_id, True))
            for account_id in back:
                await room.perform(_marking_absent(account_id, False))

    async def archive(self, room: GameRoom, notice: Text, actor: int) -> bool:
        """Delete (archive) ``room`` for account ``actor``: everyone in it, on every node,
        goes to the lobby, told ``notice`` (but ``actor``). False if it was already gone."""
        archived = await self.store.archive(room.id)
        if archived:
            self.hub.peers.room_closed(room.id, notice)
            self.close(room.id, notice, untold=actor)
        return archived

    async def archive_unused(self, unused_seconds: float) -> list[str]:
        """Archive the rooms nobody (on any node) is in and nothing has happened in for
        ``unused_seconds``; their names."""
        since = datetime.now(UTC) - timedelta(seconds=unused_seconds)
        occupied = {room_id for room_id in map(room_id_in, self.hub.occupied_places()) if room_id is not None}
        names = []
        for room_id in await self.store.archive_unused(since, occupied):
            room = self._rooms.get(room_id)
            names.append(room.name if room is not None else f"#{room_id}")
            self.hub.peers.room_closed(room_id, said(ARCHIVED_NOTICE))
            self.close(room_id, said(ARCHIVED_NOTICE))
        return names

    async def closed_elsewhere(self, room_id: int, notice: Text) -> None:
        """Another node says it deleted or archived room ``room_id``: if the database
        agrees, close it here too."""
        if room_id in self._rooms and await self.store.archived_among([room_id]):
            self.close(room_id, notice)

    def close(self, room_id: int, notice: Text, untold: int | None = None) -> None:
        """Send this node's occupants of the deleted room ``room_id`` to the lobby, telling
        them ``notice`` (all but account ``untold``), and let the room go."""
        room = self._rooms.pop(room_id, None)
        if room is None:
            return
        for player in list(room.occupants.values()):
            self.hub.move(player, self.hub.lobby)
            if player.account_id != untold:
                player.send(notice)
        self._seen_ahead.pop(room_id, None)
        room.stop_acting()
        self.hub.remove_place(room)
        self.hub.peers.room_unloaded(room_id)

    def unload_idle(self, idle_seconds: float) -> list[GameRoom]:
        """Let go of the rooms nobody on this node is in and no command has found for
        ``idle_seconds`` (nor is using now, nor will move by itself: a game going on
        while its people are away): the database holds them, and they are read afresh
        when next used. Returns those let go."""
        deadline = time.monotonic() - idle_seconds
        idle = [
            room
            for room in self._rooms.values()
            if not room.occupants
            and room.used_at < deadline
            and not room.busy
            and room.due_at is None
            and not room.moving_by_itself
            and room.id not in self._loading
        ]
        for room in idle:
            self._unload(room)
        return idle

    def unload_unless_used(self, room: GameRoom) -> None:
        """Let go of ``room`` now if nobody on this node is in it or using it (its last
        player here was handed to another worker, which serves the room)."""
        if self._rooms.get(room.id) is room and not room.occupants and not room.busy and room.id not in self._loading:
            self._unload(room)

    def _unload(self, room: GameRoom) -> None:
        room.stop_acting()
        del self._rooms[room.id]
        self._seen_ahead.pop(room.id, None)
        self.hub.remove_place(room)
        self.hub.peers.room_unloaded(room.id)

    async def find(self, name: str) -> GameRoom | None:
        """The room called ``name`` (any letter case), or None; failing that, the one
        room whose name it is without accents (``Cajovna`` for ``Čajovňa``)."""
        key = folded(name)
        for room in self._rooms.values():
            if folded(room.name) == key:
                room.used_at = time.monotonic()
                return room
        room_id = await self.store.find_id(name)
        if room_id is None:
            unmarked = plain(name)
            found = [room_id for room_id, named in await self.store.open_names() if plain(named) == unmarked]
            room_id = found[0] if len(found) == 1 else None
        return await self.get(room_id) if room_id is not None else None

    async def refuse_new(self, name: str, maker: int) -> None:
        """Raise RoomNameTaken, or TooManyRooms, if :meth:`create` would now."""
        await self.store.refuse_new(name, maker, self.rooms_per_player)

    async def create(self, name: str, password_hash: str | None, maker: int, game: str = DEFAULT_KIND) -> GameRoom:
        """Store a new room of ``game`` made by account ``maker`` and load it; raises
        RoomNameTaken, or TooManyRooms when the maker hosts as many as a player may."""
        room_id = await self.store.create(
            name, game, password_hash, maker=maker, rooms_per_player=self.rooms_per_player
        )
        room = await self.get(room_id)
        assert room is not None
        return room

    async def with_seat_for(self, account_id: int) -> GameRoom | None:
        """The room where ``account_id`` is seated, if any (not one whose match they
        forfeited: see :meth:`GameTable.holds_seat`)."""
        for room in self._rooms.values():
            if room.is_seated(account_id):
                room.used_at = time.monotonic()
                return room
        for room_id in await self.store.rooms_with_seat(account_id):
            stored = await self.get(room_id)
            if stored is not None and stored.is_seated(account_id):
                return stored
        return None

    async def summaries(self) -> list[tuple[RoomSummary, GameRoom | None]]:
        """Every room as stored, with its live room where this node has it loaded."""
        return [(summary, self._rooms.get(summary.id)) for summary in await self.store.summaries()]


def _marking_absent(account_id: int, absent: bool) -> Callable[[GameTable], None]:
    """The move noting that ``account_id`` is away (``absent``) or back."""
    return lambda table: table.mark_absent(account_id, absent)
