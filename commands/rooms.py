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
from commands.games import bot_label, game_commands
from commands.look import look_text
from commands.safety import SPECTATOR_RULE
from commands.social import refuse_if_muted
from commands.tables import current_room, find_seat, inspect, perform, seated_player
from commands.text import echoed, truncate
from games import DEFAULT_KIND, KINDS
from games.base import NOBODY, PLAYING
from persistence.database import DatabaseUnavailable
from persistence.rooms import Missed, RoomNameTaken, SpectatorRule, TooManyRooms
from server.accounts import AccountError
from server.hub import Place, RemotePlayer, Someone
from server.rooms import GameRoom, check_room_name, place_key
from server.text import reflowable

log = logging.getLogger(__name__)

LOG_DEFAULT, LOG_MAX = 20, 200
#: The most finished games ``results`` shows.
RESULTS_SHOWN = 10
#: Events shown at most when a player comes back; the rest are in ``log``.
CATCH_UP_MAX = 30
#: Lines of what was said shown at most when a player comes back.
CATCH_UP_SAID = 15


def _name_and_password(args: str, usage: str) -> tuple[str, str]:
    name, _, password = args.partition("=")
    name = name.strip()
    if not name:
        raise CommandError(f"Usage: {usage}")
    return name, password.strip()


async def _room_named(ctx: Context, name: str) -> GameRoom:
    """The room called ``name``, or the one room whose name starts with it (``join
    Friday`` for "Friday Night", as ``page`` takes the start of a name)."""
    room = await ctx.rooms.find(name)
    if room is not None:
        return room
    start = " ".join(name.casefold().split())
    starting = [s.name for s, _ in await ctx.rooms.summaries() if s.name.casefold().startswith(start)]
    if len(starting) == 1:
        room = await ctx.rooms.find(starting[0])
        if room is not None:
            return room
    if len(starting) > 1:
        raise CommandError(f'"{echoed(name)}" could be any of: {", ".join(sorted(starting, key=str.casefold))}.')
    raise CommandError(
        f'There is no room called "{echoed(name)}". Type "rooms" for the list; "newroom {echoed(name)}" makes it.'
    )


def _refuse_if_barred(ctx: Context, room: GameRoom) -> None:
    if room.barred(ctx.player.account_id) and not ctx.player.is_staff:
        raise CommandError(f"The host of room {room.name} has barred you from it.")


async def _check_room_password(ctx: Context, room: GameRoom, password: str, verb: str) -> None:
    """Refuse a wrong or missing password; ``verb`` (join, watch) is the command typed."""
    if room.password_hash is None or room.is_seated(ctx.player.account_id):
        return
    if not password:
        raise CommandError(
            f"Room {room.name} has a password: add it after an equals sign, e.g. {verb} {room.name}=<password>"
        )
    try:
        correct = await ctx.accounts.check_secret(
            room.password_hash, password, ctx.connection.address, ctx.player.account_id
        )
    except AccountError as error:
        raise CommandError(str(error)) from None
    if not correct:
        raise CommandError(f"That is not the password of room {room.name}.")


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
        return f'A room called "{name}" already exists. Choose another name.'
    password = "=<password>" if room.password_hash is not None else ""
    return f'A room called "{room.name}" already exists. Join it with: join {room.name}{password}'


def _still_playing(room: GameRoom, account_id: int) -> bool:
    """Whether ``account_id`` is in the game running in ``room`` (seated, not out of it)."""
    seat = room.table.state.seat(account_id)
    return seat is not None and not seat.out and room.table.state.phase == PLAYING


def _refuse_if_playing_elsewhere(ctx: Context, destination: Place) -> None:
    origin = ctx.player.place
    if isinstance(origin, GameRoom) and origin is not destination and _still_playing(origin, ctx.player.account_id):
        costs = game_commands(origin.game).leaving_costs
        raise CommandError(
            f"You are playing in room {origin.name}. Finish there first, or give up your seat there "
            f'({costs}) with "leave now".'
        )


