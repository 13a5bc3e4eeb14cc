"""The rules of Ys (seed 001, ../shared/reference/ys.md, and the choices in
``games.ys.tables``), on tables whose positions are set through deltas, and whole
computer-only games replayed after every move."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from commands.ys.render import render_event
from games.base import NOBODY, OVER, PLAYING, RuleViolation
from games.ys import KIND, rules, scoring
from games.ys import tables as t
from games.ys.bots import strongest_nudge
from games.ys.rules import YsTable
from games.ys.visibility import seat_view
from server.text import render_colours

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]


def started(players: int = 4, seed: int = 1, **settings: int) -> YsTable:
    """A table of people 1..``players`` (1 the host) with a game just started, order 1, 2, ..."""
    table = YsTable(rng=random.Random(seed))
    for account_id in range(1, players + 1):
        table.sit(account_id, NAMES[account_id - 1])
    for name, value in settings.items():
        table.set(1, name, value)
    table.start(1)
    table.state.apply(["set", "order", list(range(1, players + 1))])
    table.take_changes()
    return table


def bid_all(table: YsTable, bids: dict[int, tuple[int, int]] | None = None) -> None:
    """Everyone bids (0 and 1 unless ``bids`` says), then each, asked, takes the first
    order card free: the order is by bid, ties to the earlier order card."""
    for player in list(table.state.order):
        first, second = (bids or {}).get(player, (0, 1))
        table.bid(player, first, second)
    choose_order_cards(table)


def choose_order_cards(table: YsTable) -> None:
    """Each player asked for an order card takes the first one free."""
    while table.state.awaiting and table.state.awaiting[0]["ask"] == "order":
        asked = table.state.awaiting[0]
        table.choose_order(asked["player"], min(asked["options"]))


def position(
    table: YsTable,
    placed: list[tuple[int, int, list[Any]]],
    fronts: dict[int, list[int]],
    market: list[str | None] | None = None,
    quadrant_gems: list[list[str]] | None = None,
    corners: list[str | None] | None = None,
) -> None:
    """Make the round one in which ``placed`` (player, value, space) is on the board and
    each player has ``fronts[player]`` in front of the screen, then resolve it."""
    state = table.state
    for player, front in fronts.items():
        state.apply(["player", player, {"front": front, "screen": []}])
    state.apply(["set", "placed", [{"player": p, "value": v, "up": True, "space": s} for p, v, s in placed]])
    if market is not None:
        state.apply(["set", "market", market])
    if quadrant_gems is not None:
        state.apply(["set", "quadrant_gems", quadrant_gems])
    if corners is not None:
        state.apply(["set", "corners", [{"up": card, "stack": []} for card in corners]])
    state.apply(["set", "stage", "place"])
    table._begin_resolution()


def city(quadrant: int, ring: str) -> list[Any]:
    return ["city", quadrant, ring]


def market(row: int, colour: str) -> list[Any]:
    return ["market", row, colour]


def gems(table: YsTable, player: int) -> dict[str, int]:
    holdings = table.state.player(player)
    assert holdings is not None
    return {gem: count for gem, count in holdings["gems"].items() if count}


def points(table: YsTable, player: int) -> int:
    holdings = table.state.player(player)
    assert holdings is not None
    return int(holdings["points"])


# -- setup -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_gives_brokers_cards_prices_and_lays_the_first_round(players):
    table = started(players)
    state = table.state
    brokers = sorted(t.BROKERS)
    for value in (2, 2, 2) if players < 5 else (2, 2, 2, 1, 3):
        brokers.remove(value)
    for player in range(1, players + 1):
        assert table.state.player(player)["screen"] == brokers
    assert len(brokers) == (11 if players == 5 else 13)
    neutral = state.player(t.NEUTRAL)
    assert (neutral is not None) == (players == 2)
    if neutral is not None:
        # A set of the neutral player's brokers for each player to place.
        assert neutral["screen"] == [0, 0, 1, 1, 2, 2, 4, 4]
    assert state.prices == {colour: 3 for colour in t.COLOURS}
    quadrants = 3 if players == 2 else 4
    # Round 1 turns up a yellow-edged card in each corner beside a quadrant in play (the
    # blue-edged one lies at the bottom, for round 4); a corner beside none turns up nothing.
    assert all(corner["up"] in t.YELLOW_CARDS for corner in state.corners[:quadrants])
    assert [corner["up"] for corner in state.corners[quadrants:]] == [None] * (4 - quadrants)
    assert all(corner["stack"][0] == t.BLUE_CARD for corner in state.corners)
    assert [len(corner["stack"]) for corner in state.corners] == [3] * quadrants + [4] * (4 - quadrants)
    assert len(state.discard) == 8
    assert sum(card >= 0 for card in state.laid) == quadrants
    per_quadrant = 4 if players > 3 else 3
    assert all(len(lying) == per_quadrant for lying in state.quadrant_gems[:quadrants])
    filled = sum(gem is not None for gem in state.market)
    assert filled == {2: 2, 3: 2, 4: 3, 5: 4}[players]
    assert state.stage == "bid" and state.round == 1
    assert KIND.problems(state) == []


def test_three_players_may_play_three_quadrants_and_the_gem_cards_hold_five_white_gems():
    table = started(3, quadrants=3)
    assert table.quadrants() == 3 and table.state.laid[3] == -1
    assert sum(card.count(t.WHITE) for card in t.GEM_CARDS) == 5
    assert len(t.GEM_CARDS) == 24 and len(t.yellow_deck()) == 20
    with pytest.raises(RuleViolation, match="between games"):
        table.set(1, "favour", 1)


def test_a_player_who_leaves_a_finished_game_is_still_shown_by_name_not_as_the_neutral_player():
    table = started(3)
    table.state.apply(["set", "phase", OVER])
    table.unseat(3, 3)
    view = seat_view(table.state, 1)
    assert [(p["name"], p["neutral"]) for p in view["players"]] == [("Ann", False), ("Bo", False), ("Cy", False)]


def test_a_bid_of_two_of_a_broker_held_once_says_so():
    table = started(3)
    with pytest.raises(RuleViolation, match="You have only one broker 7 behind your screen."):
        table.bid(1, 7, 7)
    with pytest.raises(RuleViolation, match="You have no broker 2 behind your screen."):
        table.bid(1, 2, 7)
    assert table.state.player(1)["front"] == []


def test_a_game_needs_two_to_five_players_and_the_host():
    table = YsTable(rng=random.Random(1))
    table.sit(1, "Ann")
    with pytest.raises(RuleViolation, match="2 to 5"):
        table.start(1)
    table.sit(2, "Bo")
    with pytest.raises(RuleViolation, match="host"):
        table.start(2)
    for level in ("normal", "easy", "normal"):
        table.add_bot(1, level)
    with pytest.raises(RuleViolation, match="full"):
        table.sit(9, "Zed")


# -- the order bid ---------------------------------------------------------------------


def test_bids_are_hidden_until_all_have_bid_then_the_order_is_by_sum_ties_to_the_earlier_order():
    table = started(4)
    table.state.apply(["set", "order", [3, 1, 4, 2]])
    table.bid(1, 4, 3)
    bid = table.take_changes().events[0]
    assert KIND.event_for(table.state, bid, 1)["brokers"] == [3, 4]
    for viewer in (2, 3, 99):
        assert "brokers" not in KIND.event_for(table.state, bid, viewer)
        view = seat_view(table.state, viewer)
        assert view["players"][0]["front"] is None and view["players"][0]["bid"]
    with pytest.raises(RuleViolation, match="bid already"):
        table.bid(1, 0, 1)
    with pytest.raises(RuleViolation, match="no broker 9"):
        table.bid(2, 9, 1)
    with pytest.raises(RuleViolation, match="only one broker 7"):
        table.bid(2, 7, 7)
    table.bid(2, 7, 0)  # 7
    table.bid(3, 5, 1)  # 6
    table.bid(4, 6, 1)  # 7, after 2 before: 4 held order card 3, 2 held 4
    assert "bids" in [event.kind for event in table.take_changes().events]
    assert seat_view(table.state, 2)["players"][0]["front"] == [3, 4]
    # Issue 45: the players choose their order cards (seed 001), from the highest sum
    # down, a tie to the lower order card held before: 1, 4, 2 (7 each), then 3 (6).
    assert table.state.stage == "order"
    assert [asked["player"] for asked in table.state.awaiting] == [1, 4, 2, 3]
    assert table.state.awaiting[0] == {"player": 1, "ask": "order", "options": [1, 2, 3, 4]}
    with pytest.raises(RuleViolation, match="waits for Ann"):
        table.choose_order(4, 1)
    with pytest.raises(RuleViolation, match="Choose your order card first: order 1 or 2 or 3 or 4"):
        table.place(1, 5, city(0, "port"), 4, city(0, "palace"))
    with pytest.raises(RuleViolation, match="waits for Ann to choose"):
        table.place(4, 5, city(0, "port"), 4, city(0, "palace"))
    for hostile in ("5", "0", "-1", "²", "1 2", "one", ""):
        with pytest.raises(RuleViolation, match="free order cards"):
            table.choose(1, hostile)
    table.choose_order(1, 3)
    assert table.state.awaiting[0] == {"player": 4, "ask": "order", "options": [1, 2, 4]}
    table.choose(4, "1")
    with pytest.raises(RuleViolation, match="order 2 or 4"):
        table.choose_order(2, 3)
    assert KIND.problems(table.state) == []
    table.choose_order(2, 4)
    # The last takes the card left, and placement begins in the new order.
    events = table.take_changes().events
    assert [event.kind for event in events] == ["ordercard", "ordercard", "ordercard", "order"]
    assert events[-1].data["last"] == [3, 2]
    assert table.state.order == [4, 3, 1, 2]
    assert table.state.stage == "place" and table.state.turn == 4 and not table.state.awaiting
    assert table.state.order_cards == []
    with pytest.raises(RuleViolation, match="No order card is being chosen now"):
        table.choose_order(4, 1)


# -- placement -------------------------------------------------------------------------


def test_placement_in_pairs_one_up_one_down_with_the_markets_rules():
    table = started(4)
    bid_all(table)
    table.take_changes()
    state = table.state
    state.apply(["set", "market", ["blue", "green", "red", None]])
    with pytest.raises(RuleViolation, match="Bo's turn|Ann's turn"):
        table.place(2, 3, city(0, "port"), 4, city(0, "port"))
    with pytest.raises(RuleViolation, match="without a gem"):
        table.place(1, 3, market(3, "red"), 4, city(0, "port"))
    with pytest.raises(RuleViolation, match="one broker"):
        table.place(1, 3, market(0, "red"), 4, market(0, "red"))
    with pytest.raises(RuleViolation, match="no broker 9"):
        table.place(1, 9, city(0, "port"), 4, city(0, "port"))
    with pytest.raises(RuleViolation, match="A space is"):
        table.place(1, 3, ["city", 7, "port"], 4, city(0, "port"))
    table.place(1, 3, market(0, "red"), 4, "city 1 palace")
    assert points(table, 1) == 1
    with pytest.raises(RuleViolation, match="one broker"):
        table.place(2, 3, market(0, "red"), 4, city(0, "port"))
    event = table.take_changes().events[0]
    assert KIND.event_for(state, event, 1)["down_value"] == 4
    assert "down_value" not in KIND.event_for(state, event, 2)
    other = seat_view(state, 2)
    assert [entry["value"] for entry in other["placed"]] == [3, None]
    assert [entry["value"] for entry in seat_view(state, 1)["placed"]] == [3, 4]
    assert state.turn == 2
    table.take_changes()
    placed = 2
    while state.stage == "place":
        screen = state.player(state.turn)["screen"]
        table.place(state.turn, screen[0], city(2, "port"), screen[1], city(3, "commercial"))
        placed += 2
    assert placed == 4 * 10
    resolve = next(event for event in table.take_changes().events if event.kind == "resolve")
    assert [len(front) for _, front in resolve.data["fronts"]] == [3, 3, 3, 3]


def test_three_player_quadrant_limit_and_two_player_neutral_placement():
    table = started(2)
    # The fourth corner, beside a quadrant out of play, turns up nothing.
    assert [corner["up"] is not None for corner in table.state.corners] == [True, True, True, False]
    assert len(table.state.corners[3]["stack"]) == t.YELLOW_PER_CORNER + 1
    bid_all(table)
    table.take_changes()
    with pytest.raises(RuleViolation, match="quadrants 1 to 3"):
        table.place(1, 3, city(3, "port"), 4, city(0, "port"))
    table.place(1, 3, city(0, "port"), 4, city(0, "port"))
    table.take_changes()
    assert table.state.turn == 1 and table.state.turn_part == "neutral"
    with pytest.raises(RuleViolation, match="neutral"):
        table.place(1, 5, city(0, "port"), 6, city(0, "port"))
    with pytest.raises(RuleViolation, match="no neutral broker 3 left to place; yours: 4, 2, 1, 0"):
        table.place_neutral(1, 3, city(1, "port"))
    table.place_neutral(1, 4, city(1, "port"))
    event = table.take_changes().events[0]
    assert KIND.event_for(table.state, event, 1)["value"] == 4
    assert "value" not in KIND.event_for(table.state, event, 2)
    assert seat_view(table.state, 2)["placed"][-1]["value"] is None
    assert seat_view(table.state, 1)["placed"][-1]["value"] == 4
    assert table.state.turn == 2 and table.state.turn_part == "pair"


# -- resolution ------------------------------------------------------------------------


def test_city_spaces_go_to_the_highest_sum_then_the_front_sum_then_the_lower_order_card():
    table = started(4)
    table.state.apply(["set", "order", [4, 3, 2, 1]])
    position(
        table,
        [
            (1, 5, city(0, "port")),
            (2, 3, city(0, "port")),  # 1 wins: 5 > 3
            (1, 4, city(1, "port")),
            (2, 4, city(1, "port")),  # tie: 2 has the higher front sum
            (3, 2, city(2, "port")),
            (4, 2, city(2, "port")),  # tie, same front: 4 has the lower order card
            (3, 1, city(3, "commercial")),
        ],
        {1: [0, 1, 1], 2: [3, 3, 4], 3: [1, 1, 1], 4: [1, 1, 1]},
        market=[None] * 4,
        quadrant_gems=[[], [], [], []],
    )
    assert gems(table, 1) == {"black": 1}
    assert gems(table, 2) == {"black": 1}
    assert gems(table, 4) == {"black": 1}
    assert gems(table, 3) == {}
    assert points(table, 3) == 3


def test_the_neutral_player_wins_ties_and_takes_a_gem_of_the_strongest_colour_for_a_card():
    table = started(2)
    table.state.apply(["set", "prices", {"blue": 3, "green": 5, "yellow": 5, "red": 1}])
    position(
        table,
        [(1, 4, city(0, "palace")), (t.NEUTRAL, 4, city(0, "palace")), (2, 2, city(1, "palace"))],
        {1: [7, 7, 7], 2: [0, 0, 0]},
        market=[None] * 4,
        quadrant_gems=[[], [], [], []],
        corners=["bishop", "king", None, None],
    )
    assert gems(table, t.NEUTRAL)["green"] >= 1
    assert points(table, 2) == 5
    assert "bishop" in table.state.discard and "king" in table.state.discard
    # Said as it happens: the gem it takes instead of the card.
    won = next(e for e in table.take_changes().events if e.kind == "win" and e.data.get("prize") == "bishop")
    line = render_colours(render_event(KIND.event_for(table.state, won, 1), "win", 1, {1: "Ann", 2: "Bo"}), False)
    assert line.endswith(": the bishop card, and takes a green gem instead.")


def test_palace_cards_treasure_asks_for_a_colour_and_yellow_cards_are_held_hidden():
    table = started(4)
    position(
        table,
        [(1, 3, city(0, "palace")), (2, 3, city(1, "palace"))],
        {1: [0, 0, 0], 2: [0, 0, 0]},
        market=[None] * 4,
        quadrant_gems=[[], [], [], []],
        corners=[t.BLUE_CARD, "spy", None, None],
    )
    assert table.state.awaiting == [{"player": 1, "ask": "gem"}]
    assert table.waiting_for() == [1]
    with pytest.raises(RuleViolation, match="waits for Ann"):
        table.choose(2, "red")
    with pytest.raises(RuleViolation, match="colour"):
        table.choose(1, "white")
    table.choose(1, "red")
    assert gems(table, 1) == {"red": 1}
    assert table.state.player(2)["cards"] == [["spy", 1]]
    assert seat_view(table.state, 1)["players"][1]["cards"] == 1
    assert "spy" not in json.dumps(seat_view(table.state, 1)["players"])


def test_quadrants_pay_two_one_one_the_winner_choosing_and_white_gems_swapped_at_once():
    table = started(4)
    position(
        table,
        [
            (1, 7, city(0, "port")),
            (2, 5, city(0, "commercial")),
            (3, 3, city(0, "palace")),
            (4, 1, city(0, "palace")),
        ],
        {p: [0, 0, 0] for p in range(1, 5)},
        market=[None] * 4,
        quadrant_gems=[["blue", "blue", "white", "red"], [], [], []],
        corners=[None] * 4,
    )
    assert table.state.awaiting[0]["ask"] == "take" and table.state.awaiting[0]["count"] == 2
    with pytest.raises(RuleViolation, match="Take 2"):
        table.choose(1, "red red")
    table.choose(1, "white red")
    assert table.state.awaiting[0] == {"player": 1, "ask": "white"}
    table.choose(1, "green")
    assert gems(table, 1) == {"black": 1, "red": 1, "green": 1}
    # 2nd and 3rd: only blue left, taken without asking; 4th gets nothing.
    assert gems(table, 2) == {"blue": 1}
    assert gems(table, 3) == {"blue": 1}
    assert gems(table, 4) == {}


def test_with_three_players_the_third_place_in_a_quadrant_gets_nothing():
    table = started(3)
    assert table.state.quadrant_gems[0] and len(table.state.quadrant_gems[0]) == 3
    position(
        table,
        [(1, 7, city(0, "port")), (2, 5, city(0, "port")), (3, 3, city(0, "port"))],
        {p: [0, 0, 0] for p in range(1, 4)},
        market=[None] * 4,
        quadrant_gems=[["red", "blue", "green"], [], [], []],
        corners=[None] * 4,
    )
    table.choose(1, "red blue")
    assert gems(table, 2) == {"green": 1}
    assert gems(table, 3) == {}


def test_market_rows_prices_ties_and_the_top_investors_nudge():
    table = started(4)
    table.state.apply(["set", "order", [1, 2, 3, 4]])
    position(
        table,
        [
            (1, 5, market(0, "red")),  # red 5
            (2, 3, market(0, "blue")),  # blue 3+2 = 5, two brokers: above red
            (2, 2, market(1, "blue")),
            (3, 1, market(1, "green")),  # green 1, yellow 1: one broker each;
            (4, 1, market(2, "yellow")),  # 3 has the higher front sum: green above yellow
        ],
        {1: [0, 0, 0], 2: [1, 1, 1], 3: [5, 5, 5], 4: [0, 0, 0]},
        market=["green", "white", "red", None],
        quadrant_gems=[[], [], [], []],
        corners=[None] * 4,
    )
    # Row 0: 1 (5) beats 2 (3) and takes its two gems (with 4 players the top row holds
    # the big gem's two); row 1: 3 (1) loses to 2 (2), whose white gem is asked for.
    assert gems(table, 1) == {"green": 2}
    assert table.state.awaiting[0] == {"player": 2, "ask": "white"}
    table.choose(2, "yellow")
    assert gems(table, 4) == {"red": 1}
    assert table.state.prices == {"blue": 5, "red": 4, "green": 2, "yellow": 1}
    # The largest market sum: 1 and 2 have 5 each; 2 has the higher front sum.
    assert table.state.awaiting[0] == {"player": 2, "ask": "nudge"}
    with pytest.raises(RuleViolation, match="up, or"):
        table.choose(2, "red sideways")
    table.take_changes()
    table.choose(2, "blue up")
    assert table.state.prices["blue"] == 6
    # Issue 45: the nudge was told twice ("You move a price.", then "You move blue up").
    names = {1: "Ann", 2: "Bo", 3: "Cy", 4: "Di"}
    lines = [render_event(KIND.event_for(table.state, e, 2), e.kind, 2, names) for e in table.take_changes().events]
    assert [line for line in lines if line and ("price" in line or "move" in line)] == ["You move blue up: it is at 6."]
    assert table.state.round == 2 and table.state.stage == "bid"


def test_prices_stop_at_the_ends_of_the_track_and_empty_columns_tie_by_colour():
    table = started(4)
    table.state.apply(["set", "prices", {"blue": 6, "green": 0, "yellow": 3, "red": 3}])
    position(table, [], {p: [0, 0, 0] for p in range(1, 5)}, market=[None] * 4, quadrant_gems=[[], [], [], []])
    assert table.state.prices == {"blue": 6, "green": 1, "yellow": 2, "red": 1}


def test_a_price_moved_past_the_end_of_its_track_reads_as_not_moving():
    table = started(3)
    table.state.apply(["set", "prices", {"blue": 6, "green": 3, "yellow": 3, "red": 3}])
    table.take_changes()
    table._price(1, "blue", 1)
    table._price(1, "green", 1)
    names = {1: "Ann", 2: "Bo", 3: "Cy"}
    lines = [render_event(KIND.event_for(table.state, e, 2), "nudge", 2, names) for e in table.take_changes().events]
    assert lines == [
        "Ann chooses blue up, but it is at the top of the track already (6).",
        "Ann moves green up: it is at 4.",
    ]


def test_a_nudge_left_to_the_turn_timer_moves_a_price():
    # The default nudge raised the strongest colour even at the top of the track, where
    # it moves nothing.
    assert strongest_nudge({"blue": 6, "green": 5, "yellow": 3, "red": 3}) == ["green", "up"]
    assert strongest_nudge({"blue": 6, "green": 6, "yellow": 6, "red": 6}) == ["red", "down"]
    assert strongest_nudge({"blue": 2, "green": 5, "yellow": 3, "red": 3}) == ["green", "up"]
    table = started(4)
    table.state.apply(["set", "order", [1, 2, 3, 4]])
    position(
        table,
        [(1, 5, market(0, "red")), (2, 3, market(0, "blue")), (2, 2, market(1, "blue"))],
        {1: [0, 0, 0], 2: [1, 1, 1], 3: [5, 5, 5], 4: [0, 0, 0]},
        market=["green", "white", "red", None],
        quadrant_gems=[[], [], [], []],
        corners=[None] * 4,
    )
    table.choose(2, "yellow")
    assert table.state.awaiting[0] == {"player": 2, "ask": "nudge"}
    table.state.apply(["set", "prices", {"blue": 6, "red": 4, "green": 2, "yellow": 1}])
    table.timeout(table.state.step)
    assert table.state.prices == {"blue": 6, "red": 5, "green": 2, "yellow": 1}


def test_the_neutral_investor_raises_the_colour_it_holds_most_of():
    table = started(2)
    table.state.apply(["player", t.NEUTRAL, {"gems": {"blue": 1, "green": 0, "yellow": 2, "red": 2, "black": 0}}])
    position(
        table,
        [(t.NEUTRAL, 2, market(0, "green")), (1, 2, market(1, "green"))],
        {1: [9, 9, 9], 2: [0, 0, 0]},
        market=[None, None, None, None],
        quadrant_gems=[[], [], [], []],
        corners=[None] * 4,
    )
    # green +2 (4 brokers' sum), blue +1, yellow -1, red -2, then the neutral's nudge: yellow +1.
    assert table.state.prices == {"green": 5, "blue": 4, "yellow": 3, "red": 1}
    assert not table.state.awaiting


# -- the King's favour -------------------------------------------------------------------


def test_the_kings_favour_takes_a_front_broker_and_gives_a_two():
    table = started(3, favour=1)
    position(table, [], {p: [0, 4, 6] for p in range(1, 4)}, market=[None] * 4, quadrant_gems=[[], [], [], []])
    assert table.state.stage == "favour"
    with pytest.raises(RuleViolation, match="no broker 5"):
        table.favour(1, 5)
    table.favour(1, 6)
    event = table.take_changes().events[0]
    assert "value" not in KIND.event_for(table.state, event, 2)
    assert seat_view(table.state, 2)["players"][0]["front"] is None
    with pytest.raises(RuleViolation, match="already"):
        table.favour(1, 4)
    table.favour(2, 0)
    table.favour(3, 4)
    assert table.state.round == 2
    assert table.state.player(1)["favour"] == [6]
    assert table.state.player(1)["screen"].count(2) == 1


# -- action cards' timing windows ----------------------------------------------------


def test_a_card_played_waits_for_its_window_and_at_most_two_are_played_a_round(monkeypatch):
    fired: list[tuple[int, str]] = []
    monkeypatch.setitem(rules.EFFECTS, "spy", lambda table, event, player: fired.append((player, table.state.window)))
    table = started(3)
    state = table.state
    state.apply(["player", 2, {"cards": [["spy", 1], ["queen", 1]]}])
    with pytest.raises(RuleViolation, match="round after"):
        table.play(2, "spy")
    state.apply(["set", "round", 2])
    state.apply(["set", "stage", "place"])
    with pytest.raises(RuleViolation, match="cannot be played"):
        table.play(2, "queen")
    state.apply(["set", "stage", "bid"])
    with pytest.raises(RuleViolation, match="no such card"):
        table.play(1, "spy")
    table.play(2, "spy")
    assert state.queued == [[2, "spy"]] and "spy" in state.discard
    assert seat_view(state, 1)["players"][1]["cards"] == 1
    state.apply(["player", 2, {"played": 2, "cards": [["spy", 1]]}])
    with pytest.raises(RuleViolation, match="played 2"):
        table.play(2, "spy")
    bid_all(table)
    assert fired == [(2, t.START_OF_PLACEMENT)] and state.queued == []


# -- moves out of date, undo -----------------------------------------------------------


def test_moves_out_of_date_are_refused_and_an_undone_move_leaves_the_table_as_it_was():
    table = started(3)
    before = table.state.copy()
    with pytest.raises(RuleViolation, match="out of date"):
        table.bid(1, 0, 1, step=table.state.step + 1)
    table.bid(1, 0, 1)
    table.undo(table.take_changes())
    assert KIND.differences(table.state, before) == []
    with pytest.raises(RuleViolation, match="Nothing is asked"):
        table.choose(1, "red")


def test_hostile_answers_are_refused_and_a_person_leaving_mid_game_abandons_it():
    table = started(3)
    with pytest.raises(RuleViolation, match="no broker"):
        table.bid(1, True, 1)
    with pytest.raises(RuleViolation, match="no broker"):
        table.bid(1, 10**30, -1)
    table.state.apply(["set", "awaiting", [{"player": 1, "ask": "gem"}]])
    with pytest.raises(RuleViolation, match="Answer with words"):
        table.choose(1, 12)
    table.state.apply(["set", "awaiting", []])
    table.unseat(2, 2)
    assert table.state.phase == OVER and "abandoned" in table.state.result
    assert [seat.account_id for seat in table.state.seats] == [1, 3]
    assert KIND.problems(table.state) == []


def test_due_answers_for_bots_and_runs_a_persons_timer():
    table = YsTable(rng=random.Random(3))
    table.sit(1, "Ann")
    table.add_bot(1, "normal")
    table.start(1)
    due = table.due()
    assert due is not None and due.reason == "bot" and due.actor < 0
    due.move(table)
    due = table.due()
    assert due is not None and due.reason == "timer" and due.actor == 1
    step = table.state.step
    due.move(table)
    assert table.state.step == step + 1 and table.state.stage == "order"
    with pytest.raises(RuleViolation):
        table.timeout(step)


def test_a_turn_time_changed_mid_turn_leaves_the_running_timer_as_it_was():
    """The room keeps a timer while the table asks for the same move from the same point
    (``Due.since``): a setting is logged, but does not move the game on."""
    table = started(players=2)
    before = table.due()
    table.set(1, "turntime", 10)
    table.take_changes()
    after = table.due()
    assert before is not None and after is not None
    assert (after.since, after.reason, after.actor) == (before.since, before.reason, before.actor)
    table.bid(1, 0, 1)
    moved = table.due()
    assert moved is not None and moved.since != before.since and moved.delay == 10


# -- whole games -----------------------------------------------------------------------


def play_out(players: int, seed: int, favour: int = 0) -> tuple[YsTable, list[Any]]:
    """A whole game of one person (timed out each move) and computer players, checked
    after every move: sound, replayed from the log as stored, and restored from its
    snapshot as it is."""
    table = YsTable(rng=random.Random(seed))
    replayed = KIND.new_state()
    table.sit(1, "Ann")
    table.set(1, "favour", favour)
    for _ in range(players - 1):
        table.add_bot(1, "normal")
    table.start(1)
    log: list[Any] = []
    for _ in range(2000):
        for event in table.take_changes().events:
            stored = json.loads(json.dumps(event.as_dict()))
            log.append(event)
            for delta in stored["deltas"]:
                replayed.apply(delta)
        state = table.state
        assert KIND.problems(state) == []
        assert KIND.differences(replayed, state) == []
        seats = [dict(vars(seat)) for seat in state.seats]
        snapshot = json.loads(json.dumps(KIND.snapshot(state)))
        restored = KIND.restore(state.phase, state.host, state.settings, seats, snapshot)
        assert KIND.differences(restored, state) == []
        check_secrets(table, log)
        if state.phase != PLAYING:
            return table, log
        due = table.due()
        assert due is not None
        due.move(table)
    raise AssertionError("the game did not end")


def check_secrets(table: YsTable, log: list[Any]) -> None:
    """No viewer is shown another's private fields, and no seat view holds another's
    face-down broker (but those its Spy looked at), bid, held card or screen."""
    state = table.state
    viewers = [*(seat.account_id for seat in state.seats), 999]
    for event in log[-8:]:
        for viewer in viewers:
            shown = KIND.event_for(state, event, viewer)
            for holder, secret in event.data.get("private", ()):
                if holder != viewer:
                    assert not set(secret) & set(shown), (event.kind, viewer)
    for viewer in viewers:
        view = seat_view(state, viewer)
        looks = [look for e in state.effects if e["card"] == "spy" and e["player"] == viewer for look in e["seen"]]
        for index, (entry, actual) in enumerate(zip(view["placed"], state.placed, strict=True)):
            mine = actual["player"] == viewer or actual.get("by") == viewer
            if not actual["up"] and not mine and ["board", index] not in looks:
                assert entry["value"] is None
        for player in view["players"]:
            assert isinstance(player["cards"], int) and isinstance(player["screen"], int)
            if state.stage == "bid" and player["id"] != viewer:
                assert player["front"] is None
        assert "private" not in json.dumps(view)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("favour", [0, 1])
def test_whole_games_replay_after_every_move_and_end_in_a_final_score(players, favour):
    table, log = play_out(players, seed=players * 7 + favour, favour=favour)
    state = table.state
    assert state.phase == OVER and state.round == t.ROUNDS and state.turn == NOBODY
    score = log[-1]
    assert score.kind == "score" and score.data["result"] == state.result
    winners = score.data["winner_ids"]
    totals = {line[0]: line[-1] for line in score.data["scores"]}
    assert winners == scoring.winners(totals, {p: sum(state.player(p)["gems"].values()) for p in totals})
    assert t.NEUTRAL not in totals


@pytest.mark.parametrize(("players", "rows"), [(3, [1, 1, 0, 0]), (4, [2, 1, 1, 0]), (5, [1, 1, 1, 1])])
def test_the_big_gem_counts_two_in_the_market_as_on_a_city_card(players, rows):
    """Seed 001: the big gem counts 2; with 5 players its colour fills two rows, so with
    4 its one row holds both gems (it held one). With 3 the market takes the small gems."""
    filled = t.market_rows(0, players)
    assert [t.market_row_gems(row, players) if gem else 0 for row, gem in enumerate(filled)] == rows
    view = seat_view(started(players).state, 1)
    assert view["market_gems"] == rows
