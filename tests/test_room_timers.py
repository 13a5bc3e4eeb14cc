"""The moves a table makes by itself (computer players, turn timers, the next deal), as
the room times them: through the room's own path, and not put off by people coming and
going."""

from __future__ import annotations

import asyncio
import re

from tests.players import ScriptedPlayer, flat


async def _ann_to_move(server) -> tuple[ScriptedPlayer, object]:
    """Ann alone with one computer player in a Gnav room, a match started, and Ann's
    turn; the room. Each has nine lives: a deal costs a player two at most (a refused
    ask and the lowest card), so the match outlasts the deals a test waits through. With
    three, the computer player could be out by Ann's next turn, one deal in thirty."""
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    await ann.ask("newroom/gnav Fjord")
    assert "You set lives to 9." in await ann.ask("set lives=9")
    await ann.ask("addbot easy")
    await ann.ask("set botdelay=0")
    await ann.ask("start")
    room = await server.rooms.find("Fjord")
    await _until(lambda: room.table.state.turn == ann_id(room) and room.due_at is not None, "never Ann's turn")
    return ann, room


async def _until(condition, what: str) -> None:
    """Wait for ``condition``, up to 30 seconds: Ann's next turn may come only after a
    settlement's pause, or two if she rests a deal (held the Fool) and it is skipped."""
    for _ in range(600):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(what)


async def _hang_up(ann: ScriptedPlayer, room) -> None:
    """Ann closes her connection; once she is out of the room."""
    await ann.close()
    await _until(lambda: not room.occupants, "Ann never left the room")


def ann_id(room) -> int:
    return next(seat.account_id for seat in room.table.state.seats if seat.name == "Ann")


async def test_a_turn_timer_keeps_its_time_while_spectators_come_and_go(server):
    ann, room = await _ann_to_move(server)
    due_at, seq = room.due_at, room.seq
    assert due_at is not None
    assert due_at - asyncio.get_running_loop().time() > 30  # the person's 60 seconds, not a bot's 0
    dora = await ScriptedPlayer.connect(server.port, "Dora")
    for _ in range(3):
        await dora.ask("watch fjord")
        await dora.ask("leave")
    assert (room.seq, room.due_at) == (seq, due_at)
    await ann.ask("keep")
    # The table moved on: whatever is timed now is timed afresh.
    assert room.seq > seq


async def test_the_only_person_at_a_table_gone_away_is_timed_as_one_of_two_would_be(server):
    """Issue 45: the only person at a table who went away was waited for forever; with
    two people the turn timer ran out for the one away. Now the timer runs for them, and
    the table goes on (a short turn time here, the computer player moving at once)."""
    ann, room = await _ann_to_move(server)
    await ann.ask("set turntime=10")
    await ann.ask("keep")
    await _until(lambda: room.table.state.turn == ann_id(room) and room.due_at is not None, "never Ann's turn")
    due_at = room.due_at
    seq = room.seq
    await _hang_up(ann, room)
    assert room.due_at == due_at
    await _until(lambda: room.seq > seq, "the table waited for Ann")
    kept = [logged for logged in await room.events(after_seq=seq) if logged.event.kind == "timeout"]
    assert kept, "no move was made for Ann when her time ran out"


async def test_coming_back_does_not_give_a_turn_timer_its_whole_time_again(server):
    """Issue 45: after a reconnect the countdown started again from the whole turn time
    (and read 61 seconds of a 60-second limit)."""
    ann, room = await _ann_to_move(server)
    due_at = room.due_at
    await asyncio.sleep(1.2)
    await _hang_up(ann, room)
    again = await ScriptedPlayer.connect(server.port, "Ann", create=False)
    assert room.due_at == due_at
    seconds = re.search(r"\((\d+) seconds left before you keep your card", flat(await again.ask("look")))
    assert seconds is not None and int(seconds.group(1)) <= 59


async def test_a_turn_time_changed_mid_turn_counts_from_the_next_turn(server):
    """Told how long they have, a player keeps that time: the host's ``set turntime``
    mid-turn neither cuts the running turn short nor lengthens it."""
    ann, room = await _ann_to_move(server)
    due_at = room.due_at
    reply = await ann.ask("set turntime=10")
    assert "turntime" in reply
    assert room.due_at == due_at
    await ann.ask("set turntime=600")
    assert room.due_at == due_at
    await ann.ask("set turntime=10")
    await ann.ask("keep")
    # The computer player moves at once (botdelay 0); Ann's next turn has the new time.
    await _until(
        lambda: room.table.state.turn == ann_id(room) and room.due_at not in (None, due_at),
        "it never became Ann's turn again",
    )
    assert 5 < room.due_at - asyncio.get_running_loop().time() <= 10


async def test_coming_back_on_your_turn_shows_your_card_once_and_the_seconds_left(server):
    ann, room = await _ann_to_move(server)
    await _hang_up(ann, room)
    again = await ScriptedPlayer.connect(server.port, "Ann", create=False)
    await again.client.quiet(0.3)
    came_back = again.client.transcript[again.client.transcript.index("You are back at your seat") :]
    assert came_back.count("Your card:") == 1
    seconds = re.search(r"It is your turn: keep or swap\. \((\d+) seconds left before you keep your card", came_back)
    assert seconds is not None and 1 <= int(seconds.group(1)) <= 60
    looked = await again.ask("look")
    assert looked.count("Your card:") == 1 and "seconds left before you keep your card" in looked


async def test_a_ys_board_tells_the_time_left_on_the_running_turn_timer_not_the_whole_turn_time(server):
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    await ann.ask("newroom/ys Quay")
    await ann.ask("addbot easy")
    await ann.ask("set botdelay=0")
    await ann.ask("set turntime=30")
    await ann.ask("start")
    room = await server.rooms.find("Quay")
    await _until(lambda: room.due_at is not None and getattr(room.table.due(), "reason", "") == "timer", "no timer")
    await asyncio.sleep(2.2)
    board = flat(await ann.ask("look"))
    left = re.search(r"\(In (\d+) seconds a move is made for you\.\)", board)
    assert left is not None, board
    assert 1 <= int(left.group(1)) <= 28
