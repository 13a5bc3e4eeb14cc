"""Hostile input to the CCG, face-down and draw-order commands (without sockets): every
odd line gets a reply, never a crash, and the room stays sound."""

from __future__ import annotations

import random

import pytest

from server.audit import check_rooms
from tests.harness import World

#: Commands run without sockets (tests.harness): in the fast tier.
pytestmark = pytest.mark.fast

ODD = (
    "deckbuild add 1=99999999999",
    "deckbuild add 99999999999999999999=1",
    "deckbuild add 1=0",
    "deckbuild add 1=-3",
    "deckbuild add =",
    "deckbuild add ＃１=２",
    "deckbuild remove 1=9999",
    "deckbuild save",
    "deckbuild save " + "x" * 500,
    "deckbuild save 😀",
    "deckbuild load nothing",
    "deckbuild delete nothing",
    "deckbuild export yaml",
    "deckbuild import {}",
    "deckbuild import []",
    "deckbuild import null",
    'deckbuild import {"cards": 5}',
    'deckbuild import {"cards": [5, null, {"name": 3}]}',
    'deckbuild import {"cards": [{"name": "Goblin", "type": "T", "text": "x"}]}',
    'deckbuild import {"name": "x", "cards": [{"name": "", "type": "", "text": ""}]}',
    "deckbuild import loadcard /T/",
    "deckbuild import loadcard Goblin/T/x " * 3,
    "deckbuild import " + "loadcard Goblin/T/x " * 600,
    "deckbuild bogus",
    "viewset extra",
    "playcard 1=facedown",
    "playcard 99999999999999=facedown",
    "playcard 1 on 2=facedown",
    "playcard =facedown",
    "playcard 1=FaceDown",
    "flip FD0",
    "flip FD999999999",
    "flip FD9999999999",
    "flip fd1",
    "destroy FD1",
    "give FD1 to Bo",
    "shufcard FD1",
    "putcard 1=0",
    "putcard 1=999999999",
    "putcard 1=-1",
    "putcard FD1=top",
    "putcard 99999999999=top",
    "reorder 1 1",
    "reorder 99999999999",
    "reorder " + " ".join(["1"] * 25),
    "results",
    "results 99999999999",
    "results -1",
    "results Bo",
    "endgame bogus",
    "endgame draw",
    "set ccg=maybe",
    "set decksize=0",
    "set decksize=99999999999",
    "set maxcopies=-1",
    "newcard a/T/b newcard c/T/d newcard e/T/f",
    "newcard " + "newcard x/T/y " * 30,
)


async def test_odd_lines_to_the_new_commands_get_replies_and_leave_the_room_sound(world: World):
    await world.log_in("Ann", "Bo", "Cy")
    await world.call("Ann", "newroom Arena")
    await world.call("Bo", "join Arena")
    await world.calls("Ann", "set ccg=on", "set decksize=1", "set handsize=1", "newcard Goblin/T/Small.")
    await world.call("Bo", "approve 1")
    await world.calls("Ann", "deckbuild add 1=3")
    await world.calls("Bo", "deckbuild add 1=3")
    for phase in ("between games", "playing"):
        if phase == "playing":
            (await world.room("Arena")).table.rng = random.Random(1)
            await world.call("Ann", "start")
        for line in ODD:
            for who in ("Ann", "Bo", "Cy"):
                saw = await world.call(who, line)
                assert saw[who].strip(), (who, line)
                assert "server error" not in saw[who], (who, line, saw[who])
    assert [report.problems for report in await check_rooms(world.database, "Arena")] == [[]]


async def test_readcard_and_cardhistory_do_not_show_another_players_deck(world: World):
    await world.log_in("Ann", "Bo", "Cy")
    await world.call("Ann", "newroom Arena")
    await world.call("Bo", "join Arena")
    await world.call("Cy", "watch Arena")
    await world.calls("Ann", "set ccg=on", "newcard Goblin/T/Small.", "newcard Troll/T/Big.")
    await world.calls("Bo", "approve 1", "approve 2")
    await world.call("Ann", "deckbuild add 2=1")  # Ann's deck: one Troll, card #3
    (copy,) = (await world.room("Arena")).table.built(world.account_id("Ann"))
    assert "Troll" in (await world.call("Ann", f"readcard {copy}"))["Ann"]
    for who in ("Bo", "Cy"):
        for line in (f"readcard {copy}", f"cardhistory {copy}"):
            saw = (await world.call(who, line))[who]
            assert "Troll" not in saw and "Big" not in saw, (who, line, saw)
            assert f"#{copy} is a copy in another player's deck" in saw, saw
    await world.call("Ann", "deckbuild clear")  # removed copies stay the builder's secret
    saw = (await world.call("Bo", f"readcard {copy}"))["Bo"]
    assert "Troll" not in saw, saw
