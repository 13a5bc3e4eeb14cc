"""A room's moves and its commits, over real connections: a move that comes while the
room's last move waits for the database's writer is made at once and stored with it, in
the same commit; if that commit fails, it is made again as if it had come alone. What
the moves of a batch make the server send goes out in the turn of the event loop in
which the batch is answered (see also the group commit's own tests in
tests/test_persistence.py)."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from sqlalchemy import text

from commands.dispatch import DATABASE_DOWN, MAYBE_STORED
from persistence.database import DatabaseUnavailable, OutcomeUnknown
from persistence.rooms import chain
from server.app import MushServer
from server.config import Settings
from server.connection import flush_due
from server.rooms import GameRoom
from tests.harness import KeptConnection
from tests.players import ScriptedPlayer, flat

DRAWN = re.compile(r"You draw #\d+")


class WriteGate:
    """The server's database writes, held at a gate until it opens, and counted. The
    writes numbered in ``failing`` fail as if the database had gone away; those in
    ``landing`` are committed, and those in ``unmade`` written and rolled back, and then
    both fail as if the database had gone away as it committed (its answer lost). A
    write numbered in ``on_taken`` first calls what it gives, once the gate is open: the
    writer has then taken its batch."""

    def __init__(
        self,
        server: MushServer,
        monkeypatch: Any,
        failing: tuple[int, ...] = (),
        landing: tuple[int, ...] = (),
        unmade: tuple[int, ...] = (),
    ) -> None:
        self.writes = 0
        self.opened = asyncio.Event()
        self.on_taken: dict[int, Callable[[], None]] = {}
        real = server.database.run_write

        class RolledBack(Exception):
            pass

        def then_roll_back(work: Callable[..., Any]) -> Callable[..., Any]:
            def written_and_rolled_back(writing: Any) -> Any:
                work(writing)
                raise RolledBack

            return written_and_rolled_back

        async def run_write(work: Callable[..., Any], then: Callable[[Any], None] | None = None) -> Any:
            self.writes += 1
            number = self.writes
            await self.opened.wait()
            if number in self.on_taken:
                self.on_taken[number]()
            if number in failing:
                raise DatabaseUnavailable("unplugged for the test")
            if number in unmade:
                with contextlib.suppress(RolledBack):
                    await real(then_roll_back(work))
                raise OutcomeUnknown("unplugged for the test as it committed; nothing was")
            if number in landing:
                await real(work)  # its answer never comes: ``then`` is not told
                raise OutcomeUnknown("unplugged for the test as it committed; it was")
            return await real(work, then)

        monkeypatch.setattr(server.database, "run_write", run_write)


async def until(condition: Callable[[], bool]) -> None:
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never happened")


async def four_at_a_table(server: MushServer) -> tuple[list[ScriptedPlayer], GameRoom]:
    """Ann, Ben, Cy and Di at a started game in room Den, turns off (anyone may draw);
    and the room."""
    players = [await ScriptedPlayer.connect(server.port, name) for name in ("Ann", "Ben", "Cy", "Di")]
    ann = players[0]
    await ann.ask("newroom Den")
    await ann.ask("set turns=off")
    for i in range(30):
        await ann.ask(f"loadcard Card{i:02d}/{'A' if i % 2 else 'T'}/Text of card {i:02d}.")
    for player in players[1:]:
        await player.ask("join Den")
    await ann.ask("start")
    for player in players:
        await player.client.quiet(0.2)
    room = await server.rooms.find("Den")
    assert room is not None
    return players, room


Ask = Callable[[], Awaitable[str]]


async def while_the_writers_are_busy(
    server: MushServer,
    monkeypatch: Any,
    room: GameRoom,
    first: Callable[[], Awaitable[Any]],
    later: list[Ask],
    fail_it: str = "",
) -> tuple[WriteGate, list[str]]:
    """Hold every writer of the database at a gate with other rooms' moves; ask
    ``first``, whose store then waits in the queue, then ``later`` once it does; open
    the gate, making ``first``'s write fail as :class:`WriteGate` does if ``fail_it``
    names how (``failing``, ``landing`` or ``unmade``), or cancelling ``first``'s task
    before it opens (``cancelled``) or once a writer has taken its write
    (``cancelled-taken``). The gate, and every reply ("" for a cancelled ``first``)."""
    writers = server.database.writers
    builders = [await ScriptedPlayer.connect(server.port, name) for name in ("Eve", "Gus")[:writers]]
    for number, builder in enumerate(builders):
        await builder.ask(f"newroom Side {number}")
    failing = fail_it if not fail_it.startswith("cancelled") else ""
    gate = WriteGate(server, monkeypatch, **({failing: (writers + 1,)} if failing else {}))
    blockers = []
    for number, builder in enumerate(builders, start=1):
        blockers.append(asyncio.ensure_future(builder.ask("loadcard Wall/T/It stands.")))
        await until(lambda number=number: gate.writes == number)  # one writer each
    waiting = asyncio.ensure_future(first())
    if fail_it == "cancelled-taken":
        gate.on_taken[writers + 1] = waiting.cancel
    await until(lambda: room._storing is not None)
    joining = [asyncio.ensure_future(each()) for each in later]
    await until(lambda: room._storing is not None and len(room._storing.joined) == len(later))
    if fail_it == "cancelled":
        waiting.cancel()
    gate.opened.set()
    assert all("Wall" in flat(reply) for reply in await asyncio.gather(*blockers))
    replies = [flat(reply) for reply in await asyncio.gather(*joining)]
    return gate, ["" if waiting.cancelled() else flat(await waiting), *replies]


async def assert_stored_as_kept(server: MushServer, room: GameRoom) -> list[str]:
    """The room in the database is the room in memory: the same head, its digest the
    chain of every stored event, its rows sound; the kinds and actors of the events."""
    store = server.rooms.store
    stored = await store.load(room.id)
    assert stored is not None and stored.head == room.head
    events = [logged.event for logged in await store.events(room.id)]
    assert chain("", events) == room.head.digest
    assert await store.row_problems(room.id) == []
    return [f"{event.actor_name} {event.kind}" for event in events]


async def test_moves_that_come_while_their_room_s_move_waits_are_stored_with_it_in_one_commit(server, monkeypatch):
    (ann, ben, cy, di), room = await four_at_a_table(server)
    before = await assert_stored_as_kept(server, room)
    gate, replies = await while_the_writers_are_busy(
        server,
        monkeypatch,
        room,
        lambda: ann.ask("draw"),
        [lambda: ben.ask("draw"), lambda: cy.ask("play 999"), lambda: di.ask("draw")],
    )
    assert gate.writes == server.database.writers + 1, "the other rooms' moves, then all of Den's in one commit"
    assert DRAWN.search(replies[0]) and DRAWN.search(replies[1]) and DRAWN.search(replies[3]), replies
    assert "999" in replies[2] and "draw" not in replies[2], replies[2]
    heard = flat(await cy.client.quiet(0.3))
    assert heard.index("Ann draws") < heard.index("Ben draws") < heard.index("Di draws"), heard
    after = await assert_stored_as_kept(server, room)
    assert after == [*before, "Ann draw", "Ben draw", "Di draw"]
    counts = (await ann.table())[1]
    assert counts["Ann"] == counts["Ben"] == counts["Di"] == counts["Cy"] + 1


@pytest.mark.parametrize("how", ["failing", "unmade"], ids=["unplugged", "answer-lost-not-made"])
async def test_moves_stored_with_a_move_whose_commit_fails_are_made_again_alone(server, monkeypatch, how):
    """The waiting move's commit fails: the database did not answer, or it stopped
    answering as it committed and the room's stored log shows the commit was not made.
    Its mover is told nothing was changed; the moves joined to it are made again."""
    (ann, ben, cy, di), room = await four_at_a_table(server)
    before = await assert_stored_as_kept(server, room)
    hands = (await ann.table())[1]
    gate, replies = await while_the_writers_are_busy(
        server, monkeypatch, room, lambda: ann.ask("draw"), [lambda: ben.ask("draw"), lambda: di.ask("draw")], how
    )
    assert "The database is not answering, so nothing was changed." in replies[0], replies[0]
    assert DRAWN.search(replies[1]) and DRAWN.search(replies[2]), replies
    assert gate.writes == server.database.writers + 2, "Ben's and Di's draws were made again, stored together"
    assert await assert_stored_as_kept(server, room) == [*before, "Ben draw", "Di draw"]
    counts = (await cy.table())[1]
    assert counts == {**hands, "Ben": hands["Ben"] + 1, "Di": hands["Di"] + 1}


def the_database_cannot_say(server: MushServer, monkeypatch: Any) -> None:
    """Asked whether a commit whose answer was lost was made, the database fails again."""

    async def cannot_say(*_: object) -> bool:
        raise DatabaseUnavailable("still unplugged")

    monkeypatch.setattr(server.rooms.store, "holds", cannot_say)


@pytest.mark.parametrize("database_can_say", [True, False], ids=["found-made", "unknown"])
async def test_moves_joined_to_a_commit_whose_answer_was_lost_are_made_once(server, monkeypatch, database_can_say):
    """The database commits the waiting move and the moves joined to it, then stops
    answering before it says so. Either the room's stored log shows the commit was made,
    and every mover is told so; or the database cannot say, each mover is told it may or
    may not have been, and the room's next move catches up. Nothing is made again."""
    (ann, ben, cy, di), room = await four_at_a_table(server)
    before = await assert_stored_as_kept(server, room)
    hands = (await cy.table())[1]
    if not database_can_say:
        the_database_cannot_say(server, monkeypatch)
    gate, replies = await while_the_writers_are_busy(
        server,
        monkeypatch,
        room,
        lambda: ann.ask("draw"),
        [lambda: ben.ask("draw"), lambda: di.ask("draw")],
        fail_it="landing",
    )
    assert gate.writes == server.database.writers + 1, "nothing was written again"
    drawn = ["Ann draw", "Ben draw", "Di draw"]
    if database_can_say:
        assert all(DRAWN.search(reply) for reply in replies), replies
    else:
        assert all(MAYBE_STORED in reply for reply in replies), replies
        assert DRAWN.search(flat(await cy.ask("draw")))
        drawn.append("Cy draw")
    assert await assert_stored_as_kept(server, room) == [*before, *drawn]
    counts = (await cy.table())[1]
    assert counts == {name: count + (f"{name} draw" in drawn) for name, count in hands.items()}


