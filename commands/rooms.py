"""Game rooms: listing, making, joining, watching, leaving and deleting them; the host's
powers; the log.

A player is in one place at a time: the lobby or one room. A seat in a room outlives
the connection: a player who drops keeps it, and logging in again puts them back at the
table, with their hand and what happened and was said while they were away. A
spectator who drops (or whose server restarts) comes back watching the same room.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from commands.base import Command, CommandError, CommandSet, Context
from commands.games import game_commands
from commands.lobby import room_rows
from commands.look import look_text
from commands.safety import SPECTATOR_RULE
from commands.social import refuse_if_muted
from commands.tables import current_room, find_seat, inspect, perform, seated_player
from commands.text import echoed, ljust, rjust, truncate
from games import DEFAULT_KIND, KINDS
from games.base import NOBODY, PLAYING, GameTable
from games.toolkit import TurnTable
from i18n import N_, Text, _, from_stored, ngettext, pgettext, said, shown
from persistence.database import DatabaseUnavailable
from persistence.rooms import GameRecord, Missed, RoomNameTaken, SpectatorRule, TooManyRooms
from server.accounts import AccountError
from server.hub import Place, RemotePlayer, Someone
from server.rooms import GameRoom, check_room_name
from server.text import reflowable, shown_width

log = logging.getLogger(__name__)

LOG_DEFAULT, LOG_MAX = 20, 200
NO_SUCH_ROOM = N_('There is no room called "{room}".')
ARRIVES = N_("{name} arrives.")
TO_GO = N_('To go, type "leave".')
#: A room's phase, as ``rooms`` shows it.
PHASES = {"waiting": N_("waiting"), "playing": N_("playing"), "over": N_("over")}
#: How a game ended, as ``results`` shows it (each game's words, see its rules).
OUTCOMES = {
    "won": N_("won"),
    "draw": N_("draw"),
    "abandoned": N_("abandoned"),
    "forfeit": N_("forfeit"),
    "last standing": N_("last standing"),
    "stalemate": N_("stalemate"),
    "boredom": N_("boredom"),
    "no winner": N_("no winner"),
}
#: How many free names ``play`` tries, each taken by another just before it.
NAME_ATTEMPTS = 3
#: The most finished games ``results`` shows.
RESULTS_SHOWN = 10
#: Events shown at most when a player comes back; the rest are in ``log``.
CATCH_UP_MAX = 30
#: Lines of what was said shown at most when a player comes back.
CATCH_UP_SAID = 15


def _name_and_password(args: str, usage: str) -> tuple[str, str]:
    name, _equals, password = args.partition("=")
    name = name.strip()
    if not name:
        raise CommandError(_("Usage: {usage}").format(usage=usage))
    return name, password.strip()


async def _room_named(ctx: Context, name: str) -> GameRoom:
    """The room called ``name``, or the one room whose name starts with it (``join
    Friday`` for "Friday Night", as ``page`` takes the start of a name)."""
    room = await ctx.rooms.find(name)
    if room is not None:
        return room
    start = " ".join(name.casefold().split())
    starting = [s.name for s, _live in await ctx.rooms.summaries() if s.name.casefold().startswith(start)]
    if len(starting) == 1:
        room = await ctx.rooms.find(starting[0])
        if room is not None:
            return room
    if len(starting) > 1:
        names = ", ".join(sorted(starting, key=str.casefold))
        raise CommandError(_('"{typed}" could be any of: {names}.').format(typed=echoed(name), names=names))
    refusal = _('There is no room called "{name}". Type "rooms" for the list; "newroom {name}" makes it.')
    raise CommandError(refusal.format(name=echoed(name)))


def _refuse_if_barred(ctx: Context, room: GameRoom) -> None:
    if room.barred(ctx.player.account_id) and not ctx.player.is_staff:
        raise CommandError(_("The host of room {room} has barred you from it.").format(room=room.name))


async def _check_room_password(ctx: Context, room: GameRoom, password: str, verb: str) -> None:
    """Refuse a wrong or missing password; ``verb`` (join, watch) is the command typed."""
    if room.password_hash is None or room.is_seated(ctx.player.account_id):
        return
    if not password:
        refusal = _("Room {room} has a password: add it after an equals sign, e.g. {command} {room}=<password>")
        raise CommandError(refusal.format(room=room.name, command=verb))
    try:
        correct = await ctx.accounts.check_secret(
            room.password_hash, password, ctx.connection.address, ctx.player.account_id
        )
    except AccountError as error:
        raise CommandError(str(error)) from None
    if not correct:
        raise CommandError(_("That is not the password of room {room}.").format(room=room.name))


async def _hashed(ctx: Context, password: str) -> str:
    """A room password's hash, within the player's budget of hashes."""
    try:
        return await ctx.accounts.hash_secret(password, ctx.connection.address, ctx.player.account_id)
    except AccountError as error:
        raise CommandError(str(error)) from None


#: Names a room may not have: the lobby's.
LOBBY_NAMES = frozenset({"lobby", "the lobby"})


async def _name_taken(ctx: Context, name: str) -> str:
    """The refusal of a room name already taken, with how to join that room."""
    room = await ctx.rooms.find(name)
    if room is None:  # gone again since
        return _('A room called "{room}" already exists. Choose another name.').format(room=name)
    if room.password_hash is not None:
        return _('A room called "{room}" already exists. Join it with: join {room}=<password>').format(room=room.name)
    return _('A room called "{room}" already exists. Join it with: join {room}').format(room=room.name)


def _still_playing(room: GameRoom, account_id: int) -> bool:
    """Whether ``account_id`` is in the game running in ``room`` (seated, not out of it)."""
    seat = room.table.state.seat(account_id)
    return seat is not None and not seat.out and room.table.state.phase == PLAYING


def _refuse_if_playing_elsewhere(ctx: Context, destination: Place) -> None:
    origin = ctx.player.place
    if isinstance(origin, GameRoom) and origin is not destination and _still_playing(origin, ctx.player.account_id):
        costs = _(game_commands(origin.game).leaving_costs)
        refusal = _(
            'You are playing in room {room}. Finish there first, or give up your seat there ({costs}) with "leave now".'
        )
        raise CommandError(refusal.format(room=origin.name, costs=costs))


async def go_to(ctx: Context, destination: Place, arrival: Text) -> None:
    """Move the player to ``destination``, giving up a seat in a room without a game running."""
    player = ctx.player
    origin = player.place
    if origin is destination:
        return
    _refuse_if_playing_elsewhere(ctx, destination)
    if isinstance(origin, GameRoom) and origin.is_seated(player.account_id):
        actor = player.account_id
        await perform(ctx, lambda table: table.unseat(actor, actor))
    if isinstance(destination, GameRoom):
        loaded = await ctx.rooms.get(destination.id)  # the room as it is now loaded here
        if loaded is None:
            raise CommandError(_(NO_SUCH_ROOM).format(room=destination.name))
        destination = loaded
    if isinstance(destination, GameRoom):
        origin.broadcast(
            said("{name} leaves for room {room}.", name=player.name, room=destination.name), exclude=player
        )
    else:
        origin.broadcast(said("{name} leaves for the lobby.", name=player.name), exclude=player)
    ctx.hub.move(player, destination)
    destination.broadcast(arrival, exclude=player)
    await stop_watching(ctx, player.account_id)


async def stop_watching(ctx: Context, account_id: int) -> None:
    """Forget the room ``account_id`` watched, if they watched one (they are seated, in
    the lobby, or elsewhere now)."""
    await ctx.rooms.store.set_watching(account_id, None)


class Rooms(Command):
    """List every game room.

    For each room: its game, who is seated, how many watch, its state, and whether it needs
    a password. Deleted and archived rooms are not listed.
    """

    key = "rooms"

    async def run(self, ctx: Context, args: str) -> None:
        rows = await room_rows(ctx.rooms, ctx.hub)
        if not rows:
            ctx.reply(_("There are no rooms yet. Make one with: newroom <name>"))
            return
        # Translators: the heading of the column of how many watch each room (not the verb).
        watchers = pgettext("rooms column", "Watch")
        headings = [_("Room"), _("Game"), _("State"), watchers, _("Pw"), _("Seated")]
        width = max(shown_width(headings[0]), *(shown_width(row.name) for row in rows))
        game_width, state_width = max(7, shown_width(headings[1])), max(8, shown_width(headings[2]))
        watch_width, password_width = max(5, shown_width(headings[3])), max(3, shown_width(headings[4]))
        lines = [
            f"{ljust(headings[0], width)} {ljust(headings[1], game_width)} {ljust(headings[2], state_width)} "
            f"{rjust(headings[3], watch_width)} {ljust(headings[4], password_width)} {headings[5]}"
        ]
        for row in rows:
            password = _("yes") if row.password else _("no")
            row_text = (
                f"{ljust(row.name, width)} {ljust(row.game.capitalize(), game_width)} "
                f"{ljust(_(PHASES.get(row.phase, row.phase)), state_width)} {rjust(str(row.watching), watch_width)} "
                f"{ljust(password, password_width)} {len(row.seated)}: {', '.join(row.seated) or '-'}"
            )
            # Names are shown whole (they are typed); only the list of seats is cut.
            lines.append(truncate(row_text, max(ctx.connection.width, shown_width(row.name) + 30)))
        count = len(rows)
        lines.append(
            ngettext("{n} room. Join one with: join <room>", "{n} rooms. Join one with: join <room>", count).format(
                n=count
            )
        )
        ctx.reply("\n".join(lines))


def leaving_costs() -> str:
    """What giving up a seat mid-game costs, game by game, for help."""
    costs = (f"{name.capitalize()}: {_(game_commands(name).leaving_costs)}" for name in KINDS)
    return _("What it costs, by game: {costs}.").format(costs="; ".join(costs))


async def open_room(ctx: Context, name: str, password: str, game: str, name_chosen: bool = True) -> GameRoom:
    """Make room ``name`` of ``game`` and seat its maker there as its host, or refuse
    (the name taken, the maker's quota full, the maker playing elsewhere). A name the
    server chose (not ``name_chosen``) that another has just taken raises RoomNameTaken,
    for the caller to choose another."""
    _refuse_if_playing_elsewhere(ctx, ctx.hub.lobby)
    maker = ctx.player.account_id
    try:
        # The name and the quota first: a password is hashed only for a room that can be made.
        await ctx.rooms.refuse_new(name, maker)
        password_hash = await _hashed(ctx, password) if password else None
        room = await ctx.rooms.create(name, password_hash, maker=maker, game=game)
    except RoomNameTaken:
        if not name_chosen:
            raise
        raise CommandError(await _name_taken(ctx, name)) from None
    except TooManyRooms as quota:
        refusal = ngettext(
            "You already have {n} room, the most a player may: {names} (those you host, and those you made "
            "that nobody hosts). Play in it (join <room>: in one nobody hosts you become its host), hand it "
            "over there (host <player>), or delete it (delroom <room>).",
            "You already have {n} rooms, the most a player may: {names} (those you host, and those you made "
            "that nobody hosts). Play in one of them (join <room>: in one nobody hosts you become its host), "
            "hand one over there (host <player>), or delete one (delroom <room>).",
            len(quota.names),
        )
        raise CommandError(refusal.format(n=len(quota.names), names=", ".join(quota.names))) from None
    try:
        await go_to(ctx, room, said(ARRIVES, name=ctx.player.name))
    except Exception:
        # Refused on the way (the table they leave would not let them go, say): the
        # room nobody has been in goes again, its name free, as if never made.
        await ctx.rooms.archive(room, "", ctx.player.account_id)
        raise
    actor, player_name = ctx.player.account_id, ctx.player.name
    await perform(ctx, lambda table: table.sit(actor, player_name))
    return room


class NewRoom(Command):
    """Make a new game room and sit down as its host.

    Plain newroom makes a room of the first game "games" lists; "newroom/<game> <name>"
    makes one of that game. With a password, only those who know it can join or watch.
    """

    key = "newroom"
    cost = 5
    usage = ("newroom <name>", "newroom <name>=<password>", "newroom/<game> <name>[=<password>]")
    private_arguments = True
    takes_switch = True

    async def run(self, ctx: Context, args: str) -> None:
        game = DEFAULT_KIND
        if args.startswith("/"):
            switch, _space, args = args[1:].partition(" ")
            game = switch.strip().lower()
            if game not in KINDS:
                refusal = _('There is no game "{game}". Games: {games} (type "games").')
                raise CommandError(refusal.format(game=switch[:20], games=", ".join(KINDS)))
        name, password = _name_and_password(args, self.usage_text())
        refuse_if_muted(ctx)
        problem = check_room_name(name)
        if problem:
            raise CommandError(problem)
        if " ".join(name.casefold().split()) in LOBBY_NAMES:
            # "Ann leaves for room The Lobby" would send everyone looking in the wrong place.
            raise CommandError(
                _('"{name}" is the lobby\'s name, where everyone meets: choose another name.').format(name=name)
            )
        room = await open_room(ctx, name, password, game)
        first_steps = _(game_commands(game).first_steps)
        made = _("You made room {room} ({game}) and are its host.").format(
            room=room.name, game=KINDS[game].name.capitalize()
        )
        ctx.reply(f"{made} {first_steps}")
        ctx.reply(await look_text(ctx))


class Play(Command):
    """Play a game now, against computer players.

    Makes a room of <game> named after it ("Gnav 2"), seats you as its host with the
    game's computer players beside you, and starts. Others may join or watch it as any
    room. Only the games with computer players can be played so (type "games").
    """

    key = "play"
    cost = 5
    usage = ("play <game>",)

    async def run(self, ctx: Context, args: str) -> None:
        quick = {game: game_commands(game).quick_bots for game in KINDS if game_commands(game).quick_bots}
        game = args.strip().lower()
        if game in KINDS and game not in quick:
            refusal = _("{game} has no computer players: make a room with newroom/{kind} <name>. Play now: {games}.")
            raise CommandError(refusal.format(game=KINDS[game].name.capitalize(), kind=game, games=", ".join(quick)))
        if game not in quick:
            refusal = _("Which game? You can play {games} against computer players now. Usage: {usage}")
            raise CommandError(refusal.format(games=", ".join(quick), usage=self.usage_text()))
        refuse_if_muted(ctx)
        for attempt in range(1, NAME_ATTEMPTS + 1):
            try:
                room = await open_room(ctx, await _free_name(ctx, KINDS[game].name.capitalize()), "", game, False)
                break
            except RoomNameTaken as taken:  # made by another just now: the next number, then
                if attempt == NAME_ATTEMPTS:
                    raise CommandError(await _name_taken(ctx, str(taken))) from None
        actor = ctx.player.account_id
        levels = _turn_table(room.table).levels
        level = "normal" if "normal" in levels else levels[0]
        for _bot in range(quick[game]):
            await perform(ctx, lambda table: _turn_table(table).add_bot(actor, level))
        await perform(ctx, lambda table: _turn_table(table).start(actor))
        ctx.reply(await look_text(ctx))


def _turn_table(table: GameTable) -> TurnTable:
    """A table of a game with computer players: the toolkit's (the only kind that has them)."""
    if not isinstance(table, TurnTable):
        raise TypeError(f"a game with computer players has a {type(table).__name__}")
    return table


async def _free_name(ctx: Context, title: str) -> str:
    """The first of "<title> 1", "<title> 2"... that no room has."""
    taken = {summary.name.casefold() for summary, _live in await ctx.rooms.summaries()}
    number = 1
    while f"{title} {number}".casefold() in taken:
        number += 1
    return f"{title} {number}"


class Games(Command):
    """List the games a room can hold.

    Make a room of one with "newroom/<game> <name>"; "help <game>" tells its rules.
    """

    key = "games"

    async def run(self, ctx: Context, args: str) -> None:
        first = KINDS[DEFAULT_KIND].name.capitalize()
        lines = [
            _("Games (make a room of one with newroom/<game> <name>; plain newroom makes {game}):").format(game=first)
        ]
        lines += [f"  {kind.name:<8} {_(kind.title)}" for kind in KINDS.values()]
        quick = [game for game in KINDS if game_commands(game).quick_bots]
        if quick:
            now = _("Play one now against computer players: play <game> ({games}).")
            lines.append(now.format(games=", ".join(quick)))
        ctx.reply("\n".join(lines))


class Join(Command):
    """Sit down at a room's table.

    A room with a password needs it. You may join a game in progress: you are dealt a hand
    and play after the others (not in a game you gave up your seat in: sit down again
    when it is over). The start of a room's name is enough when only one room's name
    starts so: "join friday" for Friday Night.
    """

    key = "join"
    usage = ("join <room>", "join <room>=<password>")
    private_arguments = True

    async def run(self, ctx: Context, args: str) -> None:
        name, password = _name_and_password(args, self.usage_text())
        room = await _room_named(ctx, name)
        if room.is_seated(ctx.player.account_id) and ctx.player.place is room:
            raise CommandError(_("You are already seated here."))
        _refuse_if_barred(ctx, room)
        if room.muted(ctx.player.account_id) and not ctx.player.is_staff:
            # A seat would let them talk again: the host's mute is theirs to lift.
            refusal = _(
                "The host of room {room} has muted you there: you may watch, but not sit down until they unmute you."
            )
            raise CommandError(refusal.format(room=room.name))
        _refuse_if_playing_elsewhere(ctx, room)
        await _check_room_password(ctx, room, password, "join")
        player = ctx.player
        seat_refusal = (
            None if room.is_seated(player.account_id) else room.table.seat_refusal(player.account_id, player.name)
        )
        if seat_refusal is not None:
            raise CommandError(seat_refusal)
        await go_to(ctx, room, said(ARRIVES, name=ctx.player.name))
        if not room.is_seated(ctx.player.account_id):
            actor, player_name = ctx.player.account_id, ctx.player.name
            await perform(ctx, lambda table: table.sit(actor, player_name))
        ctx.reply(await look_text(ctx))


class Watch(Command):
    """Enter a room as a spectator.

    You see everything played face up, never a hidden card. If you drop, or the server
    restarts, logging in again puts you back watching the room, until you leave it (or sit
    down, or go elsewhere).
    """

    key = "watch"
    usage = ("watch <room>", "watch <room>=<password>")
    private_arguments = True

    async def run(self, ctx: Context, args: str) -> None:
        name, password = _name_and_password(args, self.usage_text())
        room = await _room_named(ctx, name)
        if ctx.player.place is room:
            raise CommandError(_("You are already in this room."))
        _refuse_if_barred(ctx, room)
        _refuse_if_playing_elsewhere(ctx, room)
        await _check_room_password(ctx, room, password, "watch")
        await go_to(ctx, room, said("{name} arrives to watch.", name=ctx.player.name))
        await ctx.rooms.store.set_watching(ctx.player.account_id, room.id)
        ctx.reply(await look_text(ctx))


class Leave(Command):
    """Go back to the lobby.

    A seat is given up. In a game that is running that costs something, so there you
    must type "leave now" (not once you are out of the game: resigned or eliminated).
    """

    key = "leave"
    usage = ("leave", "leave now")

    @classmethod
    def help_text(cls) -> str:
        return f"{super().help_text()}\n\n{reflowable(leaving_costs())}"

    async def run(self, ctx: Context, args: str) -> None:
        room = current_room(ctx)
        player = ctx.player
        seated = room.is_seated(player.account_id)
        if _still_playing(room, player.account_id) and args.strip().lower() != "now":
            refusal = _(
                "You are playing in this game. Leaving gives up your seat: {costs}. To go anyway, type: leave now"
            )
            raise CommandError(refusal.format(costs=_(game_commands(room.game).leaving_costs)))
        if seated:
            actor = player.account_id
            await perform(ctx, lambda table: table.unseat(actor, actor))
        room.broadcast(said("{name} goes back to the lobby.", name=player.name), exclude=player)
        ctx.hub.move(player, ctx.hub.lobby)
        await stop_watching(ctx, player.account_id)
        ctx.hub.lobby.broadcast(
            said("{name} comes back from room {room}.", name=player.name, room=room.name), exclude=player
        )
        ctx.reply(_("You leave room {room}.").format(room=room.name))
        ctx.reply(await look_text(ctx))


class Kick(Command):
    """Remove a player or spectator from the room (host).

    A seated player loses their seat as if they had left ("help leave" says what that
    costs in each game). A spectator may not come back, to watch or to sit, until you
    let them with "allowspec <player>" (staff aside: they are only shown out).
    """

    key = "kick"
    usage = ("kick <player>",)

    async def run(self, ctx: Context, args: str) -> None:
        room = current_room(ctx)
        actor = ctx.player.account_id
        name = args.strip()
        if not name:
            raise CommandError(_("Usage: {usage}").format(usage=self.usage_text()))
        _hosted_room(ctx)
        seat = await inspect(ctx, lambda table: find_seat(table, ctx, name))
        barred = False
        if seat is not None and seat.account_id == actor:
            # Leaving says first what it costs in a running game; a kick would not.
            raise CommandError(_(TO_GO))
        if seat is not None:
            await perform(ctx, lambda table: table.unseat(actor, seat.account_id))
            target_id = seat.account_id
        else:
            matches = [p for p in room.everyone() if p.name.casefold().startswith(name.casefold())]
            if len(matches) != 1:
                raise CommandError(_('Nobody called "{name}" is here.').format(name=echoed(name)))
            target_id = matches[0].account_id
            if target_id == actor:
                raise CommandError(_(TO_GO))
            barred = not await _is_staff(ctx, matches[0])
            if barred:
                rule = room.spectator_rules.get(target_id, SpectatorRule(matches[0].name))
                await _decide(ctx, room, target_id, SpectatorRule(matches[0].name, rule.muted, barred=True))
            room.broadcast(said("{host} shows {name} out of the room.", host=ctx.player.name, name=matches[0].name))
            if barred:
                reply = _("{name} may not come back to watch or sit here until you type: allowspec {name}")
                ctx.reply(reply.format(name=matches[0].name))
        notice = said(
            "You have been removed from room {room} by {host}. You are in the lobby.",
            room=room.name,
            host=ctx.player.name,
        )
        if barred:
            notice = said(
                "{host}, the host, has removed you from room {room}: you may not come back.",
                host=ctx.player.name,
                room=room.name,
            )
        await stop_watching(ctx, target_id)
        target = room.occupants.get(target_id)
        if target is not None:
            ctx.hub.move(target, ctx.hub.lobby)
            target.send(notice)
        elif target_id in room.remote:
            ctx.hub.peers.evict(room.remote[target_id], notice)


async def _is_staff(ctx: Context, someone: Someone) -> bool:
    """Whether ``someone`` (here or on another node) is staff, whom a host cannot mute
    or bar: they may need to watch a room a player reported."""
    if isinstance(someone, RemotePlayer):
        account = await ctx.accounts.store.find(someone.name)
        return account is not None and account.role != "player"
    return someone.is_staff


async def _decide(ctx: Context, room: GameRoom, account_id: int, rule: SpectatorRule) -> None:
    """Store what the host decided about ``account_id`` and tell every node's copy of the room."""
    await ctx.rooms.store.set_spectator_rule(room.id, account_id, rule.muted, rule.barred, ctx.player.account_id)
    ctx.hub.announce(
        {
            "kind": SPECTATOR_RULE,
            "room": room.id,
            "account": account_id,
            "name": rule.name,
            "muted": rule.muted,
            "barred": rule.barred,
        }
    )


def _hosted_room(ctx: Context) -> GameRoom:
    room = current_room(ctx)
    if ctx.player.account_id != room.table.state.host:
        raise CommandError(room.table.only_the_host())
    return room


def _spectator_rules_text(room: GameRoom) -> str:
    rules = room.spectator_rules.values()
    muted = sorted((r.name for r in rules if r.muted), key=str.casefold)
    barred = sorted((r.name for r in rules if r.barred), key=str.casefold)
    if not muted and not barred:
        return _("Nobody is muted or barred in room {room}.").format(room=room.name)
    lines = []
    if muted:
        lines.append(_("Muted here: {names}.").format(names=", ".join(muted)))
    if barred:
        lines.append(_("Barred from here: {names}.").format(names=", ".join(barred)))
    return "\n".join(lines)


def _ruled_named(room: GameRoom, name: str, which: str) -> tuple[int, SpectatorRule] | None:
    """The person called ``name`` (or the only one whose name starts with it) whom the
    host has ``which`` ("muted" or "barred") here."""
    key = name.casefold()
    ruled = [(a, r) for a, r in room.spectator_rules.items() if getattr(r, which)]
    exact = [(a, r) for a, r in ruled if r.name.casefold() == key]
    starting = [(a, r) for a, r in ruled if r.name.casefold().startswith(key)]
    found = exact or starting
    return found[0] if len(found) == 1 else None


class MuteSpec(Command):
    """Stop a spectator talking in your room (host).

    They can still watch, but what they say, pose or @emit here is refused, on any server
    of the world, until you type "unmutespec <spectator>", even if they leave and come
    back. Seated players cannot be muted here (kick removes one); nor can staff.
    "mutespec" alone lists who is muted and who is barred here.
    """

    key = "mutespec"
    usage = ("mutespec <spectator>", "mutespec")

    async def run(self, ctx: Context, args: str) -> None:
        room = _hosted_room(ctx)
        name = args.strip()
        if not name:
            ctx.reply(_spectator_rules_text(room))
            return
        key = name.casefold()
        here = [p for p in room.everyone() if p.name.casefold() == key] or [
            p for p in room.everyone() if p.name.casefold().startswith(key)
        ]
        if len(here) != 1:
            raise CommandError(_('Nobody called "{name}" is watching here.').format(name=truncate(name, 30)))
        target = here[0]
        if target.account_id == ctx.player.account_id:
            raise CommandError(_("You cannot mute yourself."))
        if room.is_seated(target.account_id):
            refusal = _("{name} is seated here: only spectators can be muted (kick removes a player).")
            raise CommandError(refusal.format(name=target.name))
        if await _is_staff(ctx, target):
            raise CommandError(_("{name} is staff: a host cannot mute them.").format(name=target.name))
        rule = room.spectator_rules.get(target.account_id, SpectatorRule(target.name))
        if rule.muted:
            raise CommandError(_("{name} is muted here already.").format(name=target.name))
        await _decide(ctx, room, target.account_id, SpectatorRule(target.name, muted=True, barred=rule.barred))
        target.send(said("The host of room {room} has muted you: you may watch, but not talk here.", room=room.name))
        reply = _("You mute {name} here: they may watch, but not talk. To let them: unmutespec {name}")
        ctx.reply(reply.format(name=target.name))


class UnmuteSpec(Command):
    """Let a spectator you muted talk in your room again (host)."""

    key = "unmutespec"
    usage = ("unmutespec <spectator>",)

    async def run(self, ctx: Context, args: str) -> None:
        room = _hosted_room(ctx)
        name = args.strip()
        if not name:
            raise CommandError(_("Usage: {usage}  (mutespec lists who is muted here)").format(usage=self.usage_text()))
        found = _ruled_named(room, name, "muted")
        if found is None:
            raise CommandError(
                _('Nobody called "{name}" is muted here. (mutespec lists them.)').format(name=truncate(name, 30))
            )
        account_id, rule = found
        await _decide(ctx, room, account_id, SpectatorRule(rule.name, muted=False, barred=rule.barred))
        target = room.occupants.get(account_id) or room.remote.get(account_id)
        if target is not None:
            target.send(said("The host of room {room} lets you talk here again.", room=room.name))
        ctx.reply(_("{name} may talk here again.").format(name=rule.name))


class AllowSpec(Command):
    """Let someone you removed from your room come back (host).

    Someone you kick while they watch may not come back, to watch or to sit, until you
    type this. "mutespec" lists who is barred.
    """

    key = "allowspec"
    usage = ("allowspec <player>",)

    async def run(self, ctx: Context, args: str) -> None:
        room = _hosted_room(ctx)
        name = args.strip()
        if not name:
            raise CommandError(_("Usage: {usage}  (mutespec lists who is barred here)").format(usage=self.usage_text()))
        found = _ruled_named(room, name, "barred")
        if found is None:
            refusal = _('Nobody called "{name}" is barred from here. (mutespec lists them.)')
            raise CommandError(refusal.format(name=truncate(name, 30)))
        account_id, rule = found
        await _decide(ctx, room, account_id, SpectatorRule(rule.name, muted=rule.muted, barred=False))
        ctx.reply(_("{name} may come back to room {room}.").format(name=rule.name, room=room.name))


class Host(Command):
    """Hand the host's powers to another seated player.

    Only the host may.
    """

    key = "host"
    usage = ("host <player>",)

    async def run(self, ctx: Context, args: str) -> None:
        _hosted_room(ctx)  # refused before the name is looked up: a spectator is told who hosts
        actor, usage = ctx.player.account_id, self.usage_text()
        await perform(ctx, lambda table: table.set_host(actor, seated_player(table, ctx, args, usage).account_id))


class Log(Command):
    """Show the room's last events.

    20 events, or the number given, up to 200, with their times in UTC, as you are allowed
    to see them.
    """

    key = "log"
    usage = ("log", "log <n>")

    async def run(self, ctx: Context, args: str) -> None:
        room = current_room(ctx)
        count = LOG_DEFAULT
        if args.strip():
            if not args.strip().isdigit() or not 1 <= int(args) <= LOG_MAX:
                raise CommandError(_("Usage: log <n>, where n is 1 to {most}.").format(most=LOG_MAX))
            count = int(args)
        entries = await room.events(last=count)
        if not entries:
            ctx.reply(_("Nothing has happened in this room yet."))
            return
        viewer = ctx.player.account_id
        heading = ngettext(
            "The last event in room {room} (times in UTC):",
            "The last {n} events in room {room} (times in UTC):",
            len(entries),
        )
        lines = [heading.format(n=len(entries), room=room.name)]
        read = await game_commands(room.game).past_lines(ctx.rooms.store.database, room, entries, viewer)
        lines += [f"[{e.created_at:%H:%M}] {line}" for e, line in zip(entries, read, strict=True)]
        ctx.reply("\n".join(lines))


class Results(Command):
    """Show how this room's last games ended.

    When, how (won, forfeit, last standing, draw, stalemate, boredom, no winner), who won,
    and the version of the deck (in a CCG room, the card set) they were played with.
    """

    key = "results"

    async def run(self, ctx: Context, args: str) -> None:
        room = current_room(ctx)
        records = await room.results(RESULTS_SHOWN)
        _send_results(ctx, room, records)
        if not records:
            ctx.reply(_("No game has ended in room {room} yet.").format(room=room.name))
            return
        heading = ngettext(
            "The last game in room {room}:", "The last {n} games in room {room}, the latest first:", len(records)
        )
        lines = [heading.format(n=len(records), room=room.name)]
        for record in records:
            how = _(OUTCOMES.get(record.outcome, record.outcome or N_("ended")))
            winners = f": {', '.join(record.winners)}" if record.winners else ""
            version = (
                _(" (deck version {version})").format(version=record.deck_version)
                if record.deck_version is not None
                else ""
            )
            lines.append(f"  {record.finished_at:%Y-%m-%d %H:%M} UTC  {how}{winners}{version}. {shown(record.result)}")
        ctx.reply("\n".join(lines))


def _send_results(ctx: Context, room: GameRoom, records: list[GameRecord]) -> None:
    """``Room.Results`` to the player's browser pages (its Results tab): the games
    ``results`` lists, the latest first."""
    pages = [connection for connection in ctx.player.connections if connection.browser_page]
    if not pages:
        return
    games = [
        {
            "finished": f"{record.finished_at:%Y-%m-%d %H:%M} UTC",
            "outcome": _(OUTCOMES.get(record.outcome, record.outcome or N_("ended"))),
            "winners": list(record.winners),
            "result": shown(record.result),
        }
        for record in records
    ]
    for connection in pages:
        connection.send_gmcp("Room.Results", {"room": room.name, "games": games})


class DelRoom(Command):
    """Delete a room you host, once you confirm it.

    Everyone in the room goes to the lobby, the room is no longer listed, and its name is
    free for a new room. Its log is kept on the server (for audits), but nobody can go
    back in. While a game is running there, deleting the room ends that game: confirm with
    "force" instead of "yes". An admin may delete any room. Rooms nobody has used for a
    long time are archived the same way by the server."""

    key = "delroom"
    usage = ("delroom <room>", "delroom <room>=yes", "delroom <room>=force")

    async def run(self, ctx: Context, args: str) -> None:
        name, answer = _name_and_password(args, self.usage_text())
        room = await _room_named(ctx, name)
        player = ctx.player
        host = room.table.state.host
        if player.account_id != host and not player.is_admin:
            if host == NOBODY:
                refusal = _("Room {room} has no host: join it (you become its host), then delete it.")
                raise CommandError(refusal.format(room=room.name))
            refusal = _("Only the host ({host}) can delete room {room}.")
            raise CommandError(refusal.format(host=room.table.name_of(host), room=room.name))
        answer = answer.lower()
        playing = room.table.state.phase == PLAYING
        if answer not in ("yes", "force") or (answer == "yes" and playing):
            if playing:
                refusal = _(
                    "A game is running in room {room}: deleting the room ends it for everyone. "
                    "To delete it anyway, type: delroom {room}=force"
                )
                raise CommandError(refusal.format(room=room.name))
            refusal = _(
                "Deleting room {room} sends everyone in it to the lobby, and nobody can go back in. "
                "To delete room {room}, type: delroom {room}=yes"
            )
            raise CommandError(refusal.format(room=room.name))
        was_here = player.place is room
        notice = said("{name} deletes room {room}. You are in the lobby.", name=player.name, room=room.name)
        if not await ctx.rooms.archive(room, notice, player.account_id):
            raise CommandError(_(NO_SUCH_ROOM).format(room=echoed(name)))
        if was_here:
            ctx.reply(_("You delete room {room}. You are in the lobby.").format(room=room.name))
            ctx.reply(await look_text(ctx))
        else:
            ctx.reply(_("You delete room {room}.").format(room=room.name))


@dataclass
class Comeback:
    """A player coming back to a room: seated (with what they missed) or watching."""

    room: GameRoom
    missed: Missed | None


async def seat_to_return_to(ctx: Context, account_id: int) -> Comeback | None:
    """The table a player with a seat comes back to, and what they missed there; their
    return stored. Or the room a spectator was watching. Everything the database must do
    for it, before they are let in."""
    room = await ctx.rooms.with_seat_for(account_id)
    if room is not None:
        return Comeback(room, await room.came_back(account_id, last=CATCH_UP_MAX, last_said=CATCH_UP_SAID))
    watched = await ctx.rooms.store.watched_by(account_id)
    room = await ctx.rooms.get(watched) if watched is not None else None
    return Comeback(room, None) if room is not None else None


async def hand_reminder(room: GameRoom, viewer: int) -> str | None:
    """What the seated player ``viewer`` holds in the game running in ``room``, as they are
    reminded of it on coming back (or on logging in from one more connection); None when
    no game runs there, or when the table as ``look`` draws it shows it already."""
    own_hand = game_commands(room.game).own_hand
    if room.table.state.phase != PLAYING or own_hand is None:
        return None
    return await room.inspect(lambda table: own_hand(table, viewer))


async def welcome_back(ctx: Context, back: Comeback) -> bool:
    """Put a player back at their table (or watching their room) and tell them what they
    missed: the table, their hand, what happened and what was said. False (nothing
    done) if the room was deleted meanwhile."""
    player, missed = ctx.player, back.missed
    room = await ctx.rooms.get(back.room.id)  # as it is now loaded here
    if room is None:
        return False
    ctx.hub.move(player, room)
    if missed is None:
        room.broadcast(said("{name} is back to watch.", name=player.name), exclude=player)
        ctx.reply(_("You are back watching room {room}.").format(room=room.name))
        ctx.reply(await look_text(ctx))
        return True
    room.broadcast(said("{name} is back.", name=player.name), exclude=player)
    ctx.reply(_("You are back at your seat in room {room}.").format(room=room.name))
    ctx.reply(await look_text(ctx))
    viewer = player.account_id
    game = game_commands(room.game)
    hand = await hand_reminder(room, viewer)
    if hand is not None:
        ctx.reply(hand)
    talk = [line for line in missed.talk if player.hears(line.speaker)]
    if missed.events or talk:
        lines = [_("While you were away:")]
        if missed.count > len(missed.events):
            earlier = missed.count - len(missed.events)
            lines.append(
                ngettext("  ({n} earlier event: see log)", "  ({n} earlier events: see log)", earlier).format(n=earlier)
            )
        if missed.said > len(missed.talk):
            earlier = missed.said - len(missed.talk)
            lines.append(
                ngettext(
                    "  ({n} earlier line said, not shown)", "  ({n} earlier lines said, not shown)", earlier
                ).format(n=earlier)
            )
        read = await game.past_lines(ctx.rooms.store.database, room, missed.events, viewer)
        entries = [(e.created_at, f"[{e.created_at:%H:%M}] {r}") for e, r in zip(missed.events, read, strict=True)]
        entries += [(line.created_at, f"[{line.created_at:%H:%M}] {from_stored(line.text)}") for line in talk]
        lines += [text for _when, text in sorted(entries, key=lambda entry: entry[0])]
        ctx.reply("\n".join(lines))
    seat = room.table.state.seat(viewer)
    if seat is not None and seat.absent:
        try:
            await room.perform(lambda table: table.mark_absent(viewer, False))
        except DatabaseUnavailable as outage:
            log.warning("could not count %s in the vote again (done at the next check): %s", player.name, outage)
    return True


LOBBY_ROOM_COMMANDS = CommandSet(N_("Rooms"), [Rooms(), Games(), NewRoom(), Play(), Join(), Watch(), DelRoom()])
IN_ROOM_COMMANDS = CommandSet(
    N_("Rooms"),
    [
        Rooms(),
        Games(),
        NewRoom(),
        Join(),
        Watch(),
        Leave(),
        Kick(),
        MuteSpec(),
        UnmuteSpec(),
        AllowSpec(),
        Host(),
        Log(),
        Results(),
        DelRoom(),
    ],
)
