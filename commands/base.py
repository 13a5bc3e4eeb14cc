"""What a command is, where it may be used, and what it is given when it runs.

A command is a small class: ``key`` (its name), ``aliases``, ``usage`` lines, and a
docstring that *is* its help text: its first paragraph is a one-line summary (a short
sentence, shown in the ``help`` index), the rest is filled to each reader's width.
``run`` parses the arguments and does the work; bad input raises
:class:`CommandError`, whose message is the whole reply.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, TypeVar

from i18n import COMMAND, ENGLISH, LANGUAGE, _, language, pgettext
from persistence.names import plain
from server.text import WHOLE_LINE, reflowable

if TYPE_CHECKING:
    from server.accounts import AccountService
    from server.connection import Connection
    from server.hub import Hub, OnlinePlayer
    from server.rooms import RoomRegistry


class CommandError(Exception):
    """Input was refused; the message (short, for the player) says why. Nothing changed."""


S = TypeVar("S")


class Services:
    """What only some commands use, such as a game's own stores (Dvorak's saved decks),
    each found by its class: ``ctx.services.get(DeckStore)``. The server makes one of each."""

    def __init__(self, *services: object) -> None:
        self._by_class = {type(service): service for service in services}

    def get(self, wanted: type[S]) -> S:
        """The service of class ``wanted``."""
        service = self._by_class[wanted]
        assert isinstance(service, wanted)
        return service


@dataclass
class Context:
    """What a running command can reach: its connection, the hub and the services."""

    connection: Connection
    hub: Hub
    accounts: AccountService
    rooms: RoomRegistry
    services: Services
    #: The command sets available to this connection right now (for help and commands).
    command_sets: tuple[CommandSet, ...] = ()

    @property
    def player(self) -> OnlinePlayer:
        """The logged-in player issuing the command (only for commands used after login)."""
        player = self.connection.player
        assert player is not None, "command needs a logged-in player"
        return player

    def reply(self, text: str, wrap: bool = True) -> None:
        """Tell the issuer: every connection of the player, or this connection before login.
        ``wrap=False`` keeps long lines whole, for text meant to be copied."""
        if self.connection.player is not None:
            self.connection.player.send(text, wrap)
        else:
            self.connection.send(text, wrap)


class Command:
    """Base class of every command. Subclasses set ``key`` and implement ``run``."""

    key: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    #: How to call it, one form per line; ``key`` alone when empty.
    usage: ClassVar[tuple[str, ...]] = ()
    #: Whether OUTPUTPREFIX/OUTPUTSUFFIX surround this command's output.
    framed: ClassVar[bool] = True
    #: Whether using this command counts as activity for idle time.
    resets_idle: ClassVar[bool] = True
    #: Whether the arguments hold a secret (a password) and must never be logged.
    private_arguments: ClassVar[bool] = False
    #: How many commands' worth of the command rate it takes: more for the few that make
    #: the server do much more work than most (store a whole room, hash a password).
    cost: ClassVar[int] = 1
    #: Whether it takes a MUSH switch (``newroom/gnav``): the switch comes first in its
    #: arguments, as ``/gnav``.
    takes_switch: ClassVar[bool] = False
    #: Whether it is typed alone: anything after it is refused, not ignored (a move made
    #: on a misunderstanding, "discrand 3" or "endturn Bo", would change the game).
    alone: ClassVar[bool] = False

    async def run(self, ctx: Context, args: str) -> None:
        raise NotImplementedError

    @classmethod
    def refuse_arguments(cls, args: str) -> None:
        """Refuse ``args`` if the command is typed alone and something follows it."""
        if cls.alone and args.strip():
            raise CommandError(_("Type {command} alone: it takes nothing after it.").format(command=cls.key))

    @classmethod
    def usage_text(cls) -> str:
        """The ways to call it, on one line, for a refusal: ``join <room>   or   join <room>=<password>``."""
        return _("   or   ").join(cls.usage or (cls.key,))

    @classmethod
    def translated_name(cls) -> str:
        """The command's name in the reader's language, where the translation gives it
        one (typed as well as the English); else ""."""
        translated = pgettext(COMMAND, cls.key)
        return translated if translated != cls.key else ""

    @classmethod
    def doc(cls) -> str:
        """The docstring, in the reader's language."""
        docstring = inspect.getdoc(cls)
        return _(docstring) if docstring else ""

    @classmethod
    def summary(cls) -> str:
        """The docstring's first paragraph: one short sentence, for the ``help`` index."""
        return " ".join(cls.doc().split("\n\n", 1)[0].split())

    @classmethod
    def help_text(cls) -> str:
        """Full help: usage lines, the docstring, and the aliases. Usage lines and the
        docstring's indented lines (examples) are sent whole; its paragraphs are filled to
        the width of the client that reads them (see :func:`reflowable`)."""
        usage = cls.usage or (cls.key,)
        parts = ["\n".join(f"{WHOLE_LINE}  {form}" for form in usage), reflowable(cls.doc())]
        also = [*cls.aliases, *filter(None, [cls.translated_name()])]
        if also:
            parts.append(_("Also: {aliases}").format(aliases=", ".join(also)))
        return "\n".join(parts)


