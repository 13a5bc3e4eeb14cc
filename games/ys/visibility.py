"""Who may see what at a Ys table: the one visibility policy.

An event's ``data`` holds what happened in full. What is for some eyes only sits under
``private``: a list of ``[seat, {fields}]``, each seat being shown its own fields and
nobody else's; everything else in the data is public. So:

- a bid shows its brokers to the bidder only; the ``order`` event (once every player has
  bid) shows all bids;
- a placed pair shows everyone the face-up broker and where the face-down one went, its
  value to its owner only; a neutral broker's value is shown to the player who placed
  it only; the ``resolve`` event turns every broker up;
- a broker given to the King's favour is shown to its owner only, until the final score;
- a Spy's look shows the broker's number to the Spy's player only; a Bishop's player
  places both brokers of a pair face down, their numbers shown to that player only; a
  Magician's swap shows the two numbers to its player only;
- a spectator (any id without a seat) is shown no secret.

:func:`event_for` applies this to one event for one viewer; :func:`seat_view` builds
everything one seat may know from the state: of others' screens only how many brokers
are behind them, of bids nothing until all have bid, of face-down brokers only whose
they are, of held action cards and favour brokers only how many.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from games.base import Event, visible_data
from games.ys import tables as t
from games.ys.state import YsState
from i18n import _, shown


def event_for(state: YsState, event: Event, viewer: int) -> dict[str, Any] | None:
    """What ``viewer`` is shown of ``event``: every Ys event has a public side, so this is
    never None; secrets appear only for the viewer the rules let see them."""
    return visible_data(event.data, viewer)


def _name(holdings: dict[str, Any], seat: Any) -> str:
    """A player's name in the view: the neutral player's is "neutral"; one who has left
    the finished game keeps theirs (games begun before names were kept: "someone")."""
    if holdings["id"] == t.NEUTRAL:
        return "neutral"
    return str(seat.name if seat is not None else holdings.get("name", _("someone")))


#: How many yellow action cards are put away unseen at setup: the first entries of a
#: started game's ``discard``.
SET_ASIDE = len(t.yellow_deck()) - t.QUADRANTS * t.YELLOW_PER_CORNER


def seat_view(state: YsState, viewer: int) -> dict[str, Any]:
    """Everything ``viewer`` may know of the table, as JSON-ready data:

    ``viewer, seated, phase, host, result, step, round, stage, window, turn, turn_part,
    order, order_cards, settings, prices, laid, market_card, quadrant_gems, market, awaiting, queued,
    effects``, as the state has them (``result`` put in the viewer's language), and
    ``market_gems``, how many gems each market row holds (0: none) (all public: a Spy's
    looks name brokers, never their numbers); ``discard``: the action cards discarded face up (played, or unwon at a
    round's end), not the ones left over at setup, which are put away unseen (knowing
    them would tell which lie face down in the corners); ``corners``: ``{"up", "left"}``
    (the face-up card, how many face down); ``placed``: ``{"player", "space", "up",
    "value", "by"}``, ``value`` None where the viewer may not know it, ``by`` who placed a
    neutral broker (else None); ``players``: one each,
    ``worth`` (a Mercenary's 5, else None) and ``value`` None where the viewer may not
    know it (a Spy's player knows the brokers it looked at); ``players``: one each,
    ``{"id", "name", "bot", "neutral", "screen" (a count), "bid" (whether they have bid),
    "front" (the brokers in front of the screen once public, else None), "gems",
    "points", "cards" (a count), "favour" (a count)}``; ``you``: the viewer's own
    ``{"screen", "front", "cards", "favour", "spied", "neutral"}`` (``spied``: ``[player,
    number]`` for each broker on the King's favour space the viewer's Spy looked at;
    ``neutral``: the neutral player's brokers the viewer may still place this round; None
    for a spectator)."""
    seat = state.seat(viewer)
    own = state.player(viewer)
    bidding = state.stage == "bid"
    playing = sum(holdings["id"] != t.NEUTRAL for holdings in state.players)
    players = []
    for holdings in state.players:
        pid = holdings["id"]
        seat_of = state.seat(pid)
        gave = len(holdings["favour"]) >= state.round and state.stage == "favour"
        public_front = not bidding and not gave and holdings["front"]
        players.append(
            {
                "id": pid,
                "name": _name(holdings, seat_of),
                "bot": seat_of.bot if seat_of else "",
                "neutral": pid == t.NEUTRAL,
                "screen": len(holdings["screen"]),
                "bid": bool(holdings["front"]) or not bidding,
                "front": list(holdings["front"]) if public_front else None,
                "gems": dict(holdings["gems"]),
                "points": holdings["points"],
                "cards": len(holdings["cards"]),
                "favour": len(holdings["favour"]),
            }
        )
    looks = [
        look
        for effect in state.effects
        if effect["card"] == "spy" and effect["player"] == viewer
        for look in effect["seen"]
    ]
    placed = []
    for index, entry in enumerate(state.placed):
        known = entry["up"] or entry["player"] == viewer or entry.get("by") == viewer or ["board", index] in looks
        placed.append(
            {
                "player": entry["player"],
                "space": list(entry["space"]),
                "up": entry["up"],
                "value": entry["value"] if known else None,
                "worth": entry.get("worth"),
                "by": entry.get("by"),
            }
        )
    you = None
    if own is not None:
        you = {
            "screen": list(own["screen"]),
            "front": list(own["front"]),
            "cards": copy.deepcopy(own["cards"]),
            "favour": list(own["favour"]),
            "spied": [_spied(state, look) for look in looks if look[0] == "favour"],
            "neutral": state.neutral_left(viewer),
        }
    return {
        "viewer": viewer,
        "seated": seat is not None,
        "phase": state.phase,
        "host": state.host,
        "result": shown(state.result),
        "step": state.step,
        "round": state.round,
        "stage": state.stage,
        "window": state.window,
        "turn": state.turn,
        "turn_part": state.turn_part,
        "order": list(state.order),
        "order_cards": copy.deepcopy(state.order_cards),
        "settings": dict(state.settings),
        "prices": dict(state.prices),
        "laid": list(state.laid),
        "market_card": state.market_card,
        "quadrant_gems": copy.deepcopy(state.quadrant_gems),
        "market": list(state.market),
        "market_gems": [t.market_row_gems(row, playing) if gem else 0 for row, gem in enumerate(state.market)],
        "discard": list(state.discard[SET_ASIDE:]),
        "awaiting": copy.deepcopy(state.awaiting),
        "queued": copy.deepcopy(state.queued),
        "effects": copy.deepcopy(state.effects),
        "corners": [{"up": corner["up"], "left": len(corner["stack"])} for corner in state.corners],
        "placed": placed,
        "players": players,
        "you": you,
    }


def _spied(state: YsState, look: list[Any]) -> list[Any]:
    """``[player, number]`` of a Spy's look ``["favour", player, index]``."""
    holdings = state.player(look[1])
    return [look[1], holdings["favour"][look[2]] if holdings is not None else None]


def scrambled(state: YsState, viewer: int, rng: random.Random) -> YsState:
    """A copy of ``state`` with everything ``viewer`` could not see changed: the others'
    screens and held cards, their bids before all have bid, their face-down brokers, their
    King's favour brokers (and a front after giving one), the neutral player's screen and
    the brokers another placed for it, the gem deck and the face-down action cards."""
    state = copy.deepcopy(state)
    bidding = state.stage == "bid"
    # What the viewer's Spy looked at, they saw.
    looks = [look for e in state.effects if e["card"] == "spy" and e["player"] == viewer for look in e["seen"]]
    # The viewer knows only which of its own neutral brokers it still has.
    own_neutral = state.neutral_left(viewer)
    for holdings in state.players:
        if holdings["id"] == viewer:
            continue
        holdings["screen"] = sorted(rng.randint(0, 7) for _ in holdings["screen"])
        if holdings["id"] == t.NEUTRAL:
            holdings["screen"] = sorted([*own_neutral, *holdings["screen"][len(own_neutral) :]])
        holdings["cards"] = [[rng.choice(list(t.YELLOW_CARDS)), won] for _, won in holdings["cards"]]
        holdings["favour"] = [
            value if ["favour", holdings["id"], index] in looks else rng.randint(0, 7)
            for index, value in enumerate(holdings["favour"])
        ]
        gave = state.stage == "favour" and len(holdings["favour"]) >= state.round
        if bidding or gave:
            holdings["front"] = sorted(rng.randint(0, 7) for _ in holdings["front"])
    for index, entry in enumerate(state.placed):
        seen = ["board", index] in looks
        if not entry["up"] and entry["player"] != viewer and entry.get("by") != viewer and not seen:
            entry["value"] = rng.randint(0, 7)
    rng.shuffle(state.gem_deck)
    for corner in state.corners:
        corner["stack"] = [rng.choice(t.yellow_deck()) for _ in corner["stack"]]
    return state
