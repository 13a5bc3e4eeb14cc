"""Helpers for Ys room tests: a legal command for whoever the table waits for, from what
that seat may see, and the secrecy oracle (what a viewer must never be shown)."""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from commands.ys.render import space_code
from games.base import PLAYING, PRIVATE
from games.ys import tables as t
from games.ys.visibility import seat_view
from persistence.rooms import LoggedEvent


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
        if ask["ask"] == "order":
            return f"order {rng.choice(ask['options'])}"
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


# -- the secrecy oracle ----------------------------------------------------------------

#: The event kinds whose data keeps fields for one seat (``private``) that this oracle
#: knows how to follow; a log with any other (a Spy's look, a Magician's swap) is out of
#: its scope, and :func:`secrets_in` says so rather than check it loosely.
FOLLOWED = {"bid", "place", "neutral", "favour"}


@dataclass
class Secret:
    """Something one seat (``owner``) may know and no other viewer may be shown: a bid
    (``brokers``), a face-down broker (``piece`` the player whose broker it is, on
    ``space``) or a broker given to the King's favour; live from the step it was made
    (``made``) until the step that makes it public (``public``; None: not in the log)."""

    what: str
    owner: int
    made: int
    round: int
    public: int | None = None
    piece: int = 0
    space: list[Any] | None = None
    value: Any = None


def secrets_in(log: list[LoggedEvent]) -> list[Secret]:
    """Every secret the stored log made, with the step it was made at and the step it
    became public: a bid until the ``bids`` event, a face-down broker until ``resolve``,
    a King's favour broker until ``score``. The step is read from the events' deltas
    (``["set", "step", n]``), as the views carry it."""
    step, round_ = 0, 0
    found: list[Secret] = []
    reveals = {"bids": "bid", "resolve": "down", "score": "favour"}
    for logged in log:
        event = logged.event
        for delta in event.deltas:
            if delta[:2] == ["set", "step"]:
                step = delta[2]
            if delta[:2] == ["set", "round"]:
                round_ = delta[2]
        data = event.data
        if data.get(PRIVATE):
            assert event.kind in FOLLOWED, f"event {logged.seq} ({event.kind}) keeps secrets the oracle does not follow"
            [[owner, secret]] = data[PRIVATE]
            if event.kind == "bid":
                found.append(Secret("bid", owner, step, round_, value=secret["brokers"]))
            elif event.kind == "place":
                assert "up_value" not in secret, "a Bishop's pair: out of the oracle's scope"
                found.append(Secret("down", owner, step, round_, piece=owner, space=data["down"]["space"]))
                found[-1].value = secret["down_value"]
            elif event.kind == "neutral":
                found.append(Secret("down", owner, step, round_, piece=t.NEUTRAL, space=data["space"]))
                found[-1].value = secret["value"]
            else:
                found.append(Secret("favour", owner, step, round_, value=secret["value"]))
        if event.kind in reveals:
            for secret in found:
                if secret.what == reveals[event.kind] and secret.public is None:
                    secret.public = step
    return found


def view_leaks(view: dict[str, Any], secrets: list[Secret]) -> list[str]:
    """What ``view`` (a ``Ys.View`` some viewer was sent) shows of the secrets of others
    live at its step: a bid in the bidder's row, a face-down broker's value on its space,
    a King's favour broker (as a list, or as the giver's front less it during the
    favour stage); and any player row whose screen, cards or favour is more than a count."""
    viewer, step = view["viewer"], view["step"]
    rows = {row["id"]: row for row in view["players"]}
    found = [
        f"step {step}: {row['name']}'s {key} is {row[key]!r}"
        for row in view["players"]
        for key in ("screen", "cards", "favour")
        if not isinstance(row[key], int)
    ]
    for secret in secrets:
        live = secret.made <= step and (secret.public is None or step < secret.public)
        if not live or secret.owner == viewer:
            continue
        if secret.what == "bid" and rows[secret.owner]["front"] is not None:
            found.append(f"step {step}: a bid in {rows[secret.owner]}")
        if secret.what == "down":
            lying = [
                entry
                for entry in view["placed"]
                if entry["player"] == secret.piece and entry["space"] == secret.space and not entry["up"]
            ]
            assert lying, f"step {step}: the face-down broker {secret} is not on the board"
            found += [f"step {step}: a face-down value in {entry}" for entry in lying if entry["value"] is not None]
        giving = secret.what == "favour" and view["stage"] == "favour" and view["round"] == secret.round
        if giving and rows[secret.owner]["front"] is not None:
            found.append(f"step {step}: the front of a King's favour giver, {rows[secret.owner]}")
    return found


#: A face-down broker as the board and market draw it: letter, value or ?, and a quote.
BOARD_DOWN = re.compile(r"(?<![\w=])([A-EN])(\d+|\?)'")
PLACE_LINE = re.compile(
    r"(\w+) places? (?:a \d+ face up|a broker face down \(Bishop\)) on [^.]*? and (.*?) face down on"
)


def text_leaks(transcript: str, letter: str) -> tuple[list[str], Counter[str]]:
    """What ``transcript`` (a viewer's whole text, colour codes taken out, wrapping undone)
    shows of others' secrets, whenever it was sent: a placement line naming another's
    face-down value, a bid line of another with numbers, a King's favour line of another
    with its broker, a face-down broker of another drawn with its value on the board (``letter``
    the viewer's own, "" for a spectator). With it, how many lines of each sort were read
    (so that a test can see the checks were not vacuous)."""
    text = " ".join(re.sub(r"\x1b\[[0-9;]*m", "", transcript).split())
    read: Counter[str] = Counter()
    found = []
    for match in PLACE_LINE.finditer(text):
        mine = match.group(1) == "You"
        read["own place" if mine else "other's place"] += 1
        if not mine and match.group(2) != "a broker":
            found.append(f"placement line: {match.group(0)}")
        if mine and not letter:
            found.append(f"a spectator reads a placement as its own: {match.group(0)}")
    read["other's bid"] = len(re.findall(r"\b\w+ bids\.", text))
    found += [f"bid line: {m}" for m in re.findall(r"\b\w+ bids? \d[^.]*\.", text) if not m.startswith("You bid")]
    if not letter:
        found += [f"spectator's bid line: {m}" for m in re.findall(r"You bid [^.]*\.", text)]
    read["other's favour"] = len(re.findall(r"\w+ gives the King's favour a broker and takes a 2\.", text))
    found += [f"favour line: {m}" for m in re.findall(r"\w+ gives the King's favour (?!a broker and)[^.]*\.", text)]
    if not letter:
        found += [f"spectator's favour line: {m}" for m in re.findall(r"You give the King's favour[^.]*\.", text)]
    for match in BOARD_DOWN.finditer(text):
        read["board face down"] += 1
        if match.group(2) != "?" and match.group(1) != letter:
            found.append(f"board: {match.group(0)}")
    return found, read