class CommandSet:
    """A group of commands available in one situation (before login, in a room, ...)."""

    def __init__(self, title: str, commands: Iterable[Command]) -> None:
        #: Its heading in ``help`` and ``commands``, in English (marked with N_).
        self.title = title
        self.commands = tuple(commands)
        self.by_name: dict[str, Command] = {}
        #: Single punctuation aliases used without a space, like ``"hello`` or ``:waves``.
        self.prefixes: dict[str, Command] = {}
        for command in self.commands:
            for name in (command.key, *command.aliases):
                if len(name) == 1 and not name.isalnum():
                    self.prefixes[name] = command
                else:
                    self.by_name[name.lower()] = command

    def joined(self, *others: CommandSet) -> CommandSet:
        """One set of this one's title holding its commands and those of ``others``."""
        return CommandSet(self.title, [*self.commands, *(c for other in others for c in other.commands)])


def find_command(command_sets: tuple[CommandSet, ...], line: str) -> tuple[Command, str] | None:
    """The command ``line`` calls and its argument text, or None if it calls none.

    A leading ``"``, ``:`` or ``;`` is a command by itself (``"hello`` says hello);
    otherwise the first word, in any letter case, names the command. Earlier sets win.
    A command that takes a switch is also called as ``<name>/<switch>``. A word that
    names no command may be a command's name in the player's language (``nápověda``,
    with or without its accents), where the translation gives it one.
    """
    found = _find_command(command_sets, line)
    code = LANGUAGE.get()
    if found is None and code != ENGLISH and line:
        word, space, rest = line.partition(" ")
        key = _translated_names(command_sets, code).get(plain(word))
        if key is not None:
            return _find_command(command_sets, f"{key}{space}{rest}")
    return found


@functools.lru_cache(maxsize=256)
def _translated_names(command_sets: tuple[CommandSet, ...], code: str) -> dict[str, str]:
    """The names the commands of ``command_sets`` have in language ``code``, as typed
    without accents, to their keys (none that is an English command's name)."""
    by_name = _merged(command_sets)[1]
    names: dict[str, str] = {}
    with language(code):
        # No other name for a command whose arguments are secret: the page knows its
        # English name as one whose line it must not echo or keep.
        for command in dict.fromkeys(c for c in by_name.values() if not c.private_arguments):
            translated = plain(command.translated_name())
            if translated and translated not in by_name:
                names.setdefault(translated, command.key)
    return names


def _find_command(command_sets: tuple[CommandSet, ...], line: str) -> tuple[Command, str] | None:
    prefixes, by_name = _merged(command_sets)
    command = prefixes.get(line[0])
    if command is not None:
        return command, line[1:].strip()
    word, _, rest = line.partition(" ")
    command = by_name.get(word.lower())
    if command is not None:
        return command, rest.strip()
    name, slash, switch = word.partition("/")
    command = by_name.get(name.lower()) if slash else None
    if command is not None and command.takes_switch:
        return command, f"/{switch} {rest.strip()}".rstrip()
    return None


@functools.lru_cache(maxsize=64)
def _merged(command_sets: tuple[CommandSet, ...]) -> tuple[dict[str, Command], dict[str, Command]]:
    """One lookup table for a combination of command sets (there are only a few)."""
    prefixes: dict[str, Command] = {}
    by_name: dict[str, Command] = {}
    for command_set in reversed(command_sets):
        prefixes.update(command_set.prefixes)
        by_name.update(command_set.by_name)
    return prefixes, by_name
