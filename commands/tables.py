"""What every command at a game table needs, whatever the game: the room the player is
in, moves and looks at its table (a broken rule becomes the reply), and players found by
name; and the commands games with computer players share (addbot, removebot, set)."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any, ClassVar, TypeVar

from commands.base import Command, CommandError, Context
from commands.text import echoed, ljust, split_assignment
from games.base import GameTable, RuleViolation, Seat
from games.toolkit import Setting, TurnTable
from i18n import _, ngettext
from server.budgets import Budgets
from server.rooms import GameRoom
from server.text import shown_width

T = TypeVar("T")
#: A game's own table class.
G = TypeVar("G", bound=GameTable)


def current_room(ctx: Context) -> GameRoom:
    """The game room the player is in; a clear refusal if they are in none."""
    place = ctx.player.place
    if not isinstance(place, GameRoom):
        raise CommandError(_('You are not in a game room. Type "rooms" to see them, "join <room>" to sit down.'))
    return place


async def perform(ctx: Context, move: Callable[[GameTable], T]) -> T:
    """Make a move at the player's table: a rule broken becomes the reply."""
    try:
        return await current_room(ctx).perform(move)
    except RuleViolation as violation:
        raise CommandError(str(violation)) from None


@asynccontextmanager
async def writing(ctx: Context, budget: str, amount: float) -> AsyncIterator[None]:
    """What is written inside (``budget``: "writes", cards and proposals; "saved_bytes",
    bytes of saved decks) counts against the player's budget of it an hour (see
    :class:`server.budgets.Budgets`): refused past it, with when they may write again;
    given back if what is inside fails."""
    budgets, account = ctx.services.get(Budgets), ctx.player.account_id
    allowance = budgets.writes if budget == "writes" else budgets.saved_bytes
    wait = budgets.spend(budget, allowance, account, amount)
    if wait:
        minutes = max(1, math.ceil(wait / 60)) if wait != math.inf else 0
        if budget == "writes":
            if wait == math.inf:
                raise CommandError(
                    _("That is more cards and proposals than one player may write in an hour, so nothing was changed.")
                )
            refusal = ngettext(
                "You have written as many cards and proposals as one player may in an hour, so nothing was changed. "
                "You may write more in {n} minute.",
                "You have written as many cards and proposals as one player may in an hour, so nothing was changed. "
                "You may write more in {n} minutes.",
                minutes,
            )
        else:
            if wait == math.inf:
                raise CommandError(
                    _("That is more saved decks than one player may write in an hour, so nothing was changed.")
                )
            refusal = ngettext(
                "You have written as many saved decks as one player may in an hour, so nothing was changed. "
                "You may write more in {n} minute.",
                "You have written as many saved decks as one player may in an hour, so nothing was changed. "
                "You may write more in {n} minutes.",
                minutes,
            )
        raise CommandError(refusal.format(n=minutes))
    try:
        yield
    except BaseException:
        allowance.spend(account, -amount)
        raise


async def inspect(ctx: Context, look: Callable[[GameTable], T]) -> T:
    """Read the player's table; a rule broken becomes the reply."""
    try:
        return await current_room(ctx).inspect(look)
    except RuleViolation as violation:
        raise CommandError(str(violation)) from None


def game_table(kind: type[G], table: GameTable) -> G:
    """``table`` as its game's own table class ``kind``, for that game's commands. They are
    looked up only in rooms of their game, so a table of another kind is a programming error."""
    if not isinstance(table, kind):
        raise TypeError(f"a command for {kind.__name__} reached a {type(table).__name__}")
    return table


async def perform_on(ctx: Context, kind: type[G], move: Callable[[G], T]) -> T:
    """:func:`perform` for a game's own commands: ``move`` takes the game's table class ``kind``."""
    return await perform(ctx, lambda table: move(game_table(kind, table)))


async def inspect_on(ctx: Context, kind: type[G], look: Callable[[G], T]) -> T:
    """:func:`inspect` for a game's own commands: ``look`` takes the game's table class ``kind``."""
    return await inspect(ctx, lambda table: look(game_table(kind, table)))


def find_seat(table: GameTable, ctx: Context, name: str) -> Seat | None:
    """The seated player called ``name`` (``me`` for yourself, or a unique start of a
    name), or None if nobody seated is; refuses an ambiguous abbreviation."""
    name = name.strip()
    if name.lower() == "me":
        return table.state.seat(ctx.player.account_id)
    key = name.casefold()
    exact = [seat for seat in table.state.seats if seat.name.casefold() == key]
    if exact:
        return exact[0]
    starts = [seat for seat in table.state.seats if seat.name.casefold().startswith(key)]
    if len(starts) > 1:
        raise CommandError(
            _('"{typed}" could be any of: {names}.').format(typed=echoed(name), names=", ".join(s.name for s in starts))
        )
    return starts[0] if starts else None


def seated_player(table: GameTable, ctx: Context, name: str, usage: str) -> Seat:
    """Like :func:`find_seat`, but nobody found is a refusal; no name at all is answered
    with the command's ``usage``."""
    if not name.strip():
        raise CommandError(_("Which player? Usage: {usage}").format(usage=usage))
    seat = find_seat(table, ctx, name)
    if seat is None:
        if name.strip().lower() == "me":
            raise CommandError(_("You are not seated here."))
        raise CommandError(_('Nobody called "{name}" is seated here.').format(name=echoed(name.strip())))
    return seat


class StartCommand(Command):
    """Start a game (host; each game's command says how in its own help)."""

    key = "start"
    alone = True
    #: The game's table class.
    table_class: ClassVar[type[TurnTable]]

    async def run(self, ctx: Context, args: str) -> None:
        actor = ctx.player.account_id
        await perform_on(ctx, self.table_class, lambda table: table.start(actor))


