"""The ys scenario: Ys games of computer players only, in process (no sockets, no
database): bot-only games a second, and the normal level's share of wins against easy.

Each game seats a host who hands the seat to a computer player once the game has begun,
then makes whatever ``due()`` says is due until the final score (events taken after
every move, as a room would). Reported per player count: games a second and moves a
game with every seat ``normal``; and, for 3 players, one ``normal`` against two
``easy`` (its seat moving round) with its win rate and 95% Wilson interval.
"""

from __future__ import annotations

import random
import time
from typing import Any

from bench.gnav import wilson
from games.ys.rules import YsTable

HOST = 1
#: The most moves a game may take before the bench calls it broken.
MOVE_LIMIT = 10_000


def play_game(levels: list[str], rng: random.Random) -> tuple[list[int], int]:
    """One game with a computer player of ``levels[i]`` in seat ``i``: the winners' seat
    numbers and the moves made."""
    table = YsTable(rng=rng)
    table.sit(HOST, "Host")
    for level in levels[1:]:
        table.add_bot(HOST, level)
    table.start(HOST)
    table.state.apply(["seat", HOST, {"bot": levels[0]}])
    winners: list[int] = []
    for moves in range(MOVE_LIMIT):
        for event in table.take_changes().events:
            if event.kind == "score":
                winners = list(event.data["winner_ids"])
        if table.state.phase != "playing":
            ids = [seat.account_id for seat in table.state.seats]
            return [ids.index(winner) for winner in winners], moves
        due = table.due()
        assert due is not None
        due.move(table)
    raise RuntimeError("a game did not end")


def speed(players: int, games: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    moves = 0
    started = time.perf_counter()
    for _ in range(games):
        moves += play_game(["normal"] * players, rng)[1]
    seconds = time.perf_counter() - started
    return {
        "scenario": "ys",
        "players": players,
        "levels": "all normal",
        "games": games,
        "games_per_second": round(games / seconds, 2),
        "moves_per_game": round(moves / games, 1),
    }


def normal_against_easy(games: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    wins = 0
    for number in range(games):
        seat = number % 3
        levels = ["easy"] * 3
        levels[seat] = "normal"
        wins += seat in play_game(levels, rng)[0]
    return {
        "scenario": "ys",
        "players": 3,
        "levels": "1 normal vs 2 easy",
        "games": games,
        "normal_win_rate": round(wins / games, 4),
        "ci95": wilson(wins, games),
    }


def run(games: int, seed: int = 2024) -> list[dict[str, Any]]:
    return [speed(3, games, seed), speed(5, games, seed + 1), normal_against_easy(games, seed + 2)]
