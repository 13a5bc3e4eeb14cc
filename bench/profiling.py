"""Where the server's time goes under a benchmark's load, by stage (``bench game --profile``).

py-spy samples the running server during the measured run (``py-spy record --gil
--nonblocking``: only the samples in which a thread holds the GIL, that is the event
loop's work and whatever competes with it for the GIL, taken without pausing the
process), and each sample is counted in the first stage of :data:`STAGES` whose frames
it passes through. The shares are what docs/benchmarks.md reports as the server's time
"by stage"; the raw stacks are kept, one line a stack, for a closer look (each line is
the stack's frames from the outermost, separated by ``;``, then the number of samples).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

#: The stages, in the order a sample is matched (the first whose frames it passes through
#: counts it): each is a name, and pieces of py-spy's frame names (``function (file:line)``).
STAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("socket writes", ("ClientTransport.write (", "WebSocketResponse.send_str (", "WebSocketWriter.")),
    # The loop's part and the commit thread's (when it holds the GIL, the loop waits).
    (
        "storing a batch",
        ("GroupCommit.", "_sqlite_write", "RoomStore.store (", "GameRoom._store_made (", "RowWriter.", "do_begin ("),
    ),
    ("views (GMCP and the web)", ("send_views", "send_table", "send_view (", "send_gmcp (")),
    ("rendering events", ("announce (", "announce.<locals>", "render_event (")),
    ("delivering text", ("Connection.flush (", "Connection._write (", "_send_frames (")),
    (
        "running commands",
        ("CommandProcessor.", "GameRoom.perform (", "GameRoom._perform", "perform (", "perform_on (", "GameCommand."),
    ),
    (
        "reading input",
        ("data_received (", "Connection.lines (", "_serve_lines (", "read_text (", "LineSplitter.", "TelnetReader."),
    ),
    ("metrics scrapes", ("exposition (", "prometheus_client")),
)
#: A sample with no Python frame above the event loop's ``run``: uvloop's own work
#: (polling the sockets, calling back, the writes it queued), counted apart.
LOOP_ITSELF = ("event loop's own work", "Runner.run (")
#: What a sample no stage counts is put under.
OTHER = "other"
#: Samples a second (py-spy's rate).
RATE = 250


def py_spy() -> str:
    """The py-spy program: beside this interpreter (a virtual environment's), or on the PATH."""
    beside = Path(sys.executable).with_name("py-spy")
    found = str(beside) if beside.exists() else shutil.which("py-spy")
    if found is None:
        raise RuntimeError("--profile needs py-spy: .venv/bin/pip install py-spy (it is in the test extras)")
    return found


def start(pid: int, seconds: float, raw: Path) -> subprocess.Popen[bytes]:
    """Start sampling process ``pid`` for ``seconds``, its stacks written to ``raw``."""
    command = [py_spy(), "record", "--pid", str(pid), "--gil", "--nonblocking", "--rate", str(RATE)]
    command += ["--duration", str(max(1, round(seconds))), "--format", "raw", "--output", str(raw)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def finish(recorder: subprocess.Popen[bytes], raw: Path, seconds: float) -> dict[str, Any]:
    """Wait for ``recorder`` to end and read what it wrote: the figures of :func:`by_stage`
    and where the raw stacks are (or why there are none)."""
    try:
        _, errors = recorder.communicate(timeout=seconds + 30)
    except subprocess.TimeoutExpired:
        recorder.kill()
        recorder.communicate()
        return {"error": "py-spy did not finish"}
    if recorder.returncode != 0 or not raw.exists():
        said = errors.decode(errors="replace").strip().splitlines()
        return {"error": f"py-spy failed ({recorder.returncode}): {said[-1] if said else 'no output'}"}
    return {**by_stage(raw.read_text()), "raw": str(raw)}


def by_stage(raw: str) -> dict[str, Any]:
    """The share of the samples in ``raw`` (py-spy's raw format) each stage took, in
    percent, biggest first, with the few functions most often on top of the stack
    among those no stage counts."""
    stages: Counter[str] = Counter()
    uncounted: Counter[str] = Counter()
    total = 0
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        samples = int(count)
        total += samples
        top = stack.rsplit(";", 1)[-1]
        stage = next((name for name, pieces in STAGES if any(piece in stack for piece in pieces)), OTHER)
        if stage == OTHER and LOOP_ITSELF[1] in top:
            stage = LOOP_ITSELF[0]
        stages[stage] += samples
        if stage == OTHER:
            uncounted[top] += samples
    if not total:
        return {"samples": 0, "stages": {}}
    return {
        "samples": total,
        "stages": {name: round(100 * samples / total, 1) for name, samples in stages.most_common()},
        "other_on_top": [[frame, round(100 * samples / total, 1)] for frame, samples in uncounted.most_common(5)],
    }


def per_move(figures: dict[str, Any], moves: int) -> dict[str, Any]:
    """``figures`` (of :func:`by_stage`) with the time the GIL was held per committed move,
    in microseconds, in all (``us_per_move``: the samples over the rate, over ``moves``)
    and by stage (``us_per_move_by_stage``, shared out as the samples are)."""
    samples = figures.get("samples", 0)
    if not samples or not moves:
        return figures
    held = samples / RATE / moves * 1_000_000
    by_stage = {name: round(held * share / 100) for name, share in figures["stages"].items()}
    return {**figures, "us_per_move": round(held), "us_per_move_by_stage": by_stage}
