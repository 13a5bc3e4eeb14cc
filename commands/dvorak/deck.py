"""Decks: loading and clearing cards, printing and exporting them, saving whole rooms.

A deck pasted from the archive (``cleardeck``, ``loadcard ...``, ``@emit ...``) works
line by line, and also when a client delivers the whole paste as one line.
"""

from __future__ import annotations

from commands.base import Command, CommandError, CommandSet, Context
from commands.dvorak.base import GameCommand, deck_name_problem, inspect, perform
from commands.dvorak.storage.decks import DeckOwnedByOther, DecksTooBig, DeckStore, TooManyDecks, deck_size
from commands.dvorak.storage.tables import card_versions
from commands.social import refuse_if_muted
from commands.tables import current_room, writing
from commands.text import echoed, ljust, rjust
from games.dvorak.deck import deck_contents, snapshot
from games.dvorak.deckformat import (
    EXPORTERS,
    PASTE_PROPOSALS_MAX,
    DefinitionError,
    colour_code,
    parse_card_definition,
    parse_rule_definition,
    split_pasted_commands,
    split_pasted_proposals,
)
from games.dvorak.rules import Table
from games.dvorak.state import PENDING, REJECTED, REMOVED, RULES, Card, is_approved
from i18n import N_, _, ngettext, said, said_n
from server.safety import PlayerSafety
from server.text import shown_width

#: How ``logcards`` notes a card that is not in the game, by where it is.
_LOGGED_STATUS = {
    PENDING: N_("#{number} waiting for a vote: {card}"),
    REJECTED: N_("#{number} rejected: {card}"),
    REMOVED: N_("#{number} removed: {card}"),
}


def _definition_line(card: Card) -> str:
    """The ``loadcard``/``loadrule`` line that makes ``card`` again."""
    if card.is_rule:
        return f"loadrule {card.name}/{card.text}"
    colour = colour_code(card.colour)
    return f"loadcard {colour}{'/' if colour else ''}{card.name}/{card.kind}/{card.text}"


def _kib(size: int) -> str:
    return _("{n} KiB").format(n=f"{max(1, round(size / 1024)):,}")


class ClearDeck(GameCommand):
    """Remove every card and special rule (host).

    Every vote is called off too. Not while a game is running, unless forced. Card numbers
    are never reused.
    """

    key = "cleardeck"
    cost = 5
    forceable = True
    alone = True

    async def move(self, ctx: Context, args: str, forced: bool) -> None:
        actor = ctx.player.account_id
        await perform(ctx, lambda table: table.clear_deck(actor, forced=forced))


class LoadCard(GameCommand):
    """Add a card to the deck without a vote.

    As deck imports do: the host; in a multi-deck game, each player to their own deck; while
    a game is running, only forced. Type A is an Action, T a Thing; any other word is shown
    as written and played like a Thing. Split at the first two slashes: the text may contain
    more. %r in the text is a line break.

    The Dvorax form puts a MUSH colour code first:

      loadcard hw/Armageddon/Action/Destroy all Things.

    A name that looks like a colour code (Gun, Ruby) followed by the type A or T is read in
    the first form:

      loadcard Gun/T/Roll a die: on 5/6, destroy a Thing.
    """

    key = "loadcard"
    forceable = True
    usage = ("loadcard <name>/<A|T|type>/<text>", "loadcard <colour>/<name>/<type>/<text>")

    async def move(self, ctx: Context, args: str, forced: bool) -> None:
        try:
            card = parse_card_definition(args)
        except DefinitionError as error:
            raise CommandError(_("{refusal} Usage: {usage}").format(refusal=error, usage=self.usage[0])) from None
        refuse_if_muted(ctx)
        actor, author = ctx.player.account_id, ctx.player.name
        async with writing(ctx, "writes", 1):
            await perform(
                ctx,
                lambda table: table.load_card(
                    actor, author, card.name, card.kind, card.text, card.colour, forced=forced
                ),
            )


class LoadRule(GameCommand):
    """Put a special rule in force without a vote.

    As deck imports do: the host; while a game is running, only forced.
    """

    key = "loadrule"
    forceable = True
    usage = ("loadrule <name>/<text>",)

    async def move(self, ctx: Context, args: str, forced: bool) -> None:
        try:
            rule = parse_rule_definition(args)
        except DefinitionError as error:
            raise CommandError(_("{refusal} Usage: {usage}").format(refusal=error, usage=self.usage[0])) from None
        refuse_if_muted(ctx)
        actor, author = ctx.player.account_id, ctx.player.name
        async with writing(ctx, "writes", 1):
            await perform(ctx, lambda table: table.load_rule(actor, author, rule.name, rule.text, forced=forced))


