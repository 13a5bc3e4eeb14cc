"""Budgets: what one player, or everyone at one address, may make the server do in a
second, a minute or an hour, beyond the command rate that every connection has: talk
that reaches others, cards and decks written to the database, password hashes."""

from __future__ import annotations

import logging

from server.config import Settings
from server.limits import Allowance, spend_from_all
from server.metrics import UNWATCHED, Metrics

log = logging.getLogger(__name__)

#: An hour, in seconds.
HOUR = 3600.0


class Budgets:
    """What one player, or everyone at one address, may make the server do: send others
    what they say (bytes a second), write cards and proposals and saved decks (an hour),
    have passwords hashed (a minute). Each node keeps its own, as it does the failed-login
    throttle. A refusal is counted (``metrics``), and a speaker who goes over their budget
    is logged once, until they are within it again."""

    def __init__(self, settings: Settings, metrics: Metrics = UNWATCHED) -> None:
        self.metrics = metrics
        #: The speakers (players, addresses) refused since they last spoke within their budget.
        self._over: set[object] = set()
        speech, per_address = settings.speech_rate, settings.speech_rate_per_address
        #: Bytes of talk a second, eight seconds' worth at once: by player, by address.
        self.speech = Allowance(speech, 8 * speech)
        self.speech_per_address = Allowance(per_address, 8 * per_address)
        #: Cards and proposals an hour, by player; as many at once.
        self.writes = Allowance(settings.writes_per_hour / HOUR, settings.writes_per_hour)
        #: Bytes of saved decks an hour, by player; as many at once.
        self.saved_bytes = Allowance(settings.saved_bytes_per_hour / HOUR, settings.saved_bytes_per_hour)
        checks = settings.password_checks_per_minute
        #: Password hashes a minute: by address, as many at once; by player, a third of that.
        self.password_checks_per_address = Allowance(checks / 60, checks)
        self.password_checks = Allowance(checks / 180, checks / 3)

    def speak(self, account: int, address: str, size: int) -> float:
        """Spend ``size`` bytes of talk; the seconds to wait instead (0: spent; infinite:
        more than may be said at once)."""
        wait = spend_from_all([(self.speech, account), (self.speech_per_address, address)], size)
        if not wait:
            self._over.discard(account)
            return 0.0
        self.metrics.over_budget("speech")
        if account not in self._over:
            self._over.add(account)
            log.warning("player #%d (from %s) talks faster than its budget; refused until within it", account, address)
        return wait

    def spend(self, budget: str, allowance: Allowance, account: int, amount: float) -> float:
        """Spend ``amount`` of ``account``'s ``allowance`` (one of this object's, named
        ``budget`` for the count of refusals); the seconds to wait instead (0: spent;
        infinite: more than the whole allowance)."""
        wait = spend_from_all([(allowance, account)], amount)
        if wait:
            self.metrics.over_budget(budget)
        return wait

    def password_check(self, address: str, account: int | None) -> float:
        """Spend one password hash for ``address`` (and its player, once logged in); the
        seconds to wait instead (0: spent)."""
        spenders: list[tuple[Allowance, object]] = [(self.password_checks_per_address, address)]
        if account is not None:
            spenders.append((self.password_checks, account))
        wait = spend_from_all(spenders, 1)
        if wait:
            self.metrics.over_budget("password_checks")
        return wait
