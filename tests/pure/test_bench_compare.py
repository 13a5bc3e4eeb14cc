"""The table of ``python -m bench compare`` (:mod:`bench.comparison`): given the figures
of both sides, what it says. Pure functions: nothing is run or timed here."""

from __future__ import annotations

from typing import Any

import pytest

from bench.comparison import Results, compare, figure, report, table


def game(**overrides: Any) -> dict[str, Any]:
    """A game scenario's result, as the scenario prints it (only the figures compared)."""
    result: dict[str, Any] = {
        "moves_per_s": 3000,
        "approvals_per_s": 100,
        "p50_ms": 5.0,
        "p99_ms": 100.0,
        "p99_ms_by_command": {"approve": 200.0, "draw": 90.0},
        "telnet": {"count": 10, "p50_ms": 5.0, "p99_ms": 100.0, "max_ms": 150.0},
        "gnav": {"moves_per_s": 40.0, "p50_ms": 2.0, "p99_ms": 50.0},
        "total_moves_per_s": 3040,
        "all": {"p99_ms": 100.0},
        "server_cpu_cores": 1.0,
        "server_peak_rss_mib": 120.0,
    }
    result.update(overrides)
    return result


def rows_by_label(previous: Results, current: Results) -> dict[str, tuple[Any, ...]]:
    rows = compare(previous, current)
    return {row.metric.label: (row.previous, row.current, row.change, row.verdict) for row in rows}


def test_latency_worse_by_more_than_a_fifth_is_a_regression_and_less_is_not():
    rows = rows_by_label(
        {("game", "sqlite"): [game()]},
        {("game", "sqlite"): [game(p99_ms=130.0, p50_ms=5.5)]},
    )
    assert rows["Dvorak p99, ms"] == (100.0, 130.0, pytest.approx(30.0), "REGRESSION")
    assert rows["Dvorak p50, ms"] == (5.0, 5.5, pytest.approx(10.0), "")


def test_throughput_lower_by_more_than_a_tenth_is_a_regression_higher_is_better():
    rows = rows_by_label(
        {("game", "sqlite"): [game()]},
        {("game", "sqlite"): [game(moves_per_s=2650, approvals_per_s=95, total_moves_per_s=3700)]},
    )
    assert rows["Dvorak moves/s (committed)"][2:] == (pytest.approx(-100 * 350 / 3000), "REGRESSION")
    assert rows["Dvorak approvals/s"][2:] == (pytest.approx(-5.0), "")
    assert rows["all moves/s (committed)"][3] == "better"


def test_cpu_is_shown_never_flagged_and_memory_is_flagged_like_latency():
    rows = rows_by_label(
        {("game", "sqlite"): [game()]},
        {("game", "sqlite"): [game(server_cpu_cores=2.0, server_peak_rss_mib=200.0)]},
    )
    assert rows["server CPU, cores"] == (1.0, 2.0, pytest.approx(100.0), "")
    assert rows["server peak memory, MiB"][3] == "REGRESSION"


def test_what_the_previous_release_lacks_is_na_not_a_failure():
    old = game(lacks={"gnav": "it has no Gnav"}, total_moves_per_s=3000)
    del old["gnav"]
    previous, current = {("game", "sqlite"): [old]}, {("game", "sqlite"): [game()]}
    rows = rows_by_label(previous, current)
    assert rows["Gnav moves/s (people and bots)"] == (None, 40.0, None, "")
    assert rows["Gnav p99, ms"] == (None, 50.0, None, "")
    text = report(previous, current, "v0.1.0", "abc1234")
    assert "| game (sqlite) | Gnav p99, ms | n/a | 50 | n/a |  |" in text
    assert "previous, game on sqlite: no gnav: it has no Gnav" in text
    assert "0 regressions flagged" in text


def test_a_figure_the_current_side_lost_is_a_regression():
    lost = game()
    del lost["gnav"]
    rows = rows_by_label({("game", "sqlite"): [game()]}, {("game", "sqlite"): [lost]})
    assert rows["Gnav moves/s (people and bots)"] == (40.0, None, None, "REGRESSION")


def test_a_failed_run_is_na_on_its_side_and_its_error_is_noted():
    previous: Results = {("chat", "postgresql"): [{"error": "RuntimeError: it exited"}]}
    current: Results = {("chat", "postgresql"): [{"commands_per_s": 1990, "p50_ms": 0.9, "p99_ms": 2.4}]}
    rows = rows_by_label(previous, current)
    assert rows["says/s"] == (None, 1990.0, None, "")
    assert "previous, chat on postgresql: failed: RuntimeError: it exited" in report(previous, current, "a", "b")


def test_rows_neither_side_has_are_left_out():
    labels = rows_by_label({("game", "sqlite"): [game()]}, {("game", "sqlite"): [game()]})
    assert "Dvorak web p99, ms" not in labels  # no web players on either side
    assert "Dvorak telnet p99, ms" in labels


def test_several_rounds_compare_medians():
    previous = {("game", "sqlite"): [game(p99_ms=100.0), game(p99_ms=300.0), game(p99_ms=110.0)]}
    current = {("game", "sqlite"): [game(p99_ms=120.0), game(p99_ms=90.0), game(p99_ms=float("nan"))]}
    assert rows_by_label(previous, current)["Dvorak p99, ms"] == (110.0, 105.0, pytest.approx(-100 * 5 / 110), "")


def test_figures_are_found_by_path_and_only_numbers_count():
    result = {"a": {"b": 2}, "flag": True, "text": "3", "none": None}
    assert figure(result, "a.b") == 2.0
    assert figure(result, "a.c") is None
    assert figure(result, "a.b.c") is None
    assert figure(result, "flag") is None
    assert figure(result, "text") is None
    assert figure(result, "none") is None


def test_the_table_has_one_line_per_figure_with_both_sides_and_the_change():
    rows = compare({("game", "sqlite"): [game()]}, {("game", "sqlite"): [game(p99_ms=130.0, moves_per_s=3100)]})
    lines = table(rows, "v0.1.0", "abc1234").splitlines()
    assert lines[0] == "| scenario | figure | previous: v0.1.0 | current: abc1234 | change | |"
    assert "| game (sqlite) | Dvorak p99, ms | 100 | 130 | +30.0% | **REGRESSION** |" in lines
    assert "| game (sqlite) | Dvorak moves/s (committed) | 3,000 | 3,100 | +3.3% |  |" in lines
    assert len(lines) == 2 + len(rows)


def test_the_machines_speed_is_shown_for_every_scenario_never_flagged():
    previous = {("chat", "sqlite"): [{"commands_per_s": 1990, "machine_loop_s": 0.7, "machine_cores": 1.9}]}
    current = {("chat", "sqlite"): [{"commands_per_s": 1990, "machine_loop_s": 1.6, "machine_cores": 1.0}]}
    rows = rows_by_label(previous, current)
    assert rows["machine: reference loop, s"] == (0.7, 1.6, pytest.approx(100 * 0.9 / 0.7), "")
    assert rows["machine: cores two busy processes get"][3] == ""


def test_the_cpu_a_move_in_loop_iterations_is_flagged_like_latency():
    rows = rows_by_label(
        {("game", "sqlite"): [game(server_cpu_loops_per_move=7000)]},
        {("game", "sqlite"): [game(server_cpu_loops_per_move=9000)]},
    )
    assert rows["server CPU per committed move, reference loop iterations"][3] == "REGRESSION"
