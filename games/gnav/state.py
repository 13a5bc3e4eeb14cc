"""The state of one Gnav table, and the one function through which it changes.

Every change is a *delta*: a small JSON-ready list such as ``["swap", 12, 40]`` (two
players exchange their cards) or ``["set", "turn", 40]``. :meth:`GnavState.apply` is the
only code that changes a table; :meth:`GnavState.inverse` gives the deltas that undo one.
The rules shuffle (with their table's random source) and record the resulting order in
a delta, so replaying a room's log rebuilds the table exactly.

Where the 42 cards are during a deal: one in each participant's hand, the rest in the
*stock*, whose top is its last card. ``drawn`` counts the stock cards drawn or passed
from the top: the next draw looks at ``stock[len(stock) - 1 - drawn]``. A card given to
the stock takes the place of the card drawn, so hands and stock always hold all 42.

Each deal keeps a ``history``: the data of every event of the deal, secrets included.
What a seat was shown of it is for the visibility policy to say (``visibility``), so a
seat's view is built from the state without anything it may not know.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.base import NOBODY, Delta
from games.base import Seat as GameSeat
from games.toolkit import TurnState


@dataclass
class Seat(GameSeat):
    """A player at the table, in seating order (play goes from one seat to the next).
    ``out``: no lives left, or forfeited by leaving; ``bot``: ``easy``, ``normal`` or
    ``strong`` for a computer player."""

    lives: int = 0
    #: Sits out the current (or, between deals, the next) deal: a surviving Fool holder.
    resting: bool = False
    #: Left mid-match: forfeited, and the seat goes when the match ends.
    left: bool = False


@dataclass
class GnavState(TurnState):
    """Everything about one Gnav table that is stored and replayed: what every turn
    table keeps (:class:`games.toolkit.TurnState`), and the match's deals."""

    own_fields = ("hands",)
    seat_class: ClassVar[type[GameSeat]] = Seat

    seats: list[Seat] = field(default_factory=list)
    #: Deals dealt this match (the current one's number).
    deal: int = 0
    dealer: int = NOBODY
    #: This deal's participants in order of play: from the dealer's left, the dealer last.
    order: list[int] = field(default_factory=list)
    #: Each participant's card this deal.
    hands: dict[int, str] = field(default_factory=dict)
    #: The undealt cards, the top last.
    stock: list[str] = field(default_factory=list)
    drawn: int = 0
    #: This deal's exchanges in order, for a Cat to undo: ``["seat", asker, other]`` or
    #: ``["stock", asker, index in the stock]``.
    swaps: list[list[Any]] = field(default_factory=list)
    #: Cards shown to everyone this deal: ``[holder, card, why]`` (holder NOBODY: the stock).
    revealed: list[list[Any]] = field(default_factory=list)
    #: This deal's events in full: ``{"kind": ..., "actor": ..., **data}``.
    history: list[dict[str, Any]] = field(default_factory=list)

    # -- reading -------------------------------------------------------------------

    def alive(self) -> list[Seat]:
        """Seats still in the match, in seating order."""
        return [seat for seat in self.seats if not seat.out]

    def in_deal(self, account_id: int) -> bool:
        """Whether ``account_id`` takes part in the current deal and is still in the match."""
        seat = self.seat(account_id)
        return seat is not None and not seat.out and account_id in self.order

    def contestants(self) -> list[int]:
        """This deal's participants still in the match, in order of play."""
        return [account_id for account_id in self.order if self.in_deal(account_id)]

    def stock_top(self) -> int | None:
        """The index of the stock's next card to draw, None if it is drawn out."""
        index = len(self.stock) - 1 - self.drawn
        return index if index >= 0 else None

    # -- changing --------------------------------------------------------------------

    def own_inverse(self, delta: Delta) -> list[Delta]:
        kind = delta[0]
        if kind in ("swap", "stockswap"):
            return [list(delta)]
        if kind == "hands":
            return [["hands", hand_pairs(self.hands)]]
        if kind == "log":
            return [["set", "history", copy.deepcopy(self.history)]]
        raise ValueError(f"unknown delta {kind!r}")

    def own_apply(self, delta: Delta) -> None:
        kind = delta[0]
        if kind == "swap":
            _, first, second = delta
            self.hands[first], self.hands[second] = self.hands[second], self.hands[first]
        elif kind == "stockswap":
            _, holder, index = delta
            self.hands[holder], self.stock[index] = self.stock[index], self.hands[holder]
        elif kind == "hands":
            self.hands = {int(holder): card for holder, card in delta[1]}
        elif kind == "log":
            self.history.append(copy.deepcopy(delta[1]))
        else:
            raise ValueError(f"unknown delta {kind!r}")


def hand_pairs(hands: dict[int, str]) -> list[list[Any]]:
    """Hands as JSON holds them: ``[[holder, card], ...]`` (JSON keys are strings)."""
    return [[holder, card] for holder, card in hands.items()]
