"""Who may see what at a Dvorak table: the game's one visibility policy.

Cards in play, on discard piles, pending a vote, rejected, removed or in force as rules
are face up: everyone sees them. A card in a hand is seen by its holder only; the draw
pile by nobody. Of the events:

- a card drawn is seen by its drawer (by everyone when a card makes it drawn face up);
- a card taken at random from a hand is seen by the taker and by the player it was
  taken from;
- cards dealt (at ``start``, or to someone joining a game under way) are seen by the
  player they are dealt to; everyone learns how many each was dealt;
- a change to a CCG deck is seen by its builder; the others learn only its size. A copy
  (read by its number) is its deck's builder's to see, and anyone's where a card there
  would be seen: never in another's built deck, or removed from it;
- a card played face down is seen by its player only; everyone else is told its label
  (``FD1``). Turned up (``flip``, the game's end), it is face up. A face-down card that
  leaves play (listed in the event's ``face_down``) is seen by everyone if it goes
  anywhere face up (the discard pile, into play for someone, removed), else by its owner
  and, going into a hand or back to a CCG deck (its builder leaving), by that hand's
  holder or that deck's builder;
- a card put or shuffled into the draw pile (``putcard``, ``shufcard``) from a hand or
  from the draw pile itself
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
from games.dvorak.state import BUILT, DRAW, HAND, REMOVED, TableState

#: Events whose ``card`` is hidden from some viewers, and who sees it.
_PRIVATE_CARD = ("draw", "takerand", "putcard", "shufcard")
#: Events that deal cards into hands.
_DEALING = ("start", "join")
#: Where a card put into the draw pile was hidden from some viewers.
_HIDDEN_SOURCES = (DRAW, HAND)


def card_visible(state: TableState, number: int, viewer: int) -> bool:
    """Whether ``viewer`` may see card ``number`` where it is now."""
    card = state.cards.get(number)
    if card is None or card.zone == DRAW:
        return False
    if number in state.face_down:
        return card.owner == viewer
    return card.zone != HAND or card.owner == viewer


def copy_visible(state: TableState, number: int, viewer: int) -> bool:
    """Whether ``viewer`` may read card ``number`` by its number: any card of the room,
    but a CCG copy only as :func:`card_visible` says (its deck's builder always), so that
    nobody reads another's deck card by card."""
    card = state.cards.get(number)
    if card is None or card.copy_of is None or card.deck_owner == viewer:
        return True
    return card.zone not in (BUILT, REMOVED) and card_visible(state, number, viewer)


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
    if event.kind in ("putcard", "shufcard"):
        if data["source"] not in _HIDDEN_SOURCES:
            return True
        return viewer == event.actor or (data["source"] == HAND and viewer == data["source_owner"])
    return viewer in (event.actor, data["player"])  # takerand


def _build_shown(event: Event, viewer: int) -> dict[str, Any]:
    """A CCG deck is its builder's secret: the others learn only its size."""
    if viewer == event.actor:
        return event.data
    return {key: event.data[key] for key in ("size", "brought") if key in event.data}


def event_for(event: Event, viewer: int) -> dict[str, Any]:
    """What ``viewer`` may be shown of ``event``: its data with the hidden cards taken
    out. A dealing event gets ``dealt`` (the cards dealt to the viewer) and
    ``dealt_counts`` (how many each player was dealt, by account id). An event with
    nothing hidden gives its own data, not a copy: read it, do not change it."""
    if event.kind == "facedown":
        if viewer == event.actor:
            return event.data
        return {key: value for key, value in event.data.items() if key != "card"}
    if event.data.get("face_down"):
        return _face_down_gone(event.data, viewer)
    if event.kind in _PRIVATE_CARD:
        if _card_shown(event, viewer):
            return event.data
        return {key: value for key, value in event.data.items() if key != "card"}
    if event.kind == "build":
        return _build_shown(event, viewer)
    if event.kind == "reorder":
        if viewer == event.actor:
            return event.data
        return {key: value for key, value in event.data.items() if key != "cards"}
    if event.kind in _DEALING:
        hands = dealt(event)
        counts = {player: len(cards) for player, cards in hands.items()}
        return {**event.data, "dealt": hands.get(viewer, []), "dealt_counts": counts}
    return event.data


def _face_down_gone(data: dict[str, Any], viewer: int) -> dict[str, Any]:
    """An event in which face-down cards left play: a card the viewer may not see is
    named by its label only (its entry's number is None, and it is no ``card``)."""
    entries = []
    shown = dict(data)
    for number, label, owner, zone, holder in data["face_down"]:
        if viewer == owner or zone not in (HAND, DRAW, BUILT) or (zone in (HAND, BUILT) and viewer == holder):
            entries.append([number, label, owner, zone, holder])
            continue
        entries.append([None, label, owner, zone, holder])
        if shown.get("card") == number:
            del shown["card"]
    shown["face_down"] = entries
    return shown


def cards_seen(event: Event, viewer: int) -> set[int]:
    """The cards ``event`` shows ``viewer`` (by number)."""
    shown = event_for(event, viewer)
    seen = set(shown.get("dealt", [])) | set(shown.get("cards", []))
    for key in ("card", "onto"):
        if shown.get(key):
            seen.add(shown[key])
    seen.update(entry[0] for entry in shown.get("face_down", []) if entry[0] is not None)
    seen.update(entry[0] for entry in shown.get("turned_up", []))
    return seen | set(shown.get("destroyed", []))
