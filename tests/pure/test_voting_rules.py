"""Proposals and votes, without a socket: each policy with three and four voters, edits,
removals, rules, bundles, revotes, withdrawals, halting, and voters who leave."""

from __future__ import annotations

import random

import pytest

from games.dvorak.rules import RuleViolation, Table
from games.dvorak.state import DRAW, PENDING, REJECTED, REMOVED, RULES

NAMES = {1: "Ann", 2: "Bo", 3: "Cy", 4: "Di"}


def table_of(players: int, policy: str = "unanimous", deck: int = 6) -> Table:
    table = Table(rng=random.Random(5))
    for account in range(1, players + 1):
        table.sit(account, NAMES[account])
    table.change_setting(1, "vote", policy)
    for i in range(deck):
        table.load_card(1, "Ann", f"Card {i}", "T", "")
    table.take_changes()
    return table


def decided(table: Table) -> list[dict]:
    return [d for e in table.take_changes().events for d in e.data.get("decided", [])]


@pytest.mark.parametrize("players", [3, 4])
def test_unanimous_needs_everyone_and_any_repeal_rejects(players):
    table = table_of(players)
    number = table.propose_card(1, "Armageddon", "A", "Destroy all Things.")
    assert table.state.cards[number].zone == PENDING
    for voter in range(2, players):
        table.vote(voter, number, "approve")
        assert table.state.pending_for(number) is not None
    table.vote(players, number, "approve")
    assert table.state.pending_for(number) is None
    assert table.state.cards[number].zone == DRAW
    second = table.propose_card(2, "Nope", "T", "")
    table.vote(3, second, "reject")
    assert table.state.cards[second].zone == REJECTED


@pytest.mark.parametrize(("players", "approvals_to_win"), [(3, 2), (4, 3)])
def test_majority_accepts_with_more_than_half(players, approvals_to_win):
    table = table_of(players, "majority")
    number = table.propose_card(1, "Popular", "T", "")
    for voter in range(2, approvals_to_win):
        table.vote(voter, number, "approve")
        assert table.state.pending_for(number) is not None
    table.vote(approvals_to_win, number, "approve")
    assert table.state.cards[number].zone == DRAW


@pytest.mark.parametrize("players", [3, 4])
def test_majority_rejects_once_a_majority_is_impossible(players):
    table = table_of(players, "majority")
    number = table.propose_card(1, "Divisive", "T", "")
    table.vote(2, number, "reject")
    assert table.state.pending_for(number) is not None
    # With three voters, 1 for and 2 against; with four, a 2-2 tie: no majority can form.
    table.vote(3, number, "reject")
    assert table.state.cards[number].zone == REJECTED


@pytest.mark.parametrize("players", [3, 4])
def test_any_means_the_first_vote_decides(players):
    table = table_of(players, "any")
    first = table.propose_card(1, "Quick", "T", "")
    assert table.state.pending_for(first) is not None  # proposing is not a vote here
    table.vote(players, first, "approve")
    assert table.state.cards[first].zone == DRAW
    second = table.propose_card(1, "Quicker", "T", "")
    table.vote(2, second, "reject")
    assert table.state.cards[second].zone == REJECTED


def test_a_lone_player_proposing_decides_at_once_and_spectators_cannot_vote():
    table = table_of(1)
    number = table.propose_card(1, "Solo", "T", "")
    assert table.state.cards[number].zone == DRAW
    crowded = table_of(2)
    pending = crowded.propose_card(1, "Duo", "T", "")
    with pytest.raises(RuleViolation, match="Only players seated at this table vote"):
        crowded.vote(9, pending, "approve")


def test_a_voter_leaving_gets_the_vote_counted_again():
    table = table_of(3)
    number = table.propose_card(1, "Waiting", "T", "")
    table.vote(2, number, "approve")
    table.take_changes()
    table.unseat(3, 3)
    assert decided(table) == [{"proposals": [[number, "card"]], "accepted": True}]
    assert table.state.cards[number].zone == DRAW


def test_edits_change_cards_in_place_and_keep_versions():
    table = table_of(2)
    table.propose_edit(1, 1, "Card Zero Mk II", "A", "Now an action.")
    with pytest.raises(RuleViolation, match="already has a proposal"):
        table.propose_removal(2, 1)
    table.vote(2, 1, "approve")
    card = table.state.cards[1]
    assert (card.name, card.kind, card.text, card.version) == ("Card Zero Mk II", "A", "Now an action.", 2)
    assert card.zone == DRAW


def test_removal_takes_a_card_out_of_every_pile():
    table = table_of(2)
    table.start(1, forced=True)
    in_hand = table.hand(2)[0]
    table.propose_removal(1, in_hand)
    table.vote(2, in_hand, "approve")
    assert table.state.cards[in_hand].zone == REMOVED
    assert in_hand not in table.hand(2)


def test_special_rules_are_voted_in_and_never_drawn():
    table = table_of(2)
    rule = table.propose_rule(1, "Five Wheels", "The first player to control five wheels wins.")
    table.vote(2, rule, "approve")
    assert table.state.cards[rule].zone == RULES
    table.start(1, forced=True)
    everywhere = [n for (zone, _), pile in table.state.piles.items() if zone != RULES for n in pile]
    assert rule not in everywhere
    table.propose_removal(2, rule)
    table.vote(1, rule, "approve")
    assert table.state.cards[rule].zone == REMOVED


