"""Talking: say, pose, page, @emit, @doing."""

from __future__ import annotations

import functools
import math
import unicodedata

from commands.base import Command, CommandError, CommandSet, Context
from commands.moderation import is_staff, mute_refusal
from commands.safety import refuses_pages_from
from commands.text import echoed, split_assignment, truncate
from i18n import N_, Text, _, ngettext, said
from persistence.names import DRAWN_AS_LATIN
from server.budgets import Budgets
from server.hub import wall_openings
from server.rooms import GameRoom

#: Longest ``@doing`` text kept; WHO shows it in its last column.
DOING_MAX = 40
PAGE_WHOM = N_("Page whom? Use: page <name>=<message>")


def refuse_if_muted(ctx: Context, what: str = N_("speak in public")) -> None:
    """A muted player may not speak in public (see ``@mute``): say why and until when."""
    refusal = mute_refusal(ctx.player, what)
    if refusal is not None:
        raise CommandError(refusal)


def refuse_if_muted_here(ctx: Context) -> None:
    """Refuse to let a spectator the room's host muted talk there."""
    place, player = ctx.player.place, ctx.player
    if isinstance(place, GameRoom) and place.muted(player.account_id) and not player.is_staff:
        refusal = _(
            "The host of room {room} has muted you here: you may watch, but not talk. "
            "(Pages still reach people, and you may talk in the lobby.)"
        )
        raise CommandError(refusal.format(room=place.name))


def talk(ctx: Context, text: Text, to_others: bool = False, echo: str = "") -> None:
    """Show ``text`` to everyone where the player is (``to_others``: but the player, who
    is shown ``echo`` instead), but those who ignore them; in a game room where a seated
    player is away, keep it to show them when they are back. A player muted by staff, or
    by the room's host, or over their talk budget, is refused, and nothing is shown."""
    refuse_if_muted(ctx)
    refuse_if_muted_here(ctx)
    refuse_if_talking_too_fast(ctx, str(text))
    if echo:
        ctx.reply(echo)
    place, speaker = ctx.player.place, ctx.player.speaker_id
    place.broadcast(text, exclude=ctx.player if to_others else None, speaker=speaker)
    if isinstance(place, GameRoom) and place.someone_away():
        place.remember_talk(text, speaker)


def refuse_if_talking_too_fast(ctx: Context, said: str) -> None:
    """What a player says to others counts against their talk budget, and their
    address's (bytes a second: see :class:`server.budgets.Budgets`), so that nobody can
    say more than their listeners can read; past it, it is refused."""
    wait = ctx.services.get(Budgets).speak(ctx.player.account_id, ctx.connection.address, len(said.encode()))
    if wait == math.inf:
        raise CommandError(_("That is more than others can read at once: nothing was sent. Say it in parts."))
    if wait:
        seconds = math.ceil(wait)
        refusal = ngettext(
            "You are saying more than others can read: nothing was sent. Wait {n} second, then say less at a time.",
            "You are saying more than others can read: nothing was sent. Wait {n} seconds, then say less at a time.",
            seconds,
        )
        raise CommandError(refusal.format(n=seconds))


class Say(Command):
    """Say something to everyone where you are.

    Others see: Alice says, "hello".
    """

    key = "say"
    aliases = ('"',)
    usage = ("say <text>", '"<text>')

    async def run(self, ctx: Context, args: str) -> None:
        if not args:
            raise CommandError(_("Say what?"))
        talk(
            ctx,
            said('{name} says, "{text}"', name=ctx.player.name, text=args),
            to_others=True,
            echo=_('You say, "{text}"').format(text=args),
        )


class Pose(Command):
    """Act something out, after your name.

    "pose waves" shows "Alice waves." to everyone where you are.
    """

    key = "pose"
    aliases = (":",)
    usage = ("pose <action>", ":<action>")

    async def run(self, ctx: Context, args: str) -> None:
        if not args:
            raise CommandError(_("Pose what?"))
        refuse_server_notice_lookalike(f"{ctx.player.name} {args}", _("A pose"))
        talk(ctx, f"{ctx.player.name} {args}")


class SemiPose(Command):
    """Pose without the space after your name.

    ";'s hat falls off" shows "Alice's hat falls off".
    """

    key = ";"
    usage = (";<action>",)

    async def run(self, ctx: Context, args: str) -> None:
        if not args:
            raise CommandError(_("Pose what?"))
        refuse_server_notice_lookalike(f"{ctx.player.name}{args}", _("A pose"))
        talk(ctx, f"{ctx.player.name}{args}")


#: How the server's own notices begin (a wall: "Announcement from Ann: ...", a shutdown:
#: "*** The server will shut down ..."), as :func:`as_read` folds them: a line a player
#: starts (@emit, a pose) may not, so that they cannot pass one off as the server's.
@functools.cache
def server_notice_starts() -> tuple[str, ...]:
    """How the server's notices begin, in every language, as :func:`as_read` folds them."""
    return ("***", *(as_read(opening) for opening in wall_openings()))


