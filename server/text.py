"""Text that crosses the wire: cleaning what players send, laying out what they receive.

Everything a player types passes through :func:`clean_text` before any other code sees
it, so no terminal escape sequence or control character written by one player can reach
another player's terminal.
"""

from __future__ import annotations

import re
import textwrap
import unicodedata

#: ANSI/VT escape sequences: CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), the
#: string commands DCS/SOS/PM/APC (ESC P/X/^/_ ... ST), and two-byte ESC sequences.
_ESCAPE_SEQUENCE = re.compile(
    r"""
    \x1b\[[0-?]*[ -/]*[@-~]?            # CSI ... final byte (missing final: dropped too)
    | \x9b[0-?]*[ -/]*[@-~]?            # 8-bit CSI
    | \x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?   # OSC ... BEL / ST
    | \x9d[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?
    | \x1b[PX^_][^\x1b\x9c]*(?:\x1b\\|\x9c)?        # DCS, SOS, PM, APC ... ST
    | [\x90\x98\x9e\x9f][^\x1b\x9c]*(?:\x1b\\|\x9c)?
    | \x1b[ -/]*[0-~]?                  # ESC followed by one final byte (and any intermediates)
    """,
    re.VERBOSE,
)

#: C0 and C1 control characters, DEL, and the Unicode bidirectional overrides and
#: isolates that can make text display differently from what it says.
_CONTROL_CHARACTER = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


#: Colour markup inside rendered text: START code SEPARATOR text END. These are control
#: characters, which :func:`clean_text` removes from anything a player sends, so only
#: the server can write them. Each connection turns them into ANSI or drops them.
COLOUR_START, COLOUR_SEPARATOR, COLOUR_END = "\x01", "\x02", "\x03"
_COLOUR_MARKUP = re.compile("\x01([^\x02]*)\x02([^\x03]*)\x03")
_SGR = {"h": 1, "u": 4, "f": 5, "i": 7, "n": 0}
_SGR.update({letter: 30 + index for index, letter in enumerate("xrgybmcw")})
_SGR.update({letter.upper(): 40 + index for index, letter in enumerate("xrgybmcw")})


def coloured(text: str, code: str) -> str:
    """``text`` marked to be shown in MUSH colour ``code`` (``hw``, ``r``, ...) where the
    client has colour, and plain elsewhere. A code that is not one (whatever a database
    may hold) is ignored."""
    if not code or len(code) > 4 or not all(letter in _SGR for letter in code):
        return text
    return f"{COLOUR_START}{code}{COLOUR_SEPARATOR}{text}{COLOUR_END}"


def render_colours(text: str, ansi: bool) -> str:
    """Turn colour markup into ANSI escape sequences, or remove it."""
    if COLOUR_START not in text:
        return text
    if not ansi:
        return _COLOUR_MARKUP.sub(r"\2", text)

    def sgr(match: re.Match[str]) -> str:
        codes = ";".join(str(_SGR[c]) for c in match.group(1) if c in _SGR)
        return f"\x1b[{codes}m{match.group(2)}\x1b[0m" if codes else match.group(2)

    return _COLOUR_MARKUP.sub(sgr, text)


def clean_text(text: str) -> str:
    """Return ``text`` with escape sequences, control and invisible characters removed.

    Tabs and line breaks become single spaces (a command is one line); other control
    characters, ANSI/VT escape sequences, bidirectional controls, Unicode's line and
    paragraph separators (which some clients show as line breaks: fake server lines) and
    invisible formatting characters (zero-width spaces, word joiners, byte order marks)
    are dropped. Printable Unicode (accents, every script, emoji) is kept as sent, with
    the joiners that emoji and some scripts need (see :func:`_needed_joiner`).
    """
    if text.isprintable():
        return text
    text = _ESCAPE_SEQUENCE.sub("", text)
    text = text.replace("\t", " ").replace("\n", " ").replace("\r", " ")
    text = _CONTROL_CHARACTER.sub("", text)
    if text.isprintable():
        return text
    kept = []
    for i, ch in enumerate(text):
        category = unicodedata.category(ch)
        if category == "Cs":
            # Half of a UTF-16 pair, alone (JSON can carry one): no character, and text no
            # database or client can encode. Shown as invalid input is: U+FFFD.
            kept.append(REPLACEMENT_CHARACTER)
        elif category not in _INVISIBLE or _needed_joiner(text, i):
            kept.append(ch)
    return "".join(kept)


