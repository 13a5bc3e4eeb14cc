"""Keeping safe from other players: ``ignore`` and ``unignore``, ``report`` (and
``@reports`` for staff), and deleting your own player (``@delete``).

What a player ignores is stored, and read into their :class:`~server.hub.OnlinePlayer`
when they log in; chat and pages carry their speaker's account to every node, and each
node leaves out its own players who ignore them (see :meth:`server.hub.Place.deliver`).
Staff cannot be ignored: what they say carries no speaker, so it reaches everyone.

A deletion is asked for with the password and done after a cool-off
(``--account-delete-days``) by :func:`delete_due_accounts`, which every node runs now and
then (and a login of an account whose cool-off is over). Every node is told through the
"account deleted" announcement: it logs the player out and names them "a former
player" where their cards are shown.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from commands.base import Command, CommandError, CommandSet, Context
from commands.text import echoed, split_assignment, truncate
from games.base import RuleViolation
from i18n import N_, _, ngettext, said
from persistence.accounts import AccountRecord
from persistence.player_safety import TooManyIgnored
from persistence.rooms import SpectatorRule
from server.accounts import AccountError
from server.hub import Hub, OnlinePlayer, Someone
from server.rooms import GameRoom, RoomRegistry
from server.safety import IGNORE_MAX, PlayerSafety
from server.text import clean_text

log = logging.getLogger(__name__)

#: What someone who may not use a staff command is told: what any unknown command gets.
HUH = N_('Huh?  (Type "help" for help.)')
#: Reports one player may make in :data:`REPORT_WINDOW` (their report is about the worst
#: thing that happened to them; a flood of them is a way to trouble the staff).
REPORTS_PER_WINDOW = 5
REPORT_WINDOW = timedelta(hours=1)
REPORT_TEXT_MAX = 1000
#: Most reports ``@reports`` lists at once, and the longest note closing one.
REPORTS_SHOWN = 30
CLOSE_NOTE_MAX = 200
DELETED_NOTICE = N_("*** Your player has been deleted, as you asked. Goodbye. ***")
#: The kinds of announcement (see :meth:`server.hub.Hub.announce`) this module makes.
NEW_REPORT = "report"
ACCOUNT_DELETED = "account deleted"
SPECTATOR_RULE = "spectator"
GIVE_PASSWORD = N_("Give your password, to be sure it is you: {usage}")
TO_BE_DELETED = N_("Your player is to be deleted at {when}. To keep it: @delete/cancel <password>")


def _safety(ctx: Context) -> PlayerSafety:
    return ctx.services.get(PlayerSafety)


def _when(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M} UTC"


async def account_named(ctx: Context, name: str, usage: str) -> AccountRecord:
    """The player called ``name`` (any letter case), or failing that the one player
    online whose name starts with it."""
    name = name.strip()
    if not name:
        raise CommandError(_("Usage: {usage}").format(usage=usage))
    account = await ctx.accounts.store.find(name)
    if account is None:
        matches = ctx.hub.match_online(name)
        if len(matches) > 1:
            names = ", ".join(sorted(p.name for p in matches))
            raise CommandError(
                _('"{typed}" could be any of: {names}. Use more of the name.').format(
                    typed=truncate(name, 30), names=names
                )
            )
        if matches:
            account = await ctx.accounts.store.find(matches[0].name)
    if account is None:
        raise CommandError(_('There is no player called "{name}".').format(name=echoed(name)))
    return account


async def refuses_pages_from(ctx: Context, target: Someone) -> bool:
    """Whether ``target`` ignores the player paging them (staff are never ignored). Their
    node leaves such a page out anyway; this is so that the sender can be told."""
    player = ctx.player
    if player.speaker_id is None:
        return False
    if isinstance(target, OnlinePlayer):
        return player.account_id in target.ignoring
    return await _safety(ctx).ignores.ignores(target.account_id, player.account_id)


class Ignore(Command):
    """Stop a player's chat and pages reaching you.

    What they say, pose or @emit where you are (the lobby or a room, on any server of the
    world) is no longer shown to you, nor what they said while you were away from your
    table; their pages do not reach you, and they are told that you are not accepting
    pages from them. Nothing else tells them. Their moves in a game are still shown: the
    game is the same for everyone. It lasts, across logins, until you "unignore" them.
    "ignore" alone lists whom you ignore.

    Staff cannot be ignored: they must be able to reach everyone (if one troubles you,
    report them). You may ignore up to 100 players.
    """

    key = "ignore"
    usage = ("ignore <player>", "ignore")

    async def run(self, ctx: Context, args: str) -> None:
        safety, player = _safety(ctx), ctx.player
        if not args.strip():
            ignored = await safety.ignores.ignored_by(player.account_id)
            player.ignoring = {p.account_id for p in ignored}
            if not ignored:
                ctx.reply(_('You ignore nobody. "ignore <player>" stops their chat and pages reaching you.'))
                return
            staff = _(" (staff now, so heard)")
            names = [p.name + (staff if p.role != "player" else "") for p in ignored]
            listing = ngettext(
                "You ignore {n} player (at most {most}): {names}.",
                "You ignore {n} players (at most {most}): {names}.",
                len(ignored),
            )
            ctx.reply(listing.format(n=len(ignored), most=IGNORE_MAX, names=", ".join(names)))
            return
        account = await account_named(ctx, args, self.usage_text())
        if account.id == player.account_id:
            raise CommandError(_("You cannot ignore yourself."))
        if account.role != "player":
            refusal = _(
                "{name} is staff, and staff cannot be ignored: they must be able to reach everyone. "
                "If they trouble you, tell the other staff: report {name}=<what happened>"
            )
            raise CommandError(refusal.format(name=account.name))
        try:
            added = await safety.ignores.add(player.account_id, account.id, IGNORE_MAX)
        except TooManyIgnored:
            refusal = _("You ignore {n} players, the most you may. Unignore someone first (ignore lists them).")
            raise CommandError(refusal.format(n=IGNORE_MAX)) from None
        if not added:
            raise CommandError(_("You already ignore {name}.").format(name=account.name))
        player.ignoring.add(account.id)
        reply = _(
            "You ignore {name}: what they say, pose or emit and their pages no longer reach you. "
            "To hear them again: unignore {name}"
        )
        ctx.reply(reply.format(name=account.name))


class Unignore(Command):
    """Hear a player you ignore again."""

    key = "unignore"
    usage = ("unignore <player>",)

    async def run(self, ctx: Context, args: str) -> None:
        safety, player = _safety(ctx), ctx.player
        name = args.strip()
        if not name:
            raise CommandError(_("Usage: {usage}  (ignore lists whom you ignore)").format(usage=self.usage_text()))
        ignored = await safety.ignores.ignored_by(player.account_id)
        key = name.casefold()
        matches = [p for p in ignored if p.name.casefold() == key] or [
            p for p in ignored if p.name.casefold().startswith(key)
        ]
        if len(matches) != 1:
            refusal = _('You ignore nobody called "{name}". (ignore lists whom you ignore.)')
            raise CommandError(refusal.format(name=truncate(name, 30)))
        other = matches[0]
        await safety.ignores.remove(player.account_id, other.account_id)
        player.ignoring.discard(other.account_id)
        ctx.reply(_("You no longer ignore {name}.").format(name=other.name))


class Report(Command):
    """Tell the staff about a player who breaks the rules.

    Or who troubles you: say what happened. The staff online are told at once, and the
    report is kept for them with where you were. The player is never told who reported
    them. You may make 5 reports an hour, each up to 1000 characters. To stop hearing them
    meanwhile, ignore them.
    """

    key = "report"
    usage = ("report <player>=<what happened>",)

    async def run(self, ctx: Context, args: str) -> None:
        safety, player = _safety(ctx), ctx.player
        assignment = split_assignment(args)
        if assignment is None or not assignment[0]:
            raise CommandError(_("Usage: {usage}").format(usage=self.usage_text()))
        name, text = assignment
        if not text:
            raise CommandError(_("What happened? Usage: {usage}").format(usage=self.usage_text()))
        if len(text) > REPORT_TEXT_MAX:
            refusal = _("A report is at most {most} characters (yours has {n}). Please say it shorter.")
            raise CommandError(refusal.format(most=REPORT_TEXT_MAX, n=len(text)))
        account = await account_named(ctx, name, self.usage_text())
        if account.id == player.account_id:
            raise CommandError(_("You cannot report yourself."))
        now = datetime.now(UTC)
        made = await safety.reports.made_since(player.account_id, now - REPORT_WINDOW)
        if len(made) >= REPORTS_PER_WINDOW:
            minutes = max(1, int((made[0] + REPORT_WINDOW - now).total_seconds() // 60) + 1)
            refusal = ngettext(
                "You have made {made} reports in the last hour, the most you may: the staff have them. "
                "You may report again in {n} minute.",
                "You have made {made} reports in the last hour, the most you may: the staff have them. "
                "You may report again in {n} minutes.",
                minutes,
            )
            raise CommandError(refusal.format(made=len(made), n=minutes))
        place = player.place
        # For the staff's list: in English, as the staff's log is.
        where = f"room {place.name}" if isinstance(place, GameRoom) else "the lobby"
        report_id = await safety.reports.add(player.account_id, player.name, account.id, account.name, where, text)
        log.info("report #%d by %s about %s", report_id, player.name, account.name)
        ctx.hub.announce({"kind": NEW_REPORT, "id": report_id, "subject": account.name})
        reply = _(
            "Thank you: your report about {name} is with the staff (report #{number}). {name} is not told who made it."
        )
        ctx.reply(reply.format(name=account.name, number=report_id))


class Reports(Command):
    """List the players' reports, or close one (staff).

    Open reports, the newest first, each with its number, who made it, about whom, where
    and when; "@reports all" lists the closed ones too. "@reports/close <number>" marks one
    dealt with, with a note if you like: it goes in the staff's audit log.
    """

    key = "@reports"
    takes_switch = True
    usage = ("@reports", "@reports all", "@reports/close <number>", "@reports/close <number>=<note>")

    async def run(self, ctx: Context, args: str) -> None:
        if not ctx.player.is_staff:
            raise CommandError(_(HUH))
        if args.startswith("/"):
            switch, _space, rest = args[1:].partition(" ")
            if switch.strip().lower() != "close":
                refusal = _("There is no @reports/{switch}. Usage: {usage}")
                raise CommandError(refusal.format(switch=truncate(switch, 20), usage=self.usage_text()))
            await self._close(ctx, rest)
            return
        word = args.strip().lower()
        if word not in ("", "all"):
            raise CommandError(_("Usage: {usage}").format(usage=self.usage_text()))
        reports = await _safety(ctx).reports.listing(closed_too=word == "all", limit=REPORTS_SHOWN)
        if not reports:
            ctx.reply(
                _("There are no reports.") if word else _('There are no open reports ("@reports all" lists all).')
            )
            return
        shown = len(reports)
        if word and shown == REPORTS_SHOWN:
            heading = _("Reports, the newest first ({n} shown):")
        elif word:
            heading = _("Reports, the newest first ({n}):")
        elif shown == REPORTS_SHOWN:
            heading = _("Open reports, the newest first ({n} shown):")
        else:
            heading = _("Open reports, the newest first ({n}):")
        lines = [heading.format(n=shown)]
        for report in reports:
            closed = ""
            if report.closed_at is not None:
                closed = _(" [closed {when} by {name}]").format(
                    when=_when(report.closed_at), name=report.closed_by_name
                )
            entry = _("#{number} {when}: {reporter} about {subject}, in {place}{closed}:")
            lines.append(
                entry.format(
                    number=report.id,
                    when=_when(report.created_at),
                    reporter=report.reporter_name,
                    subject=report.subject_name,
                    place=report.place,
                    closed=closed,
                )
            )
            lines.append(f"    {report.text}")
        ctx.reply("\n".join(lines))

    async def _close(self, ctx: Context, rest: str) -> None:
        safety, player = _safety(ctx), ctx.player
        number, _equals, note = rest.partition("=")
        number, note = number.strip().removeprefix("#"), note.strip()
        if not (number.isascii() and number.isdigit()) or len(number) > 9:
            raise CommandError(_("Which report? Usage: @reports/close <number>=<note>"))
        if len(note) > CLOSE_NOTE_MAX:
            raise CommandError(_("A note is at most {most} characters.").format(most=CLOSE_NOTE_MAX))
        report = await safety.reports.find(int(number))
        if report is None:
            raise CommandError(_("There is no report #{number}.").format(number=int(number)))
        if report.closed_at is not None or not await safety.reports.close(report, player.account_id, player.name, note):
            closed = await safety.reports.find(report.id)
            by = closed.closed_by_name if closed is not None else None
            if by:
                raise CommandError(
                    _("Report #{number} is closed already (by {name}).").format(number=report.id, name=by)
                )
            raise CommandError(_("Report #{number} is closed already.").format(number=report.id))
        log.info("report #%d closed by %s", report.id, player.name)
        ctx.reply(_("Report #{number} about {name} is closed.").format(number=report.id, name=report.subject_name))


class DeletePlayer(Command):
    """Delete your player, after days to change your mind.

    Give your password: your player is deleted when the server's cool-off is over (7
    days unless its operators chose otherwise; you are told when), unless you type
    "@delete/cancel <password>" before then. Meanwhile you play as usual, and are reminded each time
    you log in. Then you are logged out and leave any table you sit at, your name is free
    for anyone to take, and whom you ignore and your saved CCG decks are gone. Cards you
    wrote stay in the rooms' decks, their author shown as "a former player". "@delete"
    alone says whether your player is to be deleted. Staff must give up their role first.
    """

    key = "@delete"
    takes_switch = True
    private_arguments = True
    cost = 5
    usage = ("@delete me=<password>", "@delete/cancel <password>", "@delete")

    async def run(self, ctx: Context, args: str) -> None:
        safety, player = _safety(ctx), ctx.player
        if args.startswith("/"):
            switch, _space, password = args[1:].partition(" ")
            if switch.strip().lower() != "cancel":
                raise CommandError(_("Usage: {usage}").format(usage=self.usage_text()))
            if not password.strip():
                raise CommandError(_(GIVE_PASSWORD).format(usage=self.usage[1]))
            await _refuse_unless_password(ctx, password.strip())
            if not await safety.deletions.cancel(player.account_id):
                raise CommandError(_("Your player is not to be deleted: there is nothing to cancel."))
            log.info("%s (#%d) called off the deletion of their player", player.name, player.account_id)
            ctx.reply(_("Your player will not be deleted: it is yours to keep."))
            return
        target, equals, password = args.partition("=")
        if not target.strip() and not equals:
            account = await ctx.accounts.store.find(player.name)
            if account is not None and account.delete_after is not None:
                when = _when(account.delete_after)
                ctx.reply(_(TO_BE_DELETED).format(when=when))
            else:
                ctx.reply(_("Your player is not to be deleted. To delete it: {usage}").format(usage=self.usage[0]))
            return
        if target.strip().casefold() not in ("me", player.name.casefold()):
            raise CommandError(_("You can delete only your own player: {usage}").format(usage=self.usage[0]))
        if not password:
            raise CommandError(_(GIVE_PASSWORD).format(usage=self.usage[0]))
        if player.is_staff:
            raise CommandError(
                _(
                    "Staff cannot delete their player: ask an administrator to revoke your role first "
                    "(so that the server always keeps someone who can run it)."
                )
            )
        await _refuse_unless_password(ctx, password)
        at = datetime.now(UTC) + safety.delete_cooloff
        already = await safety.deletions.schedule(player.account_id, at)
        if already is not None:
            raise CommandError(
                _("Your player is already to be deleted at {when}. To keep it: @delete/cancel <password>").format(
                    when=_when(already)
                )
            )
        log.info("%s (#%d) asked for their player to be deleted at %s", player.name, player.account_id, _when(at))
        reply = _(
            "Your player will be deleted at {when}. Until then you can play as usual; "
            "to keep it, type: @delete/cancel <password>"
        )
        ctx.reply(reply.format(when=_when(at)))


async def _refuse_unless_password(ctx: Context, password: str) -> None:
    """Refuse unless ``password`` is the player's (a wrong one counts as a failed login)."""
    player = ctx.player
    try:
        right = await ctx.accounts.check_password(player.account_id, player.name, password, ctx.connection.address)
    except AccountError as error:
        raise CommandError(str(error)) from None
    if not right:
        raise CommandError(_("That is not your password, so nothing is changed."))


