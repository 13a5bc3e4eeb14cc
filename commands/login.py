"""Getting in: the welcome screen, ``connect`` and ``create``, and arrival/departure notices."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from commands import gmcp
from commands.base import Command, CommandError, CommandSet, Context
from commands.games import game_commands
from commands.look import look_text
from commands.moderation import address_ban, address_ban_text, login_refusal
from commands.rooms import hand_reminder, seat_to_return_to, welcome_back
from commands.safety import delete_account, deletion_reminder
from commands.text import parse_quoted_word
from games import KINDS
from i18n import ENGLISH, LANGUAGES, N_, _, known_language, language, said
from persistence.accounts import AccountRecord
from persistence.database import DatabaseUnavailable
from server.accounts import AccountError, LoginFailed
from server.hub import Hub, OnlinePlayer, Place, RemotePlayer
from server.rooms import GameRoom, RoomRegistry, room_id_in
from server.safety import PlayerSafety
from server.sessions import SessionTokens, credential_stamp

log = logging.getLogger("server.login")

DELETED = N_("That player has been deleted, as its owner asked.")
SEAT_KEPT = N_("{name} has disconnected; the seat is kept.")
DISCONNECTED = N_("{name} has disconnected.")

_WELCOME = N_("""\
{rule}
  D V O R A K   M U S H     the card game whose cards are written by you
{rule}
{intro}

  connect <name> <password>    log in
  create <name> <password>     make a new player (then you are logged in)
  WHO                          see who is on
  help                         what else you can do here
  @language {codes}     {languages}
  QUIT                         leave

A name with spaces goes in double quotes:
  create "Jo Smith" <password>
{rule}""")
#: One paragraph, filled to the client's window as it is sent: the games by their
#: registered names ("games" says what each is).
_INTRO = N_(
    'Sit down at a named table with other people, or computer players, and play {games} ("games" says what each is).'
)


def welcome_screen(width: int, code: str = ENGLISH) -> str:
    """The screen a new connection sees in language ``code``, its rules no wider than
    the client's window, with the languages to choose from."""
    with language(code):
        names = [name.capitalize() for name in KINDS]
        games = _(" or ").join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]
        rule = "=" * min(76, width)
        intro = _(_INTRO).format(games=games)
        # The languages, each named in itself: the same in every language.
        codes, languages = "|".join(LANGUAGES), ", ".join(LANGUAGES.values())
        return _(_WELCOME).format(rule=rule, intro=intro, codes=codes, languages=languages)


class Connect(Command):
    """Log in to your player.

    If it is already logged in elsewhere, both connections stay logged in and both receive
    everything the player sees. Without a password, you are asked for it and it is not shown
    as you type.
    """

    key = "connect"
    cost = 5
    private_arguments = True
    usage = ("connect <name> <password>", 'connect "<name with spaces>" <password>')

    async def run(self, ctx: Context, args: str) -> None:
        name, password = parse_quoted_word(args)
        if not name:
            raise CommandError(_("Usage: {usage}").format(usage=self.usage[0]))
        if not password:
            prompt = _("Password for {name}:").format(name=name)
            ask_password(ctx, prompt, lambda secret: self.run(ctx, f'"{name}" {secret}'))
            return
        connection = ctx.connection
        try:
            account = await ctx.accounts.authenticate(name, password, connection.address)
        except LoginFailed as failure:
            # A name that is no player's may be a password typed in its place: not logged.
            tried = repr(name) if failure.known else "a name that is no player's"
            log.info("failed login as %s from %s (connection %d)", tried, connection.address, connection.number)
            raise CommandError(str(failure)) from None
        except AccountError as error:
            raise CommandError(str(error)) from None
        await enter(ctx, account, created=False)