def as_read(text: str) -> str:
    """``text`` as the eye takes it in, for comparing with the server's notices: letters
    and digits in their plain Latin form and lower case (compatibility forms unfolded,
    accents and other marks dropped, Greek and Cyrillic look-alikes made Latin, rn read
    as m, 0 as o), asterisks of every shape as ``*``; spaces, punctuation and invisible
    characters left out."""
    kept = []
    for ch in unicodedata.normalize("NFKD", text).translate(DRAWN_AS_LATIN):
        name = unicodedata.name(ch, "")
        if ch == "*" or "ASTERISK" in name or ch in "⁎⁑✱✲✳✻✼✽❃❉❊❋":
            kept.append("*")
        elif ch.isalnum() and not unicodedata.category(ch).startswith("M") and "FILLER" not in name:
            # (A Hangul filler is a letter drawn as a blank.)
            kept.append(ch.lower())
    return "".join(kept).replace("rn", "m").replace("0", "o")


def refuse_server_notice_lookalike(line: str, what: str) -> None:
    """Refuse ``line`` (what others would read, starting a line of its own) if it reads
    as one of the server's notices."""
    if as_read(line).startswith(server_notice_starts()):
        refusal = _('{what} may not read as the server\'s notices do ("***" or "Announcement from").')
        raise CommandError(refusal.format(what=what))


class Emit(Command):
    """Show text to everyone here, without your name.

    <text> is shown exactly as written, to everyone where you are; it may not read as
    the server's own notices do ("***" or "Announcement from"), nor may a pose.
    """

    key = "@emit"
    usage = ("@emit <text>",)

    async def run(self, ctx: Context, args: str) -> None:
        if not args:
            raise CommandError(_("Emit what?"))
        refuse_server_notice_lookalike(args, _("An @emit"))
        talk(ctx, args)


class Page(Command):
    """Send a private message to a player who is online.

    "page <name>=<message>" reaches them wherever they are. "page <name>=:<action>" pages a
    pose: Bob sees "From afar, Alice waves." "page <message>" without a name pages the last
    player you paged.

    A name may be abbreviated if only one player online starts with it. A muted player may
    page staff only. A player who ignores you does not get your pages: you are told they
    are not accepting them.
    """

    key = "page"
    aliases = ("p",)
    usage = ("page <name>=<message>", "page <name>=:<action>", "page <message>")

    async def run(self, ctx: Context, args: str) -> None:
        player = ctx.player
        assignment = split_assignment(args)
        if assignment is None:
            if player.last_paged is None:
                raise CommandError(_(PAGE_WHOM))
            target_name, message = player.last_paged, args.strip()
        else:
            target_name, message = assignment
        if not target_name:
            raise CommandError(_(PAGE_WHOM))
        matches = ctx.hub.match_online(target_name)
        if len(matches) > 1:
            names = ", ".join(sorted(p.name for p in matches))
            refusal = _('"{typed}" could be any of: {names}. Use more of the name.')
            raise CommandError(refusal.format(typed=echoed(target_name), names=names))
        if not matches:
            if await ctx.accounts.store.find(target_name) is not None:
                raise CommandError(_("{name} is not connected.").format(name=echoed(target_name)))
            raise CommandError(_('There is no player called "{name}".').format(name=echoed(target_name)))
        target = matches[0]
        if not message:
            raise CommandError(_("What do you want to page {name}?").format(name=target.name))
        if not is_staff(target):
            refuse_if_muted(ctx, N_("page anyone but staff"))
        if await refuses_pages_from(ctx, target):
            raise CommandError(_("{name} is not accepting pages from you.").format(name=target.name))
        refuse_if_talking_too_fast(ctx, message)
        player.last_paged = target.name
        if message.startswith(":"):
            action = f"{player.name} {message[1:].lstrip()}"
            target.send_said(said("From afar, {action}", action=action), player.speaker_id)
            ctx.reply(_("Long distance to {name}: {action}").format(name=target.name, action=action))
        else:
            target.send_said(said("{name} pages: {message}", name=player.name, message=message), player.speaker_id)
            ctx.reply(_("You paged {name} with '{message}'.").format(name=target.name, message=message))


class Doing(Command):
    """Set the short text shown beside your name in WHO.

    Without text, it is cleared.
    """

    key = "@doing"
    usage = ("@doing <text>", "@doing")

    async def run(self, ctx: Context, args: str) -> None:
        player = ctx.player
        if args:
            refuse_if_muted(ctx, N_("set your @doing"))
        ctx.hub.set_doing(player, truncate(args, DOING_MAX))
        if not args:
            ctx.reply(_("Your @doing is cleared."))
        elif len(args) > DOING_MAX:
            ctx.reply(_("Your @doing is now (cut to {n} characters): {doing}").format(n=DOING_MAX, doing=player.doing))
        else:
            ctx.reply(_("Your @doing is now: {doing}").format(doing=player.doing))


SOCIAL_COMMANDS = CommandSet(N_("Talk"), [Say(), Pose(), SemiPose(), Page(), Emit(), Doing()])
