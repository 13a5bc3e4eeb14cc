"""Decks as text: the deck archive's telnet commands, the Dvorax colour form, TSV and JSON.

The archive exports a deck as commands to paste::

    cleardeck
    loadcard <Title>/<T|A>/<Text>
    loadcard <Title>/<T|A>/<Text> ("<flavour text>")
    @emit <a line telling the room a deck was loaded>

Fields are split at the first two slashes only (the text may hold more); ``%r`` is a
line break; nothing is escaped. The Dvorax engine adds a MUSH colour code in front
(``loadcard hw/<Title>/<Type text>/<Text>``) and writes the full type ("Thing -
Developer"). Some telnet clients deliver a whole paste as one line; the commands are
split apart again. The same parser serves the ``loadcard`` command and the
``dvorak-mush deck import`` command line.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field

from i18n import _

#: A MUSH colour code: h(ighlight), u(nderline), f(lash), i(nverse), n(ormal) and the
#: colours x r g y b m c w (upper case: background).
COLOUR_CODE = re.compile(r"[hufinxrgybmcwXRGYBMCW]{1,4}")
TSV_COLUMNS = ("Name", "Set", "ImageFile", "Type", "CornerValue", "Text", "FlavorText", "Creator")
#: The Type of a special rule's row in TSV (the archive's own TSV has only cards).
TSV_RULE = "Rule"
#: The deck commands a pasted line may hold, each run on its own.
PASTE_COMMANDS = ("cleardeck", "loadcard", "loadrule", "@@")
_PASTE_START = re.compile(r"\s*(?:cleardeck|loadcard|loadrule)\b", re.IGNORECASE)
#: Where a pasted line is split: before each deck command, and before the archive's
#: closing ``@emit`` (so that it does not end up in the last card's text). A split is
#: tried only where a run of spaces begins (else a long run costs time squared).
_PASTE_SPLIT = re.compile(r"(?<!\s)\s+(?=(?:cleardeck|loadcard|loadrule|@emit|@@)(?:\s|$))", re.IGNORECASE)
#: Most proposals one pasted line makes (each is also a command, paced by the command
#: rate, and a card counted against the room's card limit): a paste of a few cards to
#: vote on, not a whole deck (decks are loaded with loadcard or loaddeck).
PASTE_PROPOSALS_MAX = 20
_PROPOSAL_START = re.compile(r"\s*(?:newcard|newrule)\s", re.IGNORECASE)
#: Where a pasted line of proposals is split: before a ``newcard`` that is followed by
#: what reads as ``<name>/<type>/`` (or ``<name>/<type>`` ending the line), or a
#: ``newrule`` followed by ``<name>/``: the name at most 100 characters and the type 60,
#: neither holding a slash or another ``newcard`` or ``newrule``. So "make a newcard of
#: it" inside a card's text is not a new proposal (nor is a bare "newcard Name").
_PROPOSAL_FIELD = r"(?:(?!\s(?:newcard|newrule)\s)[^/])"
_PROPOSAL_SPLIT = re.compile(
    rf"(?<!\s)\s+(?=newcard\s+{_PROPOSAL_FIELD}{{0,100}}/{_PROPOSAL_FIELD}{{0,60}}(?:/|\s*$)"
    rf"|newrule\s+{_PROPOSAL_FIELD}{{0,100}}/)",
    re.IGNORECASE,
)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_FLAVOUR = re.compile(r'\s*\("(.*)"\)\s*$', re.DOTALL)
JSON_FORMAT = "dvorak-deck"


def colour_code(code: str) -> str:
    """``code`` if it is a MUSH colour code, else "": a colour from a file or a database
    is never sent to anyone as it is."""
    return code if COLOUR_CODE.fullmatch(code) else ""


class DefinitionError(ValueError):
    """A card definition could not be read; the message says why."""


@dataclass(frozen=True)
class CardDefinition:
    """A card as written in a deck: name, type, text, an optional colour code, and who
    made it where the format says (TSV and JSON do)."""

    name: str
    kind: str
    text: str
    colour: str = ""
    creator: str = ""


@dataclass
class ParsedDeck:
    """What a deck file or paste holds."""

    cards: list[CardDefinition] = field(default_factory=list)
    rules: list[CardDefinition] = field(default_factory=list)
    #: Whether it begins by clearing the deck (``cleardeck``).
    clears: bool = False


def parse_card_definition(definition: str) -> CardDefinition:
    """``<name>/<type>/<text>``, or ``<colour>/<name>/<type>/<text>`` (Dvorax).

    The text may be left out (``Rock/T``); name and type may not. A name that looks like
    a colour code (``Gun``, ``Ruby``) followed by the type A or T is the archive form.
    """
    parts = definition.split("/", 3)
    colour = ""
    if len(parts) == 4 and COLOUR_CODE.fullmatch(parts[0].strip()) and parts[1].strip().upper() not in ("A", "T"):
        colour = parts[0].strip()
        parts = parts[1:]
    else:
        parts = definition.split("/", 2)
    if len(parts) < 2:
        raise DefinitionError(_("A card is written <name>/<type>/<text>."))
    name, kind = parts[0].strip(), parts[1].strip()
    text = parts[2].strip() if len(parts) == 3 else ""
    if not name:
        raise DefinitionError(_("The card has no name."))
    if not kind:
        raise DefinitionError(_("The card has no type (A for Action, T for Thing, or any word)."))
    return CardDefinition(name, kind, text, colour)


def parse_rule_definition(definition: str) -> CardDefinition:
    """``<name>/<text>`` for a special rule."""
    name, _slash, text = definition.partition("/")
    if not name.strip():
        raise DefinitionError(_("A rule is written <name>/<text>."))
    return CardDefinition(name.strip(), "Rule", text.strip())


def split_pasted_commands(line: str) -> tuple[list[str], bool]:
    """A pasted deck that arrived as one line, split back into its deck commands; and
    whether it held an ``@emit``, which is split off but not among them.

    Only lines that start like a deck (``cleardeck``, ``loadcard``, ``loadrule``) are
    split, before each later ``cleardeck``, ``loadcard``, ``loadrule``, ``@@`` or
    ``@emit``; any other line comes back as it is, one command.
    """
    if not _PASTE_START.match(line):
        return [line], False
    pieces = [piece.strip() for piece in _PASTE_SPLIT.split(line) if piece.strip()]
    commands = [piece for piece in pieces if piece.split(" ", 1)[0].lower() in PASTE_COMMANDS]
    return commands, len(commands) < len(pieces)


def split_pasted_proposals(line: str) -> tuple[list[str], int]:
    """A paste of ``newcard`` and ``newrule`` lines that arrived as one line, split back
    into its proposals (at most :data:`PASTE_PROPOSALS_MAX`); and how many more it held,
    which are not made. A line that does not start with ``newcard`` or ``newrule`` comes
    back as it is."""
    if not _PROPOSAL_START.match(line):
        return [line], 0
    pieces = [piece.strip() for piece in _PROPOSAL_SPLIT.split(line) if piece.strip()]
    return pieces[:PASTE_PROPOSALS_MAX], max(0, len(pieces) - PASTE_PROPOSALS_MAX)


def parse_deck(text: str) -> ParsedDeck:
    """Read a deck in any of the supported forms (commands, TSV with its header, JSON)."""
    stripped = text.lstrip("\ufeff").strip()
    if stripped.startswith("{"):
        return _parse_json(stripped)
    first_line = stripped.split("\n", 1)[0]
    if first_line.split("\t")[: len(TSV_COLUMNS)] == list(TSV_COLUMNS):
        return _parse_tsv(stripped)
    deck = ParsedDeck()
    # Lines end at CR and LF only: what else str.splitlines() breaks at (U+2028, form
    # feeds, ...) is inside a line, for cleaning, not between lines.
    for raw_line in _LINE_BREAK.split(stripped):
        for command in split_pasted_commands(raw_line.strip())[0]:
            word, _space, rest = command.partition(" ")
            word = word.lower()
            if word == "cleardeck":
                if not deck.cards and not deck.rules:
                    deck.clears = True
            elif word == "loadcard":
                deck.cards.append(parse_card_definition(rest))
            elif word == "loadrule":
                deck.rules.append(parse_rule_definition(rest))
    return deck


def _parse_tsv(text: str) -> ParsedDeck:
    deck = ParsedDeck()
    for row in csv.DictReader(io.StringIO(text), delimiter="\t", quoting=csv.QUOTE_NONE):
        name = (row.get("Name") or "").strip()
        if not name:
            continue
        body = (row.get("Text") or "").strip()
        flavour = (row.get("FlavorText") or "").strip()
        if flavour:
            body = f'{body} ("{flavour}")' if body else f'("{flavour}")'
        kind = (row.get("Type") or "T").strip() or "T"
        definition = CardDefinition(name, kind, body, creator=(row.get("Creator") or "").strip())
        (deck.rules if kind == TSV_RULE else deck.cards).append(definition)
    return deck


def _parse_json(text: str) -> ParsedDeck:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise DefinitionError(_("The JSON deck could not be read: {error}").format(error=error)) from None
    if not isinstance(data, dict) or data.get("format") != JSON_FORMAT:
        raise DefinitionError(_('A JSON deck has "format": "{format}".').format(format=JSON_FORMAT))
    deck = ParsedDeck(clears=True)
    for index, card in enumerate(_json_list(data, "cards"), start=1):
        fields = _json_fields(card, _("card {n}").format(n=index), ("name", "type"), ("text", "colour", "creator"))
        deck.cards.append(
            CardDefinition(fields["name"], fields["type"], fields["text"], fields["colour"], fields["creator"])
        )
    for index, rule in enumerate(_json_list(data, "rules"), start=1):
        fields = _json_fields(rule, _("rule {n}").format(n=index), ("name",), ("text",))
        deck.rules.append(CardDefinition(fields["name"], "Rule", fields["text"]))
    return deck


def _json_list(data: dict[str, object], key: str) -> list[object]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise DefinitionError(_('In a JSON deck, "{key}" is a list.').format(key=key))
    return value


def _json_fields(item: object, what: str, required: tuple[str, ...], optional: tuple[str, ...]) -> dict[str, str]:
    """The text fields of one card or rule of a JSON deck ("" for optional ones left out);
    :class:`DefinitionError` naming the item if one is missing or is not text."""
    if not isinstance(item, dict):
        raise DefinitionError(_("In the JSON deck, {item} is not an object.").format(item=what))
    fields: dict[str, str] = {}
    for key in (*required, *optional):
        value = item.get(key, None if key in required else "")
        if not isinstance(value, str):
            raise DefinitionError(_('In the JSON deck, {item} has no "{key}" text.').format(item=what, key=key))
        fields[key] = value
    return fields


# -- writing decks -------------------------------------------------------------------


@dataclass(frozen=True)
class DeckCard:
    """A card as a deck export needs it."""

    name: str
    kind_label: str
    text: str
    colour: str = ""
    creator: str = ""


def split_flavour(text: str) -> tuple[str, str]:
    """``text`` without its trailing ``("flavour")``, and the flavour."""
    match = _FLAVOUR.search(text)
    if match is None:
        return text, ""
    return text[: match.start()].rstrip(), match.group(1)


def archive_type(kind_label: str) -> str:
    """The archive writes only T and A: any type other than Action is a Thing."""
    return "A" if kind_label == "Action" else "T"


def export_mush(deck_name: str, cards: list[DeckCard], rules: list[DeckCard]) -> str:
    """The deck archive's own form: commands to paste into a room."""
    lines = ["cleardeck"]
    lines += [f"loadcard {c.name}/{archive_type(c.kind_label)}/{c.text}" for c in cards]
    lines += [f"loadrule {r.name}/{r.text}" for r in rules]
    lines.append(f"@emit The deck {deck_name} ({len(cards)} cards) has been loaded.")
    return "\n".join(lines)


