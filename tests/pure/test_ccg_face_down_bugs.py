"""Bugs found reviewing the CCG game, face-down play and the draw pile's order: each
test is a sequence of moves a player or host could make, after which the table must be
sound and the log must rebuild it."""

from __future__ import annotations

import random

import pytest

from games.dvorak.deck import snapshot
from games.dvorak.deckformat import split_pasted_commands, split_pasted_proposals
from games.dvorak.invariants import table_problems
from games.dvorak.kind import KIND
from games.dvorak.rules import RuleViolation, Table
from games.dvorak.visibility import cards_seen

ANN, BO, CY = 1, 2, 3
NAMES = {ANN: "Ann", BO: "Bo", CY: "Cy"}


def ccg_room(players=(ANN, BO, CY), names=("Goblin", "Troll")) -> tuple[Table, list, list[int]]:
    """A CCG room whose set is ``names`` (approved by everyone), each player's deck two
    copies of each; the table, its events so far and the set's numbers."""
    table = Table(rng=random.Random(5))
    for player in players:
        table.sit(player, NAMES[player])
    table.change_setting(players[0], "ccg", "on")
    table.change_setting(players[0], "decksize", "1")
    table.change_setting(players[0], "handsize", "2")
    numbers = []
    for name in names:
        number = table.propose_card(players[0], name, "T", f"{name} text")
        for voter in players[1:]:
            table.vote(voter, number, "approve")
        numbers.append(number)
    for player in players:
        for number in numbers:
            table.build_add(player, number, 2)
    return table, list(table.take_changes().events), numbers


def sound(table: Table, events: list) -> None:
    events.extend(table.take_changes().events)
    assert table_problems(table.state) == []
    state = KIND.new_state()
    for event in events:
        for delta in event.deltas:
            state.apply(delta)
    assert KIND.differences(state, table.state) == []


def test_loading_a_saved_ccg_room_with_other_players_keeps_each_built_deck_its_builders():
    table, events, _ = ccg_room()
    saved = snapshot(table.state)
    table.unseat(CY, CY)  # not the same players: the saved game is not resumed
    table.change_setting(ANN, "ccg", "off")
    table.restore(ANN, "saved", saved)
    sound(table, events)
    assert len(table.built(ANN)) == 4 and table.state.cards[table.built(ANN)[0]].deck_owner == ANN


def test_loading_a_saved_ccg_room_whose_set_cards_get_new_numbers_keeps_the_copies_copies_of_them():
    table, events, (goblin, troll) = ccg_room()
    saved = snapshot(table.state)
    table.change_setting(ANN, "ccg", "off")
    table.restore(ANN, "saved", saved)
    events.extend(table.take_changes().events)
    # Another room's card took the set's numbers: this room loads the save with new ones.
    other = Table(rng=random.Random(1))
    other.sit(ANN, "Ann")
    other.load_card(ANN, "Ann", "Squatter", "T", "sits on #1")
    other.load_card(ANN, "Ann", "Squatter 2", "T", "sits on #2")
    other.take_changes()
    other.restore(ANN, "saved", saved)
    assert table_problems(other.state) == []
    copies = [other.state.cards[n] for n in other.built(ANN)]
    assert {other.state.cards[c.copy_of].name for c in copies} == {"Goblin", "Troll"}


def test_a_player_leaving_a_ccg_game_takes_back_a_copy_another_thing_is_played_on():
    table, events, _ = ccg_room()
    table.change_setting(ANN, "turns", "off")
    table.start(ANN)
    events.extend(table.take_changes().events)
    bo_copy = table.hand(BO)[0]
    table.give(BO, bo_copy, ANN, as_thing=True)  # Bo's copy goes into play for Ann
    table.play(ANN, table.hand(ANN)[0], onto=bo_copy)
    events.extend(table.take_changes().events)
    table.unseat(BO, BO)  # Bo's copies go back to Bo's deck; Ann's Thing played on it?
    sound(table, events)
    assert bo_copy in table.built(BO)
    assert not [n for n in table.in_play(ANN) if table.state.cards[n].attached_to == bo_copy]


def test_a_pasted_line_with_a_long_run_of_spaces_is_split_in_time_linear_in_its_length():
    # Splitting used to try every space of a run as the start of a separator: a line of
    # the longest length allowed, mostly spaces, held the server for about a second (with
    # this many, minutes); the split is the same.
    spaces = " " * 100_000
    assert split_pasted_proposals(f"newcard a/T/b{spaces}newcard c/T/d{spaces}x") == (
        ["newcard a/T/b", f"newcard c/T/d{spaces}x"],
        0,
    )
    assert split_pasted_commands(f"loadcard a/T/b{spaces}loadcard c/T/d{spaces}x") == (
        ["loadcard a/T/b", f"loadcard c/T/d{spaces}x"],
        False,
    )


def test_proposing_about_another_players_copy_does_not_say_which_set_card_it_is():
    table, events, (goblin, troll) = ccg_room()
    ann_copy = table.built(ANN)[-1]
    assert table.state.cards[ann_copy].copy_of == troll
    for move in (
        lambda: table.propose_edit(BO, ann_copy, "Mine", "T", "x"),
        lambda: table.propose_removal(BO, ann_copy),
    ):
        try:
            move()
        except RuleViolation as refusal:
            assert f"#{troll}" not in str(refusal) and "Troll" not in str(refusal)
        else:
            raise AssertionError("a copy was proposed about")
        table.undo(table.take_changes())


