"""The staff's commands: moderators keep order (boot, ban, mute, lock, read the audit
log), administrators also give and take staff roles and set players' passwords.

Only staff have these command sets (see ``STAFF_COMMAND_SETS`` in
:mod:`commands.dispatch`): to anyone else they do not exist. Staff act only on those of a
lower role than their own: a moderator on players, an administrator on players and
moderators (an administrator's role is changed by the server's operator, with
``dvorak-mush admin``). Every action is written to the audit log (``@modlog``) with its
reason.

What every node must act on (a boot, a ban of an address, a changed mute or role) is
announced (:meth:`server.hub.Hub.announce`): each node does its part for its own
connections; :func:`install` registers what each announcement does. Bans, mutes and locks
are stored (:mod:`persistence.moderation`), so they hold on every node and after a
restart; bans and mutes end by themselves, by the clock, when they are next looked at.
"""

from __future__ import annotations

import functools
import ipaddress
import math
import re
from datetime import UTC, datetime, timedelta
from typing import Any

from commands.base import Command, CommandError, CommandSet, Context
from commands.text import echoed, format_duration, split_assignment
from i18n import N_, Said, Text, _, from_wire_fields, said, wire_fields
from persistence.accounts import ROLES, AccountRecord
from persistence.moderation import REASON_MAX, BanRecord, ModerationStore
from persistence.staff_log import StaffLog
from server.accounts import AccountError, check_password
from server.connection import Connection
from server.hub import Hub, OnlinePlayer, Someone
from server.text import clean_text

#: What each role is called in a sentence.
ROLE_TITLES = {"player": N_("a player"), "moderator": N_("a moderator"), "admin": N_("an administrator")}
#: How ``@grant`` may name a role.
ROLE_NAMES = {"moderator": "moderator", "mod": "moderator", "admin": "admin", "administrator": "admin"}
#: A ban lasts this long unless its length is given; a mute, this.
BAN_DEFAULT = timedelta(days=1)
MUTE_DEFAULT = timedelta(hours=1)
#: The longest ban or mute with an end (a ban may also be ``perm``).
LONGEST = timedelta(days=365)
#: Words for a ban that does not end.
FOREVER = ("perm", "permanent", "forever")
DURATION_HELP = N_("Use e.g. 30s, 30m, 2h, 7d, 2w, or perm for a ban for good.")
_DURATION = re.compile(r"(?:[0-9]{1,7}[smhdw])+")
_DURATION_PART = re.compile(r"([0-9]+)([smhdw])")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
#: The widest network a ban may cover, by IP version: an IPv4 /16 is 65,536 addresses,
#: a large provider's block; an IPv6 /32 is a whole provider's allocation. Wider would
#: shut out a good part of a country; that is a firewall's work, not a game command's.
WIDEST_PREFIX = {4: 16, 6: 32}
#: Entries ``@modlog`` shows.
MODLOG_ENTRIES = 20

NO_SUCH_PLAYER = N_('There is no player called "{name}".')
#: What a ban is of, as ``@bans`` shows it.
BAN_KINDS = {"account": N_("player"), "address": N_("address"), "network": N_("network")}
#: The kinds of announcement this module makes (see :func:`install`).
BOOT, BOOT_ADDRESS, MUTE, ROLE = "boot", "boot-address", "mute", "role"

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


def rank(role: str) -> int:
    """How high ``role`` is: players 0, moderators 1, administrators 2."""
    return ROLES.index(role)


def now() -> datetime:
    return datetime.now(UTC)


# -- wording -------------------------------------------------------------------------------


def until_text(until: datetime | None, at: datetime | None = None) -> Said:
    """``until 2026-12-02 10:00 UTC (2h from now)``, or ``for good`` for None, in each
    reader's language."""
    if until is None:
        return said("for good")
    left = (until - (at or now())).total_seconds()
    moment, time = f"{until:%Y-%m-%d %H:%M}", format_duration(math.ceil(left))
    return said("until {moment} UTC ({time} from now)", moment=moment, time=time)