async def go_to(ctx: Context, destination: Place, arrival: str) -> None:
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
            raise CommandError(f'There is no room called "{destination.name}".')
        destination = loaded
    where = f"room {destination.name}" if isinstance(destination, GameRoom) else "the lobby"
    origin.broadcast(f"{player.name} leaves for {where}.", exclude=player)
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
        rows = await ctx.rooms.summaries()
        if not rows:
            ctx.reply("There are no rooms yet. Make one with: newroom <name>")
            return
        width = max(len("Room"), *(len(summary.name) for summary, _ in rows))
        lines = [f"{'Room':<{width}} {'Game':<7} {'State':<8} {'Watch':>5} {'Pw':<3} Seated"]
        for summary, live in rows:
            seated = live.table.state.seats if live else None
            names = [bot_label(seat) for seat in seated] if seated is not None else list(summary.seated)
            phase = live.table.state.phase if live else summary.phase
            if live:
                watching = len(live.spectators())
            else:
                elsewhere = ctx.hub.remote_in(place_key(summary.id)).values()
                watching = sum(p.name not in summary.seated for p in elsewhere)
            row = (
                f"{summary.name:<{width}} {summary.game.capitalize():<7} {phase:<8} {watching:>5} "
                f"{'yes' if summary.has_password else 'no':<3} {len(names)}: {', '.join(names) or '-'}"
            )
            # Names are shown whole (they are typed); only the list of seats is cut.
            lines.append(truncate(row, max(ctx.connection.width, len(summary.name) + 30)))
        lines.append(f"{len(rows)} room{'s' if len(rows) != 1 else ''}. Join one with: join <room>")
        ctx.reply("\n".join(lines))


def leaving_costs() -> str:
    """What giving up a seat mid-game costs, game by game, for help."""
    costs = (f"{name.capitalize()}: {game_commands(name).leaving_costs}" for name in KINDS)
    return f"What it costs, by game: {'; '.join(costs)}."


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
            switch, _, args = args[1:].partition(" ")
            game = switch.strip().lower()
            if game not in KINDS:
                raise CommandError(f'There is no game "{switch[:20]}". Games: {", ".join(KINDS)} (type "games").')
        name, password = _name_and_password(args, self.usage_text())
        refuse_if_muted(ctx)
        problem = check_room_name(name)
        if problem:
            raise CommandError(problem)
        if " ".join(name.casefold().split()) in LOBBY_NAMES:
            # "Ann leaves for room The Lobby" would send everyone looking in the wrong place.
            raise CommandError(f'"{name}" is the lobby\'s name, where everyone meets: choose another name.')
        _refuse_if_playing_elsewhere(ctx, ctx.hub.lobby)
        maker = ctx.player.account_id
        try:
            # The name and the quota first: a password is hashed only for a room that can be made.
            await ctx.rooms.refuse_new(name, maker)
            password_hash = await _hashed(ctx, password) if password else None
            room = await ctx.rooms.create(name, password_hash, maker=maker, game=game)
        except RoomNameTaken:
            raise CommandError(await _name_taken(ctx, name)) from None
        except TooManyRooms as quota:
            raise CommandError(
                f"You already have {len(quota.names)} rooms, the most a player may: {', '.join(quota.names)} "
                "(those you host, and those you made that nobody hosts). Play in one of them (join <room>: in "
                "one nobody hosts you become its host), hand one over there (host <player>), or delete one "
                "(delroom <room>)."
            ) from None
        try:
            await go_to(ctx, room, f"{ctx.player.name} arrives.")
        except Exception:
            # Refused on the way (the table they leave would not let them go, say): the
            # room nobody has been in goes again, its name free, as if never made.
            await ctx.rooms.archive(room, "", ctx.player.account_id)
            raise
        actor, player_name = ctx.player.account_id, ctx.player.name
        await perform(ctx, lambda table: table.sit(actor, player_name))
        first_steps = game_commands(game).first_steps
        ctx.reply(f"You made room {room.name} ({KINDS[game].name.capitalize()}) and are its host. {first_steps}")
        ctx.reply(await look_text(ctx))


