"""The table of ``python -m bench compare``: which figures of each scenario it sets side by
side, and what counts as a regression. Pure functions of the scenarios' result dicts (the
JSON lines the scenarios print), so that they can be tested without running anything.

A run's figures are found by their path in its result (``gnav.p99_ms`` is
``result["gnav"]["p99_ms"]``). A figure a run does not have (the server of an earlier
release lacks what it measures, or the run failed) is ``n/a``; with several rounds each
side's figure is the median of its runs.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Any

#: What a figure is worth more of: throughput is better higher, latency and memory lower;
#: a figure with no direction (CPU: a saturated server uses all it has) is only shown.
HIGHER, LOWER, SHOWN = "higher", "lower", ""
#: A regression: throughput lower by more than this share, latency or memory higher by more.
THROUGHPUT_WORSE, LATENCY_WORSE = 0.10, 0.20


@dataclass(frozen=True)
class Metric:
    label: str
    path: str
    better: str = SHOWN

    @property
    def threshold(self) -> float:
        """The change (a share of the previous figure) flagged as a regression."""
        return THROUGHPUT_WORSE if self.better == HIGHER else LATENCY_WORSE


def _rate(label: str, path: str) -> Metric:
    return Metric(label, path, HIGHER)


def _time(label: str, path: str) -> Metric:
    return Metric(label, path, LOWER)


_SERVER = (Metric("server CPU, cores", "server_cpu_cores"), _time("server peak memory, MiB", "server_peak_rss_mib"))
#: How fast the machine ran Python before each run (bench.machine): two sides that met it
#: at different speeds differ by that much before any code does.
_MACHINE = (
    Metric("machine: reference loop, s", "machine_loop_s"),
    Metric("machine: cores two busy processes get", "machine_cores"),
)

#: The scenarios' own figures.
_FIGURES: dict[str, tuple[Metric, ...]] = {
    "game": (
        _rate("Dvorak moves/s (committed)", "moves_per_s"),
        _rate("Dvorak approvals/s", "approvals_per_s"),
        _rate("Gnav moves/s (people and bots)", "gnav.moves_per_s"),
        _rate("all moves/s (committed)", "total_moves_per_s"),
        _time("Dvorak p50, ms", "p50_ms"),
        _time("Dvorak p99, ms", "p99_ms"),
        _time("Dvorak approve p99, ms", "p99_ms_by_command.approve"),
        _time("Dvorak telnet p99, ms", "telnet.p99_ms"),
        _time("Dvorak web p99, ms", "web.p99_ms"),
        _time("Gnav p50, ms", "gnav.p50_ms"),
        _time("Gnav p99, ms", "gnav.p99_ms"),
        _time("everyone's p99, ms", "all.p99_ms"),
        _time("server CPU per committed move, µs", "server_cpu_us_per_move"),
        _time("server CPU per committed move, reference loop iterations", "server_cpu_loops_per_move"),
        *_SERVER,
    ),
    "chat": (
        _rate("says/s", "commands_per_s"),
        _time("p50, ms", "p50_ms"),
        _time("p99, ms", "p99_ms"),
        *_SERVER,
    ),
    "gnavroom": (
        _rate("people's moves/s", "human_moves_per_s"),
        _rate("computer players' moves/s", "bot_moves_per_s"),
        _rate("deals/s", "deals_per_s"),
        _time("p50, ms", "p50_ms"),
        _time("p99, ms", "p99_ms"),
        _time("start p99, ms", "start_p99_ms"),
        *_SERVER,
    ),
    "ysroom": (
        _rate("people's moves/s", "human_moves_per_s"),
        _rate("computer players' decisions/s", "bot_moves_per_s"),
        _rate("rounds/s", "rounds_per_s"),
        _time("p50, ms", "p50_ms"),
        _time("p99, ms", "p99_ms"),
        _time("start p99, ms", "start_p99_ms"),
        *_SERVER,
    ),
    "idle": (_time("KiB per idle connection", "kib_per_connection"),),
    "webidle": (
        _time("KiB per idle web player", "web.kib_per_connection"),
        _time("KiB per idle telnet player", "telnet.kib_per_connection"),
    ),
    "login": (
        _time("login p50, ms", "login_p50_ms"),
        _time("login p99, ms", "login_p99_ms"),
        _rate("game moves/s meanwhile", "game_moves_per_s"),
        _time("game p99 meanwhile, ms", "game_p99_ms"),
    ),
    "coldstart": (
        _time("seconds to listening", "seconds_to_listening"),
        _time("seconds to the first login", "seconds_to_first_login"),
    ),
    "crossnode": (
        _rate("deliveries/s", "deliveries_per_s"),
        _time("command p99, ms", "command_p99_ms"),
        _time("other node p99, ms", "other_node_p99_ms"),
        _time("crossing adds p99, ms", "crossing_adds_p99_ms"),
    ),
}
#: The figures compared, by scenario: its own, then the machine's speed.
METRICS: dict[str, tuple[Metric, ...]] = {scenario: (*figures, *_MACHINE) for scenario, figures in _FIGURES.items()}

#: The runs of one side: by (scenario, backend), each round's result.
Results = dict[tuple[str, str], list[dict[str, Any]]]


@dataclass(frozen=True)
class Row:
    scenario: str
    backend: str
    metric: Metric
    previous: float | None
    current: float | None
    #: The current figure against the previous one, in percent; None if either is missing
    #: (or the previous one is 0).
    change: float | None
    #: "REGRESSION", "better", or "" (within the threshold, or only shown, or n/a).
    verdict: str


def figure(result: dict[str, Any], path: str) -> float | None:
    """The number at ``path`` in ``result``; None if it has none there."""
    value: Any = result
    for key in path.split("."):
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
        return None
    return float(value)


def median_figure(runs: list[dict[str, Any]], path: str) -> float | None:
    """The median of the runs' figures at ``path``; None if no run has one."""
    values = [value for value in (figure(run, path) for run in runs) if value is not None]
    return statistics.median(values) if values else None


