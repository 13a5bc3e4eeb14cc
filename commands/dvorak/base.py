"""What every Dvorak command needs beyond every game's (:mod:`commands.tables`): card
numbers, ``force``, and the shape of a move on one card."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import ClassVar, TypeVar

from commands.base import Command, CommandError, Context
from commands.tables import inspect_on, perform_on
from games.dvorak.facedown import LABEL
from games.dvorak.rules import Table
from games.dvorak.state import Card
from games.dvorak.visibility import copy_visible
from i18n import N_, _
from persistence.names import letters_problem
from server.rooms import ROOM_NAME_MAX, ROOM_NAME_RULE, check_room_name

T = TypeVar("T")

_CARD_NUMBER = re.compile(r"#?([0-9]+)")


def card_number(text: str, usage: str) -> int:
    """``12`` or ``#12`` as a number; a refusal naming ``usage`` otherwise."""
    match = _CARD_NUMBER.fullmatch(text.strip())
    if match is None:
        raise CommandError(_("Which card? Give its number. Usage: {usage}").format(usage=usage))
    digits = match.group(1)
    if len(digits) > 9:
        number = f"{digits[:12]}{'...' if len(digits) > 12 else ''}"
        raise CommandError(_("There is no card #{number} at this table.").format(number=number))
    return int(digits)


def card_ref(text: str, usage: str) -> int | str:
    """A card number, or the label of a face-down card (``FD1``, as an upper-case string)."""
    if LABEL.fullmatch(text.strip()):
        return text.strip().upper()
    return card_number(text, usage)


#: What a deck's name may be: a room's rule, said of a deck.
DECK_NAME_RULE = N_(
    "A deck name is 2-{most} characters: letters (Latin, Cyrillic or Greek), digits, "
    "single spaces and - _ ' . ! ?, starting with a letter or digit."
)


def deck_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a saved deck (a deck's name is as a room's), or None."""
    problem = check_room_name(name)
    if problem is None:
        return None
    if problem == _(ROOM_NAME_RULE).format(most=ROOM_NAME_MAX):
        return _(DECK_NAME_RULE).format(most=ROOM_NAME_MAX)
    return letters_problem(name, N_("A deck name")) or problem


def resolve(table: Table, ref: int | str) -> int:
    """The number of the card ``ref`` names (see :func:`card_ref`)."""
    return table.face_down_number(ref) if isinstance(ref, str) else ref


def hidden_copy_refused(table: Table, number: int, viewer: int) -> Card:
    """Card ``number``, for ``viewer`` to read; but a copy in another player's CCG deck
    that ``viewer`` may not see is refused (as the visibility policy says)."""
    card = table.card(number)
    if not copy_visible(table.state, number, viewer):
        refusal = _("#{number} is a copy in another player's deck: you read it when they show it.")
        raise CommandError(refusal.format(number=number))
    return card


async def perform(ctx: Context, move: Callable[[Table], T]) -> T:
    """Make a move at the player's Dvorak table; a rule broken becomes the reply."""
    return await perform_on(ctx, Table, move)


async def inspect(ctx: Context, look: Callable[[Table], T]) -> T:
    """Read the player's Dvorak table; a rule broken becomes the reply."""
    return await inspect_on(ctx, Table, look)


class GameCommand(Command):
    """A command about the table. A ``forceable`` one may be prefixed with ``force``
    (:class:`commands.dvorak.moves.Force`): it does its work in :meth:`move`, told whether
    it is forced; the others implement ``run`` as every command does."""

    forceable: ClassVar[bool] = False

    async def run(self, ctx: Context, args: str) -> None:
        await self.move(ctx, args, forced=False)

    async def move(self, ctx: Context, args: str, forced: bool) -> None:
        """Do the command's work, outside the basic turn rules when ``forced``."""
        raise NotImplementedError(f"{type(self).__name__} implements neither run nor move")


class CardMove(GameCommand):
    """A move on one card, given by its number: such a command is its name, docstring,
    usage and the rules method it calls, as ``method(actor, number)`` (with ``forced``
    when it may be forced)."""

    #: The name of the :class:`games.dvorak.rules.Table` method the move calls.
    rules_method: ClassVar[str]

    async def move(self, ctx: Context, args: str, forced: bool) -> None:
        number = card_number(args, self.usage_text())
        actor = ctx.player.account_id
        method = self.rules_method
        if self.forceable:
            await perform(ctx, lambda table: getattr(table, method)(actor, number, forced=forced))
        else:
            await perform(ctx, lambda table: getattr(table, method)(actor, number))
