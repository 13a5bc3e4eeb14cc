"""Reading and writing player accounts."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Row, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from persistence.database import Database
from persistence.models import Account
from persistence.names import DRAWN_AS_LATIN, folded, normal, plain, without_marks

_accounts = Account.__table__


#: The roles, least to most: moderators keep order, administrators run the server.
ROLES = ("player", "moderator", "admin")


class NameTaken(Exception):
    """An account with that name (in any letter case) already exists."""


@dataclass(frozen=True)
class AccountRecord:
    """One account as stored."""

    id: int
    name: str
    password_hash: str
    created_at: datetime
    last_login_at: datetime | None
    #: ANSI colour: "auto", "on" or "off".
    color: str = "auto"
    #: One of :data:`ROLES`.
    role: str = "player"
    #: Until when they may not speak in public (None: they may), and why.
    muted_until: datetime | None = None
    mute_reason: str = ""
    #: When staff locked the account (None: not locked), and why.
    locked_at: datetime | None = None
    lock_reason: str = ""
    #: When the account will be deleted, as its owner asked (None: it will not).
    delete_after: datetime | None = None
    deleted_at: datetime | None = None
    #: The language the player chose to be written to in (None: none chosen).
    language: str | None = None

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"


def name_key(name: str) -> str:
    """The form of ``name`` that must be unique: composed and case-folded."""
    return folded(name)


#: Glyphs drawn alike in most fonts, before letter case is folded (so a capital I is not
#: taken for the small i it folds to): a capital I (Latin, Greek or Cyrillic), a small l,
#: the digit one and a bar are one upright stroke; the digit zero is an o, five an s,
#: six a b.
_ALIKE_GLYPHS = str.maketrans(
    {"I": "l", "Ι": "l", "І": "l", "Ӏ": "l", "1": "l", "|": "l", "0": "o", "5": "s", "6": "b"}
)
#: Pairs of letters drawn as one letter, or as another pair, once case is folded: rn and
#: m, vv and w, cl and d; an n beside an m is read as another m (Enma, Emma).
_ALIKE_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"), ("nm", "mm"), ("mn", "mm"))


def name_skeleton(name: str) -> str:
    """What ``name`` looks like on a screen, for telling names apart by eye (after
    Unicode TR 39's skeletons): every upright stroke (I, l, 1) one letter, zero an o, five
    an s, six a b, Greek and Cyrillic letters drawn as Latin ones Latin, accents taken off
    (Šárka and Sarka), then case-folded, rn and m one, and so vv and w, cl and d, nm and
    mm, and the punctuation and spaces a name may have left out (Alice., A.lice, Al ice).
    A name of ASCII letters has the skeleton it had before names took other letters."""
    # As TR 39 does: marks off first (Cyrillic ё is then е, drawn as Latin e), then
    # look-alikes made one, then case folded.
    skeleton = without_marks(normal(name)).translate(_ALIKE_GLYPHS).translate(DRAWN_AS_LATIN).casefold()
    for mark in " _'.-":
        skeleton = skeleton.replace(mark, "")
    for pair, alike in _ALIKE_PAIRS:
        skeleton = skeleton.replace(pair, alike)
    return skeleton


def name_readings(name: str) -> set[str]:
    """The skeletons ``name`` may be read as: as drawn, with a digit one read as an i
    (Adm1n), and, since names are the same whatever their case, with a capital I read
    as the small i it is in capitals (AL-ICE) and a small l as such a capital I (ALlCE).
    A new player's name may not be read as another's."""
    return {
        name_skeleton(name),
        name_skeleton(name.replace("1", "i")),
        name_skeleton(name.casefold()),
        name_skeleton(name.replace("l", "I").casefold()),
    }


def _now() -> datetime:
    return datetime.now(UTC)


class AccountStore:
    """Accounts in the database."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def find(self, name: str) -> AccountRecord | None:
        """The account called ``name`` in any letter case, or None."""
        async with self._database.snapshot() as connection:
            row = (await connection.execute(select(_accounts).where(_accounts.c.name_key == name_key(name)))).first()
        return _record(row) if row is not None else None

    async def find_without_marks(self, name: str) -> AccountRecord | None:
        """The one player (not deleted) whose name is ``name`` once both have their
        accents taken off (``Sarka`` for ``Šárka``), or None if none is, or several."""
        # Typed in small letters, a name is looked for as it is usually written too
        # (``ivan`` as ``Ivan``: a capital I is drawn as an l).
        readings = sorted(name_readings(name) | name_readings(name.title()))
        async with self._database.snapshot() as connection:
            rows = (
                await connection.execute(
                    select(_accounts).where(_accounts.c.name_skeleton.in_(readings), _accounts.c.deleted_at.is_(None))
                )
            ).all()
        found = [row for row in rows if plain(row.name) == plain(name)]
        return _record(found[0]) if len(found) == 1 else None

    async def lookalike(self, name: str) -> str | None:
        """The name of a player (not deleted) whose name ``name`` may be read as (see
        :func:`name_readings`) without being it in another letter case, or None."""
        async with self._database.snapshot() as connection:
            row = (
                await connection.execute(
                    select(_accounts.c.name)
                    .where(
                        _accounts.c.name_skeleton.in_(sorted(name_readings(name))),
                        _accounts.c.name_key != name_key(name),
                        _accounts.c.deleted_at.is_(None),
                    )
                    # The name it looks most like first: the one drawn the same.
                    .order_by(_accounts.c.name_skeleton != name_skeleton(name), _accounts.c.id)
                    .limit(1)
                )
            ).first()
        return row.name if row is not None else None

    async def create(self, name: str, password_hash: str, address: str | None = None) -> AccountRecord:
        """Store a new account, made from ``address``; raises :class:`NameTaken` if the
        name is in use."""
        created = _now()
        try:
            async with self._database.transaction() as connection:
                result = await connection.execute(
                    insert(_accounts)
                    .values(
                        name=name,
                        name_key=name_key(name),
                        name_skeleton=name_skeleton(name),
                        password_hash=password_hash,
                        is_admin=False,
                        created_at=created,
                        last_login_at=created,
                        color="auto",
                        created_address=address,
                    )
                    .returning(_accounts.c.id)
                )
                account_id = result.scalar_one()
        except IntegrityError:
            raise NameTaken(name) from None
        return AccountRecord(account_id, name, password_hash, created, created, "auto")

    async def made_from(self, address: str, since: datetime) -> int:
        """How many accounts were made from ``address`` since ``since``."""
        async with self._database.snapshot() as connection:
            return int(
                await connection.scalar(
                    select(func.count()).where(_accounts.c.created_address == address, _accounts.c.created_at > since)
                )
                or 0
            )

    async def record_login(self, account_id: int, password_hash: str | None = None) -> None:
        """Note a successful login, replacing the stored hash when ``password_hash`` is given."""
        values: dict[str, object] = {"last_login_at": _now()}
        if password_hash is not None:
            values["password_hash"] = password_hash
        async with self._database.transaction() as connection:
            await connection.execute(update(_accounts).where(_accounts.c.id == account_id).values(**values))

    async def set_color(self, account_id: int, color: str) -> None:
        """Store the account's colour choice: "auto", "on" or "off"."""
        async with self._database.transaction() as connection:
            await connection.execute(update(_accounts).where(_accounts.c.id == account_id).values(color=color))

    async def set_language(self, account_id: int, language: str | None) -> None:
        """Store the language the player chose (None: none)."""
        async with self._database.transaction() as connection:
            await connection.execute(update(_accounts).where(_accounts.c.id == account_id).values(language=language))

    async def set_role(self, name: str, role: str) -> AccountRecord | None:
        """Give the account called ``name`` the role ``role`` (one of :data:`ROLES`);
        returns it as it was before, or None if there is no such account."""
        if role not in ROLES:
            raise ValueError(f"no role {role!r}")
        async with self._database.transaction() as connection:
            row = (await connection.execute(select(_accounts).where(_accounts.c.name_key == name_key(name)))).first()
            if row is None:
                return None
            await connection.execute(
                update(_accounts).where(_accounts.c.id == row.id).values(role=role, is_admin=role == "admin")
            )
        return _record(row)

    async def set_password_hash(self, account_id: int, password_hash: str) -> None:
        """Replace an account's password hash."""
        async with self._database.transaction() as connection:
            await connection.execute(
                update(_accounts).where(_accounts.c.id == account_id).values(password_hash=password_hash)
            )


def _record(row: Row[Any]) -> AccountRecord:
    """The account as stored: each field of :class:`AccountRecord` is the column of its name."""
    mapping = row._mapping
    return AccountRecord(**{field.name: mapping[field.name] for field in dataclasses.fields(AccountRecord)})
