"""Group commit: many writers' work stored in one transaction.

Every caller waits for its own work to be stored before going on (a room tells no one of
a move before it is stored), but callers do not wait for each other: the writer takes
everything queued while the previous transaction was being written and writes it all in
one, so a busy server makes one disk flush (and a handful of statements) for dozens of
moves instead of one each, while a quiet one writes each move at once.

Where the database takes several writers at once (PostgreSQL), up to ``writers``
batches are written together: work that queues while every writer is busy starts
another, so a move waits for the round trips of its own batch, not those of the batch
before it as well. A room's moves are stored one batch after another anyway (it waits
for its store), and the rooms a batch claims are locked in the order of their ids, as
every node of a cluster locks them: batches written at once never deadlock.

Until a writer takes an item, the item may still change (:meth:`GroupCommit.waiting`): a
room adds the moves made while its move waits to that move, to be stored with it.

A waiter cancelled before a writer takes its item takes it out of the queue: it is never
written. Once taken, it is written all the same, and the cancelled waiter waits for that
to be over (whatever the writer reads of it stays as it was until then) and is told how
it went, before the cancellation goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar, cast

from persistence.database import Database, DatabaseUnavailable, Writing

log = logging.getLogger(__name__)

Item = TypeVar("Item")
Outcome = TypeVar("Outcome")

#: Writes a batch in the given transaction (plain synchronous SQLAlchemy, see
#: :meth:`Database.run_write`); for each item, its outcome, or the exception to raise for
#: it (then nothing of that item may have been written).
BatchWriter = Callable[[Writing, list[Item]], list[Outcome | Exception]]

#: Most items written in one transaction.
MAX_BATCH = 500


class GroupCommit(Generic[Item, Outcome]):
    """A queue of work and the tasks that write it, batch after batch (up to ``writers``
    batches at once)."""

    def __init__(
        self,
        database: Database,
        write: BatchWriter[Item, Outcome],
        writers: int = 1,
        answered: Callable[[], None] | None = None,
        cancelled_outcome: Callable[[Item, Outcome | BaseException], None] | None = None,
    ) -> None:
        self._database = database
        self._write = write
        #: Called once a batch's waiters have been told its outcome, in the turn of the
        #: event loop in which they go on, after them (to send what they wrote at once).
        self._answered = answered
        #: Told the outcome (or the error) of an item whose waiter was cancelled once a
        #: writer had taken it, before the cancellation goes on.
        self._cancelled_outcome = cancelled_outcome
        #: The outcomes of such items, by id, from the writer to the cancelled waiter.
        self._late: dict[int, asyncio.Future[Outcome]] = {}
        self._queue: list[tuple[Item, asyncio.Future[Outcome]]] = []
        #: The ids of the items queued and not taken by a writer yet.
        self._untaken: set[int] = set()
        #: The most batches written at once.
        self._most_writers = writers
        self._writers: set[asyncio.Task[None]] = set()
        #: How many of the writers are writing a batch (the others are about to take one).
        self._writing = 0
        self._loop: asyncio.AbstractEventLoop | None = None

    async def store(self, item: Item) -> Outcome:
        """Store ``item`` with whatever else is waiting; its outcome. Raises what the
        writer said for it, or :class:`DatabaseUnavailable` if the batch failed. Cancelled
        before a writer takes it, it is never written; once taken, it is written all the
        same, and the cancellation waits for that (see the module's help)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            # Looked up once per loop: on Python 3.11 asyncio.get_running_loop() is a
            # system call (the process id), and this runs for every move.
            loop = self._loop = asyncio.get_running_loop()
        future: asyncio.Future[Outcome] = loop.create_future()
        self._queue.append((item, future))
        self._untaken.add(id(item))
        # A writer about to take a batch takes this too; otherwise one more, if allowed.
        if self._writing == len(self._writers) < self._most_writers:
            writer = asyncio.create_task(self._write_queued())
            self._writers.add(writer)
            # A writer leaves the set itself when done (see _write_queued); this is for one
            # cancelled before it ever ran.
            writer.add_done_callback(self._writers.discard)
        try:
            return await future
        except asyncio.CancelledError:
            if id(item) in self._untaken:
                self._untaken.discard(id(item))
                self._queue = [queued for queued in self._queue if queued[0] is not item]
            else:
                outcome = await self._outcome_once_written(item)
                if self._cancelled_outcome is not None:
                    self._cancelled_outcome(item, outcome)
            raise

    async def _outcome_once_written(self, item: Item) -> Outcome | BaseException:
        """The outcome of ``item``, taken by a writer, once it is written, however often
        the waiter is cancelled meanwhile: a writer's batch ends in the database's time."""
        late = self._late.setdefault(id(item), asyncio.get_running_loop().create_future())
        try:
            while not late.done():
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.wait((late,))  # which does not cancel it
        finally:
            del self._late[id(item)]
        error = late.exception()
        return error if error is not None else late.result()

    def _tell_late(self, item: Item, outcome: Outcome | BaseException) -> None:
        """Hand the outcome of ``item`` to its waiter, cancelled once the item was taken."""
        late = self._late.setdefault(id(item), asyncio.get_running_loop().create_future())
        if isinstance(outcome, BaseException):
            late.set_exception(outcome)
        else:
            late.set_result(outcome)

    def waiting(self, item: Item) -> bool:
        """Whether ``item`` is queued and no writer has taken it yet: until one does, it
        may still be changed, and is written as it is then."""
        return id(item) in self._untaken

    async def _write_queued(self) -> None:
        try:
            while self._queue:
                batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
                if self._queue:
                    self._untaken.difference_update(id(item) for item, _ in batch)
                else:
                    self._untaken.clear()
                self._writing += 1
                try:
                    await self._write_batch(batch)
                finally:
                    self._writing -= 1
        finally:
            # At once, not by the task's done callback: a waiter that this writer has just
            # answered runs before that, and what it stores next needs a writer.
            self._writers.discard(cast("asyncio.Task[None]", asyncio.current_task()))

    async def _write_batch(self, batch: list[tuple[Item, asyncio.Future[Outcome]]]) -> None:
        """Write ``batch`` in one transaction and tell each waiter its outcome. If it
        fails for a reason other than the database being unavailable (one item's data the
        database refuses, say), nothing of it was written, and each item is written again
        alone: one writer's bad item fails only its own writer."""
        items = [item for item, _ in batch]
        told = False

        def write_batch(writing: Writing) -> list[Outcome | Exception]:
            return self._write(writing, items)

        def tell_all(outcomes: Sequence[Outcome | BaseException]) -> None:
            # As soon as the commit is made (see Database.run_write): the waiters go on in
            # the turn of the event loop in which this writer does. Once only: a writer
            # cancelled while the commit thread commits has told them it was interrupted.
            nonlocal told
            if told:
                return
            told = True
            for (item, future), outcome in zip(batch, outcomes, strict=True):
                self._tell(item, future, outcome)
            if self._answered is not None and self._loop is not None:
                # After the waiters' own steps, which setting their futures scheduled.
                self._loop.call_soon(self._answered)

        try:
            await self._database.run_write(write_batch, tell_all)
        except DatabaseUnavailable as error:
            tell_all([error] * len(batch))
        except Exception as error:
            if told:  # after the commit, whose outcomes were told: a bug, not theirs
                log.exception("a batch was committed and told, and then failed")
                return
            if len(batch) > 1:
                for one in batch:
                    await self._write_batch([one])
                return
            tell_all([error])
        except BaseException:
            tell_all([DatabaseUnavailable("the write was interrupted")] * len(batch))
            raise

    def _tell(self, item: Item, future: asyncio.Future[Outcome], outcome: Outcome | BaseException) -> None:
        """Tell the waiter of ``item`` its outcome (or the error), cancelled or not."""
        if future.done():  # its waiter was cancelled once the item was taken
            self._tell_late(item, outcome)
        elif isinstance(outcome, BaseException):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)
