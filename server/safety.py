"""What keeps players safe from each other, for the commands that do it: whom each player
ignores, reports for staff, and players deleting their own accounts (with a cool-off),
as stored; and the accounts deleted so far, whose cards name "a former player".

The commands are in :mod:`commands.safety`; delivery honours what a player ignores in
:mod:`server.hub` (every node filters its own players)."""

from __future__ import annotations

from datetime import timedelta

from persistence.database import Database
from persistence.player_safety import AccountDeletions, IgnoreStore, ReportStore
from persistence.staff_log import StaffLog

#: Most players one player may ignore.
IGNORE_MAX = 100
#: What a deleted player is called where what they made is shown (a card's author).
FORMER_PLAYER = "a former player"


class PlayerSafety:
    """The stores and settings of ignoring, reporting and deleting one's account (one per
    server, a service: ``ctx.services.get(PlayerSafety)``)."""

    def __init__(self, database: Database, delete_cooloff: timedelta) -> None:
        self.ignores = IgnoreStore(database)
        self.reports = ReportStore(database)
        self.deletions = AccountDeletions(database)
        self.staff_log = StaffLog(database)
        #: How long after a player asks for their account to be deleted it is.
        self.delete_cooloff = delete_cooloff
        #: The accounts deleted (read at start, and told of each deletion on any node).
        self.former_players: set[int] = set()

    async def load(self) -> None:
        """Read which accounts are deleted."""
        self.former_players = await self.deletions.deleted_ids()

    def author(self, account_id: int, name: str) -> str:
        """How to name the author of something (a card): ``name``, or "a former player"
        if their account is deleted (its name may be someone else's now)."""
        return FORMER_PLAYER if account_id in self.former_players else name
