"""Moving cards: draw, play, discard, destroy, give, shuffle, order the draw pile, and
ending turns."""

from __future__ import annotations

import re
from typing import ClassVar

from commands.base import CommandError, CommandSet, Context, find_command
from commands.dvorak.base import CardMove, GameCommand, card_number, card_ref, perform, resolve
from commands.tables import seated_player
from games.dvorak.rules import Table
from i18n import N_, _

#: Most cards one draw command takes.
DRAW_MAX = 20


class Draw(GameCommand):
    """Draw the top card of the draw pile.

    Everyone sees that you drew; only you see what. "draw <n>" draws n cards at once; with
    turns on, each counts as one of your draws this turn, and if the rules allow fewer than
    n, nothing is drawn. If the draw pile is empty, the discard pile is shuffled to make a
    new one first.
    """

    key = "drawcard"
    aliases: ClassVar[tuple[str, ...]] = ("draw",)
    usage = ("drawcard", "drawcard <n>")
    forceable = True
    visible = False

    async def move(self, ctx: Context, args: str, forced: bool) -> None:
        count = 1
        if args.strip():
            if not args.strip().isdigit() or not 1 <= int(args) <= DRAW_MAX:
                refusal = _("Usage: {usage}, where n is 1 to {most}.")
                raise CommandError(refusal.format(usage=self.usage_text(), most=DRAW_MAX))
            count = int(args)
        actor = ctx.player.account_id
        await perform(ctx, lambda table: table.draw_many(actor, count, self.visible, forced))


class DrawVisible(Draw):
    """Draw a card and show it to everyone.

    "drawvis <n>" draws n cards, each shown, counted as "draw <n>" counts them.
    """

    key = "drawvis"
    aliases = ()
    usage = ("drawvis", "drawvis <n>")
    visible = True


_PLAY_ON = re.compile(r"(\S+)\s+on\s+(\S+)", re.IGNORECASE)


class Play(GameCommand):
    """Play a card from your hand.

    An Action does what it says and goes to the discard pile; a Thing (or any other type)
    goes into play in front of you. "play 12 on 7" plays Thing #12 onto Thing #7: if #7 is
    destroyed, #12 goes with it.

    "play 12=facedown" plays #12 face down in front of you, whatever its type: you see it,
    the others see only "face-down card FD1" (its label) until it is turned up (flip). With
    turns on it counts as your Thing this turn, even if it is an Action. A face-down card
    is not played on a Thing, and nothing is played on it or used until it is turned up.
    """

    key = "playcard"
    aliases = ("play",)
    usage = ("playcard <num>", "playcard <num> on <num>", "playcard <num>=facedown")
    forceable = True

    async def move(self, ctx: Context, args: str, forced: bool) -> None:
        usage = self.usage_text()
        if "=" in args:
            card, _equals, how = args.partition("=")
            if how.strip().lower() != "facedown":
                raise CommandError(_("Usage: {usage}").format(usage=usage))
            if _PLAY_ON.fullmatch(card.strip()):
                refusal = _("A card played face down goes in front of you, not on a Thing: play <num>=facedown")
                raise CommandError(refusal)
            face_down = card_number(card, usage)
            me = ctx.player.account_id
            await perform(ctx, lambda table: table.play_face_down(me, face_down, forced=forced))
            return
        on = _PLAY_ON.fullmatch(args.strip())
        if on:
            number = card_number(on.group(1), usage)
            onto: int | None = card_number(on.group(2), usage)
        else:
            number, onto = card_number(args, usage), None
        actor = ctx.player.account_id
        await perform(ctx, lambda table: table.play(actor, number, onto=onto, forced=forced))


class Use(CardMove):
    """Use the "Action:" written on one of your Things.

    It counts as your Action this turn. A Thing with no "Action:" written on it cannot be
    used, unless a card gives it one (then force it).
    """

    key = "use"
    usage = ("use <num>",)
    forceable = True
    rules_method = "use"


class Discard(CardMove):
    """Discard a card from your hand.

    It goes face up onto the discard pile. With turns on, only to get down to the hand limit
    at the end of your turn.

    Discarding is the last step of a turn: with turns on, you discard after drawing, and
    once you have discarded you may not draw, play, use or give cards that turn (unless
    forced).
    """

    key = "discard"
    usage = ("discard <num>",)
    forceable = True
    rules_method = "discard"


class DiscardRandom(GameCommand):
    """Discard a random card from your hand.

    Everyone sees which.
    """

    key = "discrand"
    forceable = True
    alone = True

    async def move(self, ctx: Context, args: str, forced: bool) -> None:
        actor = ctx.player.account_id
        await perform(ctx, lambda table: table.discard(actor, None, forced=forced))


