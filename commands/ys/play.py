"""Playing Ys: the board, your screen, bids, placements, choices, action cards, computer
players and the table's settings. Every move goes to :class:`games.ys.rules.YsTable`;
a broken rule is the reply."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from commands.base import Command, CommandError, CommandSet, Context
from commands.tables import (
    AddBotCommand,
    RemoveBotCommand,
    SetCommand,
    StartCommand,
    current_room,
    inspect_on,
    perform_on,
    timer_seconds_left,
)
from commands.ys.render import (
    SPACE_GRAMMAR,
    SpaceError,
    read_values_and_spaces,
    render_board,
    render_market,
    render_screen,
    rules_words,
    tokens,
)
from games.base import GameTable
from games.ys import settings as ys_settings
from games.ys.rules import YsTable
from games.ys.visibility import seat_view
from i18n import N_, _
from server.rooms import GameRoom


def names_of(table: GameTable) -> dict[int, str]:
    return {seat.account_id: seat.name for seat in table.state.seats}


def turn_seconds(table: GameTable) -> int:
    """The time a person has for a move (the ``turntime`` setting)."""
    value = table.state.settings.get("turntime")
    return int(value) if value is not None else int(ys_settings.SETTINGS["turntime"].default)


def board_for(room: GameRoom, table: GameTable, viewer: int) -> str:
    """The board as ``viewer`` sees it, with the time left on the running turn timer."""
    seconds = timer_seconds_left(room) or turn_seconds(table)
    return render_board(seat_view(table.state, viewer), room.name, names_of(table), seconds)


def _numbers(args: str, count: int, usage: str) -> list[int]:
    """Exactly ``count`` whole numbers from ``args`` (at most 3 ASCII digits each: "²" is
    a digit to ``isdigit`` but no number to ``int``)."""
    words = args.split()
    if len(words) != count or not all(word.isascii() and word.isdigit() and len(word) <= 3 for word in words):
        raise CommandError(_("Usage: {usage}").format(usage=usage))
    return [int(word) for word in words]


class Start(StartCommand):
    """Start a game of Ys (host), for the 2 to 5 seated.

    Order cards are dealt at random, the action cards laid in the corners, every price
    set to 3; then 4 rounds of bidding, placing and resolution, and the final score.
    """

    table_class = YsTable


class Board(Command):
    """Show the whole board: the city's 4 quadrants (each ring's brokers, the gems on the
    quadrant's card, the palace's action card), the market, the prices and the players.

    A broker reads as its player's letter and value: A5 face up, B?' face down (its
    value hidden), A3' face down but yours. Once every broker of a space is known, =A9
    shows who leads it (A, with 9). A market row's gem reads red x2 where the row holds
    two. In the players' rows, * marks the host and > whose turn it is (or whose answer
    the table waits for); "bid" in the front column means their bid is in, face down.
    """

    key = "board"
    aliases = ("map",)

    async def run(self, ctx: Context, args: str) -> None:
        viewer = ctx.player.account_id
        room = current_room(ctx)

        ctx.reply(await inspect_on(ctx, YsTable, lambda table: board_for(room, table, viewer)))


class Market(Command):
    """Show the market: each row's gem, the broker in each colour column, who leads each
    row once known, and the price track (0-6 per colour)."""

    key = "market"

    async def run(self, ctx: Context, args: str) -> None:
        viewer = ctx.player.account_id
        ctx.reply(await inspect_on(ctx, YsTable, lambda table: render_market(seat_view(table.state, viewer))))


class Screen(Command):
    """Show your screen: the brokers behind it and in front of it, your gems and points,
    and the action cards you hold."""

    key = "screen"
    aliases = ("hand",)

    async def run(self, ctx: Context, args: str) -> None:
        viewer = ctx.player.account_id
        ctx.reply(await inspect_on(ctx, YsTable, lambda table: render_screen(seat_view(table.state, viewer))))


class Bid(Command):
    """Bid two brokers from behind your screen for the turn order: bid 5 3.

    Bids stay hidden until everyone has bid; the highest sum places first (ties: the
    lower order card of the round before).
    """

    key = "bid"
    usage = ("bid <value> <value>",)

    async def run(self, ctx: Context, args: str) -> None:
        first, second = _numbers(args, 2, self.usage_text())
        actor = ctx.player.account_id
        await perform_on(ctx, YsTable, lambda table: table.bid(actor, first, second))


def _with_usage(error: SpaceError, usage: str) -> str:
    """Why the words were refused (already in the player's language), then the usage."""
    usage_line = _("Usage: {usage}").format(usage=usage)
    return f"{error} {usage_line}"


def _spaces(args: str, pairs: int, usage: str) -> list[tuple[int, list[Any]]]:
    try:
        return read_values_and_spaces(args, pairs)
    except SpaceError as error:
        raise CommandError(_with_usage(error, usage)) from None


class Place(Command):
    """Place a pair of brokers from behind your screen: the first face up, the second
    face down. place 5 c2p 3 m1b puts a 5 face up on city quadrant 2's palace and a 3
    face down on market row 1's blue column.

    A space is c<quadrant><ring> in the city (ring p palace, c commercial, o port) or
    m<row><colour> in the market (b blue, g green, y yellow, r red); quadrants and rows
    are 1-4. Long forms read too: city 2 palace, market 1 blue, m1 blue. A market space
    holds one broker and only in a row with a gem; each broker on the market scores 1.
    """

    key = "place"
    usage = ("place <value> <space> <value> <space>",)

    async def run(self, ctx: Context, args: str) -> None:
        (up_value, up), (down_value, down) = _spaces(args, 2, self.usage_text())
        actor = ctx.player.account_id
        await perform_on(ctx, YsTable, lambda table: table.place(actor, up_value, up, down_value, down))


class Neutral(Command):
    """(2 players) After your pair, place one of the neutral player's brokers face down:
    neutral 4 c1c. Spaces are written as for place."""

    key = "neutral"
    usage = ("neutral <value> <space>",)

    async def run(self, ctx: Context, args: str) -> None:
        ((value, space),) = _spaces(args, 1, self.usage_text())
        actor = ctx.player.account_id
        await perform_on(ctx, YsTable, lambda table: table.place_neutral(actor, value, space))


class Choose(Command):
    """Answer what the table asks of you: a colour (a treasure, a white gem: choose
    blue), the gems to take from a quadrant's card (choose blue green), or as top market
    investor one price to move (choose red up)."""

    key = "choose"
    usage = ("choose <answer>",)

    async def run(self, ctx: Context, args: str) -> None:
        try:
            words = tokens(args)
        except SpaceError as error:
            raise CommandError(_with_usage(error, self.usage_text())) from None
        if not words or len(words) > 8:
            raise CommandError(_("Usage: {usage}").format(usage=self.usage_text()))
        try:
            answer = rules_words(words)
        except SpaceError as error:
            raise CommandError(_with_usage(error, self.usage_text())) from None
        actor = ctx.player.account_id

        def move(table: YsTable) -> None:
            asked = table.state.awaiting[0]["ask"] if table.state.awaiting else ""
            # The Captain's quadrants are typed 1-4, as everywhere; the rules count from 0.
            words = [str(int(w) - 1) if asked == "captain" and w.isascii() and w.isdigit() else w for w in answer]
            table.choose(actor, words)

        await perform_on(ctx, YsTable, move)


class Order(Command):
    """Choose the order card you play this round with, when the table asks you (after the
    bids, from the highest sum down): order 1 places first, and wins the ties the order
    card decides; a later card places seeing more of the board."""

    key = "order"
    usage = ("order <card>",)

    async def run(self, ctx: Context, args: str) -> None:
        (card,) = _numbers(args, 1, self.usage_text())
        actor = ctx.player.account_id
        await perform_on(ctx, YsTable, lambda table: table.choose_order(actor, card))


class Favour(Command):
    """(King's favour, when the host set favour=1) Give the King one broker from in front
    of your screen, face down: favour 3. You take a 2 from the supply."""

    key = "favour"
    aliases = ("favor",)
    usage = ("favour <value>",)

    async def run(self, ctx: Context, args: str) -> None:
        (value,) = _numbers(args, 1, self.usage_text())
        actor = ctx.player.account_id
        await perform_on(ctx, YsTable, lambda table: table.favour(actor, value))


class Play(Command):
    """Play an action card you hold (from the round after you won it, at most 2 a round):
    play <card> [arguments]. It takes effect in its timing window, in turn order; the
    words after the card are passed on to it. "screen" lists the cards you hold."""

    key = "play"
    usage = ("play <card>", "play <card> <arguments>")

    async def run(self, ctx: Context, args: str) -> None:
        try:
            words = rules_words(tokens(args))
        except SpaceError as error:
            raise CommandError(_with_usage(error, self.usage_text())) from None
        if not words or len(words) > 8 or any(len(word) > 20 for word in words):
            raise CommandError(_("Which card? Usage: {usage}").format(usage=self.usage_text()))
        card, rest = words[0], words[1:]
        actor = ctx.player.account_id

        def move(table: YsTable) -> None:
            play: Callable[..., None] = table.play
            play(actor, card, *rest) if rest else play(actor, card)

        await perform_on(ctx, YsTable, move)


class AddBot(AddBotCommand):
    """Seat a computer player (host, between games): addbot, addbot easy, addbot normal
    Ysolde. Levels: easy, normal (the default). It sees only what its seat may see and
    waits "botdelay" seconds (1 unless set) before each move."""

    table_class = YsTable


class RemoveBot(RemoveBotCommand):
    """Take a computer player's seat away (host, between games)."""

    table_class = YsTable


class Set(SetCommand):
    """Change a table setting (host); "set" alone lists them.

    favour (0/1: play the King's favour, between games), quadrants (3 or 4 city quadrants
    with 3 players, between games), turntime (10-600 seconds a person has for a move
    before a default one is made), botdelay (0-10 seconds a computer player waits). A time
    changed mid-move counts from the next move.
    """

    table_class = YsTable


PLAY_COMMANDS = CommandSet(
    N_("Ys"),
    [
        Start(),
        Board(),
        Market(),
        Screen(),
        Bid(),
        Place(),
        Neutral(),
        Choose(),
        Order(),
        Favour(),
        Play(),
        AddBot(),
        RemoveBot(),
        Set(),
    ],
)

__all__ = ["PLAY_COMMANDS", "SPACE_GRAMMAR"]
