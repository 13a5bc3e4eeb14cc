"""Session tokens: how a browser whose connection dropped logs in again without its password.

A token names an account, a stamp of its password as it was (:func:`credential_stamp`:
a token made before the password changed is no longer good, on any node), and when it
stops being good, signed with HMAC-SHA256 under the server's secret: any node holding
the same secret (the cluster secret, when nodes share one) takes it, and nothing about it
is stored. It is short-lived: a connection is sent a fresh one while it stays logged in
(see :class:`server.web.WebConnection`), and logging out retracts it on this node. The
browser keeps it in its tab's session storage only.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass

#: Seconds a token is good for.
TOKEN_LIFETIME = 30 * 60
#: Longest token text looked at (a real one is about 130 characters).
MOST_TOKEN_LENGTH = 512


def credential_stamp(password_hash: str) -> str:
    """A short digest of an account's password hash: a token carries the one its account
    had, and is refused once the password has changed (``@password``, ``@newpassword``)."""
    return hashlib.sha256(b"dvorak-credential\0" + password_hash.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Session:
    """Whom a good token logs in, and the stamp of their password when it was made."""

    account_id: int
    name: str
    credential: str


class SessionTokens:
    """Makes and checks session tokens under one secret (random for this process when none
    is given: then a token is good on this node until it restarts)."""

    def __init__(self, secret: str = "", lifetime: float = TOKEN_LIFETIME) -> None:
        self._key = hashlib.sha256(b"dvorak-session\0" + (secret or secrets.token_hex(32)).encode()).digest()
        self.lifetime = lifetime
        #: Tokens retracted here (logged out), until they would have run out anyway.
        self._retracted: dict[str, float] = {}

    def issue(self, account_id: int, name: str, credential: str) -> str:
        """A new token for the account, whose password has the stamp ``credential``."""
        payload = json.dumps(
            {
                "a": account_id,
                "n": name,
                "k": credential,
                "e": int(time.time() + self.lifetime),
                "r": secrets.token_hex(8),
            },
            separators=(",", ":"),
        ).encode()
        return f"{_encode(payload)}.{_encode(self._sign(payload))}"

    def check(self, token: str) -> Session | None:
        """Whom ``token`` logs in, or None if it is not one of ours, has run out or was
        retracted."""
        if len(token) > MOST_TOKEN_LENGTH or token in self._retracted:
            return None
        body, _, signature = token.partition(".")
        try:
            payload = _decode(body)
            if not hmac.compare_digest(_decode(signature), self._sign(payload)):
                return None
            fields = json.loads(payload)
            account_id, name, expires = int(fields["a"]), str(fields["n"]), float(fields["e"])
            credential = str(fields["k"])
        except (ValueError, KeyError, TypeError):
            return None
        if expires < time.time():
            return None
        return Session(account_id, name, credential)

    def retract(self, token: str) -> None:
        """Make ``token`` no longer good here (its player logged out)."""
        now = time.time()
        self._retracted = {kept: until for kept, until in self._retracted.items() if until > now}
        self._retracted[token] = now + self.lifetime

    def _sign(self, payload: bytes) -> bytes:
        return hmac.new(self._key, payload, hashlib.sha256).digest()


def _encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _decode(text: str) -> bytes:
    if not text.isascii():
        raise ValueError("not a token")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
