"""The rules of Gnav, each read against the seed (seeds/004, the Czech original) and its
readings (``games.gnav.rules``), on tables whose deals are stacked through deltas."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import NOBODY, OVER, PLAYING, WAITING, RuleViolation
from games.gnav import KIND, cards
from games.gnav.rules import BOT_NAMES, DEAL_PAUSE, MAX_SEATS, GnavTable
from i18n import shown
from tests.gnav_helpers import kinds, seated, stack, started


def lives(table: GnavTable) -> dict[int, int]:
    return {seat.account_id: seat.lives for seat in table.state.seats}


def events(table: GnavTable) -> list:
    return table.take_changes().events


# -- the deck ----------------------------------------------------------------------


def test_the_deck_is_two_of_each_of_21_ranks_with_the_top_five_matadors():
    assert len(cards.DECK) == 42
    assert [rank.english for rank in cards.RANKS][:4] == ["Fool", "Owl", "Pot", "0"]
    assert [rank.norwegian for rank in cards.RANKS if rank.matador] == ["Hus", "Hest", "Katt", "Drak", "Gjøk"]
    assert all(cards.DECK.count(rank.key) == 2 for rank in cards.RANKS)
    assert cards.lookup("Gjøk") == cards.lookup("cuckoo") == "cuckoo"


# -- seats, bots, settings -------------------------------------------------------------


def test_the_first_to_join_hosts_and_the_table_seats_at_most_eight():
    table = seated(MAX_SEATS)
    assert table.state.host == 1
    with pytest.raises(RuleViolation, match="full"):
        table.sit(99, "Late")
    with pytest.raises(RuleViolation, match="already"):
        table.sit(2, "Bo")


def test_nobody_joins_mid_match_and_a_host_leaving_passes_the_table_to_the_next_person():
    table = started(3)
    with pytest.raises(RuleViolation, match="match is being played"):
        table.sit(9, "Zed")
    table.unseat(1, 1)
    assert table.state.host == 2


def test_the_host_hands_the_table_over_to_a_person_and_removes_people_not_bots_with_kick():
    table = seated(3)
    table.add_bot(1, "normal")
    with pytest.raises(RuleViolation, match="Only the host"):
        table.set_host(2, 3)
    with pytest.raises(RuleViolation, match="must be a person"):
        table.set_host(1, -1)
    table.set_host(1, 2)
    assert table.state.host == 2
    with pytest.raises(RuleViolation, match="Only the host"):
        table.unseat(1, 3)
    with pytest.raises(RuleViolation, match="removebot"):
        table.unseat(2, -1)
    table.unseat(2, 3)
    assert [seat.account_id for seat in table.state.seats] == [1, 2, -1]
    table.start(2)
    table.take_changes()
    table.unseat(2, 1)  # kicked mid-match: forfeits, as a leaver does
    assert table.state.seat(1).out and table.state.seat(1).left


def test_computer_players_take_fixed_names_and_new_negative_ids_never_reused():
    table = seated(1)
    with pytest.raises(RuleViolation, match="Only the host"):
        table.add_bot(2, "easy")
    with pytest.raises(RuleViolation, match="easy, normal, strong"):
        table.add_bot(1, "genius")
    with pytest.raises(RuleViolation, match="named"):
        table.add_bot(1, "easy", "Robocop")
    table.add_bot(1, "normal")
    table.remove_bot(1, BOT_NAMES[0])
    table.add_bot(1, "strong", BOT_NAMES[2])
    bot = table.state.seats[-1]
    assert (bot.account_id, bot.name, bot.bot) == (-2, BOT_NAMES[2], "strong")


def test_computer_players_are_not_removed_mid_match():
    table = seated(1)
    table.add_bot(1, "easy")
    table.start(1)
    with pytest.raises(RuleViolation, match="to its end"):
        table.remove_bot(1, BOT_NAMES[0])


def test_settings_are_checked_and_lives_change_only_between_matches():
    table = seated(2)
    for name, value in (
        ("lives", 0),
        ("lives", 10),
        ("turntime", 5),
        ("botdelay", 11),
        ("colour", 1),
        ("lives", "\uff15"),
    ):
        with pytest.raises(RuleViolation):
            table.set(1, name, value)
    table.set(1, "botdelay", "2.5")
    assert table.state.settings["botdelay"] == 2.5
    table.start(1)
    with pytest.raises(RuleViolation, match="between matches"):
        table.set(1, "lives", 5)
    table.set(1, "turntime", 30)


def test_a_match_needs_two_players_and_the_host_to_start_it():
    table = seated(1)
    with pytest.raises(RuleViolation, match="at least two"):
        table.start(1)
    table = seated(2)
    with pytest.raises(RuleViolation, match="Only the host"):
        table.start(2)
    table.start(1)
    assert table.state.phase == PLAYING and lives(table) == {1: 3, 2: 3}


# -- the deal ------------------------------------------------------------------------


def test_each_player_gets_one_hidden_card_and_the_dealer_acts_last():
    table = started(4)
    state = table.state
    assert sorted(state.hands) == [1, 2, 3, 4]
    assert state.order[-1] == state.dealer and state.turn == state.order[0]
    assert len(state.stock) == 42 - 4


def test_a_dealt_fool_is_revealed_to_everyone():
    for seed in range(200):
        table = seated(4, seed=seed)
        table.start(1)
        deal = next(event for event in events(table) if event.kind == "deal")
        if deal.data["fools"]:
            holder = deal.data["fools"][0]
            assert table.state.hands[holder] == cards.FOOL
            assert KIND.event_for(table.state, deal, 999)["fools"] == deal.data["fools"]
            return
    pytest.fail("no Fool dealt in 200 deals")


def test_the_dealer_moves_to_the_next_survivor_each_deal():
    table = started(4)
    table.state.apply(["seat", 3, {"lives": 0, "out": True}])
    stack(table, 2, {4: "ii", 1: "ix", 2: "x"})
    for actor in (4, 1, 2):
        table.keep(actor)
    table.next_deal(table.state.step)
    assert table.state.dealer == 4  # Cy, next after Bo, is out
    assert table.state.order == [1, 2, 4]


# -- a turn ----------------------------------------------------------------------------


def test_keep_passes_the_turn_on_to_the_left():
    table = started(4)
    stack(table, 4, {1: "v", 2: "vi", 3: "vii", 4: "viii"})
    table.keep(1)
    assert table.state.turn == 2


def test_a_plain_card_must_accept_a_swap_and_its_holder_decides_on_their_own_turn():
    table = started(4)
    stack(table, 4, {1: "ii", 2: "x", 3: "vii", 4: "viii"})
    table.swap(1)
    assert table.state.hands[1] == "x" and table.state.hands[2] == "ii"
    assert table.state.turn == 2


def test_moves_out_of_turn_or_out_of_date_are_refused_and_change_nothing():
    table = started(4)
    stack(table, 4, {1: "ii", 2: "x", 3: "vii", 4: "viii"})
    before = copy.deepcopy(table.state)
    with pytest.raises(RuleViolation, match="Ann's turn"):
        table.keep(2)
    with pytest.raises(RuleViolation, match="out of date"):
        table.swap(1, step=table.state.step - 1)
    with pytest.raises(RuleViolation, match="already over"):
        table.timeout(table.state.step - 1)
    assert KIND.differences(table.state, before) == [] and events(table) == []


def test_the_turn_timer_keeps_the_card():
    table = started(4)
    stack(table, 4, {1: "ii", 2: "x", 3: "vii", 4: "viii"})
    table.timeout(table.state.step)
    assert table.state.hands[1] == "ii" and table.state.turn == 2
    assert "timeout" in kinds(table)


def test_a_move_undone_before_it_is_stored_leaves_the_table_as_it_was():
    table = started(4)
    stack(table, 4, {1: "ii", 2: "v", 3: "horse", 4: "cat"})
    table.swap(1)
    table.take_changes()
    before = copy.deepcopy(table.state)
    table.swap(2)  # past the Horse to the Cat: a life lost, the first swap undone
    changes = table.take_changes()
    assert table.state.hands != before.hands
    table.undo(changes)
    assert KIND.differences(table.state, before) == []


# -- matadors --------------------------------------------------------------------------


def test_the_cuckoo_asked_is_revealed_and_ends_the_deal_at_once():
    table = started(4)
    stack(table, 4, {1: "ii", 2: "cuckoo", 3: "pot", 4: "viii"})
    table.swap(1)
    assert kinds(table)[:2] == ["cuckoo", "settle"]
    # Ann kept her II: Cy's Pot is the lowest.
    assert lives(table) == {1: 3, 2: 3, 3: 2, 4: 3}
    assert table.state.turn == NOBODY


def test_the_dragoon_refuses_costs_the_asker_a_life_and_play_goes_on_left_of_it():
    table = started(4)
    stack(table, 4, {1: "ii", 2: "dragoon", 3: "pot", 4: "viii"})
    table.swap(1)
    assert table.state.hands[1] == "ii" and lives(table)[1] == 2
    assert table.state.turn == 3
    assert table.state.revealed == [[2, "dragoon", "refuse"]]


def test_the_cat_refuses_and_undoes_every_swap_of_the_deal_even_past_a_horse():
    table = started(5)
    stack(table, 5, {1: "ii", 2: "vi", 3: "horse", 4: "cat", 5: "x"})
    table.swap(1)  # Ann and Bo swap
    assert table.state.hands[2] == "ii"
    table.swap(2)  # Bo passes Cy's Horse and meets Di's Cat
    assert lives(table)[2] == 2
    assert table.state.hands == {1: "ii", 2: "vi", 3: "horse", 4: "cat", 5: "x"}
    assert table.state.turn == 5 and table.state.swaps == []
    assert "undo" in kinds(table)


def test_horses_and_houses_refuse_without_penalty_and_are_passed_in_a_row():
    table = started(5)
    stack(table, 5, {1: "pot", 2: "horse", 3: "house", 4: "ix", 5: "x"})
    table.swap(1)
    assert table.state.hands[1] == "ix" and table.state.hands[4] == "pot"
    assert lives(table)[1] == 3
    assert kinds(table)[:3] == ["pass", "pass", "swap"]
    # Reading: the passed holders still have their turns.
    assert table.state.turn == 2


# -- the dealer and the stock ----------------------------------------------------------


def test_the_dealer_swaps_with_the_top_of_the_stock():
    table = started(3)
    stack(table, 3, {1: "x", 2: "xi", 3: "ii"}, stock_top=("viii",))
    table.keep(1)
    table.keep(2)
    table.swap(3)
    settle = next(event for event in events(table) if event.kind == "settle")
    assert dict(settle.data["cards"])[3] == "viii"
    assert "ii" in table.state.stock


def test_an_ask_past_the_dealers_horse_reaches_the_stock():
    table = started(3)
    stack(table, 3, {1: "x", 2: "ii", 3: "horse"}, stock_top=("vii",))
    table.keep(1)
    table.swap(2)
    assert table.state.hands[2] == "vii" and table.state.hands[3] == "horse"
    assert table.state.turn == 3


def test_a_horse_drawn_from_the_stock_is_passed_and_the_next_card_drawn():
    table = started(3)
    stack(table, 3, {1: "x", 2: "xi", 3: "ii"}, stock_top=("horse", "house", "vi"))
    table.keep(1)
    table.keep(2)
    table.swap(3)
    assert [kind for kind in kinds(table) if kind in ("pass", "stock")] == ["pass", "pass", "stock"]
    assert lives(table) == {1: 3, 2: 3, 3: 2}  # the VI is still the lowest


@pytest.mark.parametrize("matador", ["dragoon", "cat"])
def test_a_dragoon_or_cat_drawn_from_the_stock_refuses_and_costs_the_dealer_a_life(matador):
    table = started(3)
    stack(table, 3, {1: "ii", 2: "xi", 3: "vi"}, stock_top=(matador,))
    table.swap(1)  # Ann gives Bo her II
    table.keep(2)
    table.swap(3)
    if matador == "cat":
        # The Cat undoes Ann's swap: she has her II back and is the lowest.
        assert lives(table) == {1: 2, 2: 3, 3: 2}
    else:
        assert lives(table) == {1: 3, 2: 2, 3: 2}


def test_a_cuckoo_drawn_from_the_stock_ends_the_deal_and_the_dealer_keeps_the_card():
    table = started(3)
    stack(table, 3, {1: "x", 2: "xi", 3: "ii"}, stock_top=("cuckoo",))
    table.keep(1)
    table.keep(2)
    table.swap(3)
    assert table.state.hands[3] == "ii" and lives(table)[3] == 2
    assert "cuckoo" in kinds(table)


# -- settlement ------------------------------------------------------------------------


def test_all_holders_of_the_lowest_card_lose_a_life():
    table = started(4)
    stack(table, 4, {1: "iii", 2: "iii", 3: "cuckoo", 4: "x"})
    for actor in (1, 2, 3, 4):
        table.keep(actor)
    assert lives(table) == {1: 2, 2: 2, 3: 3, 4: 3}
    assert table.state.turn == NOBODY and table.due().reason == "deal" and table.due().delay == DEAL_PAUSE


def test_one_fool_costs_its_holder_and_the_lowest_of_the_others_a_life():
    table = started(4)
    stack(table, 4, {1: "fool", 2: "iv", 3: "iv", 4: "x"})
    for actor in (1, 2, 3, 4):
        table.keep(actor)
    assert lives(table) == {1: 2, 2: 2, 3: 2, 4: 3}


def test_two_fools_cost_only_their_holders_a_life():
    table = started(4)
    stack(table, 4, {1: "fool", 2: "owl", 3: "fool", 4: "x"})
    for actor in (1, 2, 3, 4):
        table.keep(actor)
    assert lives(table) == {1: 2, 2: 3, 3: 2, 4: 3}


def test_surviving_fool_holders_rest_the_next_deal_then_return():
    table = started(4)
    stack(table, 4, {1: "fool", 2: "iv", 3: "v", 4: "x"})
    for actor in (1, 2, 3, 4):
        table.keep(actor)
    assert "rest" in kinds(table)
    table.next_deal(table.state.step)
    assert 1 not in table.state.order and 1 not in table.state.hands
    with pytest.raises(RuleViolation, match="resting"):
        table.keep(1)
    for actor in list(table.state.order):
        if table.state.turn == actor:
            table.keep(actor)
    assert lives(table)[1] == 2  # a rester pays nothing
    table.next_deal(table.state.step)
    assert 1 in table.state.order


def test_a_fool_holder_brought_to_zero_does_not_rest():
    table = started(3, lives=1)
    stack(table, 3, {1: "fool", 2: "iv", 3: "x"})
    for actor in (1, 2, 3):
        table.keep(actor)
    assert table.state.phase == OVER
    assert not any(seat.resting for seat in table.state.seats)


def test_with_fewer_than_two_contestants_the_deal_is_skipped_and_nobody_loses():
    table = started(2)
    stack(table, 2, {1: "fool", 2: "x"})
    table.keep(1)
    table.keep(2)
    # Reading: with one Fool, the lowest of the others loses too, here the only other.
    assert lives(table) == {1: 2, 2: 2} and table.state.seats[0].resting
    table.take_changes()
    table.next_deal(table.state.step)
    assert kinds(table)[:2] == ["skip", "deal"]
    assert lives(table) == {1: 2, 2: 2}
    assert sorted(table.state.order) == [1, 2] and not table.state.seats[0].resting


def test_a_player_brought_to_zero_by_a_dragoon_leaves_at_once_and_is_not_compared():
    table = started(3, lives=1)
    table.state.apply(["seat", 3, {"lives": 2}])
    table.state.apply(["seat", 2, {"lives": 2}])
    stack(table, 3, {1: "x", 2: "dragoon", 3: "ii"})
    table.swap(1)
    assert table.state.seat(1).out and kinds(table)[:2] == ["refuse", "out"]
    table.keep(3)
    # Ann's X is not compared: Cy's II is the lowest of the two left.
    assert lives(table) == {1: 0, 2: 2, 3: 1}


def test_a_player_brought_to_zero_by_a_cat_is_out_at_once():
    table = started(4, lives=1)
    for account_id in (2, 3, 4):
        table.state.apply(["seat", account_id, {"lives": 3}])
    stack(table, 4, {1: "ii", 2: "cat", 3: "v", 4: "x"})
    table.swap(1)
    assert table.state.seat(1).out and table.state.turn == 3


def test_everyone_left_reaching_zero_together_is_a_draw():
    table = started(2, lives=1)
    stack(table, 2, {1: "iv", 2: "iv"})
    table.keep(1)
    table.keep(2)
    assert "draw" in kinds(table)
    assert table.state.phase == OVER and shown(table.state.result).startswith("A draw")


def test_the_last_survivor_wins_and_the_host_may_start_a_new_match():
    table = started(2, lives=1)
    stack(table, 2, {1: "iv", 2: "v"})
    table.keep(1)
    table.keep(2)
    assert table.state.phase == OVER and shown(table.state.result) == "Bo won the match."
    assert table.due() is None
    table.start(1)
    assert table.state.phase == PLAYING and lives(table) == {1: 1, 2: 1}


def test_a_leaver_mid_match_forfeits_and_play_goes_on():
    table = started(3)
    stack(table, 3, {1: "ii", 2: "v", 3: "x"})
    table.unseat(1, 1)
    assert table.state.seat(1).out and table.state.turn == 2
    table.keep(2)
    table.keep(3)
    assert lives(table)[2] == 2  # Ann's II is no longer compared
    with pytest.raises(RuleViolation, match="already left"):
        table.unseat(1, 1)


def test_the_last_player_left_after_leavers_wins_and_leavers_seats_go():
    table = started(2)
    table.unseat(2, 2)
    assert table.state.phase == OVER and shown(table.state.result) == "Ann won the match."
    assert [seat.account_id for seat in table.state.seats] == [1]


def test_the_match_is_abandoned_when_the_last_person_in_it_leaves_the_bots_alone():
    # A match of computer players nobody plays in would wait for a person forever (the
    # room pauses when its people are gone), with no host to delete the room.
    table = seated(1)
    table.add_bot(1, "normal")
    table.add_bot(1, "easy")
    table.start(1)
    table.take_changes()
    table.unseat(1, 1)
    assert kinds(table)[-1] == "abandon"
    state = table.state
    assert state.phase == OVER and state.turn == NOBODY and state.host == NOBODY
    assert shown(state.result) == "Nobody won: the last person playing left."
    assert [seat.bot for seat in state.seats] == ["normal", "easy"]
    table.sit(2, "Bo")  # the next person in hosts the table
    assert table.state.host == 2


def test_a_person_out_of_lives_keeps_the_bots_playing_until_they_leave_too():
    table = seated(2)
    table.add_bot(1, "normal")
    table.add_bot(1, "normal")
    table.start(1)
    table.unseat(2, 2)
    assert table.state.phase == PLAYING  # Ann still plays with the bots
    table.state.apply(["seat", 1, {"out": True, "lives": 0}])
    table.unseat(1, 1)
    assert table.state.phase == OVER and shown(table.state.result).startswith("Nobody won")


# -- what the table does by itself -------------------------------------------------------


def test_due_plays_a_computer_player_times_a_person_and_deals_after_a_settlement():
    table = seated(1)
    table.add_bot(1, "normal")
    table.set(1, "botdelay", 0.5)
    table.set(1, "turntime", 20)
    table.start(1)
    stack(table, 1, {-1: "ii", 1: "x"})
    due = table.due()
    assert (due.reason, due.actor, due.delay) == ("bot", -1, 0.5)
    due.move(table)
    due = table.due()
    assert (due.reason, due.actor, due.delay) == ("timer", 1, 20)
    stale = due
    table.keep(1)
    with pytest.raises(RuleViolation):
        stale.move(table)
    assert table.due().reason == "deal"


# -- replay and invariants ---------------------------------------------------------------


def replay_matches(table: GnavTable, moves: int, rng: random.Random) -> list:
    """Play ``moves`` random legal moves; the events' deltas as JSON would store them."""
    stored = []
    for _ in range(moves):
        state = table.state
        if state.phase != PLAYING:
            table.start(1)
        elif state.turn == NOBODY:
            table.next_deal(state.step)
        elif rng.random() < 0.03 and state.turn > 0:
            table.timeout(state.step)
        else:
            (table.swap if rng.random() < 0.5 else table.keep)(state.turn)
        assert KIND.problems(table.state) == []
        stored.extend(json.loads(json.dumps(event.deltas)) for event in table.take_changes().events)
    return stored


