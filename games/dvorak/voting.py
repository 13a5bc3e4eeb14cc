"""Making the deck by vote: new cards and special rules, edits and removals, and how the
table decides them.

Only seated players still in the game vote; whoever proposes counts as approving. The
``vote`` setting is the policy: ``unanimous`` (everyone approves; any rejection decides
against), ``majority`` (more than half approve, or enough reject that they cannot), or
``any`` (the original engine: the first approve or repeal decides). A player away
(disconnected) longer than the server's grace period stops counting until they are back,
each an event of the log (``away``, ``back``). Whenever the set of voters changes, every
pending vote is counted again. Voting the same way twice is refused; voting the other way
changes one's vote (under ``any``, every vote decides at once).

With ``votetime`` set, a vote not decided that many seconds after it opened (proposed,
put to the vote again, or bundled) is decided then, whoever has not voted counting as
voting against (:meth:`Voting.time_up`): the room makes that move by itself
(:meth:`Voting.due`). When each vote opened is part of the table (``vote_opened``), so
the deadline survives restarts and replay rebuilds it.
"""

from __future__ import annotations

from dataclasses import replace

from games.base import Due
from games.dvorak.building import DeckBuilding
from games.dvorak.core import Event, RuleViolation, check_card_face
from games.dvorak.state import (
    APPROVE,
    DECK_ZONES,
    DRAW,
    EDIT,
    NEW_CARD,
    NEW_RULE,
    NO_OWNER,
    PENDING,
    PLAYING,
    REJECT,
    REJECTED,
    REMOVAL,
    REMOVED,
    RULES,
    SET,
    Card,
    Proposal,
    Seat,
    card_dict,
    proposal_dict,
)
from games.dvorak.visibility import copy_visible
from i18n import _

RULE_KIND = "Rule"


