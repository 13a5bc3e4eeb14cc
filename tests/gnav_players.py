"""People at a Gnav table over real connections, for the end-to-end tests: each follows
their transcript for their turns; a secrecy oracle reads what each viewer was sent
against what the visibility policy let them see, deal by deal."""

from __future__ import annotations

import asyncio
import json
import random
import re
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from games.base import PRIVATE, Event
from games.gnav import KIND, cards
from persistence.database import Database
from persistence.rooms import LoggedEvent, RoomStore
from server.audit import check_rooms, replay_rooms
from tests.client import DO, MudClient, iac
from tests.conftest import WELCOME_END
from tests.players import BEGIN, END, ScriptedPlayer

GMCP = 201
#: ``dvorak-mush`` with the next deal 0.05 s after a settlement instead of 3 s.
QUICK_DEALS_PROGRAM = [
    sys.executable,
    "-c",
    "import sys; import games.gnav.rules as rules; rules.DEAL_PAUSE = 0.05; "
    "from server.cli import main; sys.exit(main())",
]

#: A turn of the reader's, or the match's end, as the reader is told it.
#: (Lines are wrapped to the reader's width: any space may be a line break.)
TURN = r"It\s+is\s+your\s+turn:\s+keep\s+or\s+swap\."
MATCH_END = r"\bwins?\s+the\s+match!|The\s+match\s+is\s+a\s+draw"
TURN_OR_END = re.compile(rf"(?P<turn>{TURN})|(?P<end>{MATCH_END})", re.MULTILINE)
DEAL_LINE = re.compile(r"^Deal (\d+):\s+(\S+)\s+deals?;", re.MULTILINE)
#: What a move refused for being out of turn or out of date says.
OUT_OF_TURN = ("not yours", "out of date", "This deal is over")


class Human:
    """A person seated (or watching) over one connection; ``mark`` is how far their
    transcript has been read for turns."""

    def __init__(self, player: ScriptedPlayer) -> None:
        self.player = player
        self.mark = 0

    @property
    def name(self) -> str:
        return self.player.name

    @property
    def client(self) -> MudClient:
        return self.player.client

    async def ask(self, command: str) -> str:
        return await self.player.ask(command)

    def read_all(self) -> None:
        """Look for turns only in what arrives from now on."""
        self.mark = len(self.client.transcript)

    async def until(self, pattern: str, timeout: float = 20.0) -> re.Match[str]:
        """Wait for ``pattern`` past the mark; the mark moves past it."""
        match = await self.client.wait_for(pattern, self.mark, timeout)
        self.mark = match.end()
        return match

    def deal(self) -> tuple[int, bool]:
        """The deal this person last saw dealt (before the mark), and whether they deal it."""
        deals = list(DEAL_LINE.finditer(self.client.transcript, 0, self.mark))
        if not deals:
            return 0, False
        return int(deals[-1].group(1)), deals[-1].group(2) == "you"

    async def close(self) -> None:
        await self.player.close()


async def connect(port: int, name: str, create: bool = True, gmcp: bool = False) -> Human:
    """``name`` logged in over a new connection (asking for GMCP if ``gmcp``); the reply
    to logging in is in the transcript."""
    client = await MudClient.open(port)
    await client.expect(WELCOME_END)
    if gmcp:
        client.send(iac(DO, GMCP))
    client.send("OUTPUTPREFIX " + BEGIN)
    client.send("OUTPUTSUFFIX " + END)
    player = ScriptedPlayer(client, name)
    await player.ask(f"{'create' if create else 'connect'} {name} secret1")
    human = Human(player)
    human.read_all()
    return human