#: What a character that cannot be read becomes (as invalid UTF-8 from telnet does).
REPLACEMENT_CHARACTER = "\ufffd"

#: Unicode categories of characters with no glyph of their own: format characters, and
#: the line and paragraph separators.
_INVISIBLE = frozenset({"Cf", "Zl", "Zp"})
ZWNJ, ZWJ = "\u200c", "\u200d"
#: Scripts that write with the zero-width non-joiner: Arabic (and Persian), the Indic ones.
_JOINING_SCRIPTS = ((0x0600, 0x08FF), (0x0900, 0x0DFF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF))


def _needed_joiner(text: str, i: int) -> bool:
    """Whether the invisible character at ``text[i]`` is part of how something is
    written: a zero-width joiner inside an emoji sequence (👨‍👩‍👧) or after an Indic
    letter, a non-joiner between two letters of a script that uses it, or a tag of an
    emoji flag (🏴 + tags)."""
    ch = text[i]
    before = text[i - 1] if i > 0 else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    if ch == ZWJ:
        return bool(before and after) and ((_emoji_part(before) and _emoji_part(after)) or _in_joining_script(before))
    if ch == ZWNJ:
        return before.isalpha() and after.isalpha() and _in_joining_script(before) and _in_joining_script(after)
    if 0xE0020 <= ord(ch) <= 0xE007F:
        return before == "\U0001f3f4" or 0xE0020 <= ord(before or "\0") <= 0xE007F
    return False


def _emoji_part(ch: str) -> bool:
    """Whether ``ch`` can be a part of an emoji sequence: a pictograph, a skin tone, the
    emoji variation selector."""
    return ord(ch) >= 0x2600 and (unicodedata.category(ch) in ("So", "Sk") or ch == "\ufe0f")


def _in_joining_script(ch: str) -> bool:
    return any(low <= ord(ch) <= high for low, high in _JOINING_SCRIPTS)


#: The pieces of colour markup, each taking no room on the screen: a span's start (with its
#: code) and its end, apart, as a line broken inside a span has one without the other.
_MARKUP_PARTS = re.compile("\x01[^\x02]*\x02|\x03")


def _fill_measured(line: str, width: int, indent: str) -> list[str]:
    """A line with colour markup, or with characters not one column wide, filled as
    :func:`wrap_lines` fills a plain one (as textwrap does: broken at spaces, the
    continuation lines indented by ``indent``, the spaces at a break dropped, a word too
    long for any line cut to fill the line it starts on), measuring the columns of what
    shows (a wide character, as in Chinese, takes two; a combining mark none). A coloured
    span broken across lines is still one span (the markup is turned into ANSI after the
    lines are joined); a coloured word too long for a line is not cut, but put on a line
    of its own."""
    chunks = [chunk for chunk in re.split("( +)", line) if chunk][::-1]
    lines: list[str] = []
    while chunks:
        prefix = indent if lines else ""
        room = max(1, width - len(prefix))
        if lines and not chunks[-1].strip():
            chunks.pop()
            continue
        parts: list[str] = []
        used = 0
        while chunks and used + _shown_length(chunks[-1]) <= room:
            used += _shown_length(chunks[-1])
            parts.append(chunks.pop())
        if chunks and _shown_length(chunks[-1]) > room:
            word = chunks[-1]
            if COLOUR_START in word or COLOUR_END in word:
                if not parts:
                    parts.append(chunks.pop())
            else:
                # Nothing of it may fit after the line so far (textwrap then adds an empty
                # piece); on a line of its own, a character wider than the line still goes.
                cut = _cut_at_column(word, room - used) or (0 if parts else 1)
                parts.append(word[:cut])
                chunks[-1] = word[cut:]
        if parts and not parts[-1].strip():
            parts.pop()
        if parts:
            lines.append(prefix + "".join(parts))
    return lines or [""]


