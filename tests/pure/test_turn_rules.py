"""Moves that must not get around the turn rules, on the rules alone: giving, taking a
random card, kicks and resignations, riders given with their Thing (end to end over real
connections: :mod:`tests.test_turn_rooms`)."""

from __future__ import annotations

import random

import pytest

from games.dvorak.rules import RuleViolation, Table
from games.dvorak.state import DISCARD, DRAW, HAND, PLAY, PLAYING
from i18n import shown

ALICE, BOB, CAROL = 1, 2, 3


def table_of(players=(ALICE, BOB), **settings_) -> Table:
    table = Table(rng=random.Random(5))
    names = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}
    for player in players:
        table.sit(player, names[player])
    for name, value in settings_.items():
        table.change_setting(players[0], name, str(value))
    for i in range(20):
        table.load_card(players[0], "Alice", f"Card {i}", "A" if i % 2 else "T", f"text {i}")
    table.start(players[0])
    table.state.apply(["turn", {"player": ALICE, "number": 1}])
    table.take_changes()
    return table


def test_every_give_but_a_team_gift_needs_force_with_turns_on():
    table = table_of()
    table.draw(ALICE)
    table.take_changes()
    for number in (table.hand(BOB)[0], table.state.pile(DRAW)[-1], table.hand(ALICE)[0]):
        for to in (ALICE, BOB):
            for as_thing in (False, True):
                with pytest.raises(RuleViolation, match="only when a card says so"):
                    table.give(ALICE, number, to, as_thing=as_thing)
    assert not table.take_changes().events
    number = table.hand(BOB)[0]
    table.give(ALICE, number, ALICE, forced=True)
    assert number in table.hand(ALICE)


def test_takerand_moves_one_random_card_and_counts_as_a_give():
    table = table_of(players=(ALICE, BOB, CAROL))
    table.draw(ALICE)
    with pytest.raises(RuleViolation, match="only when a card says so"):
        table.take_random(ALICE, BOB)
    with pytest.raises(RuleViolation, match="It is Alice's turn"):
        table.take_random(CAROL, BOB)
    bob_before = list(table.hand(BOB))
    taken = table.take_random(ALICE, BOB, forced=True)
    assert taken in bob_before and taken in table.hand(ALICE) and taken not in table.hand(BOB)
    event = table.take_changes().events[-1]
    assert event.kind == "takerand" and event.forced and event.data["player"] == BOB


def test_a_kick_leaves_the_game_running_and_a_resignation_forfeits_it():
    table = table_of(players=(ALICE, BOB, CAROL))
    table.unseat(ALICE, BOB)
    table.eliminate(ALICE, CAROL)
    assert shown(table.state.result) == "Only Alice remains: Alice wins!"
    table = table_of(players=(ALICE, BOB))
    table.unseat(ALICE, BOB)
    assert table.state.phase == PLAYING and table.state.result == ""
    table = table_of(players=(ALICE, BOB))
    table.unseat(BOB, BOB)
    assert shown(table.state.result) == "Bob forfeits: Alice wins!"


def test_a_thing_given_from_play_to_play_keeps_its_riders():
    table = table_of(turns="off")
    things = [n for n in table.hand(ALICE) if not table.state.cards[n].is_action]
    while len(things) < 2:
        table.draw(ALICE)
        things = [n for n in table.hand(ALICE) if not table.state.cards[n].is_action]
    host, rider = things[:2]
    table.play(ALICE, host)
    table.play(ALICE, rider, onto=host)
    table.give(ALICE, host, BOB, as_thing=True)
    assert table.state.cards[host].zone == PLAY and table.state.cards[host].owner == BOB
    assert table.state.cards[rider].zone == PLAY and table.state.cards[rider].attached_to == host
    table.give(ALICE, host, BOB)
    assert table.state.cards[host].zone == HAND and table.state.cards[rider].zone == DISCARD