@pytest.mark.parametrize("database_can_say", [True, False], ids=["found-made", "unknown"])
async def test_moves_grouped_in_a_commit_whose_answer_was_lost_are_made_once(server, monkeypatch, database_can_say):
    """Moves that queued while their room's move was being written are stored together
    after it; that commit is made, and its answer lost. Either the room's stored log
    shows it was made, and they are all told so; or the database cannot say, and they
    are told it may or may not have been. None is made again."""
    (ann, ben, cy, di), room = await four_at_a_table(server)
    before = await assert_stored_as_kept(server, room)
    hands = (await ann.table())[1]
    if not database_can_say:
        the_database_cannot_say(server, monkeypatch)
    gate = WriteGate(server, monkeypatch, landing=(2,))
    owner = asyncio.ensure_future(ann.ask("draw"))
    await until(lambda: gate.writes == 1)  # taken by a writer: later moves queue
    queued = [asyncio.ensure_future(player.ask("draw")) for player in (ben, cy, di)]
    await until(lambda: len(room._queued) == 3)
    gate.opened.set()
    replies = [flat(reply) for reply in await asyncio.gather(owner, *queued)]
    assert DRAWN.search(replies[0]), replies[0]
    if database_can_say:
        assert all(DRAWN.search(reply) for reply in replies[1:]), replies
    else:
        assert all(MAYBE_STORED in reply for reply in replies[1:]), replies
        assert DRAWN.search(flat(await ann.ask("draw"))), "the next move catches up, then is made"
    assert gate.writes == (2 if database_can_say else 3), "the three queued behind Ann's draw are not written again"
    stored = await assert_stored_as_kept(server, room)
    drawn = ["Ann draw", "Ben draw", "Cy draw", "Di draw"] + ([] if database_can_say else ["Ann draw"])
    assert stored == [*before, *drawn]
    hands_after = (await ann.table())[1]
    assert hands_after == {name: count + 1 + (name == "Ann" and not database_can_say) for name, count in hands.items()}


