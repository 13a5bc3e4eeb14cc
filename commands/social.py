"""Talking: say, pose, page, @emit, @doing."""

from __future__ import annotations

import logging

from commands.base import Command, CommandError, CommandSet, Context
from commands.moderation import is_staff, mute_refusal
from commands.text import split_assignment, truncate
from persistence.database import DatabaseUnavailable
from server.rooms import GameRoom

log = logging.getLogger(__name__)

#: Longest ``@doing`` text kept; WHO shows it in its last column.
DOING_MAX = 40


def refuse_if_muted(ctx: Context, what: str = "speak in public") -> None:
    """A muted player may not speak in public (see ``@mute``): say why and until when."""
    refusal = mute_refusal(ctx.player, what)
    if refusal is not None:
        raise CommandError(refusal)


async def talk(ctx: Context, text: str, to_others: bool = False) -> None:
    """Show ``text`` to everyone where the player is (``to_others``: but the player); in
    a game room where a seated player is away, keep it to show them when they are back.
    A muted player is refused, and nothing is shown."""
    refuse_if_muted(ctx)
    place = ctx.player.place
    place.broadcast(text, exclude=ctx.player if to_others else None)
    if isinstance(place, GameRoom) and place.someone_away():
        try:
            await place.remember_talk(text)
        except DatabaseUnavailable as outage:
            log.warning("could not keep what was said in room %s: %s", place.name, outage)


class Say(Command):
    """Say something to everyone where you are.

    Others see: Alice says, "hello".
    """

    key = "say"
    aliases = ('"',)
    usage = ("say <text>", '"<text>')

    async def run(self, ctx: Context, args: str) -> None:
        if not args:
            raise CommandError("Say what?")
        refuse_if_muted(ctx)
        player = ctx.player
        ctx.reply(f'You say, "{args}"')
        await talk(ctx, f'{player.name} says, "{args}"', to_others=True)


class Pose(Command):
    """Act something out, after your name.

    "pose waves" shows "Alice waves." to everyone where you are.
    """

    key = "pose"
    aliases = (":",)
    usage = ("pose <action>", ":<action>")

    async def run(self, ctx: Context, args: str) -> None:
        if not args:
            raise CommandError("Pose what?")
        await talk(ctx, f"{ctx.player.name} {args}")


class SemiPose(Command):
    """Pose without the space after your name.

    ";'s hat falls off" shows "Alice's hat falls off".
    """

    key = ";"
    usage = (";<action>",)

    async def run(self, ctx: Context, args: str) -> None:
        if not args:
            raise CommandError("Pose what?")
        await talk(ctx, f"{ctx.player.name}{args}")


class Emit(Command):
    """Show text to everyone here, without your name.

    <text> is shown exactly as written, to everyone where you are.
    """

    key = "@emit"
    usage = ("@emit <text>",)

    async def run(self, ctx: Context, args: str) -> None:
        if not args:
            raise CommandError("Emit what?")
        await talk(ctx, args)


class Page(Command):
    """Send a private message to a player who is online.

    "page <name>=<message>" reaches them wherever they are. "page <name>=:<action>" pages a
    pose: Bob sees "From afar, Alice waves." "page <message>" without a name pages the last
    player you paged.

    A name may be abbreviated if only one player online starts with it. A muted player may
    page staff only.
    """

    key = "page"
    aliases = ("p",)
    usage = ("page <name>=<message>", "page <name>=:<action>", "page <message>")

    async def run(self, ctx: Context, args: str) -> None:
        player = ctx.player
        assignment = split_assignment(args)
        if assignment is None:
            if player.last_paged is None:
                raise CommandError("Page whom? Use: page <name>=<message>")
            target_name, message = player.last_paged, args.strip()
        else:
            target_name, message = assignment
        if not target_name:
            raise CommandError("Page whom? Use: page <name>=<message>")
        matches = ctx.hub.match_online(target_name)
        if len(matches) > 1:
            names = ", ".join(sorted(p.name for p in matches))
            raise CommandError(f'"{target_name}" could be any of: {names}. Use more of the name.')
        if not matches:
            if await ctx.accounts.store.find(target_name) is not None:
                raise CommandError(f"{target_name} is not connected.")
            raise CommandError(f'There is no player called "{target_name}".')
        target = matches[0]
        if not message:
            raise CommandError(f"What do you want to page {target.name}?")
        if not is_staff(target):
            refuse_if_muted(ctx, "page anyone but staff")
        player.last_paged = target.name
        if message.startswith(":"):
            action = f"{player.name} {message[1:].lstrip()}"
            target.send(f"From afar, {action}")
            ctx.reply(f"Long distance to {target.name}: {action}")
        else:
            target.send(f"{player.name} pages: {message}")
            ctx.reply(f"You paged {target.name} with '{message}'.")


class Doing(Command):
    """Set the short text shown beside your name in WHO.

    Without text, it is cleared.
    """

    key = "@doing"
    usage = ("@doing <text>", "@doing")

    async def run(self, ctx: Context, args: str) -> None:
        player = ctx.player
        if args:
            refuse_if_muted(ctx, "set your @doing")
        ctx.hub.set_doing(player, truncate(args, DOING_MAX))
        if not args:
            ctx.reply("Your @doing is cleared.")
        elif len(args) > DOING_MAX:
            ctx.reply(f"Your @doing is now (cut to {DOING_MAX} characters): {player.doing}")
        else:
            ctx.reply(f"Your @doing is now: {player.doing}")


SOCIAL_COMMANDS = CommandSet("Talk", [Say(), Pose(), SemiPose(), Page(), Emit(), Doing()])
