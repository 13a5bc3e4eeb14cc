"""The catalogs' upkeep: what ``python3 run.py translations`` does (docs/translators.md).

``extract`` writes the template, i18n/locale/mush.pot, from the code: every text in
``_()``, ``N_()``, ``ngettext()``, ``said()`` and ``said_n()``, and every command's
docstring (its help). ``update`` brings each language's catalog up to date with it,
marking new and changed texts for its translator. ``check`` lists what a language still
lacks or gets wrong: a text without a translation (or one only guessed, "fuzzy"), a
translation whose ``{placeholders}`` differ from the English, and a line wider than a
screen. The tests run the same checks.
"""

from __future__ import annotations

import ast
import inspect
import io
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_python
from babel.messages.pofile import read_po, write_po

from i18n import COMMAND, DOMAIN, LANGUAGES, LOCALE_DIR
from server.text import shown_width

ROOT = LOCALE_DIR.parents[1]
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
#: The packages whose text goes into the catalogs.
SOURCES = ("server", "commands", "games", "persistence", "i18n")
KEYWORDS = {
    "_": None,
    "N_": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "said": None,
    "said_n": (1, 2),
    "t": None,
    "setStatus": (2,),
}
#: How each kind of file is read: Python, and the web page's scripts (its own texts in
#: ``t()``: the page's and each game's panel) and page (its labels: elements marked
#: ``data-i18n``, ``data-i18n-label``).
METHODS = [
    ("**.py", "server.translations:extract_with_help"),
    ("**/webclient/*.js", "javascript"),
    ("*/panel.js", "javascript"),
    ("**/webclient/*.html", "server.translations:extract_html"),
]
#: The widest an indented (laid out) line of a translation may be: a line of a screen.
MAX_LINE = 80
#: Languages every text must be translated into (the others may lag).
COMPLETE = ("cs", "sk")
#: Where the texts are that every language has, complete or not (files, and folders
#: ending in /): getting in, the lobby, talk, rooms, safety and the help index (with every
#: command's help listed there), the web page's labels, and Dvorak, the game of the seeds
#: in Spanish and Russian.
EVERY_LANGUAGE = (
    "commands/dvorak/",
    "games/dvorak/",
    "commands/base.py",
    "commands/dispatch.py",
    "commands/login.py",
    "commands/look.py",
    "commands/rooms.py",
    "commands/safety.py",
    "commands/session.py",
    "commands/social.py",
    "persistence/names.py",
    "server/accounts.py",
    "server/hub.py",
    "server/webclient/app.js",
    "server/webclient/index.html",
)
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


def extract_with_help(
    fileobj: IO[bytes], keywords: dict[str, Any], comment_tags: Collection[str], options: Any
) -> Iterator[tuple[int, Any, Any, Any]]:
    """Babel's Python extraction, and the docstring of every command class (one that
    sets ``key``): its help, looked up by :meth:`commands.base.Command.help_text`."""
    source = fileobj.read()
    yield from extract_python(io.BytesIO(source), keywords, comment_tags, options)
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ClassDef):
            continue
        sets_key = any(
            isinstance(statement, ast.Assign | ast.AnnAssign)
            and any(isinstance(target, ast.Name) and target.id == "key" for target in _targets(statement))
            for statement in node.body
        )
        docstring = ast.get_docstring(node, clean=False)
        if sets_key and docstring:
            yield node.lineno, "", inspect.cleandoc(docstring), []
        key = _key_of(node)
        secret = any(
            isinstance(statement, ast.Assign)
            and any(isinstance(target, ast.Name) and target.id == "private_arguments" for target in statement.targets)
            and isinstance(statement.value, ast.Constant)
            and statement.value.value is True
            for statement in node.body
        )
        if key is not None and key.isalpha() and not secret:
            yield node.lineno, "pgettext", (COMMAND, key), [_COMMAND_NOTE]


def extract_html(
    fileobj: IO[bytes], keywords: dict[str, Any], comment_tags: Collection[str], options: Any
) -> Iterator[tuple[int, Any, Any, Any]]:
    """The web page's labels: the text of each element marked ``data-i18n``, the
    ``aria-label`` of each marked ``data-i18n-label`` (app.js puts them in the reader's
    language)."""
    found: list[tuple[int, str]] = []

    class Labels(HTMLParser):
        marked: list[int] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            named = dict(attrs)
            if "data-i18n-label" in named and named.get("aria-label"):
                found.append((self.getpos()[0], str(named["aria-label"])))
            self.marked.append(self.getpos()[0] if "data-i18n" in named else 0)

        def handle_endtag(self, tag: str) -> None:
            if self.marked:
                self.marked.pop()

        def handle_data(self, data: str) -> None:
            if self.marked and self.marked[-1] and data.strip():
                found.append((self.marked[-1], data.strip()))

    Labels().feed(fileobj.read().decode())
    for line, text in found:
        yield line, "", text, []


