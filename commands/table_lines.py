"""How the events every turn table makes read (a seat taken or given up, a new host, a
computer player seated or removed, a setting changed), and the grammar every game's
lines are written with: "you" and "your" for the viewer, the name for anyone else, and
the verb agreeing ("You set", "Ann sets"). A game's renderer takes these lines and adds
its own (:func:`seating_lines`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.base import NOBODY

#: Seat ids to names (a leaver's too).
Names = Mapping[int, str]
#: How one event reads: ``(data as the viewer may see it, viewer, names, actor)``.
Renderer = Callable[[dict[str, Any], int, Names, int], str]


def who(account_id: int, viewer: int, names: Names) -> str:
    """``you`` or the player's name."""
    return "you" if account_id == viewer else names.get(account_id, "someone")


def subject(account_id: int, viewer: int, names: Names) -> str:
    """``You`` or the player's name, to begin a sentence."""
    return capital(who(account_id, viewer, names))


def whose(account_id: int, viewer: int, names: Names) -> str:
    """``your`` or the player's name with ``'s``."""
    return "your" if account_id == viewer else f"{names.get(account_id, 'someone')}'s"


def verb(account_id: int, viewer: int, you: str, other: str) -> str:
    """The verb as it agrees with its subject: ``you`` for the viewer, ``other`` else
    (``verb(p, v, "take", "takes")``)."""
    return you if account_id == viewer else other


def capital(text: str) -> str:
    """``text`` with its first letter capital."""
    return text[:1].upper() + text[1:]


def listed(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def left_the_table(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    """A seat given up (``Ann leaves the table.``) or taken away by the host (``You
    remove Ann from the table.``), and, if that abandoned the game, how it ended."""
    player = d["player"]
    if actor not in (player, NOBODY):
        said = f"{subject(actor, v, n)} {verb(actor, v, 'remove', 'removes')} {who(player, v, n)} from the table."
    else:
        said = f"{subject(player, v, n)} {verb(player, v, 'leave', 'leaves')} the table."
    return f"{said} {d['result']}" if d.get("abandoned") and d.get("result") else said


def names_for(table: Any, event: Any) -> dict[int, str]:
    """The names an event's line may use: everyone seated, its actor and the player it
    is about, as they were called when it happened (they may have left since)."""
    names = {seat.account_id: seat.name for seat in table.state.seats}
    names.setdefault(event.actor, event.actor_name)
    if "player" in event.data and "name" in event.data:
        names.setdefault(event.data["player"], event.data["name"])
    return names


def seating_lines(title: str) -> dict[str, Renderer]:
    """How the events of :class:`games.toolkit.TurnTable`'s seats and settings read at a
    table of the game called ``title``, by event kind."""

    def joined(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
        return f"{subject(d['player'], v, n)} {verb(d['player'], v, 'take', 'takes')} a seat at the {title} table."

    def hosting(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
        return f"{subject(d['player'], v, n)} {verb(d['player'], v, 'are', 'is')} now the host."

    def bot_seated(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
        return f"{d['name']} (bot, {d['level']}) takes a seat."

    def bot_removed(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
        return f"{d['name']} (bot, {d['level']}) leaves the table."

    def setting(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
        return f"{subject(actor, v, n)} {verb(actor, v, 'set', 'sets')} {d['name']} to {d['value']}."

    return {
        "join": joined,
        "leave": left_the_table,
        "host": hosting,
        "addbot": bot_seated,
        "removebot": bot_removed,
        "set": setting,
    }
