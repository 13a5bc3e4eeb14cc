"""Every registered game kind loses no stored move to SIGKILL mid-game: a real room on
each backend plays the kind's random legal moves (tests/kill_mid_game.py) and is killed
at a random moment; every move it had stored and would have told is in the log, the
check and replay commands find the room sound, and a new process plays on from it. No
list of games: a kind runs this by being registered."""

from __future__ import annotations

import asyncio
import random
import signal
import sys

import pytest

from games import KINDS
from persistence.database import Database
from persistence.rooms import RoomStore
from server.audit import check_rooms, replay_rooms
from tests.server_process import ROOT

#: How long the child may take to store its next move (a cold start included).
PATIENCE = 60.0


async def play_until_killed(kind: str, database_url: str, seed: int) -> tuple[list[int], bool]:
    """Run the child until it has stored a random number of moves, then SIGKILL it after
    a random pause (mid-move, often); the sequence numbers it printed, and whether the
    game was over first."""
    rng = random.Random(seed)
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.kill_mid_game",
        kind,
        database_url,
        str(seed),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
    )
    assert child.stdout is not None
    stored: list[int] = []
    over = False
    try:
        for _ in range(rng.randint(4, 20)):
            line = (await asyncio.wait_for(child.stdout.readline(), PATIENCE)).decode()
            if line in ("", "over\n"):
                over = line == "over\n"
                break
            stored.append(int(line.removeprefix("stored ")))
        await asyncio.sleep(rng.random() * 0.02)
    finally:
        if child.returncode is None:
            child.send_signal(signal.SIGKILL)
        returncode = await child.wait()
    assert over or returncode == -signal.SIGKILL, f"the child ended by itself ({returncode})"
    return stored, over


async def stored_head_and_problems(database: Database) -> tuple[int, list[str]]:
    """The last sequence number in room Hall's log, and what check and replay found."""
    store = RoomStore(database)
    (room_id, _), *others = await store.all_ids()
    assert not others
    head = max(logged.seq for logged in await store.events(room_id))
    reports = await check_rooms(database) + await replay_rooms(database)
    return head, [f"{report.name}: {problem}" for report in reports for problem in report.problems]


@pytest.mark.parametrize("kind", list(KINDS))
async def test_sigkill_mid_game_loses_no_stored_move_and_play_goes_on(kind, database, database_url):
    stored, over = await play_until_killed(kind, database_url, seed=1)
    assert stored, "the child stored nothing"
    head, problems = await stored_head_and_problems(database)
    assert head >= stored[-1] and problems == []

    # A new process finds the room as it was stored and plays on from it.
    again, _ = await play_until_killed(kind, database_url, seed=2)
    assert again[0] == head
    if not over:
        assert len(again) > 1, "no move was made after the restart"
    head, problems = await stored_head_and_problems(database)
    assert head >= again[-1] and problems == []