async def test_a_move_on_a_claimed_room_whose_answer_was_lost_is_found_made(server, start_server, monkeypatch):
    """A move refused as stale is made again holding the room's row; that commit is
    made, and its answer lost: the mover is told the move was made, and it is stored
    once."""
    (ann, ben, cy, di), room = await four_at_a_table(server)
    elsewhere = await start_server()
    fay = await ScriptedPlayer.connect(elsewhere.port, "Fay")
    assert "Seats, in turn order" in await fay.ask("join Den")
    store = server.rooms.store
    real = store.claimed

    @contextlib.asynccontextmanager
    async def claimed(room_id: int) -> AsyncIterator[Any]:
        async with real(room_id) as claim:
            yield claim
        raise OutcomeUnknown("unplugged for the test as it committed; it was")

    monkeypatch.setattr(store, "claimed", claimed)
    assert DRAWN.search(flat(await ann.ask("draw")))
    stored = await assert_stored_as_kept(server, room)
    assert stored[-2:] == ["Fay join", "Ann draw"] and stored.count("Ann draw") == 1


async def test_a_commit_that_outlasts_the_database_timeout_is_found_unmade_and_the_move_can_be_made(
    backend, start_server, caplog
):
    """PostgreSQL takes longer to commit a move than the server's database timeout (a
    deferred trigger sleeps in the commit): the driver gives up and cancels it, the room
    finds in its stored log that the commit was not made, and the mover is told nothing
    was changed. Once commits are quick again, the same move is made, once."""
    if backend != "postgresql":
        pytest.skip("SQLite commits in this process: no answer can be waited for in vain")
    server = await start_server(database_timeout=1.0)
    (ann, _ben, cy, _di), room = await four_at_a_table(server)
    before = await assert_stored_as_kept(server, room)
    hands = (await cy.table())[1]
    async with server.database.transaction() as connection:
        await connection.execute(
            text(
                "CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS "
                "$$ BEGIN PERFORM pg_sleep(5); RETURN NULL; END $$"
            )
        )
        await connection.execute(
            text(
                "CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON events "
                "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow_commit()"
            )
        )
    assert flat(await ann.ask("draw")) == DATABASE_DOWN
    assert "commit's answer was lost: no answer in time; it was not made" in caplog.text
    assert await assert_stored_as_kept(server, room) == before
    async with server.database.transaction() as connection:
        await connection.execute(text("DROP TRIGGER slow_commit ON events"))
    assert DRAWN.search(flat(await ann.ask("draw")))
    assert await assert_stored_as_kept(server, room) == [*before, "Ann draw"]
    assert (await cy.table())[1] == {**hands, "Ann": hands["Ann"] + 1}


