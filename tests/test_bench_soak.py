"""The soak (``python -m bench soak``, :mod:`bench.soak`): a mixed population against a
real server, its figures each "minute", and the slopes that say whether they are flat."""

from __future__ import annotations

import pytest

from bench import soak
from bench.__main__ import main


def test_a_figure_grows_only_when_its_slope_rises_beyond_its_noise():
    steady = soak.slope([100.0, 101.0, 99.5, 100.5, 100.0, 99.0, 101.0])
    assert not steady["grows"] and abs(steady["per_minute"]) < 0.5
    climbing = soak.slope([100.0, 110.0, 121.0, 130.0, 140.0, 151.0, 160.0])
    assert climbing["grows"] and climbing["per_minute"] == pytest.approx(10, abs=0.3)
    # Noisy but level: the line's rise is within twice the spread about it.
    assert not soak.slope([3.0, 9.0, 2.0, 8.0, 3.0, 9.0, 4.0])["grows"]
    # Falling leaks nothing; a straight climb of under 5% of the figure is flat.
    assert not soak.slope([10.0, 9.0, 8.0, 7.0, 6.0])["grows"]
    assert not soak.slope([100.0, 100.5, 101.0, 101.5, 102.0])["grows"]
    # Nor is a rise under what the figure can tell apart (the loop's lag, in whole ms).
    assert soak.slope([0.3, 0.35, 0.4, 0.45, 0.5])["grows"]
    assert not soak.slope([0.3, 0.35, 0.4, 0.45, 0.5], floor=1.0)["grows"]


async def test_the_soak_plays_every_part_of_the_population_and_reports_each_minute(monkeypatch):
    """A short soak with a few of each: every part plays without a bench error, and each
    "minute" reports the server's figures."""
    monkeypatch.setattr(soak, "MINUTE", 8.0)
    monkeypatch.setattr(soak, "ROOM_LIFETIME", (5.0, 7.0))
    monkeypatch.setattr(soak, "P99_SAMPLES", 1)
    for part, count in (
        ("DVORAK_TABLES", 1),
        ("GNAV_ROOMS", 2),
        ("YS_ROOMS", 1),
        ("LOBBY_TALKERS", 2),
        ("IDLE_TELNET", 3),
        ("IDLE_WEB", 2),
    ):
        monkeypatch.setattr(soak, part, count)
    rows: list[dict] = []
    ended = await soak.soak("sqlite", 4, emit=rows.append)
    assert [row["minute"] for row in rows] == [1, 2, 3, 4]
    for row in rows:
        assert row["rss_mib"] > 20 and row["fds"] > 10 and row["tasks"] > 5
        assert row["database_mib"] > 0 and row["loop_lag_p99_ms"] is not None
        assert row["errors"] == 0, row.get("errors_seen")
    assert sum(row["moves"] for row in rows) > 50
    played = {command for row in rows for command in row["p99_ms_by_command"]}
    assert {"draw", "approve", "say", "who"} <= played  # Dvorak, votes, talk, the lobby
    assert {"keep", "swap"} & played and {"bid", "place", "choose", "order"} & played  # Gnav, Ys
    assert rows[-1]["rooms_deleted"] >= 2  # the Gnav rooms' time was up: deleted and made again
    assert set(ended["slopes"]) >= {"rss_mib", "fds", "tasks", "database_mib"}


def test_the_command_refuses_no_minutes(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["soak", "--minutes", "0"])
    assert stop.value.code == 2
    assert "--minutes must be at least 1" in capsys.readouterr().err
