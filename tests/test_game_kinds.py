"""The game-kind seam: every registered game has its commands and views, every event its
rules emit reads as a line for every viewer, and the room engine, the generic storage
and the shared commands name no game."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from commands.dispatch import in_a_room
from commands.games import GameCommands, all_game_commands, game_commands, web_panels
from games import DEFAULT_KIND, KINDS, kind_of
from games.base import NOBODY, PLAYING, GameKind, GameTable
from games.gnav.rules import GnavTable

ROOT = Path(__file__).resolve().parent.parent
#: Where no game may be named: the room engine, the storage, the migrations and the
#: shared commands (commands/*.py; each game's own are in commands/<kind>/).
GAME_AGNOSTIC = ["server/**/*.py", "persistence/**/*.py", "migrations/env.py", "commands/*.py"]


def test_every_registered_game_has_its_commands_views_and_help():
    assert DEFAULT_KIND == "dvorak" and set(KINDS) == {"dvorak", "gnav", "ys"}
    for name, kind in KINDS.items():
        assert isinstance(kind, GameKind) and kind.name == name and kind is kind_of(name)
        assert kind.title and len(kind.title) <= 100
        commands = game_commands(name)
        assert isinstance(commands, GameCommands)
        assert commands.command_sets and commands.rules_help and commands.first_steps
        assert all(package.split(".")[0].lower() == name for package in commands.empty_views)
        assert isinstance(kind.table(kind.new_state()), GameTable)
    assert set(all_game_commands()) == set(KINDS)
    with pytest.raises(KeyError):
        game_commands("chess")


def test_the_games_with_tables_of_their_own_are_those_with_a_projection():
    from persistence.rooms import projection_of

    assert {name for name, kind in KINDS.items() if kind.own_tables} == {"dvorak"}
    assert {name for name in KINDS if projection_of(name) is not None} == {"dvorak"}
    assert projection_of("chess") is None


def test_a_room_of_each_game_has_that_games_commands_and_every_rooms():
    for name in KINDS:
        names = {command.key for command_set in in_a_room(name) for command in command_set.commands}
        assert {"look", "leave", "log", "say", "rooms", "games"} <= names
    assert "keep" in {c.key for s in in_a_room("gnav") for c in s.commands}
    assert "keep" not in {c.key for s in in_a_room("dvorak") for c in s.commands}
    assert "newcard" not in {c.key for s in in_a_room("gnav") for c in s.commands}


def test_a_new_state_survives_its_snapshot_and_replays_to_itself():
    for kind in KINDS.values():
        state = kind.new_state()
        restored = kind.restore(state.phase, state.host, state.settings, [], kind.snapshot(state))
        assert kind.differences(restored, state) == []
        assert kind.problems(state) == []


def _gnav_events(matches: int, seed: int):
    """Every event of ``matches`` whole bot-played matches at tables of 2 to 6."""
    rng = random.Random(seed)
    for match in range(matches):
        table = GnavTable(rng=random.Random(seed + match))
        table.sit(1, "Ann")
        table.set(1, "lives", rng.choice([1, 2, 3]))
        for level in ["easy", "normal", "strong", "normal", "easy"][: rng.randint(1, 5)]:
            table.add_bot(1, level)
        table.sit(2, "Bo")
        table.start(1)
        yield table, table.take_changes().events
        while table.state.phase == PLAYING:
            due = table.due()
            assert due is not None
            if due.actor > 0 and due.reason == "timer":
                if rng.random() < 0.5:
                    table.keep(due.actor)
                else:
                    table.swap(due.actor)
            else:
                due.move(table)
            yield table, table.take_changes().events


def test_every_gnav_event_reads_as_a_line_for_every_viewer_and_hides_what_it_must():
    kind, render = KINDS["gnav"], game_commands("gnav").render_event
    seen_kinds: set[str] = set()
    for table, events in _gnav_events(matches=60, seed=7):
        viewers = [seat.account_id for seat in table.state.seats] + [99]
        for event in events:
            seen_kinds.add(event.kind)
            for viewer in viewers:
                line = render(table, event, viewer)
                assert line.strip(), (event.kind, viewer)
                assert "did something" not in line
                shown = kind.event_for(table.state, event, viewer)
                assert "private" not in shown
    # A whole match goes through every ordinary kind of event.
    assert {"start", "deal", "keep", "swap", "turn", "settle", "out", "addbot"} <= seen_kinds
    assert seen_kinds & {"win", "draw"}


def test_the_room_engine_the_generic_storage_and_the_shared_commands_name_no_game():
    names = "|".join(re.escape(name) for name in KINDS)
    pattern = re.compile(rf"\bgames\.({names})\b|\bcommands\.({names})\b")
    offenders = []
    for files in GAME_AGNOSTIC:
        for path in sorted(ROOT.glob(files)):
            relative = path.relative_to(ROOT).as_posix()
            for number, line in enumerate(path.read_text().splitlines(), start=1):
                if pattern.search(line):
                    offenders.append(f"{relative}:{number}: {line.strip()}")
    assert offenders == []


def test_the_web_client_names_no_game_each_games_panel_is_its_own():
    """The page's own files name no game (each game's panel is commands/<game>/panel.js,
    found by its registration), but for the product's name, Dvorak MUSH."""
    product = re.compile(r"Dvorak MUSH|dvorak-mush", re.IGNORECASE)
    names = re.compile(rf"\b({'|'.join(re.escape(name) for name in KINDS)})\b", re.IGNORECASE)
    offenders = []
    for path in sorted((ROOT / "server/webclient").glob("*.*")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if names.search(product.sub("", line)):
                offenders.append(f"{path.name}:{number}: {line.strip()}")
    assert offenders == []
    assert set(web_panels()) == set(KINDS)


def test_seats_of_computer_players_are_not_accounts():
    table = GnavTable(rng=random.Random(1))
    table.sit(1, "Ann")
    table.add_bot(1, "normal")
    table.add_bot(1, "strong")
    bots = [seat for seat in table.state.seats if seat.bot]
    assert [seat.account_id for seat in bots] == [-1, -2]
    assert all(seat.account_id < NOBODY for seat in bots)


def test_every_move_on_a_card_calls_a_move_the_rules_have():
    from commands.dvorak.base import CardMove
    from games.dvorak.rules import Table

    moves = [c for s in in_a_room("dvorak") for c in s.commands if isinstance(c, CardMove)]
    # (destroy and shufcard take a face-down card's label too, so they are commands of their own.)
    assert {c.key for c in moves} >= {"use", "discard", "removecard", "withdraw", "revote"}
    for command in moves:
        assert callable(getattr(Table, command.rules_method)), command.key
        assert command.usage == (f"{command.key} <num>",)


def test_every_kind_of_event_the_dvorak_rules_make_has_a_renderer():
    from commands.dvorak.render import RENDERERS

    source = "\n".join(path.read_text() for path in sorted((ROOT / "games" / "dvorak").glob("*.py")))
    firsts = re.findall(r"self\._event\(\s*([^,]+),", source)
    made = {kind for first in firsts for kind in re.findall(r'"(\w+)"', first)}
    assert len(made) > 30
    assert made <= set(RENDERERS), made - set(RENDERERS)


def test_the_welcome_names_every_registered_game_and_no_client():
    from commands.login import welcome_screen

    screen = " ".join(welcome_screen(80).split())
    assert all(name.capitalize() in screen for name in KINDS) and '("games" says what each is).' in screen
    assert "telnet" not in screen.lower()
