"""Random play over the CCG game, face-down play and the draw pile's order together:
after every move the table is sound, and replaying the events rebuilds it exactly."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.dvorak.deck import snapshot
from games.dvorak.invariants import table_problems
from games.dvorak.kind import KIND
from games.dvorak.rules import RuleViolation, Table
from tests.pure.test_ccg_rules import replayed

ANN, BO, CY = 1, 2, 3
NAMES = {ANN: "Ann", BO: "Bo", CY: "Cy"}

MOVES = (
    [
        "draw",
        "play",
        "facedown",
        "flip",
        "flip_label",
        "destroy",
        "give",
        "givething",
        "shufcard",
        "putcard",
        "viewdraw",
        "reorder",
        "discard",
        "endturn",
    ]
    * 8
    + [
        "add",
        "remove",
        "clear",
        "bring",
        "ccg",
        "newcard",
        "approve",
        "reject",
        "editcard",
        "removecard",
        "sit",
        "eliminate",
        "start",
        "endgame",
        "win",
        "turns",
        "save_load",
    ]
    * 2
    + ["leave", "kick"]
)


def _move(table: Table, move: str, number: int, player: int, forced: bool, rng: random.Random) -> None:
    cards = sorted(table.state.cards) or [1]
    card = cards[number % len(cards)]
    # Most moves name a card where the move wants it, so that games get somewhere.
    wanted = {
        "play": table.hand(player),
        "facedown": table.hand(player),
        "discard": table.hand(player),
        "flip": sorted(table.state.face_down),
        "destroy": [n for p in table.state.seats for n in table.in_play(p.account_id)],
        "approve": sorted(p.subject for p in table.state.proposals.values()),
        "reject": sorted(p.subject for p in table.state.proposals.values()),
        "add": [c.number for c in table.set_cards()],
        "remove": [c.number for c in table.set_cards()],
        "editcard": [c.number for c in table.set_cards()],
        "removecard": [c.number for c in table.set_cards()],
    }.get(move, [])
    if wanted and number % 4:
        card = wanted[number % len(wanted)]
    if table.state.phase == "playing" and number % 3 and move not in ("sit", "leave", "kick"):
        player = table.state.turn.player if table.state.seat(table.state.turn.player) else player
    other = rng.choice([ANN, BO, CY])
    host = table.state.host
    labels = sorted(table.state.face_down.values())
    if move == "draw":
        table.draw(player, forced=forced)
    elif move == "play":
        table.play(player, card, forced=forced)
    elif move == "facedown":
        table.play_face_down(player, card, forced=forced)
    elif move == "flip":
        table.flip(player, card, by_label=False, forced=forced)
    elif move == "flip_label":
        if labels:
            table.flip(player, table.face_down_number(rng.choice(labels)), by_label=True, forced=forced)
    elif move == "destroy":
        table.destroy(player, card, forced=forced)
    elif move == "give":
        table.give(player, card, other, forced=forced)
    elif move == "givething":
        table.give(player, card, other, as_thing=True, forced=forced)
    elif move == "shufcard":
        table.shuffle_card(player, card, forced=forced)
    elif move == "putcard":
        table.put_on_draw(player, card, rng.choice([1, 2, None, 10**12]), forced=forced)
    elif move == "viewdraw":
        table.view_draw(player, forced=forced)
    elif move == "reorder":
        top = list(table.state.pile(*table.draw_key(player)))[-rng.randint(1, 3) :]
        rng.shuffle(top)
        table.reorder_draw(player, top, forced=forced)
    elif move == "discard":
        table.discard(player, card, forced=forced)
    elif move == "endturn":
        table.end_turn(player, forced=forced)
    elif move == "add":
        table.build_add(player, card, rng.choice([1, 3, 8]))
    elif move == "remove":
        table.build_remove(player, card, rng.choice([1, 2]))
    elif move == "clear":
        table.build_clear(player)
    elif move == "bring":
        names = [c.name for c in table.set_cards()][:3] or ["Nothing"]
        table.bring_deck(player, "saved", [(name, rng.randint(1, 6)) for name in names])
    elif move == "ccg":
        table.change_setting(host, "ccg", rng.choice(["on", "off"]))
    elif move == "newcard":
        table.propose_card(player, f"Idea {number}", rng.choice(["A", "T"]), "words")
    elif move in ("approve", "reject"):
        table.vote(player, card, move)
    elif move == "editcard":
        table.propose_edit(player, card, f"Edited {number}", rng.choice(["A", "T"]), "new words")
    elif move == "removecard":
        table.propose_removal(player, card)
    elif move == "sit":
        table.sit(player, NAMES[player])
    elif move == "leave":
        table.unseat(player, player)
    elif move == "kick":
        table.unseat(host, other)
    elif move == "eliminate":
        table.eliminate(player, player)
    elif move == "start":
        # The host calls off the votes first, so that CCG games start often.
        for proposal in list(table.state.proposals.values()):
            if proposal.id in table.state.proposals:
                table.withdraw(host, proposal.subject)
        table.start(host, forced=forced or number % 2 == 0)
    elif move == "endgame":
        table.end_game(host, rng.choice(["", "draw", "stalemate"]))
    elif move == "win":
        table.win(host, other)
    elif move == "turns":
        table.change_setting(host, "turns", rng.choice(["on", "off"]))
    elif move == "save_load":
        saved = snapshot(table.state)
        was = table.ccg
        if was:
            table.change_setting(host, "ccg", "off")
        table.restore(host, "saved", saved, forced=True)


def run(seed: int, steps: list) -> None:
    table = Table(rng=random.Random(seed))
    for player in (ANN, BO, CY):
        table.sit(player, NAMES[player])
    table.change_setting(ANN, "ccg", "on")
    table.change_setting(ANN, "decksize", "1")
    for i in range(6):
        number = table.propose_card(ANN, f"Card {i}", "A" if i % 2 else "T", f"text {i}")
        table.vote(BO, number, "approve")
        table.vote(CY, number, "approve")
    for player in (ANN, BO, CY):
        for n in [c.number for c in table.set_cards()]:
            table.build_add(player, n, 2)
    if seed % 2:
        table.change_setting(ANN, "turns", "off")
    table.start(ANN)
    log = list(table.take_changes().events)
    rng = random.Random(seed)
    for move, number, player, forced in steps:
        try:
            _move(table, move, number, player, forced, rng)
        except RuleViolation:
            table.undo(table.take_changes())
            continue
        log.extend(table.take_changes().events)
        problems = table_problems(table.state)
        assert problems == [], (move, problems)
    assert KIND.differences(replayed(log), table.state) == []


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    steps=st.lists(
        st.tuples(st.sampled_from(MOVES), st.integers(0, 60), st.sampled_from([ANN, BO, CY]), st.booleans()),
        min_size=20,
        max_size=150,
    ),
)
def test_random_ccg_face_down_and_draw_order_moves_keep_the_table_sound_and_replayable(seed, steps):
    run(seed, steps)
