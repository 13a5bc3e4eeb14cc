"""Wording and argument parsing shared by commands: durations, counts, cut-off names,
``<left>=<right>`` and "quoted" arguments.

Cleaning what players send and laying out what they receive is the server core's
(:mod:`server.text`), since connections do it to every line.
"""

from __future__ import annotations

import difflib
import re

from commands.base import CommandError
from i18n import Said, ngettext, said
from server.text import shown_width


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
    """``text`` cut to ``width`` columns of the screen, ending in ``...`` when cut (a
    wide character takes two columns, an accent that combines with a letter none)."""
    if len(text) <= width and text.isascii() or shown_width(text) <= width:
        return text
    room, kept = max(0, width - 3), 0
    for end, character in enumerate(text):
        kept += shown_width(character)
        if kept > room:
            return text[:end] + "..."
    return text


def ljust(text: str, width: int) -> str:
    """``text`` filled with spaces to ``width`` columns of the screen (a column of a table)."""
    return text + " " * (width - shown_width(text))


def rjust(text: str, width: int) -> str:
    """``text`` after spaces that make it ``width`` columns of the screen."""
    return " " * (width - shown_width(text)) + text


#: The most of what a player typed that a reply quotes back to them ("There is no
#: command ..."): enough to see what was meant, and no more, however long the line was.
ECHO_MOST = 40


def echoed(typed: str) -> str:
    """What a player typed, as a reply quotes it: at most :data:`ECHO_MOST` characters."""
    return typed if len(typed) <= ECHO_MOST else typed[: ECHO_MOST - 3] + "..."


#: The most characters one page of a long list shows (``viewall 2``, ...): what can be
#: laid out at once without holding up anyone else, and read on a screen.
PAGE_MOST = 16_000
_PAGE_NUMBER = re.compile(r"(?:^|\s)([0-9]{1,6})$")


#: The longest word :func:`close_matches` looks at: no command or topic is longer, and a
#: longer one (a paste, a flood) is no typo of one.
LONGEST_TYPO = 40


def close_matches(typed: str, known: list[str], most: int = 2) -> list[str]:
    """The names in ``known`` that ``typed`` is likely a typo of (``drwa``: ``draw``),
    the closest first; none for a word of two letters or fewer, or a very long one."""
    if not 2 < len(typed) <= LONGEST_TYPO:
        return []
    return difflib.get_close_matches(typed, known, n=most, cutoff=0.75)


def docstring_section(doc: str, heading: str) -> str:
    """The section of ``doc`` (a module's docstring) under ``heading``, underlined with
    dashes as reST does, for a player: its lead-in, if any, then each ``- `` bullet a
    paragraph of its own, every paragraph's lines joined (filled to the reader's window
    when sent). A game writes its readings of the rules once, in its rules' docstring,
    and ``help <game>`` shows them from there."""
    body = doc.split(f"{heading}\n{'-' * len(heading)}\n", 1)[1].strip()
    lead, *bullets = [" ".join(part.split()) for part in ("\n" + body).split("\n- ")]
    return "\n\n".join([*([lead] if lead else []), *(f"- {bullet}" for bullet in bullets)])


def page_number(args: str) -> tuple[str, int]:
    """The arguments before a trailing page number, and the page (1 when none is given)."""
    found = _PAGE_NUMBER.search(args.strip())
    if found is None:
        return args.strip(), 1
    return args.strip()[: found.start()].strip(), max(1, int(found.group(1)))


def page_of(entries: list[str], page: int, command: str, empty: str = "  (none)") -> str:
    """Page ``page`` (from 1) of a long list of ``entries`` (each one or more lines): as
    many whole entries as fit in :data:`PAGE_MOST` characters (one at least), and, when
    there are more pages, a last line saying which this is and that ``<command> <n>``
    shows page n. A page past the last is refused."""
    if not entries:
        return empty
    first, last, pages = page_bounds(entries, page)
    text = "\n".join(entries[first:last])
    footer = page_footer(entries, page, command)
    return text if footer is None else f"{text}\n{footer}"


def page_bounds(entries: list[str], page: int) -> tuple[int, int, int]:
    """Where page ``page`` (from 1) of ``entries`` begins and ends (from 0, the end not
    included), and how many pages there are, as :func:`page_of` pages them; a page past
    the last is refused."""
    pages: list[tuple[int, int]] = []
    start = size = 0
    for index, entry in enumerate(entries):
        if index > start and size + len(entry) > PAGE_MOST:
            pages.append((start, index))
            start, size = index, 0
        size += len(entry) + 1
    pages.append((start, len(entries)))
    if page > len(pages):
        refusal = ngettext("There is only {n} page of it.", "There are only {n} pages of it.", len(pages))
        raise CommandError(refusal.format(n=len(pages)))
    first, last = pages[page - 1]
    return first, last, len(pages)


def page_footer(entries: list[str], page: int, command: str) -> Said | None:
    """The line under page ``page`` of ``entries`` saying which page it is and that
    ``<command> <n>`` shows page n, in each reader's language; None when there is one page."""
    first, last, pages = page_bounds(entries, page)
    if pages == 1:
        return None
    where = {"page": page, "pages": pages, "first": first + 1, "last": last, "count": len(entries)}
    if page < pages:
        return said(
            "(Page {page} of {pages}: {first}-{last} of {count}. Next: {command} {next})",
            command=command,
            next=page + 1,
            **where,
        )
    return said("(Page {page} of {pages}: {first}-{last} of {count}.)", **where)


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
