"""Reading and writing decks: the archive's paste (line by line and flattened into one
line), the Dvorax colour form, TSV and JSON, and export-then-import round trips."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.dvorak.deckformat import (
    EXPORTERS,
    PASTE_PROPOSALS_MAX,
    CardDefinition,
    DeckCard,
    DefinitionError,
    parse_card_definition,
    parse_deck,
    split_flavour,
    split_pasted_commands,
    split_pasted_proposals,
)

DATA = Path(__file__).parent.parent / "data"
#: The first cards of the archive's "Basic Rules Deck", as the archive exports it, with
#: the awkward parts real decks have: raw quotes and apostrophes, colons, slashes in the
#: text, " %r " breaks, flavour text.
ARCHIVE_PASTE = (DATA / "basic_rules_deck.txt").read_text()

DVORAX_PASTE = (DATA / "dvorax_deck.txt").read_text()


def names(deck) -> list[str]:
    return [card.name for card in deck.cards]


def test_the_archive_paste_line_by_line():
    deck = parse_deck(ARCHIVE_PASTE)
    assert deck.clears
    assert names(deck) == ["Things", "Actions", "Discard Pile", "Espionage", "Vorpal Blade"]
    espionage = deck.cards[3]
    assert espionage.kind == "A"
    assert (
        espionage.text
        == 'Take a random card from an opponent\'s hand: "it\'s mine now". ("Spies everywhere / nowhere")'
    )
    assert deck.cards[4].text == "Action: snicker-snack! Destroy a monster. %r Either/or: both/neither."
    assert "%r%rIf you try to draw" in deck.cards[2].text


def test_the_archive_paste_flattened_into_one_line_recovers_every_card():
    one_line = " ".join(line for line in ARCHIVE_PASTE.splitlines())
    pieces, emits = split_pasted_commands(one_line)
    assert pieces[0] == "cleardeck"
    # The closing @emit is split off (so it is not in the last card's text), not run.
    assert emits and not any("@emit" in piece for piece in pieces)
    assert len(pieces) == 6
    assert parse_deck(one_line).cards == parse_deck(ARCHIVE_PASTE).cards


def test_only_deck_commands_are_split_out_of_a_pasted_line():
    assert split_pasted_commands("cleardeck @emit x @emit y say hi") == (["cleardeck"], True)
    assert split_pasted_commands("loadrule R/text @@ note loadcard A/T/b") == (
        ["loadrule R/text", "@@ note", "loadcard A/T/b"],
        False,
    )


def test_ordinary_lines_are_never_split():
    line = "say I will loadcard later and cleardeck after"
    assert split_pasted_commands(line) == ([line], False)
    assert split_pasted_commands("@emit loadcard x/T/y") == (["@emit loadcard x/T/y"], False)


def test_the_dvorax_colour_form():
    deck = parse_deck(DVORAX_PASTE)
    assert not deck.clears
    developer, crash, release = deck.cards
    assert developer == CardDefinition(
        "Developer", "Thing - Developer", "Draw two cards at the start of your turn.", "hw"
    )
    assert crash.colour == "hr" and crash.text == "Destroy a Developer. %r It's over/done."
    assert release.kind == "Basic Rule"


def test_a_plain_card_with_slashes_is_not_mistaken_for_a_colour():
    card = parse_card_definition("Rock/T/Paper/scissors")
    assert card == CardDefinition("Rock", "T", "Paper/scissors", "")


@pytest.mark.parametrize("name", ["Gun", "Win", "Ring", "Bug", "Ruby", "hw"])
def test_a_name_like_a_colour_code_before_a_type_is_the_archive_form(name):
    card = parse_card_definition(f"{name}/T/Roll a die: on 5/6, destroy a Thing.")
    assert card == CardDefinition(name, "T", "Roll a die: on 5/6, destroy a Thing.", "")
    assert parse_card_definition(f"{name}/a/Half/all.") == CardDefinition(name, "a", "Half/all.", "")
    assert parse_card_definition(f"{name}/Bug/Thing/Eats/all.") == CardDefinition("Bug", "Thing", "Eats/all.", name)


@pytest.mark.parametrize("bad", ["", "Only a name", "/T/no name", "Name//no type"])
def test_unreadable_definitions_say_why(bad):
    with pytest.raises(DefinitionError):
        parse_card_definition(bad)


def test_tsv_with_the_archive_header():
    tsv = (
        "Name\tSet\tImageFile\tType\tCornerValue\tText\tFlavorText\tCreator\n"
        "Espionage\tBasic\t\tAction\t\tTake a random card.\tSpies!\tAnn\n"
        "Robot\tBasic\t\tThing - Machine\t\tBeep.\t\tBo\n"
    )
    deck = parse_deck(tsv)
    assert deck.cards == [
        CardDefinition("Espionage", "Action", 'Take a random card. ("Spies!")', creator="Ann"),
        CardDefinition("Robot", "Thing - Machine", "Beep.", creator="Bo"),
    ]


def test_flavour_is_split_off_for_the_tsv_column():
    assert split_flavour('Do it. ("Or else")') == ("Do it.", "Or else")
    assert split_flavour("No flavour") == ("No flavour", "")


def as_deck_cards(deck) -> list[DeckCard]:
    labels = {"A": "Action", "T": "Thing"}
    return [DeckCard(c.name, labels.get(c.kind, c.kind), c.text, c.colour) for c in deck.cards]


@pytest.mark.parametrize("form", ["mush", "dvorax", "json"])
def test_export_then_import_gives_the_same_deck(form):
    original = as_deck_cards(parse_deck(ARCHIVE_PASTE + DVORAX_PASTE))
    rules = [DeckCard("Five Wheels", "Rule", "The first to control five wheels wins.")]
    text = EXPORTERS[form]("Basic", original, rules)
    again = parse_deck(text)
    got = as_deck_cards(again)
    assert [(c.name, c.text) for c in got] == [(c.name, c.text) for c in original]
    if form == "mush":
        # The archive only knows Things and Actions.
        assert [c.kind_label for c in got] == ["Action" if c.kind_label == "Action" else "Thing" for c in original]
    else:
        assert [c.kind_label for c in got] == [c.kind_label for c in original]
    assert [(r.name, r.text) for r in again.rules] == [("Five Wheels", "The first to control five wheels wins.")]


def test_tsv_round_trip_keeps_names_types_and_words():
    original = as_deck_cards(parse_deck(ARCHIVE_PASTE))
    again = as_deck_cards(parse_deck(EXPORTERS["tsv"]("Basic", original, [])))
    assert [(c.name, c.kind_label) for c in again] == [(c.name, c.kind_label) for c in original]
    assert (
        again[3].text == 'Take a random card from an opponent\'s hand: "it\'s mine now". ("Spies everywhere / nowhere")'
    )


printable = (
    st.text(
        alphabet=st.characters(categories=["L", "N", "P", "Zs", "S"], exclude_characters="/\t\n\r"),
        min_size=1,
        max_size=30,
    )
    .map(str.strip)
    .filter(bool)
)


@given(name=printable, text=st.text(alphabet=st.characters(categories=["L", "N", "P", "Zs"]), max_size=80))
def test_any_card_survives_a_mush_round_trip(name, text):
    """(A card named like a colour code, "hw" say, is read in the archive form, as the
    archive writes only the types A and T.)"""
    text = " ".join(text.split())
    card = DeckCard(name, "Thing", text)
    exported = EXPORTERS["mush"]("Any", [card], [])
    deck = parse_deck(exported)
    if " loadcard " in f" {text} " or " @emit " in f" {text} " or " cleardeck" in f" {text}":
        return  # a card whose text looks like a deck command cannot be told from one
    assert [(c.name, c.text) for c in deck.cards] == [(name, text)]


def test_a_flattened_paste_of_proposals_is_split_into_them():
    line = "newcard A/T/text newcard B/A/text2 newrule R/in force newcard C/T/x"
    assert split_pasted_proposals(line) == (
        ["newcard A/T/text", "newcard B/A/text2", "newrule R/in force", "newcard C/T/x"],
        0,
    )
    # A card without text at the end of the line is still a card of its own.
    assert split_pasted_proposals("newcard A/T/a newcard Rock/T") == (["newcard A/T/a", "newcard Rock/T"], 0)


@pytest.mark.parametrize(
    "line",
    [
        "newcard Copy/A/Make a newcard with this text.",
        "newcard Copy/A/Make a newcard with this text, newrule or not.",
        "newrule Law/Whoever plays a newcard draws 1/2 of a card newcard later",
        "say newcard A/T/x newcard B/T/y",
        "loadcard A/T/x newcard B/T/y",
    ],
)
def test_newcard_inside_a_text_or_another_command_is_not_split(line):
    pieces, _ = split_pasted_proposals(line)
    assert pieces == [line]


def test_a_paste_of_proposals_is_cut_at_the_most_one_line_makes():
    pieces, dropped = split_pasted_proposals(" ".join(f"newcard C{i}/T/x" for i in range(500)))
    assert len(pieces) == PASTE_PROPOSALS_MAX and dropped == 500 - PASTE_PROPOSALS_MAX