def test_a_face_down_copy_going_back_to_the_deck_of_a_player_who_leaves_stays_hidden():
    table, events, _ = ccg_room()
    table.change_setting(ANN, "turns", "off")
    table.start(ANN)
    bo_copy = table.hand(BO)[0]
    table.give(BO, bo_copy, ANN)
    table.play_face_down(ANN, bo_copy)
    events.extend(table.take_changes().events)
    table.unseat(BO, BO)  # Bo's copies go back to his deck, this one from Ann's play area
    (leave,) = table.take_changes().events
    assert bo_copy in table.built(BO)
    assert bo_copy not in cards_seen(leave, CY)
    assert bo_copy in cards_seen(leave, ANN)


def test_turning_ccg_on_while_two_cards_of_one_name_wait_for_a_vote_keeps_the_set_names_unique():
    table = Table(rng=random.Random(1))
    table.sit(ANN, "Ann")
    table.sit(BO, "Bo")
    first = table.propose_card(ANN, "Goblin", "T", "one")
    second = table.propose_card(BO, "goblin", "A", "two")
    table.take_changes()
    try:
        table.change_setting(ANN, "ccg", "on")
    except RuleViolation as refusal:
        assert "goblin" in str(refusal).lower()
        table.undo(table.take_changes())
        return
    table.vote(BO, first, "approve")
    table.vote(ANN, second, "approve")
    assert len({card.name.casefold() for card in table.set_cards()}) == len(table.set_cards())


def test_building_and_clearing_a_deck_again_and_again_does_not_grow_the_room_without_bound():
    table, _, (goblin, _troll) = ccg_room()
    for _ in range(10):
        table.build_clear(BO)
        table.build_add(BO, goblin, 100)
    table.take_changes()
    assert len(table.state.cards) < 400


def test_turning_ccg_on_counts_the_name_a_pending_edit_gives_but_not_a_card_edited_keeping_its_name():
    table = Table(rng=random.Random(1))
    table.sit(ANN, "Ann")
    table.sit(BO, "Bo")
    table.load_card(ANN, "Ann", "Goblin", "T", "one")
    table.load_card(ANN, "Ann", "Troll", "T", "two")
    table.propose_edit(ANN, 1, "Goblin", "T", "stronger")  # the same name: no clash
    table.take_changes()
    table.change_setting(ANN, "ccg", "off")
    table.change_setting(ANN, "ccg", "on")
    table.change_setting(ANN, "ccg", "off")
    table.take_changes()
    table.propose_edit(BO, 2, "goblin", "T", "renamed")
    table.take_changes()
    with pytest.raises(RuleViolation, match="on more than one card"):
        table.change_setting(ANN, "ccg", "on")


def test_giving_a_face_down_card_as_a_thing_to_its_own_player_does_not_show_it_while_it_stays_face_down():
    table, _, _ = ccg_room()
    table.change_setting(ANN, "turns", "off")
    table.start(ANN)
    hidden = table.hand(ANN)[0]
    table.play_face_down(ANN, hidden)
    table.take_changes()
    try:
        table.give(BO, table.face_down_number("FD1"), ANN, as_thing=True)
    except RuleViolation as refusal:
        assert f"#{hidden}" not in str(refusal)  # named by its label, its number stays hidden
        table.undo(table.take_changes())
    for event in table.take_changes().events:
        assert hidden not in cards_seen(event, BO) or hidden not in table.state.face_down
    assert hidden in table.state.face_down


def test_loading_a_saved_ccg_room_brings_back_a_removed_copy_as_a_copy_of_its_renumbered_set_card():
    table, events, (goblin, _troll) = ccg_room()
    saved = snapshot(table.state)
    copy = [n for n in table.built(ANN) if table.state.cards[n].copy_of == goblin][0]
    table.build_remove(ANN, goblin, 2)  # the copy is removed, unchanged
    table.propose_edit(ANN, goblin, "Goblin", "T", "stronger")
    table.vote(BO, goblin, "approve")
    table.vote(CY, goblin, "approve")  # the set card changed: the save's Goblin gets a new number
    table.change_setting(ANN, "ccg", "off")
    table.restore(ANN, "saved", saved)
    sound(table, events)
    texts = sorted(table.state.cards[table.state.cards[n].copy_of].text for n in table.built(ANN))
    assert texts == ["Goblin text"] * 2 + ["Troll text"] * 2
    assert table.state.cards[copy].zone == "removed"  # the room's own removed copy stays removed


def test_sitting_down_during_a_ccg_game_does_not_get_round_the_sets_limits():
    table, _, (goblin, _troll) = ccg_room()
    table.change_setting(ANN, "maxcopies", "2")
    table.build_add(CY, goblin, 8)  # ten Goblins: more than the set allows
    table.unseat(CY, CY)
    table.start(ANN)
    table.take_changes()
    try:
        table.sit(CY, "Cy")
    except RuleViolation:
        table.undo(table.take_changes())
        return
    goblins = [n for n in table.state.cards.values() if n.deck_owner == CY and n.copy_of == goblin]
    assert len([c for c in goblins if c.zone in ("draw", "hand")]) <= 2
