"""What every game kind shares: events, changes, rule violations, seats, and the contract
a game kind keeps with the room engine.

A room holds one *table* of its game: a :class:`GameTable`, whose ``state`` changes only
by *deltas* (small JSON-ready lists such as ``["move", 12, "hand", 7, -1]``). A move
checks the rules, raises :class:`RuleViolation` (changing nothing) or applies deltas and
records :class:`Event` s; the room stores the events and their deltas in one transaction
and then announces them. Replaying a room's log applies the same deltas to a new table
and must rebuild the stored state exactly.

Who may see what is the game's **visibility policy** (:meth:`GameKind.event_for` and
the views of its tables): renderers, structured views, computer players and the tests'
secrecy oracle all ask it, and nothing else decides it.

Nothing here imports from the server, the commands or the database.
"""

from __future__ import annotations

import copy
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Protocol

import orjson

from i18n import _

Delta = list[Any]

#: The id of nobody: no host yet, no owner, no player to act.
NOBODY = 0

WAITING, PLAYING, OVER = "waiting", "playing", "over"


class RuleViolation(Exception):
    """The move is against the rules or the facts of the table; nothing changed."""


@dataclass
class Event:
    """Something that happened at a table: what, who did it, and the changes it made.

    ``data`` says what happened in full, secrets included; what each viewer is shown of
    it is for the game's visibility policy to say (:meth:`GameKind.event_for`). The event
    that ends a game has its outcome, a sentence, as ``data["result"]``: it is stored
    among the game results."""

    kind: str
    actor: int
    #: The actor's name when it happened (they may leave the table later).
    actor_name: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    deltas: list[Delta] = field(default_factory=list)
    forced: bool = False

    def as_dict(self) -> dict[str, Any]:
        """The event as JSON-ready data, the one form it is stored, digested and sent to
        the other nodes in (:meth:`from_dict` reads it back)."""
        return {
            "kind": self.kind,
            "actor": self.actor,
            "actor_name": self.actor_name,
            "data": self.data,
            "deltas": self.deltas,
            "forced": self.forced,
        }

    @classmethod
    def from_dict(cls, value: dict[str, Any]) -> Event:
        """The event :meth:`as_dict` made ``value`` of."""
        return cls(value["kind"], value["actor"], value["actor_name"], value["data"], value["deltas"], value["forced"])


@dataclass
class Changes:
    """What a move did: its events, how to undo it, and (for a game that keeps tables of
    its own) which of its stored rows it touched or made."""

    events: list[Event]
    undo: list[Delta]
    touched: set[int] = field(default_factory=set)
    created: set[int] = field(default_factory=set)
    #: Whether who is seated, or how (name, team, out, absent), changed: the seat rows
    #: are rewritten.
    seats_changed: bool = False


def merged_changes(each: list[Changes]) -> Changes:
    """Several moves' changes, made one after the other on one table, as one move's."""
    if len(each) == 1:
        return each[0]
    return Changes(
        [event for changes in each for event in changes.events],
        [delta for changes in each for delta in changes.undo],
        set().union(*(changes.touched for changes in each)),
        set().union(*(changes.created for changes in each)),
        any(changes.seats_changed for changes in each),
    )


@dataclass
class Seat:
    """A player at a table, in turn order: what the room engine reads of a seat, and what
    the seat rows keep. A seat's id is its player's account id, or, for a computer
    player, a negative number of the table's own. A game may add fields of its own."""

    account_id: int
    name: str
    team: str = ""
    #: Out of the game: still at the table, but no longer playing.
    out: bool = False
    #: Away longer than the grace period (games that count presence, like votes).
    absent: bool = False
    #: A computer player's level ("" for a person).
    bot: str = ""


class GameState(Protocol):
    """What the room engine reads of a table's state, whatever the game."""

    phase: str
    host: int
    seats: Any
    settings: dict[str, Any]
    #: How the last game ended ("" if none has).
    result: str

    def seat(self, account_id: int) -> Seat | None: ...

    def apply(self, delta: Delta) -> set[int]: ...

    def inverse(self, delta: Delta) -> list[Delta]: ...


@dataclass(frozen=True)
class Due:
    """A move a table wants made by itself after ``delay`` seconds, unless something
    else happens first: a computer player's turn, a person's turn timer running out, the
    next deal. ``actor`` is the seat it is made for; ``move`` makes it (and refuses, as
    any move, if the table has moved on)."""

    delay: float
    actor: int
    move: Callable[[Any], Any]
    #: What it is, for the logs: ``bot``, ``timer``, ``deal``.
    reason: str
    #: The point of the game it is timed from (a game's step): while the table asks for
    #: the same move from the same point, it keeps the time it was given, whatever else
    #: is logged meanwhile (a setting changed mid-turn counts from the next turn). None:
    #: timed afresh after every event of the room.
    since: Any = None


