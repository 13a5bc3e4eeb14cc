"""Scripted Dvorak players over real telnet connections, for tests and benchmarks.

A :class:`ScriptedPlayer` frames every command it sends with OUTPUTPREFIX/OUTPUTSUFFIX, so
it can read exactly its own command's reply however busy the room is, and it knows how
to play an ordinary turn: draw, play a Thing and an Action if it has them, discard down
to the hand limit, end the turn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tests.client import MudClient

BEGIN, END = "{{reply}}", "{{end of reply}}"
_FRAME = re.compile(re.escape(BEGIN) + r"\n(.*?)" + re.escape(END) + r"\n", re.DOTALL)
CARD = re.compile(r"#(\d+) (.+?) \((\w[^)]*)\)")
SEAT = re.compile(r"^ (?P<marker>[> ]) (?P<name>\S(?:.*?\S)?) +(?P<count>\d+) cards?", re.MULTILINE)


def flat(text: str) -> str:
    """``text`` with every run of whitespace, line breaks from wrapping included, as one space."""
    return " ".join(text.split())


def loosely(text: str) -> re.Pattern[str]:
    """A pattern for ``text`` that allows any line wrapping between its words."""
    return re.compile(r"\s+".join(re.escape(word) for word in text.split()))


@dataclass
class HeldCard:
    number: int
    name: str
    kind: str

    @property
    def is_action(self) -> bool:
        return self.kind == "Action"


class ScriptedPlayer:
    """One player, driven by a test over its own connection."""

    def __init__(self, client: MudClient, name: str) -> None:
        self.client = client
        self.name = name
        self.acknowledged: list[str] = []

    @classmethod
    async def connect(
        cls, port: int, name: str, password: str = "secret1", create: bool = True, source: str | None = None
    ) -> ScriptedPlayer:
        """Connect and log in as ``name`` (from the local address ``source``, if given)."""
        client = await MudClient.open(port, source=source)
        await client.expect(r'create "Jo Smith" <password>\n=+\n')
        client.send("OUTPUTPREFIX " + BEGIN)
        client.send("OUTPUTSUFFIX " + END)
        player = cls(client, name)
        await player.ask(f"{'create' if create else 'connect'} {name} {password}")
        return player

    async def ask(self, command: str, timeout: float = 10.0) -> str:
        """Send ``command`` and return exactly its reply."""
        self.client.send(command)
        match = await self.client.expect(_FRAME, timeout)
        reply = match.group(1)
        self.acknowledged.append(command)
        return reply

    async def hand(self) -> list[HeldCard]:
        reply = await self.ask("hand")
        return [HeldCard(int(m.group(1)), m.group(2), m.group(3)) for m in CARD.finditer(reply)]

    async def table(self) -> tuple[str | None, dict[str, int]]:
        """Whose turn it is (None if no game is running) and each seat's hand size."""
        reply = await self.ask("look")
        current, counts = None, {}
        for match in SEAT.finditer(reply):
            counts[match.group("name")] = int(match.group("count"))
            if match.group("marker") == ">":
                current = match.group("name")
        return current, counts

    async def play_turn(self, hand_limit: int = 5) -> list[str]:
        """Take an ordinary turn; returns the replies, for the test to inspect."""
        replies = [await self.ask("draw")]
        held = await self.hand()
        for wanted_action in (False, True):
            card = next((c for c in held if c.is_action == wanted_action), None)
            if card is not None:
                replies.append(await self.ask(f"play {card.number}"))
                held.remove(card)
        while len(held) > hand_limit:
            replies.append(await self.ask(f"discard {held.pop().number}"))
        replies.append(await self.ask("endturn"))
        return replies

    async def close(self) -> None:
        await self.client.close()


async def seated_at(port: int, names: list[str], room: str, cards: int = 0) -> list[ScriptedPlayer]:
    """Players seated in a new room, the first its host, with ``cards`` plain Things
    loaded (``Card <i>``, reading ``Plain <i>.``)."""
    players = [await ScriptedPlayer.connect(port, name) for name in names]
    await players[0].ask(f"newroom {room}")
    for i in range(cards):
        await players[0].ask(f"loadcard Card {i}/T/Plain {i}.")
    for player in players[1:]:
        await player.ask(f"join {room}")
    return players
