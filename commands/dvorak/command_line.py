"""Dvorak's own commands on the ``dvorak-mush`` command line: ``deck import`` loads a
deck file into a room (made if missing), ``deck export`` prints a room's deck."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from commands.games import CommandLine, CommandLineError
from games.dvorak.deck import deck_contents
from games.dvorak.deckformat import EXPORTERS, CardDefinition, DefinitionError, colour_code, parse_deck
from games.dvorak.rules import RuleViolation, Table
from persistence.database import Database
from persistence.rooms import RoomNameTaken, RoomStore
from server.rooms import check_room_name
from server.text import clean_text


def add_deck_commands(commands: Any) -> list[argparse.ArgumentParser]:
    """The ``deck`` command and its two, on the command line's ``commands``; the parsers
    that work on a database."""
    deck = commands.add_parser("deck", help="import or export a room's deck", description="Decks on the command line.")
    deck_commands = deck.add_subparsers(dest="deck_command", metavar="<import|export>", required=True)
    deck_import = deck_commands.add_parser(
        "import",
        help="load a deck file into a room (made if missing)",
        description="Load a deck file into a room: the archive's paste (cleardeck/loadcard/@emit lines, even "
        "flattened into one line), the Dvorax colour form, TSV with the archive's header, or JSON. A deck that "
        "starts with cleardeck (and any JSON deck) replaces the room's deck. A running server notices the change "
        "at the room's next move.",
    )
    deck_import.add_argument("file", help="the deck file (UTF-8)")
    deck_import.add_argument("--room", required=True, help="the room's name")
    deck_export = deck_commands.add_parser(
        "export", help="print a room's deck", description="Print a room's approved cards and rules."
    )
    deck_export.add_argument("--room", required=True, help="the room's name")
    deck_export.add_argument("--format", choices=sorted(EXPORTERS), default="mush", help="default: mush")
    return [deck_import, deck_export]


async def run_deck_command(arguments: argparse.Namespace, database: Database) -> str:
    if arguments.deck_command == "import":
        return await import_deck(database, Path(arguments.file), arguments.room)
    return await export_deck(database, arguments.room, arguments.format)


async def import_deck(database: Database, path: Path, room_name: str) -> str:
    try:
        deck = parse_deck(path.read_text(encoding="utf-8", errors="replace"))
    except DefinitionError as error:
        raise CommandLineError(str(error)) from None
    cards = [_cleaned(card) for card in deck.cards]
    rules = [_cleaned(rule) for rule in deck.rules]
    store = RoomStore(database)
    problem = check_room_name(room_name)
    if problem:
        raise CommandLineError(problem)
    room_id = await store.find_id(room_name)
    if room_id is None:
        try:
            room_id = await store.create(room_name, "dvorak", None)
        except RoomNameTaken:
            room_id = await store.find_id(room_name)
    if room_id is None:  # made by someone else meanwhile, and deleted again
        raise CommandLineError(f'Room "{room_name}" was made and deleted while the deck went in; try again.')
    stored = await store.load(room_id)
    assert stored is not None
    if stored.game != "dvorak":
        raise CommandLineError(f"Room {stored.name} is a room of {stored.game}: decks go into Dvorak rooms only.")
    table = Table(stored.state)
    try:
        count = table.import_cards(path.stem, cards, rules, clear=deck.clears)
    except RuleViolation as error:
        raise CommandLineError(str(error)) from None
    await store.commit(room_id, stored.head, table.state, table.take_changes())
    verb = "replaced the deck of" if deck.clears else "added to"
    return f"{path.name}: {len(cards)} cards and {len(rules)} rules ({count} in all) {verb} room {stored.name}."


def _cleaned(card: CardDefinition) -> CardDefinition:
    """A card from a file as players' own input is: every field cleaned of escape
    sequences and control characters, and a colour only if it is a colour code."""
    return CardDefinition(
        clean_text(card.name),
        clean_text(card.kind),
        clean_text(card.text),
        colour_code(clean_text(card.colour).strip()),
        clean_text(card.creator),
    )


async def export_deck(database: Database, room_name: str, form: str) -> str:
    store = RoomStore(database)
    room_id = await store.find_id(room_name)
    stored = await store.load(room_id) if room_id is not None else None
    if stored is None:
        raise CommandLineError(f'There is no room called "{room_name}".')
    return EXPORTERS[form](stored.name, *deck_contents(stored.state))


DECK_COMMAND_LINE = CommandLine("deck", add_deck_commands, run_deck_command)
