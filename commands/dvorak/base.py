"""What every Dvorak command needs: the room it is in, its table, card numbers, players."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from commands.base import Command, CommandError, Context
from games.dvorak.rules import RuleViolation, Table
from games.dvorak.state import Seat
from server.rooms import GameRoom

T = TypeVar("T")

_CARD_NUMBER = re.compile(r"#?(\d{1,9})")


def current_room(ctx: Context) -> GameRoom:
    """The game room the player is in; a clear refusal if they are in none."""
    place = ctx.player.place
    if not isinstance(place, GameRoom):
        raise CommandError('You are not in a game room. Type "rooms" to see them, "join <room>" to sit down.')
    return place


async def perform(ctx: Context, move: Callable[[Table], T]) -> T:
    """Make a move at the player's table: a rule broken becomes the reply."""
    try:
        return await current_room(ctx).perform(move)
    except RuleViolation as violation:
        raise CommandError(str(violation)) from None


async def inspect(ctx: Context, look: Callable[[Table], T]) -> T:
    """Read the player's table; a rule broken becomes the reply."""
    try:
        return await current_room(ctx).inspect(look)
    except RuleViolation as violation:
        raise CommandError(str(violation)) from None


def card_number(text: str, usage: str) -> int:
    """``12`` or ``#12`` as a number; a refusal naming ``usage`` otherwise."""
    match = _CARD_NUMBER.fullmatch(text.strip())
    if match is None:
        raise CommandError(f"Which card? Give its number. Usage: {usage}")
    return int(match.group(1))


def find_seat(table: Table, ctx: Context, name: str) -> Seat | None:
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
        raise CommandError(f'"{name}" could be any of: {", ".join(s.name for s in starts)}.')
    return starts[0] if starts else None


def seated_player(table: Table, ctx: Context, name: str, usage: str) -> Seat:
    """Like :func:`find_seat`, but nobody found is a refusal; no name at all is answered
    with the command's ``usage``."""
    if not name.strip():
        raise CommandError(f"Which player? Usage: {usage}")
    seat = find_seat(table, ctx, name)
    if seat is None:
        raise CommandError(
            "You are not seated here."
            if name.strip().lower() == "me"
            else f'Nobody called "{name.strip()}" is seated here.'
        )
    return seat


class GameCommand(Command):
    """A command about the table. ``forceable`` ones may be prefixed with ``force``."""

    forceable = False
