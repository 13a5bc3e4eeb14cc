"""Dvorak as a game kind: what the room engine needs to make, store, check and show its
tables (see :class:`games.base.GameKind`).

Dvorak keeps tables of its own (cards, proposals, votes, card versions: see
``persistence``); the room's snapshot holds the rest: the turn, how the last game ended,
the next card and proposal numbers, the deck's version and what each CCG deck was built
against, the face-down cards, the draw pile as each player last looked through it, when
each pending vote was opened, and the settings the room was opened with.
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

    def new_state(self) -> TableState:
        """An empty table with the settings event logs start from (those of rooms made
        before new rooms were opened with halt on and a vote time)."""
        return TableState(settings=table_settings.log_start())

    def new_room_state(self) -> TableState:
        """An empty table with the settings of a new room, which notes those that differ
        from the log's start as what the room was opened with."""
        settings = table_settings.defaults()
        start = table_settings.log_start()
        opened_with = {name: value for name, value in settings.items() if start.get(name) != value}
        return TableState(settings=settings, opened_with=opened_with)

    def replay_start(self, stored: TableState) -> TableState:
        return TableState(
            settings={**table_settings.log_start(), **stored.opened_with}, opened_with=dict(stored.opened_with)
        )

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
            "vote_opened": [[proposal, when] for proposal, when in state.vote_opened.items()],
            "opened_with": dict(state.opened_with),
            "left_game": list(state.left_game),
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
            # Snapshots made before each of these was kept lack it.
            deck_version=snapshot.get("deck_version", 0),
            built_against={player: version for player, version in snapshot.get("built_against", [])},
            face_down={number: label for number, label in snapshot.get("face_down", [])},
            seen={int(account): list(pile) for account, pile in snapshot.get("seen", {}).items()},
            vote_opened={int(proposal): when for proposal, when in snapshot.get("vote_opened", [])},
            opened_with=dict(snapshot.get("opened_with", {})),
            left_game=[int(account) for account in snapshot.get("left_game", [])],
        )

    def problems(self, state: TableState) -> list[str]:
        return table_problems(Table(state).state)

    def differences(self, replayed: TableState, stored: TableState) -> list[str]:
        return differences(replayed, Table(stored).state)

    def event_for(self, state: TableState, event: Event, viewer: int) -> dict[str, Any]:
        return event_for(event, viewer)


KIND = DvorakKind()
