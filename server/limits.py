"""Limits that keep one client from hurting the others: a command rate per connection."""

from __future__ import annotations

import time


class CommandRate:
    """A token bucket: ``burst`` commands at once, then ``rate`` per second.

    Commands over the rate are not dropped but delayed (a pasted deck arrives whole, just
    paced). A client that keeps the bucket empty for ``flood_seconds`` on end is flooding.
    """

    def __init__(self, rate: float, burst: int, flood_seconds: float) -> None:
        self.rate = rate
        self.burst = burst
        self.flood_seconds = flood_seconds
        self._tokens = float(burst)
        self._updated = time.monotonic()
        self._throttled_since: float | None = None

    def delay(self) -> float:
        """Take a token for one command; the seconds to wait before running it."""
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._updated) * self.rate)
        self._updated = now
        self._tokens -= 1
        if self._tokens >= 0:
            self._throttled_since = None
            return 0.0
        if self._throttled_since is None:
            self._throttled_since = now
        return -self._tokens / self.rate

    def flooding(self) -> bool:
        """Whether the client has been over the rate for ``flood_seconds`` without a break."""
        return self._throttled_since is not None and time.monotonic() - self._throttled_since >= self.flood_seconds