def test_replaying_every_events_deltas_rebuilds_the_table():
    table = seated(5, lives=2, seed=7)
    table.add_bot(1, "strong")
    table.take_changes()
    initial = json.loads(json.dumps(KIND.snapshot(table.state)))
    seats = [
        {k: v for k, v in vars(seat).items() if k in ("account_id", "name", "team", "out", "absent", "bot")}
        for seat in table.state.seats
    ]
    start = (table.state.phase, table.state.host, dict(table.state.settings), seats, initial)
    log = replay_matches(table, 400, random.Random(3))
    rebuilt = KIND.restore(*start)
    for deltas in log:
        for delta in deltas:
            rebuilt.apply(delta)
    assert KIND.differences(rebuilt, table.state) == []


def test_a_snapshot_restores_the_same_table():
    table = started(4)
    table.swap(table.state.turn)
    state = table.state
    seats = [vars(seat) for seat in state.seats]
    restored = KIND.restore(
        state.phase, state.host, state.settings, seats, json.loads(json.dumps(KIND.snapshot(state)))
    )
    assert KIND.differences(restored, state) == []


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, MAX_SEATS), lives=st.integers(1, 3))
def test_random_legal_play_never_breaks_the_invariants(seed, players, lives):
    rng = random.Random(seed)
    table = seated(players, lives, seed)
    log = replay_matches(table, 150, rng)
    assert log and KIND.problems(table.state) == []
    assert table.state.phase in (PLAYING, OVER, WAITING)
