"""The CCG game: a room's card set and the decks players build from it.

With the ``ccg`` setting on, the room's approved cards are its **card set** (zone
``set``; never drawn) and each seated player builds a **deck** of copies of set cards
(zone ``built``, theirs). A copy has its set card's words: an accepted edit of a set card
changes every copy at once, and removing a set card removes its copies. At the start of
a game every player's deck becomes their own draw pile (decks play against each other as
in the multi-deck game); when it ends, every copy goes back to its deck.

Between games the set changes only by unanimous vote, whatever the ``vote`` setting;
during a CCG game nobody may propose or edit cards. Each change of the set makes its
version (``deck_version``) one more; a deck remembers the version it was last built
against, so one built against an older version says so.

Copies are matched to set cards by name when a saved deck is brought in, so a set's
card names are kept unique.
"""

from __future__ import annotations

from collections import Counter

from games.dvorak.core import Event, RuleViolation, TableCore
from games.dvorak.state import (
    BUILT,
    DECK_ZONES,
    DRAW,
    EDIT,
    NEW_CARD,
    NO_OWNER,
    PLAYING,
    REMOVED,
    SET,
    Card,
    card_dict,
    card_face,
)
from i18n import N_, _, ngettext

#: The most copies one build command adds or removes.
COPIES_PER_MOVE = 100
#: What a deck brought from a paste (``deckbuild import``) is called in its event.
PASTED_DECK = "pasted"
#: The most cards a deck may hold.
DECK_MAX = 500
#: The refusal of deck building outside a CCG room.
NOT_A_CCG_ROOM = N_("Decks are built in a CCG room (the host turns it on between games: set ccg=on).")