class GameTable(ABC):
    """A table of some game: its state, and the bookkeeping every move shares (its
    events, undo deltas and touched rows). Each game's table subclasses it with its
    moves, among them the seat moves every room uses."""

    def __init__(self, state: Any, rng: random.Random | None = None) -> None:
        self.state = state
        self.rng = rng or random.SystemRandom()
        self._events: list[Event] = []
        self._touched: set[int] = set()
        self._created: set[int] = set()
        self._undo: list[Delta] = []
        #: The seats as they were before the first change since the last take_changes.
        self._seats_before: list[tuple[Any, ...]] | None = None

    @property
    def has_changes(self) -> bool:
        """Whether a move has made events since the last :meth:`take_changes`."""
        return bool(self._events)

    def take_changes(self) -> Changes:
        """Hand over (and forget) the events and touched rows since the last call."""
        seats_changed = self._seats_before is not None and self._seats_before != self._seat_rows()
        changes = Changes(self._events, self._undo, self._touched, self._created, seats_changed)
        self._events, self._touched, self._created, self._undo = [], set(), set(), []
        self._seats_before = None
        return changes

    def _seat_rows(self) -> list[tuple[Any, ...]]:
        return [(seat.account_id, seat.name, seat.team, seat.out, seat.absent, seat.bot) for seat in self.state.seats]

    def undo(self, changes: Changes) -> None:
        """Put the table back as it was before ``changes`` (which were not stored)."""
        for delta in reversed(changes.undo):
            self.state.apply(delta)

    def name_of(self, account_id: int) -> str:
        seat = self.state.seat(account_id)
        return seat.name if seat else _("someone")

    def only_the_host(self) -> str:
        """The refusal of a host's move to anyone else, naming the host when one is seated."""
        seat = self.state.seat(self.state.host)
        return (
            _("Only the host ({name}) can do that.").format(name=seat.name) if seat else _("Only the host can do that.")
        )

    def _host(self, actor: int) -> None:
        """Refuse unless ``actor`` is the host."""
        if actor != self.state.host:
            raise RuleViolation(self.only_the_host())

    @abstractmethod
    def sit(self, account_id: int, name: str) -> None:
        """Seat the player ``account_id`` (called ``name``) at the table."""

    def seat_refusal(self, account_id: int, name: str) -> str | None:
        """Why the player ``account_id`` (called ``name``) may not sit down now, in a
        sentence for them (None: they may, as far as the game goes). Asked before they are moved to the
        room, so that a refused ``join`` changes nothing; :meth:`sit` refuses the same."""
        return None

    @abstractmethod
    def unseat(self, actor: int, account_id: int) -> None:
        """``account_id`` leaves the table (``actor`` is they, or the host removing them)."""

    @abstractmethod
    def set_host(self, actor: int, account_id: int) -> None:
        """The host ``actor`` hands the table over to the seated player ``account_id``."""

    def holds_seat(self, account_id: int) -> bool:
        """Whether ``account_id`` plays at this table: has a seat they may sit in and come
        back to (by default, any seat; Gnav keeps the seat of one who forfeited the match
        being played until it ends, and that one does not count)."""
        return self.state.seat(account_id) is not None

    def waiting_for(self) -> list[int]:
        """The seats the table waits for now, in turn order: whose turn or move it is
        (none by default)."""
        return []

    def due(self) -> Due | None:
        """The move this table wants made by itself next, if any (none by default)."""
        return None

    def settle(self) -> None:  # noqa: B027 - a hook most games leave empty
        """Make what the rules say follows from any move, once it is made (Dvorak: out
        of cards, out of the game). Called after every move that changed the table, as
        part of it; by default nothing follows."""

    def mark_absent(self, account_id: int, absent: bool) -> None:  # noqa: B027 - a hook most games leave empty
        """Note that a seated player is away past the grace period (or back). Only games
        that count presence (Dvorak's votes) keep it; others ignore it."""

    def _event(self, kind: str, actor: int, forced: bool = False, **data: Any) -> Event:
        actor_name = data.get("name") if kind == "join" else self.name_of(actor)
        event = Event(kind, actor, actor_name or "", data, [], forced)
        self._events.append(event)
        return event

    def _change(self, event: Event, delta: Delta) -> None:
        if self._seats_before is None:
            self._seats_before = self._seat_rows()
        self._undo.extend(reversed(self.state.inverse(delta)))
        self._touched |= self.state.apply(delta)
        event.deltas.append(delta)


