"""Looking around: the lobby, or the table of the room you are in."""

from __future__ import annotations

from commands.base import Command, CommandSet, Context
from commands.games import game_commands
from games.base import GameTable
from i18n import N_, _, ngettext
from server.rooms import GameRoom

#: Names listed by ``look`` in a crowded place; WHO has the rest.
NAMES_SHOWN = 40


async def look_text(ctx: Context) -> str:
    """What ``look`` shows the player where they are now."""
    player = ctx.player
    place = player.place
    if isinstance(place, GameRoom):
        render_table = game_commands(place.game).render_table

        def draw(table: GameTable) -> str:
            return render_table(place, table, player.account_id, place.away(), place.spectators())

        return await place.inspect(draw)
    names = [p.name for p in place.everyone()]
    shown = ", ".join(names[:NAMES_SHOWN])
    if len(names) > NAMES_SHOWN:
        more = len(names) - NAMES_SHOWN
        shown = ngettext("{names} and {n} more (WHO lists everyone)", "{names} and {n} more (WHO lists everyone)", more)
        shown = shown.format(names=", ".join(names[:NAMES_SHOWN]), n=more)
    return "\n".join([_(place.title), _(place.description), _("Players here: {names}.").format(names=shown)])


class Look(Command):
    """Look around: who is here, or the table.

    In the lobby, who is here. In a game room, the table as its game shows it: for
    Dvorak, seats in turn order with hand sizes, whose turn it is, what is in play, the
    piles, and the settings that differ from the defaults.
    """

    key = "look"
    aliases = ("l",)

    async def run(self, ctx: Context, args: str) -> None:
        ctx.reply(await look_text(ctx))


LOOK_COMMANDS = CommandSet(N_("Look"), [Look()])