class Create(Command):
    """Make a new player and log in to it.

    Names are unique, whatever their letter case. Without a password, you are asked for it
    and it is not shown as you type.
    """

    key = "create"
    cost = 5
    private_arguments = True
    usage = ("create <name> <password>", 'create "<name with spaces>" <password>')

    async def run(self, ctx: Context, args: str) -> None:
        name, password = parse_quoted_word(args)
        if not name:
            raise CommandError(_("Usage: {usage}").format(usage=self.usage[0]))
        if not password:
            prompt = _("Choose a password for {name}:").format(name=name)
            ask_password(ctx, prompt, lambda secret: self.run(ctx, f'"{name}" {secret}'))
            return
        ban = await address_ban(ctx)
        if ban is not None:
            log.info("refused to make player %r from %s: the address is banned", name, ctx.connection.address)
            raise CommandError(address_ban_text(ban.reason, ban.expires_at))
        try:
            account = await ctx.accounts.create(name, password, ctx.connection.address)
        except AccountError as error:
            raise CommandError(str(error)) from None
        log.info("created player %s (#%d) from %s", account.name, account.id, ctx.connection.address)
        await enter(ctx, account, created=True)


class Resume(Command):
    """Log in again with a browser's session token.

    The web client is given a short-lived token when it logs in and sends it by itself when
    it reconnects: you are back where you were, at your seat if you have one.
    """

    key = "@resume"
    cost = 5
    private_arguments = True
    usage = ("@resume <token>",)

    async def run(self, ctx: Context, args: str) -> None:
        session = ctx.services.get(SessionTokens).check(args.strip())
        account = await ctx.accounts.store.find(session.name) if session is not None else None
        if (
            session is None
            or account is None
            or account.id != session.account_id
            or session.credential != credential_stamp(account.password_hash)
        ):
            ctx.connection.end_session()
            raise CommandError(_("That session has ended: log in with your name and password."))
        log.info("session resumed by %s (#%d) from %s", account.name, account.id, ctx.connection.address)
        await enter(ctx, account, created=False)


async def settle_language(ctx: Context, account: AccountRecord) -> None:
    """Write to the player in their language: the one chosen on this connection before
    login (kept for the player from now on), else the one they chose before."""
    connection = ctx.connection
    if connection.language_chosen:
        if account.language != connection.language:
            await ctx.accounts.store.set_language(account.id, connection.language)
        chosen: str | None = connection.language
    else:
        chosen = account.language
    if chosen is not None and known_language(chosen) == chosen:
        for each in ctx.player.connections:
            each.set_language(chosen)
    # Chosen for this player: the next to log in on this connection is asked anew.
    connection.language_chosen = False


def ask_password(ctx: Context, prompt: str, answer: Callable[[str], Awaitable[None]]) -> None:
    """Ask for a password on its own line, with the client's echo off where it allows."""
    connection = ctx.connection
    connection.send(prompt)
    connection.hide_input(True)
    connection.secret_prompt = answer