class LogCards(GameCommand):
    """Print every card of the room, to paste back.

    Whatever its status: approved cards and rules as loadcard/loadrule lines, the others as
    @@ comments.
    """

    key = "logcards"
    cost = 5

    async def run(self, ctx: Context, args: str) -> None:
        room = current_room(ctx)

        def look(table: Table) -> str:
            cards = sorted(table.state.cards.values(), key=lambda c: c.number)
            heading = _("Every card of room {room}, for saving: paste it back to load the deck.")
            lines = [f"@@ {heading.format(room=room.name)}", "cleardeck"]
            lines += [_definition_line(c) for c in cards if is_approved(c) or c.zone == RULES]
            lines += [
                f"@@ {_(_LOGGED_STATUS[c.zone]).format(number=c.number, card=_definition_line(c))}"
                for c in cards
                if c.zone in _LOGGED_STATUS
            ]
            return "\n".join(lines)

        ctx.reply(await inspect(ctx, look), wrap=False)


class ExportDeck(GameCommand):
    """Print the deck in one of the archive's formats.

    Approved cards and rules, as mush (commands to paste; the default), dvorax (with colours
    and full types), json, or tsv (Name, Set, ImageFile, Type, CornerValue, Text,
    FlavorText, Creator; a special rule is a row of Type Rule, after the cards).
    """

    key = "exportdeck"
    cost = 5
    usage = ("exportdeck [mush|dvorax|json|tsv]",)

    async def run(self, ctx: Context, args: str) -> None:
        form = args.strip().lower() or "mush"
        exporter = EXPORTERS.get(form)
        if exporter is None:
            raise CommandError(_("Usage: {usage}").format(usage=self.usage[0]))
        room, author = current_room(ctx), ctx.services.get(PlayerSafety).author
        ctx.reply(
            await inspect(ctx, lambda table: exporter(room.name, *deck_contents(table.state, author))), wrap=False
        )


class SaveDeck(GameCommand):
    """Save the whole room under a name.

    Cards (with every version of each) and their piles in order, special rules, settings,
    votes and the turn. Saving again under your own name replaces it; a name someone else
    saved is theirs.
    """

    key = "savedeck"
    cost = 10
    usage = ("savedeck <name>",)

    async def run(self, ctx: Context, args: str) -> None:
        name = args.strip()
        problem = deck_name_problem(name) if name else _("Usage: {usage}").format(usage=self.usage[0])
        if problem:
            raise CommandError(problem)
        refuse_if_muted(ctx)
        room = current_room(ctx)
        data, count = await inspect(ctx, lambda table: (snapshot(table.state), len(table.deck_cards())))
        histories = await card_versions(ctx.rooms.store.database, room.id)
        versions = {
            str(card["number"]): [version.as_saved() for version in histories.get(card["number"], [])]
            for card in data["cards"]
        }
        saved = {**data, "room": room.name, "versions": versions}
        size = deck_size(saved)
        try:
            async with writing(ctx, "saved_bytes", size):
                replaced = await ctx.services.get(DeckStore).save(name, ctx.player.account_id, count, saved, size)
        except DeckOwnedByOther:
            refusal = _('The deck name "{name}" belongs to someone else. Choose another.')
            raise CommandError(refusal.format(name=echoed(name))) from None
        except TooManyDecks as quota:
            # The English says "decks" for one too.
            refusal = ngettext(
                "You have {n} saved decks, the most a player may keep. Save over one of them, or delete one first "
                '(type "listdecks", then "deletedeck <name>").',
                "You have {n} saved decks, the most a player may keep. Save over one of them, or delete one first "
                '(type "listdecks", then "deletedeck <name>").',
                quota.limit,
            )
            raise CommandError(refusal.format(n=quota.limit)) from None
        except DecksTooBig as quota:
            refusal = _(
                "This room saved is {size}, and your other saved decks take {others} of the {most} a player may "
                'keep. Delete one first (type "listdecks", then "deletedeck <name>").'
            )
            raise CommandError(
                refusal.format(size=_kib(quota.size), others=_kib(quota.others), most=_kib(quota.limit))
            ) from None
        if replaced:
            room.broadcast(
                said_n(
                    "{name} saves the room again as deck {deck} ({n} card).",
                    "{name} saves the room again as deck {deck} ({n} cards).",
                    count,
                    name=ctx.player.name,
                    deck=name,
                ),
                exclude=ctx.player,
            )
            reply = ngettext(
                "You save the room again as deck {deck} ({n} card).",
                "You save the room again as deck {deck} ({n} cards).",
                count,
            )
        else:
            room.broadcast(
                said_n(
                    "{name} saves the room as deck {deck} ({n} card).",
                    "{name} saves the room as deck {deck} ({n} cards).",
                    count,
                    name=ctx.player.name,
                    deck=name,
                ),
                exclude=ctx.player,
            )
            reply = ngettext(
                "You save the room as deck {deck} ({n} card).", "You save the room as deck {deck} ({n} cards).", count
            )
        ctx.reply(reply.format(deck=name, n=count))