def export_dvorax(deck_name: str, cards: list[DeckCard], rules: list[DeckCard]) -> str:
    """The Dvorax engine's form: colour code and full type text on every card."""
    lines = ["cleardeck"]
    lines += [f"loadcard {colour_code(c.colour) or 'n'}/{c.name}/{c.kind_label}/{c.text}" for c in cards]
    lines += [f"loadrule {r.name}/{r.text}" for r in rules]
    lines.append(f"@emit The deck {deck_name} ({len(cards)} cards) has been loaded.")
    return "\n".join(lines)


def export_json(deck_name: str, cards: list[DeckCard], rules: list[DeckCard]) -> str:
    return json.dumps(
        {
            "format": JSON_FORMAT,
            "version": 1,
            "name": deck_name,
            "cards": [
                {
                    "name": c.name,
                    "type": c.kind_label,
                    "text": c.text,
                    "colour": colour_code(c.colour),
                    "creator": c.creator,
                }
                for c in cards
            ],
            "rules": [{"name": r.name, "text": r.text} for r in rules],
        },
        indent=2,
        ensure_ascii=False,
    )


def export_tsv(deck_name: str, cards: list[DeckCard], rules: list[DeckCard]) -> str:
    """The archive's spreadsheet form (line breaks become spaces). The archive has no
    rules in it: a special rule is a row of Type ``Rule``, after the cards."""

    def cell(text: str) -> str:
        return " ".join(text.replace("%r", " ").replace("\t", " ").split())

    lines = ["\t".join(TSV_COLUMNS)]
    for c, kind in [(c, c.kind_label) for c in cards] + [(r, TSV_RULE) for r in rules]:
        body, flavour = split_flavour(c.text)
        lines.append(
            "\t".join([cell(c.name), cell(deck_name), "", kind, "", cell(body), cell(flavour), cell(c.creator)])
        )
    return "\n".join(lines)


EXPORTERS = {"mush": export_mush, "dvorax": export_dvorax, "json": export_json, "tsv": export_tsv}
