"""``Room.Table``, the GMCP package every game's table sends the same way (the web page's
shared table panel draws it): seats, whose turn, the turn timer, the winner line. Without
sockets (:mod:`tests.harness`)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import i18n
from tests.harness import World

pytestmark = pytest.mark.fast


def summary(world: World, name: str) -> Any:
    """The last ``Room.Table`` ``name`` was sent (since the last time they were asked)."""
    return [data for package, data in world.gmcp(name) if package == "Room.Table"][-1]


async def test_a_gnav_table_says_whose_turn_with_its_timer_and_at_the_end_who_won(world):
    await world.log_in("Ann", "Cy")
    ann = world.account_id("Ann")
    await world.call("Ann", "newroom/gnav Den")
    await world.calls("Ann", "addbot easy Olga", "set botdelay=0", "set lives=1", "set turntime=45")
    await world.call("Cy", "watch Den")
    waiting = summary(world, "Ann")
    assert waiting["phase"] == "waiting" and waiting["host"] == ann and waiting["you"] == ann
    assert [(seat["name"], seat["bot"]) for seat in waiting["seats"]] == [("Ann", None), ("Olga", "easy")]
    assert waiting["waiting"] == [] and waiting["timer"] is None and waiting["result"] is None

    room = await world.room("Den")
    await world.call("Ann", "start")
    while room.table.state.phase == "playing":
        shown = summary(world, "Ann")
        assert shown["waiting"] == [ann] and shown["timer"] == 45, shown
        watched = summary(world, "Cy")
        assert watched["you"] is None and watched["waiting"] == [ann] and watched["timer"] == 45
        await world.call("Ann", "keep")
    over = summary(world, "Ann")
    assert over["phase"] == "over" and over["waiting"] == [] and over["timer"] is None
    # The result is kept as a message (i18n.stored): each reader is shown it in their language.
    assert over["result"] == i18n.shown(room.table.state.result) and over["result"]

    await world.call("Ann", "leave")
    assert summary(world, "Ann") == {}


async def test_a_dvorak_table_waits_for_the_player_whose_turn_it_is_and_marks_who_is_away(world):
    await world.log_in("Ann", "Bo")
    ann, bo = world.account_id("Ann"), world.account_id("Bo")
    await world.call("Ann", "newroom Hall")
    await world.call("Bo", "join Hall")
    await world.calls("Ann", *(f"loadcard Card {i}/T/Text {i}." for i in range(12)))
    await world.call("Ann", "start")
    room = await world.room("Hall")
    turn = room.table.state.turn.player
    shown = summary(world, "Bo")
    assert shown["phase"] == "playing" and shown["waiting"] == [turn] and shown["you"] == bo
    assert shown["timer"] is None  # Dvorak times no turns
    assert {seat["id"]: seat["away"] for seat in shown["seats"]} == {ann: False, bo: False}

    dropped = world.connections.pop("Bo")
    dropped.close()
    await world.processor.disconnected(dropped)
    await world.call("Ann", "set handlimit=6")
    assert {seat["id"]: seat["away"] for seat in summary(world, "Ann")["seats"]} == {ann: False, bo: True}


async def test_the_turn_timer_after_a_move_is_the_next_turn_s_whole_time_not_what_the_last_one_had_left(world):
    await world.log_in("Ann", "Bo")
    await world.call("Ann", "newroom/gnav Den")
    await world.call("Bo", "join Den")
    await world.calls("Ann", "set turntime=45", "start")
    room = await world.room("Den")
    names = {world.account_id("Ann"): "Ann", world.account_id("Bo"): "Bo"}
    started = summary(world, "Ann")
    first = started["waiting"]
    assert started["timer"] == 45 and len(first) == 1
    await asyncio.sleep(2.2)  # the first player's timer runs down to 43
    await world.call(names[first[0]], "keep")
    assert room.table.state.phase == "playing"
    after = summary(world, "Ann")
    assert after["waiting"] != first and after["timer"] == 45, after
