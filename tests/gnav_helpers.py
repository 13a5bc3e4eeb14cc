"""Helpers for the Gnav tests: tables of people seated in order, and a deal stacked
through deltas (the same way the rules change a table), so a scenario starts from the
cards it names."""

from __future__ import annotations

import random
from collections import Counter

from games.gnav import cards
from games.gnav.rules import GnavTable
from games.gnav.state import hand_pairs

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def seated(players: int = 4, lives: int = 3, seed: int = 1) -> GnavTable:
    """A waiting table with people 1..``players`` seated in that order, 1 the host."""
    table = GnavTable(rng=random.Random(seed))
    for account_id in range(1, players + 1):
        table.sit(account_id, NAMES[account_id - 1])
    table.set(1, "lives", lives)
    table.take_changes()
    return table


def stack(table: GnavTable, dealer: int, hands: dict[int, str], stock_top: tuple[str, ...] = ()) -> None:
    """Make the current deal one dealt by ``dealer`` with ``hands`` (its participants,
    in seating order from the dealer's left), the stock's top cards ``stock_top`` (the
    first drawn first) and the rest of the deck under them; first to act: the dealer's
    left."""
    state = table.state
    everyone = [seat.account_id for seat in state.seats]
    at = everyone.index(dealer)
    order = [holder for holder in everyone[at + 1 :] + everyone[: at + 1] if holder in hands]
    rest = Counter(cards.DECK)
    rest.subtract([*hands.values(), *stock_top])
    assert min(rest.values()) >= 0, "more than two of a card"
    stock = sorted(rest.elements(), key=cards.order) + list(reversed(stock_top))
    fools = [holder for holder in order if hands[holder] == cards.FOOL]
    deal_entry = {
        "kind": "deal",
        "actor": dealer,
        "deal": state.deal,
        "dealer": dealer,
        "order": order,
        "fools": fools,
        "resting": [],
        "turn": order[0],
        "private": [[holder, {"card": hands[holder]}] for holder in order],
    }
    for delta in (
        ["set", "dealer", dealer],
        ["set", "order", order],
        ["hands", hand_pairs({holder: hands[holder] for holder in order})],
        ["set", "stock", stock],
        ["set", "drawn", 0],
        ["set", "swaps", []],
        ["set", "revealed", [[holder, cards.FOOL, "deal"] for holder in fools]],
        ["set", "history", [deal_entry]],
        ["set", "turn", order[0]],
    ):
        state.apply(delta)


def started(players: int = 4, lives: int = 3, seed: int = 1) -> GnavTable:
    table = seated(players, lives, seed)
    table.start(1)
    table.take_changes()
    return table


def kinds(table: GnavTable) -> list[str]:
    """The kinds of the events since the last call (and forget them)."""
    return [event.kind for event in table.take_changes().events]
