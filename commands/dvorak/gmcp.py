"""Dvorak's GMCP packages: its table, your hand and the votes, as structured data (the
docs/players.md shows their JSON).

- ``Dvorak.Table``: the table: phase, host, whose turn, seats with hand sizes, what is
  in play, the piles, the special rules, the settings.
- ``Dvorak.Hand``: your own hand, card by card (nobody else's, ever: see
  :mod:`games.dvorak.visibility`).
- ``Dvorak.Votes``: what is waiting for a vote and who voted how.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from commands.dvorak.summary import PileSummary, summarise
from commands.games import send_packages
from commands.tables import game_table
from games.dvorak.deckformat import colour_code
from games.dvorak.rules import Table
from games.dvorak.state import APPROVE, NO_OWNER, REJECT, Card
from games.dvorak.visibility import card_visible
from i18n import LANGUAGE, shown
from server.hub import OnlinePlayer
from server.rooms import GameRoom

#: The packages, with what they hold outside a Dvorak room.
EMPTY_VIEWS: dict[str, Any] = {"Dvorak.Table": {}, "Dvorak.Hand": {"cards": []}, "Dvorak.Votes": {"pending": []}}


def card_json(card: Card, with_text: bool = True) -> dict[str, Any]:
    data: dict[str, Any] = {"number": card.number, "name": card.name, "type": card.kind_label}
    if with_text:
        data["text"] = card.text
    if card.colour and colour_code(card.colour):
        data["colour"] = card.colour
    return data


def table_json(room: GameRoom, table: Table) -> dict[str, Any]:
    """``Dvorak.Table``: the table as everyone sees it (the summary ``look`` draws too)."""
    summary = summarise(room, table, room.away(), room.spectators())

    def pile_json(pile: PileSummary) -> dict[str, Any]:
        top = pile.discard_top
        return {
            "draw": pile.draw,
            "discard": pile.discard,
            "discard_top": card_json(top, with_text=False) if top is not None else None,
        }

    turn = summary.turn
    return {
        "room": summary.room,
        "phase": summary.phase,
        "host": summary.host,
        "turn": (
            {
                "player": summary.turn_player,
                "number": turn.number,
                "drawn": turn.drawn,
                "things": turn.things,
                "actions": turn.actions,
                "discarded": turn.discarded,
            }
            if turn is not None
            else None
        ),
        "seats": [
            {
                "name": seat.name,
                "cards": seat.cards,
                "team": seat.team or None,
                "out": seat.out,
                "away": seat.away,
                "current": seat.current,
                "in_play": [{**card_json(card, with_text=False), "on": card.attached_to} for card in seat.in_play],
                "face_down": list(seat.face_down),
                "deck": seat.deck,
            }
            for seat in summary.seats
        ],
        "piles": (
            {seat.name: pile_json(summary.piles[seat.account_id]) for seat in summary.seats}
            if summary.multideck
            else pile_json(summary.piles[NO_OWNER])
        ),
        "rules": [card_json(card) for card in summary.rules],
        "watching": list(summary.watching),
        "settings": summary.settings,
        # How the last game ended, in the reader's language (views are made per viewer's language).
        "result": shown(summary.result) or None,
        "card_set": (
            {"version": summary.card_set[0], "cards": summary.card_set[1]} if summary.card_set is not None else None
        ),
    }


def votes_json(table: Table) -> dict[str, Any]:
    state = table.state
    voters = table.voters()
    pending: list[dict[str, Any]] = []
    shown: set[int] = set()
    for proposal in state.proposals.values():
        if proposal.id in shown:
            continue
        group = state.bundle_of(proposal)
        shown.update(p.id for p in group)
        votes = group[0].votes
        pending.append(
            {
                "cards": [{"kind": p.kind, **card_json(state.cards[p.subject])} for p in group],
                "proposer": group[0].proposer_name,
                "approve": [table.name_of(a) for a in voters if votes.get(a) == APPROVE],
                "reject": [table.name_of(a) for a in voters if votes.get(a) == REJECT],
                "waiting": [table.name_of(a) for a in voters if a not in votes],
            }
        )
    return {"policy": table.policy(), "pending": pending}


def hand_json(table: Table, account_id: int) -> dict[str, Any]:
    shown = [n for n in table.hand(account_id) if card_visible(table.state, n, account_id)]
    face_down = [
        {"label": label, **card_json(table.state.cards[n])}
        for n, label in table.state.face_down.items()
        if table.state.cards[n].owner == account_id
    ]
    return {"cards": [card_json(table.state.cards[n]) for n in shown], "face_down": face_down}


def send_table(room: GameRoom, players: list[OnlinePlayer] | None) -> None:
    """The table, each viewer's own hand, and the votes, to everyone in the room who
    asked for GMCP (or just to ``players``)."""
    dvorak = game_table(Table, room.table)
    # The table and the votes are the same for everyone who reads the same language: made
    # once for each language (the last game's result is in the reader's).
    shared = cache(lambda code: (table_json(room, dvorak), votes_json(dvorak)))

    def packages(viewer: int) -> dict[str, Any]:
        table, votes = shared(LANGUAGE.get())
        return {"Dvorak.Table": table, "Dvorak.Hand": hand_json(dvorak, viewer), "Dvorak.Votes": votes}

    send_packages(room, players, packages)
