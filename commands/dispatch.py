"""From a typed line to a command run: the one place where input is matched to commands."""

from __future__ import annotations

import logging

from commands.base import Command, CommandError, CommandSet, Context
from commands.login import LOGIN_COMMANDS, WELCOME, announce_departure
from commands.session import ACCOUNT_COMMANDS, CONNECTION_COMMANDS
from commands.social import SOCIAL_COMMANDS
from server.accounts import AccountService
from server.connection import CURRENT_CONNECTION, Connection
from server.hub import Hub

log = logging.getLogger(__name__)

HUH = 'Huh?  (Type "help" for help.)'
SERVER_ERROR = "Sorry, that command failed because of a server error (it has been logged)."


def command_sets_for(connection: Connection) -> tuple[CommandSet, ...]:
    """The command sets a connection may use in its current state."""
    if connection.player is None:
        return (LOGIN_COMMANDS, CONNECTION_COMMANDS)
    return (SOCIAL_COMMANDS, CONNECTION_COMMANDS, ACCOUNT_COMMANDS)


def find_command(command_sets: tuple[CommandSet, ...], line: str) -> tuple[Command, str] | None:
    """The command ``line`` calls and its argument text, or None if it calls none.

    A leading ``"``, ``:`` or ``;`` is a command by itself (``"hello`` says hello);
    otherwise the first word, in any letter case, names the command.
    """
    for command_set in command_sets:
        command = command_set.prefixes.get(line[0])
        if command is not None:
            return command, line[1:].strip()
    word, _, rest = line.partition(" ")
    word = word.lower()
    for command_set in command_sets:
        command = command_set.by_name.get(word)
        if command is not None:
            return command, rest.strip()
    return None


class CommandProcessor:
    """Runs each line a connection sends as a command, and greets and sees off connections."""

    def __init__(self, hub: Hub, accounts: AccountService) -> None:
        self.hub = hub
        self.accounts = accounts

    def welcome(self, connection: Connection) -> None:
        connection.send(WELCOME)

    async def execute(self, connection: Connection, line: str) -> None:
        """Run ``line`` for ``connection``; every failure becomes a reply, never a crash."""
        token = CURRENT_CONNECTION.set(connection)
        try:
            command_sets = command_sets_for(connection)
            found = find_command(command_sets, line)
            if found is None:
                connection.touch()
                with connection.framed():
                    connection.send(HUH)
                return
            command, args = found
            if command.resets_idle:
                connection.touch()
            ctx = Context(connection, self.hub, self.accounts, command_sets)
            if command.framed:
                with connection.framed():
                    await self._run(command, ctx, args)
            else:
                await self._run(command, ctx, args)
        finally:
            CURRENT_CONNECTION.reset(token)

    async def _run(self, command: Command, ctx: Context, args: str) -> None:
        try:
            await command.run(ctx, args)
        except CommandError as refusal:
            ctx.reply(str(refusal))
        except Exception:
            shown = "(hidden)" if command.private_arguments else repr(args[:200])
            log.exception("error in %r running %s %s", ctx.connection, command.key, shown)
            ctx.reply(SERVER_ERROR)

    def disconnected(self, connection: Connection) -> None:
        """Forget a closed connection, telling the room if its player is now offline."""
        player = self.hub.remove_connection(connection)
        if player is not None:
            announce_departure(player)