@pytest.mark.parametrize("taken", [False, True], ids=["before-taken", "once-taken"])
async def test_moves_joined_to_a_move_whose_task_is_cancelled_are_made_once(server, monkeypatch, taken):
    """The task of the waiting move (a computer player's, say, when its room closes) is
    cancelled. Before a writer takes that move, it is never stored, and the moves joined
    to it are made again, each once. Once a writer has taken it, the writer stores it
    all the same, with the moves joined to it, so those are not made again: their
    movers are told it may or may not have been made, and the room's next move catches
    up on all of it."""
    (ann, ben, cy, di), room = await four_at_a_table(server)
    before = await assert_stored_as_kept(server, room)
    hands = (await cy.table())[1]
    ann_id = next(seat.account_id for seat in room.table.state.seats if seat.name == "Ann")
    _, replies = await while_the_writers_are_busy(
        server,
        monkeypatch,
        room,
        lambda: room.perform(lambda table: table.draw(ann_id)),
        [lambda: ben.ask("draw"), lambda: di.ask("draw")],
        "cancelled-taken" if taken else "cancelled",
    )
    assert replies[0] == "", "Ann's move was cancelled"
    if taken:
        assert replies[1:] == [MAYBE_STORED, MAYBE_STORED], replies
        assert DRAWN.search(flat(await cy.ask("draw")))
        drawn = ["Ann draw", "Ben draw", "Di draw", "Cy draw"]
    else:
        assert all(DRAWN.search(reply) for reply in replies[1:]), replies
        drawn = ["Ben draw", "Di draw"]
    assert await assert_stored_as_kept(server, room) == [*before, *drawn]
    counts = (await cy.table())[1]
    assert counts == {name: count + drawn.count(f"{name} draw") for name, count in hands.items()}


