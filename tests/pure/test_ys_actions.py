"""The yellow-edged action cards of Ys (seed 001, "Akční karty"; games/ys/actions.py):
each card's effect on a constructed position, its window and refusals, and the Spy's
secrecy for every other seat."""

from __future__ import annotations

import json
from typing import Any

import pytest

from commands.ys.render import prompt, render_event
from games.base import RuleViolation
from games.ys import KIND
from games.ys import tables as t
from games.ys.rules import YsTable
from games.ys.visibility import seat_view
from tests.pure.test_ys_rules import bid_all, city, gems, market, points, position, started

EMPTY = [[], [], [], []]


def holding(table: YsTable, player: int, *cards: str) -> None:
    """``player`` holds ``cards``, won in round 1; the table is in round 2, bidding."""
    table.state.apply(["player", player, {"cards": [[card, 1] for card in cards]}])
    table.state.apply(["set", "round", 2])


def resolving(table: YsTable, placed: list[tuple[int, int, list[Any]]], **more: Any) -> None:
    """Resolve a round in which ``placed`` is on the board (fronts all 0s)."""
    fronts = {h["id"]: [0, 0, 0] for h in table.state.players if h["id"] > 0}
    more.setdefault("market", [None] * 4)
    more.setdefault("quadrant_gems", [[], [], [], []])
    more.setdefault("corners", [None] * 4)
    position(table, placed, fronts, **more)


def test_refusals_wrong_window_not_held_won_this_round_two_played_and_words_for_a_plain_card():
    table = started(3)
    table.state.apply(["player", 1, {"cards": [["bishop", 1], ["banker", 1], ["jeweller", 1]]}])
    with pytest.raises(RuleViolation, match="round after"):
        table.play(1, "bishop")
    table.state.apply(["set", "round", 2])
    with pytest.raises(RuleViolation, match="no such card"):
        table.play(2, "bishop")
    with pytest.raises(RuleViolation, match="by its name alone"):
        table.play(1, "banker", "red", "blue")
    table.play(1, "banker")
    table.play(1, "jeweller")
    with pytest.raises(RuleViolation, match="played 2"):
        table.play(1, "bishop")
    table.state.apply(["player", 1, {"played": 0}])
    bid_all(table)
    with pytest.raises(
        RuleViolation, match="bishop cannot be played now: it takes effect at the start of placement, so"
    ):
        table.play(1, "bishop")
    with pytest.raises(RuleViolation, match="no Spy"):
        table.play(1, "spy", "bo", "city", "0", "port")


def test_start_of_resolution_cards_ask_in_turn_order_banker_jeweller_captain():
    table = started(4)
    holding(table, 2, "banker")
    holding(table, 1, "jeweller", "captain")
    table.play(2, "banker")
    table.play(1, "jeweller")
    table.play(1, "captain")
    laid = list(table.state.laid)
    resolving(table, [(1, 3, city(0, "port"))], quadrant_gems=[["red"], ["blue"], [], []])
    assert [prompt["ask"] for prompt in table.state.awaiting] == ["jeweller", "captain", "banker"]
    with pytest.raises(RuleViolation, match="waits for Ann"):
        table.choose(2, "red blue")
    with pytest.raises(RuleViolation, match="Take two gems"):
        table.choose(1, "red black")
    table.choose(1, "red red")
    assert gems(table, 1) == {"red": 2}
    with pytest.raises(RuleViolation, match="Swap two quadrants"):
        table.choose(1, "0 0")
    table.choose(1, "0 1")
    assert table.state.laid[:2] == [laid[1], laid[0]]
    with pytest.raises(RuleViolation, match="different"):
        table.choose(2, "red red")
    table.choose(2, "red blue")
    # Quadrant 0 now holds the blue gem for its only broker; prices moved before the round's.
    assert gems(table, 1) == {"red": 2, "blue": 1, "black": 1}
    assert table.state.round == 3 or table.state.awaiting


