"""Seats for computer players, for any game whose table has them (Gnav, Ys): one of the
game's levels seated under one of its names, and taken away again, by the host between
games. A computer player's id is negative (people's are their account ids); its moves
are the game's own (``due()``). The game's table class mixes this in and says its
levels, its computer players' names, what one game is called at it, and how a seat is
made; its tables keep ``next_bot`` (the next id, counting down from -1)."""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, ClassVar

from games.base import PLAYING, Event, GameTable, RuleViolation, Seat


class ComputerPlayerSeats(GameTable):
    """The ``add_bot`` and ``remove_bot`` moves of a game with computer players."""

    #: The levels, the default first among them as the commands say.
    levels: ClassVar[tuple[str, ...]]
    #: The names computer players take, the first free one when none is asked for.
    bot_names: ClassVar[tuple[str, ...]]
    #: What one game is called at this table, and more than one ("match", "matches").
    game_word: ClassVar[str]
    games_word: ClassVar[str]

    def seat_refusal(self, account_id: int, name: str) -> str | None:
        """People take seats between games, while one is free, under a name no computer
        player here has (the table's lines name players by name)."""
        if self.state.phase == PLAYING:
            return f"A {self.game_word} is being played here; you can join when it ends (watch it meanwhile: watch)."
        key = name.strip().casefold()
        namesake = next((s for s in self.state.seats if s.bot and s.name.casefold() == key), None)
        if namesake is not None:
            return (
                f"A computer player here is called {namesake.name}, as you are: the host may remove it "
                "(removebot) for you to sit down."
            )
        try:
            self._room_for_one_more()
        except RuleViolation as full:
            return str(full)
        return None

    def add_bot(self, actor: int, level: str, name: str = "") -> None:
        """Seat a computer player of ``level``, named ``name`` from the bot names (the
        first free one if none is given). Host only, between games."""
        self._host(actor)
        if self.state.phase == PLAYING:
            raise RuleViolation(f"Computer players join between {self.games_word}.")
        level = level.strip().lower()
        if level not in self.levels:
            raise RuleViolation(f"A computer player is {', '.join(self.levels)}.")
        self._room_for_one_more()
        taken = {seat.name.lower() for seat in self.state.seats}
        wanted = name.strip().lower()
        if wanted:
            chosen = next((bot for bot in self.bot_names if bot.lower() == wanted), None)
            if chosen is None:
                raise RuleViolation(
                    f"There is no computer player called {name.strip()[:30]}: "
                    f"computer players are named {', '.join(self.bot_names)}."
                )
            if chosen.lower() in taken:
                raise RuleViolation(f"{chosen} is already seated here.")
        else:
            chosen = next((bot for bot in self.bot_names if bot.lower() not in taken), None)
            if chosen is None:
                raise RuleViolation("Every computer player's name is taken here.")
        bot_id = self.state.next_bot
        event = self._record("addbot", actor, player=bot_id, name=chosen, level=level)
        self._set(event, "next_bot", bot_id - 1)
        seats = [*self.state.seats, self._bot_seat(bot_id, chosen, level)]
        self._change(event, ["seats", [dict(vars(seat)) for seat in seats]])

    def remove_bot(self, actor: int, name: str) -> None:
        """Take a computer player's seat away (host only, between games)."""
        self._host(actor)
        if self.state.phase == PLAYING:
            raise RuleViolation(f"Computer players play a {self.game_word} to its end; remove them after it.")
        seat = next((s for s in self.state.seats if s.bot and s.name.lower() == name.strip().lower()), None)
        if seat is None:
            raise RuleViolation(f"No computer player here is named {name.strip() or 'that'}.")
        event = self._record("removebot", actor, player=seat.account_id, name=seat.name, level=seat.bot)
        self._change(event, ["seats", [dict(vars(s)) for s in self.state.seats if s is not seat]])

    @abstractmethod
    def _bot_seat(self, bot_id: int, name: str, level: str) -> Seat:
        """The game's seat for a new computer player."""

    @abstractmethod
    def _room_for_one_more(self) -> None:
        """Refuse when the table is full."""

    @abstractmethod
    def _record(self, kind: str, actor: int, **data: Any) -> Event:
        """A new event of the table's."""

    @abstractmethod
    def _set(self, event: Event, name: str, value: Any) -> None:
        """Change one of the state's fields through a delta of ``event``."""
