"""What a table game with a host, turns and computer players is made of, whatever the
game: its settings, its seats and host, its computer players and turn timers, and how
its state is stored as one snapshot. A game subclasses :class:`TurnTable`
and :class:`SnapshotKind`, says the few things that are its own (its levels, its names
for computer players, who it waits for, what leaving mid-game costs) and writes its
moves, rules and views; everything below is written once, here.

Each table's state keeps the fields of :class:`TurnState` and changes them through the
deltas ``["set", field, value]`` and those of :data:`games.base.SEATING_DELTAS`.
"""

from __future__ import annotations

import copy
import random
from abc import abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from types import ModuleType
from typing import Any, ClassVar, cast

from games.base import (
    NOBODY,
    OVER,
    PLAYING,
    SAMPLE_PEOPLE,
    SEATING_DELTAS,
    WAITING,
    Delta,
    Due,
    Event,
    GameKind,
    GameTable,
    RuleViolation,
    Seat,
    apply_seating,
    json_ready,
    seating_inverse,
)
from i18n import N_, Said, _, said, stored

#: The longest name a seat is taken under.
NAME_MAX = 30


@dataclass(frozen=True)
class Setting:
    """One thing a host may set. What its values are follows from its default: a switch
    (on or off) for True or False, one of ``choices`` for a word, else a number from
    ``low`` to ``high`` (a whole one for a whole default; 0 also, meaning none, where
    ``zero_allowed``)."""

    name: str
    default: bool | int | float | str
    about: str
    low: int | float = 0
    high: int | float = 0
    choices: tuple[str, ...] = ()
    #: Whether it may change while a game is being played.
    mid_match: bool = True
    zero_allowed: bool = False

    @property
    def values(self) -> str:
        """What it may be, in a few words: ``on/off``, ``any/majority``, ``10-600``."""
        if isinstance(self.default, bool):
            return "on/off"
        if self.choices:
            return "/".join(self.choices)
        if self.zero_allowed:
            return _("0 or {low}-{high}").format(low=self.low, high=self.high)
        return f"{self.low}-{self.high}"

    def parse(self, raw: Any) -> Any:
        """The value ``raw`` (typed text, or a value) stands for; RuleViolation with a
        sentence for the player if it is none of this setting's values."""
        text = str(raw).strip().lower()
        if isinstance(self.default, bool):
            if text in ("on", "yes", "true", "1"):
                return True
            if text in ("off", "no", "false", "0"):
                return False
            raise RuleViolation(_("{setting} is on or off.").format(setting=self.name))
        if self.choices:
            if text not in self.choices:
                raise RuleViolation(
                    _("{setting} is one of: {values}.").format(setting=self.name, values=", ".join(self.choices))
                )
            return text
        whole = isinstance(self.default, int)
        if whole and self.zero_allowed:
            refusal = _("{setting} is a whole number from {low} to {high} (or 0 for none).")
        elif whole:
            refusal = _("{setting} is a whole number from {low} to {high}.")
        elif self.zero_allowed:
            refusal = _("{setting} is a number from {low} to {high} (or 0 for none).")
        else:
            refusal = _("{setting} is a number from {low} to {high}.")
        refusal = refusal.format(setting=self.name, low=self.low, high=self.high)
        if not text.isascii():  # int() and float() also read other scripts' digits ("５")
            raise RuleViolation(refusal)
        try:
            value = int(text) if whole else float(text)
        except ValueError:
            raise RuleViolation(refusal) from None
        if not (self.low <= value <= self.high or (self.zero_allowed and value == 0)):
            raise RuleViolation(refusal)  # NaN too: it compares false with everything
        return value

    def show(self, value: Any) -> str:
        """``value`` as a player types it."""
        if isinstance(self.default, bool):
            return "on" if value else "off"
        return str(value)


def turn_time(default: int, about: str) -> Setting:
    """``turntime``: the seconds a person has for a turn before the table moves for them."""
    return Setting("turntime", default, about, 10, 600)


#: ``botdelay``: the seconds a computer player waits before its move.
BOT_DELAY = Setting("botdelay", 1.0, N_("seconds a computer player waits before its move"), 0.0, 10.0)


def find_setting(settings: Mapping[str, Setting], name: str) -> Setting:
    """The setting ``name`` (as typed) among ``settings``; RuleViolation if none is."""
    found = settings.get(name.strip().lower())
    if found is None:
        refusal = _('There is no setting "{name}". The settings are {settings}.')
        raise RuleViolation(refusal.format(name=name.strip()[:30], settings=", ".join(settings)))
    return found


