"""Looking at cards: your hand, what is in play, the piles, one card, the whole deck.

Hidden cards (another player's hand, the draw pile) can be looked at only by seated
players, because cards may allow it (with turns on, only forced); the whole room is told
who looked at what. Spectators see only what is face up.
"""

from __future__ import annotations

from commands.base import CommandError, CommandSet, Context
from commands.dvorak.base import GameCommand, card_number, hidden_copy_refused, inspect, perform
from commands.dvorak.render import (
    card_entries,
    card_entry_said,
    card_full,
    card_list,
    card_name,
    card_text,
    face_down_line,
    lines_said,
    none_listed,
    none_said,
)
from commands.tables import current_room, seated_player
from commands.text import page_bounds, page_footer, page_number, page_of
from games.dvorak.rules import Table
from games.dvorak.state import PENDING, REJECTED, REMOVED
from i18n import N_, Said, Text, _, ngettext, said
from server.safety import PlayerSafety

#: How ``readcard`` names a card that is not in the game, by where it is.
_CARD_STATUS = {
    PENDING: N_("{card} (proposed, not yet voted in)"),
    REJECTED: N_("{card} (rejected)"),
    REMOVED: N_("{card} (removed)"),
}


class ReadCard(GameCommand):
    """Read the full text of any card by its number.

    It does not say where the card is. In a CCG room, a copy in another player's deck is
    read only where you could see it (in play, on a discard pile, in your hand).
    """

    key = "readcard"
    aliases = ("read",)
    usage = ("readcard <num>",)

    async def run(self, ctx: Context, args: str) -> None:
        number = card_number(args, self.usage[0])

        viewer = ctx.player.account_id
        author = ctx.services.get(PlayerSafety).author

        def read(table: Table) -> str:
            card = hidden_copy_refused(table, number, viewer)
            status = _CARD_STATUS.get(card.zone)
            name = _(status).format(card=card_name(card)) if status else card_name(card)
            lines = [name, _("Type: {type}").format(type=card.kind_shown)]
            if card.author_name:
                lines.append(_("By: {name}").format(name=author(card.author, card.author_name)))
            # Labelled, as each line here is: a card's words never start a line of their own.
            lines.append(_("Text: {text}").format(text=card_text(card) or _("(none)")))
            return "\n".join(lines)

        ctx.reply(await inspect(ctx, read))


class ViewHand(GameCommand):
    """List the cards in your hand.

    "viewhand <player>" looks at another player's hand, which a card may allow; everyone at
    the table is told that you looked.

    With turns on, looking needs a card that allows it: type "force viewhand <player>".
    """

    key = "viewhand"
    aliases = ("hand",)
    usage = ("viewhand", "viewhand <player>")
    forceable = True

    async def move(self, ctx: Context, args: str, forced: bool) -> None:
        me = ctx.player.account_id
        if args.strip() and args.strip().lower() != "me":

            def look(table: Table) -> str:
                target = seated_player(table, ctx, args, self.usage_text())
                if target.account_id == me:
                    return own_hand(table, me)
                cards = table.view_hand(me, target.account_id, forced=forced)
                heading = ngettext("{name}'s hand ({n} card):", "{name}'s hand ({n} cards):", len(cards))
                return heading.format(name=target.name, n=len(cards)) + "\n" + card_list(table, cards)

            ctx.reply(await perform(ctx, look))
        else:
            ctx.reply(await inspect(ctx, lambda table: own_hand(table, me)))


def own_hand(table: Table, account_id: int) -> str:
    if table.state.seat(account_id) is None:
        raise CommandError(_("You are watching, so you hold no cards."))
    hand = table.hand(account_id)
    heading = ngettext("Your hand ({n} card):", "Your hand ({n} cards):", len(hand)).format(n=len(hand))
    return f"{heading}\n" + card_list(table, hand)


class ViewPlay(GameCommand):
    """List every card in play and who controls it.

    Cards played on others are shown under them.
    """

    key = "viewplay"

    async def run(self, ctx: Context, args: str) -> None:
        def look(table: Table) -> str:
            lines = []
            for seat in table.state.seats:
                lines.append(f"{seat.name}:")
                things = table.in_play(seat.account_id)
                for number in things:
                    card = table.state.cards[number]
                    if number in table.state.face_down:
                        lines.append(f"  {face_down_line(table, table.state.face_down[number], ctx.player.account_id)}")
                        continue
                    on = "   " + _("[on #{number}]").format(number=card.attached_to) if card.attached_to else ""
                    lines.append(f"  {card_full(card)}{on}")
                if not things:
                    lines.append("  " + _("(nothing)"))
            return "\n".join(lines) or _("Nobody is seated.")

        ctx.reply(await inspect(ctx, look))


