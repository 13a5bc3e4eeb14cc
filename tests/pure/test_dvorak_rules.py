"""The rules of Dvorak, without a socket: moves, turn rules, variants, replay of deltas."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.dvorak.deck import snapshot
from games.dvorak.invariants import table_problems
from games.dvorak.rules import RuleViolation, Table
from games.dvorak.state import DISCARD, DRAW, OVER, PLAY, PLAYING
from i18n import shown

ALICE, BOB, CAROL = 1, 2, 3


def new_table(players=(ALICE, BOB), things=10, actions=10, seed=7, **settings_) -> Table:
    table = Table(rng=random.Random(seed))
    names = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}
    for player in players:
        table.sit(player, names[player])
    for name, value in settings_.items():
        table.change_setting(players[0], name, str(value))
    for i in range(things):
        table.load_card(players[0], "Alice", f"Thing {i}", "T", f"thing text {i}")
    for i in range(actions):
        table.load_card(players[0], "Alice", f"Action {i}", "A", f"action text {i}")
    table.take_changes()
    return table


def started(table: Table, first: int = ALICE) -> Table:
    table.start(table.state.host)
    # The test's player goes first, whatever the shuffle chose.
    table.state.apply(["turn", {"player": first, "number": 1}])
    table.take_changes()
    return table


def where(table: Table) -> Counter:
    return Counter(n for pile in table.state.piles.values() for n in pile)


def assert_consistent(table: Table) -> None:
    counts = where(table)
    assert set(counts) == set(table.state.cards), "a card is in no pile"
    assert all(c == 1 for c in counts.values()), "a card is in two places"
    for (zone, owner), pile in table.state.piles.items():
        for number in pile:
            card = table.state.cards[number]
            assert (card.zone, card.owner) == (zone, owner)
    for proposal in table.state.proposals.values():
        subject = table.state.cards[proposal.subject]
        if proposal.kind in ("card", "rule"):
            assert subject.zone == "pending", "a proposed card is not pending"
        assert subject.zone != "removed"
    subjects = [p.subject for p in table.state.proposals.values()]
    assert len(subjects) == len(set(subjects)), "two proposals about one card"
    pending = {n for n, c in table.state.cards.items() if c.zone == "pending"}
    assert pending == {p.subject for p in table.state.proposals.values() if p.kind in ("card", "rule")}


def first_of(table: Table, player: int, action: bool) -> int:
    return next(n for n in table.hand(player) if table.state.cards[n].is_action == action)


def test_start_deals_hands_and_picks_a_first_player():
    table = started(new_table())
    assert table.state.phase == PLAYING
    assert len(table.hand(ALICE)) == 5 and len(table.hand(BOB)) == 5
    assert len(table.state.pile(DRAW)) == 10
    assert_consistent(table)


def test_a_turn_draw_then_one_thing_and_one_action_then_end():
    table = started(new_table())
    with pytest.raises(RuleViolation, match="Draw first"):
        table.play(ALICE, table.hand(ALICE)[0])
    drawn = table.draw(ALICE)
    assert drawn in table.hand(ALICE)
    with pytest.raises(RuleViolation, match="already drawn"):
        table.draw(ALICE)
    thing = first_of(table, ALICE, action=False)
    table.play(ALICE, thing)
    assert table.state.cards[thing].zone == PLAY
    with pytest.raises(RuleViolation, match="already played a Thing"):
        table.play(ALICE, first_of(table, ALICE, action=False))
    action = first_of(table, ALICE, action=True)
    table.play(ALICE, action)
    assert table.state.cards[action].zone == DISCARD
    with pytest.raises(RuleViolation, match="already played an Action"):
        table.play(ALICE, first_of(table, ALICE, action=True))
    table.end_turn(ALICE)
    assert table.state.turn.player == BOB and table.state.turn.number == 2


def test_moves_out_of_turn_are_refused_with_the_rule_and_force_overrides():
    table = started(new_table())
    with pytest.raises(RuleViolation, match="It is Alice's turn; you may draw only on your own turn"):
        table.draw(BOB)
    table.take_changes()
    table.draw(BOB, forced=True)
    changes = table.take_changes()
    assert changes.events[-1].forced and len(table.hand(BOB)) == 6


def test_hand_limit_blocks_endturn_and_allows_discarding_down_only():
    table = started(new_table())
    table.draw(ALICE)
    with pytest.raises(RuleViolation, match="You hold 6 cards; discard down to 5"):
        table.end_turn(ALICE)
    table.discard(ALICE, table.hand(ALICE)[0])
    with pytest.raises(RuleViolation, match="only to get down to the hand limit of 5; you hold 5"):
        table.discard(ALICE, table.hand(ALICE)[0])
    table.end_turn(ALICE)


def test_empty_draw_pile_is_refilled_from_the_discard_pile_and_both_empty_refuses():
    table = started(new_table(things=5, actions=5), first=ALICE)
    # Ten cards, ten dealt: the draw pile is empty from the start.
    assert table.state.pile(DRAW) == []
    with pytest.raises(RuleViolation, match="both empty"):
        table.draw(ALICE)
    assert table.take_changes().events == []
    table.play(ALICE, first_of(table, ALICE, action=True))
    table.take_changes()
    # A turn whose draw could not be made counts as drawn (issue 45): the Action just
    # played is not drawn back, and the turn may end.
    with pytest.raises(RuleViolation, match="already drawn"):
        table.draw(ALICE)
    table.end_turn(ALICE)
    table.take_changes()
    table.draw(BOB)
    kinds = [event.kind for event in table.take_changes().events]
    assert kinds == ["refill", "draw"]
    assert_consistent(table)


def test_destroying_a_thing_destroys_what_is_played_on_it():
    table = started(new_table(), first=ALICE)
    table.draw(ALICE)
    host = first_of(table, ALICE, action=False)
    table.play(ALICE, host)
    table.end_turn(ALICE, forced=True)
    table.draw(BOB)
    vest = first_of(table, BOB, action=False)
    table.play(BOB, vest, onto=host)
    assert table.state.cards[vest].attached_to == host
    table.destroy(BOB, host)
    assert table.state.cards[host].zone == DISCARD and table.state.cards[vest].zone == DISCARD
    assert table.state.cards[vest].attached_to is None
    assert_consistent(table)


def test_actions_cannot_be_played_on_things():
    table = started(new_table(), first=ALICE)
    table.draw(ALICE)
    thing = first_of(table, ALICE, action=False)
    table.play(ALICE, thing)
    with pytest.raises(RuleViolation, match="is an Action"):
        table.play(ALICE, first_of(table, ALICE, action=True), onto=thing)


def test_turns_off_lets_anyone_act_any_time():
    table = started(new_table(turns="off"))
    table.draw(BOB)
    table.draw(BOB)
    table.discard(BOB, table.hand(BOB)[0])
    with pytest.raises(RuleViolation, match="Turns are off"):
        table.end_turn(ALICE)


def test_eliminating_down_to_one_player_ends_the_game_with_a_winner():
    table = started(new_table(players=(ALICE, BOB, CAROL)))
    table.eliminate(ALICE, BOB)
    assert table.state.seat(BOB).out
    assert table.hand(BOB) == []
    table.eliminate(CAROL, CAROL)
    assert table.state.phase == OVER
    assert shown(table.state.result) == "Carol forfeits: Alice wins!"


def test_team_play_allows_one_gift_to_a_teammate_per_turn():
    table = new_table(players=(ALICE, BOB, CAROL), teams="on")
    table.set_team(ALICE, ALICE, "Red")
    table.set_team(ALICE, CAROL, "Red")
    started(table, first=ALICE)
    table.draw(ALICE)
    gift = table.hand(ALICE)[0]
    table.give(ALICE, gift, CAROL)
    assert gift in table.hand(CAROL)
    with pytest.raises(RuleViolation, match="already given a card to a teammate"):
        table.give(ALICE, table.hand(ALICE)[0], CAROL)
    table.win(ALICE, CAROL)
    assert shown(table.state.result) == "Team Red (Alice, Carol) wins!"


def multideck_table() -> Table:
    """Alice and Bob at a multi-deck table, eight Actions of each one's own loaded."""
    table = Table(rng=random.Random(3))
    table.sit(ALICE, "Alice")
    table.sit(BOB, "Bob")
    table.change_setting(ALICE, "multideck", "on")
    for i in range(8):
        table.load_card(ALICE, "Alice", f"A{i}", "A", "")
        table.load_card(BOB, "Bob", f"B{i}", "A", "")
    return table


