"""Every registered game kind passes the conformance checks (tests/conformance.py): no
list of games to edit, a new kind runs them by being registered. In the fast tier: no
socket, no database (the renderers it checks load the storage's modules, so it is not
in tests/pure)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from commands.games import game_commands
from commands.gnav import game as gnav_game
from games import KINDS
from games.gnav import visibility
from server.text import WHOLE_LINE
from tests.conformance import check_kind

pytestmark = pytest.mark.fast


@pytest.mark.parametrize("name", list(KINDS))
@pytest.mark.parametrize("seed", [1, 2])
def test_every_kind_plays_soundly_replays_and_shows_nothing_it_must_not(name, seed):
    check_kind(KINDS[name], seed)


# The checks catch what they are for: each test below breaks one thing in Gnav and sees
# the conformance checks fail.


def test_a_seat_view_that_shows_another_seats_card_is_caught(monkeypatch):
    leaky = visibility.seat_view
    monkeypatch.setattr(visibility, "seat_view", lambda state, viewer: (leaky(state, viewer), dict(state.hands)))
    with pytest.raises(AssertionError, match="viewer"):
        check_kind(KINDS["gnav"], 1)


def test_a_gmcp_package_that_shows_another_seats_card_is_caught(monkeypatch):
    honest = gnav_game.table_json
    monkeypatch.setattr(
        gnav_game,
        "table_json",
        lambda table, viewer: {**honest(table, viewer), "hands": sorted(table.state.hands.items())},
    )
    with pytest.raises(AssertionError, match="viewer"):
        check_kind(KINDS["gnav"], 1)


def test_a_line_that_names_a_hidden_card_is_caught(monkeypatch):
    honest = gnav_game.event_line

    def leaky(table, event, viewer, past=False):
        return f"{honest(table, event, viewer, past)} (Next in the stock: {table.state.stock[-1:]}.)"

    monkeypatch.setattr(gnav_game, "event_line", leaky)
    monkeypatch.setattr(gnav_game, "GAME_COMMANDS", replace(gnav_game.GAME_COMMANDS, render_event=leaky))
    game_commands.cache_clear()
    try:
        with pytest.raises(AssertionError, match="viewer"):
            check_kind(KINDS["gnav"], 1)
    finally:
        game_commands.cache_clear()


def test_a_computer_player_that_looks_at_the_hidden_cards_is_caught(monkeypatch):
    monkeypatch.setattr(
        type(KINDS["gnav"]), "bot_decision", lambda self, state, actor, rng: sorted(state.hands.items())
    )
    with pytest.raises(AssertionError):
        check_kind(KINDS["gnav"], 1)


def test_a_line_wider_than_80_columns_is_caught(monkeypatch):
    honest = gnav_game.render_event
    wide = WHOLE_LINE + "-" * 81
    monkeypatch.setattr(gnav_game, "render_event", lambda *args: f"{honest(*args)}\n{wide}")
    with pytest.raises(AssertionError, match="81 columns"):
        check_kind(KINDS["gnav"], 1)


def test_a_snapshot_that_forgets_a_field_is_caught(monkeypatch):
    kind = type(KINDS["gnav"])
    honest = kind.snapshot
    monkeypatch.setattr(kind, "snapshot", lambda self, state: {**honest(self, state), "stock": []})
    with pytest.raises(AssertionError):
        check_kind(KINDS["gnav"], 1)