def _shown_length(chunk: str) -> int:
    """The columns ``chunk`` takes on the screen (its colour markup takes none)."""
    shown = _MARKUP_PARTS.sub("", chunk) if COLOUR_START in chunk or COLOUR_END in chunk else chunk
    return len(shown) if shown.isascii() else sum(map(_columns_of, shown))


def _columns_of(ch: str) -> int:
    """How many columns a terminal gives ``ch``: two for a wide character (East Asian
    wide and full-width forms, most emoji), none for a combining mark or an invisible
    joiner, else one."""
    if unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _cut_at_column(word: str, columns: int) -> int:
    """How many characters of ``word`` fit in ``columns``."""
    taken = 0
    for i, ch in enumerate(word):
        taken += _columns_of(ch)
        if taken > columns:
            return i
    return len(word)


#: A table row's columns up to its last: words apart by two spaces or more.
_LAST_COLUMN = re.compile(r" *\S+(?: {2,}\S+)* {2,}(?=\S)")

#: Marks a line to be sent whole, however wide the client (a usage line, an example to
#: copy): a control character, which :func:`clean_text` removes from anything a player
#: sends, so only the server can write it. :func:`wrap_lines` takes it off.
WHOLE_LINE = "\x04"


def reflowable(text: str) -> str:
    """Docstring-style ``text`` made ready to be wrapped to any client's width.

    Paragraphs are separated by blank lines; the lines of each are joined into one, which
    :func:`wrap_lines` then fills to the width of each client that receives it. Indented
    lines (examples, usage forms) are kept as they are, whole (:data:`WHOLE_LINE`).
    """
    lines: list[str] = []
    paragraph: list[str] = []
    for line in text.split("\n"):
        if line.strip() and not line[0].isspace():
            paragraph.append(line.strip())
            continue
        if paragraph:
            lines.append(" ".join(paragraph))
            paragraph = []
        lines.append(WHOLE_LINE + line.rstrip() if line.strip() else "")
    if paragraph:
        lines.append(" ".join(paragraph))
    return "\n".join(lines)


#: How far a wrapped line's continuations start in, at the least: only what begins a line
#: is at its left edge, so nothing a player writes (a say padded with spaces, a card's
#: text) can be wrapped into a line that looks like one of the server's own.
HANGING_INDENT = "  "


def wrap_lines(text: str, width: int) -> list[str]:
    """Split ``text`` into lines no wider than ``width`` columns, breaking at spaces.

    Lines that already fit are kept exactly (tables keep their alignment), and so are
    lines marked :data:`WHOLE_LINE`; longer lines are word-wrapped. Continuation lines
    keep the line's indentation, or hang under its last column when it is a table's row
    (``  say            Say something...``, ``handlimit   5   most cards...``); those of
    a line that starts at the left edge are indented by :data:`HANGING_INDENT`.
    """
    lines: list[str] = []
    for line in text.split("\n"):
        if line.startswith(WHOLE_LINE):
            lines.append(line[1:])
            continue
        if len(line) <= width and (line.isascii() or _shown_length(line) <= width):
            lines.append(line)
            continue
        shown = render_colours(line, False)
        if _shown_length(shown) <= width:
            lines.append(line)
            continue
        column = _LAST_COLUMN.match(shown)
        indent = " " * len(column.group(0)) if column else shown[: len(shown) - len(shown.lstrip(" "))]
        indent = indent or HANGING_INDENT
        if len(indent) > width // 2:
            indent = ""
        if shown is not line or not shown.isascii():
            lines.extend(_fill_measured(line, width, indent))
            continue
        lines.extend(
            textwrap.wrap(
                line,
                width=width,
                subsequent_indent=indent,
                break_long_words=True,
                break_on_hyphens=False,
                drop_whitespace=True,
            )
            or [""]
        )
    return lines
