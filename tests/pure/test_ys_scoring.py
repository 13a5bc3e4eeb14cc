"""The final scoring of Ys, read against the tables of the seed (seeds/001, the Czech
original, "Závěrečné vyhodnocení" and "Pravidla pro 2 hráče") on constructed positions."""

from __future__ import annotations

import pytest

from games.ys.scoring import (
    COLOUR_TABLE,
    COLOURS,
    black_gem_points,
    colour_points,
    colour_ranking,
    favour_points,
    winners,
)

#: Final prices that rank the colours in their tie order: blue, green, yellow, red.
EQUAL_PRICES = dict.fromkeys(COLOURS, 4)
NEUTRAL = 9

# -- black gems ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "points"), [(0, 0), (1, 1), (2, 4), (3, 8), (4, 12), (5, 16), (6, 20), (7, 24), (8, 24), (20, 24)]
)
def test_black_gems_score_by_the_seed_table(count: int, points: int) -> None:
    assert black_gem_points(count) == points


def test_a_negative_black_gem_count_is_refused() -> None:
    with pytest.raises(ValueError):
        black_gem_points(-1)


# -- ranking the colours -------------------------------------------------------------


def test_colours_rank_from_the_highest_final_price() -> None:
    assert colour_ranking({"blue": 1, "green": 7, "yellow": 3, "red": 5}) == ["green", "red", "yellow", "blue"]


def test_equal_prices_rank_blue_green_yellow_red() -> None:
    assert colour_ranking(EQUAL_PRICES) == ["blue", "green", "yellow", "red"]
    assert colour_ranking({"red": 5, "yellow": 5, "green": 3, "blue": 3}) == ["yellow", "red", "blue", "green"]


