"""Ys as a game kind a room can hold: new tables, their stored form, their invariants,
and what each viewer may see (the visibility policy in ``visibility``).

Stored form: the room's row keeps phase, host and settings, the seat rows keep each
seat's ``account_id, name, team, out, absent, bot``; everything else is the snapshot.
"""

from __future__ import annotations

from collections import Counter

from games.base import NOBODY, PLAYING
from games.toolkit import SnapshotKind
from games.ys import bots as computer_players
from games.ys import tables as t
from games.ys import visibility as who_sees_what
from games.ys.rules import YsTable
from games.ys.state import YsState
from i18n import N_

STAGES = ("bid", "order", "place", "resolve", "favour")


class YsKind(SnapshotKind):
    name = "ys"
    title = N_("Ys: hidden brokers bid for gems in a city and its market; prices rise and fall; computer players.")
    table_class = YsTable
    visibility = who_sees_what
    bots = computer_players

    def problems(self, state: YsState) -> list[str]:
        found = self.seating_problems(state)
        if state.phase == PLAYING:
            found.extend(_game_problems(state, [seat.account_id for seat in state.seats]))
        elif state.stage or state.awaiting or state.tasks:
            found.append("a round's business outside a game")
        return found


def _game_problems(state: YsState, ids: list[int]) -> list[str]:
    found: list[str] = []
    expected = [*ids, t.NEUTRAL] if len(ids) == 2 else ids
    if [h["id"] for h in state.players] != expected:
        found.append(f"the players {[h['id'] for h in state.players]} are not the seats {ids}")
        return found
    if sorted(state.order) != sorted(ids):
        found.append(f"the order {state.order} is not the players'")
    if not 1 <= state.round <= t.ROUNDS:
        found.append(f"round {state.round}")
    if state.stage not in STAGES:
        found.append(f"unknown stage {state.stage!r}")
    if state.step < 1:
        found.append("a game whose step never moved")
    base = t.brokers_for(len(ids))
    for holdings in state.players:
        pid = holdings["id"]
        placed = [e["value"] for e in state.placed if e["player"] == pid]
        have = Counter([*holdings["screen"], *holdings["front"], *placed, *holdings["favour"]])
        if pid == t.NEUTRAL:
            # A set for each player to place; one shared set in games begun before that.
            sets = len(ids) if have.total() > len(t.NEUTRAL_BROKERS) else 1
            should = Counter(t.NEUTRAL_BROKERS * sets)
        else:
            should = Counter([*base, *[t.FAVOUR_BROKER] * len(holdings["favour"])])
        if have != should:
            found.append(f"player {pid}'s brokers are {sorted(have.elements())}, not {sorted(should.elements())}")
        if any(count < 0 for count in holdings["gems"].values()) or holdings["points"] < 0:
            found.append(f"player {pid} holds {holdings['gems']} and {holdings['points']} points")
        if not 0 <= holdings["played"] <= t.PLAYS_PER_ROUND:
            found.append(f"player {pid} played {holdings['played']} cards this round")
        if len(holdings["favour"]) > state.round:
            found.append(f"player {pid} gave the King {len(holdings['favour'])} brokers in {state.round} rounds")
    for colour in t.COLOURS:
        if not t.PRICE_LOW <= state.prices.get(colour, -1) <= t.PRICE_HIGH:
            found.append(f"the price of {colour} is {state.prices.get(colour)}")
    market_spaces = [str(e["space"]) for e in state.placed if e["space"][0] == "market"]
    if len(set(market_spaces)) != len(market_spaces):
        found.append("a market space holds two brokers")
    every_card = Counter(
        [
            *state.discard,
            *(c["up"] for c in state.corners if c["up"] is not None),
            *(card for c in state.corners for card in c["stack"]),
            *(entry[0] for h in state.players for entry in h["cards"]),
        ]
    )
    if every_card != Counter([*t.yellow_deck(), *[t.BLUE_CARD] * t.QUADRANTS]):
        found.append(f"the action cards are not the 24: {sorted(every_card.elements())}")
    used = [*state.gem_deck, *(card for card in state.laid if card >= 0), state.market_card]
    if len(set(used)) != len(used) or not all(0 <= card < len(t.GEM_CARDS) for card in used):
        found.append("a gem card is in two places")
    for prompt in state.awaiting:
        if state.player(prompt.get("player", NOBODY)) is None:
            found.append(f"a choice asked of {prompt.get('player')}, who is not playing")
    chosen = [card for _, card in state.order_cards]
    if len(set(chosen)) != len(chosen) or not all(1 <= card <= len(ids) for card in chosen):
        found.append(f"the order cards chosen, {state.order_cards}, are not each one card of 1 to {len(ids)}")
    if state.stage == "place" and state.turn not in ids:
        found.append(f"the turn is with {state.turn}, not a player")
    return found


KIND = YsKind()
