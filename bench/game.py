"""The game scenario: rooms of five players taking turns, every move committed.

In each room the player whose turn it is draws, plays a Thing and an Action when they
hold them, destroys a Thing of theirs now and then (so the deck keeps turning), discards
down to the hand limit and ends the turn; every twentieth turn they propose a card and
the other four approve it, all four at once, unpaced. The others look around and chat now
and then. Moves are paced so that all rooms together are offered ``rate`` moves a second.

Each room counts its turns from a place of its own in that cycle of twenty, as tables
that sat down at different times would: rooms that all began at turn 0 would all
propose within the same few seconds, 200 rooms' thousand votes on top of the paced
moves, an offered load a third above ``rate`` while it lasts. Some seats of each room
may be WebSocket players (:class:`bench.loadgen.WebBenchClient`), playing just as the
telnet ones do. (The scenario mixes Gnav rooms in besides: see ``bench.gnavroom``.)
"""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import dataclass, field

from bench.loadgen import BenchClient, Counters, Latencies, WebBenchClient

CARD = re.compile(r"#(\d+) \S+ \d+ \((Thing|Action)\)")
CONFIRMED = re.compile(r"^You (draw|play|discard|destroy|propose|approve|end the turn)", re.MULTILINE)
NEXT = re.compile(r"It is now (?:(your) turn|(\S+)'s turn)")
FIRST = re.compile(r"(\S+) goes? first")
DECK_SIZE = 40
HAND_LIMIT = 5
#: A room proposes a card every this many turns.
PROPOSAL_EVERY = 20


@dataclass
class Seat:
    name: str
    client: BenchClient | WebBenchClient
    hand: dict[int, str] = field(default_factory=dict)
    things: list[int] = field(default_factory=list)
    #: One command at a time per connection: the turn's moves and idle chatter take turns.
    busy: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def ask(self, command: str) -> str:
        async with self.busy:
            return await self.client.ask(command)


@dataclass
class Room:
    name: str
    seats: list[Seat]
    current: int = 0
    turns: int = 0


def note_cards(seat: Seat, reply: str) -> None:
    for number, kind in CARD.findall(reply):
        seat.hand[int(number)] = kind


async def set_up_room(
    index: int,
    port: int,
    latencies: Latencies,
    password: str,
    create: bool,
    web_port: int = 0,
    web_seats: int = 0,
    gmcp_seats: int = 0,
) -> Room:
    """A room of five logged-in players with a game started; the last ``web_seats`` of
    them over WebSockets to ``web_port``, the first ``gmcp_seats`` on telnet with GMCP."""
    name = f"Bench {index}"
    seats = []
    for seat_number in range(5):
        client: BenchClient | WebBenchClient
        if seat_number >= 5 - web_seats:
            client = await WebBenchClient.open(web_port, latencies)
        else:
            client = await BenchClient.open(port, latencies, gmcp=seat_number < gmcp_seats)
        player = f"R{index}P{seat_number}"
        reply = await client.ask(f"{'create' if create else 'connect'} {player} {password}")
        if "Players here" not in reply and "Seats, in turn order" not in reply:
            raise RuntimeError(f"{player} could not log in: {reply!r}")
        seats.append(Seat(player, client))
    host = seats[0].client
    await host.ask(f"newroom {name}")
    for i in range(DECK_SIZE):
        await host.ask(f"loadcard C{i} {i}/{'AT'[i % 2]}/x")
    for seat in seats[1:]:
        await seat.client.ask(f"join {name}")
    reply = await host.ask("start")
    first = FIRST.search(reply)
    room = Room(name, seats)
    starter = first.group(1) if first else seats[0].name
    room.current = 0 if starter == "You" else next(i for i, s in enumerate(seats) if s.name == starter)
    for seat in seats:
        note_cards(seat, await seat.client.ask("hand"))
    return room


class Pacer:
    """Hands out send times ``interval`` apart (with jitter), never letting a late room
    bunch up its backlog."""

    def __init__(self, interval: float, rng: random.Random) -> None:
        self.interval = interval
        self.rng = rng
        self.next_at = asyncio.get_running_loop().time() + rng.uniform(0, interval)

    async def wait(self) -> None:
        loop = asyncio.get_running_loop()
        delay = self.next_at - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        self.next_at = max(self.next_at, loop.time() - self.interval) + self.interval * self.rng.uniform(0.5, 1.5)


async def ask_move(seat: Seat, command: str, counters: Counters) -> str:
    reply = await seat.ask(command)
    counters.commands += 1
    confirmed = CONFIRMED.search(reply)
    if confirmed:
        counters.moves += 1
        counters.approvals += confirmed.group(1) == "approve"
    return reply


async def play_room(room: Room, interval: float, stop: asyncio.Event, counters: Counters, rng: random.Random) -> None:
    """The turns of one room, until ``stop``; its first proposal comes at a turn drawn
    from ``rng`` (see the module's documentation)."""
    pacer = Pacer(interval, rng)
    room.turns = rng.randrange(PROPOSAL_EVERY)
    while not stop.is_set():
        seat = room.seats[room.current]
        await pacer.wait()
        reply = await ask_move(seat, "draw", counters)
        note_cards(seat, reply)
        for wanted in ("Thing", "Action"):
            card = next((n for n, kind in seat.hand.items() if kind == wanted), None)
            if card is not None:
                await pacer.wait()
                if "You play" in await ask_move(seat, f"play {card}", counters):
                    del seat.hand[card]
                    if wanted == "Thing":
                        seat.things.append(card)
        if len(seat.things) >= 3:
            await pacer.wait()
            await ask_move(seat, f"destroy {seat.things.pop(0)}", counters)
        while len(seat.hand) > HAND_LIMIT:
            card = next(iter(seat.hand))
            await pacer.wait()
            await ask_move(seat, f"discard {card}", counters)
            del seat.hand[card]
        room.turns += 1
        if room.turns % PROPOSAL_EVERY == 0:
            await pacer.wait()
            proposal = await ask_move(seat, f"newcard Idea {room.turns}/T/Voted in by the bench.", counters)
            number = re.search(r"approve (\d+)", proposal)
            if number:
                others = [s for s in room.seats if s is not seat]
                await asyncio.gather(*(ask_move(o, f"approve {number.group(1)}", counters) for o in others))
        await pacer.wait()
        reply = await ask_move(seat, "endturn", counters)
        following = NEXT.search(reply)
        if following is None:
            continue  # refused (say, too many cards): try the turn again
        name = following.group(2)
        room.current = next((i for i, s in enumerate(room.seats) if s.name == name), (room.current + 1) % 5)


async def bystander(seat: Seat, stop: asyncio.Event, counters: Counters, rng: random.Random, every: float) -> None:
    """A player waiting for their turn: looks at the table, says something."""
    while not stop.is_set():
        await asyncio.sleep(rng.expovariate(1 / every))
        if stop.is_set():
            break
        await seat.ask("look" if rng.random() < 0.5 else f"say waiting {rng.randrange(1000)}")
        counters.commands += 1
