"""Looking around: the lobby, or the table of the room you are in."""

from __future__ import annotations

from commands.base import Command, CommandSet, Context
from commands.games import game_commands
from games.base import GameTable
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
        shown += f" and {len(names) - NAMES_SHOWN} more (WHO lists everyone)"
    return "\n".join([place.title, place.description, f"Players here: {shown}."])


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


LOOK_COMMANDS = CommandSet("Look", [Look()])
