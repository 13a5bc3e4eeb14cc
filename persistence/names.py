"""Names in any letters: the alphabets a player's or a room's name may be written in, the
form it is kept and compared in, and the form that matches it without its accents (for
players who cannot type them). Pure functions; the stores key names with them."""

from __future__ import annotations

import unicodedata

from i18n import N_, _

#: Greek and Cyrillic letters drawn as Latin ones (Unicode TR 39's confusables, for the
#: letters names and chat use), lower case.
DRAWN_AS_LATIN = str.maketrans(
    "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧαικνορτυχАВЕКМНОРСТУХаеорсухіјѕԁɑɡ",
    "abezhikmnoptyxaikvoptuxabekmhopctyxaeopcyxijsdag",
)

#: Letters that are not a plain letter with a mark on it, so that taking marks off leaves
#: them as they are: their plain forms, as a keyboard without them types them.
_PLAIN_LETTERS = str.maketrans(
    {"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe"}
    | {"Œ": "OE", "ı": "i", "ħ": "h", "Ħ": "H", "ŧ": "t", "Ŧ": "T"}
)


def normal(text: str) -> str:
    """``text`` as names are kept: composed (Unicode NFC), so that ``Č`` typed as C and
    a háček is the same name as ``Č`` typed as one letter."""
    return unicodedata.normalize("NFC", text)


def folded(text: str) -> str:
    """The form two names that are the same whatever their letter case share."""
    return normal(text).casefold()


def without_marks(text: str) -> str:
    """``text`` with its accents and other marks taken off: ``Čajovňa`` is ``Cajovna``."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_PLAIN_LETTERS))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def plain(text: str) -> str:
    """The form a name is matched in by one who cannot type its accents: ``rehor``
    for ``Řehoř``, and for ``Rehor``."""
    return without_marks(normal(text)).casefold()


#: The Greek and Cyrillic letters a name may have: the modern alphabets (with their
#: accented letters), not their archaic, phonetic or small-capital forms.
_GREEK = range(0x0386, 0x03D0)
_CYRILLIC = range(0x0400, 0x0460)


def alphabet(ch: str) -> str | None:
    """The alphabet of the letter ``ch`` (``LATIN``, ``CYRILLIC``, ``GREEK``), or None
    if it is no letter a name may use: a capital or small letter of a modern alphabet,
    a Latin one being a plain letter (a to z, or ł, ø, ß...) with marks on it. Not a
    number letter (Ⅰ), a small capital (ᴀ), a phonetic letter (ɩ) or a ligature (ﬃ):
    each reads as another letter."""
    if unicodedata.category(ch) not in ("Lu", "Ll"):
        return None
    if ord(ch) in _GREEK:
        return "GREEK"
    if ord(ch) in _CYRILLIC:
        return "CYRILLIC"
    decomposed = unicodedata.normalize("NFD", ch.translate(_PLAIN_LETTERS))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return "LATIN" if bare.isascii() and bare.isalpha() else None


def letters_problem(name: str, what: str) -> str | None:
    """Why the letters of ``name`` (composed) cannot make ``what`` ("A name", marked for
    the catalogs with ``N_``), or None:
    each is one names may use (:func:`alphabet`), and all of the same alphabet; nothing
    else but ASCII is in it."""
    found = set()
    for ch in name:
        if ch.isascii() and not ch.isalpha():
            continue
        letters = alphabet(ch)
        if letters is None:
            refusal = _("{what} is written in Latin, Cyrillic or Greek letters; '{letter}' is none of them.")
            return refusal.format(what=_(what), letter=ch)
        found.add(letters)
    if len(folded(name)) > len(name):
        # ß and the like fold to two letters: a name is kept in as many as it has.
        return _("'{name}' is longer once its letter case is folded (ß is ss): write it as it folds.").format(name=name)
    if len(found) > 1:
        first, second = sorted(_(ALPHABET_NAMES[letters]) for letters in found)[:2]
        refusal = _(
            "'{name}' mixes letters of two alphabets ({first} and {second}), as a look-alike name does: use one."
        )
        return refusal.format(name=name, first=first, second=second)
    return None


#: Each alphabet by its name for players.
ALPHABET_NAMES = {"LATIN": N_("Latin"), "CYRILLIC": N_("Cyrillic"), "GREEK": N_("Greek")}
