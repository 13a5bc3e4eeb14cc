"""Commands about the connection itself, usable before and after logging in."""

from __future__ import annotations

import codecs
import textwrap

from commands import gmcp
from commands.base import Command, CommandError, CommandSet, Context, find_command
from commands.games import all_game_commands
from commands.login import player_gone, welcome_screen
from commands.moderation import BOOT
from commands.text import close_matches, echoed, format_duration, format_online_time, ljust, rjust, truncate
from games import KINDS
from i18n import LANGUAGES, N_, _, known_language, ngettext, said, wire_fields
from server.accounts import AccountError
from server.sessions import credential_stamp
from server.text import coloured, reflowable, shown_width

#: How WHO marks staff, after their name.
STAFF_MARKS = {"moderator": " [mod]", "admin": " [admin]"}


class Who(Command):
    """List who is connected, for how long, and idle time.

    The Doing column shows what each player set with @doing. Staff are marked [mod]
    (moderators) or [admin] (administrators): page them if someone is making trouble.
    """

    key = "WHO"

    async def run(self, ctx: Context, args: str) -> None:
        ctx.reply(render_who(ctx))


def render_who(ctx: Context) -> str:
    width = ctx.connection.width
    # (Each heading outside the f-string, where the catalogs' extraction finds it.) A
    # column is as wide as its heading in the reader's language, if that is wider.
    heading, online, idle, doing = _("Player Name"), _("On For"), _("Idle"), _("Doing")
    online_width, idle_width = max(8, shown_width(online)), max(5, shown_width(idle))
    lines = [f"{ljust(heading, 20)} {rjust(online, online_width)} {rjust(idle, idle_width)}  {doing}"]
    players = ctx.hub.players_by_login()
    for player in players:
        mark = STAFF_MARKS.get(player.role, "")
        name = truncate(player.name, 20 - len(mark)) + mark
        row = (
            f"{ljust(name, 20)} {rjust(format_online_time(player.online_seconds), online_width)} "
            f"{rjust(format_duration(player.idle_seconds), idle_width)}  {player.doing}"
        )
        lines.append(truncate(row.rstrip(), width))
    count = len(players)
    lines.append(ngettext("{n} player connected.", "{n} players connected.", count).format(n=count))
    bots = [f"{seat.name} ({room.name})" for room in ctx.rooms.loaded() for seat in room.table.state.seats if seat.bot]
    if bots:
        listed = _("Computer players: {names}.").format(names=", ".join(bots))
        lines += textwrap.wrap(listed, width, subsequent_indent="  ")
    return "\n".join(lines)


class Quit(Command):
    """Disconnect from the server.

    A player in a game keeps their seat and can come back.
    """

    key = "QUIT"
    framed = False

    async def run(self, ctx: Context, args: str) -> None:
        ctx.connection.end_session()
        ctx.connection.close(_("Goodbye. Come back soon!"))


class Idle(Command):
    """Do nothing, without counting as activity.

    A keep-alive for clients and bots: your idle time goes on.
    """

    key = "IDLE"
    usage = ("IDLE [<anything>]",)
    framed = False
    resets_idle = False

    async def run(self, ctx: Context, args: str) -> None:
        return None


class OutputPrefix(Command):
    """Mark where each command's reply starts (for bots).

    Sends <text> on its own line before the output of every later command. Bots use it with
    OUTPUTSUFFIX to know where a command's reply starts and ends. Output caused by other
    players while your command runs comes after the suffix. Without <text>, the prefix is
    removed.
    """

    key = "OUTPUTPREFIX"
    usage = ("OUTPUTPREFIX <text>", "OUTPUTPREFIX")
    framed = False

    async def run(self, ctx: Context, args: str) -> None:
        ctx.connection.output_prefix = args


class OutputSuffix(Command):
    """Mark where each command's reply ends (for bots).

    Sends <text> on its own line after the output of every later command. Without <text>,
    the suffix is removed. See OUTPUTPREFIX.
    """

    key = "OUTPUTSUFFIX"
    usage = ("OUTPUTSUFFIX <text>", "OUTPUTSUFFIX")
    framed = False

    async def run(self, ctx: Context, args: str) -> None:
        ctx.connection.output_suffix = args


class Comment(Command):
    """A comment: does nothing.

    Lines of logcards output that are not commands start with @@, so the whole output can be
    pasted back.
    """

    key = "@@"
    usage = ("@@ <anything>",)

    async def run(self, ctx: Context, args: str) -> None:
        return None


class Colour(Command):
    """Choose whether you see colours: on, off or auto.

    Auto shows colour (ANSI) when your client says it has it. Card names in colour come from
    decks made with the Dvorax engine.
    """

    key = "@color"
    aliases = ("@colour",)
    usage = ("@color on|off|auto",)

    async def run(self, ctx: Context, args: str) -> None:
        choice = args.strip().lower()
        if choice not in ("on", "off", "auto"):
            raise CommandError(_("{status} Usage: {usage}").format(status=colour_status(ctx), usage=self.usage[0]))
        await ctx.accounts.store.set_color(ctx.player.account_id, choice)
        ctx.player.color = choice
        if choice == "off":
            ctx.reply(_("Colour is off."))
        else:
            ctx.reply(_("Colour is {choice}: {example}.").format(choice=choice, example=coloured(_("like this"), "hr")))


