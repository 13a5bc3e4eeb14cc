"""The state of one Dvorak table, and the one function through which it changes.

Every change is a *delta*: a small JSON-ready list such as ``["move", 12, "hand", 7, -1]``.
:meth:`TableState.apply` is the only code that changes a table; the rules build deltas
and apply them, the event log stores them, and replaying a room's log applies them
again to an empty table to rebuild it exactly.

Where a card is: a *zone* (draw pile, discard pile, a hand, in play, pending a vote,
rejected, removed, or in force as a special rule) and an *owner* (the account whose hand
or play area it is in, or whose own piles in a multi-deck game; 0 for the shared piles).
In a CCG room (the ``ccg`` setting) the approved cards are the room's card *set*, in
zone ``set``; each player builds a deck of *copies* of set cards (``copy_of`` is the set
card's number), kept in zone ``built`` between games and dealt from their own piles
during one. A copy has its set card's words: an accepted edit changes every copy.

Within a zone the cards are in order: the draw pile's last card is its top, a discard
pile's last card is its top.

Proposals (new cards and rules, edits, removals) wait in ``proposals`` with their votes
until they are decided; only pending ones are part of the table.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any

from games.base import NOBODY
from games.base import OVER as OVER
from games.base import PLAYING as PLAYING
from games.base import WAITING as WAITING
from games.base import Delta as Delta
from games.base import Seat as Seat
from i18n import N_, _

DRAW, DISCARD, HAND, PLAY = "draw", "discard", "hand", "play"
PENDING, REJECTED, REMOVED, RULES = "pending", "rejected", "removed", "rules"
#: A CCG room's card set (the cards decks are built from; never drawn), and each
#: player's built deck between games (copies of set cards, owned by the builder).
SET, BUILT = "set", "built"
ZONES = (DRAW, DISCARD, HAND, PLAY, PENDING, REJECTED, REMOVED, RULES, SET, BUILT)
#: Zones whose cards are part of the deck being played (approved cards).
DECK_ZONES = (DRAW, DISCARD, HAND, PLAY)
NO_OWNER = NOBODY

APPROVE, REJECT = "approve", "reject"
#: What a proposal asks for: a new card, a new special rule, a change, a removal.
NEW_CARD, NEW_RULE, EDIT, REMOVAL = "card", "rule", "edit", "remove"

PileKey = tuple[str, int]

#: The types the letters A and T stand for (a card's type is otherwise as its author wrote
#: it), and a special rule's.
ACTION, THING, RULE = N_("Action"), N_("Thing"), N_("Rule")


@dataclass
class Card:
    """One card: its face (what it says) and where it is."""

    number: int
    name: str
    kind: str
    text: str
    author: int = NO_OWNER
    author_name: str = ""
    zone: str = DRAW
    owner: int = NO_OWNER
    #: The Thing this Thing is played on, if any.
    attached_to: int | None = None
    #: Multi-deck games: whose own piles the card returns to when discarded.
    deck_owner: int = NO_OWNER
    #: A special rule, not a card: never drawn, owned or destroyed.
    is_rule: bool = False
    #: A MUSH colour code for the name (``hw``, ``hr``, ...), as decks from Dvorax have.
    colour: str = ""
    #: 1 when made; each accepted edit adds one (earlier versions are in the card history).
    version: int = 1
    #: A copy in a player's CCG deck: the number of the set card it is a copy of.
    copy_of: int | None = None

    @property
    def is_action(self) -> bool:
        """Actions go to the discard pile when played; everything else stays in play."""
        kind = self.kind.strip().lower()
        return kind in ("a", "action") or kind.startswith("action ")

    @property
    def kind_label(self) -> str:
        """``Action``, ``Thing``, or the type exactly as its author wrote it."""
        kind = self.kind.strip()
        if kind.upper() == "A":
            return ACTION
        if kind.upper() == "T":
            return THING
        return kind

    @property
    def kind_shown(self) -> str:
        """:attr:`kind_label` in the reader's language: ``Action``, ``Thing`` and a special
        rule's ``Rule`` translated, a type its author wrote as they wrote it."""
        kind = self.kind_label
        if self.is_rule and kind == RULE or self.kind.strip().upper() in ("A", "T"):
            return _(kind)
        return kind


@dataclass
class Turn:
    """Whose turn it is and what they have done with it."""

    player: int = NO_OWNER
    number: int = 0
    drawn: int = 0
    things: int = 0
    actions: int = 0
    gives: int = 0
    #: Discards made under the hand limit rule: the turn's last step has begun.
    discarded: int = 0


