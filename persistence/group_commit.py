"""Group commit: many writers' work stored in one transaction.

Every caller waits for its own work to be stored before going on (a room tells no one of
a move before it is stored), but callers do not wait for each other: the writer takes
everything queued while the previous transaction was being written and writes it all in
one, so a busy server makes one disk flush (and a handful of statements) for dozens of
moves instead of one each, while a quiet one writes each move at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Generic, TypeVar

from persistence.database import Database, DatabaseUnavailable, Writing

Item = TypeVar("Item")
Outcome = TypeVar("Outcome")

#: Writes a batch in the given transaction (plain synchronous SQLAlchemy, see
#: :meth:`Database.run_write`); for each item, its outcome, or the exception to raise for
#: it (then nothing of that item may have been written).
BatchWriter = Callable[[Writing, list[Item]], list[Outcome | Exception]]

#: Most items written in one transaction.
MAX_BATCH = 500


class GroupCommit(Generic[Item, Outcome]):
    """A queue of work and the task that writes it, batch after batch."""

    def __init__(self, database: Database, write: BatchWriter[Item, Outcome]) -> None:
        self._database = database
        self._write = write
        self._queue: list[tuple[Item, asyncio.Future[Outcome]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def store(self, item: Item) -> Outcome:
        """Store ``item`` with whatever else is waiting; its outcome. Raises what the
        writer said for it, or :class:`DatabaseUnavailable` if the batch failed."""
        loop = self._loop
        if loop is None or loop.is_closed():
            # Looked up once per loop: on Python 3.11 asyncio.get_running_loop() is a
            # system call (the process id), and this runs for every move.
            loop = self._loop = asyncio.get_running_loop()
        future: asyncio.Future[Outcome] = loop.create_future()
        self._queue.append((item, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_queued())
        return await future

    async def _write_queued(self) -> None:
        while self._queue:
            batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
            await self._write_batch(batch)

    async def _write_batch(self, batch: list[tuple[Item, asyncio.Future[Outcome]]]) -> None:
        """Write ``batch`` in one transaction and tell each waiter its outcome. If it
        fails for a reason other than the database being unavailable (one item's data the
        database refuses, say), nothing of it was written, and each item is written again
        alone: one writer's bad item fails only its own writer."""
        items = [item for item, _ in batch]

        def write_batch(writing: Writing) -> list[Outcome | Exception]:
            return self._write(writing, items)

        try:
            outcomes = await self._database.run_write(write_batch)
        except DatabaseUnavailable as error:
            for _, future in batch:
                if not future.done():
                    future.set_exception(error)
            return
        except Exception as error:
            if len(batch) > 1:
                for one in batch:
                    await self._write_batch([one])
                return
            _, future = batch[0]
            if not future.done():
                future.set_exception(error)
            return
        except BaseException:
            for _, future in batch:
                if not future.done():
                    future.set_exception(DatabaseUnavailable("the write was interrupted"))
            raise
        for (_, future), outcome in zip(batch, outcomes, strict=True):
            if future.done():
                continue
            if isinstance(outcome, Exception):
                future.set_exception(outcome)
            else:
                future.set_result(outcome)