class GameKind(ABC):
    """One game a room can hold: how to make and rebuild its tables, what each viewer may
    see, and how its stored state is checked. Registered in :mod:`games` by ``name``."""

    #: The room's ``game``: ``dvorak``, ``gnav``.
    name: ClassVar[str]
    #: One line for the ``games`` list.
    title: ClassVar[str]
    #: The module that keeps the game's own tables in the database (a projection of its
    #: state), by its dotted name: it holds ``PROJECTION`` (see ``persistence.rooms``).
    #: "": the game keeps none, and its state is stored as one snapshot.
    projection: ClassVar[str] = ""

    @property
    def own_tables(self) -> bool:
        """Whether the game keeps tables of its own (:attr:`projection`)."""
        return bool(self.projection)

    def settings(self) -> Mapping[str, Any]:
        """What a host may set at the game's tables (:class:`games.toolkit.Setting`, by
        name, in the order ``set`` lists them); none by default."""
        return {}

    @abstractmethod
    def new_state(self) -> Any:
        """The state of a new, empty table with the default settings."""

    def new_room_state(self) -> Any:
        """The state a new room is stored with. A game whose new rooms are opened with
        settings other than those its event logs start from (:meth:`new_state`) keeps in
        the state what they were opened with, for :meth:`replay_start`."""
        return self.new_state()

    def replay_start(self, stored: Any) -> Any:
        """The state from which replaying the event log of the room now stored as
        ``stored`` begins: the state the room was opened with (by default, as
        :meth:`new_state`)."""
        return self.new_state()

    @abstractmethod
    def table(self, state: Any, **options: Any) -> GameTable:
        """A table around ``state``. ``options`` are the server's limits, the same for
        every game (``card_limit``: the cards and rules a room may hold); a game reads
        those it has and ignores the rest."""

    @abstractmethod
    def snapshot(self, state: Any) -> dict[str, Any]:
        """The part of ``state`` stored as one JSON snapshot on the room's row (for a game
        with tables of its own, what those tables do not hold). Seats are stored as rows."""

    @abstractmethod
    def restore(
        self, phase: str, host: int, settings: dict[str, Any], seats: list[dict[str, Any]], snapshot: dict[str, Any]
    ) -> Any:
        """A state from what the room's row and seat rows hold (a game with tables of its
        own then adds what they hold)."""

    @abstractmethod
    def problems(self, state: Any) -> list[str]:
        """What is wrong with ``state`` by the game's invariants (nothing: sound)."""

    @abstractmethod
    def differences(self, replayed: Any, stored: Any) -> list[str]:
        """How two states differ, field by field (nothing: the same)."""

    @abstractmethod
    def event_for(self, state: Any, event: Event, viewer: int) -> dict[str, Any] | None:
        """The game's visibility policy for events: what ``viewer`` (a seat's id, or any
        other account id: a spectator) may be shown of ``event``'s data, with every
        secret they may not know taken out; None if they are shown nothing of it."""

    # -- what the conformance tests (tests/conformance.py) play and check every kind by --

    def sample_game(self, rng: random.Random) -> GameTable:
        """A new table (its random source ``rng``) set up by :meth:`set_up_sample`, the
        changes that began its game not yet taken (they start its log)."""
        table = self.table(self.new_state(), rng=rng)
        self.set_up_sample(table)
        return table

    @abstractmethod
    def set_up_sample(self, table: GameTable) -> None:
        """Begin a game at ``table``, a new one (alone, or a real room's): the people
        :data:`SAMPLE_PEOPLE` seated (as many as it seats) and, if the game has computer
        players, one of each level while there is room; the first is the host."""

    @abstractmethod
    def random_move(self, table: GameTable, rng: random.Random) -> Callable[[GameTable], Any] | None:
        """A legal move for someone at ``table``, chosen with ``rng`` (it may yet be
        refused, changing nothing); None once the table waits for nobody."""

    @abstractmethod
    def seat_view(self, state: Any, viewer: int) -> Any:
        """Everything ``viewer`` (a seat, or a spectator) may know of ``state``, as
        comparable data: what its views and computer players are made from."""

    @abstractmethod
    def scrambled(self, state: Any, viewer: int, rng: random.Random) -> Any:
        """A copy of ``state`` with everything ``viewer`` may not know of it changed at
        random (others' hidden cards, the order of what is face down): their
        :meth:`seat_view` must be the same."""

    def bot_decision(self, state: Any, actor: int, rng: random.Random) -> Any:
        """What the computer player ``actor`` would do now, decided with ``rng`` (None: the
        game has no computer players)."""
        return None