@dataclass
class Proposal:
    """Something put to the vote: a new card or rule, an edit, a removal.

    Votes are by the number of the card concerned (``subject``). Proposals lumped into
    one vote share a ``bundle`` id and are accepted or rejected together.
    """

    id: int
    kind: str
    subject: int
    proposer: int
    proposer_name: str
    #: For an edit: the new name, kind and text.
    face: dict[str, str] | None = None
    bundle: int | None = None
    #: account id -> APPROVE or REJECT. The proposer approves by proposing.
    votes: dict[int, str] = field(default_factory=dict)


@dataclass
class TableState:
    """Everything about one table that is stored and replayed."""

    phase: str = WAITING
    host: int = NO_OWNER
    seats: list[Seat] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
    turn: Turn = field(default_factory=Turn)
    cards: dict[int, Card] = field(default_factory=dict)
    piles: dict[PileKey, list[int]] = field(default_factory=dict)
    next_number: int = 1
    #: How the last game ended: "" while none has, else a sentence for the table.
    result: str = ""
    proposals: dict[int, Proposal] = field(default_factory=dict)
    next_proposal: int = 1
    #: The deck's (in a CCG room: the card set's) version: one more at every change of
    #: the approved cards or rules (accepted, edited, removed, loaded, cleared).
    deck_version: int = 0
    #: Each player's CCG deck: the set version it was last built against.
    built_against: dict[int, int] = field(default_factory=dict)
    #: Cards in play face down: number -> the label others know them by (``FD1``). A card
    #: leaving its owner's play area is face down no longer.
    face_down: dict[int, str] = field(default_factory=dict)
    #: The draw pile (bottom first) as each player last looked through it, by account:
    #: a player may reorder the draw pile only while it is still as they saw it.
    seen: dict[int, list[int]] = field(default_factory=dict)
    #: When (wall-clock seconds) each pending proposal's vote was opened: proposed, put to
    #: the vote again, or bundled, while ``votetime`` was set, or when it was set.
    vote_opened: dict[int, float] = field(default_factory=dict)
    #: The settings the room was opened with, where they differ from those its event log
    #: starts from (``settings.log_start``); rooms made before then: none.
    opened_with: dict[str, Any] = field(default_factory=dict)
    #: Who gave up their seat (left, resigned by leaving, or was removed) while the game
    #: running now was played: they may sit down again once it is over, not to be dealt
    #: a fresh hand in it. Empty between games.
    left_game: list[int] = field(default_factory=list)

    # -- reading -------------------------------------------------------------------

    def pile(self, zone: str, owner: int = NO_OWNER) -> list[int]:
        """The card numbers in a pile, bottom first (a read-only view: do not modify)."""
        return self.piles.get((zone, owner), [])

    def seat(self, account_id: int) -> Seat | None:
        for seat in self.seats:
            if seat.account_id == account_id:
                return seat
        return None

    def pending_for(self, number: int) -> Proposal | None:
        """The pending proposal about card ``number``, if there is one."""
        for proposal in self.proposals.values():
            if proposal.subject == number:
                return proposal
        return None

    def bundle_of(self, proposal: Proposal) -> list[Proposal]:
        """The proposals decided together with ``proposal`` (itself alone if not bundled)."""
        if proposal.bundle is None:
            return [proposal]
        return [p for p in self.proposals.values() if p.bundle == proposal.bundle]

    def active_seats(self) -> list[Seat]:
        """Seats still in the game (not eliminated), in turn order."""
        return [seat for seat in self.seats if not seat.out]

    def attachments(self, host: int) -> list[int]:
        """Cards played on ``host``, and on those, and so on."""
        found: list[int] = []
        frontier = [host]
        while frontier:
            current = frontier.pop()
            for card in self.cards.values():
                if card.attached_to == current and card.zone == PLAY:
                    found.append(card.number)
                    frontier.append(card.number)
        return found

    def copy(self) -> TableState:
        return copy.deepcopy(self)

    # -- changing --------------------------------------------------------------------

    def inverse(self, delta: Delta) -> list[Delta]:
        """The deltas that undo ``delta``, computed before it is applied."""
        kind = delta[0]
        if kind == "move":
            card = self.cards[delta[1]]
            index = self.pile(card.zone, card.owner).index(card.number)
            back: list[Delta] = [
                ["move", card.number, card.zone, card.owner, index],
                ["attach", card.number, card.attached_to],
            ]
            if card.number in self.face_down:
                back.append(["facedown", card.number, self.face_down[card.number]])
            return back
        if kind == "order":
            return [["order", delta[1], delta[2], list(self.pile(delta[1], delta[2]))]]
        if kind == "add":
            return [["discard-new", delta[1]["number"]], ["set", "next_number", self.next_number]]
        if kind == "attach":
            return [["attach", delta[1], self.cards[delta[1]].attached_to]]
        if kind == "deck":
            return [["deck", delta[1], self.cards[delta[1]].deck_owner]]
        if kind == "face":
            card = self.cards[delta[1]]
            return [["face", card.number, card_face(card)]]
        if kind == "facedown":
            return [["facedown", delta[1], self.face_down.get(delta[1])]]
        if kind == "setting":
            return [["setting", delta[1], self.settings.get(delta[1])]]
        if kind == "seats":
            return [["seats", seat_dicts(self.seats)]]
        if kind == "left-game":
            return [["left-game", list(self.left_game)]]
        if kind == "turn":
            return [["turn", dict(vars(self.turn))]]
        if kind == "built-against":
            return [["built-against", delta[1], self.built_against.get(delta[1])]]
        if kind == "set":
            return [["set", delta[1], getattr(self, delta[1])]]
        if kind == "seen":
            return [["seen", delta[1], self.seen.get(delta[1])]]
        if kind == "propose":
            return [["decide", delta[1]["id"], "undone"], ["set", "next_proposal", self.next_proposal]]
        if kind == "vote":
            _, proposal_id, account, _choice = delta
            return [["vote", proposal_id, account, self.proposals[proposal_id].votes.get(account)]]
        if kind == "decide":
            restore: list[Delta] = [["propose", proposal_dict(self.proposals[delta[1]])]]
            if delta[1] in self.vote_opened:
                restore.append(["opened", delta[1], self.vote_opened[delta[1]]])
            return restore
        if kind == "opened":
            return [["opened", delta[1], self.vote_opened.get(delta[1])]]
        if kind == "bundle":
            undo: list[Delta] = []
            for proposal_id in delta[1]:
                proposal = self.proposals[proposal_id]
                undo.append(["bundle", [proposal_id], proposal.bundle])
                undo.extend(["vote", proposal_id, account, choice] for account, choice in proposal.votes.items())
            return undo
        raise ValueError(f"unknown delta {kind!r}")

    def apply(self, delta: Delta) -> set[int]:
        """Make one change; returns the numbers of cards whose stored row changed."""
        kind = delta[0]
        if kind == "move":
            _, number, zone, owner, index = delta
            return self._move(number, zone, owner, index)
        if kind == "order":
            _, zone, owner, order = delta
            return self._reorder(zone, owner, list(order))
        if kind == "add":
            card = Card(**delta[1])
            self.cards[card.number] = card
            self.next_number = max(self.next_number, card.number + 1)
            self.piles.setdefault((card.zone, card.owner), []).append(card.number)
            return {card.number}
        if kind == "attach":
            _, number, host = delta
            self.cards[number].attached_to = host
            return {number}
        if kind == "discard-new":
            # Only ever applied to undo an "add" that was never stored.
            card = self.cards.pop(delta[1])
            self.piles[(card.zone, card.owner)].remove(card.number)
            if not self.piles[(card.zone, card.owner)]:
                del self.piles[(card.zone, card.owner)]
            return set()
        if kind == "deck":
            _, number, owner = delta
            self.cards[number].deck_owner = owner
            return {number}
        if kind == "face":
            _, number, face = delta
            card = self.cards[number]
            for key in ("name", "kind", "text", "colour", "version"):
                if key in face:
                    setattr(card, key, face[key])
            return {number}
        if kind == "facedown":
            # A card turned face down (with the label others know it by) or face up (None).
            _, number, label = delta
            if label is None:
                self.face_down.pop(number, None)
            else:
                self.face_down[number] = label
            return set()
        if kind == "setting":
            _, name, value = delta
            self.settings[name] = value
            return set()
        if kind == "seats":
            self.seats = [Seat(**seat) for seat in delta[1]]
            return set()
        if kind == "left-game":
            self.left_game = [int(account) for account in delta[1]]
            return set()
        if kind == "turn":
            self.turn = Turn(**delta[1])
            return set()
        if kind == "built-against":
            _, player, version = delta
            if version is None:
                self.built_against.pop(player, None)
            else:
                self.built_against[player] = version
            return set()
        if kind == "propose":
            proposal = proposal_from_dict(delta[1])
            self.proposals[proposal.id] = proposal
            self.next_proposal = max(self.next_proposal, proposal.id + 1)
            return set()
        if kind == "vote":
            _, proposal_id, account, choice = delta
            votes = self.proposals[proposal_id].votes
            if choice is None:
                votes.pop(account, None)
            else:
                votes[account] = choice
            return set()
        if kind == "decide":
            del self.proposals[delta[1]]
            self.vote_opened.pop(delta[1], None)
            return set()
        if kind == "opened":
            # When a pending proposal's vote was opened (None: forget it, to undo).
            _, proposal_id, when = delta
            if when is None:
                self.vote_opened.pop(proposal_id, None)
            elif proposal_id not in self.proposals:
                raise KeyError(f"no pending proposal {proposal_id}")
            else:
                self.vote_opened[proposal_id] = when
            return set()
        if kind == "bundle":
            # Proposals lumped together start their vote afresh (the bundler's votes follow).
            _, ids, bundle = delta
            for proposal_id in ids:
                self.proposals[proposal_id].bundle = bundle
                self.proposals[proposal_id].votes = {}
            return set()
        if kind == "seen":
            _, account, pile = delta
            if pile is None:
                self.seen.pop(account, None)
            else:
                self.seen[account] = list(pile)
            return set()
        if kind == "set":
            _, name, value = delta
            if name not in ("phase", "host", "result", "next_number", "next_proposal", "deck_version"):
                raise ValueError(f"unknown table field {name!r}")
            setattr(self, name, value)
            return set()
        raise ValueError(f"unknown delta {kind!r}")

    def _move(self, number: int, zone: str, owner: int, index: int) -> set[int]:
        card = self.cards[number]
        if (zone, owner) != (card.zone, card.owner):
            self.face_down.pop(number, None)
        changed = {number}
        source = self.piles[(card.zone, card.owner)]
        at = source.index(number)
        del source[at]
        changed.update(source[at:])
        if not source:
            del self.piles[(card.zone, card.owner)]
        target = self.piles.setdefault((zone, owner), [])
        if index < 0 or index >= len(target):
            target.append(number)
        else:
            target.insert(index, number)
            changed.update(target[index + 1 :])
        card.zone, card.owner = zone, owner
        if zone != PLAY:
            card.attached_to = None
        return changed

    def _reorder(self, zone: str, owner: int, order: list[int]) -> set[int]:
        current = self.piles.get((zone, owner), [])
        if sorted(current) != sorted(order):
            raise ValueError(f"new order for {zone}/{owner} is not a permutation of the pile")
        if order:
            self.piles[(zone, owner)] = order
        return set(order)


