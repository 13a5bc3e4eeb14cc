"""The CCG game without a socket: a card set made by vote, decks built of copies, decks
played against each other, the set changed between games (every copy with it), and the
deck's version in the results."""

from __future__ import annotations

import random

import pytest

from games.dvorak.invariants import table_problems
from games.dvorak.kind import KIND
from games.dvorak.rules import RuleViolation, Table
from games.dvorak.state import BUILT, DRAW, HAND, OVER, PLAYING, REMOVED, SET, TableState

ANN, BO, CY = 1, 2, 3
NAMES = {ANN: "Ann", BO: "Bo", CY: "Cy"}


def replayed(events: list) -> TableState:
    state = KIND.new_state()
    for event in events:
        for delta in event.deltas:
            state.apply(delta)
    return state


class Room:
    """A table and every event it made, to replay."""

    def __init__(self, players=(ANN, BO, CY)) -> None:
        self.table = Table(rng=random.Random(3))
        self.events: list = []
        for player in players:
            self.do(lambda t, p=player: t.sit(p, NAMES[p]))
        self.do(lambda t: t.change_setting(ANN, "ccg", "on"))

    def do(self, move):  # type: ignore[no-untyped-def]
        try:
            result = move(self.table)
        except RuleViolation:
            self.table.undo(self.table.take_changes())
            raise
        self.events += self.table.take_changes().events
        assert table_problems(self.table.state) == []
        return result

    def make_set(self, names: list[str]) -> list[int]:
        """Cards proposed by Ann and approved by everyone: the set."""
        numbers = []
        for name in names:
            number = self.do(lambda t, n=name: t.propose_card(ANN, n, "T", f"{n} text"))
            for voter in (BO, CY):
                self.do(lambda t, v=voter, n=number: t.vote(v, n, "approve"))
            numbers.append(number)
        return numbers


def test_a_set_made_by_vote_decks_built_played_and_the_set_edited_between_games():
    room = Room()
    table = room.table
    goblin, troll, elf = room.make_set(["Goblin", "Troll", "Elf"])
    assert [c.name for c in table.set_cards()] == ["Goblin", "Troll", "Elf"]
    assert table.state.deck_version == 3
    room.do(lambda t: t.change_setting(ANN, "decksize", "6"))
    room.do(lambda t: t.change_setting(ANN, "handsize", "3"))
    for player in (ANN, BO, CY):
        room.do(lambda t, p=player: t.build_add(p, goblin, 3))
        room.do(lambda t, p=player: t.build_add(p, troll, 2))
    room.do(lambda t: t.build_add(CY, elf, 1))
    assert [(card.name, copies) for card, copies in table.deck_list(ANN)] == [("Goblin", 3), ("Troll", 2)]
    assert table.deck_problems(ANN) == ["it has 5 cards; the set asks at least 6"]
    with pytest.raises(RuleViolation, match="Ann's deck: it has 5 cards"):
        room.do(lambda t: t.start(ANN))
    room.do(lambda t: t.build_add(ANN, elf, 1))
    room.do(lambda t: t.build_add(BO, elf, 2))
    room.do(lambda t: t.build_remove(BO, elf, 1))
    room.do(lambda t: t.start(ANN))

    # Each plays their own deck: three cards in hand, the rest in their own draw pile.
    assert table.state.phase == PLAYING
    for player in (ANN, BO, CY):
        hand = table.hand(player)
        assert len(hand) == 3 and len(table.state.pile(DRAW, player)) == 3
        assert all(table.state.cards[n].deck_owner == player for n in hand)
        assert all(table.state.cards[n].copy_of in (goblin, troll, elf) for n in hand)
    assert table.state.pile(SET) == [goblin, troll, elf]
    with pytest.raises(RuleViolation, match="During a CCG game nobody may propose"):
        room.do(lambda t: t.propose_card(BO, "Dragon", "T", "big"))
    with pytest.raises(RuleViolation, match="During a CCG game nobody may propose"):
        room.do(lambda t: t.propose_edit(BO, goblin, "Goblin", "T", "stronger"))
    with pytest.raises(RuleViolation, match="Decks change between games"):
        room.do(lambda t: t.build_add(BO, goblin, 1))
    first = table.state.turn.player
    room.do(lambda t: t.draw(first))
    room.do(lambda t: t.play(first, t.hand(first)[0]))
    room.do(lambda t: t.win(ANN, BO))

    # Over: every copy is back in its deck; the result names the set's version.
    assert table.state.phase == OVER
    assert [len(table.built(p)) for p in (ANN, BO, CY)] == [6, 6, 6]
    assert room.events[-1].data["deck_version"] == 3 and room.events[-1].data["winners"] == ["Bo"]

    # Between games the set changes by unanimous vote, whatever the vote setting says;
    # an accepted edit changes every copy in every deck.
    room.do(lambda t: t.change_setting(ANN, "vote", "any"))
    room.do(lambda t: t.propose_edit(BO, goblin, "Goblin King", "T", "Rules the goblins."))
    room.do(lambda t: t.vote(ANN, goblin, "approve"))
    assert table.state.cards[goblin].name == "Goblin"  # Cy has not approved yet
    room.do(lambda t: t.vote(CY, goblin, "approve"))
    copies = [n for n, c in table.state.cards.items() if c.copy_of == goblin and c.zone == BUILT]
    assert len(copies) == 9
    assert {table.state.cards[n].text for n in copies} == {"Rules the goblins."}
    assert table.state.deck_version == 4
    assert table.built_against(ANN) == 3  # built against the older version: it says so

    # Removing a set card takes its copies out of every deck.
    room.do(lambda t: t.propose_removal(CY, elf))
    room.do(lambda t: t.vote(ANN, elf, "approve"))
    room.do(lambda t: t.vote(BO, elf, "approve"))
    assert all(table.state.cards[n].zone == REMOVED for n, c in table.state.cards.items() if c.copy_of == elf)
    assert [len(table.built(p)) for p in (ANN, BO, CY)] == [5, 5, 5]

    # The log rebuilds the room exactly.
    assert KIND.differences(replayed(room.events), table.state) == []