class Destroy(GameCommand):
    """Destroy a card in play (anyone's).

    It goes to the discard pile, and so does every Thing played on it. Name another
    player's face-down card by its label ("destroy FD1"): it goes face up to the discard
    pile, and everyone sees what it was.
    """

    key = "destroy"
    usage = ("destroy <num>", "destroy <label>")
    forceable = True

    async def move(self, ctx: Context, args: str, forced: bool) -> None:
        ref = card_ref(args, self.usage_text())
        actor = ctx.player.account_id
        await perform(
            ctx, lambda table: table.destroy(actor, resolve(table, ref), forced=forced, by_label=isinstance(ref, str))
        )


class Flip(GameCommand):
    """Turn a face-down card in play face up.

    Your own, by number or label, on your turn (at any time with turns off); another
    player's only when a card allows it: "force flip FD1". A Thing turned up stays in play;
    an Action turned up goes to the discard pile, as a played Action does.
    """

    key = "flip"
    usage = ("flip <num>", "flip <label>")
    forceable = True

    async def move(self, ctx: Context, args: str, forced: bool) -> None:
        ref = card_ref(args, self.usage_text())
        actor = ctx.player.account_id
        await perform(
            ctx, lambda table: table.flip(actor, resolve(table, ref), by_label=isinstance(ref, str), forced=forced)
        )


_GIVE = re.compile(r"(\S+)\s+to\s+(.+)", re.IGNORECASE)


class GiveCard(GameCommand):
    """Move a card into a player's hand.

    The card may be anywhere; everyone sees it. In team play, you may also give one card
    from your hand to a teammate each turn.

    With turns on, no basic rule moves cards between places and players (but that team
    gift): a card must say so, so the move needs force, wherever the card is. A Thing
    leaving play takes what is played on it to the discard pile, and the table is told.
    """

    key = "givecard"
    aliases: ClassVar[tuple[str, ...]] = ("give",)
    usage = ("givecard <num> to <player>",)
    forceable = True
    as_thing = False

    async def move(self, ctx: Context, args: str, forced: bool) -> None:
        match = _GIVE.fullmatch(args.strip())
        if match is None:
            raise CommandError(_("Usage: {usage}").format(usage=self.usage[0]))
        ref = card_ref(match.group(1), self.usage[0])
        actor = ctx.player.account_id

        def move(table: Table) -> None:
            target = seated_player(table, ctx, match.group(2), self.usage_text())
            table.give(actor, resolve(table, ref), target.account_id, as_thing=self.as_thing, forced=forced)

        await perform(ctx, move)


class GiveThing(GiveCard):
    """Move a card into play under a player's control.

    The card may be anywhere. A Thing that changes control keeps what is played on it. With
    turns on, only a card makes this move, so it needs force.
    """

    key = "givething"
    aliases = ()
    usage = ("givething <num> to <player>",)
    as_thing = True


class TakeRandom(GameCommand):
    """Take a random card from another player's hand into yours.

    For cards such as Espionage ("take a random card from an opponent's hand"). You and
    that player see which card it was; everyone else is told only that a random card
    moved. With turns on it is a move between players like givecard, which only a card
    allows: type "force takerand <player>" (on your turn or not), and the table is told.
    """

    key = "takerand"
    usage = ("takerand <player>",)
    forceable = True

    async def move(self, ctx: Context, args: str, forced: bool) -> None:
        actor = ctx.player.account_id

        def move(table: Table) -> int:
            target = seated_player(table, ctx, args, self.usage_text())
            return table.take_random(actor, target.account_id, forced=forced)

        await perform(ctx, move)


class Shuffle(GameCommand):
    """Shuffle the discard pile into the draw pile."""

    key = "shuffle"
    forceable = True
    alone = True

    async def move(self, ctx: Context, args: str, forced: bool) -> None:
        actor = ctx.player.account_id
        await perform(ctx, lambda table: table.shuffle_discard(actor, forced=forced))


class ShuffleCard(GameCommand):
    """Shuffle one card into the draw pile.

    The card may be anywhere (a face-down card may be named by its label). With turns on,
    only a card makes this move, so it needs force. A Thing leaving play takes what is
    played on it to the discard pile.
    """

    key = "shufcard"
    usage = ("shufcard <num>", "shufcard <label>")
    forceable = True

    async def move(self, ctx: Context, args: str, forced: bool) -> None:
        ref = card_ref(args, self.usage_text())
        actor = ctx.player.account_id
        await perform(ctx, lambda table: table.shuffle_card(actor, resolve(table, ref), forced=forced))


_PUT_AT = re.compile(r"(\S+)\s*=\s*(top|bottom|\d{1,9})", re.IGNORECASE)


