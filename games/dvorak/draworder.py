"""The order of the draw pile: putting a card on it at a chosen place, and reordering its
top cards after looking through it (as the Dvorax engine lets cards do).

Both are moves a card allows: with turns on they are forced. The table is told that they
happened; which card only when it came from where everyone saw it (see
:mod:`games.dvorak.visibility`). A player may reorder the draw pile only as they last saw
it (``viewdraw``): so a refusal never tells anyone which cards lie in it.
"""

from __future__ import annotations

from games.dvorak.core import Event, RuleViolation, TableCore, with_force_hint
from games.dvorak.state import DRAW, NO_OWNER
from i18n import _, ngettext


class DrawOrder(TableCore):
    """Moves that set the order of the draw pile."""

    def put_on_draw(self, actor: int, number: int, depth: int | None, forced: bool = False) -> None:
        """Put a card, from wherever it is, into the draw pile ``depth`` cards down (1:
        on top; None, or deeper than the pile: at the bottom). In a multi-deck game it goes
        to its own deck's draw pile, as ``shufcard`` does. With turns on, only forced."""
        self._playing()
        self._not_halted(forced)
        self._seated(actor)
        card = self.card(number)
        self._in_deck(card)
        if depth is not None and depth < 1:
            raise RuleViolation(_("Places in the draw pile count from 1, its top."))
        self._own_turn(actor, "move cards", forced)
        self._moved_by_a_card(forced)
        owner = card.deck_owner if self.own_piles else NO_OWNER
        before = list(self.state.pile(DRAW, owner))
        rest = [n for n in before if n != number]
        depth = len(rest) + 1 if depth is None else min(depth, len(rest) + 1)
        event = self._event(
            "putcard",
            actor,
            forced,
            card=number,
            source=card.zone,
            source_owner=card.owner,
            owner=owner,
            depth=depth,
            size=len(rest) + 1,
        )
        self._leave_play(event, card)
        self._move(event, number, DRAW, owner, len(rest) - depth + 1)
        if (DRAW, owner) == self.draw_key(actor) and self.state.seen.get(actor) == before:
            # The player knew the pile and knows the card put in it: they know it still.
            self._saw(event, actor, self.state.pile(DRAW, owner))

    def reorder_draw(self, actor: int, top_first: list[int], forced: bool = False) -> None:
        """Put the top cards of your draw pile in a new order, ``top_first`` (the same
        cards, exactly the top ``len(top_first)``). Only as you last looked through it
        (``viewdraw``); with turns on, only forced."""
        self._playing()
        self._not_halted(forced)
        self._seated(actor)
        if self._turn_rules(forced):
            refusal = _("With turns on, the draw pile is reordered only when a card says so.")
            raise RuleViolation(with_force_hint(refusal))
        zone, owner = self.draw_key(actor)
        pile = list(self.state.pile(zone, owner))
        if self.state.seen.get(actor) != pile:
            raise RuleViolation(
                _(
                    "You may reorder the draw pile only as you last saw it, and you have not looked through it since "
                    "it last changed: look first (viewdraw)."
                )
            )
        count = len(top_first)
        if not count:
            raise RuleViolation(_("List the cards to put on top, top first."))
        if len(set(top_first)) != count:
            raise RuleViolation(_("List each card once."))
        if count > len(pile) or sorted(top_first) != sorted(pile[-count:]):
            # The English says "cards" for one too (players know the line as it is).
            refusal = ngettext(
                "Those are not the top {n} cards of your draw pile.",
                "Those are not the top {n} cards of your draw pile.",
                count,
            )
            raise RuleViolation(refusal.format(n=count))
        event = self._event("reorder", actor, forced, cards=list(top_first), count=count, owner=owner)
        order = pile[:-count] + list(reversed(top_first))
        self._change(event, ["order", zone, owner, order])
        self._saw(event, actor, order)

    def _saw(self, event: Event, actor: int, pile: list[int]) -> None:
        """``actor`` knows the draw pile to be ``pile`` (bottom first)."""
        if self.state.seen.get(actor) != pile:
            self._change(event, ["seen", actor, list(pile)])