def test_merchant_pays_five_for_every_commercial_ring_and_lasts_the_round():
    table = started(4)
    holding(table, 3, "merchant")
    table.play(3, "merchant")
    table.take_changes()
    resolving(table, [(1, 3, city(0, "commercial")), (2, 3, city(1, "commercial"))])
    assert points(table, 1) == 5 and points(table, 2) == 5
    assert table.state.effects == []
    # The events say what was won: the players read "5 points".
    wins = [e.data for e in table.take_changes().events if e.kind == "win" and e.data.get("prize") == "points"]
    assert [win["points"] for win in wins] == [5, 5]


def test_intriguer_orders_city_ties_but_not_the_market():
    table = started(4)
    holding(table, 4, "intriguer")
    table.play(4, "intriguer")
    # 1 and 2 tie at 3 on the port: 1 would win (lower order card); 4 decides 2.
    resolving(table, [(1, 3, city(0, "port")), (2, 3, city(0, "port"))], quadrant_gems=[["red", "blue"], [], [], []])
    prompt = table.state.awaiting[0]
    assert prompt == {"player": 4, "ask": "intriguer", "tied": [1, 2]}
    with pytest.raises(RuleViolation, match="Order the tied"):
        table.choose(4, "Ann")
    table.choose(4, "Bo Ann")
    assert gems(table, 2) == {"black": 1}
    # The quadrant's tie too: 2 first takes both gems (asked), 1 none left.
    assert table.state.awaiting[0]["ask"] == "intriguer"
    table.choose(4, "bo ann")
    assert gems(table, 2) == {"black": 1, "red": 1, "blue": 1} and gems(table, 1) == {}


def test_herald_moves_a_broker_city_to_market_scores_market_to_market_does_not():
    table = started(4)
    holding(table, 1, "herald")
    table.play(1, "herald")
    resolving(table, [(1, 5, city(0, "port")), (2, 1, market(0, "red"))], market=["green", "blue", None, None])
    assert table.state.awaiting == [{"player": 1, "ask": "herald"}]
    with pytest.raises(RuleViolation, match="one broker"):
        table.choose(1, "5 city 0 port market 0 red")
    with pytest.raises(RuleViolation, match="without a gem"):
        table.choose(1, "5 city 0 port market 3 red")
    with pytest.raises(RuleViolation, match="no broker 4"):
        table.choose(1, "4 city 0 port market 1 red")
    table.choose(1, "5 city 0 port market 1 red")
    assert points(table, 1) == 1
    assert gems(table, 1) == {"blue": 1}  # row 1 won; the port left empty
    assert table.state.round == 3 or table.state.awaiting


def test_mercenary_after_a_pair_makes_a_broker_count_five_and_the_turn_waits_for_it():
    table = started(3)
    holding(table, 1, "mercenary")
    table.play(1, "mercenary")
    bid_all(table)
    table.place(1, 3, city(0, "port"), 4, city(1, "port"))
    assert table.state.awaiting == [{"player": 1, "ask": "mercenary"}] and table.state.turn_part == "cards"
    with pytest.raises(RuleViolation, match="waits for Ann"):
        table.place(2, 3, city(0, "port"), 4, city(0, "port"))
    table.choose(1, "3 city 0 port")
    assert table.state.turn == 2 and table.state.turn_part == "pair"
    assert [e.get("worth") for e in table.state.placed] == [5, None]
    assert seat_view(table.state, 2)["placed"][0]["worth"] == 5
    assert table.rank(lambda space: space == city(0, "port")) == [(1, 5)]