def because(reason: str) -> Text:
    """``: <reason>``, or nothing when no reason was given; for the end of a sentence."""
    # Translators: the reason given for a ban, a mute or a lock, at the end of a sentence.
    return said(": {reason}", reason=reason) if reason else ""


def mute_refusal(player: OnlinePlayer, what: str = N_("speak in public")) -> str | None:
    """Why ``player`` may not ``what`` (marked for the catalogs with ``N_``: they are
    muted, and until when), or None if they may."""
    until = player.muted_until
    if until is None or until <= now():
        return None
    refusal = _("You are muted {until}{reason}. You may not {what} until then.")
    return refusal.format(until=until_text(until), reason=because(player.mute_reason), what=_(what))


def is_staff(someone: Someone) -> bool:
    return someone.role in ("moderator", "admin")


# -- reading arguments ---------------------------------------------------------------------


def parse_duration(word: str) -> timedelta:
    """``30s``, ``2h``, ``1d12h`` as a length of time; :class:`CommandError` if it is none
    or is not between a second and :data:`LONGEST`."""
    if not _DURATION.fullmatch(word.lower()):
        raise CommandError(_('"{typed}" is not a length of time.').format(typed=word[:20]) + " " + _(DURATION_HELP))
    seconds = sum(int(count) * _UNIT_SECONDS[unit] for count, unit in _DURATION_PART.findall(word.lower()))
    if seconds < 1:
        raise CommandError(_("A length of time is at least 1s."))
    if seconds > LONGEST.total_seconds():
        raise CommandError(
            _("That is longer than {days}d, the most there is; for a ban, use perm.").format(days=LONGEST.days)
        )
    return timedelta(seconds=seconds)


def parse_term(text: str, default: timedelta, forever_allowed: bool) -> tuple[timedelta | None, str]:
    """The length (None: for good) and the reason from ``[<duration>] [<reason>]``. A first
    word that starts with a digit (or a sign) is meant as a length and must be one; any
    other is the start of the reason, and the length is ``default``."""
    first, _space, rest = text.strip().partition(" ")
    if first.lower() in FOREVER:
        if not forever_allowed:
            raise CommandError(
                _("A mute lasts at most {days}d; to keep someone out for good, ban them.").format(days=LONGEST.days)
            )
        return None, rest.strip()
    if re.match(r"[+-]?[0-9]", first):
        return parse_duration(first), rest.strip()
    return default, text.strip()


def checked_reason(reason: str) -> tuple[str, str]:
    """The reason, cut to :data:`REASON_MAX` characters, and a note saying so if it was."""
    if len(reason) <= REASON_MAX:
        return reason, ""
    return reason[:REASON_MAX], " " + _("(The reason was cut to {n} characters.)").format(n=REASON_MAX)


def player_name(text: str) -> str:
    """A name as typed, without a leading ``*`` (the MUSH way of saying "a player")."""
    return text.strip().removeprefix("*").strip()


async def find_account(ctx: Context, name: str, command: type[Command]) -> AccountRecord:
    """The account called ``name`` (any letter case, or without its accents), or else
    the one player online whose name starts with it; :class:`CommandError` if there is none, or more than one (or, for
    no name at all, how to use ``command``)."""
    if not name:
        raise CommandError(_("Usage: {usage}").format(usage=command.usage_text()))
    store = ctx.accounts.store
    account = await store.find(name) or await store.find_without_marks(name)
    if account is None or account.deleted_at is not None:
        matches = ctx.hub.match_online(name)
        if len(matches) > 1:
            names = ", ".join(sorted(p.name for p in matches))
            raise CommandError(
                _('"{typed}" could be any of: {names}. Use more of the name.').format(typed=echoed(name), names=names)
            )
        account = await store.find(matches[0].name) if matches else None
    if account is None or account.deleted_at is not None:
        raise CommandError(_(NO_SUCH_PLAYER).format(name=echoed(name)))
    return account