def change_refusal(setting: Setting, phase: str, games_word: str) -> str | None:
    """Why ``setting`` may not change now (``phase``), or None."""
    if not setting.mid_match and phase == PLAYING:
        # Translators: {games} is what the table's game calls its games ("games", "matches").
        return _("{setting} can be changed only between {games}.").format(setting=setting.name, games=_(games_word))
    return None


def settings_by_name(*settings: Setting) -> dict[str, Setting]:
    """A game's settings, by name, in the order ``set`` lists them."""
    return {setting.name: setting for setting in settings}


def defaults(settings: Mapping[str, Setting]) -> dict[str, Any]:
    """Every setting's default value, by name."""
    return {name: setting.default for name, setting in settings.items()}


@dataclass
class TurnState:
    """The fields every table of a :class:`TurnTable` keeps, and the changes to them:
    ``["set", field, value]`` for a field in :meth:`settable`, and the seating deltas. A
    game's state adds its fields and its own deltas (:meth:`own_inverse`,
    :meth:`own_apply`)."""

    #: The game's seat class.
    seat_class: ClassVar[type[Seat]] = Seat
    #: The game's fields that only its own deltas change (not JSON-ready as they are).
    own_fields: ClassVar[tuple[str, ...]] = ()

    phase: str = WAITING
    host: int = NOBODY
    seats: list[Any] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
    #: How the last game ended: "" while none has, else a sentence for the table.
    result: str = ""
    #: Counts every move of a game, never going back: a scheduled move (a computer
    #: player's, a turn timer's) carries the step it was made for and is refused once
    #: the table has moved on.
    step: int = 0
    #: The id the next computer player gets (-1, -2, ...: never reused at a table).
    next_bot: int = -1
    #: The seat to act (NOBODY when none is).
    turn: int = NOBODY

    @classmethod
    @cache
    def settable(cls) -> tuple[str, ...]:
        """The fields a ``set`` delta may change (JSON-ready values only): all but the
        seats, the settings and the game's :attr:`own_fields`, in the order declared."""
        kept = ("seats", "settings", *cls.own_fields)
        return tuple(spec.name for spec in fields(cls) if spec.name not in kept)

    def seat(self, account_id: int) -> Any:
        """The seat of ``account_id``, or None."""
        for seat in self.seats:
            if seat.account_id == account_id:
                return seat
        return None

    def copy(self) -> Any:
        return copy.deepcopy(self)

    def inverse(self, delta: Delta) -> list[Delta]:
        """The deltas that undo ``delta``, computed before it is applied."""
        kind = delta[0]
        if kind == "set":
            return [["set", delta[1], copy.deepcopy(getattr(self, delta[1]))]]
        if kind in SEATING_DELTAS:
            return seating_inverse(self, delta)
        return self.own_inverse(delta)

    def apply(self, delta: Delta) -> set[int]:
        """Make one change. These games keep no rows of their own: returns an empty set."""
        kind = delta[0]
        if kind == "set":
            _, name, value = delta
            if name not in self.settable():
                raise ValueError(f"unknown table field {name!r}")
            setattr(self, name, copy.deepcopy(value))
        elif kind in SEATING_DELTAS:
            apply_seating(self, delta, self.seat_class)
        else:
            self.own_apply(delta)
        return set()

    def own_inverse(self, delta: Delta) -> list[Delta]:
        """:meth:`inverse` for the game's own deltas."""
        raise ValueError(f"unknown delta {delta[0]!r}")

    def own_apply(self, delta: Delta) -> None:
        """:meth:`apply` for the game's own deltas."""
        raise ValueError(f"unknown delta {delta[0]!r}")


