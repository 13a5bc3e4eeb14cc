"""Running the server, for staff: ``@wall`` (moderators and administrators) tells everyone
online on every node; ``@shutdown`` (administrators) counts down to a clean stop of every
node, telling everyone as it goes (see :mod:`server.shutdown`). Both are written to the
staff's audit log.

Who may: as PennMUSH gives ``@wall`` to wizards and to whoever holds its "announce"
power, moderators may wall as well as administrators: keeping order sometimes means
telling everyone at once (a spammer to ignore, a problem being fixed), and a wall changes
nothing and is audited. Stopping the server is an administrator's alone.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from commands.base import Command, CommandError, CommandSet, Context
from i18n import ENGLISH, N_, Said, _, in_language, said
from persistence.database import DatabaseUnavailable
from persistence.staff_log import StaffLog
from server.hub import WALL_LINE, Hub
from server.shutdown import MOST_MESSAGE, MOST_NAME, MOST_SECONDS, Countdown, duration
from server.text import clean_text

log = logging.getLogger(__name__)

#: The kind of announcement a wall is (see :meth:`server.hub.Hub.announce`).
WALL = "wall"
#: Longest wall, in characters.
WALL_MAX = 1000
AUDIT_FAILED = N_("(It could not be written to the audit log: the database is not answering. The server's log has it.)")
_DELAY = re.compile(r"(\d{1,5}(?:\.\d{1,3})?|\.\d{1,3}) ?([ms]?)", re.IGNORECASE)


def wall_line(sender: str, text: str) -> Said:
    """What every player sees of a wall, in their language."""
    return said(WALL_LINE, name=sender, text=text)


def listen_for_walls(hub: Hub) -> None:
    """Show the walls made on any node to this node's players."""

    def wall(announcement: dict[str, Any]) -> None:
        sender, text = announcement.get("from"), announcement.get("text")
        if not isinstance(sender, str) or not 0 < len(sender) <= MOST_NAME:
            raise ValueError(f"a wall from {sender!r:.80}")
        if not isinstance(text, str) or not 0 < len(text) <= WALL_MAX:
            raise ValueError("a wall that is not text, or too long")
        line = wall_line(clean_text(sender), clean_text(text))
        for player in list(hub.players.values()):
            player.send(line)

    hub.announcement_handlers[WALL] = wall


async def audit(ctx: Context, action: str, target: str = "", reason: str = "") -> None:
    """Write a staff action of the player's to the audit log. The action is done already
    (a wall or a shutdown must not wait for a database that is down): if the log cannot
    be written, the server's log keeps it and the player is told."""
    player = ctx.player
    log.info("staff action by %s (#%d): %s %s %s", player.name, player.account_id, action, target, reason[:200])
    try:
        await ctx.services.get(StaffLog).record(player.account_id, player.name, action, target, reason)
    except DatabaseUnavailable as outage:
        log.warning("could not write %s by %s to the audit log: %s", action, player.name, outage)
        ctx.reply(_(AUDIT_FAILED))


class Wall(Command):
    """Tell everyone online, on every node, wherever they are.

    Every player sees "Announcement from Ann: <text>", in the lobby or at a table. For
    moderators and administrators; written to the staff's audit log.
    """

    key = "@wall"
    usage = ("@wall <text>",)

    async def run(self, ctx: Context, args: str) -> None:
        player = ctx.player
        if not player.is_staff:
            raise CommandError(_("Only moderators and administrators can wall."))
        text = args.strip()
        if not text:
            raise CommandError(_("Wall what? Use: @wall <text>"))
        if len(text) > WALL_MAX:
            refusal = _("A wall is at most {most} characters; yours has {n}. Nothing was sent.")
            raise CommandError(refusal.format(most=WALL_MAX, n=len(text)))
        ctx.hub.announce({"kind": WALL, "from": player.name, "text": text})
        await audit(ctx, "wall", "", text)


def parse_delay(text: str) -> float:
    """Seconds from ``@shutdown``'s time: minutes (``10``, ``0.5``, ``10m``) or seconds
    (``90s``); nothing is 0 (now)."""
    if not text:
        return 0.0
    match = _DELAY.fullmatch(text)
    if match is None:
        raise CommandError(
            _('Give the time in minutes ("@shutdown 10", "@shutdown 0.5") or in seconds with s ("@shutdown 90s").')
        )
    seconds = float(match.group(1)) * (1 if match.group(2).lower() == "s" else 60)
    if seconds > MOST_SECONDS:
        raise CommandError(_("A shutdown is at most a day away ({n} minutes).").format(n=MOST_SECONDS // 60))
    return seconds


class Shutdown(Command):
    """Shut the server down, every node, after telling everyone.

    "@shutdown 10=Upgrading; back in five minutes." counts down ten minutes on every node,
    telling every player with your name and message now and again 5, 2 and 1 minutes and
    30 and 10 seconds before (in a longer countdown also every hour and at 30 and 10
    minutes), then each node stops cleanly: running commands finish, everything is
    stored, and everyone is told. Give minutes with decimals if you like (0.5 is 30
    seconds), or seconds with s ("@shutdown 90s"); at most a day. Without a time, or with
    0, the server shuts down now, telling everyone first.

    "@shutdown/cancel" cancels it on every node, telling everyone. For administrators;
    written to the staff's audit log.
    """

    key = "@shutdown"
    usage = ("@shutdown [<minutes>][=<message>]", "@shutdown <seconds>s[=<message>]", "@shutdown/cancel")
    takes_switch = True

    async def run(self, ctx: Context, args: str) -> None:
        player = ctx.player
        if not player.is_admin:
            raise CommandError(_("Only administrators can shut the server down."))
        countdown = ctx.services.get(Countdown)
        if args.startswith("/"):
            switch, _space, rest = args[1:].partition(" ")
            if switch.lower() != "cancel" or rest.strip():
                raise CommandError(_('@shutdown has one switch: "@shutdown/cancel", alone.'))
            if not countdown.running:
                raise CommandError(_("No shutdown is counting down."))
            if countdown.local:
                raise CommandError(
                    _("This node is stopping because its service manager asked (SIGTERM); that cannot be cancelled.")
                )
            countdown.cancel_everywhere(player.name)
            await audit(ctx, "shutdown-cancel")
            return
        when, _equals, message = args.partition("=")
        seconds = parse_delay(when.strip())
        message = message.strip()
        if len(message) > MOST_MESSAGE:
            refusal = _("A shutdown message is at most {most} characters; yours has {n}.")
            raise CommandError(refusal.format(most=MOST_MESSAGE, n=len(message)))
        left = countdown.seconds_left
        if left is not None:
            refusal = _("A shutdown is counting down already ({time} left): @shutdown/cancel it first.")
            raise CommandError(refusal.format(time=duration(left)))
        countdown.announce(seconds, message, player.name)
        if seconds:
            ctx.reply(
                _('Every node shuts down in {time}. "@shutdown/cancel" cancels it.').format(time=duration(seconds))
            )
        await audit(ctx, "shutdown", f"in {in_language(duration(seconds), ENGLISH)}", message)


#: A moderator's server commands (an administrator has them too).
SERVER_STAFF_COMMANDS = CommandSet(N_("Server"), [Wall()])
#: An administrator's own.
SERVER_ADMIN_COMMANDS = CommandSet(N_("Server"), [Shutdown()])