def is_approved(card: Card) -> bool:
    """Whether ``card`` is one of the approved cards of the deck (in a CCG room, of the
    card set): not a rule, not waiting, rejected or removed, and not a copy in a deck."""
    return card.copy_of is None and card.zone in (*DECK_ZONES, SET)


def card_face(card: Card) -> dict[str, Any]:
    """What a card says (its face), as stored in a "face" delta and in its history."""
    return {"name": card.name, "kind": card.kind, "text": card.text, "colour": card.colour, "version": card.version}


def proposal_dict(proposal: Proposal) -> dict[str, Any]:
    """A proposal as JSON-ready data (vote keys become ``[account, choice]`` pairs)."""
    data = asdict(proposal)
    data["votes"] = [[account, choice] for account, choice in proposal.votes.items()]
    return data


def proposal_from_dict(data: dict[str, Any]) -> Proposal:
    return Proposal(**{**data, "votes": {int(account): choice for account, choice in data["votes"]}})


def seat_dicts(seats: list[Seat]) -> list[dict[str, Any]]:
    """Seats as a delta holds them (``absent`` and ``bot`` only when set, as logs made
    before they were kept hold them)."""
    return [{k: v for k, v in vars(seat).items() if k not in ("absent", "bot") or v} for seat in seats]


def card_dict(card: Card) -> dict[str, Any]:
    """A card as a delta holds it (``copy_of`` only for a copy, as logs made before
    copies existed hold cards)."""
    return {key: value for key, value in vars(card).items() if key != "copy_of" or value is not None}
