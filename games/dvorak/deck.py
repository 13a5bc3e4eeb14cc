"""Deck moves: loading approved cards and rules, clearing the deck, restoring a saved table.

A saved table (:func:`snapshot`) is plain JSON-ready data: every card that is not
removed, each pile in order, the seats, settings, turn and pending votes (a saved deck
adds each card's earlier versions). Restoring it into a room keeps each card's number
where the room has no other card of that number: a card the room already holds (removed
when the deck is cleared for the load, with the same face) comes back as itself, with
its history; a number another card of the room has is replaced by a new one after the
room's own (numbers are never reused within a room). Everything else comes back as it
was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from games.dvorak.building import DeckBuilding
from games.dvorak.core import Event, RuleViolation, check_card_face
from games.dvorak.deckformat import CardDefinition, DeckCard
from games.dvorak.state import (
    BUILT,
    DECK_ZONES,
    DISCARD,
    DRAW,
    HAND,
    NO_OWNER,
    PLAY,
    PLAYING,
    REMOVED,
    RULES,
    SET,
    WAITING,
    Card,
    Seat,
    TableState,
    Turn,
    card_dict,
    card_face,
    is_approved,
    proposal_dict,
    proposal_from_dict,
    seat_dicts,
)
from i18n import _

SNAPSHOT_FORMAT = 1


def snapshot(state: TableState) -> dict[str, Any]:
    """Everything needed to restore the table later, as JSON-ready data."""
    return {
        "format": SNAPSHOT_FORMAT,
        "cards": [card_dict(card) for card in state.cards.values() if card.zone != REMOVED],
        "piles": [[zone, owner, list(pile)] for (zone, owner), pile in state.piles.items() if zone != REMOVED],
        "seats": seat_dicts(state.seats),
        "settings": dict(state.settings),
        "turn": asdict(state.turn),
        "phase": state.phase,
        "result": state.result,
        "proposals": [proposal_dict(p) for p in state.proposals.values()],
        "face_down": [[number, label] for number, label in sorted(state.face_down.items())],
    }


def deck_contents(
    state: TableState, author: Callable[[int, str], str] = lambda _, name: name
) -> tuple[list[DeckCard], list[DeckCard]]:
    """The approved cards and the rules in force, in number order, as exports need them;
    ``author`` names each card's author from their account and the name the card keeps
    (so that a deleted player can be named "a former player")."""
    cards = sorted(state.cards.values(), key=lambda c: c.number)
    approved = [
        DeckCard(c.name, c.kind_label, c.text, c.colour, author(c.author, c.author_name))
        for c in cards
        if is_approved(c)
    ]
    rules = [
        DeckCard(c.name, "Rule", c.text, c.colour, author(c.author, c.author_name)) for c in cards if c.zone == RULES
    ]
    return approved, rules


class DeckMoves(DeckBuilding):
    """Moves that fill, empty and restore the deck."""

    def load_card(
        self, actor: int, author_name: str, name: str, kind: str, text: str, colour: str = "", forced: bool = False
    ) -> int:
        """Add an approved card to the deck without a vote (the host; in a multi-deck game,
        any seated player to their own deck; while a game is running, only forced, and
        then it is shuffled in); its number."""
        multideck = bool(self.settings["multideck"])
        self._may_load(actor, "loadcard", forced, own_deck=multideck)
        name, kind, text = check_card_face(name, kind, text)
        number = self.state.next_number
        owner = actor if multideck else NO_OWNER
        card = Card(number, name, kind, text, actor, author_name, DRAW, owner, deck_owner=owner, colour=colour)
        event = self._event("load", actor, forced, card=number)
        self._change(event, ["add", card_dict(card)])
        self._set_changed(event)
        if self.state.phase == PLAYING:
            pile = self.state.pile(DRAW, owner)
            self._move(event, number, DRAW, owner, self.rng.randint(0, len(pile) - 1))
        return number

    def load_rule(self, actor: int, author_name: str, name: str, text: str, forced: bool = False) -> int:
        """Put a special rule in force without a vote, as deck imports do (host; while a
        game is running, only forced); its number."""
        self._may_load(actor, "loadrule", forced)
        name, kind, text = check_card_face(name, "Rule", text)
        number = self.state.next_number
        rule = Card(number, name, kind, text, actor, author_name, RULES, is_rule=True)
        event = self._event("loadrule", actor, forced, card=number)
        self._change(event, ["add", card_dict(rule)])
        self._set_changed(event)
        return number

    def _may_load(self, actor: int, command: str, forced: bool, own_deck: bool = False) -> None:
        """Cards and rules come in without a vote only from the host (or, into their own
        deck in a multi-deck game, from any seated player), and during a game only when
        forced (a card allows it; the table is told)."""
        self._seated(actor)
        self._set_changes_by_vote()
        if not own_deck:
            self._host(actor)
        if self.state.phase == PLAYING and not forced:
            refusal = _(
                "A game is running: new cards are proposed and voted on now (newcard, newrule), or, if a card allows "
                "it, the host types force {command} ..."
            )
            raise RuleViolation(refusal.format(command=command))

    def _set_changes_by_vote(self) -> None:
        """In a CCG room the set changes only by unanimous vote: no loading or clearing
        (the operator's import aside)."""
        if self.ccg:
            raise RuleViolation(
                _(
                    "This is a CCG room: its card set changes only by unanimous vote (newcard, newrule, editcard, "
                    "removecard). The host can load or clear cards between games with ccg off, then turn it on."
                )
            )

    def import_cards(self, name: str, cards: list[CardDefinition], rules: list[CardDefinition], clear: bool) -> int:
        """The operator's import (``dvorak-mush deck import``): approved cards and rules
        loaded in one event, after clearing the deck if ``clear``. Returns how many."""
        for definition in [*cards, *rules]:
            check_card_face(definition.name, definition.kind, definition.text)
        event = self._event("import", NO_OWNER, name=name, count=len(cards) + len(rules))
        if clear:
            self._clear(event)
        self._set_changed(event)
        zone = SET if self.ccg else DRAW
        for definition in cards:
            number = self.state.next_number
            owner = NO_OWNER
            face = check_card_face(definition.name, definition.kind, definition.text)
            self._unique_in_set(face[0])
            card = Card(number, *face, NO_OWNER, definition.creator or name, zone, owner, colour=definition.colour)
            self._change(event, ["add", card_dict(card)])
            if self.state.phase == PLAYING and zone == DRAW:
                self._move(event, number, DRAW, owner, self.rng.randint(0, len(self.state.pile(DRAW, owner)) - 1))
        for definition in rules:
            number = self.state.next_number
            face = check_card_face(definition.name, "Rule", definition.text)
            self._change(event, ["add", card_dict(Card(number, *face, NO_OWNER, name, RULES, is_rule=True))])
        return len(cards) + len(rules)

    def clear_deck(self, actor: int, forced: bool = False) -> None:
        """Remove every card and rule, and call off every vote (host)."""
        self._host(actor)
        self._set_changes_by_vote()
        if self.state.phase == PLAYING and not forced:
            raise RuleViolation(_("A game is running: end it first (endgame), or force cleardeck."))
        event = self._event("cleardeck", actor, forced)
        self._clear(event)

    def _clear(self, event: Event) -> None:
        gone = [card.number for card in self.state.cards.values() if card.zone != REMOVED]
        event.data["count"] = sum(1 for number in gone if self.state.cards[number].copy_of is None)
        self._set_changed(event)
        for proposal_id in list(self.state.proposals):
            self._change(event, ["decide", proposal_id, "withdrawn"])
        for number in gone:
            self._move(event, number, REMOVED, NO_OWNER)

    def restore(self, actor: int, name: str, saved: dict[str, Any], forced: bool = False) -> None:
        """Replace the table with a saved one (host).

        Cards (with their numbers where they are free, and their earlier versions),
        piles in order, special rules, settings and pending votes always come back.
        The game itself (hands, things in play, the turn) comes back only if the same
        players are seated now as when it was saved; otherwise every card of the deck is
        put in the draw pile, ready for a new game with the players who are here. A game
        running here would be lost: only forced.
        """
        self._host(actor)
        self._set_changes_by_vote()
        if self.state.phase == PLAYING and not forced:
            raise RuleViolation(
                _("A game is running: end it first (endgame), or force loaddeck (the game here is replaced).")
            )
        if saved.get("format") != SNAPSHOT_FORMAT:
            raise RuleViolation(_("The saved deck {name} is in a format this server cannot read.").format(name=name))
        saved_seats = [Seat(**seat) for seat in saved["seats"]]
        resumed = {s.account_id for s in saved_seats} == {s.account_id for s in self.state.seats} and bool(saved_seats)
        event = self._event("loaddeck", actor, forced, name=name, resumed=resumed)
        self._clear(event)
        cards = {card["number"]: card for card in saved["cards"]}
        numbers = self._numbers_for(cards)
        histories = saved.get("versions", {})
        piles = saved["piles"] if resumed else _folded_into_draw_pile(saved["piles"], cards)
        for zone, owner, order in piles:
            for number in order:
                card = cards[number]
                attached = card["attached_to"] if resumed else None
                placed = {
                    **card,
                    "number": numbers[number],
                    "zone": zone,
                    "owner": owner,
                    "attached_to": numbers[attached] if attached is not None else None,
                }
                if not resumed:
                    # A built deck stays its builder's; the rest is the shared deck's.
                    placed["deck_owner"] = owner if zone == BUILT else NO_OWNER
                if card.get("copy_of") is not None:
                    placed["copy_of"] = numbers[card["copy_of"]]
                if placed["number"] in self.state.cards:
                    self._bring_back(event, placed)
                else:
                    history = histories.get(str(number))
                    self._change(event, ["add", placed, history] if history else ["add", placed])
        for setting, value in saved["settings"].items():
            if resumed or setting != "multideck":
                self._change(event, ["setting", setting, value])
        if resumed:
            self._set_seats(event, saved_seats)
            self._change(event, ["turn", saved["turn"]])
            self._set(event, "phase", saved["phase"])
            self._set(event, "result", saved["result"])
            for number, label in saved.get("face_down", []):
                self._change(event, ["facedown", numbers[number], label])
        else:
            self._change(event, ["turn", asdict(Turn())])
            self._set(event, "phase", WAITING)
        renumbered: dict[int, int] = {}
        for data in sorted(saved["proposals"], key=lambda p: p["id"]):
            proposal = proposal_from_dict(data)
            renumbered[proposal.id] = self.state.next_proposal
            proposal.id = self.state.next_proposal
            proposal.subject = numbers[proposal.subject]
            proposal.bundle = renumbered.get(proposal.bundle) if proposal.bundle is not None else None
            self._change(event, ["propose", proposal_dict(proposal)])
        self._open_vote(event, sorted(renumbered.values()))
        new = sorted(numbers[n] for n in numbers if numbers[n] != n)
        if new:
            event.data["renumbered"] = [len(new), new[0]]
        # Counted as savedeck counts: the cards of the deck, not rules nor cards in a vote.
        event.data["count"] = sum(1 for card in saved["cards"] if card["zone"] in DECK_ZONES)

    def _numbers_for(self, cards: dict[int, dict[str, Any]]) -> dict[int, int]:
        """Each saved card's number in this room: its own, unless another card of the room
        has it; then a new one, after every number in use."""
        kept = {number for number, card in cards.items() if self._free_for(number, card)}
        # A copy comes back as itself only with its set card: else it is made anew, of the new number.
        kept -= {number for number in kept if cards[number].get("copy_of") not in (None, *kept)}
        following = max([self.state.next_number, *(number + 1 for number in kept)])
        numbers: dict[int, int] = {}
        for number in sorted(cards):
            if number in kept:
                numbers[number] = number
            else:
                numbers[number] = following
                following += 1
        return numbers

    def _free_for(self, number: int, saved: dict[str, Any]) -> bool:
        """Whether saved card ``saved`` may have ``number`` here: no card has it, or the
        card that has it is that same card, out of the game (by the clearing before a
        load, say) and unchanged since the deck was saved."""
        here = self.state.cards.get(number)
        if here is None:
            return True
        face = {key: saved.get(key, default) for key, default in (("colour", ""), ("version", 1))}
        face |= {key: saved[key] for key in ("name", "kind", "text")}
        return (
            here.zone == REMOVED
            and here.author == saved["author"]
            and here.is_rule == saved.get("is_rule", False)
            and here.copy_of == saved.get("copy_of")
            and card_face(here) == face
        )

    def _bring_back(self, event: Event, placed: dict[str, Any]) -> None:
        """A card of the room comes back from the removed pile, as the saved deck has it."""
        number = placed["number"]
        self._move(event, number, placed["zone"], placed["owner"])
        if placed["deck_owner"] != self.state.cards[number].deck_owner:
            self._change(event, ["deck", number, placed["deck_owner"]])
        if placed["attached_to"] is not None:
            self._change(event, ["attach", number, placed["attached_to"]])


def _folded_into_draw_pile(piles: list[list[Any]], cards: dict[int, dict[str, Any]]) -> list[list[Any]]:
    """The saved piles with every card of the deck (hands, play, discards, every player's
    own piles) gathered into the one shared draw pile, draw pile first; but a copy of a
    CCG deck goes back to the deck it was built into."""
    deck_zones = (DRAW, DISCARD, HAND, PLAY)
    ordered = sorted(
        (pile for pile in piles if pile[0] in deck_zones), key=lambda pile: (deck_zones.index(pile[0]), pile[1])
    )
    gathered = [number for _, _, order in ordered for number in order if cards[number].get("copy_of") is None]
    built: dict[int, list[int]] = {}
    for zone, _owner, order in piles:
        for number in order:
            if zone == BUILT or (zone in deck_zones and cards[number].get("copy_of") is not None):
                built.setdefault(cards[number]["deck_owner"], []).append(number)
    others = [pile for pile in piles if pile[0] not in (*deck_zones, BUILT)]
    folded = [[DRAW, NO_OWNER, gathered]] if gathered else []
    return folded + [[BUILT, owner, order] for owner, order in built.items()] + others