def deletion_reminder(account: AccountRecord) -> str | None:
    """What a player whose account is to be deleted is told when they log in."""
    if account.delete_after is None:
        return None
    when = _when(account.delete_after)
    return _(
        "Your player is to be deleted at {when}, as you asked. To keep it, type: @delete/cancel <password>"
    ).format(when=when)


async def delete_account(hub: Hub, rooms: RoomRegistry, safety: PlayerSafety, account_id: int) -> bool:
    """Delete ``account_id`` if its cool-off is over (True if this call did it): every node
    logs the player out, and they leave the tables they sit at, as ``leave`` would have
    them (through the room's moves, so its log stays whole)."""
    if not await safety.deletions.delete(account_id):
        return False
    log.info("player #%d deleted, as they asked", account_id)
    hub.announce({"kind": ACCOUNT_DELETED, "account": account_id})
    await _leave_tables(rooms, account_id)
    return True


async def _leave_tables(rooms: RoomRegistry, account_id: int) -> None:
    # Each once: a seat may stay (Gnav keeps a forfeiting player's till the match ends).
    for room_id in await rooms.store.rooms_with_seat(account_id):
        room = await rooms.get(room_id)
        if room is None:
            continue
        try:
            await room.perform(lambda table: table.unseat(account_id, account_id))
        except RuleViolation as refused:
            log.warning("deleted player #%d could not leave room %s: %s", account_id, room.name, refused)


