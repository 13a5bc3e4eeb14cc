"""Wording and argument parsing shared by commands: durations, counts, cut-off names,
``<left>=<right>`` and "quoted" arguments.

Cleaning what players send and laying out what they receive is the server core's
(:mod:`server.text`), since connections do it to every line.
"""

from __future__ import annotations


def format_duration(seconds: float) -> str:
    """Idle-style duration in the MUSH fashion: ``4s``, ``12m``, ``3h``, ``2d``."""
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m"
    if seconds < 86400:
        return f"{seconds // 3600}h"
    return f"{seconds // 86400}d"


def format_online_time(seconds: float) -> str:
    """Time-online in the MUSH fashion: ``HH:MM``, or ``Nd HH:MM`` past a day."""
    seconds = max(0, int(seconds))
    days, seconds = divmod(seconds, 86400)
    hours, seconds = divmod(seconds, 3600)
    clock = f"{hours:02d}:{seconds // 60:02d}"
    return f"{days}d {clock}" if days else clock


def plural(count: int, noun: str, many: str = "") -> str:
    """``1 card``, ``3 cards`` (``many``: the plural, where it is not the noun and s)."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def truncate(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, ending in ``...`` when cut."""
    if len(text) <= width:
        return text
    return text[: max(0, width - 3)] + "..."


def split_assignment(args: str) -> tuple[str, str] | None:
    """Split MUSH ``<left>=<right>`` arguments at the first ``=``; None if there is none."""
    left, sep, right = args.partition("=")
    if not sep:
        return None
    return left.strip(), right.strip()


def parse_quoted_word(args: str) -> tuple[str, str]:
    """Take the first argument, which may be a "double quoted" phrase, and the rest.

    ``'"Jo Smith" secret'`` gives ``("Jo Smith", "secret")``; ``'Jo secret'`` gives
    ``("Jo", "secret")``. An unterminated quote takes everything after it.
    """
    args = args.strip()
    if args.startswith('"'):
        closing = args.find('"', 1)
        if closing == -1:
            return args[1:].strip(), ""
        return args[1:closing].strip(), args[closing + 1 :].strip()
    first, _, rest = args.partition(" ")
    return first, rest.strip()