def check_power(ctx: Context, account: AccountRecord, verb: str, yourself: str = "") -> None:
    """Refuse to ``verb`` oneself (saying ``yourself`` if given), or staff of one's own
    role or higher (both marked for the catalogs with ``N_``)."""
    me = ctx.player
    if account.id == me.account_id:
        raise CommandError(_(yourself) if yourself else _("You cannot {verb} yourself.").format(verb=_(verb)))
    if rank(account.role) >= rank(me.role):
        refusal = _(
            "You cannot {verb} {name}: they are {role}. Staff act only on those of a lower role than their own."
        )
        raise CommandError(refusal.format(verb=_(verb), name=account.name, role=_(ROLE_TITLES[account.role])))


def plain_address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``text`` as an IP address (an IPv4 address in IPv6 clothes as IPv4), or None."""
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def looks_like_address(text: str) -> bool:
    """Whether ``text`` is meant as an address or network: a player's name starts with a
    letter and has no ``:`` or ``/``."""
    return bool(text) and (text[0].isdigit() or ":" in text or "/" in text)


def parse_network(text: str) -> IPNetwork:
    """An address (as a network of one) or a network in CIDR form; :class:`CommandError`
    if it is neither, or wider than :data:`WIDEST_PREFIX` allows."""
    try:
        network = ipaddress.ip_network(text, strict=False)
    except ValueError:
        refusal = _('"{typed}" is not an address or a network (like 192.0.2.7 or 192.0.2.0/24).')
        raise CommandError(refusal.format(typed=text[:50])) from None
    mapped = network.network_address.ipv4_mapped if isinstance(network, ipaddress.IPv6Network) else None
    if mapped is not None and network.prefixlen >= 96:
        network = ipaddress.ip_network(f"{mapped}/{network.prefixlen - 96}")
    widest = WIDEST_PREFIX[network.version]
    if network.prefixlen < widest:
        refusal = _("{network} is too wide to ban: a network ban covers at most a /{ipv4} (IPv4) or a /{ipv6} (IPv6).")
        raise CommandError(refusal.format(network=network, ipv4=WIDEST_PREFIX[4], ipv6=WIDEST_PREFIX[6]))
    return network


def ban_target(network: IPNetwork) -> tuple[str, str]:
    """The kind of ban ("address" or "network") and its target as stored and shown."""
    if network.num_addresses == 1:
        return "address", str(network.network_address)
    return "network", str(network)


def covers(target: str, address: str) -> bool:
    """Whether the stored address or network ``target`` covers the connection address
    ``address`` (which may be no IP address at all: then nothing covers it)."""
    plain = plain_address(address)
    if plain is None:
        return False
    try:
        return plain in ipaddress.ip_network(target, strict=False)
    except ValueError:
        return False


# -- what stops a player at the door -------------------------------------------------------


async def address_ban(ctx: Context) -> BanRecord | None:
    """The ban in force on this connection's address or a network it is in, if any."""
    bans = await ctx.services.get(ModerationStore).active_bans(("address", "network"))
    return next((ban for ban in bans if covers(ban.target, ctx.connection.address)), None)


def address_ban_text(reason: str, until: datetime | None) -> Said:
    return said(
        "Your address is banned from this server {until}{reason}.", until=until_text(until), reason=because(reason)
    )


async def login_refusal(ctx: Context, account: AccountRecord) -> str | None:
    """Why ``account`` may not log in from this connection (it is locked, banned, or its
    address is banned: staff are never shut out by their address), or None if it may."""
    if account.locked_at is not None:
        refusal = _("{name} is locked by the staff{reason}. It stays locked until they unlock it.")
        return refusal.format(name=account.name, reason=because(account.lock_reason))
    ban = await ctx.services.get(ModerationStore).account_ban(account.id)
    if ban is not None:
        refusal = _("{name} is banned from this server {until}{reason}.")
        return refusal.format(name=account.name, until=until_text(ban.expires_at), reason=because(ban.reason))
    if account.role not in ("moderator", "admin"):
        address = await address_ban(ctx)
        if address is not None:
            return str(address_ban_text(address.reason, address.expires_at))
    return None


