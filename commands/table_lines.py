"""How the events every turn table makes read (a seat taken or given up, a new host, a
computer player seated or removed, a setting changed), and the grammar every game's
lines are written with: "you" and "your" for the viewer, the name for anyone else, and
the verb agreeing ("You set", "Ann sets"). A game's renderer takes these lines and adds
its own (:func:`seating_lines`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.base import NOBODY
from i18n import N_, _, shown

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
    return _("{names} and {last}").format(names=", ".join(words[:-1]), last=words[-1])


def as_seen(person: int, viewer: int, names: Names, you: str, other: str, **params: Any) -> str:
    """The sentence ``you`` (marked with ``N_``) when ``person`` is the viewer, else
    ``other`` with their name as ``{name}``; translated, ``params`` filled in. Each
    language words both as it needs (a verb agrees with its subject)."""
    if person == viewer:
        return _(you).format(**params)
    return _(other).format(name=names.get(person, _("someone")), **params)


def left_the_table(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    """A seat given up (``Ann leaves the table.``) or taken away by the host (``You
    remove Ann from the table.``), and, if that abandoned the game, how it ended."""
    player = d["player"]
    if actor not in (player, NOBODY):
        if player == v:
            line = _("{host} removes you from the table.").format(host=n.get(actor, _("someone")))
        else:
            line = as_seen(
                actor,
                v,
                n,
                N_("You remove {player} from the table."),
                N_("{name} removes {player} from the table."),
                player=n.get(player, _("someone")),
            )
    else:
        line = as_seen(player, v, n, N_("You leave the table."), N_("{name} leaves the table."))
    return f"{line} {shown(d['result'])}" if d.get("abandoned") and d.get("result") else line


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
        you, other = N_("You take a seat at the {game} table."), N_("{name} takes a seat at the {game} table.")
        return as_seen(d["player"], v, n, you, other, game=title)

    def hosting(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
        return as_seen(d["player"], v, n, N_("You are now the host."), N_("{name} is now the host."))

    def bot_seated(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
        return _("{name} (bot, {level}) takes a seat.").format(name=d["name"], level=_(d["level"]))

    def bot_removed(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
        return _("{name} (bot, {level}) leaves the table.").format(name=d["name"], level=_(d["level"]))

    def setting(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
        you, other = N_("You set {setting} to {value}."), N_("{name} sets {setting} to {value}.")
        return as_seen(actor, v, n, you, other, setting=d["name"], value=d["value"])

    return {
        "join": joined,
        "leave": left_the_table,
        "host": hosting,
        "addbot": bot_seated,
        "removebot": bot_removed,
        "set": setting,
    }