class Voting(DeckBuilding):
    """The proposal and vote moves of a table."""

    def voters(self) -> list[int]:
        """Who votes: the seated players still in the game, but not those away longer
        than the grace period (see :meth:`mark_absent`)."""
        return [seat.account_id for seat in self.state.active_seats() if not seat.absent]

    def mark_absent(self, account_id: int, absent: bool) -> None:
        """A seated player has been away longer than the grace period (``absent``), or is
        back: they stop or start counting in the vote, and every pending vote is counted
        again (an ``away`` or ``back`` event; nothing if they already are so)."""
        seat = self.state.seat(account_id)
        if seat is None or seat.absent == absent:
            return
        event = self._event("away" if absent else "back", account_id, player=account_id)
        self._set_seats(
            event, [replace(s, absent=absent) if s.account_id == account_id else s for s in self.state.seats]
        )
        self.recount_votes(event)

    def _voter(self, actor: int) -> Seat:
        seat = self.state.seat(actor)
        if seat is None:
            raise RuleViolation(_("Only players seated at this table vote and propose."))
        if seat.out:
            raise RuleViolation(_("You have been eliminated, so you no longer vote or propose."))
        return seat

    def _proposer(self, actor: int) -> Seat:
        """A seated player who may propose now: during a CCG game nobody may."""
        seat = self._voter(actor)
        if self.ccg and self.state.phase == PLAYING:
            raise RuleViolation(_("During a CCG game nobody may propose or edit cards; the set changes between games."))
        return seat

    def policy(self) -> str:
        """How proposals are decided: the ``vote`` setting, but a CCG set changes only by
        unanimous vote."""
        return "unanimous" if self.ccg else str(self.settings["vote"])

    def _proposal_about(self, number: int) -> Proposal:
        proposal = self.state.pending_for(number)
        if proposal is None:
            self.card(number)
            refusal = _("Nothing about #{number} is waiting for a vote (viewvote lists what is).")
            raise RuleViolation(refusal.format(number=number))
        return proposal

    def _free_to_propose_about(self, actor: int, number: int) -> Card:
        card = self.card(number)
        if card.copy_of is not None:
            # Which set card another's hidden copy is would tell their deck.
            if copy_visible(self.state, number, actor):
                refusal = _("#{number} is a copy of #{card}: propose changes to the set card.")
            else:
                refusal = _("#{number} is a copy: propose changes to the set card.")
            raise RuleViolation(refusal.format(number=number, card=card.copy_of))
        if card.zone == REMOVED:
            raise RuleViolation(_("#{number} has been removed from the game.").format(number=number))
        if self.state.pending_for(number) is not None:
            refusal = _("#{number} already has a proposal waiting for its vote (viewvote).")
            raise RuleViolation(refusal.format(number=number))
        return card

    def _propose(self, event: Event, kind: str, subject: int, actor: int, face: dict[str, str] | None = None) -> None:
        proposal = Proposal(
            self.state.next_proposal, kind, subject, actor, self.name_of(actor), face, None, {actor: APPROVE}
        )
        self._change(event, ["propose", proposal_dict(proposal)])
        self._open_vote(event, [proposal.id])
        self._count(event, self.state.proposals[proposal.id])

    def restart_vote_clocks(self, event: Event) -> None:
        """The vote time changed: every pending vote's time counts afresh from now."""
        self._open_vote(event, sorted(self.state.proposals))

    def propose_card(self, actor: int, name: str, kind: str, text: str, colour: str = "") -> int:
        """Propose a new card; it waits, numbered, for the table's vote. Its number."""
        self._proposer(actor)
        name, kind, text = check_card_face(name, kind, text)
        self._unique_in_set(name)
        number = self.state.next_number
        event = self._event("newcard", actor, card=number)
        card = Card(number, name, kind, text, actor, self.name_of(actor), PENDING, NO_OWNER, colour=colour)
        self._change(event, ["add", card_dict(card)])
        self._propose(event, NEW_CARD, number, actor)
        return number

    def propose_rule(self, actor: int, name: str, text: str) -> int:
        """Propose a special rule: voted like a card, in force at once when accepted."""
        self._proposer(actor)
        name, _kind, text = check_card_face(name, RULE_KIND, text)
        number = self.state.next_number
        event = self._event("newrule", actor, card=number)
        rule = Card(number, name, RULE_KIND, text, actor, self.name_of(actor), PENDING, is_rule=True)
        self._change(event, ["add", card_dict(rule)])
        self._propose(event, NEW_RULE, number, actor)
        return number

    def propose_edit(self, actor: int, number: int, name: str, kind: str, text: str) -> None:
        """Propose new words for a card or rule, wherever it is (rejected ones too)."""
        self._proposer(actor)
        card = self._free_to_propose_about(actor, number)
        if card.zone == PENDING:
            raise RuleViolation(_("#{number} is itself still being voted on.").format(number=number))
        name, kind, text = check_card_face(name, RULE_KIND if card.is_rule else kind, text)
        if card.zone == SET:
            self._unique_in_set(name, besides=number)
        face = {"name": name, "kind": kind, "text": text}
        event = self._event("editcard", actor, card=number, face=face)
        self._propose(event, EDIT, number, actor, face)

    def propose_removal(self, actor: int, number: int) -> None:
        """Propose taking a card (or repealing a rule) out of the game."""
        self._proposer(actor)
        card = self._free_to_propose_about(actor, number)
        if card.zone == PENDING:
            refusal = _("#{number} is still being voted on; its proposer can withdraw it.")
            raise RuleViolation(refusal.format(number=number))
        event = self._event("removecard", actor, card=number)
        self._propose(event, REMOVAL, number, actor)

    def vote(self, actor: int, number: int, choice: str) -> None:
        """Approve or reject what is pending about card ``number`` (its whole bundle)."""
        self._voter(actor)
        proposal = self._proposal_about(number)
        if proposal.votes.get(actor) == choice and self.policy() != "any":
            if choice != APPROVE:
                refusal = _("You already voted to repeal #{number}.")
            elif actor == proposal.proposer:
                refusal = _("You already approved #{number} (proposing it counts as approving).")
            else:
                refusal = _("You already approved #{number}.")
            raise RuleViolation(refusal.format(number=number))
        group = self.state.bundle_of(proposal)
        event = self._event("vote", actor, card=number, choice=choice, cards=[p.subject for p in group])
        for member in group:
            self._change(event, ["vote", member.id, actor, choice])
        if self.policy() == "any":
            self._decide(event, group, choice == APPROVE)
        else:
            self._count(event, proposal)

    def withdraw(self, actor: int, number: int) -> None:
        """Call off a proposal (its proposer, or the host)."""
        proposal = self._proposal_about(number)
        if actor not in (proposal.proposer, self.state.host):
            refusal = _("Only {name}, who proposed it, or the host can withdraw it.")
            raise RuleViolation(refusal.format(name=proposal.proposer_name))
        event = self._event("withdraw", actor, card=number)
        left = [member for member in self.state.bundle_of(proposal) if member.id != proposal.id]
        self._close(event, proposal, "withdrawn")
        if left:
            # What was approved was the whole bundle: what is left of it is a new vote
            # (if it is one player's proposals, proposing them counts as approving).
            ids = [member.id for member in left]
            self._change(event, ["bundle", ids, left[0].bundle])
            if len({member.proposer for member in left}) == 1:
                for proposal_id in ids:
                    self._change(event, ["vote", proposal_id, left[0].proposer, APPROVE])
            self._open_vote(event, ids)
            self._count(event, self.state.proposals[ids[0]])

    def revote(self, actor: int, number: int) -> None:
        """Put a rejected card or rule to the vote again."""
        self._proposer(actor)
        card = self.card(number)
        if card.zone != REJECTED:
            refusal = _("#{number} was not rejected, so there is nothing to vote on again.")
            raise RuleViolation(refusal.format(number=number))
        if not card.is_rule:
            self._unique_in_set(card.name)
        event = self._event("revote", actor, card=number)
        self._move(event, number, PENDING, NO_OWNER)
        self._propose(event, NEW_RULE if card.is_rule else NEW_CARD, number, actor)

    def bundle(self, actor: int, numbers: list[int]) -> None:
        """Lump pending proposals into one vote that accepts or rejects them all."""
        self._voter(actor)
        if len(set(numbers)) < 2:
            raise RuleViolation(_("A bundle needs at least two pending proposals."))
        ids: set[int] = set()
        for number in numbers:
            ids.update(p.id for p in self.state.bundle_of(self._proposal_about(number)))
        members = sorted(ids)
        bundles = {self.state.proposals[i].bundle for i in members}
        if len(bundles) == 1 and None not in bundles:
            # Bundling them again would only start the vote afresh: anyone could stall it.
            subjects = [f"#{self.state.proposals[i].subject}" for i in members]
            listed = _("{names} and {last}").format(names=", ".join(subjects[:-1]), last=subjects[-1])
            first = self.state.proposals[members[0]].subject
            refusal = _("{cards} are already one bundle: vote on it with approve {number} or repeal {number}.")
            raise RuleViolation(refusal.format(cards=listed, number=first))
        event = self._event("bundle", actor, cards=[self.state.proposals[i].subject for i in members])
        # One vote on them all, afresh: but a vote cast alike on each (their proposer's,
        # if one player proposed them all) holds for the bundle, as does the bundler's.
        lead, *others = (self.state.proposals[i] for i in members)
        votes = {
            account: choice
            for account, choice in lead.votes.items()
            if all(p.votes.get(account) == choice for p in others)
        }
        votes[actor] = APPROVE
        self._change(event, ["bundle", members, members[0]])
        for proposal_id in members:
            for account, choice in votes.items():
                self._change(event, ["vote", proposal_id, account, choice])
        self._open_vote(event, members)
        self._count(event, self.state.proposals[members[0]])

    def vote_deadline(self) -> tuple[float, int] | None:
        """When the first pending vote times out, and its proposal's id (None: no vote
        does, as with ``votetime`` 0, or votes opened before their time was kept)."""
        votetime = self.settings["votetime"]
        opened = self.state.vote_opened
        if not votetime or not opened:
            return None
        return min((when + votetime, proposal_id) for proposal_id, when in opened.items())

    def due(self) -> Due | None:
        """A vote's time running out (see :meth:`time_up`)."""
        deadline = self.vote_deadline()
        if deadline is None:
            return None
        at, proposal_id = deadline
        opened = self.state.vote_opened[proposal_id]
        return Due(max(0.0, at - self.clock()), NO_OWNER, lambda table: table.time_up(proposal_id, opened), "vote")

    def time_up(self, proposal_id: int, opened: float) -> None:
        """The vote on a proposal (opened at ``opened``) has run out of time: whoever has
        not voted counts as voting against. Unanimous: rejected unless everyone approved;
        majority: decided on that count; any: rejected."""
        proposal = self.state.proposals.get(proposal_id)
        votetime = self.settings["votetime"]
        if proposal is None or self.state.vote_opened.get(proposal_id) != opened or not votetime:
            raise RuleViolation(_("That vote is no longer waiting for its time to run out."))
        if self.clock() < opened + votetime:
            raise RuleViolation(_("The vote on #{number} still has time.").format(number=proposal.subject))
        group = self.state.bundle_of(proposal)
        voters = self.voters()
        approving = [account for account in voters if proposal.votes.get(account) == APPROVE]
        policy = self.policy()
        if policy == "unanimous":
            accepted = bool(voters) and len(approving) == len(voters)
        elif policy == "majority":
            accepted = len(approving) * 2 > len(voters)
        else:
            accepted = False
        silent = [[account, self.name_of(account)] for account in voters if account not in proposal.votes]
        event = self._event("timeup", NO_OWNER, card=proposal.subject, cards=[p.subject for p in group], silent=silent)
        self._decide(event, group, accepted)

    def recount_votes(self, event: Event) -> None:
        """The voters changed: count every pending vote again."""
        counted: set[int] = set()
        for proposal in list(self.state.proposals.values()):
            if proposal.id in counted or proposal.id not in self.state.proposals:
                continue
            counted.update(p.id for p in self.state.bundle_of(proposal))
            self._count(event, proposal)

    def _outcome(self, proposal: Proposal) -> bool | None:
        """True: accepted; False: rejected; None: still open."""
        policy = self.policy()
        voters = set(self.voters())
        if policy == "any" or not voters:
            return None
        votes = [choice for account, choice in proposal.votes.items() if account in voters]
        approve, reject = votes.count(APPROVE), votes.count(REJECT)
        if policy == "unanimous":
            if reject:
                return False
            return True if approve == len(voters) else None
        if approve * 2 > len(voters):
            return True
        if (len(voters) - reject) * 2 <= len(voters):
            return False
        return None

    def _count(self, event: Event, proposal: Proposal) -> None:
        outcome = self._outcome(proposal)
        if outcome is not None:
            self._decide(event, self.state.bundle_of(proposal), outcome)

    def _decide(self, event: Event, group: list[Proposal], accepted: bool) -> None:
        for proposal in group:
            self._carry_out(event, proposal, accepted)
            self._change(event, ["decide", proposal.id, "accepted" if accepted else "rejected"])
        decision = {"proposals": [[p.subject, p.kind] for p in group], "accepted": accepted}
        if self.ccg:
            decision["set"] = True
        event.data.setdefault("decided", []).append(decision)

    def _carry_out(self, event: Event, proposal: Proposal, accepted: bool) -> None:
        card = self.state.cards[proposal.subject]
        approved = card.zone in (*DECK_ZONES, SET, RULES)
        if proposal.kind in (NEW_CARD, NEW_RULE):
            if not accepted:
                self._move(event, card.number, REJECTED, NO_OWNER)
                return
            if proposal.kind == NEW_RULE:
                self._move(event, card.number, RULES, NO_OWNER)
            elif self.ccg:
                self._move(event, card.number, SET, NO_OWNER)
            else:
                self._shuffle_in(event, card)
            self._set_changed(event)
        elif proposal.kind == EDIT and accepted:
            assert proposal.face is not None
            self._change(event, ["face", card.number, {**proposal.face, "version": card.version + 1}])
            self._copies_follow(event, card)
            if approved:
                self._set_changed(event)
        elif proposal.kind == REMOVAL and accepted:
            self._leave_play(event, card)
            self._move(event, card.number, REMOVED, NO_OWNER)
            self._copies_go(event, card.number)
            if approved:
                self._set_changed(event)

    def _shuffle_in(self, event: Event, card: Card) -> None:
        """An accepted card goes into the draw pile at a random place (in a multi-deck
        game, its creator's own pile)."""
        owner = NO_OWNER
        if self.settings["multideck"] and self.state.seat(card.author) is not None:
            owner = card.author
            self._change(event, ["deck", card.number, owner])
        pile = self.state.pile(DRAW, owner)
        self._move(event, card.number, DRAW, owner, self.rng.randint(0, len(pile)))

    def _close(self, event: Event, proposal: Proposal, outcome: str) -> None:
        """End a proposal without a vote: a card or rule that was never accepted is removed."""
        if proposal.kind in (NEW_CARD, NEW_RULE):
            self._move(event, proposal.subject, REMOVED, NO_OWNER)
        self._change(event, ["decide", proposal.id, outcome])
