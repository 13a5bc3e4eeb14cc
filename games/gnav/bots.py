"""Computer players: each level is a policy, a pure function of its seat's view (never
the state) and a random source, returning ``"keep"`` or ``"swap"``. The levels differ by
how much they reason, never by blunders made on purpose; none keeps a card that loses a
life nearly whatever the others hold (the Fool, the Owl, the Pot), none asks for a card
it knows is no better than its own or refuses, and none gives a matador away.

- ``easy`` reasons about its own card alone, and no further than that: it swaps the
  three lowest cards and keeps every other.
- ``normal`` swaps up to a higher line (V; VI for the dealer, who draws from the
  stock).
- ``strong`` reasons about what it cannot see: it deals the cards its view does not
  place (the deck less every card it knows of, respecting what it knows of each hand)
  many times over, plays the rest of the deal out under both choices with the others
  playing ``normal``, and takes the choice that costs it the fewest lives on average
  (a life another player loses counting for three quarters of one of its own, shared
  among them). What the others did tells it about their cards: one who kept (had they
  played ``normal``) holds a card above the line, one who was asked holds the asker's
  card; it doubts each such inference some of the time, as a player may play otherwise.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable

from games.base import NOBODY
from games.gnav import cards
from games.gnav.visibility import SeatView

KEEP, SWAP = "keep", "swap"

_FOOL, _POT = cards.order(cards.FOOL), cards.order("pot")
_HOUSE, _HORSE = cards.order(cards.HOUSE), cards.order(cards.HORSE)
_CAT, _DRAGOON, _CUCKOO = cards.order(cards.CAT), cards.order(cards.DRAGOON), cards.order(cards.CUCKOO)
_LOWEST_MATADOR = _HOUSE

#: Every level swaps a card this low (the Fool, the Owl, the Pot) unless it knows better.
ALWAYS_SWAP_UP_TO = _POT
#: normal: swaps cards up to these (a player asking another; the dealer drawing).
NORMAL_LINE = cards.order("v")
NORMAL_DEALER_LINE = cards.order("vi")
#: strong: deals sampled per choice, at most, in batches of STRONG_BATCH; it stops
#: sooner once the mean difference between its choices is STRONG_SURE standard errors
#: from 0 (most choices are clear after a batch).
STRONG_SAMPLES = 200
STRONG_BATCH = 40
STRONG_SURE = 2.0
#: strong: how much a life lost by another player (on average) is worth to it.
STRONG_SPITE = 0.75
#: strong: how often it supposes another player did not play by normal's line.
STRONG_DOUBT = 0.1


def easy(view: SeatView, rng: random.Random) -> str:
    return _without_weighing(view, _own(view)) or KEEP


def normal(view: SeatView, rng: random.Random) -> str:
    card = _own(view)
    settled = _without_weighing(view, card)
    if settled is not None:
        return settled
    return SWAP if _normal_would_swap(card, view.viewer == view.dealer) else KEEP


def strong(view: SeatView, rng: random.Random) -> str:
    card = _own(view)
    settled = _without_weighing(view, card)
    if settled is not None:
        return settled
    deal = _Deal.from_view(view)
    if deal is None:
        return normal(view, rng)
    # What swapping costs more than keeping, deal by deal (both played out on the same
    # cards): sampled until the mean is clearly one side of 0, or STRONG_SAMPLES.
    differences: list[float] = []
    while len(differences) < STRONG_SAMPLES:
        for _ in range(STRONG_BATCH):
            hands, stock = deal.sample(rng)
            seed = rng.random()
            keep = deal.play_out(dict(hands), list(stock), False, random.Random(seed))
            differences.append(deal.play_out(dict(hands), list(stock), True, random.Random(seed)) - keep)
        mean, spread = statistics.fmean(differences), statistics.stdev(differences)
        if spread == 0 or abs(mean) > STRONG_SURE * spread / math.sqrt(len(differences)):
            break
    return SWAP if mean < 0 else KEEP


POLICIES: dict[str, Callable[[SeatView, random.Random], str]] = {"easy": easy, "normal": normal, "strong": strong}


def decide(level: str, view: SeatView, rng: random.Random) -> str:
    """The move the ``level`` computer player makes in ``view``: keep or swap."""
    return POLICIES[level](view, rng)


def _without_weighing(view: SeatView, card: int) -> str | None:
    """The move every level makes without weighing anything: keep a matador, or when the
    swap is known to be refused or to bring no better card; else swap a card at or below
    the Pot (kept, it loses a life nearly whatever the others hold). None: the level
    weighs it."""
    if card >= _LOWEST_MATADOR or _swap_known_no_better(view, card):
        return KEEP
    return SWAP if card <= ALWAYS_SWAP_UP_TO else None


def _swap_known_no_better(view: SeatView, card: int) -> bool:
    """Whether the viewer knows its ask would reach a card no better than ``card``, or
    one that refuses or ends the deal (the dealer draws unseen cards: never known)."""
    if view.viewer == view.dealer:
        return False
    target = _next_target(view)
    known = view.knows(target) if target != NOBODY else None
    if known is None:
        return False
    rank = cards.order(known)
    return rank in (_CAT, _DRAGOON, _CUCKOO) or rank <= card


def _own(view: SeatView) -> int:
    if view.card is None:
        raise ValueError("a policy decides only for a seat holding a card")
    return cards.order(view.card)


def _normal_would_swap(card: int, dealer: bool) -> bool:
    if card == _FOOL:
        return True
    if card >= _LOWEST_MATADOR:
        return False
    return card <= (NORMAL_DEALER_LINE if dealer else NORMAL_LINE)


def _next_target(view: SeatView) -> int:
    """Whom the viewer's ask would reach first, past Horses and Houses it knows of."""
    out = {player.account_id for player in view.players if player.out}
    following = [holder for holder in view.order[view.order.index(view.viewer) + 1 :] if holder not in out]
    for holder in following:
        known = view.knows(holder)
        if known in (cards.HORSE, cards.HOUSE):
            continue
        return holder
    return NOBODY