class Games(Command):
    """List the games a room can hold.

    Make a room of one with "newroom/<game> <name>"; "help <game>" tells its rules.
    """

    key = "games"

    async def run(self, ctx: Context, args: str) -> None:
        first = KINDS[DEFAULT_KIND].name.capitalize()
        lines = [f"Games (make a room of one with newroom/<game> <name>; plain newroom makes {first}):"]
        lines += [f"  {kind.name:<8} {kind.title}" for kind in KINDS.values()]
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
            raise CommandError("You are already seated here.")
        _refuse_if_barred(ctx, room)
        if room.muted(ctx.player.account_id) and not ctx.player.is_staff:
            # A seat would let them talk again: the host's mute is theirs to lift.
            raise CommandError(
                f"The host of room {room.name} has muted you there: you may watch, but not sit down "
                "until they unmute you."
            )
        _refuse_if_playing_elsewhere(ctx, room)
        await _check_room_password(ctx, room, password, "join")
        player = ctx.player
        refusal = None if room.is_seated(player.account_id) else room.table.seat_refusal(player.account_id, player.name)
        if refusal is not None:
            raise CommandError(refusal)
        await go_to(ctx, room, f"{ctx.player.name} arrives.")
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
            raise CommandError("You are already in this room.")
        _refuse_if_barred(ctx, room)
        _refuse_if_playing_elsewhere(ctx, room)
        await _check_room_password(ctx, room, password, "watch")
        await go_to(ctx, room, f"{ctx.player.name} arrives to watch.")
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
            raise CommandError(
                f"You are playing in this game. Leaving gives up your seat: {game_commands(room.game).leaving_costs}. "
                "To go anyway, type: leave now"
            )
        if seated:
            actor = player.account_id
            await perform(ctx, lambda table: table.unseat(actor, actor))
        room.broadcast(f"{player.name} goes back to the lobby.", exclude=player)
        ctx.hub.move(player, ctx.hub.lobby)
        await stop_watching(ctx, player.account_id)
        ctx.hub.lobby.broadcast(f"{player.name} comes back from room {room.name}.", exclude=player)
        ctx.reply(f"You leave room {room.name}.")
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
            raise CommandError("Usage: kick <player>")
        _hosted_room(ctx)
        seat = await inspect(ctx, lambda table: find_seat(table, ctx, name))
        barred = False
        if seat is not None and seat.account_id == actor:
            # Leaving says first what it costs in a running game; a kick would not.
            raise CommandError('To go, type "leave".')
        if seat is not None:
            await perform(ctx, lambda table: table.unseat(actor, seat.account_id))
            target_id = seat.account_id
        else:
            matches = [p for p in room.everyone() if p.name.casefold().startswith(name.casefold())]
            if len(matches) != 1:
                raise CommandError(f'Nobody called "{echoed(name)}" is here.')
            target_id = matches[0].account_id
            if target_id == actor:
                raise CommandError('To go, type "leave".')
            barred = not await _is_staff(ctx, matches[0])
            if barred:
                rule = room.spectator_rules.get(target_id, SpectatorRule(matches[0].name))
                await _decide(ctx, room, target_id, SpectatorRule(matches[0].name, rule.muted, barred=True))
            room.broadcast(f"{ctx.player.name} shows {matches[0].name} out of the room.")
            if barred:
                ctx.reply(
                    f"{matches[0].name} may not come back to watch or sit here until you type: "
                    f"allowspec {matches[0].name}"
                )
        notice = f"You have been removed from room {room.name} by {ctx.player.name}. You are in the lobby."
        if barred:
            notice = f"{ctx.player.name}, the host, has removed you from room {room.name}: you may not come back."
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
        return f"Nobody is muted or barred in room {room.name}."
    lines = []
    if muted:
        lines.append(f"Muted here: {', '.join(muted)}.")
    if barred:
        lines.append(f"Barred from here: {', '.join(barred)}.")
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
            raise CommandError(f'Nobody called "{truncate(name, 30)}" is watching here.')
        target = here[0]
        if target.account_id == ctx.player.account_id:
            raise CommandError("You cannot mute yourself.")
        if room.is_seated(target.account_id):
            raise CommandError(f"{target.name} is seated here: only spectators can be muted (kick removes a player).")
        if await _is_staff(ctx, target):
            raise CommandError(f"{target.name} is staff: a host cannot mute them.")
        rule = room.spectator_rules.get(target.account_id, SpectatorRule(target.name))
        if rule.muted:
            raise CommandError(f"{target.name} is muted here already.")
        await _decide(ctx, room, target.account_id, SpectatorRule(target.name, muted=True, barred=rule.barred))
        target.send(f"The host of room {room.name} has muted you: you may watch, but not talk here.")
        ctx.reply(f"You mute {target.name} here: they may watch, but not talk. To let them: unmutespec {target.name}")