#: The people :meth:`GameKind.set_up_sample` seats, by account id.
SAMPLE_PEOPLE = {1: "Ann", 2: "Bob"}


#: An event's data key for what only some seats may see: ``[[seat, {fields}], ...]``.
PRIVATE = "private"


def visible_data(data: dict[str, Any], viewer: int) -> dict[str, Any]:
    """``data`` as ``viewer`` may see it: the public fields, and the viewer's own private
    ones (:data:`PRIVATE`) merged in."""
    shown = {key: copy.deepcopy(value) for key, value in data.items() if key != PRIVATE}
    for holder, secret in data.get(PRIVATE, ()):
        if holder == viewer:
            shown.update(copy.deepcopy(secret))
    return shown


def json_text(value: Any) -> str:
    """``value`` as compact JSON text, quickly (orjson, about ten times the standard
    library's speed): for what is read back as JSON, not for what is digested (whose text
    must stay exactly as it was, see :func:`persistence.rooms.chain`). What orjson refuses
    (a key that is not a string, an integer past 64 bits, a lone surrogate) is written as
    the standard library writes it, non-ASCII escaped. JSON has no infinity or NaN: they
    are written as null (the standard library writes ``Infinity``, which a browser refuses)."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return _standard_json(value)


#: The standard library's compact JSON, ASCII only (made once: ``json.dumps`` with options
#: makes an encoder per call).
_standard_json = json.JSONEncoder(separators=(",", ":")).encode


def ascii_json(value: Any) -> bytes:
    """``value`` as compact JSON in ASCII bytes, quickly: the bytes the standard library's
    ``json.dumps(value, separators=(",", ":"))`` gives (as telnetlib3 writes GMCP), made
    by orjson (a ``Dvorak.Table`` view: 52 → 4 µs) whenever that is all ASCII; where it
    is not (text beyond ASCII, or DEL, which the standard library escapes) or orjson
    refuses the value, by the standard library itself. Floats are written as orjson writes them
    (``1e-5`` for ``1e-05``), the same numbers."""
    try:
        fast = orjson.dumps(value)
    except TypeError:
        return _standard_json(value).encode()
    # (DEL is ASCII, but the standard library escapes it; orjson does not.)
    return fast if fast.isascii() and b"\x7f" not in fast else _standard_json(value).encode()


def json_ready(value: Any) -> Any:
    """A copy of ``value`` with tuples as lists (what a JSON round trip gives)."""
    if isinstance(value, dict):
        return {key: json_ready(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_ready(item) for item in value]
    return value


#: The deltas of a table's settings and seats, which games stored as one snapshot share:
#: ``["setting", name, value or None]``, ``["seat", id, {field: value}]`` and
#: ``["seats", [seat, ...]]`` (see :func:`seating_inverse` and :func:`apply_seating`).
SEATING_DELTAS = ("setting", "seat", "seats")


def seating_inverse(state: Any, delta: Delta) -> list[Delta]:
    """The deltas that undo a :data:`SEATING_DELTAS` delta on ``state`` (its ``settings``,
    ``seats`` and ``seat(id)``), computed before it is applied."""
    kind = delta[0]
    if kind == "setting":
        return [["setting", delta[1], state.settings.get(delta[1])]]
    if kind == "seat":
        seat = state.seat(delta[1])
        if seat is None:
            raise ValueError(f"no seat {delta[1]}")
        return [["seat", delta[1], {name: getattr(seat, name) for name in delta[2]}]]
    return [["seats", [dict(vars(seat)) for seat in state.seats]]]


def apply_seating(state: Any, delta: Delta, seat_class: type[Seat]) -> None:
    """Make a :data:`SEATING_DELTAS` change to ``state``, whose seats are ``seat_class``."""
    kind = delta[0]
    if kind == "setting":
        _, name, value = delta
        if value is None:
            state.settings.pop(name, None)
        else:
            state.settings[name] = value
    elif kind == "seat":
        _, account_id, changes = delta
        seat = state.seat(account_id)
        if seat is None:
            raise ValueError(f"no seat {account_id}")
        known = {f.name for f in fields(seat_class)}
        for name, value in changes.items():
            if name not in known or name == "account_id":
                raise ValueError(f"unknown seat field {name!r}")
            setattr(seat, name, value)
    else:
        state.seats = [seat_class(**seat) for seat in delta[1]]