def verdict_of(metric: Metric, previous: float | None, current: float | None) -> tuple[float | None, str]:
    """The change in percent and what it says for ``metric``."""
    if previous is None:
        return None, ""
    if current is None:
        return None, "REGRESSION" if metric.better else ""
    if previous == 0:
        return None, ""
    change = (current - previous) / abs(previous) * 100
    if not metric.better:
        return change, ""
    worse = -change if metric.better == HIGHER else change
    if worse > metric.threshold * 100:
        return change, "REGRESSION"
    if -worse > metric.threshold * 100:
        return change, "better"
    return change, ""


def compare(previous: Results, current: Results) -> list[Row]:
    """A row for every figure of every scenario and backend either side ran, in the order
    they ran (current's first, then any only the previous side ran)."""
    rows = []
    for scenario, backend in dict.fromkeys([*current, *previous]):
        before, after = previous.get((scenario, backend), []), current.get((scenario, backend), [])
        for metric in METRICS.get(scenario, ()):
            old, new = median_figure(before, metric.path), median_figure(after, metric.path)
            if old is None and new is None:
                continue
            change, verdict = verdict_of(metric, old, new)
            rows.append(Row(scenario, backend, metric, old, new, change, verdict))
    return rows


def notes(side: str, results: Results) -> list[str]:
    """What the runs of ``side`` could not measure: errors, and what its server lacked."""
    found = []
    for (scenario, backend), runs in results.items():
        for run in runs:
            if "error" in run:
                found.append(f"{side}, {scenario} on {backend}: failed: {run['error']}")
            for feature, why in run.get("lacks", {}).items():
                found.append(f"{side}, {scenario} on {backend}: no {feature}: {why}")
    return list(dict.fromkeys(found))


def number(value: float | None) -> str:
    if value is None:
        return "n/a"
    if abs(value) >= 100 or value.is_integer():
        return f"{value:,.0f}"
    return f"{value:.3g}"


def table(rows: list[Row], previous_label: str, current_label: str) -> str:
    """The rows as one Markdown table: previous | current | change, a regression flagged."""
    lines = [
        f"| scenario | figure | previous: {previous_label} | current: {current_label} | change | |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        change = "n/a" if row.change is None else f"{row.change:+.1f}%"
        flag = f"**{row.verdict}**" if row.verdict == "REGRESSION" else row.verdict
        lines.append(
            f"| {row.scenario} ({row.backend}) | {row.metric.label} | {number(row.previous)} | "
            f"{number(row.current)} | {change} | {flag} |"
        )
    return "\n".join(lines)


def report(previous: Results, current: Results, previous_label: str, current_label: str) -> str:
    """The table, how many regressions it flags and by what rule, and the notes."""
    rows = compare(previous, current)
    flagged = [row for row in rows if row.verdict == "REGRESSION"]
    lines = [
        table(rows, previous_label, current_label),
        "",
        f"{len(flagged)} regression{'' if len(flagged) == 1 else 's'} flagged: throughput lower by more than "
        f"{THROUGHPUT_WORSE:.0%}, latency or memory higher by more than {LATENCY_WORSE:.0%}, or a figure the "
        "previous release had and the current one has not. n/a: that side has no such figure.",
    ]
    lines += notes("previous", previous) + notes("current", current)
    return "\n".join(lines)