def test_multideck_players_draw_from_and_discard_to_their_own_piles():
    table = started(multideck_table(), first=ALICE)
    assert all(table.state.cards[n].name.startswith("A") for n in table.hand(ALICE))
    assert all(table.state.cards[n].name.startswith("B") for n in table.hand(BOB))
    table.draw(ALICE)
    gift = table.hand(ALICE)[0]
    table.give(ALICE, gift, BOB, forced=True)
    table.end_turn(ALICE, forced=True)
    table.draw(BOB)
    table.play(BOB, gift)
    assert table.state.cards[gift].zone == DISCARD and table.state.cards[gift].owner == ALICE
    with pytest.raises(RuleViolation, match="can be changed only between games"):
        table.change_setting(ALICE, "multideck", "off")


def test_leaving_mid_game_discards_the_hand_and_passes_the_turn():
    table = started(new_table(players=(ALICE, BOB, CAROL)), first=ALICE)
    table.unseat(ALICE, ALICE)
    assert table.state.turn.player == BOB
    assert table.state.host == BOB
    assert len(table.state.pile(DISCARD)) == 5
    assert_consistent(table)


def test_host_only_moves():
    table = new_table()
    with pytest.raises(RuleViolation, match=r"Only the host \(Alice\)"):
        table.start(BOB)
    with pytest.raises(RuleViolation, match="Only the host"):
        table.change_setting(BOB, "handsize", "3")
    with pytest.raises(RuleViolation, match="whole number from 0 to 50"):
        table.change_setting(ALICE, "handsize", "99")
    with pytest.raises(RuleViolation, match='no setting "colour"'):
        table.change_setting(ALICE, "colour", "red")


