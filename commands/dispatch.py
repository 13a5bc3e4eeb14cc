"""From a typed line to a command run: the one place where input is matched to commands."""

from __future__ import annotations

import logging
import time
from functools import cache
from typing import Any

from commands import gmcp
from commands.base import Command, CommandError, CommandSet, Context, Services, find_command
from commands.games import all_game_commands, game_commands
from commands.lobby import LobbyBoard
from commands.login import LOGIN_COMMANDS, come_over, lost_on_arrival, node_lost, player_gone, welcome_screen
from commands.look import LOOK_COMMANDS
from commands.moderation import ADMIN_COMMANDS, MODERATOR_COMMANDS, rank
from commands.moderation import install as install_moderation
from commands.rooms import IN_ROOM_COMMANDS, LOBBY_ROOM_COMMANDS
from commands.safety import SAFETY_COMMANDS, STAFF_SAFETY_COMMANDS, install
from commands.server_admin import SERVER_ADMIN_COMMANDS, SERVER_STAFF_COMMANDS, listen_for_walls
from commands.session import ACCOUNT_COMMANDS, CONNECTION_COMMANDS
from commands.social import SOCIAL_COMMANDS
from commands.text import close_matches
from games import DEFAULT_KIND
from i18n import ENGLISH, LANGUAGE, N_, _, language
from persistence.database import DatabaseFull, DatabaseUnavailable, OutcomeUnknown
from server.accounts import AccountService
from server.connection import CURRENT_CONNECTION, Connection, serving
from server.hub import Hub, OnlinePlayer, Place, RemotePlayer
from server.metrics import UNKNOWN_COMMAND, UNWATCHED, Metrics
from server.rooms import GameRoom, RoomRegistry
from server.safety import PlayerSafety

log = logging.getLogger(__name__)

HUH = N_('Huh?  (Type "help" for help.)')
NOT_LOGGED_IN = N_(
    "You are not logged in: type connect <name> <password> to log in, or create <name> <password> to make a new player."
)
ONLY_IN_A_ROOM = N_('That command is used at a game table. Type "rooms" to see the rooms, "join <room>" to sit down.')
OTHER_GAMES_COMMAND = N_(
    'That command is used at {others} tables, not at this {game} table. Type "help" for this table\'s commands.'
)
IN_THE_LOBBY = (
    SOCIAL_COMMANDS,
    LOOK_COMMANDS,
    LOBBY_ROOM_COMMANDS,
    *(s for game in all_game_commands().values() for s in game.lobby_command_sets),
    CONNECTION_COMMANDS,
    ACCOUNT_COMMANDS,
    SAFETY_COMMANDS,
)
#: Commands that exist only inside a game room (of some game), to point lost players the
#: right way.
ROOM_ONLY = (
    *(s for game in all_game_commands().values() for s in game.command_sets if s not in IN_THE_LOBBY),
    IN_ROOM_COMMANDS,
)


@cache
def in_a_room(game: str) -> tuple[CommandSet, ...]:
    """The command sets of a room of ``game``: its own first, then every room's."""
    return (
        SOCIAL_COMMANDS,
        LOOK_COMMANDS,
        *game_commands(game).command_sets,
        IN_ROOM_COMMANDS,
        CONNECTION_COMMANDS,
        ACCOUNT_COMMANDS,
        SAFETY_COMMANDS,
    )


#: The command sets only staff have, each with the least role that has it: a player of
#: that role or higher has it, after everyone's sets (so it never hides a player's
#: command); to anyone else its commands do not exist ("Huh?", and help does not list
#: them). A new set for administrators is one more line here.
STAFF_COMMAND_SETS: tuple[tuple[str, CommandSet], ...] = (
    ("moderator", MODERATOR_COMMANDS.joined(STAFF_SAFETY_COMMANDS, SERVER_STAFF_COMMANDS)),
    ("admin", ADMIN_COMMANDS.joined(SERVER_ADMIN_COMMANDS)),
)


#: Every command only staff have.
STAFF_ONLY = frozenset(command for _least, staff in STAFF_COMMAND_SETS for command in staff.commands)


@cache
def with_staff_sets(command_sets: tuple[CommandSet, ...], role: str) -> tuple[CommandSet, ...]:
    """``command_sets`` and the staff sets a player of ``role`` has."""
    return (*command_sets, *(staff for least, staff in STAFF_COMMAND_SETS if rank(role) >= rank(least)))


#: Commands for getting in, which a logged-in player has no use for.
BEFORE_LOGIN_ONLY = (LOGIN_COMMANDS,)
SERVER_ERROR = N_("Sorry, that command failed because of a server error (it has been logged).")
DATABASE_DOWN = N_("The database is not answering, so nothing was changed. Please try again in a moment.")
DATABASE_FULL = N_(
    "The server has no room left to store anything (its disk is full), so nothing was changed. "
    "Its operators have been told; please try again later."
)


MAYBE_STORED = N_(
    "The database stopped answering as that was being stored, so it may or may not have been made. "
    "Please look again in a moment."
)


