"""Limits that keep one client from hurting the others: rates of commands and of bytes,
and work done one at a time per address."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any


class TokenBucket:
    """``burst`` units at once, then ``rate`` units per second on average."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = float(burst)
        self._updated = time.monotonic()

    def state(self) -> dict[str, float | None]:
        """What the bucket holds now, for the worker a connection is handed to (the
        monotonic clock is the host's, the same in every process)."""
        return {"tokens": self._tokens, "updated": self._updated}

    def restore(self, state: dict[str, Any]) -> None:
        """Hold what :meth:`state` gave (a bad value is left as it is)."""
        tokens, updated = state.get("tokens"), state.get("updated")
        if isinstance(tokens, int | float) and isinstance(updated, int | float):
            self._tokens, self._updated = min(float(tokens), self.burst), float(updated)

    def take(self, amount: float = 1.0) -> float:
        """Take ``amount`` units; the seconds until the bucket is no longer overdrawn
        (0 when it is not)."""
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._updated) * self.rate)
        self._updated = now
        self._tokens -= amount
        return 0.0 if self._tokens >= 0 else -self._tokens / self.rate


class CommandRate(TokenBucket):
    """The commands of one connection: ``burst`` at once, then ``rate`` per second.

    Every line counts, empty or not, and so does every command split out of one pasted
    line. Commands over the rate are not dropped but delayed (a pasted deck arrives
    whole, just paced). A client that keeps the bucket empty for ``flood_seconds`` on
    end is flooding.
    """

    def __init__(self, rate: float, burst: int, flood_seconds: float) -> None:
        super().__init__(rate, burst)
        self.flood_seconds = flood_seconds
        self._throttled_since: float | None = None

    def delay(self, cost: int = 1) -> float:
        """Take ``cost`` tokens for one command; the seconds to wait before running it."""
        wait = self.take(cost)
        if not wait:
            self._throttled_since = None
        elif self._throttled_since is None:
            self._throttled_since = time.monotonic()
        return wait

    def state(self) -> dict[str, float | None]:
        return {**super().state(), "throttled_since": self._throttled_since}

    def restore(self, state: dict[str, Any]) -> None:
        super().restore(state)
        since = state.get("throttled_since")
        if since is None or isinstance(since, int | float):
            self._throttled_since = since

    def flooding(self) -> bool:
        """Whether the client has been over the rate for ``flood_seconds`` without a break."""
        return self._throttled_since is not None and time.monotonic() - self._throttled_since >= self.flood_seconds


class OneAtATime:
    """Work done for one key (an address) at a time: callers with the same key wait their
    turn. A key is forgotten once nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def turn(self, key: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)


class Allowance:
    """What each of many spenders (players, addresses) may spend of one thing: ``burst``
    at once, then ``rate`` a second on average, each spender's kept apart by its key. A
    key is forgotten once its allowance has grown back whole, so that memory holds only
    those who spent lately."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        #: Each recent spender's allowance left, and when it was worked out.
        self._left: dict[object, tuple[float, float]] = {}
        self._swept_at = 0.0

    def left(self, key: object) -> float:
        """What ``key`` may spend now."""
        found = self._left.get(key)
        if found is None:
            return self.burst
        left, when = found
        return min(self.burst, left + (time.monotonic() - when) * self.rate)

    def wait(self, key: object, amount: float) -> float:
        """Seconds until ``key`` may spend ``amount`` (0: now; more than ``burst`` is never
        spent: its wait is infinite)."""
        if amount > self.burst:
            return float("inf")
        short = amount - self.left(key)
        return max(0.0, short / self.rate) if self.rate > 0 else (float("inf") if short > 0 else 0.0)

    def spend(self, key: object, amount: float) -> None:
        """Spend ``amount`` of ``key``'s allowance (see :meth:`wait` first)."""
        now = time.monotonic()
        self._left[key] = (self.left(key) - amount, now)
        if len(self._left) > _FORGET_AFTER and now - self._swept_at > 1.0:
            self._forget_the_whole(now)

    def _forget_the_whole(self, now: float) -> None:
        self._swept_at = now
        self._left = {
            key: (left, when)
            for key, (left, when) in self._left.items()
            if left + (now - when) * self.rate < self.burst
        }


#: How many spenders an :class:`Allowance` keeps before it forgets those grown back whole.
_FORGET_AFTER = 1024


def spend_from_all(allowances: list[tuple[Allowance, object]], amount: float) -> float:
    """Spend ``amount`` from each (allowance, key), if every one allows it now; else from
    none of them. The seconds until all would allow it (0: spent)."""
    wait = max((allowance.wait(key, amount) for allowance, key in allowances), default=0.0)
    if wait == 0:
        for allowance, key in allowances:
            allowance.spend(key, amount)
    return wait
