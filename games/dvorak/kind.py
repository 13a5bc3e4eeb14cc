"""Dvorak as a game kind: what the room engine needs to make, store, check and show its
tables (see :class:`games.base.GameKind`).

Dvorak keeps tables of its own (cards, proposals, votes, card versions: see
``persistence``); the room's snapshot holds the rest: the turn, how the last game ended,
the next card and proposal numbers, the deck's version and what each CCG deck was built
against, the face-down cards, the draw pile as each player last looked through it, when
each pending vote was opened, and the settings the room was opened with.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping
from typing import Any

from games.base import PLAYING, SAMPLE_PEOPLE, Event, GameKind, GameTable
from games.dvorak import settings as table_settings
from games.dvorak.invariants import differences, table_problems
from games.dvorak.rules import Table
from games.dvorak.state import Seat, TableState, Turn
from games.dvorak.visibility import card_visible, event_for
from games.toolkit import Setting
from i18n import N_

#: The cards of the sample game's deck.
SAMPLE_DECK = 12


def game_table(table: GameTable) -> Table:
    """``table`` as a Dvorak table."""
    assert isinstance(table, Table), f"a {type(table).__name__} is no Dvorak table"
    return table


class DvorakKind(GameKind):
    name = "dvorak"
    title = N_("Dvorak: the card game whose cards are written by its players.")
    # Its cards, proposals, votes and card versions are rows of their own.
    projection = "commands.dvorak.storage.tables"

    def settings(self) -> Mapping[str, Setting]:
        return table_settings.SETTINGS

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
        """A table around ``state``: ``card_limit``, the cards and rules it may hold;
        ``rng`` (a ``random.Random``) may be given, else the system's random source is
        used."""
        rng = options.get("rng")
        return Table(state, rng if isinstance(rng, random.Random) else None, card_limit=options.get("card_limit"))

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

    def set_up_sample(self, table: GameTable) -> None:
        """The sample's people seated, a deck of Things and Actions loaded by the host,
        and a game begun."""
        dvorak = game_table(table)
        for account_id, name in SAMPLE_PEOPLE.items():
            dvorak.sit(account_id, name)
        host = dvorak.state.host
        for number in range(SAMPLE_DECK):
            kind = "T" if number % 2 else "A"
            dvorak.load_card(host, SAMPLE_PEOPLE[host], f"Sample {number}", kind, f"What sample card {number} says.")
        dvorak.start(host)

    def random_move(self, table: GameTable, rng: random.Random) -> Callable[[GameTable], Any] | None:
        """The player whose turn it is draws, plays or discards a card of their hand, or
        ends their turn."""
        state = game_table(table).state
        if state.phase != PLAYING:
            return None
        actor = state.turn.player
        hand = game_table(table).hand(actor)
        choices: list[tuple[str, int]] = [("draw", 0), ("endturn", 0)]
        choices += [(verb, number) for number in hand for verb in ("play", "discard")]
        verb, number = rng.choice(choices)

        def move(table: GameTable) -> Any:
            dvorak = game_table(table)
            if verb == "draw":
                return dvorak.draw(actor)
            if verb == "endturn":
                return dvorak.end_turn(actor)
            return dvorak.play(actor, number) if verb == "play" else dvorak.discard(actor, number)

        return move

    def seat_view(self, state: TableState, viewer: int) -> dict[str, Any]:
        """The seats, the turn and the settings; each card ``viewer`` may see, where it
        is; of the others, how many are in each pile (a hand, the draw pile)."""
        return {
            "phase": state.phase,
            "seats": [dict(vars(seat)) for seat in state.seats],
            "turn": dict(vars(state.turn)),
            "settings": dict(state.settings),
            "cards": {
                number: (card.zone, card.owner, card.name, card.kind, card.text, card.attached_to)
                for number, card in state.cards.items()
                if card_visible(state, number, viewer)
            },
            "piles": {
                key: [number if card_visible(state, number, viewer) else None for number in pile]
                for key, pile in state.piles.items()
            },
        }

    def scrambled(self, state: TableState, viewer: int, rng: random.Random) -> TableState:
        """Every card ``viewer`` may not see given another name, kind and text, and the
        hidden cards of each pile put in another order."""
        state = copy.deepcopy(state)
        hidden = {number for number in state.cards if not card_visible(state, number, viewer)}
        for number in hidden:
            card = state.cards[number]
            card.name, card.text = f"Secret {rng.randrange(10**6)}", f"Secret words {rng.randrange(10**6)}."
            card.kind = rng.choice(("T", "A"))
        for pile in state.piles.values():
            places = [index for index, number in enumerate(pile) if number in hidden]
            moved = [pile[index] for index in places]
            rng.shuffle(moved)
            for index, number in zip(places, moved, strict=True):
                pile[index] = number
        return state


KIND = DvorakKind()
