"""Game rooms: listing, making, joining, watching and leaving them; the host's powers; the log.

A player is in one place at a time: the lobby or one room. A seat in a room outlives
the connection: a player who drops keeps it, and logging in again puts them back at the
table with what happened while they were away.
"""

from __future__ import annotations

from dataclasses import dataclass

from commands.base import Command, CommandError, CommandSet, Context
from commands.dvorak.base import current_room, find_seat, inspect, perform, seated_player
from commands.dvorak.render import render_log_entry
from commands.look import look_text
from commands.text import truncate
from games.dvorak.state import PLAYING
from persistence.rooms import LoggedEvent, RoomNameTaken, TooManyRooms
from server.accounts import AccountError
from server.hub import Place
from server.rooms import GameRoom, check_room_name, place_key

LOG_DEFAULT, LOG_MAX = 20, 200
#: Events shown at most when a player comes back; the rest are in ``log``.
CATCH_UP_MAX = 30


def _name_and_password(args: str, usage: str) -> tuple[str, str]:
    name, _, password = args.partition("=")
    name = name.strip()
    if not name:
        raise CommandError(f"Usage: {usage}")
    return name, password.strip()


async def _room_named(ctx: Context, name: str) -> GameRoom:
    room = await ctx.rooms.find(name)
    if room is None:
        raise CommandError(f'There is no room called "{name}". Type "rooms" for the list; "newroom {name}" makes it.')
    return room


async def _check_room_password(ctx: Context, room: GameRoom, password: str) -> None:
    if room.password_hash is None or room.is_seated(ctx.player.account_id):
        return
    if not password:
        raise CommandError(
            f"Room {room.name} has a password: add it after an equals sign, e.g. join {room.name}=<password>"
        )
    try:
        correct = await ctx.accounts.check_secret(room.password_hash, password, ctx.connection.address)
    except AccountError as error:
        raise CommandError(str(error)) from None
    if not correct:
        raise CommandError(f"That is not the password of room {room.name}.")


def _still_playing(room: GameRoom, account_id: int) -> bool:
    """Whether ``account_id`` is in the game running in ``room`` (seated, not out of it)."""
    seat = room.table.state.seat(account_id)
    return seat is not None and not seat.out and room.table.state.phase == PLAYING