def test_magician_swaps_two_brokers_or_one_with_the_kings_favour_keeping_secrets():
    table = started(3, favour=1)
    holding(table, 1, "magician")
    table.state.apply(["player", 1, {"favour": [7], "screen": [0, 1, 1, 1, 3, 3, 3, 4, 4, 5, 5, 6, 2]}])
    table.play(1, "magician")
    bid_all(table)
    table.place(1, 3, city(0, "port"), 4, city(1, "port"))
    with pytest.raises(RuleViolation, match="no broker 6 on the King"):
        table.choose(1, "3 city 0 port 6 favour")
    table.choose(1, "4 city 1 port 7 favour")
    event = next(event for event in table.take_changes().events if event.kind == "card")
    assert "values" not in KIND.event_for(table.state, event, 2)
    assert KIND.event_for(table.state, event, 1)["values"] == [4, 7]
    assert table.state.player(1)["favour"] == [4]
    assert table.state.placed[1] == {"player": 1, "value": 7, "up": False, "space": city(1, "port")}
    assert seat_view(table.state, 2)["placed"][1]["value"] is None
    assert [problem for problem in KIND.problems(table.state) if "brokers" in problem] == []


def test_the_magician_offers_the_king_s_favour_only_to_a_player_with_a_broker_there():
    asked = {}
    for favour in (0, 1):
        table = started(3, favour=favour)
        holding(table, 1, "magician")
        if favour:
            table.state.apply(["player", 1, {"favour": [7]}])
        table.play(1, "magician")
        bid_all(table)
        table.place(1, 3, city(0, "port"), 4, city(1, "port"))
        names = {1: "Ann", 2: "Bo", 3: "Cy"}
        asked[favour] = prompt({"awaiting": table.state.awaiting}, 1, names, [1, 2, 3], 60, set())
    assert asked[0].startswith("You must choose what the magician does: choose <value> <space> <value> <space> (")
    assert "favour" not in asked[0]
    assert "or <value> favour" in asked[1]


def test_queen_locks_a_city_space_for_everyone_in_public():
    table = started(3)
    holding(table, 2, "queen")
    table.play(2, "queen")
    bid_all(table)
    assert table.state.awaiting == [{"player": 2, "ask": "queen"}]
    with pytest.raises(RuleViolation, match="locks a city space"):
        table.choose(2, "market 0 red")
    table.take_changes()
    table.choose(2, "city 1 palace")
    # The first placer, told before the question, is told again once it is answered.
    turn = [e for e in table.take_changes().events if e.kind == "turn"]
    assert [e.data["player"] for e in turn] == [table.state.order[0]] and table.state.turn == table.state.order[0]
    for player in (1, 2, 3):
        assert {"card": "queen", "player": 2, "space": city(1, "palace")} in seat_view(table.state, player)["effects"]
    with pytest.raises(RuleViolation, match="locked"):
        table.place(1, 3, city(1, "palace"), 4, city(0, "port"))
    assert city(1, "palace") not in table._free_spaces()


def test_bishop_places_both_brokers_face_down_hidden_from_the_others():
    table = started(3)
    holding(table, 1, "bishop")
    table.play(1, "bishop")
    bid_all(table)
    table.take_changes()
    table.place(1, 6, city(0, "port"), 5, city(1, "port"))
    event = table.take_changes().events[0]
    for viewer in (2, 3, 999):
        shown = KIND.event_for(table.state, event, viewer)
        assert "6" not in json.dumps(shown) and "5" not in json.dumps(shown)
        assert [entry["value"] for entry in seat_view(table.state, viewer)["placed"]] == [None, None]
    assert KIND.event_for(table.state, event, 1)["up_value"] == 6
    assert [entry["value"] for entry in seat_view(table.state, 1)["placed"]] == [6, 5]