#: Card moves are listed several times so that random games last long enough to matter.
MOVES = [
    "draw",
    "drawvis",
    "play",
    "play_on",
    "use",
    "discard",
    "discrand",
    "destroy",
    "give",
    "givething",
    "takerand",
    "shuffle",
    "shufcard",
    "putcard",
    "viewdraw",
    "reorder",
    "endturn",
    "skip",
    "load",
    "setting",
] * 4 + ["eliminate", "sit", "leave", "start", "win"]


@settings(max_examples=120, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    steps=st.lists(
        st.tuples(st.sampled_from(MOVES), st.integers(0, 40), st.sampled_from([ALICE, BOB, CAROL]), st.booleans()),
        max_size=120,
    ),
)
def test_random_moves_never_lose_or_duplicate_a_card_and_replay_rebuilds_the_table(seed, steps):
    table = Table(rng=random.Random(seed))
    for player, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")):
        table.sit(player, name)
    for i in range(12):
        table.load_card(ALICE, "Alice", f"Card {i}", "A" if i % 2 else "T", "")
    # Too few cards for three full hands: dealing runs the draw pile dry.
    table.start(ALICE, forced=True)
    log = list(table.take_changes().events)
    rng = random.Random(seed)
    for move, number, player, forced in steps:
        before = table.state.copy()
        cards = list(table.state.cards) or [1]
        card = cards[number % len(cards)]
        try:
            if move == "draw":
                table.draw(player, forced=forced)
            elif move == "drawvis":
                table.draw(player, visible=True, forced=forced)
            elif move == "play":
                table.play(player, card, forced=forced)
            elif move == "play_on":
                table.play(player, card, onto=rng.choice(cards), forced=forced)
            elif move == "use":
                table.use(player, card, forced=forced)
            elif move == "discard":
                table.discard(player, card, forced=forced)
            elif move == "discrand":
                table.discard(player, None, forced=forced)
            elif move == "destroy":
                table.destroy(player, card, forced=forced)
            elif move == "give":
                table.give(player, card, rng.choice([ALICE, BOB, CAROL]), forced=forced)
            elif move == "givething":
                table.give(player, card, rng.choice([ALICE, BOB, CAROL]), as_thing=True, forced=forced)
            elif move == "takerand":
                table.take_random(player, rng.choice([ALICE, BOB, CAROL]), forced=forced)
            elif move == "shuffle":
                table.shuffle_discard(player, forced=forced)
            elif move == "shufcard":
                table.shuffle_card(player, card, forced=forced)
            elif move == "putcard":
                table.put_on_draw(player, card, rng.choice([1, 2, 5, None]), forced=forced)
            elif move == "viewdraw":
                table.view_draw(player, forced=forced)
            elif move == "reorder":
                top = list(table.state.pile(*table.draw_key(player)))[-rng.randint(1, 3) :]
                rng.shuffle(top)
                table.reorder_draw(player, top, forced=forced)
            elif move == "endturn":
                table.end_turn(player, forced=forced)
            elif move == "skip":
                table.skip(player, table.state.turn.player, target_present=forced)
            elif move == "eliminate":
                table.eliminate(player, rng.choice([ALICE, BOB, CAROL]))
            elif move == "load":
                table.load_card(player, "x", f"New {number}", rng.choice(["A", "T", "Gadget"]), "")
            elif move == "sit":
                table.sit(player, {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}[player])
            elif move == "leave":
                table.unseat(player, player)
            elif move == "setting":
                table.change_setting(
                    table.state.host,
                    rng.choice(["handlimit", "draws", "turns"]),
                    rng.choice(["0", "1", "3", "on", "off"]),
                )
            elif move == "start":
                table.start(table.state.host, forced=forced)
            elif move == "win":
                table.win(table.state.host, player)
            elif move == "newcard":
                table.propose_card(player, f"Idea {number}", rng.choice(["A", "T"]), "proposed")
            elif move == "newrule":
                table.propose_rule(player, f"Rule {number}", "a special rule")
            elif move in ("approve", "repeal"):
                table.vote(player, card, "approve" if move == "approve" else "reject")
            elif move == "editcard":
                table.propose_edit(player, card, f"Edited {number}", "T", "new words")
            elif move == "removecard":
                table.propose_removal(player, card)
            elif move == "withdraw":
                table.withdraw(player, card)
            elif move == "revote":
                table.revote(player, card)
            elif move == "bundle":
                table.bundle(player, [card, rng.choice(cards)])
            elif move == "policy":
                table.change_setting(table.state.host, "vote", rng.choice(["unanimous", "majority", "any"]))
            elif move == "cleardeck":
                table.clear_deck(table.state.host, forced=forced)
            elif move == "loadrule":
                table.load_rule(player, "x", f"Law {number}", "in force")
        except RuleViolation:
            assert not table.take_changes().events, f"{move} was refused but changed the table"
            continue
        changes = table.take_changes()
        if number % 5 == 0:
            # As if storing the move failed: undoing it restores the table exactly.
            table.undo(changes)
            assert table.state == before
            continue
        log.extend(changes.events)
        assert_consistent(table)
    rebuilt = Table().state
    for event in log:
        for delta in event.deltas:
            rebuilt.apply(delta)
    assert rebuilt.cards == table.state.cards
    assert {k: v for k, v in rebuilt.piles.items() if v} == {k: v for k, v in table.state.piles.items() if v}
    assert rebuilt.seats == table.state.seats
    assert rebuilt.turn == table.state.turn
    assert (rebuilt.phase, rebuilt.host, rebuilt.result) == (table.state.phase, table.state.host, table.state.result)
    assert rebuilt.settings == table.state.settings
    assert rebuilt.proposals == table.state.proposals
    assert rebuilt.seen == table.state.seen
    assert sorted(where(table)) == sorted(table.state.cards)


