"""Helpers for Ys room tests: a legal command for whoever the table waits for, from what
that seat may see, and the secrecy oracle (what a viewer must never be shown)."""

from __future__ import annotations

import random
from typing import Any

from commands.ys.render import space_code
from games.base import PLAYING
from games.ys import tables as t
from games.ys.visibility import seat_view


def free_spaces(view: dict[str, Any]) -> list[list[Any]]:
    quadrants = len([card for card in view["laid"] if card >= 0])
    spaces: list[list[Any]] = [["city", q, ring] for q in range(quadrants) for ring in t.RINGS]
    taken = [entry["space"] for entry in view["placed"]]
    for row, gem in enumerate(view["market"]):
        if gem is not None:
            spaces.extend(["market", row, c] for c in t.COLOURS if ["market", row, c] not in taken)
    return spaces


def command_for(view: dict[str, Any], rng: random.Random) -> str | None:
    """A legal command for the seat ``view`` is of, if the table waits for it."""
    me = view["viewer"]
    if view["phase"] != PLAYING or view["you"] is None:
        return None
    you = view["you"]
    if view["awaiting"]:
        ask = view["awaiting"][0]
        if ask["player"] != me:
            return None
        if ask["ask"] == "take":
            return "choose " + " ".join(rng.sample(ask["options"], ask["count"]))
        if ask["ask"] == "nudge":
            return f"choose {rng.choice(t.COLOURS)} {rng.choice(['up', 'down'])}"
        return f"choose {rng.choice(t.COLOURS)}"
    if view["stage"] == "bid":
        mine = next(p for p in view["players"] if p["id"] == me)
        if mine["bid"]:
            return None
        a, b = rng.sample(you["screen"], 2)
        return f"bid {a} {b}"
    if view["stage"] == "favour":
        if len(you["favour"]) >= view["round"]:
            return None
        return f"favour {rng.choice(you['front'])}"
    if view["stage"] == "place" and view["turn"] == me:
        spaces = free_spaces(view)
        if view["turn_part"] == "neutral":
            return None
        up = rng.choice(spaces)
        down = rng.choice([s for s in spaces if s != up or s[0] == "city"])
        a, b = rng.sample(you["screen"], 2)
        return f"place {a} {space_code(up)} {b} {space_code(down)}"
    return None


def neutral_command(table: Any, me: int, rng: random.Random) -> str | None:
    """The neutral placement, if ``me`` must make it (the neutral player's brokers left
    are public: the table's own list is read only for the values, as the placer sees the
    neutral player's screen)."""
    view = seat_view(table.state, me)
    if view["phase"] != PLAYING or view["awaiting"] or view["turn"] != me or view["turn_part"] != "neutral":
        return None
    left = table.state.player(t.NEUTRAL)["screen"]
    return f"neutral {rng.choice(left)} {space_code(rng.choice(free_spaces(view)))}"
