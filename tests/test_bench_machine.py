"""The machine's speed taken with every benchmark run (:mod:`bench.machine`)."""

from __future__ import annotations

from bench.machine import LOOP_ITERATIONS, cores_at_once, loop_seconds, with_machine_speed


def test_the_reference_loop_takes_a_measurable_time():
    assert 0.01 < loop_seconds() < 60


def test_the_cpu_a_move_is_also_given_in_iterations_of_the_loop():
    # 20 million iterations in 1.6 s: 80 ns each; 640 µs is 8,000 of them.
    figures = with_machine_speed({"moves_per_s": 1500, "server_cpu_us_per_move": 640}, 1.6)
    assert LOOP_ITERATIONS == 20_000_000
    assert figures == {
        "moves_per_s": 1500,
        "server_cpu_us_per_move": 640,
        "machine_loop_s": 1.6,
        "server_cpu_loops_per_move": 8000,
    }


def test_a_result_without_cpu_a_move_gets_only_the_speed():
    assert with_machine_speed({"commands_per_s": 1990}, 0.673) == {"commands_per_s": 1990, "machine_loop_s": 0.67}


def test_two_busy_processes_get_at_most_two_cores_and_some_of_one():
    cores = cores_at_once(loop_seconds())
    assert 0 < cores <= 2


def test_the_cores_are_given_when_measured():
    assert with_machine_speed({}, 0.6, 1.234) == {"machine_loop_s": 0.6, "machine_cores": 1.23}