class TurnTable(GameTable):
    """A table with a host, seats taken between games, settings, computer players and
    turn timers. The game's table class says what is its own in the class variables
    below and writes :meth:`start`, :meth:`bot_move` and :meth:`timeout`; it may change
    whom the table waits for (:meth:`waiting_for`) and what leaving mid-game does
    (:meth:`_leave_mid_game`)."""

    #: The game's name in the table's sentences ("Gnav seats at most 8").
    title: ClassVar[str]
    #: What one game is called at this table, and more than one ("match", "matches").
    game_word: ClassVar[str]
    games_word: ClassVar[str]
    max_seats: ClassVar[int]
    #: The settings a host may change, by name.
    settings_spec: ClassVar[Mapping[str, Setting]]
    #: The computer players' levels (``addbot`` alone seats a ``normal`` one, or one of
    #: the first level where there is no ``normal``).
    levels: ClassVar[tuple[str, ...]]
    #: The names computer players take, the first free one when none is asked for.
    bot_names: ClassVar[tuple[str, ...]]
    #: The game's state class.
    state_class: ClassVar[type[TurnState]]

    def __init__(self, state: Any = None, rng: random.Random | None = None) -> None:
        """A table around ``state`` (a new one with the default settings if none)."""
        super().__init__(state if state is not None else self.new_state(), rng)
        #: Whether the next event recorded is a move's first, which carries the step on.
        self._step_pending = False

    @classmethod
    def new_state(cls) -> Any:
        """An empty table's state, with the default settings."""
        return cls.state_class(settings=defaults(cls.settings_spec))

    # -- reading -----------------------------------------------------------------------

    def setting(self, name: str) -> Any:
        """The value of the setting ``name`` (its default unless the host changed it)."""
        value = self.state.settings.get(name)
        return self.settings_spec[name].default if value is None else value

    def waiting_for(self) -> list[int]:
        """The seats the table waits for now, in turn order (none: it waits for nobody).
        By default the seat whose ``turn`` it is, while a game is played."""
        state = self.state
        return [state.turn] if state.phase == PLAYING and state.turn != NOBODY else []

    def due(self) -> Due | None:
        """A computer player's move after the bot delay, else the turn timer of the first
        person waited for. Each carries the step it was made for."""
        waiting = self.waiting_for()
        if not waiting:
            return None
        step = self.state.step
        bot = next((p for p in waiting if (seat := self.state.seat(p)) is not None and seat.bot), None)
        if bot is not None:
            delay = float(self.setting("botdelay"))
            return Due(delay, bot, lambda table: table.bot_move(bot, step), "bot", since=step)
        return Due(float(self.setting("turntime")), waiting[0], lambda table: table.timeout(step), "timer", since=step)

    @abstractmethod
    def bot_move(self, actor: int, step: int) -> None:
        """The computer player ``actor``'s move, decided from its seat's view alone."""

    @abstractmethod
    def timeout(self, step: int) -> None:
        """The turn timer ran out at ``step``: the table moves for the person waited for."""

    @abstractmethod
    def start(self, actor: int) -> None:
        """Begin a game (host only)."""

    # -- seats -------------------------------------------------------------------------

    def sit(self, account_id: int, name: str) -> None:
        """Take a seat (between games)."""
        name = name.strip()
        if account_id <= 0 or not name or len(name) > NAME_MAX:
            raise RuleViolation(_("Only a player with an account and a name can take a seat."))
        if self.state.seat(account_id) is not None:
            raise RuleViolation(_("You already have a seat here."))
        refusal = self.seat_refusal(account_id, name)
        if refusal is not None:
            raise RuleViolation(refusal)
        event = self._record("join", account_id, player=account_id, name=name)
        self._seats(event, [*self.state.seats, self.state.seat_class(account_id, name)])
        if self.state.host == NOBODY:
            self._set(event, "host", account_id)

    def seat_refusal(self, account_id: int, name: str) -> str | None:
        """People take seats between games, while one is free, under a name no computer
        player here has (the table's lines name players by name)."""
        if self.state.phase == PLAYING:
            # Translators: {game} is what the table's game calls a game ("game", "match").
            refusal = _("A {game} is being played here; you can join when it ends (watch it meanwhile: watch).")
            return refusal.format(game=_(self.game_word))
        key = name.strip().casefold()
        namesake = next((s for s in self.state.seats if s.bot and s.name.casefold() == key), None)
        if namesake is not None:
            refusal = _(
                "A computer player here is called {name}, as you are: the host may remove it "
                "(removebot) for you to sit down."
            )
            return refusal.format(name=namesake.name)
        try:
            self._room_for_one_more()
        except RuleViolation as full:
            return str(full)
        return None

    def unseat(self, actor: int, account_id: int) -> None:
        """Give up a seat (or, by the host, take a person's away); what leaving mid-game
        does is the game's. Computer players go with removebot."""
        seat = self.state.seat(account_id)
        if actor != account_id:
            self._host(actor)
            if seat is None or seat.bot:
                raise RuleViolation(_("That player is not seated at this table (computer players go with removebot)."))
        if seat is None:
            raise RuleViolation(_("You have no seat here."))
        if self.state.phase == PLAYING:
            self._leave_mid_game(actor, seat)
            return
        event = self._record("leave", actor, player=account_id, name=seat.name)
        self._pass_host(event, account_id)
        self._seats(event, [s for s in self.state.seats if s.account_id != account_id])

    def _leave_mid_game(self, actor: int, seat: Any) -> None:
        """``seat`` leaves the game being played (``actor``: they, or the host). By
        default it ends the game for everyone: abandoned, nobody won."""
        self._step_pending = True
        event = self._record("leave", actor, player=seat.account_id, name=seat.name, abandoned=True)
        # Translators: {game} is what the table's game calls a game ("game", "match").
        result = said("The {game} was abandoned: {name} left.", game=said(self.game_word), name=seat.name)
        self._end_game(event, result, "abandoned", [])
        self._pass_host(event, seat.account_id)
        self._seats(event, [s for s in self.state.seats if s.account_id != seat.account_id])

    def _end_game(self, event: Event, result: Said, outcome: str, winners: list[str]) -> None:
        """End the game with ``event``, which carries how it ended (the sentence
        ``result``, kept as a message each reader is shown in their language, see
        :func:`i18n.stored`; ``outcome`` and the winners' names: what the results list keeps)."""
        kept = stored(result)
        event.data.update(result=kept, outcome=outcome, winners=winners)
        self._set(event, "result", kept)
        self._set(event, "phase", OVER)

    def set_host(self, actor: int, account_id: int) -> None:
        """Hand the table over to another person seated here (host only)."""
        self._host(actor)
        seat = self.state.seat(account_id)
        if seat is None or seat.bot or not self.holds_seat(account_id):
            raise RuleViolation(_("The host must be a person seated at this table."))
        if account_id == actor:
            raise RuleViolation(_("You are the host already."))
        event = self._record("host", actor, player=account_id, name=seat.name)
        self._set(event, "host", account_id)

    def set(self, actor: int, name: str, value: Any) -> None:
        """Change a setting (host only); some only between games."""
        self._host(actor)
        spec = find_setting(self.settings_spec, name)
        parsed = spec.parse(value)
        refusal = change_refusal(spec, self.state.phase, self.games_word)
        if refusal is not None:
            raise RuleViolation(refusal)
        event = self._record("set", actor, name=spec.name, value=parsed)
        self._change(event, ["setting", spec.name, parsed])

    # -- computer players --------------------------------------------------------------

    def add_bot(self, actor: int, level: str, name: str = "") -> None:
        """Seat a computer player of ``level``, named ``name`` from the bot names (the
        first free one if none is given). Host only, between games."""
        self._host(actor)
        if self.state.phase == PLAYING:
            # Translators: {games} is what the table's game calls its games ("games", "matches").
            raise RuleViolation(_("Computer players join between {games}.").format(games=_(self.games_word)))
        level = level.strip().lower()
        if level not in self.levels:
            raise RuleViolation(_("A computer player is {levels}.").format(levels=", ".join(self.levels)))
        self._room_for_one_more()
        taken = {seat.name.lower() for seat in self.state.seats}
        wanted = name.strip().lower()
        if wanted:
            chosen = next((bot for bot in self.bot_names if bot.lower() == wanted), None)
            if chosen is None:
                refusal = _("There is no computer player called {name}: computer players are named {names}.")
                raise RuleViolation(refusal.format(name=name.strip()[:30], names=", ".join(self.bot_names)))
            if chosen.lower() in taken:
                raise RuleViolation(_("{name} is already seated here.").format(name=chosen))
        else:
            chosen = next((bot for bot in self.bot_names if bot.lower() not in taken), None)
            if chosen is None:
                raise RuleViolation(_("Every computer player's name is taken here."))
        bot_id = self.state.next_bot
        event = self._record("addbot", actor, player=bot_id, name=chosen, level=level)
        self._set(event, "next_bot", bot_id - 1)
        self._seats(event, [*self.state.seats, self.state.seat_class(bot_id, chosen, bot=level)])

    def remove_bot(self, actor: int, name: str) -> None:
        """Take a computer player's seat away (host only, between games)."""
        self._host(actor)
        if self.state.phase == PLAYING:
            # Translators: {game} is what the table's game calls a game ("game", "match").
            raise RuleViolation(
                _("Computer players play a {game} to its end; remove them after it.").format(game=_(self.game_word))
            )
        seat = next((s for s in self.state.seats if s.bot and s.name.lower() == name.strip().lower()), None)
        if seat is None:
            if not name.strip():
                raise RuleViolation(_("No computer player here is named that."))
            raise RuleViolation(_("No computer player here is named {name}.").format(name=name.strip()))
        event = self._record("removebot", actor, player=seat.account_id, name=seat.name, level=seat.bot)
        self._seats(event, [s for s in self.state.seats if s is not seat])

    # -- bookkeeping -------------------------------------------------------------------

    def _record(self, kind: str, actor: int, **data: Any) -> Event:
        """A new event; the first of a move carries the step forward."""
        event = self._event(kind, actor, **data)
        if self._step_pending:
            self._step_pending = False
            self._set(event, "step", self.state.step + 1)
        return event

    def _set(self, event: Event, name: str, value: Any) -> None:
        self._change(event, ["set", name, value])

    def _seat(self, event: Event, account_id: int, **changes: Any) -> None:
        self._change(event, ["seat", account_id, changes])

    def _seats(self, event: Event, seats: list[Any]) -> None:
        self._change(event, ["seats", [dict(vars(seat)) for seat in seats]])

    def _pass_host(self, event: Event, leaver: int) -> None:
        """The host leaving hands the table to the next person seated after them."""
        state = self.state
        if state.host != leaver:
            return
        everyone = state.seats
        at = next((i for i, seat in enumerate(everyone) if seat.account_id == leaver), -1)
        following = everyone[at + 1 :] + everyone[: max(at, 0)]
        heir = next(
            (s for s in following if not s.bot and s.account_id != leaver and self.holds_seat(s.account_id)), None
        )
        self._set(event, "host", heir.account_id if heir else NOBODY)
        if heir is not None:
            self._record("host", heir.account_id, player=heir.account_id, name=heir.name)

    def _room_for_one_more(self) -> None:
        if len(self.state.seats) >= self.max_seats:
            raise RuleViolation(
                _("This table is full: {game} seats at most {n}.").format(game=_(self.title), n=self.max_seats)
            )