def test_a_deal_refills_an_empty_draw_pile_from_the_discards():
    table = started(new_table(players=(ALICE, BOB, CAROL), things=15, actions=0))
    table.eliminate(ALICE, CAROL)
    assert not table.state.pile(DRAW) and len(table.state.pile(DISCARD)) == 5
    table.take_changes()
    table.sit(4, "Dan")
    assert len(table.hand(4)) == 5
    (join,) = table.take_changes().events
    assert join.data["refilled"] == 5
    table.change_setting(ALICE, "reshuffle", "off")
    table.eliminate(ALICE, 4)
    table.sit(5, "Eve")
    assert table.hand(5) == []


def test_start_refuses_a_deck_too_small_to_deal_unless_forced():
    table = new_table(things=6, actions=0)
    with pytest.raises(RuleViolation, match="too few to deal 5 to each of 2 players"):
        table.start(ALICE)
    assert not table.take_changes().events
    table.start(ALICE, forced=True)
    assert sorted(len(table.hand(p)) for p in (ALICE, BOB)) == [3, 3]


def test_a_player_leaving_a_multideck_table_leaves_their_deck_behind():
    table = new_table(players=(ALICE, BOB, CAROL), things=0, actions=0, multideck="on", handsize=2)
    for player in (ALICE, BOB, CAROL):
        for i in range(6):
            table.load_card(player, "x", f"Card {player}.{i}", "T", "")
    table.unseat(CAROL, CAROL)
    assert len(table.state.pile(DRAW)) == 6 and not table.state.pile(DRAW, CAROL)
    started(table)
    assert sorted(len(table.state.pile(DRAW, p)) for p in (ALICE, BOB)) == [7, 7]
    given = table.hand(ALICE)[0]
    table.give(ALICE, given, BOB, forced=True)
    table.unseat(ALICE, ALICE)
    assert table.state.cards[given].deck_owner == BOB
    assert len(table.state.pile(DISCARD, BOB)) == 8
    assert all(table.state.cards[n].deck_owner == BOB for n in table.state.pile(DISCARD, BOB))
    assert table_problems(table.state) == []