class _Deal:
    """The rest of one deal as a strong player imagines it: cards as rank numbers,
    hidden ones dealt at random from what the view leaves unplaced."""

    def __init__(self, view: SeatView) -> None:
        self.me = view.viewer
        out = {player.account_id for player in view.players if player.out}
        self.order = [holder for holder in view.order if holder not in out]
        self.dealer = view.dealer
        self.lives = {player.account_id: player.lives for player in view.players}
        self.swaps = [(how, first, second) for how, first, second in view.swaps]
        self.drawn = view.drawn
        self.known = {holder: cards.order(card) for holder, card in view.known}
        self.hidden_holders = [holder for holder in view.order if holder not in self.known]
        self.stock_known = {index: cards.order(card) for index, card in view.stock_known}
        self.stock_size = view.stock_size
        self.hidden_slots = [index for index in range(view.stock_size) if index not in self.stock_known]
        self.pool = [cards.order(card) for card in view.unseen]
        bounds = _bounds(view)
        # The most constrained first, so they find a card that fits.
        self.constraints = sorted(
            ((holder, *bounds.get(holder, (0, _CUCKOO, 0, _CUCKOO))) for holder in self.hidden_holders),
            key=lambda item: item[4] - item[3],
        )

    @classmethod
    def from_view(cls, view: SeatView) -> _Deal | None:
        deal = cls(view)
        if len(deal.pool) != len(deal.hidden_holders) + len(deal.hidden_slots):
            return None
        return deal

    def sample(self, rng: random.Random) -> tuple[dict[int, int], list[int]]:
        pool = list(self.pool)
        rng.shuffle(pool)
        hands = dict(self.known)
        for holder, low, high, likely_low, likely_high in self.constraints:
            if rng.random() >= STRONG_DOUBT:
                low, high = likely_low, likely_high
            pick = 0
            for at, card in enumerate(pool):
                if low <= card <= high:
                    pick = at
                    break
            hands[holder] = pool.pop(pick)
        stock = [0] * self.stock_size
        for index, card in self.stock_known.items():
            stock[index] = card
        for index in self.hidden_slots:
            stock[index] = pool.pop()
        return hands, stock

    def play_out(self, hands: dict[int, int], stock: list[int], swap_first: bool, rng: random.Random) -> float:
        """Lives the viewer loses in the rest of the deal, its first move given, the
        others playing as ``normal`` does on their own card."""
        order = self.order
        deal = _Playout(self, hands, stock)
        at = order.index(self.me)
        actor = self.me
        choice = swap_first
        nxt: int | None
        while True:
            nxt = deal.ask(actor, at) if choice else at + 1
            if nxt is None:
                break
            while nxt < len(order) and order[nxt] not in deal.alive:
                nxt += 1
            if nxt >= len(order) or len(deal.alive) < 2:
                break
            at, actor = nxt, order[nxt]
            choice = _normal_would_swap(hands[actor], actor == self.dealer)
            if _FOOL < hands[actor] < _LOWEST_MATADOR and rng.random() < STRONG_DOUBT:
                choice = not choice
        lost, others = deal.lost, deal.others
        if len(deal.alive) >= 2:
            for holder in _losers([holder for holder in order if holder in deal.alive], hands):
                if holder == self.me:
                    lost += 1
                else:
                    others += 1
        return lost - STRONG_SPITE * others / max(len(order) - 1, 1)