def test_spy_looks_at_three_face_down_brokers_also_on_the_kings_favour_shown_to_its_player_only():
    table = started(3, favour=1)
    holding(table, 3, "spy")
    table.state.apply(["player", 2, {"favour": [7], "screen": [0, 1, 1, 1, 3, 3, 3, 4, 4, 5, 5, 6, 2]}])
    table.play(3, "spy")
    bid_all(table)
    table.place(1, 3, city(0, "port"), 6, city(0, "port"))
    table.place(2, 4, city(1, "port"), 5, city(1, "port"))
    table.take_changes()
    with pytest.raises(RuleViolation, match="opponents"):
        table.play(3, "spy", "cy", "city", "0", "port")
    table.play(3, "spy", "Ann", "city", "0", "port")
    look = table.take_changes().events[0]
    assert KIND.event_for(table.state, look, 3)["value"] == 6
    for viewer in (1, 2, 999):
        assert "value" not in KIND.event_for(table.state, look, viewer)
        assert seat_view(table.state, viewer)["placed"][1]["value"] is (6 if viewer == 1 else None)
    assert seat_view(table.state, 3)["placed"][1]["value"] == 6
    with pytest.raises(RuleViolation, match="not seen"):
        table.play(3, "spy", "ann", "city", "0", "port")
    table.take_changes()
    table.play(3, "spy", "bo", "favour")
    favour_look = table.take_changes().events[0]
    names = {1: "Ann", 2: "Bo", 3: "Cy"}
    read = {v: render_event(KIND.event_for(table.state, favour_look, v), "card", v, names) for v in (1, 2, 3, 999)}
    assert read[3] == "You look at one of Bo's face-down brokers on the King's favour space (Spy): it is a 7."
    assert read[2] == "Cy looks at one of your face-down brokers on the King's favour space (Spy)."
    assert read[1] == read[999] == "Cy looks at one of Bo's face-down brokers on the King's favour space (Spy)."
    assert seat_view(table.state, 3)["you"]["spied"] == [[2, 7]]
    assert seat_view(table.state, 1)["you"]["spied"] == []
    table.play(3, "spy", "bo", "city", "1", "port")
    with pytest.raises(RuleViolation, match="looked 3 times"):
        table.play(3, "spy", "bo", "city", "1", "port")


def test_conjurer_places_a_broker_from_in_front_of_the_screen_replacing_it_from_behind():
    table = started(3)
    holding(table, 1, "conjurer")
    table.play(1, "conjurer")
    bid_all(table, {1: (6, 7)})
    with pytest.raises(RuleViolation, match="no Conjurer"):
        table.play(2, "conjurer", "0", "1")
    with pytest.raises(RuleViolation, match="no broker 5 in front"):
        table.play(1, "conjurer", "5", "0")
    table.play(1, "conjurer", "7", "0")
    holdings = table.state.player(1)
    assert holdings["front"] == [0, 6] and 7 in holdings["screen"] and 0 not in holdings["screen"]
    with pytest.raises(RuleViolation, match="Place the broker you took"):
        table.place(1, 1, city(0, "port"), 3, city(0, "port"))
    table.place(1, 7, city(0, "port"), 3, city(0, "port"))
    assert table.state.effects[0]["owed"] == []
    assert [problem for problem in KIND.problems(table.state) if "brokers" in problem] == []


def test_alchemist_exchanges_a_gem_at_the_end_of_the_round():
    table = started(4)
    holding(table, 2, "alchemist")
    table.state.apply(["player", 2, {"gems": {"blue": 0, "green": 0, "yellow": 0, "red": 1, "black": 0}}])
    table.play(2, "alchemist")
    resolving(table, [])
    assert table.state.awaiting == [{"player": 2, "ask": "alchemist"}] and table.state.window == t.END_OF_ROUND
    with pytest.raises(RuleViolation, match="no blue gem"):
        table.choose(2, "blue red")
    table.choose(2, "red green")
    assert gems(table, 2) == {"green": 1}
    assert table.state.round == 3 and table.state.stage == "bid"


def test_a_card_prompt_may_be_passed():
    table = started(4)
    holding(table, 1, "banker")
    table.play(1, "banker")
    before = dict(table.state.prices)
    resolving(table, [])
    table.choose(1, "pass")
    assert table.state.round == 3 and table.state.prices != before  # only the round's moves