def test_restoring_a_table_into_itself_keeps_numbers_and_attachments():
    table = started(new_table())
    table.draw(ALICE)
    things = [n for n in table.hand(ALICE) if not table.state.cards[n].is_action][:2]
    table.play(ALICE, things[0])
    table.play(ALICE, things[1], onto=things[0], forced=True)
    saved = snapshot(table.state)
    before = table.state.copy()
    table.take_changes()
    table.restore(ALICE, "Same", saved, forced=True)  # a game is running: only forced
    events = table.take_changes().events
    assert not [d for e in events for d in e.deltas if d[0] == "add"]
    assert table.state.piles == before.piles and table.state.cards == before.cards
    assert table.state.cards[things[1]].attached_to == things[0]
    assert table_problems(table.state) == []
    table.load_card(ALICE, "Alice", "Newcomer", "T", "", forced=True)
    newcomer = table.state.next_number - 1
    saved = snapshot(table.state)
    # A card edited since the deck was saved is another card now: the saved one gets a new number.
    name = table.state.cards[things[0]].name
    table.propose_edit(BOB, things[0], "Changed", "T", "Edited since")
    table.vote(ALICE, things[0], "approve")
    table.take_changes()
    table.restore(ALICE, "Same", saved, forced=True)  # a game is running: only forced
    (loaded,) = [e for e in table.take_changes().events if e.kind == "loaddeck"]
    assert loaded.data["renumbered"] == [1, newcomer + 1]
    assert (table.state.cards[newcomer + 1].name, table.state.cards[newcomer + 1].zone) == (name, PLAY)
    assert table.state.cards[things[0]].name == "Changed" and table.state.cards[things[0]].zone == "removed"
    assert table.state.cards[things[1]].attached_to == newcomer + 1
    assert table.state.cards[newcomer].name == "Newcomer"


def test_the_last_team_left_wins_and_elimination_lasts_one_game():
    table = started(new_table(players=(ALICE, BOB, CAROL), teams="on"))
    table.set_team(ALICE, ALICE, "Owls")
    table.set_team(ALICE, BOB, "Owls")
    table.eliminate(ALICE, ALICE)
    assert table.state.phase == PLAYING
    table.eliminate(CAROL, CAROL)
    assert table.state.phase == OVER
    assert shown(table.state.result) == "Only team Owls is left: Team Owls (Alice, Bob) wins!"
    assert not any(seat.out for seat in table.state.seats)
    assert table.voters() == [ALICE, BOB, CAROL]
    assert table_problems(table.state) == []


def test_a_card_is_put_into_the_draw_pile_at_the_place_asked_and_only_forced_with_turns_on():
    table = started(new_table())
    table.draw(ALICE)
    table.take_changes()
    mine = table.hand(ALICE)[0]
    with pytest.raises(RuleViolation, match="only when a card says so"):
        table.put_on_draw(ALICE, mine, 1)
    assert not table.take_changes().events
    table.put_on_draw(ALICE, mine, 1, forced=True)
    assert table.state.pile(DRAW)[-1] == mine
    size = len(table.state.pile(DRAW))
    table.put_on_draw(ALICE, mine, None, forced=True)
    assert table.state.pile(DRAW)[0] == mine
    table.put_on_draw(ALICE, mine, 3, forced=True)
    assert list(reversed(table.state.pile(DRAW))).index(mine) == 2
    # Deeper than the pile is the bottom; no place above the top.
    table.put_on_draw(ALICE, mine, 10**9, forced=True)
    assert table.state.pile(DRAW)[0] == mine
    with pytest.raises(RuleViolation, match="count from 1"):
        table.put_on_draw(ALICE, mine, 0, forced=True)
    events = table.take_changes().events
    assert [(e.data["depth"], e.data["size"]) for e in events] == [(1, size), (size, size), (3, size), (size, size)]
    assert_consistent(table)


