"""Reading a node's ``/metrics`` in tests: every sample by name and labels."""

from __future__ import annotations

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


async def scrape(port: int) -> Samples:
    """Every sample ``/metrics`` on ``port`` gives, by name and labels."""
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/metrics") as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=")
        text = await response.text()
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples[(name, frozenset(labels.items()))]


def labelled(samples: Samples, name: str, label: str) -> dict[str, float]:
    """The samples of ``name``, by the value of their one label ``label``."""
    return {dict(labels)[label]: v for (n, labels), v in samples.items() if n == name}
