"""What the commands add to each game kind: its command sets, how its events and table
read, and its structured (GMCP) views. The room engine's commands (rooms, look, log,
help, GMCP) ask here by the room's game.

Each game kind registered in :data:`games.KINDS` has a package ``commands/<kind>`` whose
module ``game`` holds ``GAME_COMMANDS``, its :class:`GameCommands` (a test checks that every kind has one).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import math
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from commands.base import CommandSet
from games import KINDS
from games.base import OVER, Event, GameTable, Seat
from i18n import LANGUAGE, _, language, shown

if TYPE_CHECKING:
    from persistence.database import Database
    from persistence.rooms import LoggedEvent
    from server.config import Settings
    from server.hub import OnlinePlayer
    from server.rooms import GameRoom


log = logging.getLogger(__name__)

#: A game kind's own table class.
G = TypeVar("G", bound=GameTable)


class CommandLineError(Exception):
    """A command on the ``dvorak-mush`` command line cannot be done; the message says why."""


@dataclass(frozen=True)
class CommandLine:
    """A game's own command on the ``dvorak-mush`` command line (Dvorak: ``deck``)."""

    #: The command's name.
    name: str
    #: Adds the command (and any of its own) to the command line's subcommands; returns
    #: the parsers that work on a database (they are given the database's options).
    add: Callable[[Any], list[argparse.ArgumentParser]]
    #: Does it, on the up-to-date database, with the arguments parsed: what to print.
    #: :class:`CommandLineError` says why it cannot.
    run: Callable[[argparse.Namespace, Database], Awaitable[str]]


@dataclass(frozen=True)
class GameCommands(Generic[G]):
    """A game kind's commands and views, on its own table class ``G``."""

    #: The command sets of a room of this game, in the order they are looked up in.
    command_sets: tuple[CommandSet, ...]
    #: The line ``viewer`` reads for an event (from what the game lets them see of it);
    #: the last argument is true when it is read later (``log``, "While you were away"),
    #: when a turn's clock is long past and so left out.
    render_event: Callable[[G, Event, int, bool], str]
    #: The table as ``look`` draws it: (room, table, viewer, seated people away, spectators).
    render_table: Callable[[GameRoom, G, int, set[int], list[str]], str]
    #: The table's structured views, to everyone in the room who asked for GMCP (or to
    #: the players given).
    send_views: Callable[[GameRoom, list[OnlinePlayer] | None], None]
    #: The game's GMCP packages with what each holds outside its rooms (sent on leaving).
    empty_views: dict[str, Any]
    #: Told to the maker of a new room, after "You made room <name> and are its host.".
    first_steps: str
    #: What giving up one's seat in a running game does, for the warning before it
    #: ("Leaving gives up your seat: <this>.").
    leaving_costs: str
    #: The rules of the game, for ``help <game>``: written as a docstring is (paragraphs
    #: apart, indented lines kept whole), filled to the reader's window when sent.
    rules_help: str
    #: What a seated player holds, as they are reminded of it when they come back (None:
    #: the table as ``look`` draws it already shows them, as Gnav's shows your card).
    own_hand: Callable[[G, int], str] | None = None
    #: For reading a room's past events (``log``, "While you were away"): the table each
    #: is read against, by the event's seq, where the table has changed since in ways
    #: its lines show (Dvorak: a card's words, edited since). None: the table as it is.
    tables_then: Callable[[Database, GameRoom], Awaitable[Callable[[int], G]]] | None = None
    #: The command sets the game adds to the lobby (Dvorak: its players' saved decks).
    lobby_command_sets: tuple[CommandSet, ...] = ()
    #: How a line typed at one of the game's tables splits into the commands it holds
    #: (a paste some clients send as one line), with a notice for the typist of what was
    #: left out (None: nothing was). None: every line is one command.
    split_line: Callable[[str], tuple[list[str], str | None]] | None = None
    #: The game's own commands on the ``dvorak-mush`` command line.
    command_lines: tuple[CommandLine, ...] = ()
    #: The stores the game's commands find in ``ctx.services`` (Dvorak: its saved decks),
    #: made by the server from its database and settings.
    services: Callable[[Database, Settings], tuple[object, ...]] = lambda database, settings: ()
    #: How many computer players ``play <game>`` seats beside the player before it starts
    #: the game (0: the game has none, and ``play`` does not offer it).
    quick_bots: int = 0
    #: More of the game's help, by topic (``help vote``, ``help alchemist``; also asked as
    #: ``help <game> <topic>``), each written as :attr:`rules_help` is.
    help_topics: Mapping[str, str] = field(default_factory=dict)

    def line_for(self, table: G, event: Event, viewer: int, past: bool = False) -> str:
        """The line ``viewer`` reads for ``event`` (:attr:`render_event`), as it happens
        or, ``past``, later. An event its renderer fails on is logged and read as a short
        note: the move was made and stored, so the rest of what it says, and the room's
        log, must still be shown."""
        try:
            return self.render_event(table, event, viewer, past)
        except Exception:
            log.exception("could not render a %r event for #%d", event.kind, viewer)
            note = _("({name}: a {kind} event that cannot be shown.)")
            return note.format(name=event.actor_name or _("Someone"), kind=event.kind)

    async def past_lines(self, database: Database, room: GameRoom, events: list[LoggedEvent], viewer: int) -> list[str]:
        """The lines ``viewer`` reads for ``events`` of the room's past, each as it was
        when it happened (see :attr:`tables_then`)."""
        then = await self.tables_then(database, room) if self.tables_then is not None else None
        table = cast(G, room.table)
        return [self.line_for(then(e.seq) if then else table, e.event, viewer, past=True) for e in events]


