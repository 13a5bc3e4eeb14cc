"""Languages: every text the server writes goes through gettext catalogs (Babel).

Each connection has a language (:attr:`server.connection.Connection.language`): the
account's choice (``@language``), else what the client said it prefers (a browser's
Accept-Language, a telnet client's LANG), else English. Text is put in a language in one
of two ways:

- :func:`_` and :func:`ngettext` translate at once into the language of the player whose
  command is running (:data:`LANGUAGE`, set around each command). A reply, an error and
  help use them.
- :func:`said` and :func:`said_n` make a :class:`Said`: a message each reader is shown in
  their own language when it is delivered to them. Anything sent to other players (a
  notice to a room, a page, a broadcast) is one, and crosses to other nodes as one.

:func:`N_` marks a text that is translated later, where it is shown (a constant, a
table of words). Player-written text (names, chat, card texts) is never translated: it is a
parameter of a message, never its text.

The catalogs are ``i18n/locale/<language>/LC_MESSAGES/mush.po``, compiled in memory
when first used; ``python3 run.py translations`` extracts, updates and checks them
(docs/translators.md). The pseudo-language :data:`PSEUDO` shows every translated text
accented and longer, so that text which bypasses the catalogs stands out.
"""

from __future__ import annotations

import contextvars
import functools
import gettext
import io
import json
import re
import string
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "mush"

#: The languages a player may choose, by code, each named in itself (as a menu shows it).
LANGUAGES: Mapping[str, str] = {
    "en": "English",
    "cs": "čeština",
    "sk": "slovenčina",
    "es": "español",
    "ru": "русский",
}
ENGLISH = "en"
#: Every text accented and 40% longer: what bypasses the catalogs shows as plain English.
#: For translators and tests (``@language qps``); no player is offered it.
PSEUDO = "qps"

#: The context of a command's name in the catalogs: a translation is another name a
#: player of that language may type it by (``pgettext(COMMAND, "help")``).
COMMAND = "command"

#: The language of the player whose command is running (English outside any command).
LANGUAGE: contextvars.ContextVar[str] = contextvars.ContextVar("language", default=ENGLISH)