def test_set_cards_are_told_apart_by_name_and_copies_are_not_proposed_about():
    room = Room()
    (goblin,) = room.make_set(["Goblin"])
    with pytest.raises(RuleViolation, match="already has a card called Goblin"):
        room.do(lambda t: t.propose_card(BO, "goblin", "A", "another"))
    room.do(lambda t: t.build_add(BO, goblin, 1))
    (copy,) = room.table.built(BO)
    with pytest.raises(RuleViolation, match=f"#{copy} is a copy of #{goblin}"):
        room.do(lambda t: t.propose_edit(BO, copy, "Mine", "T", "x"))
    with pytest.raises(RuleViolation, match="not a card of this room's set"):
        room.do(lambda t: t.build_add(BO, copy, 1))
    with pytest.raises(RuleViolation, match="1 to 100 copies"):
        room.do(lambda t: t.build_add(BO, goblin, 0))
    with pytest.raises(RuleViolation, match="only 1 copy"):
        room.do(lambda t: t.build_remove(BO, goblin, 2))
    with pytest.raises(RuleViolation, match="only by unanimous vote"):
        room.do(lambda t: t.load_card(ANN, "Ann", "Sneaky", "T", "loaded"))


def a_ccg_game_of_three() -> Room:
    """Ann, Bo and Cy playing a CCG game, each with a deck of two Goblins and two Trolls."""
    room = Room()
    goblin, troll = room.make_set(["Goblin", "Troll"])
    room.do(lambda t: t.change_setting(ANN, "decksize", "4"))
    room.do(lambda t: t.change_setting(ANN, "handsize", "2"))
    for player in (ANN, BO, CY):
        room.do(lambda t, p=player: t.build_add(p, goblin, 2))
        room.do(lambda t, p=player: t.build_add(p, troll, 2))
    room.do(lambda t: t.start(ANN))
    return room


def test_a_player_who_leaves_a_ccg_game_takes_their_deck_with_them():
    room = a_ccg_game_of_three()
    room.do(lambda t: t.unseat(CY, CY))
    table = room.table
    assert len(table.built(CY)) == 4
    assert all(table.state.cards[n].deck_owner != CY for n in table.hand(ANN) + table.hand(BO))
    room.do(lambda t: t.end_game(ANN, "stalemate"))
    assert room.events[-1].data["outcome"] == "stalemate"
    assert [len(table.built(p)) for p in (ANN, BO)] == [4, 4]
    assert not table.state.pile(HAND, ANN)
    assert KIND.differences(replayed(room.events), table.state) == []


def test_turning_ccg_on_makes_the_deck_the_set_and_refuses_two_cards_of_one_name():
    table = Table(rng=random.Random(1))
    table.sit(ANN, "Ann")
    table.load_card(ANN, "Ann", "Goblin", "T", "one")
    table.load_card(ANN, "Ann", "Goblin", "A", "two")
    table.take_changes()
    with pytest.raises(RuleViolation, match="Goblin is on more than one card"):
        table.change_setting(ANN, "ccg", "on")
    table.undo(table.take_changes())
    assert not table.settings["ccg"] and len(table.state.pile(DRAW)) == 2
    table.load_card(ANN, "Ann", "Troll", "T", "three")
    table.take_changes()
    table.propose_removal(ANN, 2)  # Ann is the only voter: removed at once
    table.change_setting(ANN, "ccg", "on")
    assert table.state.pile(SET) == [1, 3] and not table.state.pile(DRAW)
    assert table_problems(table.state) == []


def test_in_a_ccg_room_the_host_may_not_load_clear_or_replace_the_set():
    room = Room()
    room.make_set(["Goblin"])
    for move in (
        lambda t: t.load_card(ANN, "Ann", "Sneaky", "T", "loaded"),
        lambda t: t.load_rule(ANN, "Ann", "Sneaky", "loaded"),
        lambda t: t.clear_deck(ANN),
        lambda t: t.restore(ANN, "Old", {"format": 1}),
    ):
        with pytest.raises(RuleViolation, match="changes only by unanimous vote"):
            room.do(move)
    assert [card.name for card in room.table.set_cards()] == ["Goblin"]


def test_a_player_joining_a_ccg_game_plays_the_deck_they_built():
    room = Room(players=(ANN, BO))
    goblin = room.do(lambda t: t.propose_card(ANN, "Goblin", "T", "Goblin text"))
    room.do(lambda t: t.vote(BO, goblin, "approve"))
    room.do(lambda t: t.change_setting(ANN, "decksize", "3"))
    room.do(lambda t: t.change_setting(ANN, "handsize", "2"))
    for player in (ANN, BO):
        room.do(lambda t, p=player: t.build_add(p, goblin, 3))
    room.do(lambda t: t.sit(CY, "Cy"))
    room.do(lambda t: t.build_add(CY, goblin, 4))
    room.do(lambda t: t.unseat(CY, CY))
    room.do(lambda t: t.start(ANN))
    room.do(lambda t: t.sit(CY, "Cy"))
    table = room.table
    assert len(table.hand(CY)) == 2 and len(table.state.pile(DRAW, CY)) == 2
    assert all(table.state.cards[n].deck_owner == CY for n in table.hand(CY))
    assert KIND.differences(replayed(room.events), table.state) == []
