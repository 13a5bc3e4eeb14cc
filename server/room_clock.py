"""The moves a room's table makes by itself (:meth:`games.base.GameTable.due`): a
computer player's turn, a person's turn timer, the next deal. Each is timed on one node
only, the first by name among the nodes of the seated people here, and made after its
delay through the room's :meth:`~server.rooms.GameRoom.perform`, like any player's move.
A table whose people have all gone pauses; one read afresh waits for one of them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from games.base import Due, GameTable, RuleViolation
from server.hub import Hub, OnlinePlayer, RemotePlayer
from server.metrics import Metrics

log = logging.getLogger("server.rooms")


class TableClock:
    """Mixed into :class:`server.rooms.GameRoom`: the timer of the move its table wants
    made by itself next, and the task making it."""

    # What it reads of the room.
    id: int
    name: str
    game: str
    table: GameTable
    occupants: dict[int, OnlinePlayer]
    remote: dict[int, RemotePlayer]
    _hub: Hub
    _metrics: Metrics
    perform: Callable[[Callable[[GameTable], Any]], Awaitable[Any]]

    if TYPE_CHECKING:

        @property
        def seq(self) -> int: ...

    def _start_clock(self) -> None:
        #: The timer of the move the table wants made by itself next, and the task making it.
        self._due_timer: asyncio.TimerHandle | None = None
        self._due_at = 0.0
        #: What the timer was set for: the log's seq, the reason and the seat.
        self._due_key: tuple[Any, str, int] | None = None
        #: Whether this node made the table's own moves when its people were last here.
        self._driving = False
        self._acting: asyncio.Task[None] | None = None

    def _driven_here(self) -> bool:
        """Whether this node makes the table's own moves. While seated people are in the
        room, the first by name of their nodes does. Once all have gone away, the node
        that made them last goes on alone: a person away is timed as one of two people
        would be (their timer runs out, the computer players play on). A room read
        afresh with none of its people in it waits for one."""
        people = {seat.account_id for seat in self.table.state.seats if not seat.bot}
        nodes = {self._hub.peers.node for account_id in self.occupants if account_id in people}
        nodes |= {player.node for account_id, player in self.remote.items() if account_id in people}
        if nodes:
            self._driving = min(nodes) == self._hub.peers.node
        return self._driving

    def reschedule(self) -> None:
        """Time the move the table wants made by itself now, if this node makes them, or
        forget it. Called whenever the table or who is here changes; a move already timed
        for the same point of the game (:attr:`Due.since`, else of the log) keeps its time:
        people coming and going do not put off a turn timer, nor does a setting changed
        mid-turn cut it short."""
        if self._acting is not None and not self._acting.done():
            return  # it reschedules when done
        due = self.table.due()
        if due is None or not self._driven_here():
            self._forget_due()
            return
        key = (self.point_of(due), due.reason, due.actor)
        if self._due_timer is not None and self._due_key == key:
            return
        self._forget_due()
        self._due_key = key
        loop = asyncio.get_running_loop()
        # Kept here: uvloop's call_later gives a Handle with no when() for a delay of 0.
        self._due_at = loop.time() + max(0.0, due.delay)
        self._due_timer = loop.call_at(self._due_at, self._act_now, due)

    @property
    def due_at(self) -> float | None:
        """When (the event loop's clock) this node makes the table's next move by itself,
        or None if it makes none now."""
        return self._due_at if self._due_timer is not None else None

    def point_of(self, due: Due) -> int:
        """The point of the game ``due`` is made for: its step, else the log's seq."""
        return self.seq if due.since is None else due.since

    @property
    def times_here(self) -> bool:
        """Whether this node makes the table's own moves, and so times its turns (see
        :meth:`_driven_here`)."""
        return self._driven_here()

    def turn_timer_left(self) -> float | None:
        """The seconds left on the turn timer this node runs for the point the table is at
        now; None if it runs none for it (none is due, another node times it, or the
        timer running is for an earlier point and is about to be timed afresh)."""
        due = self.table.due()
        if due is None or due.reason != "timer" or self._due_timer is None:
            return None
        if self._due_key != (self.point_of(due), due.reason, due.actor):
            return None
        return max(0.0, self._due_at - asyncio.get_running_loop().time())

    @property
    def moving_by_itself(self) -> bool:
        """Whether a move timed by :meth:`reschedule` is being made now."""
        return self._acting is not None and not self._acting.done()

    def _forget_due(self) -> None:
        if self._due_timer is not None:
            self._due_timer.cancel()
            self._due_timer = None

    def stop_acting(self) -> None:
        """Make no more moves by itself (the room is let go)."""
        self._forget_due()
        if self._acting is not None:
            self._acting.cancel()

    def _act_now(self, due: Due) -> None:
        self._due_timer = None
        self._acting = asyncio.create_task(self._act(due), name=f"room {self.id} {due.reason}")

    async def _act(self, due: Due) -> None:
        try:
            await self.perform(due.move)
            if due.reason == "bot":
                self._metrics.bot_moves.labels(self.game).inc()
        except RuleViolation as refused:
            # The table moved on since it was timed (on another node, say): nothing to do.
            log.info("room %s: %s move for seat %s refused: %s", self.name, due.reason, due.actor, refused)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("room %s: %s move for seat %s failed", self.name, due.reason, due.actor)
            return
        finally:
            self._acting = None
        self.reschedule()
