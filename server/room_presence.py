"""Who of a room's people is here, away or watching: the seated players away since when
(what they missed is kept for them, and past a grace period they stop counting in
votes), the spectators, and what the host ruled about them (muted, barred)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from games.base import GameTable
from i18n import Text, stored
from persistence.rooms import Missed, RoomStore, SpectatorRule


class RoomPresence:
    """Mixed into :class:`server.rooms.GameRoom`: its people, present and away."""

    # What it reads of the room.
    id: int
    table: GameTable
    _store: RoomStore

    if TYPE_CHECKING:

        def present(self) -> set[int]: ...

        def everyone(self) -> list[Any]: ...

    def _start_presence(self, spectator_rules: dict[int, SpectatorRule]) -> None:
        #: Since when (``time.monotonic()``) each seated player not here has been seen away.
        self.away_since: dict[int, float] = {}
        #: What the host decided about people who are not seated here (muted: they may
        #: watch but not talk; barred: they may not come back), by account; as stored, and
        #: kept up to date on every node by the "spectator" announcement.
        self.spectator_rules = spectator_rules

    def is_seated(self, account_id: int) -> bool:
        """Whether ``account_id`` plays at this table (:meth:`GameTable.holds_seat`)."""
        return self.table.holds_seat(account_id)

    def spectators(self) -> list[str]:
        """Names of the people here (on any node) who are not seated."""
        return [p.name for p in self.everyone() if not self.is_seated(p.account_id)]

    def muted(self, account_id: int) -> bool:
        """Whether ``account_id`` may not talk here: the host muted them, and they are
        not seated (a seated player always may)."""
        rule = self.spectator_rules.get(account_id)
        return rule is not None and rule.muted and not self.is_seated(account_id)

    def barred(self, account_id: int) -> bool:
        """Whether the host barred ``account_id`` from coming back to watch or sit here."""
        rule = self.spectator_rules.get(account_id)
        return rule is not None and rule.barred

    def rule_for(self, account_id: int, rule: SpectatorRule) -> None:
        """Take in what the host decided about ``account_id`` (neither muted nor barred:
        nothing)."""
        if rule.muted or rule.barred:
            self.spectator_rules[account_id] = rule
        else:
            self.spectator_rules.pop(account_id, None)

    async def went_away(self, account_id: int) -> None:
        """Record that a seated player's last connection went, to tell them later what
        they missed. The away clock starts now: a player back between two of the
        absentee checks is gone again from this drop, not from the one before."""
        self.away_since[account_id] = time.monotonic()
        await self._store.mark_away(self.id, account_id)

    async def came_back(self, account_id: int, last: int, last_said: int) -> Missed:
        """Record that a seated player is back: what they missed (the ``last`` few
        events and ``last_said`` lines said; nothing if they were not noted as away)."""
        self.away_since.pop(account_id, None)
        return await self._store.clear_away(self.id, account_id, last, last_said)

    def away(self) -> set[int]:
        """The people who play here (:meth:`~games.base.GameTable.holds_seat`) and are not
        here, on any node."""
        present, table = self.present(), self.table
        return {
            seat.account_id
            for seat in table.state.seats
            if not seat.bot and seat.account_id not in present and table.holds_seat(seat.account_id)
        }

    def someone_away(self) -> bool:
        """Whether a seated player is not here (on any node): what is said here is then
        kept for them."""
        present = self.present()
        return any(seat.account_id not in present for seat in self.table.state.seats if not seat.bot)

    def remember_talk(self, text: Text, speaker: int | None = None) -> None:
        """Keep ``text``, said here by account ``speaker``, for the seated players who are
        away (those who ignore the speaker will not be shown it, each in their language):
        written a moment later, with the other lines of that moment."""
        self._store.remember_talk(self.id, stored(text), speaker)

    def overdue(self, grace: float) -> tuple[list[int], list[int]]:
        """Who should stop counting in the vote (seated, not here on any node, for
        ``grace`` seconds or more, and not yet marked) and who should count again (marked,
        and here). Notes when each absent player was first seen away."""
        present, now = self.present(), time.monotonic()
        seated = {seat.account_id for seat in self.table.state.seats}
        for account_id in set(self.away_since) - seated:
            del self.away_since[account_id]
        gone, back = [], []
        for seat in self.table.state.seats:
            if seat.bot:
                continue  # a computer player is never away
            if seat.account_id in present:
                self.away_since.pop(seat.account_id, None)
                if seat.absent:
                    back.append(seat.account_id)
            elif seat.out:
                continue  # out of the game: not a voter anyway
            elif not seat.absent and now - self.away_since.setdefault(seat.account_id, now) >= grace:
                gone.append(seat.account_id)
        return gone, back