# -- announcements: what every node does ---------------------------------------------------


def install(hub: Hub) -> None:
    """Register what each of this module's announcements does on this node."""
    hub.announcement_handlers[BOOT] = functools.partial(_boot, hub)
    hub.announcement_handlers[BOOT_ADDRESS] = functools.partial(_boot_address, hub)
    hub.announcement_handlers[MUTE] = functools.partial(_mute, hub)
    hub.announcement_handlers[ROLE] = functools.partial(_role, hub)


def _account(value: Any) -> int:
    if type(value) is not int or value < 0:
        raise ValueError(f"{value!r} is not an account")
    return value


def _shown(value: Any) -> str:
    """Text for players, cleaned as their own input is (another node may have sent it)."""
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not text")
    return "\n".join(clean_text(line) for line in value.split("\n"))


def _moment(value: Any) -> datetime | None:
    if value is None:
        return None
    if type(value) not in (int, float) or not 0 <= value < 1e11:
        raise ValueError(f"{value!r} is not a moment")
    return datetime.fromtimestamp(value, UTC)


def _close(connections: list[Connection], text: Text) -> None:
    for connection in connections:
        connection.end_session()  # a browser must not log straight back in with its token
        connection.close(text)


def _boot(hub: Hub, message: dict[str, Any]) -> None:
    """``{"account", "text"}``: close every connection of that account here, saying ``text``;
    but the one ``"keep"`` names, ``[node, connection number]``, if any (whose player
    changed their password: every other session ends)."""
    account, text = _account(message["account"]), from_wire_fields(message, "text", _shown)
    keep = message.get("keep")
    if keep is not None and not (
        isinstance(keep, list) and len(keep) == 2 and isinstance(keep[0], str) and type(keep[1]) is int
    ):
        raise ValueError(f"{keep!r} is not a connection")
    player = hub.players.get(account)
    if player is not None:
        here = hub.peers.node
        _close([c for c in player.connections if keep != [here, c.number]], text)


def _boot_address(hub: Hub, message: dict[str, Any]) -> None:
    """``{"network", "text"}``: close every connection here from that network (an address
    is a network of one), but staff's, saying ``text``."""
    network, text = _text(message["network"]), from_wire_fields(message, "text", _shown)
    ipaddress.ip_network(network)  # raises ValueError: not a network
    dropped = [
        connection
        for connection in hub.connections
        if covers(network, connection.address) and not (connection.player is not None and connection.player.is_staff)
    ]
    _close(dropped, text)


def _mute(hub: Hub, message: dict[str, Any]) -> None:
    """``{"account", "until", "reason", "text"}``: the account is muted until ``until``
    (Unix time; None: no longer muted); if they are online here, tell them ``text``."""
    account, until = _account(message["account"]), _moment(message["until"])
    reason, text = _shown(message["reason"])[:REASON_MAX], from_wire_fields(message, "text", _shown)
    player = hub.players.get(account)
    if player is None:
        return
    player.muted_until, player.mute_reason = until, reason
    if until is not None and player.doing:
        hub.set_doing(player, "")  # WHO is public too
    player.send(text)


def _role(hub: Hub, message: dict[str, Any]) -> None:
    """``{"account", "role", "text"}``: the account now has that role; if they are online
    here, their commands change at once, and they are told ``text``."""
    account, role, text = _account(message["account"]), message["role"], from_wire_fields(message, "text", _shown)
    if role not in ROLES:
        raise ValueError(f"{role!r} is not a role")
    player = hub.players.get(account)
    if player is not None:
        hub.set_role(player, role)
        player.send(text)


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not text")
    return value


# -- the commands --------------------------------------------------------------------------


async def audit(ctx: Context, action: str, target: str, reason: str = "") -> None:
    """Write the staff member's action to the audit log."""
    await ctx.services.get(StaffLog).record(ctx.player.account_id, ctx.player.name, action, target, reason)


