"""Gnav as a game kind a room can hold: new tables, their stored form, their invariants,
and what each viewer may see (the visibility policy in ``visibility``).

Stored form: the room's row keeps phase, host and settings, the seat rows keep each
seat's ``account_id, name, team, out, absent, bot``; everything else (lives, resting and
left of each seat included, as ``seat_state``) is the snapshot.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import fields
from typing import Any, ClassVar

from games.base import NOBODY, OVER, PLAYING, WAITING, Event, GameKind, json_ready
from games.gnav import cards, settings, visibility
from games.gnav.rules import LEVELS, MAX_SEATS, MIN_PLAYERS, GnavTable, new_state
from games.gnav.state import SETTABLE, GnavState, Seat, hand_pairs

#: What the seat rows hold of a seat; the rest of it is in the snapshot.
STORED_SEAT_FIELDS = ("account_id", "name", "team", "out", "absent", "bot")
#: The state's fields kept in the snapshot as they are (JSON-ready): all that a ``set``
#: delta changes but phase and host, which the room's row keeps.
SNAPSHOT_FIELDS = tuple(name for name in SETTABLE if name not in ("phase", "host"))


class GnavKind(GameKind):
    name = "gnav"
    title = "Gnav: one hidden card each, keep it or swap it; avoid the lowest. With computer players."
    own_tables: ClassVar[bool] = False

    def new_state(self) -> GnavState:
        return new_state()

    def table(self, state: GnavState, **options: Any) -> GnavTable:
        """A table around ``state``; ``rng`` (a ``random.Random``) may be given, else the
        system's random source is used."""
        rng = options.get("rng")
        return GnavTable(state, rng if isinstance(rng, random.Random) else None)

    def snapshot(self, state: GnavState) -> dict[str, Any]:
        data: dict[str, Any] = {name: getattr(state, name) for name in SNAPSHOT_FIELDS}
        data["hands"] = hand_pairs(state.hands)
        data["seat_state"] = [[s.account_id, s.lives, s.resting, s.left] for s in state.seats]
        return json_ready(data)

    def restore(
        self, phase: str, host: int, settings: dict[str, Any], seats: list[dict[str, Any]], snapshot: dict[str, Any]
    ) -> GnavState:
        extras = {row[0]: tuple(row[1:]) for row in snapshot.get("seat_state", [])}
        restored_seats = []
        for row in seats:
            seat = Seat(**{name: row[name] for name in STORED_SEAT_FIELDS if name in row})
            seat.lives, seat.resting, seat.left = extras.get(seat.account_id, (0, False, False))
            restored_seats.append(seat)
        state = GnavState(phase=phase, host=host, seats=restored_seats, settings=dict(settings))
        defaults = GnavState()
        for name in SNAPSHOT_FIELDS:
            setattr(state, name, json_ready(snapshot.get(name, getattr(defaults, name))))
        state.hands = {int(holder): card for holder, card in snapshot.get("hands", [])}
        return state

    def problems(self, state: GnavState) -> list[str]:
        return _problems(state)

    def differences(self, replayed: GnavState, stored: GnavState) -> list[str]:
        found = []
        for spec in fields(GnavState):
            if spec.name == "seats":
                continue
            mine, theirs = getattr(replayed, spec.name), getattr(stored, spec.name)
            if mine != theirs:
                found.append(f"{spec.name}: replayed {mine!r}, stored {theirs!r}")
        mine_ids = [seat.account_id for seat in replayed.seats]
        their_ids = [seat.account_id for seat in stored.seats]
        if mine_ids != their_ids:
            found.append(f"seats: replayed {mine_ids}, stored {their_ids}")
        else:
            for mine_seat, their_seat in zip(replayed.seats, stored.seats, strict=True):
                for spec in fields(Seat):
                    mine, theirs = getattr(mine_seat, spec.name), getattr(their_seat, spec.name)
                    if mine != theirs:
                        found.append(f"seat {mine_seat.account_id} {spec.name}: replayed {mine!r}, stored {theirs!r}")
        return found

    def event_for(self, state: GnavState, event: Event, viewer: int) -> dict[str, Any] | None:
        return visibility.event_for(state, event, viewer)


def _problems(state: GnavState) -> list[str]:
    found: list[str] = []
    if state.phase not in (WAITING, PLAYING, OVER):
        found.append(f"unknown phase {state.phase!r}")
    ids = [seat.account_id for seat in state.seats]
    if len(set(ids)) != len(ids):
        found.append("a seat appears twice")
    if len(ids) > MAX_SEATS:
        found.append(f"{len(ids)} seats, more than {MAX_SEATS}")
    host = state.seat(state.host)
    if state.host != NOBODY and (host is None or host.bot):
        found.append(f"the host {state.host} is not a person seated here")
    for seat in state.seats:
        if seat.bot and (seat.bot not in LEVELS or seat.account_id >= 0 or seat.account_id <= state.next_bot):
            found.append(f"computer player {seat.account_id} ({seat.bot}) is not one the table made")
        if not seat.bot and seat.account_id <= 0:
            found.append(f"person {seat.account_id} has no account id")
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
    for name, spec in settings.SETTINGS.items():
        value = state.settings.get(name)
        if value is not None and not spec.low <= value <= spec.high:
            found.append(f"setting {name} is {value!r}")
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
