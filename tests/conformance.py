"""What every game kind must pass, whatever its rules: the checks the conformance tests
(tests/test_conformance.py) run on every registered kind, and the tutorial's test on the
game docs/adding-a-game.md builds. Each plays a game by the kind's own hooks
(:meth:`games.base.GameKind.sample_game` and ``random_move``) and checks it:

- every state reached is sound (``problems``), survives its snapshot (a game without
  tables of its own), and replaying the log from the start gives it again;
- what each seat and a spectator are shown (the table as ``look`` draws it, its GMCP
  packages, and the line of every event) is the same, byte for byte, when everything
  they may not know is scrambled (``scrambled``): nothing they are shown depends on it;
- every line a viewer reads fits in 80 columns;
- a computer player decides the same with everything it may not know scrambled.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from commands.games import game_commands, send_views
from games.base import PLAYING, Event, GameKind, GameTable, RuleViolation, json_ready
from games.toolkit import STORED_SEAT_FIELDS
from server.text import render_colours, wrap_lines

#: An account id that sits at no table: a spectator.
SPECTATOR = 999
#: The widest line a viewer may be sent.
WIDTH = 80
#: How often a refused random move is chosen again before the table is said to be stuck.
TRIES = 200


@dataclass
class Played:
    """A game played by random legal moves: the table as it ended, and every event."""

    table: GameTable
    events: list[Event] = field(default_factory=list)
    #: How many moves were made (refused ones not counted).
    moves: int = 0


def play(kind: GameKind, seed: int, most: int, each_move: Any = None) -> Played:
    """A game of ``kind`` played from its sample by random legal moves until it waits for
    nobody or ``most`` moves were made; ``each_move(played, events)`` is called after
    every move with the events it made."""
    rng = random.Random(seed)
    table = kind.sample_game(random.Random(seed))
    played = Played(table, table.take_changes().events)
    while played.moves < most:
        for _ in range(TRIES):
            move = kind.random_move(table, rng)
            if move is None:
                return played
            try:
                move(table)
            except RuleViolation:
                assert not table.has_changes, "a refused move changed the table"
                continue
            break
        else:
            raise AssertionError(f"no move {kind.name} offered in {TRIES} tries was legal")
        table.settle()
        events = table.take_changes().events
        played.events.extend(events)
        played.moves += 1
        if each_move is not None:
            each_move(played, events)
    return played


def check_state(kind: GameKind, played: Played) -> None:
    """The table is sound, survives its snapshot, and its log replays to it."""
    state = played.table.state
    assert kind.problems(state) == []
    if not kind.own_tables:
        seats = [{name: getattr(seat, name) for name in STORED_SEAT_FIELDS} for seat in state.seats]
        snapshot = json_ready(kind.snapshot(state))
        restored = kind.restore(state.phase, state.host, dict(state.settings), seats, snapshot)
        assert kind.differences(restored, state) == []
    replayed = kind.replay_start(state)
    for event in played.events:
        for delta in event.deltas:
            replayed.apply(delta)
    assert kind.differences(replayed, state) == []


class _Connection:
    """A GMCP client's connection that keeps what it is sent."""

    gmcp = True

    def __init__(self) -> None:
        self.sent: list[tuple[str, Any]] = []

    def send_gmcp(self, package: str, data: Any) -> None:
        self.sent.append((package, json_ready(data)))


@dataclass
class _Viewer:
    account_id: int
    connections: list[_Connection]
    language: str = "en"


@dataclass
class _Room:
    """What a game's renderers read of the room the table is in."""

    table: GameTable
    viewer: int
    game: str
    name: str = "Sample"
    id: int = 1
    occupants: dict[int, Any] = field(default_factory=dict)

    def present(self) -> set[int]:
        return {seat.account_id for seat in self.table.state.seats}

    def away(self) -> set[int]:
        return set()

    def turn_timer_left(self) -> float | None:
        return None

    seq = 0
    times_here = False

    def point_of(self, due: Any) -> int:
        return self.seq if due.since is None else due.since

    def spectators(self) -> list[str]:
        return ["Watcher"]


def shown_to(kind: GameKind, table: GameTable, viewer: int, events: list[Event]) -> list[str]:
    """Everything ``viewer`` is shown of ``table`` and of ``events``: the table as ``look``
    draws it, each GMCP package, and each event's line."""
    game = game_commands(kind.name)
    room = _Room(table, viewer, kind.name)
    connection = _Connection()
    room.occupants[viewer] = _Viewer(viewer, [connection])
    shown = [game.render_table(room, table, viewer, set(), ["Watcher"])]  # type: ignore[arg-type]
    send_views(room, None)  # type: ignore[arg-type]
    shown.extend(f"{package} {data!r}" for package, data in connection.sent)
    shown.extend(game.line_for(table, event, viewer) for event in events)
    return shown


def viewers(table: GameTable) -> list[int]:
    return [*(seat.account_id for seat in table.state.seats), SPECTATOR]


def check_secrecy(kind: GameKind, table: GameTable, events: list[Event], rng: random.Random) -> None:
    """Each viewer is shown the same, byte for byte, of the table and of ``events`` when
    everything they may not know is scrambled; their seat view is the same too."""
    for viewer in viewers(table):
        other = kind.table(kind.scrambled(table.state, viewer, rng))
        assert kind.seat_view(other.state, viewer) == kind.seat_view(table.state, viewer), f"viewer {viewer}"
        assert shown_to(kind, other, viewer, events) == shown_to(kind, table, viewer, events), f"viewer {viewer}"


def check_width(kind: GameKind, table: GameTable, events: list[Event]) -> None:
    """Every line of every event, and the table as ``look`` draws it, fit in
    :data:`WIDTH` columns as a client that wide is sent them, for every viewer."""
    game = game_commands(kind.name)
    for viewer in viewers(table):
        texts = [game.line_for(table, event, viewer) for event in events]
        texts.append(game.render_table(_Room(table, viewer, kind.name), table, viewer, set(), ["Watcher"]))  # type: ignore[arg-type]
        for text in texts:
            for line in render_colours("\n".join(wrap_lines(text, WIDTH)), False).split("\n"):
                assert len(line) <= WIDTH, f"{len(line)} columns: {line}"


def check_bots(kind: GameKind, table: GameTable, rng: random.Random) -> bool:
    """A computer player whose turn it is decides the same with everything it may not
    know scrambled (false: it is no computer player's turn)."""
    due = table.due()
    if due is None or due.reason != "bot":
        return False
    for _ in range(2):
        seed = rng.random()
        other = kind.scrambled(table.state, due.actor, rng)
        decided = kind.bot_decision(table.state, due.actor, random.Random(seed))
        assert kind.bot_decision(other, due.actor, random.Random(seed)) == decided
    return True


def check_kind(kind: GameKind, seed: int, most: int = 150) -> Played:
    """Every check above on a game of ``kind`` played at random from ``seed``."""
    rng = random.Random(seed)
    bot_turns = 0

    def each_move(played: Played, events: list[Event]) -> None:
        nonlocal bot_turns
        check_width(kind, played.table, events)
        if played.moves % 5 == 1 or played.table.state.phase != PLAYING:
            check_state(kind, played)
            check_secrecy(kind, played.table, events, rng)
        bot_turns += check_bots(kind, played.table, rng)

    played = play(kind, seed, most, each_move)
    check_state(kind, played)
    assert played.moves > 0
    # A game with computer players had them decide, and was checked doing so.
    assert bot_turns > 0 or not any(seat.bot for seat in played.table.state.seats)
    return played
