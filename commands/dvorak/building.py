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
from commands.dvorak.base import GameCommand, card_number, inspect, perform
from commands.dvorak.render import card_full, card_list
from commands.dvorak.storage.decks import TooManyDecks
from commands.dvorak.storage.player_decks import PlayerDeckStore, SavedPlayerDeck
from commands.tables import current_room
from commands.text import echoed, plural
from games.dvorak.building import COPIES_PER_MOVE, PASTED_DECK
from games.dvorak.deckformat import DeckCard, DefinitionError, export_json, export_mush, parse_deck
from games.dvorak.rules import RuleViolation, Table
from i18n import N_
from server.rooms import check_room_name
from server.safety import PlayerSafety
from server.text import clean_text


class ViewSet(GameCommand):
    """List the room's card set (in a CCG room).

    Its version, the deck-building limits, and every card with its number and text.
    """

    key = "viewset"
    cost = 5

    async def run(self, ctx: Context, args: str) -> None:
        def look(table: Table) -> str:
            if not table.ccg:
                return (
                    "This room plays the basic game: viewall lists its cards. The host turns the CCG game on between "
                    "games: set ccg=on"
                )
            return "\n".join(
                [
                    f"The card set, version {table.state.deck_version}: {plural(len(table.set_cards()), 'card')}. "
                    f"{_limits(table)}",
                    card_list(
                        table, [card.number for card in table.set_cards()], "  (none yet: propose some, newcard)"
                    ),
                ]
            )

        ctx.reply(await inspect(ctx, look))


def _limits(table: Table) -> str:
    most = int(table.settings["maxcopies"])
    copies = f"at most {plural(most, 'copy', 'copies')} of a card" if most else "any number of copies"
    return f"A deck has at least {plural(int(table.settings['decksize']), 'card')}, {copies}."


def _deck_report(table: Table, player: int) -> str:
    """The player's deck: each set card and its copies, its size, and whether it is fit."""
    entries = table.deck_list(player)
    if not entries:
        return f"Your deck is empty. {_limits(table)} Add cards: deckbuild add <card number>=<copies>"
    lines = [f"Your deck: {plural(sum(copies for _, copies in entries), 'card')}."]
    lines += [f"  {copies} x {card_full(card)}" for card, copies in entries]
    lines.append(_fitness(table, player))
    return "\n".join(lines)


def _fitness(table: Table, player: int) -> str:
    problems = table.deck_problems(player)
    verdict = "It can be played." if not problems else "It cannot be played yet: " + "; ".join(problems) + "."
    built, now = table.built_against(player), table.state.deck_version
    if built is not None and built < now:
        verdict += (
            f" It was built against version {built} of the set, which is now at version {now}: its copies read as "
            "the set does now, but check it still suits you."
        )
    return verdict


def _copies(args: str, usage: str) -> tuple[int, int]:
    """``<card number>[=<copies>]``: the card and how many copies (1 if not given)."""
    card, _, copies = args.partition("=")
    copies = copies.strip() or "1"
    if not (copies.isascii() and copies.isdigit()) or len(copies) > 4:
        raise CommandError(f"How many copies? A whole number, 1 to {COPIES_PER_MOVE}. Usage: {usage}")
    return card_number(card, usage), int(copies)


