"""What must always be true of a table, and how two tables differ.

:func:`table_problems` lists every broken invariant (an empty list: the table is sound);
:func:`differences` names the fields in which two tables differ, which is how a room
rebuilt from its event log is compared with the room as stored.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import fields as dataclass_fields

from games.dvorak.core import own_piles
from games.dvorak.state import (
    APPROVE,
    BUILT,
    DECK_ZONES,
    DISCARD,
    DRAW,
    NEW_CARD,
    NEW_RULE,
    NO_OWNER,
    PENDING,
    PLAY,
    PLAYING,
    REJECT,
    REMOVED,
    SET,
    ZONES,
    Card,
    TableState,
    card_face,
)


def table_problems(state: TableState) -> list[str]:
    """Every invariant ``state`` breaks, in words."""
    problems: list[str] = []
    places = Counter(number for pile in state.piles.values() for number in pile)
    for number in state.cards:
        if places[number] != 1:
            problems.append(f"card #{number} is in {places[number]} places")
    for number in places:
        if number not in state.cards:
            problems.append(f"a pile holds #{number}, which is no card")
    seated = {seat.account_id for seat in state.seats}
    for (zone, owner), pile in state.piles.items():
        if zone not in ZONES:
            problems.append(f"unknown zone {zone!r}")
        if not pile:
            problems.append(f"empty pile {zone}/{owner} kept")
        for number in pile:
            card = state.cards.get(number)
            if card is not None and (card.zone, card.owner) != (zone, owner):
                problems.append(f"card #{number} says it is in {card.zone}/{card.owner} but lies in {zone}/{owner}")
        if zone in DECK_ZONES and owner != NO_OWNER and pile and owner not in seated:
            held = f"{len(pile)} card{'s' if len(pile) != 1 else ''}"
            problems.append(f"{zone} of account {owner}, who is not seated, holds {held}")
    if state.left_game and state.phase != PLAYING:
        problems.append(f"players {state.left_game} are kept as having left a game, but none is running")
    for account in state.left_game:
        if account in seated:
            problems.append(f"account {account} left the running game but is seated in it")
    for card in state.cards.values():
        if card.attached_to is not None:
            host = state.cards.get(card.attached_to)
            if card.zone != PLAY or host is None or host.zone != PLAY:
                problems.append(f"card #{card.number} is attached to #{card.attached_to} outside play")
    for number, label in state.face_down.items():
        card = state.cards.get(number)
        if card is None or card.zone != PLAY:
            problems.append(f"card #{number} is face down ({label}) outside play")
    if len(set(state.face_down.values())) != len(state.face_down):
        problems.append("two face-down cards have the same label")
    if state.cards and state.next_number <= max(state.cards):
        problems.append(f"next card number {state.next_number} is not above every card")
    problems += _unreachable_cards(state, seated)
    problems += _set_and_copy_problems(state)
    if state.phase == PLAYING and state.settings.get("turns", True):
        active = {seat.account_id for seat in state.active_seats()}
        if state.turn.player not in active:
            problems.append(f"the turn belongs to account {state.turn.player}, who is not an active seat")
    problems += _proposal_problems(state)
    return problems


def _unreachable_cards(state: TableState, seated: set[int]) -> list[str]:
    """Cards of a running game that no player can ever draw again: in a pile nobody
    draws from, or belonging to the deck of someone who has left (discarded, they would
    go to a pile nobody draws from)."""
    if state.phase != PLAYING:
        return []
    problems: list[str] = []
    multideck = own_piles(state.settings)
    for (zone, owner), pile in state.piles.items():
        if zone in (DRAW, DISCARD) and pile and (owner == NO_OWNER) == multideck:
            whose = "the shared" if owner == NO_OWNER else f"account {owner}'s"
            game = "a multi-deck" if multideck else "a single-deck"
            problems.append(f"{whose} {zone} pile holds {len(pile)} cards, which nobody draws from in {game} game")
    if multideck:
        for card in state.cards.values():
            if card.zone in DECK_ZONES and card.deck_owner not in seated:
                deck = (
                    "the shared deck, which a multi-deck game does not use"
                    if card.deck_owner == NO_OWNER
                    else f"the deck of account {card.deck_owner}, who is not seated"
                )
                problems.append(f"card #{card.number} belongs to {deck}")
    return problems


def _set_and_copy_problems(state: TableState) -> list[str]:
    """A CCG room's set and decks: set cards are no copies; a copy is of a card still in
    the game, says what it says, and lies only in a deck or in a game; built decks are
    their owners'; while a CCG game runs, only copies are played with."""
    problems: list[str] = []
    ccg_game = bool(state.settings.get("ccg")) and state.phase == PLAYING
    for card in state.cards.values():
        if card.copy_of is None:
            if card.zone == BUILT:
                problems.append(f"card #{card.number} is in a built deck but is no copy")
            elif card.zone == SET and card.is_rule:
                problems.append(f"rule #{card.number} is in the card set")
            elif ccg_game and card.zone in DECK_ZONES:
                problems.append(f"card #{card.number} is played with in a CCG game but is no copy")
            continue
        if card.zone == REMOVED:
            continue
        original = state.cards.get(card.copy_of)
        if original is None or original.copy_of is not None or original.zone == REMOVED:
            problems.append(f"copy #{card.number} is of #{card.copy_of}, which is no card of the game")
        elif card_face(original) != card_face(card):
            problems.append(f"copy #{card.number} does not say what #{original.number} says")
        if card.zone not in (*DECK_ZONES, BUILT):
            problems.append(f"copy #{card.number} is in {card.zone}")
        if card.zone == BUILT and card.owner != card.deck_owner:
            problems.append(f"copy #{card.number} is in the deck of account {card.owner}, not its own")
    return problems


