"""A batch's own cost on the event loop (``python -m bench batch``): the work around the
statements of every group commit (a connection, BEGIN, handing the statements and the
commit to the commit thread, taking the result back), measured without the noise of a
server under load.

One statement that changes nothing is written again and again with
:meth:`persistence.database.Database.run_write`, each a batch of its own, one after the
other, in this process (tuned as the server is: :func:`server.cli.tune_interpreter`), on a
fresh database of each backend, in :data:`ROUNDS` rounds. The figures are the median
round's: the event loop's thread's CPU a batch (``loop_cpu_us_per_batch``: what every
batch costs the players' loop before its moves' own rows) and its wall time
(``wall_us_per_batch``: with the commit and, on SQLite, the flush to disk). On PostgreSQL
the server's own CPU is not counted.
"""

from __future__ import annotations

import time
from typing import Any

from bench.scenarios import fresh_database
from persistence.database import Database, Writing
from server.cli import tune_interpreter

#: Batches written before the measured ones (connections made, statements prepared).
WARM_UP = 50
#: Rounds the batches are timed in (the figures: the median round's, this machine's
#: noise being what it is).
ROUNDS = 5
#: A statement every migrated database can run that changes nothing.
STATEMENT = "UPDATE alembic_version SET version_num = version_num"


def _one_statement(writing: Writing) -> None:
    writing.with_commit.append((STATEMENT, []))


async def batch_cost(url: str, batches: int) -> dict[str, Any]:
    """Migrate the database at ``url``, write ``batches`` batches of one statement, and
    give what each cost."""
    database = Database(url)
    rounds: list[tuple[float, float]] = []
    each = max(1, batches // ROUNDS)
    try:
        await database.upgrade()
        for _ in range(WARM_UP):
            await database.run_write(_one_statement)
        for _ in range(ROUNDS):
            cpu, wall = time.thread_time(), time.perf_counter()
            for _ in range(each):
                await database.run_write(_one_statement)
            rounds.append(((time.thread_time() - cpu) / each, (time.perf_counter() - wall) / each))
    finally:
        await database.dispose()
    cpu, wall = sorted(rounds)[len(rounds) // 2]
    return {
        "batches": each * ROUNDS,
        "loop_cpu_us_per_batch": round(cpu * 1e6, 1),
        "wall_us_per_batch": round(wall * 1e6, 1),
    }


async def run(backend: str, batches: int) -> dict[str, Any]:
    """:func:`batch_cost` on a fresh database of ``backend``, in this process tuned as the
    server's is."""
    tune_interpreter()
    async with fresh_database(backend) as url:
        return {"scenario": "batch", "backend": backend, **await batch_cost(url, batches)}