def exact_duration(length: timedelta) -> str:
    """A length of time as typed, to the second: ``2h``, ``1d12h``, ``2w``."""
    seconds, parts = int(length.total_seconds()), []
    for unit, size in sorted(_UNIT_SECONDS.items(), key=lambda item: -item[1]):
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count}{unit}")
    return "".join(parts) or "0s"


def term_note(length: timedelta | None) -> str:
    """How long, for the audit log: ``[2h]``, ``[1d12h]``, ``[perm]``."""
    return "[perm]" if length is None else f"[{exact_duration(length)}]"


def logged_reason(length: timedelta | None, reason: str) -> str:
    return f"{term_note(length)} {reason}".rstrip()


class Boot(Command):
    """Disconnect a player, wherever they are, telling them why.

    Their seats are kept, as at any disconnection, and they may connect again: to keep them
    out, ban them.
    """

    key = "@boot"
    usage = ("@boot <player>", "@boot <player>=<reason>")

    async def run(self, ctx: Context, args: str) -> None:
        name, _equals, reason = args.partition("=")
        account = await find_account(ctx, player_name(name), type(self))
        check_power(ctx, account, N_("boot"))
        if not ctx.hub.is_online(account.id):
            raise CommandError(_("{name} is not connected.").format(name=account.name))
        reason, note = checked_reason(reason.strip())
        await audit(ctx, "boot", account.name, reason)
        text = said("*** You have been disconnected by the staff{reason}. ***", reason=because(reason))
        ctx.hub.announce({"kind": BOOT, "account": account.id, **wire_fields(text, "text")})
        ctx.reply(_("You boot {name}{reason}.").format(name=account.name, reason=because(reason)) + note)


class BanCommand(Command):
    """Ban a player, an address or a network, for a time or for good.

    The time is like 30s, 30m, 2h, 7d or 2w (a day when not given), or perm. Banned players
    are disconnected at once, on every node, and told why and until when whenever they try
    to connect. An address or network ban (IPv4 or IPv6; a network as 192.0.2.0/24, at
    most a /16, or an IPv6 /32) disconnects everyone from there but staff. A new ban of the
    same player or address replaces the one in force. Examples:

      @ban Mallory=2h spamming the lobby
      @ban 192.0.2.7=7d ban evasion
      @ban 2001:db8:7::/48=perm
    """

    key = "@ban"
    usage = ("@ban <player>", "@ban <address>|<network>", "@ban <target>=[<time>] [<reason>]")

    async def run(self, ctx: Context, args: str) -> None:
        target, _equals, term = args.partition("=")
        target = player_name(target)
        if not target:
            raise CommandError(_("Usage: {usage}").format(usage=self.usage_text()))
        length, reason = parse_term(term, BAN_DEFAULT, forever_allowed=True)
        reason, note = checked_reason(reason)
        expires = now() + length if length is not None else None
        store = ctx.services.get(ModerationStore)
        player = ctx.player
        announcement: dict[str, Any]
        if looks_like_address(target):
            network = parse_network(target)
            own = [c.address for c in player.connections if covers(str(network), c.address)]
            if own:
                raise CommandError(
                    _("That would ban your own address ({address}): check what you typed.").format(address=own[0])
                )
            kind, shown = ban_target(network)
            account_id = None
            text = said("*** {notice} ***", notice=address_ban_text(reason, expires))
            announcement = {"kind": BOOT_ADDRESS, "network": str(network), **wire_fields(text, "text")}
        else:
            account = await find_account(ctx, target, type(self))
            check_power(ctx, account, N_("ban"))
            kind, shown, account_id = "account", account.name, account.id
            text = said(
                "*** You are banned from this server {until}{reason}. ***",
                until=until_text(expires),
                reason=because(reason),
            )
            announcement = {"kind": BOOT, "account": account.id, **wire_fields(text, "text")}
        ban, replaced = await store.ban(kind, shown, account_id, reason, player.account_id, player.name, expires)
        await audit(ctx, "ban", shown, logged_reason(length, reason))
        ctx.hub.announce(announcement)
        instead = ""
        if replaced:
            instead = " " + _("It replaces the ban {numbers}.").format(
                numbers=", ".join(f"#{old.id}" for old in replaced)
            )
        reply = _("Ban #{number}: {target} is banned {until}{reason}.")
        ctx.reply(
            reply.format(number=ban.id, target=shown, until=until_text(expires), reason=because(reason))
            + instead
            + note
        )