class PutCard(GameCommand):
    """Put a card into the draw pile at the place you choose.

    "putcard 12=top" puts #12 on top, "putcard 12=bottom" at the bottom, "putcard 12=3"
    third from the top (1 is the top; a place below the bottom is the bottom). The card may
    be anywhere; in a multi-deck game it goes to the draw pile of its own deck. With turns
    on, only a card makes this move, so it needs force.

    The table is told where it went. Which card, only if everyone could see it where it
    was (in play or on a discard pile): from a hand or the draw pile, only you (and the
    player whose hand it was) learn which.
    """

    key = "putcard"
    usage = ("putcard <num>=top", "putcard <num>=bottom", "putcard <num>=<place>")
    forceable = True

    async def move(self, ctx: Context, args: str, forced: bool) -> None:
        match = _PUT_AT.fullmatch(args.strip())
        if match is None:
            raise CommandError(_("Usage: {usage}").format(usage=self.usage_text()))
        number = card_number(match.group(1), self.usage_text())
        where = match.group(2).lower()
        depth = 1 if where == "top" else None if where == "bottom" else int(where)
        actor = ctx.player.account_id
        await perform(ctx, lambda table: table.put_on_draw(actor, number, depth, forced=forced))


#: Most cards one reorder lists.
REORDER_MAX = 20


class Reorder(GameCommand):
    """Put the top cards of your draw pile in a new order.

    List them top first: "reorder 7 3 12" makes #7 the top card, then #3, then #12. They
    must be exactly the top cards of your draw pile (as many as you list, at most 20), and
    you may reorder only after looking through the draw pile (viewdraw), and only as you
    saw it: once it has changed (a draw, a card put in), look again. With turns on, only a
    card allows this, so it needs force (as does viewdraw).

    The table is told how many cards you reordered, not which.
    """

    key = "reorder"
    usage = ("reorder <num> <num> ...",)
    forceable = True

    async def move(self, ctx: Context, args: str, forced: bool) -> None:
        words = args.replace(",", " ").split()
        if not words:
            refusal = _("Usage: {usage} (the top cards of your draw pile, top first)")
            raise CommandError(refusal.format(usage=self.usage[0]))
        if len(words) > REORDER_MAX:
            raise CommandError(_("Reorder at most {most} cards at once.").format(most=REORDER_MAX))
        numbers = [card_number(word, self.usage[0]) for word in words]
        actor = ctx.player.account_id
        await perform(ctx, lambda table: table.reorder_draw(actor, numbers, forced=forced))


class EndTurn(GameCommand):
    """End your turn.

    Refused while you hold more cards than the hand limit.
    """

    key = "endturn"
    aliases = ("done",)
    forceable = True
    alone = True

    async def move(self, ctx: Context, args: str, forced: bool) -> None:
        actor = ctx.player.account_id
        await perform(ctx, lambda table: table.end_turn(actor, forced=forced))


class Skip(GameCommand):
    """Pass the turn of a player who is away.

    Anyone may skip a player who has been disconnected long enough for votes to go on
    without them (the table says "away too long"); the host may skip anyone, at once.
    """

    key = "skip"
    usage = ("skip <player>",)

    async def run(self, ctx: Context, args: str) -> None:
        actor = ctx.player.account_id

        def move(table: Table) -> None:
            target = seated_player(table, ctx, args, self.usage_text())
            table.skip(actor, target.account_id, target_present=ctx.hub.is_online(target.account_id))

        await perform(ctx, move)


class Force(GameCommand):
    """Make a move outside the basic rules.

    For when a card allows it. The table is told that it was forced. Turn order and per-turn
    limits are ignored; the cards must still be where you say they are.
    """

    key = "force"
    usage = ("force <command>",)

    async def run(self, ctx: Context, args: str) -> None:
        found = find_command(ctx.command_sets, args.strip()) if args.strip() else None
        command = found[0] if found is not None else None
        if found is None or not isinstance(command, GameCommand) or not command.forceable:
            forceable = {c.key for s in ctx.command_sets for c in s.commands if getattr(c, "forceable", False)}
            names = ", ".join(sorted(forceable))
            raise CommandError(
                _("Usage: force <command>, where the command is one of: {commands}.").format(commands=names)
            )
        command.refuse_arguments(found[1])
        await command.move(ctx, found[1], forced=True)


MOVE_COMMANDS = CommandSet(
    N_("Cards"),
    [
        Draw(),
        DrawVisible(),
        Play(),
        Use(),
        Discard(),
        DiscardRandom(),
        Destroy(),
        Flip(),
        GiveCard(),
        GiveThing(),
        TakeRandom(),
        Shuffle(),
        ShuffleCard(),
        PutCard(),
        Reorder(),
        EndTurn(),
        Skip(),
        Force(),
    ],
)