async def enter(ctx: Context, account: AccountRecord, created: bool) -> None:
    """Attach the connection to the account and show the player where they are: back at
    their table if they have a seat, else the lobby. A locked or banned account, or one
    coming from a banned address, is refused with the reason and until when."""
    connection = ctx.connection
    if connection.closing:
        return
    safety = ctx.services.get(PlayerSafety)
    due = account.delete_after is not None and account.delete_after <= datetime.now(UTC)
    # Its cool-off is over, and no node has deleted it yet: now is the time.
    if due and await delete_account(ctx.hub, ctx.rooms, safety, account.id):
        raise CommandError(_(DELETED))
    # What the database must read or store for the player to come in is done first: if
    # it fails, they are told so and are still at the welcome screen, not half inside.
    ignoring = await safety.ignores.ignored_ids(account.id)
    back = await seat_to_return_to(ctx, account.id) if account.id not in ctx.hub.players else None
    if not created:
        # Read afresh, last: a lock, ban or mute made since the account was read (while
        # the password was checked, say) was announced before this player was online
        # here, so it reached no one, and must be seen now.
        fresh = await ctx.accounts.store.find(account.name)
        if fresh is None or fresh.id != account.id:
            raise CommandError(_(DELETED))
        if fresh.password_hash != account.password_hash:
            # Changed while this login was checked: what was given is no longer the password,
            # and this session must not be let in (nor given a token) under the new one.
            raise CommandError(_("This player's password was changed just now. Log in with the new password."))
        account = fresh
        refusal = await login_refusal(ctx, account)
        if refusal is not None:
            log.info("login %s (#%d) from %s refused: %s", account.name, account.id, connection.address, refusal)
            raise CommandError(refusal)
        if connection.closing:
            return
    first = ctx.hub.log_in(
        connection, account.id, account.name, account.role, account.color, credential_stamp(account.password_hash)
    )
    player = ctx.player
    player.ignoring = ignoring
    # As stored now: a role given on the command line, say, counts from the next login.
    player.muted_until, player.mute_reason = account.muted_until, account.mute_reason
    if player.role != account.role:
        ctx.hub.set_role(player, account.role)
    log.info("login %s (#%d) from %s (connection %d)", account.name, account.id, connection.address, connection.number)
    await settle_language(ctx, account)
    if created:
        connection.send(_("Welcome, {name}! Your player has been created.").format(name=account.name))
    else:
        connection.send(_("Welcome back, {name}.").format(name=account.name))
    reminder = deletion_reminder(account)
    if reminder is not None:
        connection.send(reminder)
    gmcp.send_identity(player)
    if not first:
        for other in player.connections:
            if other is not connection:
                other.send(said("Your player has also logged in from {address}.", address=connection.address))
        connection.send(await look_text(ctx))
        place = player.place
        if isinstance(place, GameRoom) and place.is_seated(account.id):
            # The new connection is shown what the first one already knows: the hand too.
            hand = await hand_reminder(place, account.id)
            if hand is not None:
                connection.send(hand)
        gmcp.send_place(player)
    elif back is None or not await welcome_back(ctx, back):
        player.place.notice(said("{name} has connected.", name=player.name), exclude=player)
        connection.send(await look_text(ctx))
        gmcp.send_place(player)


async def come_over(ctx: Context, handed: dict[str, Any]) -> None:
    """A telnet player another worker of this host handed over (see :mod:`server.handoff`),
    just gone to a room this worker serves: logged in here as they were there, in that
    room, without a word to them or anyone (they are still online, only served here).
    What the database holds is read again, as at any login: a ban or lock made meanwhile
    refuses them (raises CommandError with the reason)."""
    connection = ctx.connection
    # Of these, server.handoff has checked the types (well_formed; seq made an int).
    name, account_id, room_id, seq = handed["name"], handed["account"], handed["room"], handed["seq"]
    account = await ctx.accounts.store.find(name)
    if account is None or account.id != account_id:
        raise CommandError(_(DELETED))
    if account.language is not None and known_language(account.language) == account.language:
        connection.set_language(account.language)
    else:
        connection.set_language(connection.client_language() or ENGLISH)
    refusal = await login_refusal(ctx, account)
    if refusal is not None:
        log.info("%s (#%d), handed over, refused: %s", account.name, account.id, refusal)
        raise CommandError(refusal)
    ignoring = await ctx.services.get(PlayerSafety).ignores.ignored_ids(account.id)
    room = await ctx.rooms.get(room_id)
    missed = []
    while room is not None:
        if room.seq < seq:
            # What the player was shown there and this copy has not heard of yet: from the
            # database now (stored before anyone was told), not shown to them again later.
            await room.catch_up()
        # And what this copy has shown its players since the other worker let go.
        missed = await room.events_held(seq)
        again = await ctx.rooms.get(room_id)  # as it is now loaded here
        if again is room:
            break
        room = again  # let go meanwhile: the same with the room read afresh
    if connection.closing:
        return
    ctx.hub.log_in(
        connection,
        account.id,
        account.name,
        account.role,
        account.color,
        credential_stamp(account.password_hash),
        handed=True,
    )
    player = ctx.player
    player.ignoring = ignoring
    player.muted_until, player.mute_reason = account.muted_until, account.mute_reason
    # From a worker of this host (the kernel vouched for its user), checked for type only.
    doing, last_paged = handed.get("doing"), handed.get("last_paged")
    player.doing = doing if isinstance(doing, str) else ""
    player.last_paged = last_paged if isinstance(last_paged, str) else None
    online_for, connected_for = handed.get("online_for"), handed.get("connected_for")
    if isinstance(online_for, int | float) and online_for >= 0:
        player.online_since = time.monotonic() - online_for
    if isinstance(connected_for, int | float) and connected_for >= 0:
        connection.connected_at = time.monotonic() - connected_for
    prefix, suffix = handed.get("output_prefix"), handed.get("output_suffix")
    connection.output_prefix = prefix if isinstance(prefix, str) else ""
    connection.output_suffix = suffix if isinstance(suffix, str) else ""
    log.info("%s (#%d) handed over (connection %d)", account.name, account.id, connection.number)
    if room is not None:
        if missed:
            game = game_commands(room.game)
            connection.send("\n".join(game.line_for(room.table, e.event, account.id) for e in missed))
        ctx.hub.move(player, room)
    else:  # deleted meanwhile
        connection.send(await look_text(ctx))


