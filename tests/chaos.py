"""Players who make random moves and remember exactly which ones the server confirmed.

Used to hammer rooms while the server is killed, while its database goes away, or from
many connections at once; afterwards :func:`unconfirmed_in_log` checks every confirmed
move against the room's stored event log.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter

from persistence.rooms import LoggedEvent
from tests.players import ScriptedPlayer

#: What the server says when it has done a move, and the event that records it.
CONFIRMATIONS = {
    "draw": re.compile(r"^You draw #(\d+)", re.MULTILINE),
    "play": re.compile(r"^You play #(\d+)", re.MULTILINE),
    "discard": re.compile(r"^You discard #(\d+)", re.MULTILINE),
    "newcard": re.compile(r"^You propose a new card: #(\d+)", re.MULTILINE),
    "vote": re.compile(r"^You approve #(\d+)", re.MULTILINE),
}
_HAND_CARD = re.compile(r"^  #(\d+) ", re.MULTILINE)


class RandomPlayer:
    """A seated player making random moves at a table with turns off."""

    def __init__(self, name: str, account_id: int, seed: int, player: ScriptedPlayer | None = None) -> None:
        self.name = name
        self.account_id = account_id
        #: The current connection: replaced when the player reconnects after a crash.
        self.player = player
        self.rng = random.Random(seed)
        self.hand: set[int] = set()
        self.pending: set[int] = set()
        #: (event kind, card number) for every move the server confirmed.
        self.confirmed: list[tuple[str, int]] = []
        self.sent = 0

    async def connect(self, port: int) -> None:
        """Log in again (on a new connection) and relearn the hand."""
        self.player = await ScriptedPlayer.connect(port, self.name, create=False)
        await self.refresh_hand()

    async def refresh_hand(self) -> None:
        assert self.player is not None
        reply = await self.player.ask("hand")
        self.hand = {int(n) for n in _HAND_CARD.findall(reply)}

    def _next_command(self) -> str:
        roll = self.rng.random()
        if roll < 0.35 or not self.hand:
            return "draw"
        card = self.rng.choice(sorted(self.hand))
        if roll < 0.6:
            return f"play {card}"
        if roll < 0.75:
            return f"discard {card}"
        if roll < 0.85:
            return f"newcard Idea {self.rng.randrange(10**6)}/{self.rng.choice('AT')}/Made up in the chaos."
        if roll < 0.95 and self.pending:
            return f"approve {self.rng.choice(sorted(self.pending))}"
        return f"say move {self.sent}"

    def _note(self, reply: str) -> None:
        for kind, pattern in CONFIRMATIONS.items():
            for match in pattern.finditer(reply):
                number = int(match.group(1))
                self.confirmed.append((kind, number))
                if kind == "draw":
                    self.hand.add(number)
                elif kind in ("play", "discard"):
                    self.hand.discard(number)
        for number in re.findall(r"Vote with: approve (\d+)", reply):
            self.pending.add(int(number))
        for number in re.findall(r"The vote on #(\d+) .* is decided", reply):
            self.pending.discard(int(number))

    async def play(self, moves: int | None = None) -> None:
        """Make moves until ``moves`` are done or the connection breaks."""
        assert self.player is not None
        done = 0
        while moves is None or done < moves:
            command = self._next_command()
            self.sent += 1
            try:
                reply = await self.player.ask(command, timeout=15)
            except (AssertionError, ConnectionError, OSError):
                return
            self._note(reply)
            done += 1


def unconfirmed_in_log(players: list[RandomPlayer], events: list[LoggedEvent]) -> list[str]:
    """Confirmed moves missing from the log (each confirmation needs its own event)."""
    logged = Counter((logged.event.kind, logged.event.actor, logged.event.data.get("card")) for logged in events)
    missing = []
    for player in players:
        wanted = Counter((kind, player.account_id, card) for kind, card in player.confirmed)
        for key, count in wanted.items():
            if logged[key] < count:
                missing.append(f"{player.name}: {key} confirmed {count}x, logged {logged[key]}x")
    return missing


async def start_all(players: list[RandomPlayer], moves: int | None = None) -> list[asyncio.Task[None]]:
    return [asyncio.create_task(player.play(moves)) for player in players]
