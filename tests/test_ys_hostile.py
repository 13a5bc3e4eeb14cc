"""Ys rooms against hostile or careless players (:mod:`tests.harness`): odd words, moves
out of turn, probes for hidden facts. Each test is a bug once found: no line a player
types may end in a server error, leak a secret, or leave the table stuck."""

from __future__ import annotations

import random

import pytest

from commands.dispatch import SERVER_ERROR
from games.base import RuleViolation
from games.ys.rules import space_of
from server import accounts
from tests.harness import World

#: Commands run without sockets (tests.harness): in the fast tier.
pytestmark = pytest.mark.fast


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
    for name, line in (("Ann", "bid ² ³"), ("Ann", "favour ²"), ("Cy", "bid ² ³"), ("Ann", "order ²")):
        reply = (await world.call(name, line))[name]
        assert SERVER_ERROR not in reply, line
        assert reply.startswith(("Usage:", "Only players")), (line, reply)


async def test_refusals_count_quadrants_as_players_type_them(world):
    # Players type quadrants and rows 1-4; a refusal counting them 0-3 ("quadrants 0 to
    # 2") named a quadrant the grammar refuses and hid the one that is really out.
    await ys_game(world)
    await world.call("Ann", "bid 7 6")
    await world.call("Bo", "bid 0 1")
    await world.call("Ann", "order 1")
    assert (await world.call("Ann", "place 5 c4p 3 c1o"))["Ann"] == "This game plays quadrants 1 to 3."
    with pytest.raises(RuleViolation, match=r"quadrant 1-4.*row 1-4"):
        space_of("nowhere")


#: Lines a careless or hostile player types at any moment: odd words, other scripts,
#: huge numbers, cards nobody holds, spaces that are not there.
HOSTILE_LINES = (
    "choose", "choose blue", "choose red up", "choose 0", "choose 9999", "choose é", "choose pass",
    "play", "play spy", "play spy Bo c1p", "play spy neutral city 4 palace", "play spy Bo favour",
    "play queen", "play conjurer 9 9", "play captain 0 9", "play " + "x" * 30, "play spy 1 2 3 4 5 6 7 8 9",
    "bid 0 0", "bid 999 999", "bid ² ³", "bid 5", "place 5 c1p 3 c1p", "place 1 m1b 2 m1b", "place 0 c4p 1 c4o",
    "order", "order 1", "order 0", "order 9", "order ²", "order 1 2", "order -1", "order 99999999",
    "neutral 1 c1p", "neutral 9 m4r", "favour 1", "favour ²", "set favour=1", "set turntime=1e9",
    "set botdelay=nan", "set quadrants=3.5", "addbot", "addbot easy", "removebot Ysolde", "start",
    "board", "market", "screen", "look", "log",
)  # fmt: skip


async def test_random_hostile_lines_from_players_and_a_spectator(world):
    """Ann and Bo, against a computer player, with Cy watching, type legal moves and
    hostile lines at random: no server error, and the stored room replays soundly."""
    from games.ys.visibility import seat_view
    from server.audit import check_rooms, replay_rooms
    from tests.ys_players import command_for, neutral_command

    await world.log_in("Ann", "Bo", "Cy")
    await world.call("Ann", "newroom/ys Isle")
    await world.call("Bo", "join Isle")
    await world.call("Cy", "watch Isle")
    await world.calls("Ann", "addbot easy", "set botdelay=0", "set favour=1")
    room = await world.room("Isle")
    room.table.rng = random.Random(7)
    await world.call("Ann", "start")
    rng = random.Random(11)
    for _ in range(300):
        name = rng.choice(("Ann", "Bo", "Cy"))
        me = world.account_id(name)
        line = None
        if rng.random() < 0.7:
            line = neutral_command(room.table, me, rng) or command_for(seat_view(room.table.state, me), rng)
        saw = await world.call(name, line or rng.choice(HOSTILE_LINES))
        assert all(SERVER_ERROR not in text for text in saw.values()), (line, saw)
    assert all(not report.problems for report in await check_rooms(world.database))
    assert all(not report.problems for report in await replay_rooms(world.database))


async def test_a_person_named_neutral_cannot_sit_at_a_ys_table_where_cards_name_the_neutral_player(world, monkeypatch):
    # An account made before the name was reserved for new ones.
    monkeypatch.setattr(accounts, "_RESERVED_NAMES", frozenset())
    await world.log_in("Ann", "Neutral")
    monkeypatch.undo()
    await world.call("Ann", "newroom/ys Isle")
    refused = (await world.call("Neutral", "join Isle"))["Neutral"]
    assert "is the neutral player's name" in refused
    # Refused before going in.
    assert "The Lobby" in (await world.call("Neutral", "look"))["Neutral"]
    assert [seat.name for seat in (await world.room("Isle")).table.state.seats] == ["Ann"]