@cache
def game_commands(game: str) -> GameCommands[Any]:
    """The commands and views of the game called ``game`` (a room's ``game``). Its table
    class is the room's: rooms of a game hold that game's table (:data:`games.KINDS`)."""
    if game not in KINDS:
        raise KeyError(game)
    return importlib.import_module(f"commands.{game}.game").GAME_COMMANDS


def web_panels() -> dict[str, Path]:
    """Each registered game's panel for the browser page, by game: the folder of its
    ``commands/<game>/panel.js`` (and ``panel.css``, if it has one). A game without one
    is played in the page's text alone."""
    folders = {game: Path(importlib.import_module(f"commands.{game}").__path__[0]) for game in KINDS}
    return {game: folder for game, folder in folders.items() if (folder / "panel.js").is_file()}


def all_game_commands() -> dict[str, GameCommands[Any]]:
    """Every game kind's commands and views, by game, in the registry's order."""
    return {game: game_commands(game) for game in KINDS}


def announce(room: GameRoom, events: list[Event]) -> None:
    """Send a room's new events to everyone in it, each as they may see them, then the
    structured views."""
    game = game_commands(room.game)
    for occupant in list(room.occupants.values()):
        with language(occupant.language):
            occupant.send("\n".join(game.line_for(room.table, event, occupant.account_id) for event in events))
    send_views(room, None)


def send_views(room: GameRoom, players: list[OnlinePlayer] | None) -> None:
    """The room's structured views to everyone in it who asked for GMCP (or just to
    ``players``): ``Room.Table``, which every game's table has, then the game's own."""
    table = room.table
    # The same for everyone but "you": made once for each language it is read in (send_packages
    # asks in each viewer's).
    shared = cache(lambda code: table_summary(table, room.away(), *turn_timer(room)))
    send_packages(
        room,
        players,
        lambda viewer: {"Room.Table": {**shared(LANGUAGE.get()), "you": viewer if table.holds_seat(viewer) else None}},
    )
    game_commands(room.game).send_views(room, players)


def turn_timer(room: GameRoom) -> tuple[int | None, int | None]:
    """The whole seconds a person has left for the turn ``room`` waits for now (as its
    timer runs, or, just after a move on the node that times the table, as the next
    turn's is about to be timed), and the point of the game it is timed for; None and
    None when the table times no turn, or not here (then the node that does tells it)."""
    due = room.table.due()
    if due is None or due.reason != "timer":
        return None, None
    left = room.turn_timer_left()
    if left is None and room.times_here:
        left = due.delay
    return (None, None) if left is None else (max(1, math.ceil(left)), room.point_of(due))


def table_summary(
    table: GameTable,
    away: set[int] | frozenset[int] = frozenset(),
    timer: int | None = None,
    timer_for: int | None = None,
) -> dict[str, Any]:
    """``Room.Table``: what every game's table shows everyone, the same way for every
    game. The phase; the host; the seats in turn order (each one's id, name, computer
    player level, whether they are out or away); whom the table waits for; the seconds
    left on the turn timer, and the point of the game it is timed for (a timer started
    again for the same seat is a new summary, not one already sent); how the last game
    ended, once it has; and ``you``, which :func:`send_views` fills in with each
    viewer's seat if they play here. The web page's shared table panel draws it (the
    seats, whose turn, a countdown, the winner line); each game's panel adds its own."""
    state = table.state
    over = state.phase == OVER
    return {
        "phase": state.phase,
        "host": state.host if state.seat(state.host) is not None else None,
        "you": None,  # each viewer's own: send_views
        "seats": [
            {
                "id": seat.account_id,
                "name": seat.name,
                "bot": seat.bot or None,
                "out": seat.out,
                "away": seat.account_id in away,
            }
            for seat in state.seats
        ],
        "waiting": table.waiting_for(),
        "timer": timer,
        "timer_for": timer_for,
        "result": shown(state.result) or None if over and state.result else None,
    }


def send_packages(
    room: GameRoom, players: list[OnlinePlayer] | None, packages_for: Callable[[int], Mapping[str, Any]]
) -> None:
    """A game's GMCP packages to everyone in the room who asked for GMCP (or just to
    ``players``): to each, ``packages_for(their account id)``, by package name. It is
    asked only for those who will be sent them."""
    for player in players if players is not None else list(room.occupants.values()):
        if any(connection.gmcp for connection in player.connections):
            with language(player.language):
                packages = packages_for(player.account_id)
            for connection in player.connections:
                for package, data in packages.items():
                    connection.send_gmcp(package, data)


def with_presence(drawing: str, table: GameTable, away: set[int], watching: list[str]) -> str:
    """A table's ``drawing`` as ``look`` shows it: under it, who of those seated is away
    and who is watching."""
    lines = [drawing]
    if away:
        names = ", ".join(table.name_of(account_id) for account_id in sorted(away))
        lines.append(_("Away: {names}.").format(names=names))
    if watching:
        lines.append(_("Watching: {names}.").format(names=", ".join(watching)))
    return "\n".join(lines)


def bot_label(seat: Seat) -> str:
    """A seat's name as lists show it: a computer player's marked as one."""
    return _("{name} (bot)").format(name=seat.name) if seat.bot else seat.name
