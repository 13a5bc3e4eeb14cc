"""What every Dvorak command needs beyond every game's (:mod:`commands.tables`): card
numbers, and ``force``."""

from __future__ import annotations

import re

from commands.base import Command, CommandError

_CARD_NUMBER = re.compile(r"#?(\d{1,9})")


def card_number(text: str, usage: str) -> int:
    """``12`` or ``#12`` as a number; a refusal naming ``usage`` otherwise."""
    match = _CARD_NUMBER.fullmatch(text.strip())
    if match is None:
        raise CommandError(f"Which card? Give its number. Usage: {usage}")
    return int(match.group(1))


class GameCommand(Command):
    """A command about the table. ``forceable`` ones may be prefixed with ``force``."""

    forceable = False
