"""The CCG game's commands: the room's card set, building a deck of copies, saving and
bringing decks.

A player's deck is theirs: the others at the table learn only how many cards it has.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from commands.base import CommandError, CommandSet, Context
from commands.dvorak.base import GameCommand, card_number, deck_name_problem, inspect, perform
from commands.dvorak.render import card_full, card_list
from commands.dvorak.storage.decks import TooManyDecks
from commands.dvorak.storage.player_decks import PlayerDeckStore, SavedPlayerDeck
from commands.tables import current_room
from commands.text import echoed, ljust, rjust
from games.dvorak.building import COPIES_PER_MOVE, NOT_A_CCG_ROOM, PASTED_DECK
from games.dvorak.deckformat import DeckCard, DefinitionError, export_json, export_mush, parse_deck
from games.dvorak.rules import RuleViolation, Table
from i18n import N_, _, ngettext
from server.safety import PlayerSafety
from server.text import clean_text, shown_width


class ViewSet(GameCommand):
    """List the room's card set (in a CCG room).

    Its version, the deck-building limits, and every card with its number and text.
    """

    key = "viewset"
    cost = 5

    async def run(self, ctx: Context, args: str) -> None:
        def look(table: Table) -> str:
            if not table.ccg:
                return _(
                    "This room plays the basic game: viewall lists its cards. The host turns the CCG game on between "
                    "games: set ccg=on"
                )
            size = len(table.set_cards())
            heading = ngettext(
                "The card set, version {version}: {n} card.", "The card set, version {version}: {n} cards.", size
            )
            cards = [card.number for card in table.set_cards()]
            none_yet = "  " + _("(none yet: propose some, newcard)")
            return "\n".join(
                [
                    f"{heading.format(version=table.state.deck_version, n=size)} {_limits(table)}",
                    card_list(table, cards, none_yet),
                ]
            )

        ctx.reply(await inspect(ctx, look))


def _limits(table: Table) -> str:
    most, least = int(table.settings["maxcopies"]), int(table.settings["decksize"])
    if most:
        copies = ngettext("at most {n} copy of a card", "at most {n} copies of a card", most).format(n=most)
    else:
        copies = _("any number of copies")
    # Translators: {copies} is how many copies of one card a deck may have ("at most 3 copies of a card").
    limits = ngettext("A deck has at least {n} card, {copies}.", "A deck has at least {n} cards, {copies}.", least)
    return limits.format(n=least, copies=copies)


def _deck_report(table: Table, player: int) -> str:
    """The player's deck: each set card and its copies, its size, and whether it is fit."""
    entries = table.deck_list(player)
    if not entries:
        empty = _("Your deck is empty. {limits} Add cards: deckbuild add <card number>=<copies>")
        return empty.format(limits=_limits(table))
    size = sum(copies for _card, copies in entries)
    lines = [ngettext("Your deck: {n} card.", "Your deck: {n} cards.", size).format(n=size)]
    lines += ["  " + _("{n} x {card}").format(n=copies, card=card_full(card)) for card, copies in entries]
    lines.append(_fitness(table, player))
    return "\n".join(lines)


def _fitness(table: Table, player: int) -> str:
    problems = table.deck_problems(player)
    if problems:
        verdict = _("It cannot be played yet: {problems}.").format(problems="; ".join(problems))
    else:
        verdict = _("It can be played.")
    built, now = table.built_against(player), table.state.deck_version
    if built is not None and built < now:
        older = _(
            "It was built against version {built} of the set, which is now at version {now}: its copies read as "
            "the set does now, but check it still suits you."
        )
        verdict += " " + older.format(built=built, now=now)
    return verdict


def _copies(args: str, usage: str) -> tuple[int, int]:
    """``<card number>[=<copies>]``: the card and how many copies (1 if not given)."""
    card, _equals, copies = args.partition("=")
    copies = copies.strip() or "1"
    if not (copies.isascii() and copies.isdigit()) or len(copies) > 4:
        refusal = _("How many copies? A whole number, 1 to {most}. Usage: {usage}")
        raise CommandError(refusal.format(most=COPIES_PER_MOVE, usage=usage))
    return card_number(card, usage), int(copies)


def _deck_cards(table: Table, player: int, author: Callable[[int, str], str]) -> list[DeckCard]:
    """Every copy in the player's deck, as a deck's cards (a card once per copy), each
    author named by ``author`` (see :meth:`server.safety.PlayerSafety.author`)."""
    return [
        DeckCard(card.name, card.kind_label, card.text, card.colour, author(card.author, card.author_name))
        for card, copies in table.deck_list(player)
        for _copy in range(copies)
    ]


