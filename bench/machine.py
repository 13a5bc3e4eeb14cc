"""How fast this machine runs Python at the moment, so that figures taken on different
days can be set side by side.

This project's machine has run the same Python at speeds more than two times apart from
one day to the next, and within a day (docs/benchmarks-history.md: a loop took 0.67 s one evening,
0.86 to 1.72 s over another day), and the server's CPU a move with it. Every run that
starts our server therefore times a plain Python loop just before it starts (nothing else
of the benchmark running), and gives the server's CPU a move in iterations of that loop
too: a figure that stays put from a fast machine to a slow one, as far as the server's
work slows as Python does, and only as far as the machine's speed just before a run is
its speed during it (within an hour of 2026-12-03 the same code's figure spread from
15,000 to 31,000 iterations a move, about as much as its µs).

The loop runs in a function (its variables local). The "pure-Python loop" the older
figures of docs/benchmarks-history.md quote ran the same 20 million iterations at a
script's top level, its variables global, which takes 2.6-2.7 times as long: 1.58-1.65 s
against 0.59-0.65 s for this one, back to back on 2026-12-03.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

#: The reference loop's iterations: ``for i in range(LOOP_ITERATIONS): s += i``.
LOOP_ITERATIONS = 20_000_000
#: It is timed in this many parts, and the fastest part counts: a part that another
#: process interrupted is left out.
PARTS = 5


def loop_seconds() -> float:
    """Seconds the reference loop takes on this machine now: its fastest fifth, times five."""
    fastest = float("inf")
    for _ in range(PARTS):
        began = time.perf_counter()
        total = 0
        for i in range(LOOP_ITERATIONS // PARTS):
            total += i
        fastest = min(fastest, time.perf_counter() - began)
    return fastest * PARTS


def cores_at_once(alone: float, processes: int = 2) -> float:
    """How many cores' worth of Python the machine gives ``processes`` processes busy at
    once: each times the reference loop at the same time, and each counts as the share
    of a core ``alone`` (the loop's seconds with nothing else running) over its own
    seconds. A virtual machine's cores may be shared with other machines, or be two
    threads of one physical core: then two busy processes get less than two cores, and
    two workers can serve no more than that."""
    with ProcessPoolExecutor(processes) as pool:
        timed = [pool.submit(loop_seconds) for _ in range(processes)]
        return sum(min(1.0, alone / each.result()) for each in timed)


def with_machine_speed(result: dict[str, Any], seconds: float, cores: float | None = None) -> dict[str, Any]:
    """``result`` with the machine's speed when it was taken: ``machine_loop_s``, the
    reference loop's seconds; ``machine_cores``, what :func:`cores_at_once` found, if
    given; and where the result has the server's CPU a move, ``server_cpu_loops_per_move``:
    that CPU in iterations of the reference loop."""
    figures = {**result, "machine_loop_s": round(seconds, 2)}
    if cores is not None:
        figures["machine_cores"] = round(cores, 2)
    per_move = result.get("server_cpu_us_per_move")
    if per_move is not None and seconds > 0:
        figures["server_cpu_loops_per_move"] = round(per_move * 1e-6 * LOOP_ITERATIONS / seconds)
    return figures