def test_in_a_multi_deck_game_a_card_goes_to_its_own_decks_draw_pile():
    table = started(multideck_table(), first=ALICE)
    bobs = table.hand(BOB)[0]
    table.put_on_draw(ALICE, bobs, 1, forced=True)
    assert table.state.pile(DRAW, BOB)[-1] == bobs


def test_reordering_needs_a_look_at_the_pile_as_it_is_and_exactly_its_top_cards():
    table = started(new_table(turns="off"))
    top = list(reversed(table.state.pile(DRAW)))[:3]
    # Before looking, any list is refused alike: trying numbers tells nothing.
    for attempt in (top, [top[0]], [999], [top[1], top[0]]):
        with pytest.raises(RuleViolation, match="not looked through it since it last changed"):
            table.reorder_draw(ALICE, attempt)
    assert table.view_draw(ALICE)[:3] == top
    table.take_changes()
    with pytest.raises(RuleViolation, match="each card once"):
        table.reorder_draw(ALICE, [top[0], top[0]])
    with pytest.raises(RuleViolation, match="not the top 2 cards"):
        table.reorder_draw(ALICE, [top[0], top[2]])
    assert not table.take_changes().events
    table.reorder_draw(ALICE, [top[2], top[0], top[1]])
    assert list(reversed(table.state.pile(DRAW)))[:3] == [top[2], top[0], top[1]]
    # The player knows the order they made: they may reorder again without looking.
    table.reorder_draw(ALICE, [top[0], top[2]])
    # A draw changes the pile: look again first (Bob's look does not count for Alice).
    table.draw(BOB)
    table.view_draw(BOB)
    with pytest.raises(RuleViolation, match="look first"):
        table.reorder_draw(ALICE, [top[2]])
    table.view_draw(ALICE)
    table.reorder_draw(ALICE, [top[2]])


def test_reordering_with_turns_on_needs_force_and_a_known_card_put_on_top_keeps_the_pile_known():
    table = started(new_table())
    with pytest.raises(RuleViolation, match="reordered only when a card says so"):
        table.reorder_draw(ALICE, [1])
    table.view_draw(ALICE, forced=True)
    table.draw(ALICE)
    with pytest.raises(RuleViolation, match="look first"):
        table.reorder_draw(ALICE, [1], forced=True)
    table.view_draw(ALICE, forced=True)
    mine = table.hand(ALICE)[0]
    table.put_on_draw(ALICE, mine, 2, forced=True)
    second, first = table.state.pile(DRAW)[-2:]
    assert second == mine
    table.reorder_draw(ALICE, [second, first], forced=True)
    assert table.state.pile(DRAW)[-1] == mine


def test_when_no_cards_are_left_those_without_any_are_out_and_nobody_left_is_a_draw():
    """Seed 003: "When all the cards are played and there are none left, anyone without
    cards is out of the game, occasionally resulting in a draw." What follows any move
    (``settle``): with the draw and discard piles empty, each player holding no card is
    out; the last side left wins; nobody left, the game is drawn."""
    table = started(new_table(things=10, actions=0), first=ALICE)
    assert table.state.pile(DRAW) == [] and table.state.pile(DISCARD) == []
    table.settle()
    assert table.take_changes().events == []  # everyone holds cards: nothing follows
    # Every card into play at once (as a card might do), then what follows.
    for player in (ALICE, BOB):
        for number in list(table.hand(player)):
            table.play(player, number, forced=True)
    table.settle()
    events = table.take_changes().events
    assert events[-1].data["out_of_cards"] == ["Alice", "Bob"]
    assert table.state.phase == OVER and events[-1].data["outcome"] == "draw"
    assert "is a draw" in shown(table.state.result)
    assert_consistent(table)