class Count(GameCommand):
    """Count the cards in a player's hand.

    Yours without a name.
    """

    key = "count"
    usage = ("count <player>", "count")

    async def run(self, ctx: Context, args: str) -> None:
        def look(table: Table) -> str:
            seat = seated_player(table, ctx, args or "me", self.usage_text())
            held = len(table.hand(seat.account_id))
            if seat.account_id == ctx.player.account_id:
                holds = ngettext("You hold {n} card.", "You hold {n} cards.", held)
            else:
                holds = ngettext("{name} holds {n} card.", "{name} holds {n} cards.", held)
            return holds.format(name=seat.name, n=held)

        ctx.reply(await inspect(ctx, look))


class CountDraw(GameCommand):
    """Count the cards in the draw pile."""

    key = "countdraw"

    async def run(self, ctx: Context, args: str) -> None:
        me = ctx.player.account_id

        def look(table: Table) -> str:
            count = len(table.state.pile(*table.draw_key(me)))
            return ngettext("The draw pile holds {n} card.", "The draw pile holds {n} cards.", count).format(n=count)

        ctx.reply(await inspect(ctx, look))


class ViewDiscard(GameCommand):
    """List the discard pile, top card first.

    In a multi-deck game, name a player to see their discard pile.
    """

    key = "viewdisc"
    usage = ("viewdisc", "viewdisc <player>")

    async def run(self, ctx: Context, args: str) -> None:
        def look(table: Table) -> str:
            named = args.strip()
            owner = seated_player(table, ctx, args, self.usage_text()).account_id if named else ctx.player.account_id
            pile = list(reversed(table.state.pile(*table.discard_key(owner))))
            heading = ngettext("Discard pile ({n} card), top first:", "Discard pile ({n} cards), top first:", len(pile))
            return heading.format(n=len(pile)) + "\n" + card_list(table, pile)

        ctx.reply(await inspect(ctx, look))


class ViewDraw(GameCommand):
    """List the draw pile, top card first.

    Its cards are hidden, so only seated players may look (a card must allow it) and the
    whole table is told. A long pile is shown a page at a time: "viewdraw 2" shows the
    second page.

    With turns on, looking needs a card that allows it: type "force viewdraw". Having
    looked, you may reorder its top cards (reorder) until it changes.
    """

    key = "viewdraw"
    usage = ("viewdraw", "viewdraw <page>")
    forceable = True

    async def move(self, ctx: Context, args: str, forced: bool) -> None:
        me = ctx.player.account_id
        rest, page = page_number(args)
        if rest:
            raise CommandError(_("Usage: {usage}").format(usage=self.usage_text()))

        def look(table: Table) -> str:
            pile = table.view_draw(me, forced=forced)
            cards = page_of(card_entries(table, pile), page, "viewdraw", none_listed())
            heading = ngettext("Draw pile ({n} card), top first:", "Draw pile ({n} cards), top first:", len(pile))
            return f"{heading.format(n=len(pile))}\n{cards}"

        ctx.reply(await perform(ctx, look))


class ViewAll(GameCommand):
    """Show everyone here every approved card.

    It does not say where each one is. A long deck is shown a page at a time: "viewall 2"
    shows the second page.
    """

    key = "viewall"
    usage = ("viewall", "viewall <page>")
    cost = 5

    async def run(self, ctx: Context, args: str) -> None:
        rest, page = page_number(args)
        if rest:
            raise CommandError(_("Usage: {usage}").format(usage=self.usage_text()))

        def look(table: Table) -> tuple[int, str, Said]:
            deck = table.deck_cards()
            entries = card_entries(table, [card.number for card in deck])
            mine = page_of(entries, page, "viewall", none_listed())
            # The others are shown the same page, each in their language.
            first, last, _pages = page_bounds(entries, page) if entries else (0, 0, 1)
            theirs: list[Text] = [card_entry_said(card) for card in deck[first:last]] or [none_said()]
            footer = page_footer(entries, page, "viewall") if entries else None
            if footer is not None:
                theirs.append(footer)
            return len(deck), mine, lines_said(theirs)

        count, cards, others = await inspect(ctx, look)
        # The cards are one text, the same for everyone here who reads the same language:
        # laid out once per language and width.
        room = current_room(ctx)
        room.broadcast(
            said("{name} lists every card in the deck ({n}):", name=ctx.player.name, n=count), exclude=ctx.player
        )
        room.broadcast(others, exclude=ctx.player)
        ctx.reply(_("You list every card in the deck ({n}):").format(n=count))
        ctx.reply(cards)


VIEW_COMMANDS = CommandSet(
    N_("Looking"),
    [ReadCard(), ViewHand(), ViewPlay(), Count(), CountDraw(), ViewDiscard(), ViewDraw(), ViewAll()],
)