def _database_trouble(outage: DatabaseUnavailable, during: str) -> str:
    """Log that the database failed a command (a full disk as an error: the operators
    must act), and say so to the player."""
    if isinstance(outage, DatabaseFull):
        log.error("the database is full (during %s): %s", during, outage)
        return _(DATABASE_FULL)
    if isinstance(outage, OutcomeUnknown):
        log.warning("a commit's outcome is unknown (during %s): %s", during, outage)
        return _(MAYBE_STORED)
    log.warning("database unavailable during %s: %s", during, outage)
    return _(DATABASE_DOWN)


def _not_here(connection: Connection, line: str) -> str:
    """What to say about a line that calls no command usable here: how to log in, how to
    get to a table, or which games' tables use it, when it calls one usable there; else
    ``Huh?``, with the command usable here that the first word was likely a typo of."""
    player = connection.player
    if player is None:
        return _(NOT_LOGGED_IN) if find_command(in_a_room(DEFAULT_KIND), line) is not None else _huh(connection, line)
    if find_command(BEFORE_LOGIN_ONLY, line) is not None:
        refusal = _("You are already logged in, as {name}. To be another player, type LOGOUT first.")
        return refusal.format(name=player.name)
    if isinstance(player.place, GameRoom):
        here = player.place.game
        others = [
            game.capitalize()
            for game, commands in all_game_commands().items()
            if game != here and find_command(commands.command_sets, line) is not None
        ]
        if not others:
            return _huh(connection, line)
        return _(OTHER_GAMES_COMMAND).format(others=_listed(others), game=here.capitalize())
    return _(ONLY_IN_A_ROOM) if find_command(ROOM_ONLY, line) is not None else _huh(connection, line)


def _huh(connection: Connection, line: str) -> str:
    """``Huh?``, and the command usable here the line's first word is closest to (a typo:
    ``drwa`` for ``draw``), if one is close enough."""
    word = line.split(" ", 1)[0].lower()
    names = [name for command_set in command_sets_for(connection) for name in command_set.by_name]
    close = close_matches(word, names, most=1)
    return _('Huh?  Did you mean "{command}"?  (Type "help" for help.)').format(command=close[0]) if close else _(HUH)