class UnmuteSpec(Command):
    """Let a spectator you muted talk in your room again (host)."""

    key = "unmutespec"
    usage = ("unmutespec <spectator>",)

    async def run(self, ctx: Context, args: str) -> None:
        room = _hosted_room(ctx)
        name = args.strip()
        if not name:
            raise CommandError(f"Usage: {self.usage_text()}  (mutespec lists who is muted here)")
        found = _ruled_named(room, name, "muted")
        if found is None:
            raise CommandError(f'Nobody called "{truncate(name, 30)}" is muted here. (mutespec lists them.)')
        account_id, rule = found
        await _decide(ctx, room, account_id, SpectatorRule(rule.name, muted=False, barred=rule.barred))
        target = room.occupants.get(account_id) or room.remote.get(account_id)
        if target is not None:
            target.send(f"The host of room {room.name} lets you talk here again.")
        ctx.reply(f"{rule.name} may talk here again.")


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
            raise CommandError(f"Usage: {self.usage_text()}  (mutespec lists who is barred here)")
        found = _ruled_named(room, name, "barred")
        if found is None:
            raise CommandError(f'Nobody called "{truncate(name, 30)}" is barred from here. (mutespec lists them.)')
        account_id, rule = found
        await _decide(ctx, room, account_id, SpectatorRule(rule.name, muted=rule.muted, barred=False))
        ctx.reply(f"{rule.name} may come back to room {room.name}.")


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
                raise CommandError(f"Usage: log <n>, where n is 1 to {LOG_MAX}.")
            count = int(args)
        entries = await room.events(last=count)
        if not entries:
            ctx.reply("Nothing has happened in this room yet.")
            return
        viewer = ctx.player.account_id
        what = "event" if len(entries) == 1 else f"{len(entries)} events"
        lines = [f"The last {what} in room {room.name} (times in UTC):"]
        said = await game_commands(room.game).past_lines(ctx.rooms.store.database, room, entries, viewer)
        lines += [f"[{e.created_at:%H:%M}] {line}" for e, line in zip(entries, said, strict=True)]
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
        if not records:
            ctx.reply(f"No game has ended in room {room.name} yet.")
            return
        last = "game" if len(records) == 1 else f"{len(records)} games, the latest first"
        lines = [f"The last {last} in room {room.name}:"]
        for record in records:
            how = record.outcome or "ended"
            winners = f": {', '.join(record.winners)}" if record.winners else ""
            version = f" (deck version {record.deck_version})" if record.deck_version is not None else ""
            lines.append(f"  {record.finished_at:%Y-%m-%d %H:%M} UTC  {how}{winners}{version}. {record.result}")
        ctx.reply("\n".join(lines))


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
                raise CommandError(f"Room {room.name} has no host: join it (you become its host), then delete it.")
            raise CommandError(f"Only the host ({room.table.name_of(host)}) can delete room {room.name}.")
        answer = answer.lower()
        playing = room.table.state.phase == PLAYING
        if answer not in ("yes", "force") or (answer == "yes" and playing):
            if playing:
                raise CommandError(
                    f"A game is running in room {room.name}: deleting the room ends it for everyone. "
                    f"To delete it anyway, type: delroom {room.name}=force"
                )
            raise CommandError(
                f"Deleting room {room.name} sends everyone in it to the lobby, and nobody can go back in. "
                f"To delete room {room.name}, type: delroom {room.name}=yes"
            )
        was_here = player.place is room
        notice = f"{player.name} deletes room {room.name}. You are in the lobby."
        if not await ctx.rooms.archive(room, notice, player.account_id):
            raise CommandError(f'There is no room called "{echoed(name)}".')
        if was_here:
            ctx.reply(f"You delete room {room.name}. You are in the lobby.")
            ctx.reply(await look_text(ctx))
        else:
            ctx.reply(f"You delete room {room.name}.")


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
        room.broadcast(f"{player.name} is back to watch.", exclude=player)
        ctx.reply(f"You are back watching room {room.name}.")
        ctx.reply(await look_text(ctx))
        return True
    room.broadcast(f"{player.name} is back.", exclude=player)
    ctx.reply(f"You are back at your seat in room {room.name}.")
    ctx.reply(await look_text(ctx))
    viewer = player.account_id
    game = game_commands(room.game)
    hand = await hand_reminder(room, viewer)
    if hand is not None:
        ctx.reply(hand)
    talk = [line for line in missed.talk if player.hears(line.speaker)]
    if missed.events or talk:
        lines = ["While you were away:"]
        if missed.count > len(missed.events):
            lines.append(f"  ({missed.count - len(missed.events)} earlier events: see log)")
        if missed.said > len(missed.talk):
            lines.append(f"  ({missed.said - len(missed.talk)} earlier lines said, not shown)")
        read = await game.past_lines(ctx.rooms.store.database, room, missed.events, viewer)
        entries = [(e.created_at, f"[{e.created_at:%H:%M}] {r}") for e, r in zip(missed.events, read, strict=True)]
        entries += [(line.created_at, f"[{line.created_at:%H:%M}] {line.text}") for line in talk]
        lines += [text for _, text in sorted(entries, key=lambda entry: entry[0])]
        ctx.reply("\n".join(lines))
    seat = room.table.state.seat(viewer)
    if seat is not None and seat.absent:
        try:
            await room.perform(lambda table: table.mark_absent(viewer, False))
        except DatabaseUnavailable as outage:
            log.warning("could not count %s in the vote again (done at the next check): %s", player.name, outage)
    return True


LOBBY_ROOM_COMMANDS = CommandSet("Rooms", [Rooms(), Games(), NewRoom(), Join(), Watch(), DelRoom()])
IN_ROOM_COMMANDS = CommandSet(
    "Rooms",
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