async def node_lost(hub: Hub, rooms: RoomRegistry, players: list[RemotePlayer]) -> None:
    """These players' node went without a word (it died): say here what :func:`player_gone`
    would have said there (each node to its own players), and note the seated ones as
    away. Players already back, on another node, are left alone."""
    for player in players:
        if hub.is_online(player.account_id):
            continue
        place = hub.places.get(player.place)
        room_id = room_id_in(player.place)
        if isinstance(place, GameRoom) and place.is_seated(player.account_id):
            place.deliver(said(SEAT_KEPT, name=player.name))
        elif place is not None:
            place.notice(said(DISCONNECTED, name=player.name), everywhere=False)
        if room_id is not None:
            try:
                await rooms.store.mark_away(room_id, player.account_id)
            except DatabaseUnavailable as outage:
                log.warning("could not note that %s went away: %s", player.name, outage)


async def player_gone(player: OnlinePlayer) -> None:
    """The player's last connection has gone: tell the place they were in, and remember
    when a seated player went away so they can catch up when they return. (Not when they
    went because they logged in on another node, or were handed to another worker: they
    are still online, over there.)"""
    if not player.taken_over:
        await _gone_from(player.place, player.account_id, player.name)


async def lost_on_arrival(ctx: Context, handed: dict[str, Any]) -> None:
    """A player handed over from another worker who could not be let in here (refused, or
    the database did not answer): that worker let them go without a word, so their room
    is told here that they left, as :func:`player_gone` would (unless they are back)."""
    account_id, name, room_id = handed["account"], handed["name"], handed["room"]  # checked by server.handoff
    # Back already, here or on another node (not the one that let them go: its news that
    # they left may still be on its way).
    elsewhere = ctx.hub.remote.get(account_id)
    if account_id in ctx.hub.players or elsewhere is not None and elsewhere.node != handed.get("node"):
        return
    room = await ctx.rooms.get(room_id)
    if room is not None:
        await _gone_from(room, account_id, name)


async def _gone_from(place: Place, account_id: int, name: str) -> None:
    if isinstance(place, GameRoom) and place.is_seated(account_id):
        place.broadcast(said(SEAT_KEPT, name=name))
        gmcp.send_table(place)
        await place.went_away(account_id)
    else:
        place.notice(said(DISCONNECTED, name=name))


LOGIN_COMMANDS = CommandSet(N_("Login"), [Connect(), Create(), Resume()])
