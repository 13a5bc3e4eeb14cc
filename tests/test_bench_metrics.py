"""The server's own figures of a benchmark run, from two scrapes of its ``/metrics``
(:func:`bench.metrics.summary`): pure arithmetic on the samples, nothing run here."""

from __future__ import annotations

import pytest

from bench.metrics import summary
from tests.scraping import Samples

BOUNDS = ("0.001", "0.01", "0.1", "1.0", "+Inf")


def histogram(name: str, cumulative: tuple[float, ...], total: float) -> Samples:
    buckets = zip(BOUNDS, cumulative, strict=True)
    samples: Samples = {(f"{name}_bucket", frozenset({("le", bound)})): n for bound, n in buckets}
    samples[(f"{name}_count", frozenset())] = cumulative[-1]
    samples[(f"{name}_sum", frozenset())] = total
    return samples


def test_the_loop_lag_between_two_scrapes_gives_its_mean_and_p99():
    lag = "dvorak_event_loop_lag_seconds"
    first = histogram(lag, (10, 10, 10, 10, 10), 0.005)
    # 100 more looks: 90 under a millisecond, 9 under 10 ms, one of 0.5 s.
    last = histogram(lag, (100, 109, 109, 110, 110), 0.005 + 0.03 + 0.5)
    figures = summary(first, last, 10.0, [0.01])
    assert figures["loop_lag_mean_ms"] == pytest.approx(5.3)
    assert figures["loop_lag_p99_ms"] == pytest.approx(10.0)  # the 99th look is the last under 10 ms


def test_a_server_without_the_lag_has_none():
    figures = summary({}, {}, 10.0, [0.01])
    assert figures["loop_lag_mean_ms"] is None
    assert figures["loop_lag_p99_ms"] is None
