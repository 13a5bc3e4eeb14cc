"""Gnav as a game kind a room can hold: new tables, their stored form, their invariants,
and what each viewer may see (the visibility policy in ``visibility``).

Stored form: the room's row keeps phase, host and settings, the seat rows keep each
seat's ``account_id, name, team, out, absent, bot``; everything else (lives, resting and
left of each seat included, as ``seat_state``) is the snapshot.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.base import NOBODY, PLAYING
from games.gnav import bots as computer_players
from games.gnav import cards, settings
from games.gnav import visibility as who_sees_what
from games.gnav.rules import MIN_PLAYERS, GnavTable
from games.gnav.state import GnavState, hand_pairs
from games.toolkit import SnapshotKind
from i18n import N_


class GnavKind(SnapshotKind):
    name = "gnav"
    title = N_("Gnav: one hidden card each, keep it or swap it; avoid the lowest. With computer players.")
    table_class = GnavTable
    visibility = who_sees_what
    bots = computer_players

    def snapshot(self, state: GnavState) -> dict[str, Any]:
        data = super().snapshot(state)
        data["hands"] = hand_pairs(state.hands)
        data["seat_state"] = [[s.account_id, s.lives, s.resting, s.left] for s in state.seats]
        return data

    def restore(
        self, phase: str, host: int, settings: dict[str, Any], seats: list[dict[str, Any]], snapshot: dict[str, Any]
    ) -> GnavState:
        state: GnavState = super().restore(phase, host, settings, seats, snapshot)
        extras = {row[0]: tuple(row[1:]) for row in snapshot.get("seat_state", [])}
        for seat in state.seats:
            seat.lives, seat.resting, seat.left = extras.get(seat.account_id, (0, False, False))
        state.hands = {int(holder): card for holder, card in snapshot.get("hands", [])}
        return state

    def problems(self, state: GnavState) -> list[str]:
        return [*self.seating_problems(state), *_problems(state)]


def _problems(state: GnavState) -> list[str]:
    """What is wrong with the seats' lives and the match, by Gnav's invariants."""
    found: list[str] = []
    for seat in state.seats:
        if not 0 <= seat.lives <= settings.SETTINGS["lives"].high:
            found.append(f"{seat.name} has {seat.lives} lives")
        if state.phase == PLAYING and not seat.out and seat.lives < 1:
            found.append(f"{seat.name} is in the match with no lives")
        if state.phase == PLAYING and seat.out and seat.lives > 0 and not seat.left:
            found.append(f"{seat.name} is out with lives left")
        if seat.resting and (seat.out or state.phase != PLAYING):
            found.append(f"{seat.name} rests but is not in a match")
        if seat.left and state.phase != PLAYING:
            found.append(f"{seat.name} left a match that is over")
    if state.phase == PLAYING:
        found.extend(_deal_problems(state))
    elif state.turn != NOBODY:
        found.append("a turn outside a match")
    return found


def _deal_problems(state: GnavState) -> list[str]:
    found: list[str] = []
    if len(state.alive()) < MIN_PLAYERS:
        found.append("a match with fewer than two players in it")
    if state.deal < 1:
        return [*found, "a match without a deal"]
    every_card = Counter([*state.hands.values(), *state.stock])
    if every_card != Counter(cards.DECK):
        found.append(f"the cards in hands and stock are not the 42-card deck: {sorted(every_card.items())}")
    if set(state.hands) != set(state.order):
        found.append("the hands are not the deal's participants'")
    if len(set(state.order)) != len(state.order) or not state.order:
        found.append(f"the order of play {state.order} is not a list of participants")
    elif state.order[-1] != state.dealer:
        found.append("the dealer does not act last")
    for holder in state.order:
        seat = state.seat(holder)
        if seat is None:
            found.append(f"participant {holder} has no seat")
        elif seat.resting and state.turn != NOBODY:
            found.append(f"{seat.name} rests but was dealt a card")
    if not 0 <= state.drawn <= len(state.stock):
        found.append(f"{state.drawn} cards drawn from a stock of {len(state.stock)}")
    if state.turn != NOBODY and not state.in_deal(state.turn):
        found.append(f"the turn is with {state.turn}, who is not a participant still in the match")
    for how, first, second in state.swaps:
        if first not in state.order or (how == "seat" and second not in state.order):
            found.append(f"a swap between non-participants: {[how, first, second]}")
        if how == "stock" and not 0 <= second < len(state.stock):
            found.append(f"a swap with stock card {second}, outside the stock")
    if state.step < 1:
        found.append("a match whose step never moved")
    return found


KIND = GnavKind()