class AddBotCommand(Command):
    """Seat a computer player (each game's command says its levels in its own help)."""

    key = "addbot"
    usage = ("addbot", "addbot <level>", "addbot <level> <name>")
    #: The game's table class, which has the computer players' seats.
    table_class: ClassVar[type[TurnTable]]

    async def run(self, ctx: Context, args: str) -> None:
        level, _space, name = args.strip().partition(" ")
        levels = self.table_class.levels
        # Alone, it seats a normal player; a game without that level, its first.
        level = level or ("normal" if "normal" in levels else levels[0])
        if level.lower() not in levels:
            raise CommandError(
                _("Which level? {levels}. Usage: {usage}").format(levels=", ".join(levels), usage=self.usage_text())
            )
        actor = ctx.player.account_id
        await perform_on(ctx, self.table_class, lambda table: table.add_bot(actor, level, name))


class RemoveBotCommand(Command):
    """Take a computer player's seat away (host, between games)."""

    key = "removebot"
    usage = ("removebot <name>",)
    table_class: ClassVar[type[TurnTable]]

    async def run(self, ctx: Context, args: str) -> None:
        if not args.strip():
            raise CommandError(_("Which computer player? Usage: {usage}").format(usage=self.usage_text()))
        actor = ctx.player.account_id
        await perform_on(ctx, self.table_class, lambda table: table.remove_bot(actor, args))


def timer_seconds_left(room: GameRoom) -> int | None:
    """The whole seconds left on the turn timer ``room`` runs for the turn it waits for
    now, as ``look`` tells them; None when there is none, or this node does not time it."""
    left = room.turn_timer_left()
    return None if left is None else max(1, math.ceil(left))


class SetCommand(Command):
    """Change a table setting (host); "set" alone lists them (each game's command says
    its settings in its own help)."""

    key = "set"
    usage = ("set", "set <setting>=<value>")
    table_class: ClassVar[type[TurnTable]]

    async def run(self, ctx: Context, args: str) -> None:
        if not args.strip():
            ctx.reply(settings_list(self.table_class.settings_spec, current_room(ctx).table.state.settings))
            return
        assignment = split_assignment(args)
        if assignment is None or not assignment[0]:
            raise CommandError(_("Usage: {usage}").format(usage=self.usage_text()))
        name, value = assignment
        actor = ctx.player.account_id
        await perform_on(ctx, self.table_class, lambda table: table.set(actor, name, value))


def settings_list(settings: Mapping[str, Setting], values: Mapping[str, Any]) -> str:
    """The table's settings as ``set`` alone (and Dvorak's ``settings``) lists them: each
    one's value, starred where it differs from the default, and what it means."""
    shown = {}
    for name, spec in settings.items():
        value = values.get(name, spec.default)
        shown[name] = spec.show(value) + ("*" if value != spec.default else "")
    heading, value_heading = _("Setting"), _("Value")
    name_width = max(11, shown_width(heading))
    width = max(shown_width(value_heading), *map(shown_width, shown.values()))
    meaning = _("Meaning")
    lines = [f"{ljust(heading, name_width)} {ljust(value_heading, width)}  {meaning}"]
    lines += [
        f"{ljust(name, name_width)} {ljust(shown[name], width)}  {_(spec.about)}" for name, spec in settings.items()
    ]
    lines.append(_("* differs from the default. The host changes one with: set <setting>=<value>"))
    return "\n".join(lines)


def table_commands(table_class: type[TurnTable]) -> list[Command]:
    """``start``, ``addbot``, ``removebot`` and ``set`` for the toolkit table
    ``table_class``, each with help made from what the table says of itself (its
    levels, its settings). A game that wants help of its own subclasses them instead."""
    made = (
        type(base.__name__, (base,), {"table_class": table_class, "doc": classmethod(doc)})
        for base, doc in _DOCS.items()
    )
    return [command() for command in made]


def _start_doc(command: type[StartCommand]) -> str:
    table = command.table_class
    return _("Start a {game} of {title} (host), with everyone seated.").format(
        game=_(table.game_word), title=_(table.title)
    )


def _add_bot_doc(command: type[AddBotCommand]) -> str:
    table = command.table_class
    doc = _("Seat a computer player (host, between {games}).\n\nLevels: {levels}. Its name is one of {names}.")
    return doc.format(games=_(table.games_word), levels=", ".join(table.levels), names=", ".join(table.bot_names))


def _remove_bot_doc(command: type[RemoveBotCommand]) -> str:
    return _("Take a computer player's seat away (host, between {games}).").format(
        games=_(command.table_class.games_word)
    )


def _set_doc(command: type[SetCommand]) -> str:
    table = command.table_class
    settings = []
    for spec in table.settings_spec.values():
        if spec.mid_match:
            settings.append(f"{spec.name} ({_(spec.values)}): {_(spec.about)}")
        else:
            between = _("{values}, between {games}").format(values=_(spec.values), games=_(table.games_word))
            settings.append(f"{spec.name} ({between}): {_(spec.about)}")
    return _('Change a table setting (host); "set" alone lists them.\n\n{settings}.').format(
        settings="; ".join(settings)
    )


#: The help of each of the toolkit's commands, made from what the table says of itself
#: (its levels, its settings) in the reader's language.
_DOCS: dict[type[Command], Callable[..., str]] = {
    StartCommand: _start_doc,
    AddBotCommand: _add_bot_doc,
    RemoveBotCommand: _remove_bot_doc,
    SetCommand: _set_doc,
}