class DeckBuild(GameCommand):
    """Build your deck for the CCG game, between games.

    In a CCG room: "deckbuild" alone shows your deck and whether it can be played. Add or
    take out copies of a set card by its number (viewset lists them), 1 to 100 at a time;
    clear empties it. Save it under a name (yours alone: nobody else sees, loads or
    deletes it), and load it here or in any room whose set has cards of those names.
    Export prints it in the archive's form (a loadcard line per copy) or as one line of
    JSON; import brings a deck pasted after it, in either form, on one line.

    The others see only how many cards your deck has. A copy reads as its set card does:
    an accepted edit of the set card changes every copy.
    """

    key = "deckbuild"
    aliases = ("build",)
    cost = 2
    usage = (
        "deckbuild",
        "deckbuild add <card>=<copies>",
        "deckbuild remove <card>=<copies>",
        "deckbuild clear",
        "deckbuild save <name>",
        "deckbuild load <name>",
        "deckbuild decks",
        "deckbuild delete <name>",
        "deckbuild export [mush|json]",
        "deckbuild import <deck>",
    )

    async def run(self, ctx: Context, args: str) -> None:
        word, _space, rest = args.strip().partition(" ")
        action = self._actions().get(word.lower() or "list")
        if action is None:
            raise CommandError(_("Usage: {usage}").format(usage="; ".join(self.usage)))
        await action(ctx, rest.strip())

    def _actions(self) -> dict[str, Callable[[Context, str], Awaitable[None]]]:
        return {
            "list": self._list,
            "check": self._list,
            "add": self._add,
            "remove": self._remove,
            "clear": self._clear,
            "save": self._save,
            "load": self._load,
            "decks": self._decks,
            "delete": self._delete,
            "export": self._export,
            "import": self._import,
        }

    async def _list(self, ctx: Context, args: str) -> None:
        actor = ctx.player.account_id
        ctx.reply(await inspect(ctx, lambda table: _deck_report(table, actor)))

    async def _add(self, ctx: Context, args: str) -> None:
        number, copies = _copies(args, "deckbuild add <card number>=<copies>")
        actor = ctx.player.account_id
        await perform(ctx, lambda table: table.build_add(actor, number, copies))

    async def _remove(self, ctx: Context, args: str) -> None:
        number, copies = _copies(args, "deckbuild remove <card number>=<copies>")
        actor = ctx.player.account_id
        await perform(ctx, lambda table: table.build_remove(actor, number, copies))

    async def _clear(self, ctx: Context, args: str) -> None:
        actor = ctx.player.account_id
        await perform(ctx, lambda table: table.build_clear(actor))

    async def _save(self, ctx: Context, args: str) -> None:
        name = _deck_name(args, "deckbuild save <name>")
        actor, room = ctx.player.account_id, current_room(ctx)

        def look(table: Table) -> tuple[list[tuple[str, int]], int]:
            if not table.ccg:
                raise RuleViolation(_(NOT_A_CCG_ROOM))
            return [(card.name, copies) for card, copies in table.deck_list(actor)], table.state.deck_version

        cards, version = await inspect(ctx, look)
        if not cards:
            raise CommandError(_("Your deck is empty: there is nothing to save."))
        deck = SavedPlayerDeck(name, room.name, version, cards, datetime.now(UTC))
        try:
            replaced = await ctx.services.get(PlayerDeckStore).save(actor, deck)
        except TooManyDecks as quota:
            # The English says "decks" for one too.
            refusal = ngettext(
                "You have {n} saved decks of your own, the most a player may keep: save over one, or delete one "
                "(deckbuild decks, deckbuild delete <name>).",
                "You have {n} saved decks of your own, the most a player may keep: save over one, or delete one "
                "(deckbuild decks, deckbuild delete <name>).",
                quota.limit,
            )
            raise CommandError(refusal.format(n=quota.limit)) from None
        if replaced:
            saved = ngettext(
                "You save your deck as {deck} again ({n} card).",
                "You save your deck as {deck} again ({n} cards).",
                deck.card_count,
            )
        else:
            saved = ngettext(
                "You save your deck as {deck} ({n} card).", "You save your deck as {deck} ({n} cards).", deck.card_count
            )
        ctx.reply(saved.format(deck=name, n=deck.card_count))

    async def _load(self, ctx: Context, args: str) -> None:
        name = _deck_name(args, "deckbuild load <name>")
        deck = await ctx.services.get(PlayerDeckStore).load(ctx.player.account_id, name)
        if deck is None:
            refusal = _('You have no saved deck called "{name}" (deckbuild decks lists yours).')
            raise CommandError(refusal.format(name=echoed(name)))
        room = current_room(ctx)
        await self._bring(ctx, deck.name, deck.cards)
        if deck.room_name.casefold() != room.name.casefold():
            elsewhere = _(
                "It was built against the set of room {room} (version {version}); its cards were found here by name."
            )
            ctx.reply(elsewhere.format(room=deck.room_name, version=deck.set_version))
        else:
            version = await inspect(ctx, lambda table: table.state.deck_version)
            if deck.set_version < version:
                older = _("It was built against version {built} of this set, which is now at {now}.")
                ctx.reply(older.format(built=deck.set_version, now=version))

    async def _bring(self, ctx: Context, name: str, cards: list[tuple[str, int]]) -> None:
        actor = ctx.player.account_id
        missing = await perform(ctx, lambda table: table.bring_deck(actor, name, cards))
        if missing:
            refusal = _("This room's set has no card called {names}: nothing was changed.")
            raise CommandError(refusal.format(names=", ".join(missing)))

    async def _decks(self, ctx: Context, args: str) -> None:
        decks = await ctx.services.get(PlayerDeckStore).list(ctx.player.account_id)
        if not decks:
            ctx.reply(_("You have saved no decks. In a CCG room, deckbuild save <name> saves yours."))
            return
        headings = [_("Deck"), _("Cards"), _("Built from (set version)"), _("Saved (UTC)")]
        name_width, count_width = max(30, shown_width(headings[0])), max(5, shown_width(headings[1]))
        built_width = max(30, shown_width(headings[2]))
        # The heading of the last column starts a column later than its values, as it always has.
        lines = [
            f"{ljust(headings[0], name_width)} {rjust(headings[1], count_width)}  "
            f"{ljust(headings[2], built_width + 1)} {headings[3]}"
        ]
        for deck in decks:
            built = f"{deck.room_name} ({deck.set_version})"
            lines.append(
                f"{deck.name:<{name_width}} {deck.card_count:>{count_width}}  {built:<{built_width}} "
                f"{deck.saved_at:%Y-%m-%d %H:%M}"
            )
        ctx.reply("\n".join(lines))

    async def _delete(self, ctx: Context, args: str) -> None:
        name = _deck_name(args, "deckbuild delete <name>")
        if not await ctx.services.get(PlayerDeckStore).delete(ctx.player.account_id, name):
            raise CommandError(_('You have no saved deck called "{name}".').format(name=echoed(name)))
        ctx.reply(_("You delete your saved deck {deck}.").format(deck=name))

    async def _export(self, ctx: Context, args: str) -> None:
        form = args.lower() or "mush"
        if form not in ("mush", "json"):
            raise CommandError(_("Usage: {usage}").format(usage="deckbuild export [mush|json]"))
        # The deck's name in the export (a file's own words, read back by any server): English.
        actor, name = ctx.player.account_id, f"{ctx.player.name}'s deck"
        author = ctx.services.get(PlayerSafety).author
        cards = await inspect(ctx, lambda table: _deck_cards(table, actor, author))
        if not cards:
            raise CommandError(_("Your deck is empty: there is nothing to export."))
        if form == "json":
            # One line, to paste back after deckbuild import.
            ctx.reply(json.dumps(json.loads(export_json(name, cards, [])), ensure_ascii=False), wrap=False)
        else:
            ctx.reply(export_mush(name, cards, []), wrap=False)

    async def _import(self, ctx: Context, args: str) -> None:
        if not args:
            refusal = _("Usage: {usage} (the archive's loadcard lines or JSON, on one line)")
            raise CommandError(refusal.format(usage="deckbuild import <deck>"))
        try:
            parsed = parse_deck(args)
        except DefinitionError as error:
            raise CommandError(str(error)) from None
        if not parsed.cards:
            raise CommandError(_("No cards were found in that deck (loadcard <name>/<type>/<text> ..., or JSON)."))
        # A JSON deck's text was not cleaned with the line it came in (escapes in strings).
        counts = Counter(clean_text(card.name).strip() for card in parsed.cards)
        await self._bring(ctx, PASTED_DECK, list(counts.items()))


def _deck_name(args: str, usage: str) -> str:
    name = args.strip()
    problem = deck_name_problem(name) if name else _("Usage: {usage}").format(usage=usage)
    if problem:
        raise CommandError(problem)
    return name


BUILD_COMMANDS = CommandSet(N_("The CCG game"), [ViewSet(), DeckBuild()])