def test_bundles_are_decided_together():
    table = table_of(3)
    egg = table.propose_card(1, "Egg", "T", "")
    flamethrower = table.propose_card(2, "Flamethrower", "T", "")
    table.bundle(3, [egg, flamethrower])
    table.vote(1, egg, "approve")
    assert table.state.pending_for(egg) is not None
    table.vote(2, flamethrower, "approve")
    assert table.state.cards[egg].zone == DRAW and table.state.cards[flamethrower].zone == DRAW
    a = table.propose_card(1, "A", "T", "")
    b = table.propose_card(1, "B", "T", "")
    table.bundle(1, [a, b])
    table.vote(2, b, "reject")
    assert table.state.cards[a].zone == REJECTED and table.state.cards[b].zone == REJECTED


def test_bundling_what_is_already_one_bundle_again_is_refused_and_keeps_its_votes():
    table = table_of(4)
    a = table.propose_card(1, "A", "T", "")
    b = table.propose_card(2, "B", "T", "")
    c = table.propose_card(3, "C", "T", "")
    table.bundle(3, [a, b, c])
    table.vote(4, a, "approve")
    votes = dict(table.state.pending_for(a).votes)
    table.take_changes()
    refused = rf"#{a}, #{b} and #{c} are already one bundle: vote on it with approve {a}"
    for again in ([b, a, c], [a, c], [c, c, b]):
        with pytest.raises(RuleViolation, match=refused):
            table.bundle(2, again)
        assert table.state.pending_for(a).votes == table.state.pending_for(c).votes == votes
    assert table.take_changes().events == []
    # A bundle grows by bundling it with another proposal: that is a new vote.
    d = table.propose_card(4, "D", "T", "")
    table.bundle(4, [a, d])
    assert table.state.pending_for(d).bundle == table.state.pending_for(a).bundle


def test_a_bundle_keeps_the_votes_cast_alike_on_all_it_lumps_together():
    # Bundling used to wipe every vote but the bundler's: a proposer bundled by someone
    # else no longer approved their own cards (viewvote: "approve: Cy", not Ann).
    table = table_of(4)
    a = table.propose_card(1, "A", "T", "")
    b = table.propose_card(1, "B", "T", "")
    c = table.propose_card(2, "C", "T", "")
    table.vote(4, a, "approve")
    table.vote(4, b, "approve")
    table.bundle(3, [a, b])
    kept = {1: "approve", 4: "approve", 3: "approve"}
    assert table.state.pending_for(a).votes == table.state.pending_for(b).votes == kept
    # Bo's card and Ann's two: nobody approved all three but the bundler; Di approved two.
    table.bundle(3, [a, c])
    assert table.state.pending_for(c).votes == {3: "approve"}
    # Withdrawn from the bundle, Bo's card leaves Ann's two to a new vote (what Cy
    # approved was the bundle with it); she proposed all that is left.
    table.withdraw(2, c)
    assert table.state.pending_for(a).votes == table.state.pending_for(b).votes == {1: "approve"}
    for voter in (2, 3):
        table.vote(voter, a, "approve")
    assert table.state.pending_for(a) is not None  # Di has not approved them
    table.vote(4, b, "approve")
    assert table.state.cards[a].zone == table.state.cards[b].zone == DRAW


def test_a_proposal_withdrawn_from_a_bundle_leaves_the_rest_to_a_new_vote():
    # The bundler's approval, given to a bundle with their own card in it, decided the
    # others' cards the moment their own was withdrawn.
    table = table_of(3)
    a = table.propose_card(2, "A", "T", "")
    b = table.propose_card(2, "B", "T", "")
    table.vote(1, a, "approve")
    table.vote(1, b, "approve")
    c = table.propose_card(3, "C", "T", "")
    table.bundle(3, [a, b, c])
    table.withdraw(1, c)
    assert table.state.pending_for(a).votes == {2: "approve"}
    assert table.state.cards[a].zone == table.state.cards[b].zone == PENDING


def test_undo_of_a_withdrawal_from_a_bundle_restores_its_votes():
    table = table_of(3)
    a = table.propose_card(1, "A", "T", "")
    b = table.propose_card(1, "B", "T", "")
    c = table.propose_card(2, "C", "T", "")
    table.bundle(3, [a, b, c])
    table.take_changes()
    before = table.state.copy()
    table.withdraw(2, c)
    table.undo(table.take_changes())
    assert table.state == before


def test_withdraw_and_revote():
    table = table_of(2)
    number = table.propose_card(1, "Second thoughts", "T", "")
    with pytest.raises(RuleViolation, match="Only Ann, who proposed it, or the host"):
        table.withdraw(2, number)
    table.withdraw(1, number)
    assert table.state.cards[number].zone == REMOVED
    rejected = table.propose_card(1, "Try again", "T", "")
    table.vote(2, rejected, "reject")
    with pytest.raises(RuleViolation, match="was not rejected"):
        table.revote(2, 1)
    table.revote(2, rejected)
    table.vote(1, rejected, "approve")
    assert table.state.cards[rejected].zone == DRAW


def test_halt_makes_card_moves_wait_for_the_vote():
    table = table_of(2, deck=12)
    table.change_setting(1, "halt", "on")
    table.start(1)
    table.state.apply(["turn", {"player": 1, "number": 1}])
    number = table.propose_card(2, "Wait for me", "T", "")
    with pytest.raises(RuleViolation, match=f"Play waits for the vote on #{number} \\(halt is on\\)"):
        table.draw(1)
    table.vote(1, number, "approve")
    table.draw(1)


def test_undo_restores_votes_and_bundles_exactly():
    table = table_of(3)
    a = table.propose_card(1, "A", "T", "")
    b = table.propose_card(2, "B", "T", "")
    table.vote(3, a, "approve")
    table.take_changes()
    before = table.state.copy()
    table.bundle(3, [a, b])
    table.vote(1, b, "approve")
    table.undo(table.take_changes())
    assert table.state == before
