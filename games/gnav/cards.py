"""The cards of Gnav: 21 suitless ranks, two cards of each, 42 in all.

A card is named by its rank's key (``"fool"``, ``"vii"``, ``"cuckoo"``); the two cards of
a rank are alike, so a hand, the stock and every event hold keys. ``RANKS`` is the one
table of the ranks, lowest first; the top five are the *matadors*, which answer an ask
to swap instead of accepting it.
"""

from __future__ import annotations

from dataclasses import dataclass

from i18n import N_, _


@dataclass(frozen=True)
class Rank:
    """One of the 21 ranks: its place from the lowest (0) up, its key, its English and
    Norwegian names, and whether it is a matador."""

    order: int
    key: str
    english: str
    norwegian: str
    matador: bool = False


NUMERALS = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")
#: Each rank's key, English name and Norwegian name, lowest first. The English names of
#: the word ranks are the catalogs' keys (:func:`shown_name`); a number is the same in every
#: language, and the Norwegian names are the cards' own, shown beside them untranslated.
_TABLE = [
    # Translators: the names of Gnav's cards (the Norwegian names are shown beside them).
    ("fool", N_("Fool"), "Narr"),
    ("owl", N_("Owl"), "Ugle"),
    ("pot", N_("Pot"), "Potte"),
    ("0", "0", "0"),
    *((numeral.lower(), numeral, numeral) for numeral in NUMERALS),
    ("house", N_("House"), "Hus"),
    ("horse", N_("Horse"), "Hest"),
    ("cat", N_("Cat"), "Katt"),
    ("dragoon", N_("Dragoon"), "Drak"),
    ("cuckoo", N_("Cuckoo"), "Gjøk"),
]

#: The ranks, lowest first.
RANKS: tuple[Rank, ...] = tuple(
    Rank(order, key, english, norwegian, matador=order >= len(_TABLE) - 5)
    for order, (key, english, norwegian) in enumerate(_TABLE)
)
BY_KEY: dict[str, Rank] = {rank.key: rank for rank in RANKS}

FOOL, HOUSE, HORSE, CAT, DRAGOON, CUCKOO = "fool", "house", "horse", "cat", "dragoon", "cuckoo"
#: Matadors that send the asker on to the next player (or card of the stock).
PASSERS = (HOUSE, HORSE)
#: Matadors that refuse and cost the asker a life.
REFUSERS = (CAT, DRAGOON)

COPIES = 2
#: The 42 cards, two of each rank, lowest first (the rules shuffle a copy every deal).
DECK: tuple[str, ...] = tuple(rank.key for rank in RANKS for _copy in range(COPIES))


def order(key: str) -> int:
    """How high a card is: 0 for the Fool up to 20 for the Cuckoo."""
    return BY_KEY[key].order


def english(key: str) -> str:
    """The card's English name: ``Fool``, ``VII``, ``Cuckoo``."""
    return BY_KEY[key].english


def shown_name(key: str) -> str:
    """The card's name as the reader is shown it: its English name in their language
    (a number, ``VII``, is the same in every language)."""
    rank = BY_KEY[key]
    return rank.english if rank.english == rank.norwegian else _(rank.english)


def norwegian(key: str) -> str:
    """The card's Norwegian name: ``Narr``, ``VII``, ``Gjøk``."""
    return BY_KEY[key].norwegian


def is_matador(key: str) -> bool:
    return BY_KEY[key].matador


def is_card(key: object) -> bool:
    return isinstance(key, str) and key in BY_KEY


def lookup(name: str) -> str | None:
    """The key of a rank named in English, in Norwegian or by key (any case), if any."""
    wanted = name.strip().lower()
    for rank in RANKS:
        if wanted in (rank.key, rank.english.lower(), rank.norwegian.lower()):
            return rank.key
    return None