@pytest.mark.parametrize("prices", [{"blue": 1, "green": 2, "yellow": 3}, {**EQUAL_PRICES, "white": 1}])
def test_prices_must_name_exactly_the_four_colours(prices: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        colour_ranking(prices)


def test_the_colour_table_is_the_seeds() -> None:
    assert COLOUR_TABLE == (
        (24, 18, 12, 6, 0),
        (20, 15, 10, 5, 0),
        (16, 12, 8, 4, 0),
        (12, 9, 6, 3, 0),
    )


# -- coloured gems -------------------------------------------------------------------


def test_five_players_take_the_five_places_of_the_colours_row() -> None:
    prices = {"red": 7, "green": 4, "yellow": 3, "blue": 2}  # red first, green second
    gems = {1: {"red": 5, "green": 1}, 2: {"red": 4}, 3: {"red": 3}, 4: {"red": 2}, 5: {"red": 1}}
    assert colour_points(gems, prices) == {1: 24 + 20, 2: 18, 3: 12, 4: 6, 5: 0}


def test_the_colours_rank_picks_the_row() -> None:
    prices = {"blue": 1, "green": 9, "yellow": 8, "red": 7}  # blue fourth, red third
    gems = {1: {"blue": 2, "red": 1}, 2: {"blue": 1, "red": 2}}
    assert colour_points(gems, prices) == {1: 12 + 12, 2: 9 + 16}


def test_two_tied_for_first_both_take_second_place() -> None:
    gems = {1: {"blue": 3}, 2: {"blue": 3}, 3: {"blue": 1}}
    assert colour_points(gems, EQUAL_PRICES) == {1: 18, 2: 18, 3: 12}


def test_three_tied_for_first_all_take_third_place() -> None:
    gems = {1: {"green": 2}, 2: {"green": 2}, 3: {"green": 2}, 4: {"green": 1}}
    assert colour_points(gems, EQUAL_PRICES) == {1: 10, 2: 10, 3: 10, 4: 5}


def test_three_tied_for_second_all_take_fourth_place() -> None:
    gems = {1: {"blue": 5}, 2: {"blue": 2}, 3: {"blue": 2}, 4: {"blue": 2}, 5: {"blue": 1}}
    assert colour_points(gems, EQUAL_PRICES) == {1: 24, 2: 6, 3: 6, 4: 6, 5: 0}


def test_no_gems_of_a_colour_score_nothing_and_take_no_place() -> None:
    gems: dict[int, dict[str, int]] = {1: {"blue": 3}, 2: {"blue": 0}, 3: {"blue": 1}, 4: {}}
    assert colour_points(gems, EQUAL_PRICES) == {1: 24, 2: 0, 3: 18, 4: 0}


def test_nobody_holding_gems_scores_nothing() -> None:
    assert colour_points({1: {}, 2: {}}, EQUAL_PRICES) == {1: 0, 2: 0}
    assert colour_points({}, EQUAL_PRICES) == {}


@pytest.mark.parametrize("held", [{"white": 1}, {"black": 2}, {"blue": -1}])
def test_unknown_colours_and_negative_counts_are_refused(held: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        colour_points({1: held}, EQUAL_PRICES)


# -- the neutral player (2 players) --------------------------------------------------


def test_the_neutral_scores_third_place_in_every_colour_without_gems() -> None:
    gems: dict[int, dict[str, int]] = {1: {"blue": 3, "green": 1}, 2: {"blue": 1, "yellow": 2}, NEUTRAL: {}}
    assert colour_points(gems, EQUAL_PRICES, neutral=NEUTRAL) == {
        1: 24 + 20,
        2: 18 + 16,
        NEUTRAL: 12 + 10 + 8 + 6,
    }


def test_without_gems_the_neutral_pushes_nobody_down() -> None:
    gems: dict[int, dict[str, int]] = {1: {"red": 2}, 2: {"red": 2}, NEUTRAL: {}}
    assert colour_points(gems, EQUAL_PRICES, neutral=NEUTRAL) == {1: 9, 2: 9, NEUTRAL: 12 + 10 + 8 + 6}


def test_the_neutral_with_gems_is_ranked_by_them() -> None:
    gems = {1: {"blue": 3}, 2: {"blue": 3}, NEUTRAL: {"blue": 5}}
    assert colour_points(gems, EQUAL_PRICES, neutral=NEUTRAL) == {1: 12, 2: 12, NEUTRAL: 24 + 10 + 8 + 6}


def test_the_neutral_shares_a_tie_as_anyone() -> None:
    gems: dict[int, dict[str, int]] = {1: {"blue": 2}, 2: {}, NEUTRAL: {"blue": 2}}
    assert colour_points(gems, EQUAL_PRICES, neutral=NEUTRAL) == {1: 18, 2: 0, NEUTRAL: 18 + 10 + 8 + 6}


def test_the_neutral_places_no_worse_than_third() -> None:
    gems = {1: {"blue": 4}, 2: {"blue": 3}, 3: {"blue": 2}, NEUTRAL: {"blue": 1}}
    points = colour_points(gems, EQUAL_PRICES, neutral=NEUTRAL)
    assert points == {1: 24, 2: 18, 3: 12, NEUTRAL: 12 + 10 + 8 + 6}


def test_a_neutral_missing_from_the_gems_is_refused() -> None:
    with pytest.raises(ValueError):
        colour_points({1: {"blue": 1}}, EQUAL_PRICES, neutral=NEUTRAL)


# -- the King's favour ---------------------------------------------------------------


def test_favour_scores_12_7_3_0_0_by_sum() -> None:
    assert favour_points({1: 10, 2: 8, 3: 5, 4: 3, 5: 1}) == {1: 12, 2: 7, 3: 3, 4: 0, 5: 0}


def test_two_tied_for_first_share_12_and_7() -> None:
    assert favour_points({1: 9, 2: 4, 3: 9}) == {1: 9, 2: 3, 3: 9}


def test_three_tied_for_second_share_7_3_and_0() -> None:
    assert favour_points({1: 10, 2: 6, 3: 6, 4: 6, 5: 2}) == {1: 12, 2: 3, 3: 3, 4: 3, 5: 0}


def test_two_tied_for_second_share_7_and_3() -> None:
    assert favour_points({1: 10, 2: 6, 3: 6, 4: 2}) == {1: 12, 2: 5, 3: 5, 4: 0}


def test_all_five_tied_share_the_whole_table() -> None:
    assert favour_points(dict.fromkeys(range(1, 6), 4)) == dict.fromkeys(range(1, 6), 4)


def test_no_favour_sums_no_points() -> None:
    assert favour_points({}) == {}


# -- the winners ---------------------------------------------------------------------


def test_most_points_wins() -> None:
    assert winners({1: 50, 2: 61, 3: 40}, {1: 20, 2: 3, 3: 30}) == [2]


def test_tied_points_go_to_most_gems() -> None:
    assert winners({1: 61, 2: 61, 3: 40}, {1: 12, 2: 13, 3: 30}) == [2]


def test_tied_points_and_gems_all_win() -> None:
    assert winners({3: 61, 1: 61, 2: 61}, {3: 12, 1: 12, 2: 11}) == [3, 1]


def test_winners_need_points_and_gems_for_the_same_players() -> None:
    with pytest.raises(ValueError):
        winners({1: 10, 2: 10}, {1: 3})
    assert winners({}, {}) == []
