"""Who may see what at a Gnav table: the one visibility policy.

An event's ``data`` holds what happened in full. What is for some eyes only sits under
``private``: a list of ``[seat, {fields}]``, each seat being shown its own fields and
nobody else's. Everything else in the data is public. So:

- a deal shows each participant their own card; a Fool dealt is public (``fools``);
- a swap is shown in full (the cards exchanged) to its two parties; the others see that
  it happened, between whom;
- a draw from the stock is shown to the drawer only, unless it reveals a matador
  (passed Horse/House, refusing Dragoon/Cat, Cuckoo), which is public;
- what a refusal or a pass reveals (the matador) is public, and a settlement shows all;
- a spectator (any id without a seat in the deal) is shown no hidden card.

:func:`event_for` applies this to one event for one viewer; :func:`seat_view` builds
everything one seat may know from the state, reading the deal's history through the same
:func:`visible_data` and, of the hidden cards, only the viewer's own.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from games.base import NOBODY, PLAYING, PRIVATE, Event, visible_data
from games.gnav import cards
from games.gnav.state import GnavState


def event_for(state: GnavState, event: Event, viewer: int) -> dict[str, Any] | None:
    """What ``viewer`` is shown of ``event``: every Gnav event has a public side, so this
    is never None; hidden cards appear only for the viewer the rules let see them."""
    return visible_data(event.data, viewer)


@dataclass(frozen=True)
class PlayerView:
    """A seat as everyone sees it."""

    account_id: int
    name: str
    bot: str
    lives: int
    out: bool
    resting: bool
    left: bool


@dataclass(frozen=True)
class SeatView:
    """Everything one seat (or a spectator) may know of a table, and nothing else."""

    viewer: int
    #: Whether the viewer has a seat here (a spectator has not).
    seated: bool
    phase: str
    host: int
    deal: int
    step: int
    dealer: int
    turn: int
    #: This deal's participants in order of play, the dealer last.
    order: tuple[int, ...]
    #: The viewer's own card this deal (None: not dealt in, or a spectator).
    card: str | None
    players: tuple[PlayerView, ...]
    #: Cards the viewer knows each holder has now (their own included): dealt Fools,
    #: matadors shown, the cards of their own swaps, and all after a settlement.
    known: tuple[tuple[int, str], ...]
    #: Cards the viewer knows lie in the stock, by index (passed, refusing, or given).
    stock_known: tuple[tuple[int, str], ...]
    stock_size: int
    #: Stock cards drawn or passed from the top this deal.
    drawn: int
    #: Holders whose card is known not to be a matador (they received it by an accepted
    #: swap, or from the stock).
    not_matador: tuple[int, ...]
    #: Holders whose card is known not to be a Fool (dealt Fools are shown).
    not_fool: tuple[int, ...]
    #: Cards of the deck not known to be anywhere, lowest first.
    unseen: tuple[str, ...]
    #: Cards shown to everyone this deal: ``(holder, card, why)``, holder NOBODY: stock.
    revealed: tuple[tuple[int, str, str], ...]
    #: This deal's events as the viewer was shown them.
    history: tuple[dict[str, Any], ...]
    #: What the viewer alone was shown this deal: ``{"kind": ..., fields}``.
    shown: tuple[dict[str, Any], ...]
    #: Swaps made this deal and not undone, in order: ``(how, asker, other)``.
    swaps: tuple[tuple[str, int, int], ...]
    lives_setting: int
    #: How the last match ended ("" if none has), as :func:`i18n.stored` keeps a message:
    #: shown to a reader with :func:`i18n.shown`.
    result: str = ""

    def player(self, account_id: int) -> PlayerView | None:
        return next((player for player in self.players if player.account_id == account_id), None)

    def knows(self, holder: int) -> str | None:
        return dict(self.known).get(holder)


def seat_view(state: GnavState, viewer: int) -> SeatView:
    """Everything ``viewer`` may know of the table, built from the state: the public
    facts, the viewer's own card (while a match is played), and the deal's history read
    through the policy."""
    seat = state.seat(viewer)
    history = tuple(visible_data(entry, viewer) for entry in state.history)
    shown = tuple(
        {"kind": entry["kind"], **copy.deepcopy(secret)}
        for entry in state.history
        for holder, secret in entry.get(PRIVATE, ())
        if holder == viewer
    )
    card = state.hands.get(viewer) if state.phase == PLAYING and viewer in state.order else None
    knowledge = _Knowledge(viewer)
    for entry in history:
        knowledge.read(entry)
    if card is not None:
        knowledge.held[viewer] = card
    unseen = Counter(cards.DECK)
    for known_card in [*knowledge.held.values(), *knowledge.stock.values()]:
        if unseen[known_card] > 0:
            unseen[known_card] -= 1
    public_swaps = tuple((how, asker, other) for how, asker, other in state.swaps)
    return SeatView(
        viewer=viewer,
        seated=seat is not None,
        phase=state.phase,
        host=state.host,
        deal=state.deal,
        step=state.step,
        dealer=state.dealer,
        turn=state.turn,
        order=tuple(state.order),
        card=card,
        players=tuple(PlayerView(s.account_id, s.name, s.bot, s.lives, s.out, s.resting, s.left) for s in state.seats),
        known=tuple(sorted(knowledge.held.items())),
        stock_known=tuple(sorted(knowledge.stock.items())),
        stock_size=len(state.stock),
        drawn=state.drawn,
        not_matador=tuple(sorted(knowledge.not_matador)),
        not_fool=tuple(sorted(knowledge.not_fool)),
        unseen=tuple(sorted(unseen.elements(), key=cards.order)),
        revealed=tuple((holder, card_key, why) for holder, card_key, why in state.revealed),
        history=history,
        shown=shown,
        swaps=public_swaps,
        lives_setting=int(state.settings.get("lives", 3)),
        result=state.result,
    )


class _Knowledge:
    """What one viewer knows of where cards are, followed through a deal's history as
    that viewer was shown it."""

    def __init__(self, viewer: int) -> None:
        self.viewer = viewer
        self.held: dict[int, str] = {}
        self.stock: dict[int, str] = {}
        self.not_matador: set[int] = set()
        self.not_fool: set[int] = set()

    def read(self, entry: dict[str, Any]) -> None:
        kind = entry["kind"]
        if kind == "deal":
            self._deal(entry)
        elif kind == "swap":
            asker, target = entry["asker"], entry["target"]
            self._exchange(asker, target)
            # The target accepted: the card the asker now holds is no matador.
            self.not_matador.add(asker)
            if "got" in entry:
                self.held[asker], self.held[target] = entry["got"], entry["gave"]
        elif kind == "stock" and not entry.get("empty"):
            asker, index = entry["asker"], entry["index"]
            given = self.held.pop(asker, None)
            if given is not None:
                self.stock[index] = given
            self.not_matador.add(asker)
            self.not_fool.discard(asker)
            if "got" in entry:
                self.held[asker], self.stock[index] = entry["got"], entry["gave"]
        elif kind in ("pass", "refuse", "cuckoo"):
            if entry["holder"] == NOBODY:
                self.stock[entry["index"]] = entry["card"]
            else:
                self.held[entry["holder"]] = entry["card"]
        elif kind == "undo":
            for how, first, second in entry["swaps"]:
                if how == "seat":
                    self._exchange(first, second)
                else:
                    self._exchange_with_stock(first, second)
        elif kind == "settle":
            for holder, card in entry["cards"]:
                self.held[holder] = card

    def _deal(self, entry: dict[str, Any]) -> None:
        self.held.clear()
        self.stock.clear()
        self.not_matador.clear()
        for holder in entry["fools"]:
            self.held[holder] = cards.FOOL
        self.not_fool = {holder for holder in entry["order"] if holder not in entry["fools"]}
        if "card" in entry:
            self.held[self.viewer] = entry["card"]

    def _exchange(self, first: int, second: int) -> None:
        a, b = self.held.pop(first, None), self.held.pop(second, None)
        if b is not None:
            self.held[first] = b
        if a is not None:
            self.held[second] = a
        for marks in (self.not_matador, self.not_fool):
            a_marked, b_marked = first in marks, second in marks
            self._mark(marks, first, b_marked)
            self._mark(marks, second, a_marked)

    def _exchange_with_stock(self, holder: int, index: int) -> None:
        a, b = self.held.pop(holder, None), self.stock.pop(index, None)
        if b is not None:
            self.held[holder] = b
        if a is not None:
            self.stock[index] = a
        # What was in the stock there: anything, as far as the marks go.
        self.not_matador.discard(holder)
        self.not_fool.discard(holder)

    @staticmethod
    def _mark(marks: set[int], holder: int, value: bool) -> None:
        if value:
            marks.add(holder)
        else:
            marks.discard(holder)


def scrambled(state: GnavState, viewer: int, rng: random.Random) -> GnavState:
    """A copy of ``state`` with every card ``viewer`` could not see changed: the others'
    hands, the stock, and the private parts of the deal's history meant for others."""
    state = copy.deepcopy(state)
    for holder in state.hands:
        if holder != viewer:
            state.hands[holder] = rng.choice(cards.DECK)
    state.stock = [rng.choice(cards.DECK) for _ in state.stock]
    for entry in state.history:
        for holder, secret in entry.get(PRIVATE, ()):
            if holder != viewer:
                for key in secret:
                    secret[key] = rng.choice(cards.DECK)
    return state
