"""How Gnav reads as text: a few renderings, every event kind rendered, the look within
80 columns, and no swapped card in a third party's line."""

from __future__ import annotations

import random

from commands.gnav.render import RENDERERS, help_text, render_event, render_view
from games.base import PLAYING
from games.gnav import KIND, cards
from games.gnav.visibility import seat_view
from server.text import wrap_lines
from tests.gnav_helpers import seated, stack


def names(table) -> dict[int, str]:
    return {seat.account_id: seat.name for seat in table.state.seats}


def lines_for(table, events, viewer: int) -> list[str]:
    return [
        line
        for event in events
        if (
            line := render_event(
                KIND.event_for(table.state, event, viewer), event.kind, viewer, names(table), event.actor
            )
        )
    ]


def test_a_swap_reads_in_full_to_its_parties_and_as_a_bare_fact_to_the_others():
    table = seated(4)
    table.start(1)
    stack(table, 4, {1: "ii", 2: "x", 3: "vii", 4: "viii"})
    table.take_changes()
    table.swap(1)
    events = table.take_changes().events
    assert "You swap a II for Bo's X." in lines_for(table, events, 1)
    # "a X": a ten.
    assert "Ann swaps with you: you give a X and get a II." in lines_for(table, events, 2)
    for viewer in (3, 999):
        text = " ".join(lines_for(table, events, viewer))
        assert "Ann swaps cards with Bo." in text
        assert "II" not in text and " X" not in text


def test_a_player_removed_mid_match_reads_as_their_forfeit_not_the_host_s():
    table = seated(3)
    table.start(1)
    table.take_changes()
    table.unseat(1, 2)
    events = table.take_changes().events
    assert "You remove Bo from the table; Bo forfeits the match." in lines_for(table, events, 1)
    assert "Ann removes you from the table; you forfeit the match." in lines_for(table, events, 2)
    assert "Ann removes Bo from the table; Bo forfeits the match." in lines_for(table, events, 3)


def test_after_a_match_a_newcomer_is_listed_without_lives_and_the_loser_with_none_left():
    table = seated(2)
    table.start(1)
    table.state.apply(["set", "phase", "over"])
    table.state.apply(["seat", 2, {"lives": 0, "out": True}])
    table.sit(3, "Cy")
    rows = {line.split()[0]: line for line in render_view(seat_view(table.state, 1), "Fjord").splitlines()[2:5]}
    assert "lives" not in rows["Cy"]
    assert "0 lives" in rows["Bo"] and "3 lives" in rows["Ann"]


def test_a_player_who_left_mid_deal_is_not_in_the_order_of_play():
    table = seated(3)
    table.start(1)
    table.take_changes()
    before = render_view(seat_view(table.state, 1), "Fjord")
    assert "Bo" in next(line for line in before.splitlines() if line.startswith("Order of play:"))
    table.unseat(2, 2)
    after = render_view(seat_view(table.state, 1), "Fjord")
    order = next(line for line in after.splitlines() if line.startswith("Order of play:"))
    assert "Bo" not in order and "you" in order and "Cy" in order


def test_a_first_player_dealt_the_fool_reads_the_knock_before_being_told_to_play():
    dealt = {"deal": 2, "dealer": 2, "turn": 1, "card": "fool", "fools": [1], "resting": [], "seconds": 60}
    line = render_event(dealt, "deal", 1, {1: "Ann", 2: "Bo"}, 2)
    assert line.endswith(
        "You knock and show the Fool. It is your turn: keep or swap. (In 60 seconds you keep your card.)"
    )


def test_refusals_and_settlement_read_with_you_for_the_viewer():
    table = seated(3)
    table.start(1)
    stack(table, 3, {1: "ii", 2: "dragoon", 3: "v"})
    table.take_changes()
    table.swap(1)
    table.keep(3)
    events = table.take_changes().events
    mine = lines_for(table, events, 1)
    assert "You ask Bo to swap. Bo shows the Dragoon and refuses: you lose a life (2 lives left)." in mine
    assert any(line.startswith("Cards: you II, Bo Dragoon, Cy V. You lose a life") for line in mine)
    assert "Ann asks you to swap. You show the Dragoon and refuse: Ann loses a life (2 lives left)." in lines_for(
        table, events, 2
    )


def test_no_line_for_a_third_party_names_a_card_it_may_not_see():
    rng = random.Random(4)
    table = seated(2)
    table.add_bot(1, "normal")
    table.add_bot(1, "strong")
    table.start(1)
    for _ in range(200):
        if table.state.phase != PLAYING:
            break
        due = table.due()
        if due.reason == "timer":
            (table.swap if rng.random() < 0.5 else table.keep)(table.state.turn)
        else:
            due.move(table)
        for event in table.take_changes().events:
            if event.kind not in ("swap", "stock", "deal"):
                continue
            parties = {holder for holder, _secret in event.data.get("private", [])}
            for viewer in {seat.account_id for seat in table.state.seats} - parties | {999}:
                line = render_event(KIND.event_for(table.state, event, viewer), event.kind, viewer, names(table))
                secret_words = {
                    cards.english(card)
                    for _holder, secret in event.data.get("private", [])
                    for card in secret.values()
                    if card != cards.FOOL  # a dealt Fool is public
                }
                assert not any(f" {word}" in line for word in secret_words if len(word) > 1), line


def test_every_event_kind_has_a_renderer():
    kinds = {"join", "leave", "host", "addbot", "removebot", "set", "start", "deal", "keep", "timeout", "swap"}
    kinds |= {"pass", "refuse", "undo", "cuckoo", "stock", "turn", "settle", "rest", "out", "win", "draw", "skip"}
    assert kinds <= set(RENDERERS)


def test_the_look_marks_the_turn_the_dealer_the_bots_and_your_card_within_80_columns():
    table = seated(1)
    table.add_bot(1, "normal")
    table.add_bot(1, "strong")
    table.start(1)
    stack(table, -2, {1: "fool", -1: "vii", -2: "x"})
    text = render_view(seat_view(table.state, 1), "The Longhouse")
    assert "> Ann (you)" in text
    assert "Olga (bot, normal)" in text and "Sven (bot, strong)" in text
    assert "dealer" in text.splitlines()[4]
    assert "Your card: Fool (Narr)." in text
    assert "Shown this deal: you: Fool (dealt)." in text
    assert all(len(line) <= 80 for line in text.splitlines())
    table.swap(1)
    assert "Where you know the cards are now: Olga Fool." in render_view(seat_view(table.state, 1), "The Longhouse")
    spectator = render_view(seat_view(table.state, 999), "The Longhouse")
    assert "Your card" not in spectator and "Shown this deal: Ann: Fool (dealt)." in spectator


def test_help_names_cards_in_both_languages_and_quotes_every_reading():
    text = help_text()
    assert "Cuckoo (Gjøk)" in text and "Fool (Narr)" in text
    assert "Readings" in text and "A Horse or House that is passed is shown to everyone" in text
    # A paragraph a line, filled to the reader's window when sent (a phone's too), not
    # broken at 80 columns beforehand.
    assert "a Fool dealt is shown to all." in text
    assert all(len(line) <= 40 for line in wrap_lines(text, 40))
