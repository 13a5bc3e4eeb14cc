"""Accounts: the rules for names and passwords, hashing, and the throttle on guessing.

Passwords are hashed with argon2id in worker threads, so a login never stalls the
players already connected. The parameters are OWASP's recommended argon2id minimum
(19 MiB, 2 passes, 1 lane): about 30 ms per hash on one core of a small server, which
keeps logins quick under load while making offline guessing expensive. Hashes made with
other parameters are upgraded on the next successful login.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor

import argon2

from persistence.accounts import AccountRecord, AccountStore, NameTaken

NAME_MIN, NAME_MAX = 2, 20
PASSWORD_MIN, PASSWORD_MAX = 4, 128

NAME_RULE = (
    f"A name is {NAME_MIN}-{NAME_MAX} characters: letters, digits, spaces and _ - ' . ; "
    "it starts with a letter and has no double spaces. Put a name with spaces in double "
    'quotes: create "Jo Smith" <password>'
)
_NAME_PATTERN = re.compile(r"[A-Za-z](?:[A-Za-z0-9_'.-]| (?! ))*")
_RESERVED_NAMES = frozenset({"me", "here", "all", "everyone", "nobody", "lobby"})


class AccountError(Exception):
    """A request about an account was refused; the message says why, for the player."""


def check_name(name: str) -> str | None:
    """Why ``name`` is not a valid player name, or None if it is."""
    if not NAME_MIN <= len(name) <= NAME_MAX or not _NAME_PATTERN.fullmatch(name) or name.endswith(" "):
        return NAME_RULE
    if name.casefold() in _RESERVED_NAMES:
        return f"'{name}' is reserved; choose another name."
    return None


def check_password(password: str) -> str | None:
    """Why ``password`` is not acceptable, or None if it is."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        return f"A password is {PASSWORD_MIN}-{PASSWORD_MAX} characters long."
    return None


class LoginThrottle:
    """Counts failed logins per address and refuses more once the limit is reached.

    At most ``limit`` failures are allowed from one address within ``window`` seconds;
    after that, attempts from the address are refused until the oldest failure leaves
    the window.
    """

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._failures: dict[str, deque[float]] = {}

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
        """Seconds before ``address`` may try again (0 if it may now)."""
        now = time.monotonic()
        failures = self._recent(address, now)
        if len(failures) < self.limit:
            return 0.0
        return failures[0] + self.window - now

    def record_failure(self, address: str) -> None:
        """Count one failed attempt from ``address``."""
        now = time.monotonic()
        self._recent(address, now)
        self._failures.setdefault(address, deque()).append(now)


class AccountService:
    """Creating accounts, checking passwords, changing them."""

    def __init__(
        self,
        store: AccountStore,
        throttle: LoginThrottle,
        hashing_threads: int = 2,
        time_cost: int = 2,
        memory_kib: int = 19 * 1024,
    ) -> None:
        self.store = store
        self.throttle = throttle
        self._hasher = argon2.PasswordHasher(
            time_cost=time_cost, memory_cost=memory_kib, parallelism=1, type=argon2.Type.ID
        )
        self._threads = ThreadPoolExecutor(max_workers=hashing_threads, thread_name_prefix="argon2")

    def close(self) -> None:
        """Stop the hashing threads."""
        self._threads.shutdown(wait=False, cancel_futures=True)

    async def _in_thread(self, function, *args):  # type: ignore[no-untyped-def]
        return await asyncio.get_running_loop().run_in_executor(self._threads, function, *args)

    async def _verify(self, password_hash: str, password: str) -> bool:
        try:
            return bool(await self._in_thread(self._hasher.verify, password_hash, password))
        except argon2.exceptions.VerificationError:
            return False
        except argon2.exceptions.InvalidHashError:
            return False

    async def hash_secret(self, secret: str) -> str:
        """An argon2id hash of ``secret`` (a room password, say), computed off the event loop."""
        return await self._in_thread(self._hasher.hash, secret)

    async def check_secret(self, secret_hash: str, secret: str, address: str) -> bool:
        """Whether ``secret`` matches ``secret_hash``; a wrong guess counts against ``address``
        exactly like a failed login, and guessing is refused while throttled."""
        self._refuse_if_throttled(address)
        if await self._verify(secret_hash, secret):
            return True
        self.throttle.record_failure(address)
        return False

    def _refuse_if_throttled(self, address: str) -> None:
        wait = self.throttle.wait_time(address)
        if wait > 0:
            raise AccountError(f"Too many failed logins from your address. Try again in {int(wait) + 1} seconds.")

    async def create(self, name: str, password: str, address: str) -> AccountRecord:
        """Make a new account; raises :class:`AccountError` with the reason if refused."""
        self._refuse_if_throttled(address)
        problem = check_name(name) or check_password(password)
        if problem:
            raise AccountError(problem)
        if await self.store.find(name) is not None:
            raise AccountError(f"The name '{name}' is taken. Choose another, or connect to it.")
        password_hash = await self._in_thread(self._hasher.hash, password)
        try:
            return await self.store.create(name, password_hash)
        except NameTaken:
            raise AccountError(f"The name '{name}' is taken. Choose another, or connect to it.") from None

    async def authenticate(self, name: str, password: str, address: str) -> AccountRecord:
        """The account if ``password`` is right; otherwise :class:`AccountError` (and a
        failure counted against ``address``)."""
        self._refuse_if_throttled(address)
        account = await self.store.find(name)
        if account is None or not await self._verify(account.password_hash, password):
            self.throttle.record_failure(address)
            raise AccountError("Either that player does not exist, or has a different password.")
        new_hash = None
        if self._hasher.check_needs_rehash(account.password_hash):
            new_hash = await self._in_thread(self._hasher.hash, password)
        await self.store.record_login(account.id, new_hash)
        return account

    async def change_password(self, account_id: int, name: str, old: str, new: str, address: str) -> None:
        """Replace the password after checking the old one; :class:`AccountError` if refused."""
        self._refuse_if_throttled(address)
        account = await self.store.find(name)
        if account is None or account.id != account_id or not await self._verify(account.password_hash, old):
            self.throttle.record_failure(address)
            raise AccountError("That is not your current password; it is unchanged.")
        problem = check_password(new)
        if problem:
            raise AccountError(problem)
        await self.store.set_password_hash(account_id, await self._in_thread(self._hasher.hash, new))