#: What ``@charset`` takes, by the name a player types: each a character set that keeps
#: ASCII as ASCII (see server.telnet.CHARSETS).
CHARSET_CHOICES = {
    "utf-8": "UTF-8",
    "cp1250": "CP1250",
    "iso-8859-2": "ISO-8859-2",
    "cp1251": "CP1251",
    "koi8-r": "KOI8-R",
    "ascii": "US-ASCII",
}


class Charset(Command):
    """Choose your client's character set, if it cannot say.

    Most clients use UTF-8, or tell the server theirs (telnet CHARSET). For one that
    does not: cp1250 or iso-8859-2 (Central European: Czech, Slovak), cp1251 or koi8-r
    (Cyrillic), or ascii, which writes letters without their accents (Čajovňa as
    Cajovna, Жанна as Zhanna). "@charset auto" goes back to what the client says.
    """

    key = "@charset"
    usage = ("@charset", "@charset utf-8|cp1250|iso-8859-2|cp1251|koi8-r|ascii|auto")

    async def run(self, ctx: Context, args: str) -> None:
        choice = args.strip().lower()
        connection = ctx.connection
        if not choice:
            reply = _("Your text is sent and read in {charset}. Usage: {usage}")
            ctx.reply(reply.format(charset=charset_name(connection.charset), usage=self.usage_text()))
            return
        if choice != "auto" and choice not in CHARSET_CHOICES:
            raise CommandError(_("Which character set? Usage: {usage}").format(usage=self.usage[1]))
        if not connection.choose_charset(CHARSET_CHOICES.get(choice)):
            raise CommandError(_("A browser always reads and writes UTF-8: there is nothing to choose."))
        reply = _("Your text is sent and read in {charset} from now on: Čajovňa, Жанна.")
        ctx.reply(reply.format(charset=charset_name(connection.charset)))


class Language(Command):
    """Choose the language the server writes to you in.

    cs is čeština, sk slovenčina, en English, es español and ru русский. Once you are
    logged in, your choice is kept for your player. Commands stay as they are typed in
    English; names, chat and cards stay as their players wrote them.
    """

    key = "@language"
    usage = ("@language", "@language cs|sk|en|es|ru")

    async def run(self, ctx: Context, args: str) -> None:
        connection = ctx.connection
        if not args.strip():
            reply = _("The server writes to you in {language}. Usage: {usage}")
            ctx.reply(reply.format(language=language_name(connection.language), usage=self.usage[1]))
            return
        code = known_language(args)
        if code is None:
            refusal = _('There is no language "{choice}" here. Usage: {usage}')
            raise CommandError(refusal.format(choice=echoed(args.strip()), usage=self.usage[1]))
        if connection.player is None:
            connection.language_chosen = True
            connection.set_language(code)
        else:
            await ctx.accounts.store.set_language(connection.player.account_id, code)
            for each in connection.player.connections:
                each.set_language(code)
            gmcp.send_place(connection.player)  # the views, with what they say, in it too
        ctx.reply(_("The server writes to you in {language} from now on.").format(language=language_name(code)))


def language_name(code: str) -> str:
    """A language as its own speakers name it (the pseudo-language by its code)."""
    return LANGUAGES.get(code, code)


def charset_name(charset: str) -> str:
    """A character set's name as players read it (``utf8`` and ``UTF-8`` are UTF-8)."""
    return codecs.lookup(charset).name.upper()


def colour_status(ctx: Context) -> str:
    """Whether this connection shows colour, and why: the player's choice, or on auto,
    what the client said of itself."""
    setting, shown = ctx.player.color, ctx.connection.colour
    if setting != "auto":
        status = _("Colour is on here: your setting is on.") if shown else _("Colour is off here: your setting is off.")
    elif shown:
        status = _("Colour is on here: your setting is auto, and your client says it shows colour.")
    else:
        status = _("Colour is off here: your setting is auto, and your client has not said it shows colour.")
    return status


class Help(Command):
    """Show the commands you can use now, or one's help.

    "help <game>" tells a game's rules, and "help <game> <topic>" (or "help <topic>")
    more of them: a card, how voting goes. A command used at another game's tables is
    explained too, saying where it is used.
    """

    key = "help"
    usage = ("help", "help <command>", "help <game>", "help <game> <topic>")

    @classmethod
    def help_text(cls) -> str:
        return super().help_text() + "\n\n" + _("The games: {games}.").format(games=", ".join(KINDS))

    async def run(self, ctx: Context, args: str) -> None:
        topic = " ".join(args.split()).lower()
        if not topic:
            ctx.reply(render_help_index(ctx.command_sets))
            return
        found = help_for(ctx.command_sets, topic)
        if found is None:
            close = close_matches(topic, help_topics(ctx.command_sets))
            topic = echoed(args.strip())
            if close:
                names = _(" or ").join(f'"{name}"' for name in close)
                refusal = _('There is no help on "{topic}" here. Did you mean {names}? Type "help" for the list.')
                raise CommandError(refusal.format(topic=topic, names=names))
            raise CommandError(_('There is no help on "{topic}" here. Type "help" for the list.').format(topic=topic))
        ctx.reply(found)