class DeckBuilding(TableCore):
    """The card set and the decks built from it."""

    # -- reading -----------------------------------------------------------------------

    @property
    def ccg(self) -> bool:
        return bool(self.settings.get("ccg"))

    def set_cards(self) -> list[Card]:
        """The cards of the set, in number order."""
        return [self.state.cards[n] for n in sorted(self.state.pile(SET, NO_OWNER))]

    def built(self, player: int) -> list[int]:
        """The copies in ``player``'s deck between games."""
        return self.state.pile(BUILT, player)

    def deck_list(self, player: int) -> list[tuple[Card, int]]:
        """``player``'s deck as set cards and how many copies of each, in number order
        (between games; during one, the copies are in play and counted where they are)."""
        counts = Counter(copy_of for n in self.built(player) if (copy_of := self.state.cards[n].copy_of) is not None)
        return [(self.state.cards[number], counts[number]) for number in sorted(counts)]

    def deck_problems(self, player: int) -> list[str]:
        """What keeps ``player``'s deck out of a game by the set's limits (none: it is fit)."""
        size, least, most = len(self.built(player)), int(self.settings["decksize"]), int(self.settings["maxcopies"])
        problems = []
        if size < least:
            short = ngettext(
                "it has {n} card; the set asks at least {least}",
                "it has {n} cards; the set asks at least {least}",
                size,
            )
            problems.append(short.format(n=size, least=least))
        if most:
            problems += [
                ngettext(
                    "it has {n} copy of {card}; the set allows {most}",
                    "it has {n} copies of {card}; the set allows {most}",
                    copies,
                ).format(n=copies, card=_named(card), most=most)
                for card, copies in self.deck_list(player)
                if copies > most
            ]
        return problems

    def built_against(self, player: int) -> int | None:
        """The set version ``player``'s deck was last built against (None: never built)."""
        return self.state.built_against.get(player)

    def set_card_named(self, name: str) -> Card | None:
        key = name.strip().casefold()
        return next((card for card in self.set_cards() if card.name.casefold() == key), None)

    # -- building ----------------------------------------------------------------------

    def build_add(self, actor: int, number: int, copies: int) -> None:
        """Add ``copies`` copies of set card ``number`` to your deck (between games)."""
        self._building(actor)
        card = self._set_card(number)
        self._copies_in_range(copies)
        size = len(self.built(actor)) + copies
        if size > DECK_MAX:
            raise RuleViolation(
                _("A deck holds at most {most} cards; yours would hold {n}.").format(most=DECK_MAX, n=size)
            )
        event = self._event("build", actor, card=number, added=copies)
        self._add_copies(event, card, actor, copies)
        self._built_now(event, actor)

    def build_remove(self, actor: int, number: int, copies: int) -> None:
        """Take ``copies`` copies of set card ``number`` out of your deck (between games)."""
        self._building(actor)
        self._copies_in_range(copies)
        mine = [n for n in self.built(actor) if self.state.cards[n].copy_of == number]
        if not mine:
            raise RuleViolation(_("Your deck has no copy of #{number}.").format(number=number))
        if copies > len(mine):
            refusal = ngettext(
                "Your deck has only {n} copy of #{number}.", "Your deck has only {n} copies of #{number}.", len(mine)
            )
            raise RuleViolation(refusal.format(n=len(mine), number=number))
        event = self._event("build", actor, card=number, removed=copies)
        for copy in mine[-copies:]:
            self._move(event, copy, REMOVED, NO_OWNER)
        self._built_now(event, actor)

    def build_clear(self, actor: int) -> None:
        """Empty your deck (between games)."""
        self._building(actor)
        mine = list(self.built(actor))
        if not mine:
            raise RuleViolation(_("Your deck is already empty."))
        event = self._event("build", actor, cleared=len(mine))
        for copy in mine:
            self._move(event, copy, REMOVED, NO_OWNER)
        self._built_now(event, actor)

    def bring_deck(self, actor: int, name: str, entries: list[tuple[str, int]]) -> list[str]:
        """Replace your deck with a saved or pasted one: ``entries`` are set card names
        and copies. Every name must be a card of this set. Returns the names not found
        (then nothing changed) or, when it is brought, an empty list."""
        self._building(actor)
        found: list[tuple[Card, int]] = []
        missing = []
        for card_name_, copies in entries:
            card = self.set_card_named(card_name_)
            if card is None:
                missing.append(card_name_)
            else:
                found.append((card, copies))
        if missing:
            return missing
        total = sum(copies for _card, copies in found)
        if not 0 < total <= DECK_MAX or any(copies < 1 for _card, copies in found):
            raise RuleViolation(_("A deck holds 1 to {most} cards; that one has {n}.").format(most=DECK_MAX, n=total))
        event = self._event("build", actor, brought=name, added=total)
        for copy in list(self.built(actor)):
            self._move(event, copy, REMOVED, NO_OWNER)
        for card, copies in found:
            self._add_copies(event, card, actor, copies)
        self._built_now(event, actor)
        return []

    def _building(self, actor: int) -> None:
        self._seated(actor)
        if not self.ccg:
            raise RuleViolation(_(NOT_A_CCG_ROOM))
        if self.state.phase == PLAYING:
            raise RuleViolation(_("Decks change between games, not during one."))

    def _set_card(self, number: int) -> Card:
        card = self.card(number)
        if card.zone != SET:
            raise RuleViolation(
                _("#{number} is not a card of this room's set (viewset lists them).").format(number=number)
            )
        return card

    @staticmethod
    def _copies_in_range(copies: int) -> None:
        if not 1 <= copies <= COPIES_PER_MOVE:
            raise RuleViolation(_("Add or remove 1 to {most} copies at a time.").format(most=COPIES_PER_MOVE))

    def _add_copies(self, event: Event, card: Card, owner: int, copies: int) -> None:
        """``copies`` copies of ``card`` into ``owner``'s deck: first the copies of it they
        took out before (each the same copy again, reading as the set card does now), then
        new ones. So building and clearing a deck again and again does not make the room
        ever bigger."""
        spare = [
            number
            for number in self.state.pile(REMOVED, NO_OWNER)
            if self.state.cards[number].copy_of == card.number and self.state.cards[number].deck_owner == owner
        ]
        face = card_face(card)
        for number in spare[:copies]:
            if card_face(self.state.cards[number]) != face:
                self._change(event, ["face", number, face])
            self._move(event, number, BUILT, owner)
        for _unused in range(copies - len(spare[:copies])):
            number = self.state.next_number
            copy = Card(number, **face, author=card.author, author_name=card.author_name, copy_of=card.number)
            copy.zone, copy.owner, copy.deck_owner = BUILT, owner, owner
            self._change(event, ["add", card_dict(copy)])

    def _built_now(self, event: Event, player: int) -> None:
        event.data["size"] = len(self.built(player))
        self._change(event, ["built-against", player, self.state.deck_version])

    # -- the set changing --------------------------------------------------------------

    def _copies_of(self, number: int) -> list[int]:
        return sorted(n for n, card in self.state.cards.items() if card.copy_of == number and card.zone != REMOVED)

    def _copies_follow(self, event: Event, card: Card) -> None:
        """An edit of ``card`` was accepted: every copy of it says the same."""
        for number in self._copies_of(card.number):
            self._change(event, ["face", number, card_face(card)])

    def _copies_go(self, event: Event, number: int) -> None:
        """Set card ``number`` was removed: so are its copies, from every deck."""
        for copy in self._copies_of(number):
            self._move(event, copy, REMOVED, NO_OWNER)

    def _unique_in_set(self, name: str, besides: int | None = None) -> None:
        """In a CCG room, set cards are told apart by name (decks list them by name)."""
        if not self.ccg:
            return
        key = name.strip().casefold()
        for card in [*self.set_cards(), *(self.state.cards[p.subject] for p in self.state.proposals.values())]:
            if card.name.casefold() == key and card.number != besides and not card.is_rule:
                if card.zone == SET:
                    refusal = _("The set already has a card called {name} (#{number}).")
                else:
                    refusal = _("The set is voting on a card called {name} (#{number}).")
                raise RuleViolation(refusal.format(name=card.name, number=card.number))

    def _switch_ccg(self, event: Event, on: bool) -> None:
        """The host turned the CCG game on (the approved cards become the set) or off
        (the set becomes the deck again; built decks wait, untouched, for it to come back)."""
        if on:
            cards = [c for c in self.deck_cards() if c.copy_of is None]
            # Cards waiting for a vote join the set when accepted: their names count too.
            waiting = [self.state.cards[p.subject].name for p in self.state.proposals.values() if p.kind == NEW_CARD]
            numbers = {card.number for card in cards}
            waiting += [
                p.face["name"]
                for p in self.state.proposals.values()
                if p.kind == EDIT
                and p.face
                and p.subject in numbers
                and p.face["name"].casefold() != self.state.cards[p.subject].name.casefold()
            ]
            every = [card.name for card in cards] + waiting
            names = Counter(name.casefold() for name in every)
            twice = sorted({name for name in every if names[name.casefold()] > 1})
            if twice:
                refusal = _(
                    "A set tells its cards apart by name, and {names} is on more than one card: rename or remove the "
                    "others first."
                )
                raise RuleViolation(refusal.format(names=", ".join(twice)))
            for card in cards:
                if card.deck_owner != NO_OWNER:
                    self._change(event, ["deck", card.number, NO_OWNER])
                self._move(event, card.number, SET, NO_OWNER)
        else:
            for card in self.set_cards():
                self._move(event, card.number, DRAW, NO_OWNER)

    # -- games -------------------------------------------------------------------------

    def _decks_unfit(self, players: list[int]) -> list[str]:
        return [
            _("{name}'s deck: {problem}").format(name=self.name_of(player), problem=problem)
            for player in players
            for problem in self.deck_problems(player)
        ]

    def _decks_into_play(self, event: Event, players: list[int]) -> None:
        """Each player's deck becomes their own draw pile."""
        for player in players:
            for number in list(self.built(player)):
                self._move(event, number, DRAW, player)

    def _decks_back(self, event: Event, player: int | None = None) -> None:
        """Every copy in the game (or only ``player``'s) goes back to its deck."""
        for card in sorted(self.state.cards.values(), key=lambda c: c.number):
            if card.copy_of is None or card.zone not in DECK_ZONES or player not in (None, card.deck_owner):
                continue
            if player is not None:
                # Mid-game a Thing leaving play takes what is played on it (at the end, all goes back).
                self._leave_play(event, card)
            self._move(event, card.number, BUILT, card.deck_owner)


def _named(card: Card) -> str:
    return f"#{card.number} {card.name}"