class Unban(Command):
    """Lift a ban, by what it bans or by its number.

    The number is the one @bans shows. A player who was banned may connect again at once.
    """

    key = "@unban"
    usage = ("@unban <player>|<address>|<network>", "@unban #<number>")

    async def run(self, ctx: Context, args: str) -> None:
        target = player_name(args)
        if not target:
            raise CommandError(_("Usage: {usage}").format(usage=self.usage_text()))
        store = ctx.services.get(ModerationStore)
        by = ctx.player.name
        if target.startswith("#"):
            if not target[1:].isdigit() or len(target) > 12:
                raise CommandError(_('"{typed}" is not a ban\'s number: see @bans.').format(typed=target[:20]))
            lifted = await store.lift(by, ban_id=int(target[1:]))
        elif looks_like_address(target):
            kind, shown = ban_target(parse_network(target))
            lifted = await store.lift(by, kind=kind, target=shown)
        else:
            account = await find_account(ctx, target, type(self))
            lifted = await store.lift(by, kind="account", target=account.name, account_id=account.id)
        if not lifted:
            raise CommandError(_("There is no ban in force on {target}: see @bans.").format(target=echoed(target)))
        numbers = ", ".join(f"#{ban.id}" for ban in lifted)
        for ban in lifted:
            await audit(ctx, "unban", ban.target, f"ban #{ban.id}")
        ctx.reply(
            _("{target} is no longer banned (ban {numbers} lifted).").format(target=lifted[0].target, numbers=numbers)
        )


class Bans(Command):
    """List the bans in force, with who made them, until when and why."""

    key = "@bans"

    async def run(self, ctx: Context, args: str) -> None:
        bans = await ctx.services.get(ModerationStore).active_bans()
        if not bans:
            ctx.reply(_("There are no bans in force."))
            return
        at = now()
        lines = [_("Bans in force:")]
        for ban in bans:
            entry = _("#{number} {target} ({kind}), by {name}, {until}{reason}")
            lines.append(
                entry.format(
                    number=ban.id,
                    target=ban.target,
                    kind=_(BAN_KINDS.get(ban.kind, ban.kind)),
                    name=ban.created_by_name,
                    until=until_text(ban.expires_at, at),
                    reason=because(ban.reason),
                )
            )
        ctx.reply("\n".join(lines))


class Mute(Command):
    """Stop a player speaking in public for a while: they still play.

    A muted player cannot say, pose, @emit, or set their @doing, and may page only staff;
    they play on as before. The time is like 30m, 2h or 7d (an hour when not given, a year
    at most). The mute ends by itself.
    """

    key = "@mute"
    usage = ("@mute <player>", "@mute <player>=[<time>] [<reason>]")

    async def run(self, ctx: Context, args: str) -> None:
        name, _equals, term = args.partition("=")
        account = await find_account(ctx, player_name(name), type(self))
        check_power(ctx, account, N_("mute"))
        length, reason = parse_term(term, MUTE_DEFAULT, forever_allowed=False)
        assert length is not None
        reason, note = checked_reason(reason)
        until = now() + length
        await ctx.services.get(ModerationStore).set_mute(account.id, until, reason)
        await audit(ctx, "mute", account.name, logged_reason(length, reason))
        text = said(
            "You have been muted by the staff {until}{reason}. "
            "You may play on, and page staff, but not speak in public until then.",
            until=until_text(until),
            reason=because(reason),
        )
        moment = until.timestamp()
        announcement = {"kind": MUTE, "account": account.id, "until": moment, "reason": reason}
        ctx.hub.announce({**announcement, **wire_fields(text, "text")})
        ctx.reply(
            _("{name} is muted {until}{reason}.").format(
                name=account.name, until=until_text(until), reason=because(reason)
            )
            + note
        )