def help_for(command_sets: tuple[CommandSet, ...], topic: str) -> str | None:
    """The help on ``topic`` (lower case, single spaces): a command usable here, a game's
    rules, a topic of a game's (``vote``, or ``ys alchemist``), a command used at another
    game's tables; None if it is none of these."""
    command = find_command(command_sets, topic)
    if command is not None and not command[1]:
        return _("Help for {command}:").format(command=command[0].key) + "\n" + command[0].help_text()
    games = all_game_commands()
    if topic in games:
        return reflowable(_(games[topic].rules_help))
    game, _space, rest = topic.partition(" ")
    if game in games and rest in games[game].help_topics:
        return reflowable(_(games[game].help_topics[rest]))
    for commands in games.values():
        if topic in commands.help_topics:
            return reflowable(_(commands.help_topics[topic]))
    for name, commands in games.items():
        elsewhere = find_command(commands.command_sets, topic)
        if elsewhere is not None and not elsewhere[1]:
            heading = _("Help for {command} (at {game} tables):")
            heading = heading.format(command=elsewhere[0].key, game=name.capitalize())
            return heading + "\n" + elsewhere[0].help_text()
    return None


def help_topics(command_sets: tuple[CommandSet, ...]) -> list[str]:
    """Every topic ``help`` answers where these command sets are used."""
    names = [name for command_set in command_sets for name in command_set.by_name]
    for game, commands in all_game_commands().items():
        names += [game, *commands.help_topics, *(n for s in commands.command_sets for n in s.by_name)]
    return sorted(set(names))


def render_help_index(command_sets: tuple[CommandSet, ...]) -> str:
    lines = [_('Type "help <command>" for details of one command, "commands" for a summary.')]
    for command_set in command_sets:
        lines.append(_("{title}:").format(title=_(command_set.title)))
        for command in command_set.commands:
            lines.append(f"  {command.key:<14} {command.summary()}")
    return "\n".join(lines)


class Commands(Command):
    """List the names of every command you can use now."""

    key = "commands"

    async def run(self, ctx: Context, args: str) -> None:
        width = ctx.connection.width
        lines = []
        for command_set in ctx.command_sets:
            names = []
            for command in command_set.commands:
                names.append(f"{command.key} ({', '.join(command.aliases)})" if command.aliases else command.key)
            heading = _("{title}:").format(title=_(command_set.title))
            indent = max(11, shown_width(heading) + 1)
            lines += textwrap.wrap(
                ", ".join(names), width, initial_indent=ljust(heading, indent - 1) + " ", subsequent_indent=" " * indent
            )
        lines.append(_('Type "help <command>" for how to use one.'))
        ctx.reply("\n".join(lines))


class Logout(Command):
    """Log out, staying connected.

    You go back to the welcome screen, where you can connect as another player.
    """

    key = "LOGOUT"

    async def run(self, ctx: Context, args: str) -> None:
        connection = ctx.connection
        player = ctx.hub.log_out(connection)
        if player is not None:
            await player_gone(player)
        connection.send(_("You are logged out.") + "\n" + welcome_screen(connection.width, connection.language))


class Password(Command):
    """Change your password.

    You need the current one.
    """

    key = "@password"
    cost = 5
    private_arguments = True
    usage = ("@password <old>=<new>",)

    async def run(self, ctx: Context, args: str) -> None:
        old, sep, new = args.partition("=")
        if not sep or not old or not new:
            raise CommandError(_("Usage: {usage}").format(usage=self.usage[0]))
        player = ctx.player
        try:
            new_hash = await ctx.accounts.change_password(
                player.account_id, player.name, old, new, ctx.connection.address
            )
        except AccountError as error:
            raise CommandError(str(error)) from None
        # Whoever else is logged in as this player, here or on another node, knew the old
        # password: every other session ends, and only this one gets a session token that
        # the new password keeps good (those made before it no longer log in).
        connection = ctx.connection
        text = said("*** Your password was changed elsewhere: this connection is closed. ***")
        keep = [ctx.hub.peers.node, connection.number]
        ctx.hub.announce({"kind": BOOT, "account": player.account_id, **wire_fields(text, "text"), "keep": keep})
        player.credential = credential_stamp(new_hash)
        connection.session_changed()
        ctx.reply(_("Your password has been changed. Anyone else logged in as you is disconnected."))


CONNECTION_COMMANDS = CommandSet(
    N_("Session"),
    [Who(), Help(), Commands(), Quit(), Idle(), OutputPrefix(), OutputSuffix(), Comment(), Charset(), Language()],
)
ACCOUNT_COMMANDS = CommandSet(N_("Account"), [Logout(), Password(), Colour()])