def _refuse_if_playing_elsewhere(ctx: Context, destination: Place) -> None:
    origin = ctx.player.place
    if isinstance(origin, GameRoom) and origin is not destination and _still_playing(origin, ctx.player.account_id):
        raise CommandError(
            f"You are playing in room {origin.name}. Finish there first, or give up your seat there "
            '(your cards go to the discard pile) with "leave now".'
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
    where = f"room {destination.name}" if isinstance(destination, GameRoom) else "the lobby"
    origin.broadcast(f"{player.name} leaves for {where}.", exclude=player)
    ctx.hub.move(player, destination)
    destination.broadcast(arrival, exclude=player)


class Rooms(Command):
    """List every game room: its game, who is seated, how many watch, its state, and
    whether it needs a password."""

    key = "rooms"

    async def run(self, ctx: Context, args: str) -> None:
        rows = await ctx.rooms.summaries()
        if not rows:
            ctx.reply("There are no rooms yet. Make one with: newroom <name>")
            return
        lines = [f"{'Room':<20} {'Game':<7} {'State':<8} {'Watch':>5} {'Pw':<3} Seated"]
        for summary, live in rows:
            seated = live.table.state.seats if live else None
            names = [seat.name for seat in seated] if seated is not None else list(summary.seated)
            phase = live.table.state.phase if live else summary.phase
            if live:
                watching = len(live.spectators())
            else:
                elsewhere = ctx.hub.remote_in(place_key(summary.id)).values()
                watching = sum(p.name not in summary.seated for p in elsewhere)
            row = (
                f"{truncate(summary.name, 20):<20} {summary.game.capitalize():<7} {phase:<8} {watching:>5} "
                f"{'yes' if summary.has_password else 'no':<3} {len(names)}: {', '.join(names) or '-'}"
            )
            lines.append(truncate(row, ctx.connection.width))
        lines.append(f"{len(rows)} room{'s' if len(rows) != 1 else ''}. Join one with: join <room>")
        ctx.reply("\n".join(lines))


class NewRoom(Command):
    """Make a new Dvorak room and sit down in it as its host. With a password, only those
    who know it can join or watch."""

    key = "newroom"
    cost = 5
    usage = ("newroom <name>", "newroom <name>=<password>")
    private_arguments = True

    async def run(self, ctx: Context, args: str) -> None:
        name, password = _name_and_password(args, self.usage[1])
        problem = check_room_name(name)
        if problem:
            raise CommandError(problem)
        _refuse_if_playing_elsewhere(ctx, ctx.hub.lobby)
        password_hash = await ctx.accounts.hash_secret(password) if password else None
        try:
            room = await ctx.rooms.create(name, password_hash, maker=ctx.player.account_id)
        except RoomNameTaken:
            raise CommandError(f'A room called "{name}" already exists. Join it with: join {name}') from None
        except TooManyRooms as quota:
            raise CommandError(
                f"You already host {len(quota.names)} rooms, the most a player may: {', '.join(quota.names)}. "
                "Play in one of them (join <room>), or hand one over there (host <player>)."
            ) from None
        await go_to(ctx, room, f"{ctx.player.name} arrives.")
        actor, player_name = ctx.player.account_id, ctx.player.name
        await perform(ctx, lambda table: table.sit(actor, player_name))
        ctx.reply(f'You made room {room.name} and are its host. Add cards with loadcard, then type "start".')
        ctx.reply(await look_text(ctx))


class Join(Command):
    """Sit down at a room's table (a room with a password needs it). You may join a game in
    progress: you are dealt a hand and play after the others."""

    key = "join"
    usage = ("join <room>", "join <room>=<password>")
    private_arguments = True

    async def run(self, ctx: Context, args: str) -> None:
        name, password = _name_and_password(args, self.usage[1])
        room = await _room_named(ctx, name)
        if room.is_seated(ctx.player.account_id) and ctx.player.place is room:
            raise CommandError("You are already seated here.")
        _refuse_if_playing_elsewhere(ctx, room)
        await _check_room_password(ctx, room, password)
        await go_to(ctx, room, f"{ctx.player.name} arrives.")
        if not room.is_seated(ctx.player.account_id):
            actor, player_name = ctx.player.account_id, ctx.player.name
            await perform(ctx, lambda table: table.sit(actor, player_name))
        ctx.reply(await look_text(ctx))


class Watch(Command):
    """Enter a room as a spectator: you see everything played face up, never a hidden card."""

    key = "watch"
    usage = ("watch <room>", "watch <room>=<password>")
    private_arguments = True

    async def run(self, ctx: Context, args: str) -> None:
        name, password = _name_and_password(args, self.usage[1])
        room = await _room_named(ctx, name)
        if ctx.player.place is room:
            raise CommandError("You are already in this room.")
        _refuse_if_playing_elsewhere(ctx, room)
        await _check_room_password(ctx, room, password)
        await go_to(ctx, room, f"{ctx.player.name} arrives to watch.")
        ctx.reply(await look_text(ctx))


class Leave(Command):
    """Go back to the lobby. A seat is given up; in a game that is running, that means your
    hand and Things go to the discard pile, so there you must type "leave now" (not once
    you are out of the game: resigned or eliminated)."""

    key = "leave"
    usage = ("leave", "leave now")

    async def run(self, ctx: Context, args: str) -> None:
        room = current_room(ctx)
        player = ctx.player
        seated = room.is_seated(player.account_id)
        if _still_playing(room, player.account_id) and args.strip().lower() != "now":
            raise CommandError(
                "You are playing in this game. Leaving gives up your seat and your cards go to the discard "
                "pile. To go anyway, type: leave now"
            )
        if seated:
            actor = player.account_id
            await perform(ctx, lambda table: table.unseat(actor, actor))
        room.broadcast(f"{player.name} goes back to the lobby.", exclude=player)
        ctx.hub.move(player, ctx.hub.lobby)
        ctx.hub.lobby.broadcast(f"{player.name} comes back from room {room.name}.", exclude=player)
        ctx.reply(f"You leave room {room.name}.")
        ctx.reply(await look_text(ctx))


class Kick(Command):
    """Remove a player from the table, or a spectator from the room (host only). A seated
    player's hand and Things go to the discard pile."""

    key = "kick"
    usage = ("kick <player>",)

    async def run(self, ctx: Context, args: str) -> None:
        room = current_room(ctx)
        actor = ctx.player.account_id
        name = args.strip()
        if not name:
            raise CommandError("Usage: kick <player>")
        if actor != room.table.state.host:
            raise CommandError("Only the host can do that.")
        seat = await inspect(ctx, lambda table: find_seat(table, ctx, name))
        if seat is not None:
            await perform(ctx, lambda table: table.unseat(actor, seat.account_id))
            target_id = seat.account_id
        else:
            matches = [p for p in room.everyone() if p.name.casefold().startswith(name.casefold())]
            if len(matches) != 1:
                raise CommandError(f'Nobody called "{name}" is here.')
            target_id = matches[0].account_id
            room.broadcast(f"{ctx.player.name} shows {matches[0].name} out of the room.")
        notice = f"You have been removed from room {room.name} by {ctx.player.name}. You are in the lobby."
        target = room.occupants.get(target_id)
        if target is not None:
            ctx.hub.move(target, ctx.hub.lobby)
            target.send(notice)
        elif target_id in room.remote:
            ctx.hub.peers.evict(room.remote[target_id], notice)


class Host(Command):
    """Hand the host's powers to another seated player (host only)."""

    key = "host"
    usage = ("host <player>",)

    async def run(self, ctx: Context, args: str) -> None:
        actor = ctx.player.account_id
        await perform(ctx, lambda table: table.set_host(actor, seated_player(table, ctx, args).account_id))


class Log(Command):
    """Show the room's last events (20, or the number given, up to 200), with their times
    in UTC, as you are allowed to see them."""

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
        lines += [render_log_entry(room.table, e.created_at, e.event, viewer) for e in entries]
        ctx.reply("\n".join(lines))


@dataclass
class Comeback:
    """A seated player coming back to their table: the room, how many events they
    missed, and the last few of those."""

    room: GameRoom
    missed: int
    shown: list[LoggedEvent]


async def seat_to_return_to(ctx: Context, account_id: int) -> Comeback | None:
    """The table a player with a seat comes back to, and what they missed there; their
    return stored. Everything the database must do for it, before they are let in."""
    room = await ctx.rooms.with_seat_for(account_id)
    if room is None:
        return None
    missed, shown = await room.came_back(account_id, last=CATCH_UP_MAX)
    return Comeback(room, missed, shown)


async def welcome_back(ctx: Context, back: Comeback) -> None:
    """Put a player back at their table and tell them what they missed."""
    player, room = ctx.player, back.room
    ctx.hub.move(player, room)
    room.broadcast(f"{player.name} is back.", exclude=player)
    ctx.reply(f"You are back at your seat in room {room.name}.")
    ctx.reply(await look_text(ctx))
    if back.shown:
        lines = ["While you were away:"]
        if back.missed > len(back.shown):
            lines.append(f"  ({back.missed - len(back.shown)} earlier events: see log)")
        lines += [render_log_entry(room.table, e.created_at, e.event, player.account_id) for e in back.shown]
        ctx.reply("\n".join(lines))


LOBBY_ROOM_COMMANDS = CommandSet("Rooms", [Rooms(), NewRoom(), Join(), Watch()])
IN_ROOM_COMMANDS = CommandSet("Rooms", [Rooms(), NewRoom(), Join(), Watch(), Leave(), Kick(), Host(), Log()])