class Unmute(Command):
    """Let a muted player speak in public again."""

    key = "@unmute"
    usage = ("@unmute <player>",)

    async def run(self, ctx: Context, args: str) -> None:
        account = await find_account(ctx, player_name(args), type(self))
        check_power(ctx, account, N_("unmute"))
        if account.muted_until is None or account.muted_until <= now():
            raise CommandError(_("{name} is not muted.").format(name=account.name))
        await ctx.services.get(ModerationStore).set_mute(account.id, None)
        await audit(ctx, "unmute", account.name)
        text = said("You may speak in public again.")
        ctx.hub.announce(
            {"kind": MUTE, "account": account.id, "until": None, "reason": "", **wire_fields(text, "text")}
        )
        ctx.reply(_("{name} may speak in public again.").format(name=account.name))


class Lock(Command):
    """Lock a player's account: nobody may log in to it.

    It stays locked until it is unlocked. They are disconnected at once, on every node, and
    told why whenever they try to connect. For a stolen account, or one waiting for the
    staff to decide.
    """

    key = "@lock"
    usage = ("@lock <player>", "@lock <player>=<reason>")

    async def run(self, ctx: Context, args: str) -> None:
        name, _equals, reason = args.partition("=")
        account = await find_account(ctx, player_name(name), type(self))
        check_power(ctx, account, N_("lock"))
        if account.locked_at is not None:
            refusal = _("{name} is locked already{reason}.")
            raise CommandError(refusal.format(name=account.name, reason=because(account.lock_reason)))
        reason, note = checked_reason(reason.strip())
        await ctx.services.get(ModerationStore).set_lock(account.id, True, reason)
        await audit(ctx, "lock", account.name, reason)
        text = said("*** Your player has been locked by the staff{reason}. ***", reason=because(reason))
        ctx.hub.announce({"kind": BOOT, "account": account.id, **wire_fields(text, "text")})
        ctx.reply(_("{name} is locked{reason}.").format(name=account.name, reason=because(reason)) + note)


class Unlock(Command):
    """Unlock a locked account: its player may log in again."""

    key = "@unlock"
    usage = ("@unlock <player>",)

    async def run(self, ctx: Context, args: str) -> None:
        account = await find_account(ctx, player_name(args), type(self))
        check_power(ctx, account, N_("unlock"))
        if account.locked_at is None:
            raise CommandError(_("{name} is not locked.").format(name=account.name))
        await ctx.services.get(ModerationStore).set_lock(account.id, False)
        await audit(ctx, "unlock", account.name)
        ctx.reply(_("{name} is unlocked: they may log in again.").format(name=account.name))


class ModLog(Command):
    """Show the staff's audit log, or its entries about one player.

    The last 20 actions, or the last 20 by or about one player or address, newest first.
    Each entry says when (UTC), who, what, to whom or what, and why.
    """

    key = "@modlog"
    usage = ("@modlog", "@modlog <player>|<address>")

    async def run(self, ctx: Context, args: str) -> None:
        about = player_name(args) or None
        if about is not None and not looks_like_address(about):
            about = (await find_account(ctx, about, type(self))).name
        entries = await ctx.services.get(StaffLog).recent(MODLOG_ENTRIES, about)
        if not entries:
            ctx.reply(
                _("The audit log has nothing about {name}.").format(name=about)
                if about
                else _("The audit log has nothing yet.")
            )
            return
        if about:
            lines = [_("The audit log about {name}, newest first (times in UTC):").format(name=about)]
        else:
            lines = [_("The audit log, newest first (times in UTC):")]
        for entry in entries:
            whom = f" {entry.target}" if entry.target else ""
            lines.append(f"{entry.at:%Y-%m-%d %H:%M:%S} {entry.actor_name} {entry.action}{whom}{because(entry.reason)}")
        ctx.reply("\n".join(lines))


