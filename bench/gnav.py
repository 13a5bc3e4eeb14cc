"""The gnav scenario: matches of computer players, in process (no sockets, no database).

A pairing seats one player of a level against three of another; the line-up seats one
player of each level (three players). Each match drives a :class:`GnavTable` by its
moves alone: whatever ``due()`` says is due is made (a computer player's move, the next
deal); the host's seat, a person's, is played by its level's policy from its own seat's
view on its turn. The seats move round the table from match to match. Reported: each
level's share of the matches won with a 95% Wilson interval, and matches a second.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from games.gnav import bots
from games.gnav.rules import GnavTable
from games.gnav.visibility import seat_view

HOST = 1
#: One level against three of another: (the one, the three).
PAIRINGS = (("normal", "easy"), ("strong", "easy"), ("strong", "normal"))
#: One player of each level at one table.
LINE_UP = ("easy", "normal", "strong")
#: The most moves a match may take before the bench calls it broken.
MOVE_LIMIT = 100_000


def play_match(levels: list[str], rng: random.Random) -> int | None:
    """Play one match with a player of ``levels[i]`` in seat ``i``; the winner's seat
    number, or None for a draw."""
    table = GnavTable(rng=rng)
    table.sit(HOST, "Host")
    for level in levels[1:]:
        table.add_bot(HOST, level)
    table.start(HOST)
    for _ in range(MOVE_LIMIT):
        if table.state.phase != "playing":
            break
        due = table.due()
        assert due is not None
        if due.reason == "timer":
            choice = bots.decide(levels[0], seat_view(table.state, HOST), rng)
            (table.swap if choice == "swap" else table.keep)(HOST, table.state.step)
        else:
            due.move(table)
        table.take_changes()
    else:
        raise RuntimeError("a match did not end")
    ids = [seat.account_id for seat in table.state.seats]
    winners = [seat.account_id for seat in table.state.alive()]
    return ids.index(winners[0]) if winners else None


def wilson(wins: int, matches: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if matches == 0:
        return (0.0, 1.0)
    rate = wins / matches
    denominator = 1 + z * z / matches
    centre = (rate + z * z / (2 * matches)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / matches + z * z / (4 * matches * matches)) / denominator
    return (round(centre - half, 4), round(centre + half, 4))


def pairing(one: str, three: str, matches: int, seed: int) -> dict[str, Any]:
    """``matches`` matches of one ``one`` player against three ``three`` players."""
    rng = random.Random(seed)
    wins = draws = 0
    others = 0
    started = time.perf_counter()
    for number in range(matches):
        seat_of_one = number % 4
        levels = [three] * 4
        levels[seat_of_one] = one
        winner = play_match(levels, rng)
        if winner is None:
            draws += 1
        elif winner == seat_of_one:
            wins += 1
        else:
            others += 1
    seconds = time.perf_counter() - started
    return {
        "scenario": "gnav",
        "pairing": f"1 {one} vs 3 {three}",
        "matches": matches,
        "level": one,
        "wins": wins,
        "win_rate": round(wins / matches, 4),
        "ci95": wilson(wins, matches),
        # Each of the three, on average: a third of the matches they won between them.
        "other_level": three,
        "other_win_rate_each": round(others / matches / 3, 4),
        "other_ci95_each": wilson(round(others / 3), matches),
        "draws": draws,
        "matches_per_second": round(matches / seconds, 1),
    }


def line_up(levels: tuple[str, ...], matches: int, seed: int) -> dict[str, Any]:
    """``matches`` matches of one player of each of ``levels``, seated in turn at each
    place of the table."""
    rng = random.Random(seed)
    wins = dict.fromkeys(levels, 0)
    draws = 0
    started = time.perf_counter()
    for number in range(matches):
        shift = number % len(levels)
        seats = [*levels[shift:], *levels[:shift]]
        winner = play_match(seats, rng)
        if winner is None:
            draws += 1
        else:
            wins[seats[winner]] += 1
    seconds = time.perf_counter() - started
    return {
        "scenario": "gnav",
        "pairing": "one of each: " + ", ".join(levels),
        "matches": matches,
        "win_rate": {level: round(won / matches, 4) for level, won in wins.items()},
        "ci95": {level: wilson(won, matches) for level, won in wins.items()},
        "draws": draws,
        "matches_per_second": round(matches / seconds, 1),
    }


def run(matches: int, seed: int = 2024) -> list[dict[str, Any]]:
    results = [pairing(one, three, matches, seed + index) for index, (one, three) in enumerate(PAIRINGS)]
    return [*results, line_up(LINE_UP, matches, seed + len(PAIRINGS))]
