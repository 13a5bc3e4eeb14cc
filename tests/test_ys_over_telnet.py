"""A whole Ys game as a person plays it over telnet, against two computer players: what
the table tells them round by round, by the seed's rules."""

from __future__ import annotations

import asyncio
import random
import re

from games.base import OVER
from games.ys import tables as t
from games.ys.visibility import seat_view
from tests.players import ScriptedPlayer, flat
from tests.ys_players import command_for

ROUND_LINE = re.compile(r"Round (\d): gem cards are laid\..*?Palace cards: ([^.]*)\.")


async def test_a_game_against_two_bots_turns_up_yellow_cards_then_blue_and_asks_for_order_cards(server):
    """Issue 45 (seed 001): the blue-edged cards lie under 3 yellow-edged ones in each
    corner, so rounds 1-3 turn up yellow-edged cards and round 4 the blue-edged ones; and
    after the bids each player chooses an order card."""
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    await ann.ask("newroom/ys Harbour")
    await ann.ask("addbot")
    await ann.ask("addbot easy")
    await ann.ask("set botdelay=0")
    await ann.ask("start")
    room = await server.rooms.find("Harbour")
    me = next(seat.account_id for seat in room.table.state.seats if seat.name == "Ann")
    rng = random.Random(45)
    for _ in range(600):
        if room.table.state.phase == OVER:
            break
        view = seat_view(room.table.state, me)
        command = command_for(view, rng) if not room.moving_by_itself else None
        if command is None:
            await asyncio.sleep(0.02)
            continue
        if command.startswith("bid "):
            # Her two highest brokers: her bid is (nearly always) the highest, so she
            # is asked first for her order card.
            command = "bid {} {}".format(*sorted(view["you"]["screen"])[-2:])
        reply = flat(await ann.ask(command))
        assert not reply.startswith(("Usage", "Huh", "A space")), (command, reply)
    assert room.table.state.phase == OVER
    await ann.client.quiet(0.3)
    told = flat(ann.client.transcript)
    rounds = {int(number): cards.split(", ") for number, cards in ROUND_LINE.findall(told)}
    assert sorted(rounds) == [1, 2, 3, 4], told
    for number in (1, 2, 3):
        assert all(card in t.YELLOW_COUNTS for card in rounds[number]), (number, rounds[number])
    assert rounds[4] == [t.BLUE_CARD] * 4
    # Ann was asked for her order card (the last to choose takes the one left).
    assert "You must choose your order card for this round: order <card> (free:" in told
    assert len(re.findall(r"Order cards are chosen from the highest bid down", told)) == 4
    assert "won Ys with" in told
    await ann.close()