class _Playout:
    """One imagined rest of a deal being played: the cards where they are now, the swaps
    a Cat would undo, the lives, who is still in, and the lives lost so far."""

    def __init__(self, deal: _Deal, hands: dict[int, int], stock: list[int]) -> None:
        self.deal = deal
        self.hands, self.stock = hands, stock
        self.swaps = list(deal.swaps)
        self.lives = dict(deal.lives)
        self.alive = set(deal.order)
        self.drawn = deal.drawn
        #: Lives lost by the viewer, and by the others.
        self.lost = self.others = 0

    def ask(self, actor: int, at: int) -> int | None:
        """One ask; the index in the order of the next to act, or None: the deal ends."""
        order, hands, stock = self.deal.order, self.hands, self.stock
        if actor != self.deal.dealer:
            for later in range(at + 1, len(order)):
                holder = order[later]
                if holder not in self.alive:
                    continue
                card = hands[holder]
                if card in (_HOUSE, _HORSE):
                    continue
                if card == _CUCKOO:
                    return None
                if card in (_CAT, _DRAGOON):
                    self._refused(actor, card)
                    return later + 1
                hands[actor], hands[holder] = card, hands[actor]
                self.swaps.append(("seat", actor, holder))
                return at + 1
        while True:
            index = len(stock) - 1 - self.drawn
            if index < 0:
                return at + 1
            card = stock[index]
            if card in (_HOUSE, _HORSE):
                self.drawn += 1
                continue
            if card == _CUCKOO:
                return None
            if card in (_CAT, _DRAGOON):
                self._refused(actor, card)
                return None
            hands[actor], stock[index] = card, hands[actor]
            self.drawn += 1
            self.swaps.append(("stock", actor, index))
            return at + 1

    def _refused(self, asker: int, card: int) -> None:
        self.lives[asker] -= 1
        if asker == self.deal.me:
            self.lost += 1
        else:
            self.others += 1
        if self.lives[asker] <= 0:
            self.alive.discard(asker)
        if card == _CAT:
            hands, stock = self.hands, self.stock
            for how, first, second in reversed(self.swaps):
                if how == "seat":
                    hands[first], hands[second] = hands[second], hands[first]
                else:
                    hands[first], stock[second] = stock[second], hands[first]
            self.swaps.clear()


def _losers(contestants: list[int], hands: dict[int, int]) -> set[int]:
    fools = [holder for holder in contestants if hands[holder] == _FOOL]
    if len(fools) >= 2:
        return set(fools)
    others = [holder for holder in contestants if hands[holder] != _FOOL]
    lowest = min(hands[holder] for holder in others)
    return set(fools) | {holder for holder in others if hands[holder] == lowest}


def _bounds(view: SeatView) -> dict[int, tuple[int, int, int, int]]:
    """What each holder's card may be now: ``(low, high)`` for certain, from what the view
    shows (dealt Fools are shown; a card taken by an accepted swap or from the stock is
    no matador), then ``(low, high)`` again as far as the others played ``normal``: one
    who kept holds a card above its line, one who was asked holds the asker's card, at
    most the line."""
    anything = (0, _CUCKOO, 0, _CUCKOO)
    bounds: dict[int, tuple[int, int, int, int]] = {}
    for entry in view.history:
        kind = entry["kind"]
        if kind == "deal":
            bounds = {}
            for holder in entry["order"]:
                low = 0 if holder in entry["fools"] else 1
                bounds[holder] = (low, _CUCKOO, low, _CUCKOO)
        elif kind == "keep" and entry["player"] != view.viewer:
            holder = entry["player"]
            low, high, likely_low, likely_high = bounds.get(holder, anything)
            line = NORMAL_DEALER_LINE if holder == view.dealer else NORMAL_LINE
            bounds[holder] = (low, high, max(likely_low, line + 1), likely_high)
        elif kind == "swap":
            asker, target = entry["asker"], entry["target"]
            given, taken = bounds.get(asker, anything), bounds.get(target, anything)
            bounds[target] = (given[0], given[1], given[2], min(given[3], NORMAL_LINE))
            top = _LOWEST_MATADOR - 1
            bounds[asker] = (taken[0], min(taken[1], top), taken[2], min(taken[3], top))
        elif kind == "stock" and not entry.get("empty"):
            bounds[entry["asker"]] = (0, _LOWEST_MATADOR - 1, 0, _LOWEST_MATADOR - 1)
        elif kind == "undo":
            for how, first, second in entry["swaps"]:
                if how == "seat":
                    bounds[first], bounds[second] = bounds.get(second, anything), bounds.get(first, anything)
                else:
                    bounds[first] = anything
    fitted = {}
    for holder, (low, high, likely_low, likely_high) in bounds.items():
        if low > high:
            low, high = 0, _CUCKOO
        if not low <= likely_low <= likely_high <= high:
            likely_low, likely_high = low, high
        fitted[holder] = (low, high, likely_low, likely_high)
    return fitted