async def test_moves_grouped_with_a_move_cancelled_once_it_was_taken_are_never_made_twice(server, monkeypatch):
    """Moves queued while their room's move was being written are stored together
    after it, by the task of the first; that task is cancelled once a writer has taken
    their store. The writer stores them all the same, so none is made again: their
    movers are told it may or may not have been made, and the next move catches up."""
    (ann, ben, cy, di), room = await four_at_a_table(server)
    before = await assert_stored_as_kept(server, room)
    hands = (await ann.table())[1]
    ben_id = next(seat.account_id for seat in room.table.state.seats if seat.name == "Ben")
    gate = WriteGate(server, monkeypatch)
    owner = asyncio.ensure_future(ann.ask("draw"))
    await until(lambda: gate.writes == 1)  # taken by a writer: later moves queue
    first = asyncio.ensure_future(room.perform(lambda table: table.draw(ben_id)))
    queued = [asyncio.ensure_future(player.ask("draw")) for player in (cy, di)]
    await until(lambda: len(room._queued) == 3)
    gate.on_taken[2] = first.cancel
    gate.opened.set()
    replies = [flat(reply) for reply in await asyncio.gather(owner, *queued)]
    with pytest.raises(asyncio.CancelledError):
        await first
    assert DRAWN.search(replies[0]), replies[0]
    assert replies[1:] == [MAYBE_STORED, MAYBE_STORED], replies
    assert DRAWN.search(flat(await ann.ask("draw"))), "the next move catches up, then is made"
    stored = await assert_stored_as_kept(server, room)
    assert stored == [*before, "Ann draw", "Ben draw", "Cy draw", "Di draw", "Ann draw"]
    hands_after = (await ann.table())[1]
    assert hands_after == {name: count + 1 + (name == "Ann") for name, count in hands.items()}


async def test_moves_stored_with_a_stale_move_are_made_again_after_it(server, start_server, monkeypatch):
    """Another server moved the room first (without telling this one): the waiting move
    is refused as stale, so it is made again after catching up, and so are those made on
    top of it; nothing is lost or made twice."""
    (ann, ben, cy, di), room = await four_at_a_table(server)
    elsewhere = await start_server()
    fay = await ScriptedPlayer.connect(elsewhere.port, "Fay")
    assert "Seats, in turn order" in await fay.ask("join Den")
    _, replies = await while_the_writers_are_busy(
        server, monkeypatch, room, lambda: ann.ask("draw"), [lambda: ben.ask("draw"), lambda: di.ask("draw")]
    )
    assert all(DRAWN.search(reply) for reply in replies), replies
    stored = await assert_stored_as_kept(server, room)
    assert stored[-4:] == ["Fay join", "Ann draw", "Ben draw", "Di draw"]
    assert "Fay" in flat(await cy.client.quiet(0.3))


async def test_flush_due_sends_what_this_turn_wrote_at_once_and_only_once():
    settings = Settings()
    ann, ben, cy = (KeptConnection(number, "127.0.0.1", settings) for number in (1, 2, 3))
    ann.send("Ann draws a card.")
    ben.send("Ann draws a card.")
    ben.send("You may vote.")
    assert ann.text == ben.text == [], "queued until the end of the turn"
    flush_due()
    assert ann.text == ["Ann draws a card."] and ben.text == ["Ann draws a card.", "You may vote."]
    assert cy.text == []
    await asyncio.sleep(0)  # the turn ends: each connection's own flush finds nothing left
    assert ann.text == ["Ann draws a card."] and ben.text == ["Ann draws a card.", "You may vote."]
