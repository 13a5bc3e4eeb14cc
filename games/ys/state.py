"""The state of one Ys table, and the one function through which it changes.

Every change is a *delta*, a small JSON-ready list: ``["set", name, value]`` (a field of
the table), ``["player", id, {field: value}]`` (a field of one player's holdings: the
neutral player's too), ``["setting", name, value]``, ``["seat", id, {field: value}]`` and
``["seats", [...]]``. :meth:`YsState.apply` is the only code that changes a table;
:meth:`YsState.inverse` gives the deltas that undo one. Everything random (the order
cards, the gem and action cards) is decided by the rules and written into deltas, so
replaying a room's log rebuilds the table exactly.

A player's holdings (``players``, one dict each, in seating order, the neutral player
last in a 2-player game): ``id``; ``screen``, the brokers behind the screen, and
``front``, those in front of it (the bid, then the last broker at resolution), lowest
first; ``gems`` (colour -> count, black and white included); ``points``; ``cards``, the
held action cards as ``[card, round won]``; ``played``, non-immediate cards played this
round; ``favour``, the brokers on the King's favour space.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.base import Delta
from games.base import Seat as GameSeat
from games.toolkit import TurnState
from games.ys.tables import NEUTRAL, NEUTRAL_BROKERS


@dataclass
class Seat(GameSeat):
    """A player at the table, in seating order; ``bot`` is a computer player's level."""


PLAYER_FIELDS = ("screen", "front", "gems", "points", "cards", "played", "favour")


@dataclass
class YsState(TurnState):
    """Everything about one Ys table that is stored and replayed: what every turn table
    keeps (:class:`games.toolkit.TurnState`), and the game's board and holdings."""

    seat_class: ClassVar[type[GameSeat]] = Seat

    seats: list[Seat] = field(default_factory=list)
    #: The round being played (1-4; 0 before the first).
    round: int = 0
    #: Where the round is: ``bid``, ``order`` (the order cards are chosen), ``place``,
    #: ``resolve``, ``favour`` ("" outside a game).
    stage: str = ""
    #: The timing window the table is in ("" between windows; see ``tables.WINDOWS``).
    window: str = ""
    #: The turn order this round: the holder of order card n is ``order[n - 1]``.
    order: list[int] = field(default_factory=list)
    #: The order cards chosen so far for the coming placement (stage ``order``):
    #: ``[player, card]`` each, in the order they were chosen.
    order_cards: list[list[int]] = field(default_factory=list)
    #: What they place: ``pair`` (their own two brokers) or ``neutral`` (one of the
    #: neutral player's, after their pair, in a 2-player game).
    turn_part: str = ""
    #: Each player's holdings (see the module's docstring).
    players: list[dict[str, Any]] = field(default_factory=list)
    #: Each colour's place on the price track.
    prices: dict[str, int] = field(default_factory=dict)
    #: The gem cards not yet laid, the next to lay last.
    gem_deck: list[int] = field(default_factory=list)
    #: The gem card laid in each city quadrant this round (-1: a quadrant not played).
    laid: list[int] = field(default_factory=list)
    #: The gem card laid beside the market this round (-1: none).
    market_card: int = -1
    #: The gems still lying on each quadrant's card.
    quadrant_gems: list[list[str]] = field(default_factory=list)
    #: The gem in each market row, top first (None: empty, or taken).
    market: list[str | None] = field(default_factory=list)
    #: The brokers on the board: ``{"player", "value", "up", "space"}``, a space being
    #: ``["city", quadrant, ring]`` or ``["market", row, colour]``.
    placed: list[dict[str, Any]] = field(default_factory=list)
    #: Each corner's action cards: ``{"up": the face-up card or None, "stack": the face-down
    #: ones, the next to turn up last}``.
    corners: list[dict[str, Any]] = field(default_factory=list)
    #: Action cards discarded: first those left over at setup (put away unseen), then
    #: those played or unwon (face up).
    discard: list[str] = field(default_factory=list)
    #: Choices the table waits for, the first being asked now: ``{"player", "ask", ...}``.
    awaiting: list[dict[str, Any]] = field(default_factory=list)
    #: What resolution still has to do, in order (see ``rules``).
    tasks: list[list[Any]] = field(default_factory=list)
    #: Action cards played for a later window this round: ``[player, card]``.
    queued: list[list[Any]] = field(default_factory=list)
    #: The yellow-edged cards in effect this round (``actions``): ``{"card", "player", ...}``,
    #: what each keeps being public (a Spy's looks name the brokers, never their values).
    effects: list[dict[str, Any]] = field(default_factory=list)

    # -- reading -------------------------------------------------------------------

    def player(self, account_id: int) -> dict[str, Any] | None:
        """The holdings of ``account_id`` (or the neutral player's) in this game."""
        for holdings in self.players:
            if holdings["id"] == account_id:
                return holdings
        return None

    def neutral_left(self, player: int) -> list[int]:
        """The neutral player's brokers ``player`` may still place this round, lowest
        first: each of the two players has their own 4, 2, 1, 0 to place (the rules:
        "each player also gets 4 brokers, 4, 2, 1 and 0, of the neutral player"), so
        what the other placed stays hidden. A game begun before this was so shares one
        set: then only what is left of it."""
        neutral = self.player(NEUTRAL)
        if neutral is None or self.player(player) is None:
            return []
        placed = Counter(e["value"] for e in self.placed if e["player"] == NEUTRAL and e.get("by") == player)
        return sorted(((Counter(NEUTRAL_BROKERS) - placed) & Counter(neutral["screen"])).elements())

    # -- changing --------------------------------------------------------------------

    def own_inverse(self, delta: Delta) -> list[Delta]:
        if delta[0] != "player":
            raise ValueError(f"unknown delta {delta[0]!r}")
        holdings = self.player(delta[1])
        if holdings is None:
            raise ValueError(f"no player {delta[1]}")
        return [["player", delta[1], {name: copy.deepcopy(holdings[name]) for name in delta[2]}]]

    def own_apply(self, delta: Delta) -> None:
        if delta[0] != "player":
            raise ValueError(f"unknown delta {delta[0]!r}")
        _, account_id, changes = delta
        holdings = self.player(account_id)
        if holdings is None:
            raise ValueError(f"no player {account_id}")
        for name, value in changes.items():
            if name not in PLAYER_FIELDS:
                raise ValueError(f"unknown player field {name!r}")
            holdings[name] = copy.deepcopy(value)