class LoadDeck(GameCommand):
    """Load a saved deck into this room (host).

    It replaces the room's cards, rules, settings and votes. If the same players are seated
    as when it was saved, the game resumes where it was; otherwise its cards make a fresh
    deck for a new game. Cards keep their numbers and histories; a card whose number another
    card of this room has (one edited since the deck was saved, say) gets a new number after
    the room's own; the table is told. Not while a game is running, unless forced: the game
    running here would be lost.
    """

    key = "loaddeck"
    cost = 10
    forceable = True
    usage = ("loaddeck <name>",)

    async def move(self, ctx: Context, args: str, forced: bool) -> None:
        name = args.strip()
        if not name:
            raise CommandError(_("Usage: {usage}").format(usage=self.usage[0]))
        found = await ctx.services.get(DeckStore).load(name)
        if found is None:
            refusal = _('There is no saved deck called "{name}". Type "listdecks" for the list.')
            raise CommandError(refusal.format(name=echoed(name)))
        saved_name, data = found
        actor = ctx.player.account_id
        await perform(ctx, lambda table: table.restore(actor, saved_name, data, forced=forced))


class ListDecks(Command):
    """List the saved decks.

    Name, who saved it, how many cards, when.
    """

    key = "listdecks"

    async def run(self, ctx: Context, args: str) -> None:
        store = ctx.services.get(DeckStore)
        decks = await store.summaries()
        if not decks:
            ctx.reply(_("No decks have been saved. In a room, savedeck <name> saves one."))
            return
        headings = [_("Deck"), _("Saved by"), _("Cards"), _("Saved (UTC)")]
        name_width, owner_width = max(30, shown_width(headings[0])), max(20, shown_width(headings[1]))
        count_width = max(5, shown_width(headings[2]))
        lines = [
            f"{ljust(headings[0], name_width)} {ljust(headings[1], owner_width)} {rjust(headings[2], count_width)}"
            f"  {headings[3]}"
        ]
        for deck in decks:
            lines.append(
                f"{deck.name:<{name_width}} {deck.owner_name:<{owner_width}} {deck.card_count:>{count_width}}"
                f"  {deck.saved_at:%Y-%m-%d %H:%M}"
            )
        count, used = await store.usage(ctx.player.account_id)
        if count:
            # The English says "decks" for one too.
            if store.max_decks and store.max_bytes:
                yours = ngettext(
                    "Yours: {n} of {most} decks, {size} of {limit}.",
                    "Yours: {n} of {most} decks, {size} of {limit}.",
                    count,
                )
            elif store.max_decks:
                yours = ngettext("Yours: {n} of {most} decks, {size}.", "Yours: {n} of {most} decks, {size}.", count)
            elif store.max_bytes:
                yours = ngettext("Yours: {n} decks, {size} of {limit}.", "Yours: {n} decks, {size} of {limit}.", count)
            else:
                yours = ngettext("Yours: {n} decks, {size}.", "Yours: {n} decks, {size}.", count)
            limit = _kib(store.max_bytes) if store.max_bytes else ""
            lines.append(yours.format(n=count, most=store.max_decks, size=_kib(used), limit=limit))
        ctx.reply("\n".join(lines))


class DeleteDeck(Command):
    """Delete a saved deck.

    Only whoever saved it (or an administrator) may.
    """

    key = "deletedeck"
    usage = ("deletedeck <name>",)

    async def run(self, ctx: Context, args: str) -> None:
        name = args.strip()
        store = ctx.services.get(DeckStore)
        owner = await store.owner_of(name) if name else None
        if owner is None:
            if name:
                raise CommandError(_('There is no saved deck called "{name}".').format(name=name))
            raise CommandError(_("Usage: {usage}").format(usage=self.usage[0]))
        if owner != ctx.player.account_id and not ctx.player.is_admin:
            raise CommandError(_("Only whoever saved that deck, or an administrator, can delete it."))
        await store.delete(name)
        ctx.player.place.broadcast(
            said("{name} deletes the saved deck {deck}.", name=ctx.player.name, deck=name), exclude=ctx.player
        )
        ctx.reply(_("You delete the saved deck {deck}.").format(deck=name))


DECK_COMMANDS = CommandSet(
    N_("Deck"), [ClearDeck(), LoadCard(), LoadRule(), LogCards(), ExportDeck(), SaveDeck(), LoadDeck()]
)
SAVED_DECK_COMMANDS = CommandSet(N_("Decks"), [ListDecks(), DeleteDeck()])

PASTE_EMIT_SKIPPED = N_(
    "Only deck commands (cleardeck, loadcard, loadrule, @@) are run from a pasted line, so its @emit was not: type "
    "@emit on a line of its own."
)
PASTE_PROPOSALS_DROPPED = N_(
    "A pasted line makes at most {most} proposals, so the last {count} were not made: paste them again."
)


def split_pasted_line(line: str) -> tuple[list[str], str | None]:
    """A line typed at a Dvorak table, split as a paste some clients send as one line:
    a deck back into its deck commands, proposals (newcard, newrule) into each
    proposal; and what to tell the typist of what was left out. Any other line is one
    command."""
    proposals, dropped = split_pasted_proposals(line)
    if len(proposals) > 1 or dropped:
        return proposals, _(PASTE_PROPOSALS_DROPPED).format(
            most=PASTE_PROPOSALS_MAX, count=dropped
        ) if dropped else None
    commands, emits = split_pasted_commands(line)
    return commands, _(PASTE_EMIT_SKIPPED) if emits else None