def _listed(names: list[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    return names[0] if len(names) == 1 else _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def command_sets_for(connection: Connection) -> tuple[CommandSet, ...]:
    """The command sets a connection may use in its current state."""
    player = connection.player
    if player is None:
        return (LOGIN_COMMANDS, CONNECTION_COMMANDS)
    command_sets = in_a_room(player.place.game) if isinstance(player.place, GameRoom) else IN_THE_LOBBY
    return with_staff_sets(command_sets, player.role)


class CommandProcessor:
    """Runs each line a connection sends as a command, and greets and sees off connections."""

    def __init__(
        self,
        hub: Hub,
        accounts: AccountService,
        rooms: RoomRegistry,
        services: Services,
        metrics: Metrics = UNWATCHED,
    ) -> None:
        self.hub = hub
        self.accounts = accounts
        self.rooms = rooms
        self.services = services
        #: Where commands, their time and logins are counted.
        self.metrics = metrics
        #: The lobby's list of rooms, games and players, for the clients that draw it.
        self.lobby_board = LobbyBoard(hub, rooms)
        hub.on_move = self._moved
        hub.on_remote_change = gmcp.place_changed
        install_moderation(hub)
        install(hub, rooms, services.get(PlayerSafety))
        listen_for_walls(hub)

    def _moved(self, player: OnlinePlayer, origin: Place, destination: Place) -> None:
        gmcp.moved(player, origin, destination)
        if destination is self.hub.lobby:
            self.lobby_board.arrived()

    def welcome(self, connection: Connection) -> None:
        if not connection.language_chosen:
            connection.set_language(connection.client_language() or ENGLISH)
        connection.send(welcome_screen(connection.width, connection.language))

    def gmcp_ready(self, connection: Connection) -> None:
        """The client has just agreed to GMCP: send it what it would have had."""
        player = connection.player
        if player is not None:
            gmcp.send_identity(player)
            gmcp.send_place(player)

    def commands_in(self, connection: Connection, line: str) -> list[str]:
        """The commands one line holds, each to be run (and counted against the limits)
        on its own: one, unless the game of the table the player is at splits its lines
        (:attr:`GameCommands.split_line`: a paste sent as one line). The answer to a
        password prompt is never split."""
        player = connection.player
        if player is None or connection.secret_prompt is not None or not isinstance(player.place, GameRoom):
            return [line]
        split = game_commands(player.place.game).split_line
        if split is None:
            return [line]
        with language(connection.language):  # a notice of the split is the player's to read
            commands, notice = split(line)
        if notice is not None:
            connection.send(notice)
        return commands

    def cost_of(self, connection: Connection, line: str) -> int:
        """How much of the command rate running ``line`` takes (see :attr:`Command.cost`)."""
        if connection.secret_prompt is not None:
            return 1
        found = find_command(command_sets_for(connection), line) if line else None
        return found[0].cost if found is not None else 1

    async def execute(self, connection: Connection, line: str) -> None:
        """Run ``line`` for ``connection``: the answer to a password prompt, or one
        command. Every failure becomes a reply, never a crash. Each command is counted
        by name with the time it took (an answer to a password prompt is no command), and
        so is a connection that logs in by it."""
        logged_out = connection.player is None
        if connection.secret_prompt is not None:
            await self._answer_prompt(connection, line)
        else:
            started = time.perf_counter()
            name = await self._execute_one(connection, line)
            self.metrics.command_done(name, time.perf_counter() - started)
        if logged_out and connection.player is not None:
            self.metrics.logins.inc()

    async def _answer_prompt(self, connection: Connection, secret: str) -> None:
        answer, connection.secret_prompt = connection.secret_prompt, None
        assert answer is not None
        connection.hide_input(False)
        with serving(connection):
            connection.touch()
            with connection.framed():
                try:
                    await answer(secret)
                except CommandError as refusal:
                    connection.send(str(refusal))
                except DatabaseUnavailable as outage:
                    connection.send(_database_trouble(outage, "login"))

    async def _execute_one(self, connection: Connection, line: str) -> str:
        """Run one command; its name (its key, or "huh" if the line calls none here)."""
        with serving(connection):
            command_sets = command_sets_for(connection)
            found = find_command(command_sets, line)
            player = connection.player
            if found is not None and player is not None and (found[0] in STAFF_ONLY or player.is_staff):
                # Staff have powers beyond their own commands (nobody can ignore them, a
                # host's mute or bar does not hold them, ...): whatever a staff member
                # does is done with their role as stored. Should the database not
                # answer, a staff command is refused and anything else goes ahead.
                try:
                    await self._confirm_role(player)
                except DatabaseUnavailable as outage:
                    if found[0] in STAFF_ONLY:
                        connection.touch()
                        with connection.framed():
                            connection.send(_database_trouble(outage, found[0].key))
                        return found[0].key
                command_sets = command_sets_for(connection)
                found = find_command(command_sets, line)
            if found is None:
                connection.touch()
                with connection.framed():
                    connection.send(_not_here(connection, line))
                return UNKNOWN_COMMAND
            command, args = found
            if command.resets_idle:
                connection.touch()
            ctx = Context(connection, self.hub, self.accounts, self.rooms, self.services, command_sets)
            if command.framed:
                with connection.framed():
                    await self._run(command, ctx, args)
            else:
                await self._run(command, ctx, args)
            return command.key

    async def _confirm_role(self, player: OnlinePlayer) -> None:
        """Take the player's role from the database: one taken away from the command line
        (which tells no node) is gone from their next command on, not only from their
        next login."""
        stored = await self.accounts.store.find(player.name)
        role = stored.role if stored is not None and stored.id == player.account_id else "player"
        if role != player.role:
            log.info("%s (#%d) is %s now, as stored", player.name, player.account_id, role)
            self.hub.set_role(player, role)

    async def _run(self, command: Command, ctx: Context, args: str) -> None:
        try:
            command.refuse_arguments(args)
            await command.run(ctx, args)
        except CommandError as refusal:
            ctx.reply(str(refusal))
        except DatabaseUnavailable as outage:
            ctx.reply(_database_trouble(outage, command.key))
        except Exception:
            shown = "(hidden)" if command.private_arguments else repr(args[:200])
            log.exception("error in %r running %s %s", ctx.connection, command.key, shown)
            ctx.reply(_(SERVER_ERROR))

    async def come_over(self, connection: Connection, handed: dict[str, Any]) -> bool:
        """Log in, silently, a player another worker handed over (see
        :func:`commands.login.come_over`); False if they were refused (told why, and cut
        off) or the database did not answer."""
        ctx = Context(connection, self.hub, self.accounts, self.rooms, self.services, command_sets_for(connection))
        token = CURRENT_CONNECTION.set(connection)
        language = LANGUAGE.set(connection.language)
        try:
            await come_over(ctx, handed)
        except CommandError as refusal:
            connection.close(str(refusal))
        except DatabaseUnavailable as outage:
            connection.close(_database_trouble(outage, "login"))
        except Exception:
            log.exception("error letting in %s, handed over", handed.get("name"))
            connection.close(_(SERVER_ERROR))
        else:
            if connection.gmcp:
                self.gmcp_ready(connection)
        finally:
            LANGUAGE.reset(language)
            CURRENT_CONNECTION.reset(token)
        if connection.player is None:
            try:
                await lost_on_arrival(ctx, handed)
            except DatabaseUnavailable as outage:
                log.warning("could not note that %s went away: %s", handed.get("name"), outage)
        return connection.player is not None

    async def remote_players_gone(self, players: list[RemotePlayer]) -> None:
        """Players whose node died: tell who is here, as their node would have."""
        await node_lost(self.hub, self.rooms, players)

    async def disconnected(self, connection: Connection) -> None:
        """Forget a closed connection, telling the room if its player is now offline."""
        player = self.hub.remove_connection(connection)
        if player is not None:
            await player_gone(player)
