"""Card definitions as text: ``<name>/<type>/<text>``, the form ``loadcard`` and the
deck archive's exports use."""

from __future__ import annotations


class DefinitionError(ValueError):
    """A card definition could not be read; the message says why."""


def parse_card_definition(definition: str) -> tuple[str, str, str]:
    """Split ``<name>/<type>/<text>`` at its first two slashes (the text may hold more).

    The text may be left out (``Rock/T``); name and type may not.
    """
    parts = definition.split("/", 2)
    if len(parts) < 2:
        raise DefinitionError("A card is written <name>/<type>/<text>.")
    name, kind = parts[0].strip(), parts[1].strip()
    text = parts[2].strip() if len(parts) == 3 else ""
    if not name:
        raise DefinitionError("The card has no name.")
    if not kind:
        raise DefinitionError("The card has no type (A for Action, T for Thing, or any word).")
    return name, kind, text