@contextmanager
def language(code: str) -> Iterator[None]:
    """Translate into ``code`` within the block."""
    token = LANGUAGE.set(code)
    try:
        yield
    finally:
        LANGUAGE.reset(token)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it here (it is translated
    where it is shown, with :func:`_`)."""
    return message


def _(message: str) -> str:
    """``message`` in the current language."""
    return _translations(LANGUAGE.get()).gettext(message)


def pgettext(context: str, message: str) -> str:
    """``message``, in the sense ``context`` gives it ("command": a command's name), in
    the current language; itself where the catalog has no translation for it."""
    return _translations(LANGUAGE.get()).pgettext(context, message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the current language (Czech,
    Slovak and Russian have three)."""
    return _translations(LANGUAGE.get()).ngettext(singular, plural, n)


class Said:
    """A message each reader is shown in their own language: its English text (the
    catalog's key) and the values of its ``{placeholders}``, which may be messages too.
    ``str()`` of one is it in the current language (:data:`LANGUAGE`)."""

    __slots__ = ("_texts", "message", "n", "params", "plural")

    def __init__(self, message: str, plural: str | None, n: int, params: dict[str, Any]) -> None:
        self.message = message
        self.plural = plural
        self.n = n
        self.params = params
        #: The message in each language it was put in: said to a room, it is worked out
        #: once per language, not once per reader.
        self._texts: dict[str, str] = {}

    def in_language(self, code: str) -> str:
        text = self._texts.get(code)
        if text is None:
            text = self._texts[code] = self._put_in(code)
        return text

    def _put_in(self, code: str) -> str:
        with language(code):
            params = {key: str(value) if isinstance(value, Said) else value for key, value in self.params.items()}
            text = ngettext(self.message, self.plural, self.n) if self.plural is not None else _(self.message)
            # A translation whose placeholders do not match (the catalog check refuses
            # one) shows the English rather than failing the delivery.
            for form in (text, self.message):
                try:
                    return form.format_map(params)
                except (KeyError, IndexError, ValueError, AttributeError):
                    continue
            return self.message

    def __str__(self) -> str:
        return self.in_language(LANGUAGE.get())

    def __repr__(self) -> str:
        return f"Said({self.message!r}, {self.params!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Said) and self.to_wire() == other.to_wire()

    __hash__ = None  # type: ignore[assignment]

    def to_wire(self) -> dict[str, Any]:
        """The message as JSON, for another node to show its players (:func:`from_wire`)."""
        params = {key: value.to_wire() if isinstance(value, Said) else value for key, value in self.params.items()}
        return {"said": self.message, "plural": self.plural, "n": self.n, "params": params}


#: What may be sent to a player: text as it is (already in their language, or written by
#: a player), or a message shown in each reader's language.
Text = str | Said


def said(message: str, /, **params: Any) -> Said:
    """``message`` with ``params`` filled in, in each reader's language."""
    return Said(message, None, 0, params)


def said_n(singular: str, plural: str, n: int, /, **params: Any) -> Said:
    """The form of ``singular``/``plural`` for ``n``, in each reader's language (``n``
    is also a parameter, ``{n}``)."""
    return Said(singular, plural, n, {"n": n, **params})


def in_language(text: Text, code: str) -> str:
    """``text`` as the reader of language ``code`` is shown it."""
    return text.in_language(code) if isinstance(text, Said) else text


#: How deep messages within messages may come from another node (the code nests two).
WIRE_DEPTH = 4


def from_wire(data: object, depth: int = 0) -> Text | None:
    """What :meth:`Said.to_wire` made (or plain text) back, or None if it is not that:
    nested no deeper than :data:`WIRE_DEPTH`, each text a plain template (see
    :func:`plain_template`), as every message of the code is."""
    if isinstance(data, str):
        return data
    if depth > WIRE_DEPTH or not isinstance(data, dict):
        return None
    message, plural, n, raw = data.get("said"), data.get("plural"), data.get("n"), data.get("params")
    if not isinstance(message, str) or plural is not None and not isinstance(plural, str):
        return None
    if not isinstance(n, int) or not isinstance(raw, dict):
        return None
    params: dict[str, Any] = {}
    for key, value in raw.items():
        param = from_wire(value, depth + 1) if isinstance(value, dict) else value
        if param is None or not isinstance(param, str | int | float | Said):
            return None
        params[key] = param
    if not all(plain_template(text, params) for text in (message, plural) if text is not None):
        return None
    return Said(message, plural, n, params)


def plain_template(text: str, params: Mapping[str, Any]) -> bool:
    """Whether every placeholder of ``text`` is a plain ``{name}`` of ``params``: no
    format spec (``{n:>99999999}`` would make a huge text), no conversion, no attribute
    or index (``{n.__class__}``)."""
    try:
        fields = list(string.Formatter().parse(text))
    except ValueError:
        return False
    return all(
        name is None or name.isidentifier() and name in params and not spec and conversion is None
        for _literal, name, spec, conversion in fields
    )


#: What starts a stored message (:func:`stored`): a control character, which no text a
#: player writes may hold (see :func:`server.text.clean_text`), so none can pass for one.
_STORED = "\x1e"


def stored(text: Text) -> str:
    """``text`` as a column of text keeps it: a message as JSON, to be shown later to
    each reader in their language (:func:`from_stored`)."""
    if isinstance(text, Said):
        return _STORED + json.dumps(text.to_wire(), ensure_ascii=False)
    return text


def from_stored(text: str) -> Text:
    """What :func:`stored` kept."""
    if not text.startswith(_STORED):
        return text
    try:
        message = from_wire(json.loads(text[1:]))
    except ValueError:
        message = None
    return message if message is not None else ""


def wire_fields(text: Text, key: str) -> dict[str, Any]:
    """``text`` under ``key`` of a JSON message to another node, as a node of any
    release reads it (English); a message also under ``key`` + ``_said``, for each reader
    in their own language (:func:`from_wire_fields`)."""
    if isinstance(text, Said):
        return {key: in_language(text, ENGLISH), f"{key}_said": text.to_wire()}
    return {key: text}


def from_wire_fields(item: dict[str, Any], key: str, clean: Callable[[Any], str]) -> Text:
    """What :func:`wire_fields` put under ``key`` of ``item``: the message if it came as
    one, else the text; every text in it passed through ``clean`` (which raises
    ValueError for what is not text)."""
    message = from_wire(item.get(f"{key}_said"))
    if isinstance(message, Said):
        return _cleaned(message, clean)
    return clean(item[key])


def _cleaned(message: Said, clean: Callable[[Any], str]) -> Said:
    params = {
        key: _cleaned(value, clean) if isinstance(value, Said) else clean(value) if isinstance(value, str) else value
        for key, value in message.params.items()
    }
    plural = clean(message.plural) if message.plural is not None else None
    return Said(clean(message.message), plural, message.n, params)


def shown(text: str) -> str:
    """What :func:`stored` kept, in the current language (a game's result, say)."""
    return in_language(from_stored(text), LANGUAGE.get())


def known_language(code: str) -> str | None:
    """The language ``code`` names (``cs``, ``CS``, ``cs_CZ.UTF-8``, ``cs-CZ``), if the
    server speaks it."""
    base = re.split(r"[-_.@]", code.strip().lower(), maxsplit=1)[0]
    return base if base in LANGUAGES or base == PSEUDO else None


def preferred_language(accept_language: str) -> str | None:
    """The first language of a browser's Accept-Language header that the server speaks,
    by its weights (``cs-CZ,cs;q=0.9,en;q=0.8``), if any."""
    choices = []
    for position, item in enumerate(accept_language.split(",")[:20]):
        tag, _semicolon, weight = item.strip().partition(";")
        quality = 1.0
        if weight.strip().startswith("q="):
            try:
                quality = float(weight.strip()[2:])
            except ValueError:
                continue
        code = known_language(tag) if tag and tag != "*" else None
        if code is not None and code != PSEUDO and quality > 0:
            choices.append((-quality, position, code))
    return min(choices)[2] if choices else None


#: Where the web page's own texts are: its labels and notes, and each game's panel
#: (``commands/<game>/panel.js``); :func:`page_texts` sends the page those.
PAGE_SOURCES = "server/webclient/"
PANEL_SCRIPT = "/panel.js"


def _on_page(place: str) -> bool:
    return place.startswith(PAGE_SOURCES) or place.endswith(PANEL_SCRIPT)


def page_texts(code: str) -> dict[str, str]:
    """The web page's own texts in language ``code``, by their English (none for English,
    whose texts the page has)."""
    if code not in LANGUAGES and code != PSEUDO or code == ENGLISH:
        return {}
    catalog = _catalog(PSEUDO if code == PSEUDO else code)
    if catalog is None:
        return {}
    texts = {}
    for message in catalog:
        if isinstance(message.id, str) and message.id and any(_on_page(place) for place, _n in message.locations):
            if code == PSEUDO:
                texts[message.id] = pseudo(message.id)
            elif isinstance(message.string, str) and message.string and not message.fuzzy:
                texts[message.id] = message.string
    return texts


@functools.cache
def _catalog(code: str) -> Any:
    """Language ``code``'s catalog (Babel's), or for :data:`PSEUDO` the template; None if
    there is none."""
    from babel.messages.pofile import read_po

    path = LOCALE_DIR / f"{DOMAIN}.pot" if code == PSEUDO else LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.exists():
        return None
    with path.open("rb") as po:
        return read_po(po, locale=None if code == PSEUDO else code)


@functools.cache
def _translations(code: str) -> gettext.NullTranslations:
    if code == PSEUDO:
        return _Pseudo()
    catalog = _catalog(code) if code != ENGLISH else None
    if catalog is None:
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo

    compiled = io.BytesIO()
    # A fuzzy translation is a guess waiting for a translator: English is shown meanwhile.
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


_PSEUDO_LETTERS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àƀçđéƒĝĥîĵķľɱñöþǫŕšţûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĽṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)
#: What is not translated in a message: its placeholders.
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def pseudo(message: str) -> str:
    """``message`` accented outside its placeholders and 40% longer (``~``): each line
    laid out as written (indented), and each paragraph of prose, at its end."""
    source = message.split("\n")
    lines = []
    for at, line in enumerate(source):
        pieces = _PLACEHOLDER.split(line)
        holders = _PLACEHOLDER.findall(line)
        accented = pieces[0].translate(_PSEUDO_LETTERS)
        for holder, piece in zip(holders, pieces[1:], strict=True):
            accented += holder + piece.translate(_PSEUDO_LETTERS)
        text = accented.rstrip()
        following = source[at + 1] if at + 1 < len(source) else ""
        ends = line.startswith(" ") or not following.strip() or following.startswith(" ")
        if not text.strip():
            lines.append(line)
        elif ends:
            paragraph = [text, *reversed(list(_paragraph_before(lines)))] if not line.startswith(" ") else [text]
            lines.append(text + "~" * (sum(len(part) for part in paragraph) * 2 // 5))
        else:
            lines.append(text)
    return "\n".join(lines)


def _paragraph_before(lines: list[str]) -> Iterator[str]:
    """The prose lines that end ``lines``, last first (the paragraph a line ends)."""
    for line in reversed(lines):
        if not line.strip() or line.startswith(" "):
            return
        yield line


class _Pseudo(gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return pseudo(message)

    def pgettext(self, context: str, message: str) -> str:
        # A command's name is typed, not read: the pseudo-language gives none its own.
        return message if context == COMMAND else pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)
