"""A node's chores, each a task of its own that looks again a few times per period: rooms
nobody here uses are let go, seated players away past the grace period stop counting in
votes (and count again once back), rooms unused for long are archived, accounts whose
owners asked for deletion are deleted after the cool-off, and the event loop's lag is
measured."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

from persistence.database import DatabaseUnavailable
from server.config import Settings
from server.metrics import Metrics
from server.rooms import RoomRegistry

log = logging.getLogger("server.app")


class Housekeeping:
    """The chores of a node, started with it and stopped with it."""

    def __init__(
        self,
        settings: Settings,
        rooms: RoomRegistry,
        metrics: Metrics,
        delete_due_accounts: Callable[[], Awaitable[object]],
        delete_cooloff: float,
        chores: Sequence[tuple[Callable[[], Coroutine[Any, Any, None]], str]] = (),
    ) -> None:
        self.settings = settings
        self.rooms = rooms
        self.metrics = metrics
        #: Deletes the accounts due (the commands' work, handed in by the app).
        self._delete_due_accounts = delete_due_accounts
        self._delete_cooloff = delete_cooloff
        #: More chores, each made by its function and named: the commands' own.
        self._more_chores = chores
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        chores = [
            (self._unload_idle_rooms(), "room unloader"),
            (self._mark_absentees(), "absentee marker"),
            (self._delete_accounts(), "account deleter"),
            (self.metrics.watch_loop_lag(), "loop lag watcher"),
        ]
        if self.settings.room_archive_seconds > 0:
            chores.append((self._archive_unused_rooms(), "room archiver"))
        chores += [(make(), name) for make, name in self._more_chores]
        self._tasks = [asyncio.create_task(chore, name=name) for chore, name in chores]

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()

    async def _unload_idle_rooms(self) -> None:
        """Let go of rooms nobody here uses, so that memory holds the rooms in use only."""
        idle = self.settings.room_unload_seconds
        while True:
            await asyncio.sleep(idle / 2)
            for room in self.rooms.unload_idle(idle):
                log.debug("room %s let go: nobody here has used it for %.0f s", room.name, idle)

    async def _mark_absentees(self) -> None:
        """Stop counting in votes the seated players away longer than the grace period,
        and count those back again (looking a few times per grace period)."""
        grace = self.settings.away_grace_seconds
        while True:
            await asyncio.sleep(max(0.05, min(grace / 4, 5.0)))
            try:
                await self.rooms.mark_absentees(grace)
            except DatabaseUnavailable as outage:
                log.warning("could not mark away players: %s", outage)
            except Exception:
                log.exception("error marking away players")

    async def _archive_unused_rooms(self) -> None:
        """Archive the rooms unused for ``room_archive_seconds`` (looking a few times per
        that time, at most every five minutes)."""
        unused = self.settings.room_archive_seconds
        while True:
            await asyncio.sleep(max(0.1, min(unused / 4, 300.0)))
            try:
                for name in await self.rooms.archive_unused(unused):
                    log.info("room %s archived: unused for %.0f s", name, unused)
            except DatabaseUnavailable as outage:
                log.warning("could not archive unused rooms: %s", outage)
            except Exception:
                log.exception("error archiving unused rooms")

    async def _delete_accounts(self) -> None:
        """Delete the accounts whose owners asked for it once their cool-off is over
        (looking a few times per cool-off, at most every minute)."""
        while True:
            await asyncio.sleep(max(0.1, min(self._delete_cooloff / 4, 60.0)))
            try:
                await self._delete_due_accounts()
            except DatabaseUnavailable as outage:
                log.warning("could not delete the accounts due: %s", outage)
            except Exception:
                log.exception("error deleting the accounts due")