async def delete_due_accounts(hub: Hub, rooms: RoomRegistry, safety: PlayerSafety) -> int:
    """Delete every account whose cool-off is over, and log out any player online here
    whose account was deleted without this node hearing of it; how many this node deleted."""
    deleted = 0
    for due in await safety.deletions.due():
        if await delete_account(hub, rooms, safety, due.account_id):
            deleted += 1
    for account_id in await safety.deletions.deleted_among(set(hub.players)):
        _log_out_deleted(hub, safety, account_id)
    return deleted


def _log_out_deleted(hub: Hub, safety: PlayerSafety, account_id: int) -> None:
    safety.former_players.add(account_id)
    player = hub.players.get(account_id)
    if player is not None:
        for connection in list(player.connections):
            connection.end_session()
            connection.close(said(DELETED_NOTICE))


# -- announcements: what every node does when told (each checks what it is given) ---------


def _positive(value: Any) -> int:
    if type(value) is not int or value <= 0:
        raise ValueError(f"{value!r} is not an id")
    return value


def _name(value: Any) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= 32:
        raise ValueError(f"{value!r} is not a name")
    return clean_text(value)


def _flag(value: Any) -> bool:
    if type(value) is not bool:
        raise ValueError(f"{value!r} is not true or false")
    return value


@dataclass
class _Announcements:
    hub: Hub
    rooms: RoomRegistry
    safety: PlayerSafety

    def new_report(self, announcement: dict[str, Any]) -> None:
        """Tell the staff online here that there is a new report."""
        report_id, subject = _positive(announcement.get("id")), _name(announcement.get("subject"))
        for player in self.hub.players.values():
            if player.is_staff:
                player.send(
                    said(
                        "[Staff] New report #{number}, about {name}: type @reports to read it.",
                        number=report_id,
                        name=subject,
                    )
                )

    def account_deleted(self, announcement: dict[str, Any]) -> None:
        """An account was deleted: it is a former player here, and logged out if online here."""
        _log_out_deleted(self.hub, self.safety, _positive(announcement.get("account")))

    def spectator_rule(self, announcement: dict[str, Any]) -> None:
        """A host muted, barred or let back a spectator: this node's copy of the room knows."""
        room_id, account_id = _positive(announcement.get("room")), _positive(announcement.get("account"))
        rule = SpectatorRule(
            _name(announcement.get("name")), _flag(announcement.get("muted")), _flag(announcement.get("barred"))
        )
        room = self.rooms.loaded_room(room_id)
        if room is not None:
            room.rule_for(account_id, rule)


def install(hub: Hub, rooms: RoomRegistry, safety: PlayerSafety) -> None:
    """Have this node act on the announcements of reports, deletions and hosts' rules."""
    announcements = _Announcements(hub, rooms, safety)
    hub.announcement_handlers[NEW_REPORT] = announcements.new_report
    hub.announcement_handlers[ACCOUNT_DELETED] = announcements.account_deleted
    hub.announcement_handlers[SPECTATOR_RULE] = announcements.spectator_rule


SAFETY_COMMANDS = CommandSet(N_("Safety"), [Ignore(), Unignore(), Report(), DeletePlayer()])
#: Given only to staff (see :func:`commands.dispatch.command_sets_for`).
STAFF_SAFETY_COMMANDS = CommandSet(N_("Staff"), [Reports()])
