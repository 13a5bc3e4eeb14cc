"""Ys rooms against hostile or careless players (:mod:`tests.harness`): odd words, moves
out of turn, probes for hidden facts. Each test is a bug once found: no line a player
types may end in a server error, leak a secret, or leave the table stuck."""

from __future__ import annotations

import random

import pytest

from commands.dispatch import SERVER_ERROR
from games.base import RuleViolation
from games.ys.rules import space_of
from tests.harness import World


async def ys_game(world: World, seed: int = 3) -> None:
    """Ann hosts Ys room Isle with Bo seated, Cy watching; started."""
    await world.log_in("Ann", "Bo", "Cy")
    await world.call("Ann", "newroom/ys Isle")
    await world.call("Bo", "join Isle")
    await world.call("Cy", "watch Isle")
    await world.call("Ann", "set botdelay=0")
    (await world.room("Isle")).table.rng = random.Random(seed)
    await world.call("Ann", "start")


async def test_numbers_in_other_scripts_are_refused_not_a_server_error(world):
    # "²".isdigit() is true but int("²") fails: bid and favour crashed on it.
    await ys_game(world)
    for name, line in (("Ann", "bid ² ³"), ("Ann", "favour ²"), ("Cy", "bid ² ³")):
        reply = (await world.call(name, line))[name]
        assert SERVER_ERROR not in reply, line
        assert reply.startswith(("Usage:", "Only players")), (line, reply)


async def test_refusals_count_quadrants_as_players_type_them(world):
    # Players type quadrants and rows 1-4; a refusal counting them 0-3 ("quadrants 0 to
    # 2") named a quadrant the grammar refuses and hid the one that is really out.
    await ys_game(world)
    await world.call("Ann", "bid 7 6")
    await world.call("Bo", "bid 0 1")
    assert (await world.call("Ann", "place 5 c4p 3 c1o"))["Ann"] == "This game plays quadrants 1 to 3."
    with pytest.raises(RuleViolation, match=r"quadrant 1-4.*row 1-4"):
        space_of("nowhere")
