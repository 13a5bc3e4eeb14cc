"""Text that crosses the wire: cleaning what players send, laying out what they receive.

Everything a player types passes through :func:`clean_text` before any other code sees
it, so no terminal escape sequence or control character written by one player can reach
another player's terminal.
"""

from __future__ import annotations

import codecs
import re
import unicodedata

import regex
from anyascii import anyascii

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
    the joiners that emoji and some scripts need (see :data:`_INVISIBLE`).

    Text beyond ASCII is composed (Unicode NFC): ``Č`` sent as a C and a háček is the
    one letter ``Č``, as names are kept and compared.

    Every step is one regular expression or string method, run in C: a line costs the
    same few calls whatever it holds, so that no script or character is slower to clean.
    """
    if not text.isprintable():
        text = _ESCAPE_SEQUENCE.sub("", text)
        text = text.replace("\t", " ").replace("\n", " ").replace("\r", " ")
        text = _CONTROL_CHARACTER.sub("", text)
        if not text.isprintable():
            # Half of a UTF-16 pair, alone (JSON can carry one): no character, and text
            # no database or client can encode. Shown as invalid input is: U+FFFD.
            text = _LONE_SURROGATE.sub(REPLACEMENT_CHARACTER, text)
            text = _INVISIBLE.sub(r"\1", text)
    return text if text.isascii() else unicodedata.normalize("NFC", text)


#: What a character that cannot be read becomes (as invalid UTF-8 from telnet does).
REPLACEMENT_CHARACTER = "\ufffd"
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")

#: Scripts that write with the zero-width joiner and non-joiner: Arabic (and Persian), the
#: Indic ones.
_JOINING_SCRIPTS = r"\u0600-\u08ff\u0900-\u0dff\ufb50-\ufdff\ufe70-\ufeff"
#: What can be part of an emoji sequence: a pictograph, a skin tone, the emoji variation selector.
_EMOJI_PART = r"[[[\p{So}\p{Sk}]--[\x00-\u25ff]]\ufe0f]"
#: The emoji flag's tags.
_TAG = r"[\U000e0020-\U000e007f]"
#: Characters with no glyph of their own (format characters, the line and paragraph
#: separators), matched to be dropped, a run at a time; but those that are part of how
#: something is written are matched one by one as group 1, and so kept: a zero-width joiner
#: inside an emoji sequence (👨‍👩‍👧) or after an Arabic or Indic letter, a non-joiner
#: between two letters of a script that uses it, the tags of an emoji flag (🏴 + tags).
#: Each alternative starts with the character itself, so that the look around it is done
#: only where one stands.
_INVISIBLE = regex.compile(
    rf"""
    (
        \u200d (?<={_EMOJI_PART}\u200d) (?={_EMOJI_PART})
      | \u200d (?<=[[{_JOINING_SCRIPTS}]--\p{{Cf}}]\u200d) (?=.)
      | \u200c (?<=[[{_JOINING_SCRIPTS}]&&\p{{L}}]\u200c) (?=[[{_JOINING_SCRIPTS}]&&\p{{L}}])
      | {_TAG} (?<=[\U0001f3f4\U000e0020-\U000e007f]{_TAG})
    )
    | [\p{{Cf}}\p{{Zl}}\p{{Zp}}]+
    """,
    regex.VERBOSE | regex.VERSION1 | regex.DOTALL,
)


#: The pieces of colour markup, each taking no room on the screen: a span's start (with its
#: code) and its end, apart, as a line broken inside a span has one without the other.
_MARKUP_PARTS = re.compile("\x01[^\x02]*\x02|\x03")


#: Where a line is broken: runs of spaces, kept as chunks of their own (as textwrap's).
_SPACE_RUN = re.compile("( +)")


def _fill(line: str, width: int, indent: str) -> list[str]:
    """``line`` filled to ``width`` columns as :func:`textwrap.wrap` fills it (broken at
    spaces, the continuation lines indented by ``indent``, the spaces at a break dropped,
    a word too long for any line cut to fill the line it starts on), in time linear in its
    length whatever the width, measuring the columns of what shows (a wide character, as
    in Chinese, takes two; a combining mark none; colour markup none). A coloured span
    broken across lines is still one span (the markup is turned into ANSI after the lines
    are joined); a coloured word too long for a line is not cut, but put on a line of its
    own.

    Each chunk (a word, or a run of spaces) is measured once; a long word is cut where it
    stands, by an offset, never by measuring what is left of it again for each line."""
    chunks = [chunk for chunk in _SPACE_RUN.split(line) if chunk]
    #: The columns of each chunk, or of what is left of it once a piece was cut off.
    columns = [shown_width(chunk) for chunk in chunks]
    if sum(columns) <= width:
        return [line]
    lines: list[str] = []
    index = offset = 0  # what is still to place: chunks[index][offset:], then the chunks after it
    while index < len(chunks):
        prefix = indent if lines else ""
        room = max(1, width - len(prefix))
        if lines and chunks[index][0] == " ":
            index, offset = index + 1, 0  # the spaces at a break (what is left of them, if cut)
            continue
        parts: list[str] = []
        used = 0
        while index < len(chunks) and used + columns[index] <= room:
            parts.append(chunks[index][offset:] if offset else chunks[index])
            used += columns[index]
            index, offset = index + 1, 0
        if index < len(chunks) and columns[index] > room:
            word = chunks[index]
            if COLOUR_START in word or COLOUR_END in word:
                if not parts:
                    parts.append(word[offset:] if offset else word)
                    index, offset = index + 1, 0
            else:
                # Nothing of it may fit after the line so far (textwrap then adds an empty
                # piece); on a line of its own, a character wider than the line still goes.
                cut, taken = _fitting(word, offset, room - used)
                if not cut and not parts:
                    cut, taken = 1, _columns_of(word[offset])
                parts.append(word[offset : offset + cut])
                columns[index] -= taken
                offset += cut
                if offset >= len(word):
                    index, offset = index + 1, 0
        if parts and not parts[-1].strip():
            parts.pop()
        if parts:
            lines.append(prefix + "".join(parts))
    return lines or [""]


def shown_width(chunk: str) -> int:
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


def _fitting(word: str, start: int, columns: int) -> tuple[int, int]:
    """How many characters of ``word`` from ``start`` on fit in ``columns``, and the
    columns they take (looking at no more of it than that)."""
    if word.isascii():
        fit = max(0, min(columns, len(word) - start))
        return fit, fit
    taken = 0
    for i in range(start, len(word)):
        width = _columns_of(word[i])
        if taken + width > columns:
            return i - start, taken
        taken += width
    return len(word) - start, taken


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
        if len(line) <= width and (line.isascii() or shown_width(line) <= width):
            lines.append(line)
            continue
        shown = render_colours(line, False)
        column = _LAST_COLUMN.match(shown)
        indent = " " * len(column.group(0)) if column else shown[: len(shown) - len(shown.lstrip(" "))]
        if not indent or len(indent) > width // 2:
            # Never none where there is room (every client has): what a player wrote may
            # stand anywhere in a long line.
            indent = HANGING_INDENT if len(HANGING_INDENT) <= width // 2 else ""
        lines.extend(_fill(line, width, indent))
    return lines


def _transliterated(error: UnicodeError) -> tuple[str, int]:
    """What a client's character set cannot show: letters and digits in ASCII letters
    instead (``Жанна`` is ``Zhanna``, ``Čajovňa`` ``Cajovna``, ``漢`` ``Han``), a mark
    left off, anything else (a symbol, an emoji) a ``?``."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    shown = []
    for ch in error.object[error.start : error.end]:
        kind = unicodedata.category(ch)[0]
        if kind in "LN":
            shown.append(anyascii(ch) or "?")
        elif kind != "M":
            shown.append("?")
    return "".join(shown), error.end


#: The codec error handler that writes what a character set lacks in ASCII letters
#: (every character set a client may choose keeps ASCII as ASCII).
TRANSLITERATE = "mush-transliterate"
codecs.register_error(TRANSLITERATE, _transliterated)
