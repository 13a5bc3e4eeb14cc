"""What every move on a Dvorak table shares: the checks of who may do what (the events
and the bookkeeping of changes are every game's, in :mod:`games.base`).

A move that breaks a rule raises :class:`RuleViolation` before changing anything; its
message says which rule forbids it. The moves themselves are in ``rules`` (seats and
play), ``voting`` (proposals and votes) and ``deck`` (loading, clearing, restoring).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from games.base import Event, GameTable, RuleViolation
from games.dvorak import settings as table_settings
from games.dvorak.state import (
    BUILT,
    DECK_ZONES,
    DISCARD,
    DRAW,
    HAND,
    NO_OWNER,
    PENDING,
    PLAY,
    PLAYING,
    REJECTED,
    REMOVED,
    RULES,
    SET,
    Card,
    Delta,
    PileKey,
    Seat,
    TableState,
    is_approved,
    seat_dicts,
)
from i18n import N_, _

NAME_MAX = 60
TEXT_MAX = 2000
KIND_MAX = 40
TEAM_MAX = 20
#: What a refusal of a move a card may allow adds (see :func:`with_force_hint`).
FORCE_HINT = N_("(If a card allows it, put force in front of the command.)")

#: The refusal of a move made on another's turn, by what it does (``_own_turn``).
_ONLY_ON_YOUR_TURN = {
    "draw": N_("It is {name}'s turn; you may draw only on your own turn."),
    "play cards": N_("It is {name}'s turn; you may play cards only on your own turn."),
    "use a Thing's Action": N_("It is {name}'s turn; you may use a Thing's Action only on your own turn."),
    "discard": N_("It is {name}'s turn; you may discard only on your own turn."),
    "destroy cards": N_("It is {name}'s turn; you may destroy cards only on your own turn."),
    "move cards between players": N_("It is {name}'s turn; you may move cards between players only on your own turn."),
    "take cards from other players": N_(
        "It is {name}'s turn; you may take cards from other players only on your own turn."
    ),
    "shuffle": N_("It is {name}'s turn; you may shuffle only on your own turn."),
    "shuffle cards": N_("It is {name}'s turn; you may shuffle cards only on your own turn."),
    "turn cards up": N_("It is {name}'s turn; you may turn cards up only on your own turn."),
    "move cards": N_("It is {name}'s turn; you may move cards only on your own turn."),
}
#: The refusal of a step of a turn after its discard, by what it does (``_not_after_discarding``).
_NOT_AFTER_DISCARDING = {
    "draw": N_(
        "You have discarded, and discarding is the last step of a turn: you may not draw after it (endturn ends it)."
    ),
    "play cards": N_(
        "You have discarded, and discarding is the last step of a turn: you may not play cards after it "
        "(endturn ends it)."
    ),
    "use a Thing's Action": N_(
        "You have discarded, and discarding is the last step of a turn: you may not use a Thing's Action after it "
        "(endturn ends it)."
    ),
    "give cards": N_(
        "You have discarded, and discarding is the last step of a turn: you may not give cards after it "
        "(endturn ends it)."
    ),
}

#: The refusal of a move of a card that is not in the deck, by where it is (``_in_deck``).
_NOT_IN_THE_DECK = {
    PENDING: N_("#{number} is not in the deck (it is pending)."),
    REJECTED: N_("#{number} is not in the deck (it is rejected)."),
    REMOVED: N_("#{number} is not in the deck (it is removed)."),
    RULES: N_("#{number} is not in the deck (it is rules)."),
    SET: N_("#{number} is not in the deck (it is set)."),
    BUILT: N_("#{number} is not in the deck (it is built)."),
}


def with_force_hint(refusal: str) -> str:
    """``refusal`` (in the reader's language) and how to make the move anyway where a
    card allows it (:data:`FORCE_HINT`)."""
    return f"{refusal} {_(FORCE_HINT)}"


class TableCore(GameTable):
    """A Dvorak table's state and the checks every move shares. The moves themselves are
    in the subclasses; the bookkeeping of changes is every game's (:class:`GameTable`)."""

    def __init__(
        self,
        state: TableState | None = None,
        rng: random.Random | None = None,
        card_limit: int | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(state if state is not None else TableState(settings=table_settings.log_start()), rng)
        self.state: TableState
        #: Cards and rules the table may hold, removed ones not counted (None: any number).
        self.card_limit = card_limit
        #: The wall clock, in seconds, that opens votes and tells when they time out.
        self.clock = clock
        # A room stored before a setting existed has what rooms had then.
        for name, value in table_settings.log_start().items():
            self.state.settings.setdefault(name, value)

    # -- bookkeeping -------------------------------------------------------------------

    def _change(self, event: Event, delta: Delta) -> None:
        if delta[0] == "add":
            self._make_room_for_a_card()
        if delta[0] == "move" and delta[1] in self.state.face_down:
            card = self.state.cards[delta[1]]
            if (delta[2], delta[3]) != (card.zone, card.owner):
                # Leaving its place, a face-down card is face down no longer: the event
                # says which it was, and where it went (who may see it: games.dvorak.visibility).
                label = self.state.face_down[card.number]
                event.data.setdefault("face_down", []).append([card.number, label, card.owner, delta[2], delta[3]])
        super()._change(event, delta)
        if delta[0] == "add":
            self._created.add(delta[1]["number"])

    def _make_room_for_a_card(self) -> None:
        """Refuse a new card or rule once the table holds as many as it may."""
        limit = self.card_limit
        if limit is not None and len(self.state.cards) - len(self.state.pile(REMOVED, NO_OWNER)) >= limit:
            refusal = _(
                "This room already holds {n} cards and rules, the most a room may. Removed cards do not "
                "count: take some out first (removecard, or cleardeck between games)."
            )
            raise RuleViolation(refusal.format(n=limit))

    def _move(self, event: Event, number: int, zone: str, owner: int, index: int = -1) -> None:
        self._change(event, ["move", number, zone, owner, index])

    def _set_turn(self, event: Event, **changes: Any) -> None:
        self._change(event, ["turn", {**vars(self.state.turn), **changes}])

    def _set_seats(self, event: Event, seats: list[Seat]) -> None:
        self._change(event, ["seats", seat_dicts(seats)])

    def _set(self, event: Event, name: str, value: Any) -> None:
        self._change(event, ["set", name, value])

    def _set_changed(self, event: Event) -> None:
        """The approved cards or rules changed: the deck (in a CCG room, the card set) has
        a new version, which the event records."""
        self._set(event, "deck_version", self.state.deck_version + 1)
        event.data["deck_version"] = self.state.deck_version

    def _open_vote(self, event: Event, ids: list[int]) -> None:
        """The vote on proposals ``ids`` opens now: the vote time counts from here (kept
        only while there is one: setting ``votetime`` opens every pending vote afresh)."""
        if not self.settings["votetime"]:
            return
        now = round(self.clock(), 3)
        for proposal_id in ids:
            self._change(event, ["opened", proposal_id, now])

    # -- facts of the table ------------------------------------------------------------

    @property
    def settings(self) -> dict[str, Any]:
        return self.state.settings

    def card(self, number: int) -> Card:
        card = self.state.cards.get(number)
        if card is None:
            raise RuleViolation(_("There is no card #{number} at this table.").format(number=number))
        return card

    def hand(self, account_id: int) -> list[int]:
        return self.state.pile(HAND, account_id)

    def in_play(self, account_id: int) -> list[int]:
        return self.state.pile(PLAY, account_id)

    @property
    def own_piles(self) -> bool:
        """Whether each player draws from and discards to piles of their own (a
        multi-deck game, or a CCG game of built decks)."""
        return own_piles(self.settings)

    def draw_key(self, account_id: int) -> PileKey:
        """The draw pile ``account_id`` draws from."""
        return (DRAW, account_id if self.own_piles else NO_OWNER)

    def discard_key(self, owner: int) -> PileKey:
        """The discard pile of ``owner``'s deck (the shared one unless each has their own)."""
        return (DISCARD, owner if self.own_piles else NO_OWNER)

    def _discard_key_for(self, card: Card) -> PileKey:
        return self.discard_key(card.deck_owner)

    def can_draw(self, account_id: int) -> bool:
        draw_zone, owner = self.draw_key(account_id)
        if self.state.pile(draw_zone, owner):
            return True
        return bool(self.settings["reshuffle"] and self.state.pile(*self.discard_key(owner)))

    def deck_cards(self) -> list[Card]:
        """Every approved card, wherever it is in the game (in a CCG room, the set's
        cards; the copies in players' decks are theirs)."""
        return sorted((card for card in self.state.cards.values() if is_approved(card)), key=lambda c: c.number)

    # -- checks ------------------------------------------------------------------------

    def _seated(self, actor: int) -> Seat:
        seat = self.state.seat(actor)
        if seat is None:
            raise RuleViolation(_("Only players seated at this table can do that."))
        if seat.out and self.state.phase == PLAYING:
            raise RuleViolation(_("You have been eliminated from this game."))
        return seat

    def _playing(self) -> None:
        if self.state.phase != PLAYING:
            raise RuleViolation(_("No game is running here. The host starts one with: start"))

    def _not_halted(self, forced: bool) -> None:
        """With ``halt`` on, card moves wait while anything is being voted on."""
        if self.settings["halt"] and self.state.proposals and not forced:
            waiting = ", ".join(f"#{p.subject}" for p in self.state.proposals.values())
            refusal = _("Play waits for the vote on {cards} (halt is on).").format(cards=waiting)
            raise RuleViolation(with_force_hint(refusal))

    def _turn_rules(self, forced: bool) -> bool:
        return bool(self.settings["turns"]) and not forced

    def _own_turn(self, actor: int, doing: str, forced: bool) -> None:
        if self._turn_rules(forced) and self.state.turn.player != actor:
            refusal = _(_ONLY_ON_YOUR_TURN[doing]).format(name=self.name_of(self.state.turn.player))
            raise RuleViolation(with_force_hint(refusal))

    def _drawn_first(self, actor: int, forced: bool) -> bool:
        """Refuse a step of a turn before its draw; True when the draw is not made yet but
        cannot be (both piles are empty): the step then counts it as made
        (:meth:`_draw_counted`), so that what the step puts on the discard pile is not
        drawn back, nor the turn's end refused for want of a draw."""
        turn = self.state.turn
        if not self._turn_rules(forced) or turn.drawn >= self.settings["draws"]:
            return False
        if self.can_draw(actor):
            raise RuleViolation(_("Draw first: a turn begins by drawing (draw)."))
        return turn.player == actor

    def _draw_counted(self, event: Event) -> None:
        """The turn's draws count as made (see :meth:`_drawn_first`)."""
        self._set_turn(event, drawn=self.settings["draws"])

    def _not_after_discarding(self, actor: int, doing: str, forced: bool) -> None:
        """Discarding down to the hand limit is the last step of a turn: nothing is drawn,
        played or given after it (else a player could end the turn under the limit)."""
        turn = self.state.turn
        if self._turn_rules(forced) and turn.player == actor and turn.discarded:
            raise RuleViolation(with_force_hint(_(_NOT_AFTER_DISCARDING[doing])))

    def _moved_by_a_card(self, forced: bool) -> None:
        """With turns on, no basic rule moves a card between places or players (but the
        team gift): a card must say so, and the move is forced. The refusal is the same
        wherever the card is, so that trying numbers tells nobody where hidden cards are."""
        if self._turn_rules(forced):
            refusal = _("With turns on, cards move between places and players only when a card says so.")
            raise RuleViolation(with_force_hint(refusal))

    def _hidden_from(self, actor: int, card: Card) -> bool:
        """Whether ``card`` is face down in play in front of someone other than ``actor``
        (who then knows it only by its label)."""
        return card.number in self.state.face_down and card.owner != actor

    def _in_hand(self, actor: int, number: int) -> Card:
        card = self.card(number)
        if card.zone != HAND or card.owner != actor:
            raise RuleViolation(_("#{number} is not in your hand.").format(number=number))
        return card

    def _target(self, account_id: int) -> Seat:
        seat = self.state.seat(account_id)
        if seat is None:
            raise RuleViolation(_("That player is not seated at this table."))
        if seat.out:
            raise RuleViolation(_("{name} has been eliminated.").format(name=seat.name))
        return seat

    def _in_deck(self, card: Card) -> None:
        if card.zone not in DECK_ZONES:
            raise RuleViolation(_(_NOT_IN_THE_DECK[card.zone]).format(number=card.number))

    def _leave_play(self, event: Event, card: Card) -> None:
        """``card`` is leaving play: what was played on it is destroyed."""
        if card.zone != PLAY:
            return
        attached = self.state.attachments(card.number)
        if attached:
            event.data.setdefault("destroyed", []).extend(attached)
        for number in reversed(attached):
            self._move(event, number, *self._discard_key_for(self.state.cards[number]))


def own_piles(settings: dict[str, Any]) -> bool:
    """Whether a table with ``settings`` gives each player piles of their own."""
    return bool(settings.get("multideck") or settings.get("ccg"))


def check_card_face(name: str, kind: str, text: str) -> tuple[str, str, str]:
    """A card's name, type and text, trimmed; :class:`RuleViolation` if one is unusable."""
    name, kind, text = name.strip(), kind.strip(), text.strip()
    if not name:
        raise RuleViolation(_("A card needs a name."))
    if not kind:
        raise RuleViolation(_("A card needs a type: A (Action), T (Thing), or any other word."))
    if len(name) > NAME_MAX:
        raise RuleViolation(_("A card name is at most {n} characters.").format(n=NAME_MAX))
    if len(kind) > KIND_MAX:
        raise RuleViolation(_("A card type is at most {n} characters.").format(n=KIND_MAX))
    if len(text) > TEXT_MAX:
        raise RuleViolation(_("A card's text is at most {n} characters.").format(n=TEXT_MAX))
    return name, kind, text
