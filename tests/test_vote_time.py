"""Halting votes and vote time: new rooms halt play for a vote until everyone has
answered, as the seeds play; a host may give votes a time, after which whoever has not
voted counts against; rooms made before keep what they had and replay soundly. The
rules with a clock the tests move, a room of the previous code, and the whole of it
over telnet."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import update

from games.base import NOBODY
from games.dvorak import settings as table_settings
from games.dvorak.deck import snapshot as deck_snapshot
from games.dvorak.kind import KIND
from games.dvorak.rules import RuleViolation, Table
from games.dvorak.state import DRAW, PENDING, REJECTED, TableState
from persistence.models import Room
from persistence.rooms import RoomStore
from server.audit import check_rooms, replay_rooms
from tests.harness import Clock
from tests.players import ScriptedPlayer, flat, loosely

NAMES = {1: "Ann", 2: "Bo", 3: "Cy", 4: "Di"}
START = 1_800_000_000.0


def new_room(players: int, policy: str = "unanimous", deck: int = 12) -> tuple[Table, Clock]:
    """A table as a new room has it, ``players`` seated, ``deck`` cards loaded, and the
    clock it reads."""
    clock = Clock(START)
    table = Table(KIND.new_room_state(), rng=random.Random(3), clock=clock)
    for account in range(1, players + 1):
        table.sit(account, NAMES[account])
    table.change_setting(1, "vote", policy)
    table.change_setting(1, "votetime", "300")
    for i in range(deck):
        table.load_card(1, "Ann", f"Card {i}", "T", "")
    table.take_changes()
    return table, clock


def test_a_new_room_halts_for_votes_without_a_time_while_the_log_starts_from_the_old_defaults():
    state = KIND.new_room_state()
    # Seed 003: "When a card is created it is immediately shown to all players for their
    # approval, halting play if necessary": the table waits, with no time limit.
    assert state.settings["halt"] is True and state.settings["votetime"] == 0
    assert state.opened_with == {"halt": True}
    assert KIND.new_state().settings == table_settings.log_start()
    assert KIND.new_state().settings["halt"] is False and KIND.new_state().settings["votetime"] == 0
    # Replay starts from what the room was opened with; a room of the previous code was
    # opened with nothing, so from the old defaults.
    assert KIND.replay_start(state).settings == state.settings
    assert KIND.replay_start(TableState(settings={"halt": False})).settings == table_settings.log_start()
    # A stored room without the new settings keeps what rooms had before them.
    old = Table(TableState(settings={"halt": False}))
    assert old.settings["halt"] is False and old.settings["votetime"] == 0 and old.due() is None


def test_play_waits_for_the_vote_by_default_in_a_new_room():
    table, _ = new_room(2)
    table.start(1)
    player = table.state.turn.player
    other = 3 - player
    number = table.propose_card(other, "Wait for me", "T", "")
    with pytest.raises(RuleViolation, match=f"Play waits for the vote on #{number} \\(halt is on\\)"):
        table.draw(player)
    table.vote(player, number, "approve")
    table.draw(player)


def test_the_host_may_still_turn_halt_off():
    table, _ = new_room(2)
    table.change_setting(1, "halt", "off")
    table.start(1)
    player = table.state.turn.player
    table.propose_card(3 - player, "Do not wait", "T", "")
    table.draw(player)


def test_time_up_under_unanimous_rejects_and_names_who_did_not_vote():
    table, clock = new_room(3)
    number = table.propose_card(1, "Armageddon", "A", "Destroy all Things.")
    proposal_id = table.state.pending_for(number).id
    assert table.state.vote_opened == {proposal_id: START}
    table.vote(2, number, "approve")
    clock.now += 200
    due = table.due()
    assert due is not None and due.reason == "vote" and due.actor == NOBODY and due.delay == 100
    with pytest.raises(RuleViolation, match="still has time"):
        due.move(table)
    assert table.state.pending_for(number) is not None
    clock.now += 100
    assert table.due().delay == 0
    table.take_changes()
    due.move(table)
    (event,) = table.take_changes().events
    assert event.kind == "timeup" and event.actor == NOBODY
    assert event.data["silent"] == [[3, "Cy"]]
    assert event.data["decided"] == [{"proposals": [[number, "card"]], "accepted": False}]
    assert table.state.cards[number].zone == REJECTED
    assert table.state.vote_opened == {} and table.due() is None
    # Made once: the same move again (another node's timer, say) is refused.
    with pytest.raises(RuleViolation, match="no longer waiting"):
        due.move(table)


@pytest.mark.parametrize("policy", ["majority", "any"])
def test_time_up_under_majority_and_any_counts_silence_against(policy):
    table, clock = new_room(4, policy)
    number = table.propose_card(1, "Popular", "T", "")
    if policy == "majority":
        table.vote(2, number, "approve")  # two of four: not more than half
    clock.now += 300
    table.take_changes()
    table.due().move(table)
    (event,) = table.take_changes().events
    silent = [[3, "Cy"], [4, "Di"]] if policy == "majority" else [[2, "Bo"], [3, "Cy"], [4, "Di"]]
    assert event.data["silent"] == silent
    assert table.state.cards[number].zone == REJECTED


def test_time_up_under_majority_decides_on_the_count_with_silence_against():
    # Players away past the grace period do not count, before the time is up or then;
    # those here who are silent count against.
    table, clock = new_room(4, "majority")
    number = table.propose_card(1, "Close", "T", "")
    table.mark_absent(3, True)
    table.mark_absent(4, True)
    assert table.state.pending_for(number) is not None  # one of two: not more than half
    table.vote(2, number, "approve")
    assert table.state.cards[number].zone == DRAW  # two of two
    other = table.propose_card(1, "Lonely", "T", "")
    table.mark_absent(3, False)
    clock.now += 300
    table.take_changes()
    table.due().move(table)
    (event,) = table.take_changes().events
    assert event.data["silent"] == [[2, "Bo"], [3, "Cy"]]
    assert table.state.cards[other].zone == REJECTED


def test_bundling_revoting_and_a_new_vote_time_open_the_vote_afresh():
    table, clock = new_room(3)
    a = table.propose_card(1, "A", "T", "")
    clock.now += 100
    b = table.propose_card(2, "B", "T", "")
    assert table.due().delay == 200  # A's time runs out first
    clock.now += 150
    table.bundle(3, [a, b])
    assert table.due().delay == 300
    clock.now += 300
    table.take_changes()
    table.due().move(table)
    event = table.take_changes().events[0]
    assert event.data["cards"] == [a, b] and event.data["silent"] == [[1, "Ann"], [2, "Bo"]]
    assert table.state.cards[a].zone == table.state.cards[b].zone == REJECTED
    clock.now += 1000
    table.revote(1, a)
    assert table.due().delay == 300
    clock.now += 250
    table.change_setting(1, "votetime", "60")
    assert table.due().delay == 60
    table.change_setting(1, "votetime", "0")
    assert table.due() is None
    assert table.state.cards[a].zone == PENDING


def test_votes_restored_from_a_saved_deck_open_afresh():
    table, clock = new_room(2)
    number = table.propose_card(1, "Kept", "T", "")
    saved = deck_snapshot(table.state)
    clock.now += 1000
    table.clear_deck(1)
    assert table.state.vote_opened == {}
    table.restore(1, "Kit", saved)
    restored = table.state.pending_for(number)
    assert restored is not None and table.state.vote_opened == {restored.id: START + 1000}
    assert table.due().delay == 300
    assert KIND.problems(table.state) == []


@pytest.mark.parametrize("raw", ["5", "9", "86401", "-1", "lots", "9" * 5000])
def test_a_vote_time_outside_its_range_is_refused(raw):
    table, _ = new_room(1)
    with pytest.raises(RuleViolation, match=r"votetime is a whole number from 10 to 86400 \(or 0 for none\)"):
        table.change_setting(1, "votetime", raw)
    assert table.settings["votetime"] == 300


def test_time_up_with_nobody_here_to_vote_rejects():
    table, clock = new_room(2)
    number = table.propose_rule(1, "Levity", "Things rise.")
    table.mark_absent(1, True)
    table.mark_absent(2, True)
    clock.now += 300
    table.take_changes()
    table.due().move(table)
    (event,) = table.take_changes().events
    assert event.data["silent"] == [] and table.state.cards[number].zone == REJECTED


def test_undo_and_replay_rebuild_vote_times_exactly():
    table, clock = new_room(3)
    # The moves from here on are replayed on a copy, as the log's are.
    replayed = table.state.copy()
    a = table.propose_card(1, "A", "T", "")
    b = table.propose_card(2, "B", "T", "")
    changes = table.take_changes()
    before = table.state.copy()
    clock.now += 30
    table.bundle(3, [a, b])
    clock.now += 300
    table.due().move(table)
    table.undo(table.take_changes())
    assert table.state == before
    clock.now += 10
    table.bundle(3, [a, b])
    clock.now += 300
    table.due().move(table)
    for event in changes.events + table.take_changes().events:
        for delta in event.deltas:
            replayed.apply(delta)
    assert KIND.differences(replayed, table.state) == []
    assert KIND.problems(table.state) == []


def test_vote_times_survive_the_snapshot():
    table, clock = new_room(3)
    table.propose_card(1, "A", "T", "")
    clock.now += 12.5
    table.propose_card(2, "B", "T", "")
    state = table.state
    snapshot = KIND.snapshot(state)
    restored = KIND.restore(state.phase, state.host, state.settings, [], snapshot)
    assert restored.vote_opened == state.vote_opened == {1: START, 2: START + 12.5}
    assert restored.opened_with == {"halt": True}
    assert KIND.restore(state.phase, state.host, state.settings, [], {**snapshot, "vote_opened": []}).vote_opened == {}


# -- a room made by the previous code ---------------------------------------------------------


async def test_a_room_made_before_keeps_halt_off_and_replays_soundly(world):
    """The previous code stored a new room with the old defaults (halt off, no vote time)
    and a snapshot without what it was opened with: it keeps them, and its log replays
    from them."""
    store = RoomStore(world.database)
    room_id = await store.create("Old", "dvorak", None)
    old_settings = {k: v for k, v in table_settings.log_start().items() if k != "votetime"}
    old_snapshot = {
        "turn": {"player": 0, "number": 0, "drawn": 0, "things": 0, "actions": 0, "gives": 0, "discarded": 0},
        "result": "",
        "next_number": 1,
        "next_proposal": 1,
    }
    async with world.database.transaction() as connection:
        made_before = update(Room).where(Room.id == room_id).values(settings=old_settings, state=old_snapshot)
        await connection.execute(made_before)
    await world.log_in("Ann", "Bo")
    await world.call("Ann", "join Old")
    await world.call("Bo", "join Old")
    for i in range(15):
        await world.call("Ann", f"loadcard Card {i}/T/Plain.")
    room = await world.room("Old")
    assert room.table.settings["halt"] is False and room.table.settings["votetime"] == 0
    room.table.rng = random.Random(2)
    await world.call("Ann", "start")
    player = "Ann" if room.table.state.turn.player == world.account_id("Ann") else "Bo"
    other = "Bo" if player == "Ann" else "Ann"
    assert "You propose a new card" in (await world.call(other, "newcard Late/T/Slow."))[other]
    assert "You draw" in (await world.call(player, "draw"))[player]
    assert room.due_at is None
    await world.call("Ann", "set votetime=60")
    assert room.due_at is not None
    reports = await check_rooms(world.database) + await replay_rooms(world.database)
    assert [report.problems for report in reports] == [[], []]


async def test_a_new_room_replays_soundly_after_a_vote_ran_out_of_time(world):
    await world.log_in("Ann", "Bo", "Cy")
    await world.call("Ann", "newroom Fresh")
    await world.call("Bo", "join Fresh")
    await world.call("Cy", "join Fresh")
    room = await world.room("Fresh")
    clock = Clock()
    room.table.clock = clock
    await world.call("Ann", "set votetime=10")
    await world.call("Ann", "newcard Armageddon/A/Destroy all Things.")
    await world.call("Bo", "approve 1")
    clock.now += 2
    assert "yet to vote: Cy; time left: 0m 08s" in flat((await world.call("Cy", "viewvote"))["Cy"])
    saw = await world.time_passes("Fresh", clock, 7)
    assert saw == {"Ann": "", "Bo": "", "Cy": ""}
    saw = await world.time_passes("Fresh", clock, 1)
    line = "Time is up for the vote on #1 Armageddon (Action): {} did not vote, which counts against; it is rejected."
    assert line.format("Cy") in flat(saw["Ann"]) and line.format("Cy") in flat(saw["Bo"])
    assert line.format("you") in flat(saw["Cy"])
    assert "(revote 1 puts it to the vote again.)" in flat(saw["Bo"])
    assert room.table.state.cards[1].zone == REJECTED
    reports = await check_rooms(world.database) + await replay_rooms(world.database)
    assert [report.problems for report in reports] == [[], []]


# -- over telnet ------------------------------------------------------------------------------


async def test_a_vote_halts_play_then_runs_out_of_time_for_everyone_to_see(server):
    ann, bo, cy = [await ScriptedPlayer.connect(server.port, name) for name in ("Ann", "Bo", "Cy")]
    await ann.ask("newroom Hall")
    await bo.ask("join Hall")
    await cy.ask("join Hall")
    settings = flat(await ann.ask("settings"))
    assert "halt on " in settings and "votetime 0 " in settings
    for i in range(20):
        await ann.ask(f"loadcard Card {i}/T/Plain.")
    room = await server.rooms.find("Hall")
    room.table.rng = random.Random(4)
    clock = Clock()
    room.table.clock = clock
    assert "You set votetime to 10." in flat(await ann.ask("set votetime=10"))
    await ann.ask("start")
    players = {"Ann": ann, "Bo": bo, "Cy": cy}
    mover = players[room.table.name_of(room.table.state.turn.player)]
    proposer = next(p for name, p in players.items() if p is not mover)
    await proposer.ask("newcard Armageddon/A/Destroy all Things.")
    number = room.table.state.next_number - 1
    assert f"Play waits for the vote on #{number} (halt is on)." in flat(await mover.ask("draw"))
    # The vote's time runs out: the room's timer made due now (the clock moved on).
    clock.now += 10
    room.stop_acting()
    room.reschedule()
    for player in players.values():
        await player.client.expect(loosely(f"Time is up for the vote on #{number} Armageddon (Action):"))
        await player.client.expect(loosely(f"*** The vote on #{number} Armageddon (Action) is decided: rejected."))
    assert "You draw" in flat(await mover.ask("draw"))
    reports = await check_rooms(server.database) + await replay_rooms(server.database)
    assert all(report.sound for report in reports), reports
