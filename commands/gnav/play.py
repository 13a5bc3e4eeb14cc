"""Playing Gnav: starting a match, keeping or swapping your card, computer players, the
table's settings."""

from __future__ import annotations

from commands.base import Command, CommandError, CommandSet, Context
from commands.tables import AddBotCommand, RemoveBotCommand, SetCommand, StartCommand, inspect_on, perform_on
from games.gnav.cards import shown_name
from games.gnav.rules import GnavTable
from games.gnav.visibility import seat_view
from i18n import N_, _


class Start(StartCommand):
    """Start a match (host).

    Everyone seated gets the lives set (3 unless "set lives=" says otherwise), a dealer is
    drawn by lot, and the first deal is dealt. Deals follow by themselves until one player
    is left with lives.
    """

    table_class = GnavTable


class Keep(Command):
    """Keep your card; play goes on to the next player.

    If your time runs out (set turntime=, 60 seconds unless the host changed it), you keep
    your card.
    """

    key = "keep"
    alone = True

    async def run(self, ctx: Context, args: str) -> None:
        actor = ctx.player.account_id
        await perform_on(ctx, GnavTable, lambda table: table.keep(actor))


class Swap(Command):
    """Ask the next player on your left to swap cards.

    Numbers, 0, Pot, Owl and Fool must accept. A House or Horse sends you on to the next
    player; a Dragoon refuses and you lose a life; a Cat refuses, you lose a life and every
    swap of the deal is undone; a Cuckoo ends the deal. The dealer swaps with the top of
    the stock instead.
    """

    key = "swap"
    aliases = ("ask",)

    async def run(self, ctx: Context, args: str) -> None:
        if args.strip():
            # A name would read as a choice of whom to ask: there is none to make.
            raise CommandError(
                _("Type swap alone: you always ask the next player on your left (the dealer swaps with the stock).")
            )
        actor = ctx.player.account_id
        await perform_on(ctx, GnavTable, lambda table: table.swap(actor))


class Hand(Command):
    """Show your card."""

    key = "hand"
    aliases = ("card",)

    async def run(self, ctx: Context, args: str) -> None:
        viewer = ctx.player.account_id

        def look(table: GnavTable) -> str:
            view = seat_view(table.state, viewer)
            if not view.seated:
                return _("You are watching, so you hold no card.")
            if view.card is None:
                return _("You hold no card now (no deal is being played, or you sit this one out).")
            return _("Your card: {card}.").format(card=shown_name(view.card))

        ctx.reply(await inspect_on(ctx, GnavTable, look))


class AddBot(AddBotCommand):
    """Seat a computer player (host, between matches).

    Levels: easy, normal (the default) and strong. A computer player sees only what its
    seat may see, and waits "botdelay" seconds (1 unless set) before each move. Optionally
    name it: addbot strong Astrid.
    """

    table_class = GnavTable


class RemoveBot(RemoveBotCommand):
    """Take a computer player's seat away (host, between matches)."""

    table_class = GnavTable


class Set(SetCommand):
    """Change a table setting (host); "set" alone lists them.

    lives (1-9, between matches), turntime (10-600 seconds a person has for a turn before
    keeping by default), botdelay (0-10 seconds a computer player waits). A time changed
    mid-turn counts from the next turn.
    """

    table_class = GnavTable


PLAY_COMMANDS = CommandSet(N_("Gnav"), [Start(), Keep(), Swap(), Hand(), AddBot(), RemoveBot(), Set()])
