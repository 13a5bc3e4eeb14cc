"""Accounts: the rules for names and passwords, hashing, and the throttle on guessing.

Passwords are hashed with argon2id in worker threads, so a login never stalls the
players already connected. The parameters are OWASP's recommended argon2id minimum
(19 MiB, 2 passes, 1 lane): about 30 ms per hash on one core of a small server, which
keeps logins quick under load while making offline guessing expensive. Hashes made with
other parameters are upgraded on the next successful login.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import math
import re
import secrets
import time
from collections import Counter as Tally
from collections import deque
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import argon2

from i18n import N_, _, ngettext
from persistence.accounts import AccountRecord, AccountStore, NameTaken, name_readings, name_skeleton
from persistence.names import letters_problem, normal
from server.budgets import Budgets
from server.hub import wall_openings
from server.limits import OneAtATime
from server.metrics import UNWATCHED, Metrics

T = TypeVar("T")

NAME_MIN, NAME_MAX = 2, 20
PASSWORD_MIN, PASSWORD_MAX = 4, 128
NAME_TAKEN = N_("The name '{name}' is taken. Choose another, or connect to it.")

NAME_RULE = N_(
    "A name is {least}-{most} characters: letters (Latin, Cyrillic or Greek), digits, "
    "spaces and _ - ' . ; it starts with a letter and has no double spaces. Put a name with "
    'spaces in double quotes: create "Jo Smith" <password>'
)
#: A letter of any alphabet (\w less digits and _), then letters, ASCII digits, _ ' . - and
#: single spaces; :func:`persistence.names.letters_problem` then checks the alphabets.
_NAME_PATTERN = re.compile(r"[^\W\d_](?:[^\W\d_]|[0-9_'.-]| (?! ))*")
#: How far back players made from one address are counted.
MAKING_WINDOW = timedelta(hours=1)
#: Names a player may not take: words the server's lines use for someone or somewhere
#: ("You swap...", "The neutral player wins...", "a former player" for a deleted author),
#: and the names of the staff's roles and the server's, so that no line reads as said by
#: or about them. ("Host" stays a name: every table's host is named in its lines.)
_RESERVED_NAMES = frozenset(
    {
        "me",
        "here",
        "all",
        "everyone",
        "nobody",
        "lobby",
        "the lobby",
        "you",
        "someone",
        "a former player",
        "neutral",
        "the neutral player",
        "admin",
        "staff",
        "server",
        "the server",
    }
)


class AccountError(Exception):
    """A request about an account was refused; the message says why, for the player."""


class LoginFailed(AccountError):
    """A name and password that do not match. ``known`` says whether the name is a
    player's (when it is not, what was typed may be a password typed in its place, and
    is not logged)."""

    def __init__(self, known: bool) -> None:
        super().__init__(_("Either that player does not exist, or has a different password."))
        self.known = known


def check_name(name: str) -> str | None:
    """Why ``name`` (composed: :func:`persistence.names.normal`) is not a valid player
    name, or None if it is."""
    if not NAME_MIN <= len(name) <= NAME_MAX or not _NAME_PATTERN.fullmatch(name) or name.endswith(" "):
        return _(NAME_RULE).format(least=NAME_MIN, most=NAME_MAX)
    mixed = letters_problem(name, N_("A name"))
    if mixed is not None:
        return mixed
    readings = name_readings(name)
    if any(reading.startswith(_wall_words()) for reading in readings):
        # Every line that starts with the name would read as a wall ("Announcement from Ann: ...").
        return _("'{name}' would read as the server's announcements; choose another name.").format(name=name)
    if readings & {name_skeleton(reserved) for reserved in _RESERVED_NAMES}:
        return _("'{name}' is reserved; choose another name.").format(name=name)
    return None


@functools.cache
def _wall_words() -> tuple[str, ...]:
    """The first word of a wall's line in each language ("announcement"), as a name reads."""
    return tuple(name_skeleton(opening.split()[0]) for opening in wall_openings())


