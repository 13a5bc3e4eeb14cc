"""Dvorak as a game kind: what the room engine needs to make, store, check and show its
tables (see :class:`games.base.GameKind`).

Dvorak keeps tables of its own (cards, proposals, votes, card versions: see
``persistence``); the room's snapshot holds the rest: the turn, how the last game ended,
the next card and proposal numbers, and the draw pile as each player last looked through
it.
"""

from __future__ import annotations

from typing import Any

from games.base import Event, GameKind
from games.dvorak import settings as table_settings
from games.dvorak.invariants import differences, table_problems
from games.dvorak.rules import Table
from games.dvorak.state import Seat, TableState, Turn
from games.dvorak.visibility import event_for


class DvorakKind(GameKind):
    name = "dvorak"
    title = "Dvorak: the card game whose cards are written by its players."
    own_tables = True

    def default_settings(self) -> dict[str, Any]:
        return table_settings.defaults()

    def new_state(self) -> TableState:
        return TableState(settings=self.default_settings())

    def table(self, state: TableState, **options: Any) -> Table:
        return Table(state, card_limit=options.get("card_limit"))

    def snapshot(self, state: TableState) -> dict[str, Any]:
        return {
            "turn": dict(vars(state.turn)),
            "result": state.result,
            "next_number": state.next_number,
            "next_proposal": state.next_proposal,
            "deck_version": state.deck_version,
            "built_against": [[player, version] for player, version in state.built_against.items()],
            "face_down": [[number, label] for number, label in sorted(state.face_down.items())],
            "seen": {str(account): pile for account, pile in state.seen.items()},
        }

    def restore(
        self, phase: str, host: int, settings: dict[str, Any], seats: list[dict[str, Any]], snapshot: dict[str, Any]
    ) -> TableState:
        return TableState(
            phase=phase,
            host=host,
            seats=[Seat(s["account_id"], s["name"], s["team"], s["out"], s["absent"]) for s in seats],
            settings=dict(settings),
            turn=Turn(**snapshot["turn"]),
            result=snapshot["result"],
            next_number=snapshot["next_number"],
            next_proposal=snapshot["next_proposal"],
            # Rooms stored before card sets and deck versions have neither.
            deck_version=snapshot.get("deck_version", 0),
            built_against={player: version for player, version in snapshot.get("built_against", [])},
            face_down={number: label for number, label in snapshot.get("face_down", [])},
            seen={int(account): list(pile) for account, pile in snapshot.get("seen", {}).items()},
        )

    def problems(self, state: TableState) -> list[str]:
        return table_problems(Table(state).state)

    def differences(self, replayed: TableState, stored: TableState) -> list[str]:
        return differences(replayed, Table(stored).state)

    def event_for(self, state: TableState, event: Event, viewer: int) -> dict[str, Any]:
        return event_for(event, viewer)


KIND = DvorakKind()