class NewPassword(Command):
    """Set a player's password, for one who lost theirs.

    Also for a stolen player: if they are online, on any node, they are told and
    disconnected, and their browser sessions no longer log in: whoever knew the old
    password is out. The password is never written to any log.
    """

    key = "@newpassword"
    cost = 5
    private_arguments = True
    usage = ("@newpassword <player>=<password>",)

    async def run(self, ctx: Context, args: str) -> None:
        assignment = split_assignment(args)
        if assignment is None or not assignment[0] or not assignment[1]:
            raise CommandError(_("Usage: {usage}").format(usage=self.usage_text()))
        name, password = assignment
        account = await find_account(ctx, player_name(name), type(self))
        check_power(ctx, account, N_("set the password of"), N_("To change your own password, use @password."))
        problem = check_password(password)
        if problem:
            raise CommandError(problem)
        try:
            password_hash = await ctx.accounts.hash_secret(password, ctx.connection.address, ctx.player.account_id)
        except AccountError as error:
            raise CommandError(str(error)) from None
        await ctx.accounts.store.set_password_hash(account.id, password_hash)
        await audit(ctx, "newpassword", account.name)
        text = said("*** The staff have set a new password for your player: log in again with it. ***")
        ctx.hub.announce({"kind": BOOT, "account": account.id, **wire_fields(text, "text")})
        ctx.reply(
            _("{name} has a new password; anyone logged in as them has been disconnected.").format(name=account.name)
        )


class Grant(Command):
    """Make a player a moderator or an administrator.

    Moderators keep order (boot, ban, mute, lock, the audit log); administrators also give
    and take staff roles and set passwords. Their commands change at once, wherever they
    are online.
    """

    key = "@grant"
    usage = ("@grant <player>=moderator|admin",)

    async def run(self, ctx: Context, args: str) -> None:
        assignment = split_assignment(args)
        role = ROLE_NAMES.get(assignment[1].lower()) if assignment is not None else None
        if assignment is None or role is None:
            raise CommandError(_("Usage: {usage}").format(usage=self.usage_text()))
        account = await find_account(ctx, player_name(assignment[0]), type(self))
        check_power(ctx, account, N_("change the role of"), N_("You cannot change your own role."))
        if account.role == role:
            raise CommandError(_("{name} is {role} already.").format(name=account.name, role=_(ROLE_TITLES[role])))
        text = said('You are now {role}: type "help" for the staff commands.', role=said(ROLE_TITLES[role]))
        await set_role(ctx, account, role, text)


class Revoke(Command):
    """Make a moderator a player again.

    An administrator's role is changed only by the server's operator (dvorak-mush admin).
    """

    key = "@revoke"
    usage = ("@revoke <player>",)

    async def run(self, ctx: Context, args: str) -> None:
        account = await find_account(ctx, player_name(args), type(self))
        check_power(ctx, account, N_("change the role of"), N_("You cannot change your own role."))
        if account.role == "player":
            raise CommandError(_("{name} has no staff role.").format(name=account.name))
        await set_role(ctx, account, "player", said("You are no longer staff."))


async def set_role(ctx: Context, account: AccountRecord, role: str, text: Said) -> None:
    """Give ``account`` the role ``role`` (noted in the audit log, as ``dvorak-mush admin``
    does), and change it at once wherever they are online."""
    before = await ctx.accounts.store.set_role(account.name, role)
    if before is None:
        raise CommandError(_(NO_SUCH_PLAYER).format(name=account.name))
    await audit(ctx, "grant" if role != "player" else "revoke", account.name, role)
    ctx.hub.announce({"kind": ROLE, "account": account.id, "role": role, **wire_fields(text, "text")})
    reply = _("{name} is now {role} (was {before}).")
    ctx.reply(reply.format(name=account.name, role=_(ROLE_TITLES[role]), before=_(ROLE_TITLES[before.role])))


MODERATOR_COMMANDS = CommandSet(
    N_("Staff"), [Boot(), BanCommand(), Unban(), Bans(), Mute(), Unmute(), Lock(), Unlock(), ModLog()]
)
ADMIN_COMMANDS = CommandSet(N_("Admin"), [Grant(), Revoke(), NewPassword()])