class HidesNothing:
    """For a game kind with no secrets (mixed in before :class:`SnapshotKind`): every
    viewer is shown every event whole and the whole table."""

    def event_for(self, state: Any, event: Event, viewer: int) -> dict[str, Any]:
        return copy.deepcopy(event.data)

    def seat_view(self, state: Any, viewer: int) -> Any:
        return state

    def scrambled(self, state: Any, viewer: int, rng: random.Random) -> Any:
        return copy.deepcopy(state)


class SnapshotKind(GameKind):
    """A game kind whose tables are :class:`TurnTable` s stored as one snapshot: the
    room's row keeps phase, host and settings, the seat rows each seat's
    :data:`STORED_SEAT_FIELDS`, and the snapshot every other field a ``set`` delta
    changes (:meth:`TurnState.settable`). A game whose seats hold more adds it to the
    snapshot in its own :meth:`snapshot` and :meth:`restore`."""

    table_class: ClassVar[type[TurnTable]]
    #: The game's one policy of who sees what: a module with ``event_for(state, event,
    #: viewer)``, ``seat_view(state, viewer)`` and ``scrambled(state, viewer, rng)``.
    visibility: ModuleType
    #: The game's computer players: a module whose ``decide(level, view, rng)`` decides
    #: from a seat's view alone.
    bots: ModuleType

    def event_for(self, state: Any, event: Event, viewer: int) -> dict[str, Any] | None:
        return cast(dict[str, Any] | None, self.visibility.event_for(state, event, viewer))

    def seat_view(self, state: Any, viewer: int) -> Any:
        return self.visibility.seat_view(state, viewer)

    def scrambled(self, state: Any, viewer: int, rng: random.Random) -> Any:
        return self.visibility.scrambled(state, viewer, rng)

    def bot_decision(self, state: Any, actor: int, rng: random.Random) -> Any:
        seat = state.seat(actor)
        assert seat is not None and seat.bot, f"{actor} is no computer player"
        return self.bots.decide(seat.bot, self.seat_view(state, actor), rng)

    @property
    def state_class(self) -> type[TurnState]:
        return self.table_class.state_class

    @property
    def snapshot_fields(self) -> tuple[str, ...]:
        """The fields kept in the snapshot as they are: all that a ``set`` delta changes
        but phase and host, which the room's row keeps."""
        return tuple(name for name in self.state_class.settable() if name not in ("phase", "host"))

    def new_state(self) -> Any:
        return self.table_class.new_state()

    def settings(self) -> Mapping[str, Setting]:
        return self.table_class.settings_spec

    def table(self, state: Any, **options: Any) -> TurnTable:
        """A table around ``state``; ``rng`` (a ``random.Random``) may be given, else the
        system's random source is used."""
        rng = options.get("rng")
        return self.table_class(state, rng if isinstance(rng, random.Random) else None)

    def snapshot(self, state: Any) -> dict[str, Any]:
        return json_ready({name: getattr(state, name) for name in self.snapshot_fields})

    def restore(
        self, phase: str, host: int, settings: dict[str, Any], seats: list[dict[str, Any]], snapshot: dict[str, Any]
    ) -> Any:
        seat_class = self.state_class.seat_class
        restored = [seat_class(**{name: row[name] for name in STORED_SEAT_FIELDS if name in row}) for row in seats]
        state = self.state_class(phase=phase, host=host, seats=restored, settings=dict(settings))
        blank = self.state_class()
        for name in self.snapshot_fields:
            setattr(state, name, json_ready(snapshot.get(name, getattr(blank, name))))
        return state

    def differences(self, replayed: Any, stored: Any) -> list[str]:
        found = []
        for spec in fields(self.state_class):
            if spec.name == "seats":
                continue
            mine, theirs = json_ready(getattr(replayed, spec.name)), json_ready(getattr(stored, spec.name))
            if mine != theirs:
                found.append(f"{spec.name}: replayed {mine!r}, stored {theirs!r}")
        mine_ids = [seat.account_id for seat in replayed.seats]
        their_ids = [seat.account_id for seat in stored.seats]
        if mine_ids != their_ids:
            return [*found, f"seats: replayed {mine_ids}, stored {their_ids}"]
        for mine_seat, their_seat in zip(replayed.seats, stored.seats, strict=True):
            for spec in fields(mine_seat):
                mine, theirs = getattr(mine_seat, spec.name), getattr(their_seat, spec.name)
                if mine != theirs:
                    found.append(f"seat {mine_seat.account_id} {spec.name}: replayed {mine!r}, stored {theirs!r}")
        return found

    def set_up_sample(self, table: GameTable) -> None:
        """The first of :data:`~games.base.SAMPLE_PEOPLE` hosts; a computer player of
        each level sits while there is room, then the other people; the host starts."""
        assert isinstance(table, TurnTable)
        (host, name), *others = SAMPLE_PEOPLE.items()
        table.sit(host, name)
        for level in table.levels:
            if len(table.state.seats) < table.max_seats:
                table.add_bot(host, level)
        for account_id, other in others:
            if len(table.state.seats) < table.max_seats:
                table.sit(account_id, other)
        table.start(host)

    def random_move(self, table: GameTable, rng: random.Random) -> Callable[[GameTable], Any] | None:
        """The move the table makes by itself next: a computer player's, or a person's
        default one when their time runs out."""
        due = table.due()
        return due.move if due is not None else None

    def seating_problems(self, state: Any) -> list[str]:
        """What is wrong with the phase, seats, host and settings of ``state``."""
        found: list[str] = []
        if state.phase not in (WAITING, PLAYING, OVER):
            found.append(f"unknown phase {state.phase!r}")
        ids = [seat.account_id for seat in state.seats]
        if len(set(ids)) != len(ids):
            found.append("a seat appears twice")
        table = self.table_class
        if len(ids) > table.max_seats:
            found.append(f"{len(ids)} seats, more than {table.max_seats}")
        host = state.seat(state.host)
        if state.host != NOBODY and (host is None or host.bot):
            found.append(f"the host {state.host} is not a person seated here")
        for seat in state.seats:
            if seat.bot and (seat.bot not in table.levels or not state.next_bot < seat.account_id < 0):
                found.append(f"computer player {seat.account_id} ({seat.bot}) is not one the table made")
            if not seat.bot and seat.account_id <= 0:
                found.append(f"person {seat.account_id} has no account id")
        for name, spec in table.settings_spec.items():
            value = state.settings.get(name)
            if value is not None and not spec.low <= value <= spec.high:
                found.append(f"setting {name} is {value!r}")
        return found


#: What the seat rows hold of a seat; the rest of it, if the game's seats hold more, is
#: the game's to keep in its snapshot.
STORED_SEAT_FIELDS = ("account_id", "name", "team", "out", "absent", "bot")
