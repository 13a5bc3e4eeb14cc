"""Running the table: starting and ending games, settings, teams, and loading cards."""

from __future__ import annotations

from commands.base import CommandError, CommandSet, Context
from commands.dvorak.base import GameCommand, inspect, perform
from commands.social import refuse_if_muted
from commands.tables import seated_player, settings_list
from commands.text import split_assignment
from games.dvorak.rules import ENDINGS, Table
from games.dvorak.settings import SETTINGS
from i18n import N_, _


class Start(GameCommand):
    """Start a game (host).

    Every approved card is shuffled into the draw pile, each seated player is dealt a hand,
    and a random player goes first. Also starts the next game after one ends, with the same
    deck. A deck too small to deal everyone a full hand is refused with a warning; "force
    start" deals what there is.
    """

    key = "start"
    forceable = True
    alone = True

    async def move(self, ctx: Context, args: str, forced: bool) -> None:
        actor = ctx.player.account_id
        await perform(ctx, lambda table: table.start(actor, forced=forced))


class Set(GameCommand):
    """Change a table setting (host).

    Everyone is told. "settings" lists them.
    """

    key = "set"
    usage = ("set <setting>=<value>",)

    async def run(self, ctx: Context, args: str) -> None:
        assignment = split_assignment(args)
        if assignment is None or not assignment[0]:
            raise CommandError(_('Usage: set <setting>=<value>. Type "settings" for the list.'))
        name, value = assignment
        actor = ctx.player.account_id
        await perform(ctx, lambda table: table.change_setting(actor, name, value))


class Settings(GameCommand):
    """List the table's settings and what they mean."""

    key = "settings"

    async def run(self, ctx: Context, args: str) -> None:
        ctx.reply(await inspect(ctx, lambda table: settings_list(SETTINGS, table.settings)))


class Win(GameCommand):
    """Declare the winner and end the game (host).

    How to win is written on the cards; the players judge. In team play, the winner's team
    wins.
    """

    key = "win"
    usage = ("win <player>",)

    async def run(self, ctx: Context, args: str) -> None:
        actor, usage = ctx.player.account_id, self.usage_text()
        await perform(ctx, lambda table: table.win(actor, seated_player(table, ctx, args, usage).account_id))


class Eliminate(GameCommand):
    """Take a player out of the game (host).

    "eliminate me" resigns. Their hand and Things go to the discard pile. When one player is
    left, they win; with teams on, when one team is left (a player without a team is a team
    of one), that team wins. Elimination lasts one game: once it is over, everyone seated
    votes, proposes and may host again.
    """

    key = "eliminate"
    usage = ("eliminate <player>", "eliminate me")

    async def run(self, ctx: Context, args: str) -> None:
        actor, usage = ctx.player.account_id, self.usage_text()
        await perform(ctx, lambda table: table.eliminate(actor, seated_player(table, ctx, args, usage).account_id))


class EndGame(GameCommand):
    """End the game without a winner (host).

    As a draw, in stalemate (nobody can win), abandoned out of boredom, or just ended: the
    room's results (results) say which.
    """

    key = "endgame"
    usage = ("endgame", "endgame draw", "endgame stalemate", "endgame boredom")

    async def run(self, ctx: Context, args: str) -> None:
        actor, how = ctx.player.account_id, args.strip().lower()
        if how not in ENDINGS:
            raise CommandError(_("Usage: {usage}").format(usage=", ".join(self.usage)))
        await perform(ctx, lambda table: table.end_game(actor, how))


class Team(GameCommand):
    """Put a player on a team (host).

    Without a team name, take them off. With the teams setting on, you may give one card
    from your hand to a teammate each turn.
    """

    key = "team"
    usage = ("team <player>=<team name>", "team <player>=")

    async def run(self, ctx: Context, args: str) -> None:
        assignment = split_assignment(args)
        if assignment is None:
            raise CommandError(_("Usage: {usage}").format(usage="team <player>=<team name>"))
        name, team = assignment
        if team:
            refuse_if_muted(ctx)
        actor = ctx.player.account_id

        def move(table: Table) -> None:
            table.set_team(actor, seated_player(table, ctx, name, self.usage_text()).account_id, team)

        await perform(ctx, move)


TABLE_COMMANDS = CommandSet(N_("Table"), [Start(), Set(), Settings(), Team(), Win(), Eliminate(), EndGame()])
