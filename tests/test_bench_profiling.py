"""``bench game --profile``: the server sampled by py-spy through the measured run, and its
time put into stages (``bench/profiling.py``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.profiling import RATE, by_stage, per_move

ROOT = Path(__file__).resolve().parent.parent
LOOP = "<module> (<string>:1);run (uvloop/__init__.py:92);Runner.run (asyncio/runners.py:118)"


def test_a_sample_counts_in_the_first_stage_its_stack_passes_through():
    raw = "\n".join(
        [
            # Rendering sends text, which writes to a socket: the write is what counts.
            f"{LOOP};announce (commands/games.py:72);Connection.flush (server/connection.py:238);"
            "ClientTransport.write (server/telnet.py:93) 6",
            f"{LOOP};GroupCommit._write_queued (persistence/group_commit.py:63);"
            "_write_batch (persistence/rooms.py:829) 3",
            f"{LOOP};announce (commands/games.py:72);render_event (commands/dvorak/render.py:605) 1",
        ]
    )
    figures = by_stage(raw)
    assert figures["samples"] == 10
    assert figures["stages"] == {"socket writes": 60.0, "storing a batch": 30.0, "rendering events": 10.0}
    assert figures["other_on_top"] == []


def test_the_loops_own_work_and_what_no_stage_names_are_counted_apart():
    raw = "\n".join(
        [
            f"{LOOP} 2",
            f"{LOOP};something_else (server/elsewhere.py:1) 1",
            "WebSocketWriter.send_frame (aiohttp/_websocket/writer.py:126) 1",  # a stack read torn
            "not a line py-spy writes",
            "",
        ]
    )
    figures = by_stage(raw)
    assert figures["samples"] == 4
    assert figures["stages"] == {"event loop's own work": 50.0, "other": 25.0, "socket writes": 25.0}
    assert figures["other_on_top"] == [["something_else (server/elsewhere.py:1)", 25.0]]
    assert by_stage("") == {"samples": 0, "stages": {}}


def test_the_time_per_move_is_the_samples_over_the_rate_shared_out_by_stage():
    figures = {"samples": 2 * RATE, "stages": {"storing a batch": 75.0, "other": 25.0}}
    # Two seconds of samples holding the GIL over 1,000 moves: 2 ms a move.
    assert per_move(figures, 1000) == {
        **figures,
        "us_per_move": 2000,
        "us_per_move_by_stage": {"storing a batch": 1500, "other": 500},
    }
    assert per_move(figures, 0) == figures
    assert per_move({"samples": 0, "stages": {}}, 1000) == {"samples": 0, "stages": {}}


def test_a_short_game_run_with_profile_gives_the_servers_time_by_stage(tmp_path: Path):
    raw = tmp_path / "stacks.txt"
    command = [sys.executable, "-m", "bench", "game", "--backend", "sqlite", "--seconds", "4", "--rooms", "6"]
    command += ["--rate", "60", "--web-share", "0", "--gnav-share", "0", "--profile", str(raw)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["moves_per_s"] > 0
    # The server's CPU over the moves it committed (both rounded in the figures: roughly).
    per_move = figures["server_cpu_cores"] / figures["total_moves_per_s"] * 1e6
    assert figures["server_cpu_us_per_move"] == pytest.approx(per_move, rel=0.2)
    profile = figures["profile"]
    assert profile["raw"] == str(raw) and raw.read_text().strip()
    assert profile["samples"] > 0
    assert 99 <= sum(profile["stages"].values()) <= 101
    # Moves were made, stored and told: those stages were seen.
    assert profile["stages"]["storing a batch"] > 0
    assert profile["stages"]["socket writes"] > 0
    assert profile["us_per_move"] > 0
    assert set(profile["us_per_move_by_stage"]) == set(profile["stages"])


def test_profile_is_refused_where_there_is_not_one_server_process_to_sample():
    for extra in (["game", "--backend", "both"], ["chat", "--backend", "sqlite"]):
        done = subprocess.run(
            [sys.executable, "-m", "bench", *extra, "--profile", "x.txt"], cwd=ROOT, capture_output=True, text=True
        )
        assert done.returncode == 2
        assert "--profile is for one game run" in done.stderr
