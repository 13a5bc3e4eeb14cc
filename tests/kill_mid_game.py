"""A game of one registered kind played in a real room on a real database, by the kind's
own random legal moves, printing each move's sequence number once the room has stored
it and would tell the table: the program the conformance tests kill with SIGKILL
mid-game (tests/test_conformance.py).

    python -m tests.kill_mid_game <kind> <database-url> <seed>

The database is migrated already. The first run makes the sample's people and a room
called Hall, and begins a game there as the kind's ``set_up_sample`` does; a later run
finds the room as it was stored and plays on. It prints ``stored <seq>`` after each move,
``over`` when the table waits for nobody, and runs on the event loop the server uses.
"""

from __future__ import annotations

import asyncio
import random
import sys

from games import KINDS
from games.base import SAMPLE_PEOPLE, RuleViolation
from persistence.database import Database
from server.cli import loop_factory
from server.config import Settings
from tests.conformance import TRIES
from tests.harness import CHEAP_HASHING, World

ROOM = "Hall"


async def play(kind_name: str, database_url: str, seed: int) -> None:
    kind = KINDS[kind_name]
    settings = Settings(database_url=database_url, **CHEAP_HASHING)
    world = World(Database(settings.resolved_database_url, settings.database_timeout), settings)
    room = await world.rooms.find(ROOM)
    if room is None:
        await world.log_in(*SAMPLE_PEOPLE.values())
        people = {world.account_id(name): name for name in SAMPLE_PEOPLE.values()}
        assert people == SAMPLE_PEOPLE, f"the sample's people got accounts {people}"
        room = await world.rooms.create(ROOM, None, maker=min(SAMPLE_PEOPLE), game=kind_name)
        await room.perform(kind.set_up_sample)
    print(f"stored {room.seq}", flush=True)
    rng = random.Random(seed)
    while True:
        for _ in range(TRIES):
            move = kind.random_move(room.table, rng)
            if move is None:
                print("over", flush=True)
                await world.close()
                return
            try:
                await room.perform(move)
            except RuleViolation:
                continue  # refused (or overtaken by the room's own timed move): changed nothing
            print(f"stored {room.seq}", flush=True)
            break
        else:
            raise AssertionError(f"no move was accepted in {TRIES} tries")


if __name__ == "__main__":
    kind_name, database_url, seed = sys.argv[1:]
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        runner.run(play(kind_name, database_url, int(seed)))