#: What a translator is told of a command's name.
_COMMAND_NOTE = (
    "A name a player of this language may also type for the command, one word "
    "(with or without its accents); leave it untranslated for none."
)


def _key_of(node: ast.ClassDef) -> str | None:
    """The ``key = "..."`` a command class sets, if it sets one."""
    for statement in node.body:
        if isinstance(statement, ast.Assign | ast.AnnAssign) and isinstance(statement.value, ast.Constant):
            named = any(isinstance(target, ast.Name) and target.id == "key" for target in _targets(statement))
            if named and isinstance(statement.value.value, str):
                return statement.value.value
    return None


def _targets(statement: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    return list(statement.targets) if isinstance(statement, ast.Assign) else [statement.target]


def template() -> Catalog:
    """Every text of the code, with where it is."""
    catalog = Catalog(project="dvorak-mush", domain=DOMAIN, fuzzy=False)
    for package in SOURCES:
        for filename, lineno, message, comments, context in extract_from_dir(
            ROOT / package, METHODS, keywords=KEYWORDS, comment_tags=("Translators:",), strip_comment_tags=True
        ):
            catalog.add(message, None, [(f"{package}/{filename}", lineno)], auto_comments=comments, context=context)
    return catalog


def extract() -> None:
    """Write the template (i18n/locale/mush.pot)."""
    with TEMPLATE.open("wb") as out:
        write_po(out, template(), width=100, omit_header=False, sort_output=True)


def read_template() -> Catalog:
    """The template as committed (i18n/locale/mush.pot)."""
    with TEMPLATE.open("rb") as pot:
        return read_po(pot)


def read_catalog(code: str) -> Catalog:
    path = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.exists():
        return Catalog(locale=code, domain=DOMAIN, project="dvorak-mush", fuzzy=False)
    with path.open("rb") as po:
        return read_po(po, locale=code)


def update() -> None:
    """Bring every language's catalog up to date with the code (the template too)."""
    fresh = template()
    with TEMPLATE.open("wb") as out:
        write_po(out, fresh, width=100, sort_output=True)
    for code in LANGUAGES:
        if code == "en":
            continue
        catalog = read_catalog(code)
        catalog.update(fresh, update_header_comment=False)
        path = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as out:
            write_po(out, catalog, width=100, sort_output=True, ignore_obsolete=True)


@dataclass(frozen=True)
class Problem:
    language: str
    message: str
    what: str

    def __str__(self) -> str:
        first = self.message.split("\n", 1)[0]
        return f"{self.language}: {self.what}: {first[:70]!r}"


def problems(code: str, only: Collection[str] | None = None) -> list[Problem]:
    """What language ``code`` lacks or gets wrong, among the texts of the code (or only
    those found in ``only``: files, and folders ending in /)."""
    catalog = read_catalog(code)
    found = []
    for message in template():
        places = [place for place, _line in message.locations]
        if not message.id or only is not None and not any(place.startswith(tuple(only)) for place in places):
            continue
        if message.context == COMMAND:
            continue  # a command's other name is the translator's to give or not
        translated = catalog.get(message.id, message.context)
        forms = translated.string if translated is not None else None
        texts = [forms] if isinstance(forms, str) else list(forms or ())
        if translated is None or translated.fuzzy or not texts or not all(texts):
            found.append(Problem(code, _key(message.id), "not translated"))
            continue
        sources = [message.id] if isinstance(message.id, str) else list(message.id)
        english = {name for text in sources for name in _PLACEHOLDER.findall(text)}
        for text in texts:
            used = set(_PLACEHOLDER.findall(text))
            # A plural form may leave out the number ("jeden hráč"), never anything else.
            if not used <= english or english - used - {"n"}:
                found.append(Problem(code, _key(message.id), "its {placeholders} differ from the English"))
            # An indented line is laid out as written (a row of a table, an example, the
            # welcome's commands): it must fit a screen. Prose is filled as it is shown.
            wide = [line for line in text.split("\n") if line.startswith(" ") and shown_width(line) > MAX_LINE]
            if wide:
                found.append(Problem(code, _key(message.id), f"a line is wider than {MAX_LINE} columns"))
    return found


def _key(message_id: str | tuple[str, ...] | list[str]) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]