def check_password(password: str) -> str | None:
    """Why ``password`` is not acceptable, or None if it is."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        return _("A password is {least}-{most} characters long.").format(least=PASSWORD_MIN, most=PASSWORD_MAX)
    return None


def _too_many_checked(wait: float, logged_in: bool) -> str:
    """Why a password may not be checked now: too many were, for this player or address."""
    if wait == math.inf:
        if logged_in:
            return _("Too many passwords have been checked for you just now. Try again later.")
        return _("Too many passwords have been checked for your address just now. Try again later.")
    seconds = math.ceil(wait)
    if logged_in:
        refusal = ngettext(
            "Too many passwords have been checked for you just now. Try again in {n} second.",
            "Too many passwords have been checked for you just now. Try again in {n} seconds.",
            seconds,
        )
    else:
        refusal = ngettext(
            "Too many passwords have been checked for your address just now. Try again in {n} second.",
            "Too many passwords have been checked for your address just now. Try again in {n} seconds.",
            seconds,
        )
    return refusal.format(n=seconds)


class LoginThrottle:
    """Counts failed guesses at passwords per address and refuses more once the limit is
    reached.

    At most ``limit`` failures are allowed from one address within ``window`` seconds;
    after that, guesses from the address are refused until the oldest failure leaves the
    window. Only failures count: a right password costs nothing. So that guesses made at
    the same moment cannot all slip in before the first one fails, an address has at most
    as many guesses being checked at once as it has failures left; the others wait their
    turn (and go on once those are found right).
    """

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._failures: dict[str, deque[float]] = {}
        #: Guesses being checked now, by address.
        self._checking: Tally[str] = Tally()
        #: Set (and replaced) each time a guess of that address has been checked.
        self._checked: dict[str, asyncio.Event] = {}

    def _recent(self, address: str, now: float) -> deque[float]:
        failures = self._failures.get(address)
        if failures is None:
            return deque()
        while failures and failures[0] <= now - self.window:
            failures.popleft()
        if not failures:
            del self._failures[address]
        return failures

    def wait_time(self, address: str) -> float:
        """Seconds before ``address`` may guess again (0 if it may now)."""
        now = time.monotonic()
        failures = self._recent(address, now)
        if len(failures) < self.limit:
            return 0.0
        return failures[0] + self.window - now

    def record_failure(self, address: str) -> None:
        """Count one failed guess from ``address``."""
        now = time.monotonic()
        self._recent(address, now)
        self._failures.setdefault(address, deque()).append(now)

    @asynccontextmanager
    async def guess(self, address: str) -> AsyncIterator[Guess]:
        """One guess from ``address``, checked inside; it counts as a failure unless it is
        marked :attr:`Guess.right`. Raises :class:`Throttled` while the address must wait;
        waits while as many of its guesses are being checked as it has failures left."""
        while True:
            wait = self.wait_time(address)
            if wait:
                raise Throttled(wait)
            if len(self._recent(address, time.monotonic())) + self._checking[address] < self.limit:
                break
            await self._checked.setdefault(address, asyncio.Event()).wait()
        self._checking[address] += 1
        guess = Guess()
        try:
            yield guess
        finally:
            self._checking[address] -= 1
            if not self._checking[address]:
                del self._checking[address]
            if guess.wrong:
                self.record_failure(address)
            checked = self._checked.pop(address, None)
            if checked is not None:
                checked.set()


@dataclass
class Guess:
    """A guess being checked (see :meth:`LoginThrottle.guess`)."""

    #: Whether it was found wrong (only a wrong guess counts as a failure).
    wrong: bool = False


class Throttled(Exception):
    """The address has failed too often: it must wait ``wait`` seconds."""

    def __init__(self, wait: float) -> None:
        super().__init__(f"wait {wait:.1f} s")
        self.wait = wait


#: Password hashes that may wait for a hashing thread at once; past them, a request is
#: refused at once (the server is busy), never queued without bound.
MOST_WAITING_HASHES = 64


class AccountService:
    """Creating accounts, checking passwords, changing them.

    Every password hash (a login, a new player, a room's password, ``@password``,
    ``@delete``) goes through one pool of threads, in turn, at most
    :data:`MOST_WAITING_HASHES` waiting, and within the hashing budgets of the address
    that asks and, once logged in, of its player (see :class:`server.limits.Budgets`).
    """

    def __init__(
        self,
        store: AccountStore,
        throttle: LoginThrottle,
        hashing_threads: int = 2,
        time_cost: int = 2,
        memory_kib: int = 19 * 1024,
        accounts_per_address: int | None = None,
        metrics: Metrics = UNWATCHED,
        budgets: Budgets | None = None,
    ) -> None:
        self.store = store
        self.throttle = throttle
        #: Where refused logins are counted.
        self.metrics = metrics
        #: Players that may be made from one address in an hour (None: any number).
        self.accounts_per_address = accounts_per_address
        #: How many password hashes an address and a player may ask for (None: any number).
        self.budgets = budgets
        #: Each address makes its players one at a time (see :meth:`create`).
        self._making = OneAtATime()
        self._hasher = argon2.PasswordHasher(
            time_cost=time_cost, memory_cost=memory_kib, parallelism=1, type=argon2.Type.ID
        )
        self._threads = ThreadPoolExecutor(max_workers=hashing_threads, thread_name_prefix="argon2")
        self._waiting_hashes = 0
        #: A hash of nothing anybody knows, checked when a name is not a player's, so
        #: that a wrong name takes as long to refuse as a wrong password.
        self._decoy_hash = self._hasher.hash(secrets.token_hex(16))

    def close(self) -> None:
        """Stop the hashing threads."""
        self._threads.shutdown(wait=False, cancel_futures=True)

    async def _hashing(self, function: Callable[..., T], *args: Any, address: str, account: int | None) -> T:
        """Run ``function`` (a hash or a check) in a hashing thread, for ``address`` and,
        logged in, ``account``: refused (:class:`AccountError`) past their budgets, or
        when too many hashes wait already."""
        if self.budgets is not None:
            wait = self.budgets.password_check(address, account)
            if wait:
                raise AccountError(_too_many_checked(wait, account is not None))
        if self._waiting_hashes >= MOST_WAITING_HASHES:
            self.metrics.over_budget("hashing_queue")
            raise AccountError(_("The server is busy checking passwords. Try again in a moment."))
        self._waiting_hashes += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._threads, function, *args)
        finally:
            self._waiting_hashes -= 1

    async def _verify(self, password_hash: str, password: str, address: str, account: int | None = None) -> bool:
        try:
            return bool(
                await self._hashing(self._hasher.verify, password_hash, password, address=address, account=account)
            )
        except argon2.exceptions.VerificationError:
            return False
        except argon2.exceptions.InvalidHashError:
            return False

    async def hash_secret(self, secret: str, address: str, account: int | None) -> str:
        """An argon2id hash of ``secret`` (a room password, say), computed off the event
        loop, for ``address`` and its player ``account`` (see :meth:`_hashing`)."""
        return await self._hashing(self._hasher.hash, secret, address=address, account=account)

    async def check_secret(self, secret_hash: str, secret: str, address: str, account: int) -> bool:
        """Whether ``secret`` matches ``secret_hash``; a wrong guess counts against ``address``
        exactly like a failed login, and guessing is refused while throttled."""
        async with self._guess(address) as guess:
            guess.wrong = not await self._verify(secret_hash, secret, address, account)
            return not guess.wrong

    @asynccontextmanager
    async def _guess(self, address: str) -> AsyncIterator[Guess]:
        """A guess at a password from ``address`` (see :meth:`LoginThrottle.guess`),
        refused with the reason while the address must wait."""
        try:
            async with self.throttle.guess(address) as guess:
                yield guess
        except Throttled as throttled:
            raise AccountError(self._too_many_failed(throttled.wait)) from None

    def _refuse_if_throttled(self, address: str) -> None:
        wait = self.throttle.wait_time(address)
        if wait > 0:
            raise AccountError(self._too_many_failed(wait))

    def _too_many_failed(self, wait: float) -> str:
        throttle, seconds = self.throttle, int(wait) + 1
        refusal = ngettext(
            "Too many failed logins from your address ({limit} wrong passwords in {window} seconds, room "
            "passwords included). Try again in {n} second.",
            "Too many failed logins from your address ({limit} wrong passwords in {window} seconds, room "
            "passwords included). Try again in {n} seconds.",
            seconds,
        )
        return refusal.format(limit=throttle.limit, window=f"{throttle.window:g}", n=seconds)

    async def create(self, name: str, password: str, address: str) -> AccountRecord:
        """Make a new account; raises :class:`AccountError` with the reason if refused.
        One address makes its players one at a time, and at most
        ``accounts_per_address`` in an hour."""
        self._refuse_if_throttled(address)
        name = normal(name)
        problem = check_name(name) or check_password(password)
        if problem:
            raise AccountError(problem)
        async with self._making.turn(address):
            await self._refuse_if_made_enough(address)
            if await self.store.find(name) is not None:
                raise AccountError(_(NAME_TAKEN).format(name=name))
            like = await self.store.lookalike(name)
            if like is not None:
                raise AccountError(
                    _("The name '{name}' looks too much like {other}'s. Choose another.").format(name=name, other=like)
                )
            password_hash = await self._hashing(self._hasher.hash, password, address=address, account=None)
            try:
                return await self.store.create(name, password_hash, address)
            except NameTaken:
                raise AccountError(_(NAME_TAKEN).format(name=name)) from None

    async def _refuse_if_made_enough(self, address: str) -> None:
        limit = self.accounts_per_address
        if limit is None:
            return
        made = await self.store.made_from(address, datetime.now(UTC) - MAKING_WINDOW)
        if made >= limit:
            refusal = ngettext(
                "{n} player has been made from your address in the last hour, the most there may be. "
                "Connect to it, or try again later.",
                "{n} players have been made from your address in the last hour, the most there may be. "
                "Connect to one of them, or try again later.",
                made,
            )
            raise AccountError(refusal.format(n=made))

    async def authenticate(self, name: str, password: str, address: str) -> AccountRecord:
        """The account if ``password`` is right; otherwise :class:`LoginFailed` (and a
        failure counted against ``address``). A name that is no player's is checked
        against a decoy hash, so that it takes as long to refuse as a wrong password."""
        try:
            async with self._guess(address) as guess:
                account = await self.store.find(name) or await self.store.find_without_marks(name)
                if account is None:
                    await self._verify(self._decoy_hash, password, address)
                    guess.wrong = True
                    self.metrics.login_failed("unknown_name")
                    raise LoginFailed(known=False)
                if not await self._verify(account.password_hash, password, address):
                    guess.wrong = True
                    self.metrics.login_failed("wrong_password")
                    raise LoginFailed(known=True)
        except LoginFailed:
            raise
        except AccountError:
            self.metrics.login_failed("throttled")
            raise
        new_hash = None
        if self._hasher.check_needs_rehash(account.password_hash):
            new_hash = await self._hashing(self._hasher.hash, password, address=address, account=account.id)
        await self.store.record_login(account.id, new_hash)
        return account if new_hash is None else dataclasses.replace(account, password_hash=new_hash)

    async def check_password(self, account_id: int, name: str, password: str, address: str) -> bool:
        """Whether ``password`` is the account's, for a command that asks for it again
        (deleting the account, or calling that off). A wrong one counts against
        ``address`` like a failed login, and guessing is refused while throttled
        (:class:`AccountError`)."""
        async with self._guess(address) as guess:
            account = await self.store.find(name)
            guess.wrong = (
                account is None
                or account.id != account_id
                or not await self._verify(account.password_hash, password, address, account_id)
            )
            return not guess.wrong

    async def change_password(self, account_id: int, name: str, old: str, new: str, address: str) -> str:
        """Replace the password after checking the old one; :class:`AccountError` if
        refused. Returns the new hash."""
        problem = check_password(new)
        if problem:
            raise AccountError(problem)
        if not await self.check_password(account_id, name, old, address):
            raise AccountError(_("That is not your current password; it is unchanged."))
        new_hash = await self._hashing(self._hasher.hash, new, address=address, account=account_id)
        await self.store.set_password_hash(account_id, new_hash)
        return new_hash