def _proposal_problems(state: TableState) -> list[str]:
    problems: list[str] = []
    subjects = Counter(p.subject for p in state.proposals.values())
    for subject, count in subjects.items():
        if count > 1:
            problems.append(f"#{subject} has {count} pending proposals")
    new_subjects = {p.subject for p in state.proposals.values() if p.kind in (NEW_CARD, NEW_RULE)}
    pending_cards = {n for n, card in state.cards.items() if card.zone == PENDING}
    if new_subjects != pending_cards:
        problems.append(
            f"cards waiting for a vote {sorted(pending_cards)} do not match the proposals {sorted(new_subjects)}"
        )
    for proposal in state.proposals.values():
        card = state.cards.get(proposal.subject)
        if card is None or card.zone == REMOVED:
            problems.append(f"proposal {proposal.id} is about #{proposal.subject}, which is gone")
        if any(choice not in (APPROVE, REJECT) for choice in proposal.votes.values()):
            problems.append(f"proposal {proposal.id} has a vote that is neither approve nor reject")
        if proposal.bundle is not None and proposal.bundle not in state.proposals:
            problems.append(f"proposal {proposal.id} is bundled with {proposal.bundle}, which is not pending")
        if proposal.id >= state.next_proposal:
            problems.append(f"proposal {proposal.id} is numbered at or above the next, {state.next_proposal}")
    for proposal_id in state.vote_opened:
        if proposal_id not in state.proposals:
            problems.append(f"a vote was opened for proposal {proposal_id}, which is not pending")
    bundles: dict[int, set[frozenset[tuple[int, str]]]] = {}
    for proposal in state.proposals.values():
        if proposal.bundle is not None:
            bundles.setdefault(proposal.bundle, set()).add(frozenset(proposal.votes.items()))
    for bundle, variants in bundles.items():
        if len(variants) > 1:
            problems.append(f"the proposals bundled as {bundle} carry different votes")
    return problems


def differences(replayed: TableState, stored: TableState) -> list[str]:
    """The fields in which two tables differ (empty when they are the same)."""
    found: list[str] = []
    names = ("phase", "host", "result", "next_number", "next_proposal", "deck_version", "built_against")
    for name in (*names, "settings", "seats", "turn", "face_down", "seen", "vote_opened", "opened_with", "left_game"):
        if getattr(replayed, name) != getattr(stored, name):
            found.append(f"{name}: replayed {getattr(replayed, name)!r}, stored {getattr(stored, name)!r}")
    for number in sorted(set(replayed.cards) | set(stored.cards)):
        a, b = replayed.cards.get(number), stored.cards.get(number)
        if a != b:
            fields = [
                f.name
                for f in dataclass_fields(Card)
                if a is None or b is None or getattr(a, f.name) != getattr(b, f.name)
            ]
            found.append(f"card #{number}: {', '.join(fields)}")
    for key in sorted(set(replayed.piles) | set(stored.piles)):
        if replayed.piles.get(key, []) != stored.piles.get(key, []):
            found.append(f"pile {key[0]}/{key[1]}: order differs")
    if replayed.proposals != stored.proposals:
        found.append("pending proposals differ")
    return found
