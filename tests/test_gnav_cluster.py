"""A Gnav table across two nodes (PostgreSQL and MQTT, as in tests/test_cluster.py): the
computer players' moves are made once, by the node first by name among those of the
seated people present; when that node dies, the other takes the bots over."""

from __future__ import annotations

import asyncio
import random
import signal

from games.gnav import rules as gnav_rules
from persistence.database import Database
from persistence.rooms import LoggedEvent
from server.rooms import GameRoom
from tests.gnav_players import QUICK_DEALS_PROGRAM, audit, connect, play, stored_log
from tests.server_process import ServerProcess
from tests.test_cluster import (  # noqa: F401 (broker_url: a fixture the others use)
    HEARTBEAT,
    MQTT_URL,
    SECRET,
    broker_url,
    cluster_database,
    prefix,
    start_node,
)

#: The events with which a seat's turn is taken.
TURN_MOVES = ("keep", "timeout", "swap", "pass", "refuse", "cuckoo", "stock")


def moves_made_twice(log: list[LoggedEvent]) -> list[str]:
    """Each move begins with the event that advances the table's step: the steps must
    follow one another, and nobody may take a turn twice in a deal."""
    problems, steps, taken, deal = [], [], set(), 0
    for logged in log:
        event = logged.event
        if event.kind == "deal":
            deal = event.data["deal"]
        step = next((delta[2] for delta in event.deltas if delta[:2] == ["set", "step"]), None)
        if step is None:
            continue
        steps.append(step)
        if event.kind in TURN_MOVES:
            if (deal, event.actor) in taken:
                problems.append(f"seat {event.actor} moved twice in deal {deal} (event {logged.seq})")
            taken.add((deal, event.actor))
    if steps != list(range(steps[0], steps[0] + len(steps))):
        problems.append(f"the steps do not follow one another: {steps}")
    return problems


async def until(condition, timeout: float = 15.0) -> None:  # type: ignore[no-untyped-def]
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await condition():
        assert loop.time() < deadline, "it never came to pass"
        await asyncio.sleep(0.05)


async def test_bots_move_once_driven_by_one_node_and_the_other_takes_over_when_it_dies(
    start_node,  # noqa: F811
    cluster_database,  # noqa: F811
    prefix,  # noqa: F811
    tmp_path,
    monkeypatch,
):
    monkeypatch.setattr(gnav_rules, "DEAL_PAUSE", 0.05)
    acted: list[str] = []
    act = GameRoom._act

    async def noted(room: GameRoom, due):  # type: ignore[no-untyped-def]
        acted.append(due.reason)
        await act(room, due)

    monkeypatch.setattr(GameRoom, "_act", noted)  # the moves this process's node (beta) makes by itself

    alpha = ServerProcess(cluster_database, tmp_path, QUICK_DEALS_PROGRAM)
    alpha.env.update(
        DVORAK_MQTT_URL=MQTT_URL,
        DVORAK_NODE_NAME="alpha",
        DVORAK_MQTT_PREFIX=prefix,
        DVORAK_CLUSTER_HEARTBEAT=str(HEARTBEAT),
        DVORAK_CLUSTER_SECRET=SECRET,
    )
    await alpha.start()
    beta = await start_node("beta")
    try:
        ann = await connect(alpha.port, "Ann")
        await ann.ask("newroom/gnav Den")
        await ann.ask("addbot normal Olga")
        bo = await connect(beta.port, "Bo")
        assert "You take a seat at the Gnav table." in await bo.ask("join den")
        await ann.ask("addbot strong Sven")
        await ann.ask("set botdelay=0.05")
        await ann.ask("set lives=9")  # the match cannot end before Bo's turn in deal 3
        room = await beta.rooms.find("den")

        async def both_here() -> bool:
            return {p.name for p in room.everyone()} >= {"Ann", "Bo"}

        await until(both_here)
        await ann.ask("start")

        # Both play, each on their node, for two deals; alpha ("alpha" < "beta") drives.
        rng = random.Random(8)
        holder = await play([ann, bo], rng, stop=lambda human: human is bo and human.deal()[0] >= 3)
        assert holder is bo, "the match ended too soon"
        assert acted == [], f"beta made moves of the table's while alpha drove: {acted}"
        log = await stored_log(cluster_database, "Den")
        assert moves_made_twice(log) == []
        # Each bot acts at most once a deal, and a refusal or a Cuckoo can take its turn away.
        assert sum(1 for logged in log if logged.event.kind in TURN_MOVES and logged.event.actor < 0) >= 1

        # Alpha dies: once beta has forgotten its players, beta makes the bots' moves.
        assert await alpha.stop(signal.SIGKILL) == -signal.SIGKILL
        await bo.until(r"Ann has disconnected; the seat is kept\.")
        killed_at = room.seq
        assert "You keep your card." in await bo.ask("keep")

        async def taken_over() -> bool:
            # Beta makes the table's moves now: it made a computer player's move or the next
            # deal, or, when the turn after Bo's is a person's (Ann's, the bot after Bo resting
            # this deal for a Fool it held), it has timed that turn to be kept by default.
            due = room.table.due()
            if due is not None and due.reason == "timer" and room.due_at is not None:
                return True
            return any(
                logged.event.kind == "deal" or (logged.event.kind in TURN_MOVES and logged.event.actor < 0)
                for logged in await room.events(after_seq=killed_at)
            )

        await until(taken_over)
        assert set(acted) <= {"bot", "deal"}
        assert acted or room.due_at is not None
        log = await stored_log(cluster_database, "Den")
        assert moves_made_twice(log) == []
        database = Database(cluster_database)
        try:
            assert await audit(database) == []
        finally:
            await database.dispose()
    finally:
        if alpha.process is not None and alpha.process.returncode is None:
            await alpha.stop(signal.SIGKILL)


def test_news_of_a_computer_players_move_is_taken_in_as_it_was_sent():
    # A computer player's seat id is negative; news of its moves must not be refused as
    # malformed (the other nodes would then only catch up from the database, late).
    from games.base import Event
    from server.cluster import _event

    move = Event("keep", -2, "Sven", {"player": -2}, [["set", "turn", 7]], False)
    assert _event(move.as_dict()) == move
