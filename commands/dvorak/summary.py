"""What a Dvorak table shows everyone: one summary that both ``look`` (text, in
:mod:`commands.dvorak.render`) and the ``Dvorak.Table`` GMCP package (in
:mod:`commands.dvorak.gmcp`) are drawn from. Only face-up facts: hand sizes, never hands.

The summaries are made afresh after every move for a room's GMCP viewers, and read only:
plain (not frozen) dataclasses with slots, whose ``__init__`` costs half a frozen one's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.dvorak.core import own_piles
from games.dvorak.rules import Table
from games.dvorak.state import DISCARD, DRAW, NO_OWNER, PLAYING, RULES, Card, Turn
from server.rooms import GameRoom


@dataclass(slots=True)
class PileSummary:
    """A draw pile and its discard pile: how many cards, and the discard pile's top."""

    draw: int
    discard: int
    discard_top: Card | None


@dataclass(slots=True)
class SeatSummary:
    """A seat as everyone sees it."""

    account_id: int
    name: str
    #: How many cards they hold.
    cards: int
    team: str
    out: bool
    away: bool
    #: Whether it is their turn.
    current: bool
    #: Their face-up cards in play.
    in_play: tuple[Card, ...]
    #: The labels of their cards in play face down (``FD1``).
    face_down: tuple[str, ...] = ()
    #: In a CCG room between games: how many cards their built deck has.
    deck: int | None = None


@dataclass(slots=True)
class TableSummary:
    """A Dvorak table as everyone sees it."""

    room: str
    phase: str
    host: str | None
    #: The turn, when a game is being played with turns on (None otherwise).
    turn: Turn | None
    turn_player: str
    seats: tuple[SeatSummary, ...]
    multideck: bool
    #: The piles by owner: the shared ones under NO_OWNER, and in a multi-deck game each
    #: player's own (the shared draw pile then only while it holds cards to deal).
    piles: dict[int, PileSummary]
    rules: tuple[Card, ...]
    watching: tuple[str, ...]
    settings: dict[str, Any]
    #: How the last game ended ("" if none has).
    result: str
    #: A CCG room's card set: its version and how many cards it has (None: no CCG game).
    card_set: tuple[int, int] | None = None


def summarise(room: GameRoom, table: Table, away: set[int], watching: list[str]) -> TableSummary:
    """The table of ``room`` as everyone sees it; ``away``: the seated players who are not
    here, ``watching``: the spectators' names."""
    state = table.state
    multideck = own_piles(state.settings)
    playing = state.phase == PLAYING
    ccg = table.ccg

    def pile(owner: int) -> PileSummary:
        discard = state.pile(DISCARD, owner)
        return PileSummary(len(state.pile(DRAW, owner)), len(discard), state.cards[discard[-1]] if discard else None)

    if multideck:
        piles = {seat.account_id: pile(seat.account_id) for seat in state.seats}
        if state.pile(DRAW):
            piles[NO_OWNER] = pile(NO_OWNER)
    else:
        piles = {NO_OWNER: pile(NO_OWNER)}
    return TableSummary(
        room=room.name,
        phase=state.phase,
        host=table.name_of(state.host) if state.host else None,
        turn=state.turn if playing and state.settings["turns"] else None,
        turn_player=table.name_of(state.turn.player),
        seats=tuple(
            SeatSummary(
                seat.account_id,
                seat.name,
                len(table.hand(seat.account_id)),
                seat.team,
                seat.out,
                seat.account_id in away,
                playing and seat.account_id == state.turn.player,
                tuple(
                    state.cards[number] for number in table.in_play(seat.account_id) if number not in state.face_down
                ),
                tuple(state.face_down[n] for n in table.in_play(seat.account_id) if n in state.face_down),
                len(table.built(seat.account_id)) if ccg and not playing else None,
            )
            for seat in state.seats
        ),
        multideck=multideck,
        piles=piles,
        rules=tuple(state.cards[number] for number in state.pile(RULES)),
        watching=tuple(watching),
        settings=dict(state.settings),
        result=state.result,
        card_set=(state.deck_version, len(table.set_cards())) if ccg else None,
    )
