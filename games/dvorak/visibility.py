"""Who may see what at a Dvorak table: the game's one visibility policy.

Cards in play, on discard piles, pending a vote, rejected, removed or in force as rules
are face up: everyone sees them. A card in a hand is seen by its holder only; the draw
pile by nobody. Of the events:

- a card drawn is seen by its drawer (by everyone when a card makes it drawn face up);
- a card taken at random from a hand is seen by the taker and by the player it was
  taken from;
- cards dealt (at ``start``, or to someone joining a game under way) are seen by the
  player they are dealt to; everyone learns how many each was dealt;
- a card put into the draw pile (``putcard``) from a hand or from the draw pile itself
  is seen by the player who put it and by the player whose hand it was; from anywhere
  face up (play, a discard pile), by everyone;
- the cards of a reordered draw pile are seen by the player who reordered it only;
- every other event's cards are face up (played, discarded, given, voted on ...).

The renderers, the structured (GMCP) views and the tests' secrecy oracle all ask this
module; nothing else decides it.
"""

from __future__ import annotations

from typing import Any

from games.base import Event
from games.dvorak.state import DRAW, HAND, TableState

#: Events whose ``card`` is hidden from some viewers, and who sees it.
_PRIVATE_CARD = ("draw", "takerand", "putcard")
#: Events that deal cards into hands.
_DEALING = ("start", "join")
#: Where a card put into the draw pile was hidden from some viewers.
_HIDDEN_SOURCES = (DRAW, HAND)


def card_visible(state: TableState, number: int, viewer: int) -> bool:
    """Whether ``viewer`` may see card ``number`` where it is now."""
    card = state.cards.get(number)
    if card is None or card.zone == DRAW:
        return False
    return card.zone != HAND or card.owner == viewer


def dealt(event: Event) -> dict[int, list[int]]:
    """The cards an event dealt into hands, by the player dealt to."""
    hands: dict[int, list[int]] = {}
    for delta in event.deltas:
        if delta[0] == "move" and delta[2] == HAND:
            hands.setdefault(delta[3], []).append(delta[1])
    return hands


def _card_shown(event: Event, viewer: int) -> bool:
    data = event.data
    if event.kind == "draw":
        return bool(data["visible"]) or viewer == event.actor
    if event.kind == "putcard":
        if data["source"] not in _HIDDEN_SOURCES:
            return True
        return viewer == event.actor or (data["source"] == HAND and viewer == data["source_owner"])
    return viewer in (event.actor, data["player"])  # takerand


def event_for(event: Event, viewer: int) -> dict[str, Any]:
    """What ``viewer`` may be shown of ``event``: its data with the hidden cards taken
    out. A dealing event gets ``dealt`` (the cards dealt to the viewer) and
    ``dealt_counts`` (how many each player was dealt, by account id). An event with
    nothing hidden gives its own data, not a copy: read it, do not change it."""
    if event.kind in _PRIVATE_CARD:
        if _card_shown(event, viewer):
            return event.data
        return {key: value for key, value in event.data.items() if key != "card"}
    if event.kind == "reorder":
        if viewer == event.actor:
            return event.data
        return {key: value for key, value in event.data.items() if key != "cards"}
    if event.kind in _DEALING:
        hands = dealt(event)
        counts = {player: len(cards) for player, cards in hands.items()}
        return {**event.data, "dealt": hands.get(viewer, []), "dealt_counts": counts}
    return event.data


def cards_seen(event: Event, viewer: int) -> set[int]:
    """The cards ``event`` shows ``viewer`` (by number)."""
    shown = event_for(event, viewer)
    seen = set(shown.get("dealt", [])) | set(shown.get("cards", []))
    for key in ("card", "onto"):
        if shown.get(key):
            seen.add(shown[key])
    return seen | set(shown.get("destroyed", []))