async def next_turn(humans: list[Human], timeout: float = 30.0) -> tuple[Human, re.Match[str]]:
    """The first of ``humans`` told of a turn of theirs (or of the match's end) past their mark."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        for human in humans:
            match = TURN_OR_END.search(human.client.transcript, human.mark)
            if match is not None:
                human.mark = match.end()
                return human, match
        assert loop.time() < deadline, f"no turn within {timeout}s: " + " / ".join(
            h.client.transcript[-800:] for h in humans
        )
        await asyncio.gather(*(human.client.quiet(0.05) for human in humans))


async def play(
    humans: list[Human],
    rng: random.Random,
    stop: Callable[[Human], bool | Awaitable[bool]] | None = None,
    swap_share: float = 0.5,
    after_move: Callable[[Human], Any] | None = None,
) -> Human | None:
    """The humans keep or swap on their turns until the match ends (None) or ``stop``
    (a function or a coroutine function) says so of the one whose turn it is (returned,
    their turn untaken)."""
    while True:
        human, match = await next_turn(humans)
        if match.group("end"):
            return None
        if stop is not None:
            stopping = stop(human)
            if stopping if isinstance(stopping, bool) else await stopping:
                return human
        reply = await human.ask("swap" if rng.random() < swap_share else "keep")
        assert not any(words in reply for words in OUT_OF_TURN), f"{human.name}'s move was refused: {reply}"
        if after_move is not None:
            await after_move(human)


async def audit(database: Database) -> list[str]:
    """What check and replay find wrong with the stored rooms (nothing, if sound)."""
    reports = await check_rooms(database) + await replay_rooms(database)
    return [f"{report.name}: {problem}" for report in reports for problem in report.problems]


async def stored_log(database_url: str, room: str) -> list[LoggedEvent]:
    database = Database(database_url)
    try:
        store = RoomStore(database)
        room_id = await store.find_id(room)
        assert room_id is not None
        return await store.events(room_id)
    finally:
        await database.dispose()


# -- the secrecy oracle ----------------------------------------------------------------

#: Each card's names as a player reads them (English, and Norwegian in look), by key.
CARD_NAMES: dict[str, set[str]] = {rank.key: {rank.english, rank.norwegian} for rank in cards.RANKS}
_ALL_NAMES = sorted({name for names in CARD_NAMES.values() for name in names}, key=len, reverse=True)
_ANY_CARD = re.compile(r"(?<![\w'])(" + "|".join(map(re.escape, _ALL_NAMES)) + r")(?![\w'])")
#: Counts of lives read like the card 0 ("(0 lives left)", "0 lives"): not card names.
_LIVES = re.compile(r"\b\d+\s+li(?:fe|ves)\b")
SEGMENT = re.compile(r"^Deal (\d+): .*?(?=^Cards: |^Deal \d+: |\Z)", re.MULTILINE | re.DOTALL)


def card_keys(value: Any) -> set[str]:
    """Every card key anywhere in ``value`` (an event's data as some viewer is shown it)."""
    if isinstance(value, str):
        return {value} if value in cards.BY_KEY else set()
    if isinstance(value, dict):
        return set().union(*(card_keys(item) for item in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(card_keys(item) for item in value)) if value else set()
    return set()


@dataclass
class Deal:
    """One deal's events, up to its settlement (which shows every card)."""

    number: int
    events: list[Event] = field(default_factory=list)


def deals_in(log: list[LoggedEvent]) -> dict[int, Deal]:
    """Each deal's events from its dealing up to (not including) its settlement."""
    deals: dict[int, Deal] = {}
    current: Deal | None = None
    for logged in log:
        event = logged.event
        if event.kind == "deal":
            current = deals.setdefault(event.data["deal"], Deal(event.data["deal"]))
        if event.kind in ("settle", "win", "draw"):
            current = None
        if current is not None:
            current.events.append(event)
    return deals


def shown_keys(event: Event, viewer: int) -> set[str]:
    """The cards an event may show ``viewer``, read from its data independently of the
    policy's code: its public fields, and the private fields kept for the viewer."""
    data = event.data
    keys = card_keys({key: value for key, value in data.items() if key != PRIVATE})
    if event.kind == "deal" and data["fools"]:
        keys.add(cards.FOOL)  # a Fool dealt is shown (its holders are listed)
    for holder, secret in data.get(PRIVATE, ()):
        if holder == viewer:
            keys |= card_keys(secret)
    return keys


def allowed_names(deal: Deal, viewer: int) -> set[str]:
    """The names of every card ``viewer`` may have been shown at any moment of ``deal``
    before its settlement: the public ones and the viewer's own secrets."""
    keys = set().union(*(shown_keys(event, viewer) for event in deal.events))
    return {name for key in keys for name in CARD_NAMES[key]}


def policy_leaks(log: list[LoggedEvent], state: Any, viewer: int) -> list[str]:
    """Events of which the visibility policy (``KIND.event_for``) gives ``viewer`` a card
    the event's data keeps for others."""
    found = []
    for logged in log:
        extra = card_keys(KIND.event_for(state, logged.event, viewer)) - shown_keys(logged.event, viewer)
        if extra:
            found.append(f"event {logged.seq} ({logged.event.kind}): {sorted(extra)}")
    return found


def leaks(transcript: str, log: list[LoggedEvent], viewer: int) -> list[str]:
    """Cards named to ``viewer`` during a deal (between its dealing and its settlement)
    that the visibility policy never showed them in that deal. Empty: no leak."""
    deals = deals_in(log)
    found = []
    for segment in SEGMENT.finditer(transcript):
        deal = deals.get(int(segment.group(1)))
        assert deal is not None, f"the transcript tells of deal {segment.group(1)}, the log does not"
        allowed = allowed_names(deal, viewer)
        for word in _ANY_CARD.findall(_LIVES.sub("", segment.group(0))):
            if word not in allowed:
                found.append(f"deal {deal.number}: {word!r} (shown: {sorted(allowed)})")
    return found


def gmcp_tables(client: MudClient) -> list[dict[str, Any]]:
    """Every ``Gnav.Table`` GMCP message the client received."""
    tables = []
    for raw in client.subnegotiations:
        if raw[:1] == bytes([GMCP]):
            package, _, data = raw[1:].decode("utf-8").partition(" ")
            if package == "Gnav.Table" and data.strip():
                tables.append(json.loads(data))
    return tables


def gmcp_leaks(client: MudClient, log: list[LoggedEvent], viewer: int) -> list[str]:
    """Cards in the ``Gnav.Table`` messages for ``viewer`` that the policy did not show
    them in that message's deal, and any seat carrying a card."""
    deals = deals_in(log)
    found = []
    for table in gmcp_tables(client):
        if any(set(seat) & {"card", "cards", "hand"} for seat in table.get("seats", [])):
            found.append(f"a seat's card in {table}")
        deal = deals.get(table.get("deal", 0))
        if deal is None or table.get("phase") != "playing":
            continue
        allowed = allowed_names(deal, viewer)
        named = [table["card"]] if table.get("card") else []
        named += [shown["card"] for shown in table.get("revealed", [])]
        found += [f"deal {deal.number}: {name!r} in Gnav.Table" for name in named if name not in allowed]
    return found
