"""Face-down play (as the Bizarro engine's ``playcard <num>=facedown``).

A card played face down goes into play in front of its player, whatever its type (an
Action too: face down, nobody can tell it is one). Its owner sees it; everyone else
knows it only as "face-down card FD1" (a label of the table's, the lowest free one), and
refers to it by that label. It counts as the turn's Thing under the turn rules, whatever
it is (counting it as an Action would tell the table what it is).

``flip`` turns it face up: its owner on their own turn (at any time without turns, or
forced), anyone else only forced. A Thing turned up stays in play; an Action turned up
goes to the discard pile, as a played Action does (it is not counted again: laying it
was the turn's play). A face-down card that leaves its owner's play area (destroyed,
given, shuffled away, its owner leaving the game) is face down no longer; the game's end
turns every face-down card up. Which viewers learn what it was is
:mod:`games.dvorak.visibility`'s to say.
"""

from __future__ import annotations

import re

from games.base import Event, RuleViolation
from games.dvorak.core import TableCore, with_force_hint
from games.dvorak.state import PLAY, Card
from i18n import _

#: How a face-down card is named at the table: ``FD`` and a number.
LABEL = re.compile(r"FD(\d{1,9})", re.IGNORECASE)


def label_text(label: str) -> str:
    """``face-down card FD1``, in the reader's language."""
    return _("face-down card {label}").format(label=label)


class FaceDownMoves(TableCore):
    """Playing cards face down and turning them up."""

    def face_down_number(self, label: str) -> int:
        """The number of the card known as ``label`` (``FD1``, any case)."""
        wanted = label.strip().upper()
        for number, known in self.state.face_down.items():
            if known == wanted:
                return number
        raise RuleViolation(_("There is no face-down card {label} at this table.").format(label=wanted))

    def _free_label(self) -> str:
        used = set(self.state.face_down.values())
        index = 1
        while f"FD{index}" in used:
            index += 1
        return f"FD{index}"

    def play_face_down(self, actor: int, number: int, forced: bool = False) -> str:
        """Play a card from your hand face down in front of you; returns its label."""
        self._playing()
        self._not_halted(forced)
        self._seated(actor)
        self._in_hand(actor, number)
        self._own_turn(actor, "play cards", forced)
        no_draw = self._drawn_first(actor, forced)
        self._not_after_discarding(actor, "play cards", forced)
        turn = self.state.turn
        if self._turn_rules(forced) and turn.things >= self.settings["plays"]:
            refusal = _("You have already played a Thing this turn (a card played face down counts as one).")
            raise RuleViolation(with_force_hint(refusal))
        label = self._free_label()
        event = self._event("facedown", actor, forced, card=number, label=label)
        if no_draw:
            self._draw_counted(event)
            turn = self.state.turn
        self._move(event, number, PLAY, actor)
        self._change(event, ["facedown", number, label])
        if turn.player == actor:
            self._set_turn(event, things=turn.things + 1)
        return label

    def flip(self, actor: int, number: int, by_label: bool, forced: bool = False) -> None:
        """Turn a face-down card up (``by_label``: the actor named it by its label, as
        everyone but its owner must)."""
        self._playing()
        self._not_halted(forced)
        self._seated(actor)
        card = self.card(number)
        if number not in self.state.face_down or (self._hidden_from(actor, card) and not by_label):
            raise RuleViolation(_("#{number} is not a card of yours in play face down.").format(number=number))
        if card.owner != actor and not forced:
            raise RuleViolation(with_force_hint(_("Only its owner turns a face-down card up.")))
        self._own_turn(actor, "turn cards up", forced)
        event = self._event("flip", actor, forced, card=number, label=self.state.face_down[number], owner=card.owner)
        self._turn_up(event, card)

    def _turn_up(self, event: Event, card: Card) -> None:
        self._change(event, ["facedown", card.number, None])
        if card.is_action:
            event.data["discarded"] = True
            self._move(event, card.number, *self._discard_key_for(card))

    def _turn_up_all(self, event: Event) -> None:
        """The game is over: every face-down card is turned up where it lies."""
        revealed = [[number, label, self.state.cards[number].owner] for number, label in self.state.face_down.items()]
        if revealed:
            event.data["turned_up"] = revealed
        for number, _label, _owner in revealed:
            self._change(event, ["facedown", number, None])
