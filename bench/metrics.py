"""The server's own figures, scraped from its ``/metrics`` during a run (as Prometheus
would, every few seconds), to set beside what the load generator measured: how many
commands and moves it counted, its command and commit latency from its histograms, its
database errors, and how long a scrape took under the load."""

from __future__ import annotations

import asyncio
import math
import time
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]

#: Seconds between scrapes during a run (Prometheus's default is 15).
SCRAPE_EVERY = 5.0


async def scrape(web_port: int) -> tuple[Samples, float]:
    """Every sample the server's ``/metrics`` gives now, and the seconds the scrape took."""
    started = time.perf_counter()
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{web_port}/metrics") as response,
    ):
        response.raise_for_status()
        text = await response.text()
    took = time.perf_counter() - started
    samples = {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }
    return samples, took


class Scraper:
    """Scrapes a server's ``/metrics`` from :meth:`start` to :meth:`stop`, every
    :data:`SCRAPE_EVERY` seconds; :meth:`stop` sums up the run between the first scrape
    and the last."""

    def __init__(self, web_port: int) -> None:
        self.web_port = web_port
        self._first: Samples = {}
        self._began = 0.0
        self._took: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> bool:
        """Take the first scrape and scrape on; False if the server has no ``/metrics``
        (an earlier release, see ``python -m bench compare``): there is nothing to scrape."""
        try:
            self._first, took = await scrape(self.web_port)
        except aiohttp.ClientResponseError as refusal:
            if refusal.status == 404:
                return False
            raise
        self._took.append(took)
        self._began = time.perf_counter()
        self._task = asyncio.create_task(self._every_few_seconds())
        return True

    async def _every_few_seconds(self) -> None:
        while True:
            await asyncio.sleep(SCRAPE_EVERY)
            self._took.append((await scrape(self.web_port))[1])

    async def stop(self) -> dict[str, Any]:
        assert self._task is not None
        self._task.cancel()
        last, took = await scrape(self.web_port)
        self._took.append(took)
        return summary(self._first, last, time.perf_counter() - self._began, self._took)


def summary(first: Samples, last: Samples, seconds: float, took: list[float]) -> dict[str, Any]:
    """The server's figures between two scrapes ``seconds`` apart."""

    def total(name: str, **labels: str) -> float:
        """The increase of ``name`` (summed over the labels not given)."""
        wanted = set(labels.items())
        return sum(
            value - first.get(key, 0.0) for key, value in last.items() if key[0] == name and wanted <= set(key[1])
        )

    def quantile(histogram: str, q: float) -> float | None:
        """The ``q`` quantile of ``histogram`` between the scrapes, in milliseconds, as
        PromQL's histogram_quantile works it out (linear within a bucket)."""
        buckets = sorted(
            (float(dict(labels)["le"]), value - first.get((name, labels), 0.0))
            for (name, labels), value in last.items()
            if name == f"{histogram}_bucket"
        )
        count = buckets[-1][1] if buckets else 0.0
        if count <= 0:
            return None
        rank, lower, below = q * count, 0.0, 0.0
        for bound, cumulative in buckets:
            if cumulative >= rank:
                if math.isinf(bound):
                    return round(lower * 1000, 1)
                share = (rank - below) / (cumulative - below) if cumulative > below else 1.0
                return round((lower + (bound - lower) * share) * 1000, 1)
            lower, below = bound, cumulative
        return None

    looks = total("dvorak_event_loop_lag_seconds_count")
    connections = {
        dict(labels)["kind"]: int(value) for (name, labels), value in last.items() if name == "dvorak_connections"
    }
    return {
        "commands_per_s": round(total("dvorak_commands_total") / seconds),
        "unknown_commands": int(total("dvorak_commands_total", command="huh")),
        "command_p50_ms": quantile("dvorak_command_seconds", 0.5),
        "command_p99_ms": quantile("dvorak_command_seconds", 0.99),
        "commits_per_s": round(total("dvorak_commit_seconds_count") / seconds),
        "commit_p50_ms": quantile("dvorak_commit_seconds", 0.5),
        "commit_p99_ms": quantile("dvorak_commit_seconds", 0.99),
        # How late the event loop ran its timers: the wait for the loop any command had.
        "loop_lag_mean_ms": (round(total("dvorak_event_loop_lag_seconds_sum") / looks * 1000, 1) if looks else None),
        "loop_lag_p99_ms": quantile("dvorak_event_loop_lag_seconds", 0.99),
        "database_errors": int(total("dvorak_database_errors_total")),
        "connections": connections,
        "scrapes": len(took),
        "scrape_max_ms": round(max(took) * 1000, 1),
    }