def _deck_cards(table: Table, player: int, author: Callable[[int, str], str]) -> list[DeckCard]:
    """Every copy in the player's deck, as a deck's cards (a card once per copy), each
    author named by ``author`` (see :meth:`server.safety.PlayerSafety.author`)."""
    return [
        DeckCard(card.name, card.kind_label, card.text, card.colour, author(card.author, card.author_name))
        for card, copies in table.deck_list(player)
        for _ in range(copies)
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
        word, _, rest = args.strip().partition(" ")
        action = self._actions().get(word.lower() or "list")
        if action is None:
            raise CommandError("Usage: " + "; ".join(self.usage))
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
                raise RuleViolation("Decks are built in a CCG room (the host turns it on between games: set ccg=on).")
            return [(card.name, copies) for card, copies in table.deck_list(actor)], table.state.deck_version

        cards, version = await inspect(ctx, look)
        if not cards:
            raise CommandError("Your deck is empty: there is nothing to save.")
        deck = SavedPlayerDeck(name, room.name, version, cards, datetime.now(UTC))
        try:
            replaced = await ctx.services.get(PlayerDeckStore).save(actor, deck)
        except TooManyDecks as quota:
            raise CommandError(
                f"You have {quota.limit} saved decks of your own, the most a player may keep: save over one, or "
                "delete one (deckbuild decks, deckbuild delete <name>)."
            ) from None
        ctx.reply(f"You save your deck as {name}{' again' if replaced else ''} ({plural(deck.card_count, 'card')}).")

    async def _load(self, ctx: Context, args: str) -> None:
        name = _deck_name(args, "deckbuild load <name>")
        deck = await ctx.services.get(PlayerDeckStore).load(ctx.player.account_id, name)
        if deck is None:
            raise CommandError(f'You have no saved deck called "{echoed(name)}" (deckbuild decks lists yours).')
        room = current_room(ctx)
        await self._bring(ctx, deck.name, deck.cards)
        if deck.room_name.casefold() != room.name.casefold():
            ctx.reply(
                f"It was built against the set of room {deck.room_name} (version {deck.set_version}); its cards were "
                "found here by name."
            )
        else:
            version = await inspect(ctx, lambda table: table.state.deck_version)
            if deck.set_version < version:
                ctx.reply(f"It was built against version {deck.set_version} of this set, which is now at {version}.")

    async def _bring(self, ctx: Context, name: str, cards: list[tuple[str, int]]) -> None:
        actor = ctx.player.account_id
        missing = await perform(ctx, lambda table: table.bring_deck(actor, name, cards))
        if missing:
            raise CommandError(f"This room's set has no card called {', '.join(missing)}: nothing was changed.")

    async def _decks(self, ctx: Context, args: str) -> None:
        decks = await ctx.services.get(PlayerDeckStore).list(ctx.player.account_id)
        if not decks:
            ctx.reply("You have saved no decks. In a CCG room, deckbuild save <name> saves yours.")
            return
        lines = [f"{'Deck':<30} {'Cards':>5}  Built from (set version)        Saved (UTC)"]
        for deck in decks:
            built = f"{deck.room_name} ({deck.set_version})"
            lines.append(f"{deck.name:<30} {deck.card_count:>5}  {built:<30} {deck.saved_at:%Y-%m-%d %H:%M}")
        ctx.reply("\n".join(lines))

    async def _delete(self, ctx: Context, args: str) -> None:
        name = _deck_name(args, "deckbuild delete <name>")
        if not await ctx.services.get(PlayerDeckStore).delete(ctx.player.account_id, name):
            raise CommandError(f'You have no saved deck called "{echoed(name)}".')
        ctx.reply(f"You delete your saved deck {name}.")

    async def _export(self, ctx: Context, args: str) -> None:
        form = args.lower() or "mush"
        if form not in ("mush", "json"):
            raise CommandError("Usage: deckbuild export [mush|json]")
        actor, name = ctx.player.account_id, f"{ctx.player.name}'s deck"
        author = ctx.services.get(PlayerSafety).author
        cards = await inspect(ctx, lambda table: _deck_cards(table, actor, author))
        if not cards:
            raise CommandError("Your deck is empty: there is nothing to export.")
        if form == "json":
            # One line, to paste back after deckbuild import.
            ctx.reply(json.dumps(json.loads(export_json(name, cards, [])), ensure_ascii=False), wrap=False)
        else:
            ctx.reply(export_mush(name, cards, []), wrap=False)

    async def _import(self, ctx: Context, args: str) -> None:
        if not args:
            raise CommandError("Usage: deckbuild import <deck> (the archive's loadcard lines or JSON, on one line)")
        try:
            parsed = parse_deck(args)
        except DefinitionError as error:
            raise CommandError(str(error)) from None
        if not parsed.cards:
            raise CommandError("No cards were found in that deck (loadcard <name>/<type>/<text> ..., or JSON).")
        # A JSON deck's text was not cleaned with the line it came in (escapes in strings).
        counts = Counter(clean_text(card.name).strip() for card in parsed.cards)
        await self._bring(ctx, PASTED_DECK, list(counts.items()))


def _deck_name(args: str, usage: str) -> str:
    name = args.strip()
    problem = check_room_name(name) if name else f"Usage: {usage}"
    if problem:
        raise CommandError(problem.replace("room name", "deck name"))
    return name


BUILD_COMMANDS = CommandSet(N_("The CCG game"), [ViewSet(), DeckBuild()])
