"""``dvorak-mush serve --workers N``: N worker processes on one port, each a node of the
cluster on one PostgreSQL database and one MQTT broker, under a supervisor.

The servers run as child processes and players connect over real TCP to the one port;
the kernel chooses each connection's worker, and the tests read which from the log
(every worker's lines say ``[w1]``, ``[w2]``). Like the cluster tests, they need
PostgreSQL and the broker at 127.0.0.1:1883: skipped without them, failed under CI.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import re
import signal
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
import pytest

from server.config import Settings
from server.workers import cores, worker_count, worker_settings
from tests.players import ScriptedPlayer, flat, loosely
from tests.server_process import ServerProcess, free_port, run_cli_for_status
from tests.test_cluster import (  # noqa: F401 (fixtures, which pytest finds by name)
    HEARTBEAT,
    MQTT_URL,
    SECRET,
    broker_url,
    cluster_database,
    eventually,
    prefix,
    two_at_a_table,
)

POSTGRES_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/nowhere"


def two_workers(database_url: str, broker: str, topics: str, data_dir: Path, **env: str) -> ServerProcess:
    """``serve --workers 2`` (or as many as ``DVORAK_WORKERS`` in ``env`` says) on
    ``database_url``, linked by the broker at ``broker`` under the MQTT prefix ``topics``
    (not started yet)."""
    server = ServerProcess(database_url, data_dir)
    server.env.update(
        DVORAK_WORKERS="2",
        DVORAK_MQTT_URL=broker,
        DVORAK_NODE_NAME="pair",
        DVORAK_MQTT_PREFIX=topics,
        DVORAK_CLUSTER_HEARTBEAT=str(HEARTBEAT),
        DVORAK_CLUSTER_SECRET=SECRET,
        DVORAK_SHUTDOWN_GRACE="2",
    )
    server.env.update(env)
    return server


@asynccontextmanager
async def running(server: ServerProcess) -> AsyncIterator[ServerProcess]:
    """``server`` started, every worker listening, its log followed; killed at the end if
    it is still running."""
    await server.start(listeners=int(server.env["DVORAK_WORKERS"]))
    server.follow()
    try:
        yield server
    finally:
        if server.process is not None and server.process.returncode is None:
            await server.stop(signal.SIGKILL)


@pytest.fixture(params=[pytest.param("on", id="handoff")])
async def workers(
    request: pytest.FixtureRequest,
    cluster_database: str,  # noqa: F811 (the fixtures imported above, asked for by name)
    broker_url: str,  # noqa: F811
    prefix: str,  # noqa: F811
    tmp_path,
) -> AsyncIterator[ServerProcess]:
    """``serve --workers 2`` on the test's database and the broker, both workers listening
    (handing telnet players to their room's worker, unless a test asks for ``"off"``)."""
    async with running(
        two_workers(cluster_database, broker_url, prefix, tmp_path, DVORAK_HANDOFF=request.param)
    ) as server:
        yield server


async def worker_of(server: ServerProcess, name: str) -> str:
    """Which worker (``w1``, ``w2``) made the player ``name``, by the log."""
    found = await server.logged(rf"\[(w\d+)\]: created player {name} ")
    return found.group(1)


async def on_both_workers(server: ServerProcess) -> tuple[ScriptedPlayer, ScriptedPlayer, str, str]:
    """Two players on different workers, connected to the one port: new connections are
    opened (and left) until the kernel has given one to each worker."""
    first = await ScriptedPlayer.connect(server.port, "Ann")
    ann_worker = await worker_of(server, "Ann")
    for attempt in range(40):
        name = f"Ben{attempt}"
        # From an address of its own: one address may make only so many players an hour.
        other = await ScriptedPlayer.connect(server.port, name, source=f"127.0.4.{attempt + 1}")
        if await worker_of(server, name) != ann_worker:
            return first, other, ann_worker, "w1" if ann_worker == "w2" else "w2"
        await other.close()
    raise AssertionError("40 connections in a row all went to one worker")


async def start_draw_and_play(ann: ScriptedPlayer, ben: ScriptedPlayer) -> None:
    """Ann starts the game at their table and draws, Ben plays a card; each sees the other's move."""
    await ann.ask("start")
    assert "You draw" in flat(await ann.ask("draw"))
    await ben.client.expect(loosely("Ann draws a card."))
    card = (await ben.hand())[0].number
    assert "You play" in flat(await ben.ask(f"play {card}"))
    await ann.client.expect(loosely(f"{ben.name} plays #{card}"))


def pid_of(server: ServerProcess, worker: str) -> int:
    """The process of ``worker`` (the newest, if it was started again)."""
    pids = re.findall(rf"worker {worker} \(node \S+\) is pid (\d+)", server.log)
    return int(pids[-1])


async def test_two_workers_on_one_port_are_one_world_and_stop_together(workers):
    ann, ben, ann_worker, ben_worker = await on_both_workers(workers)
    await eventually(ann, "WHO", ben.name)
    await eventually(ben, "WHO", "Ann")
    await ben.ask("say Hello from the other worker.")
    await ann.client.expect(loosely(f'{ben.name} says, "Hello from the other worker."'))

    await two_at_a_table(ann, ben, "Den", 20)
    await start_draw_and_play(ann, ben)

    assert await workers.stop(signal.SIGTERM) == 0
    for worker in (ann_worker, ben_worker):
        assert re.search(rf"worker {worker} \(pid \d+\) stopped", workers.log), workers.log
        assert f"[{worker}]: stopped" in workers.log
    assert "every worker has stopped\n" in workers.log
    await ann.client.expect(r"The server is shutting down")
    await ben.client.expect(r"The server is shutting down")


@pytest.mark.parametrize("workers", [pytest.param("off", id="players-where-they-connected")], indirect=True)
async def test_a_killed_worker_is_started_again_and_its_players_find_their_game(workers):
    """Ann on the worker killed, Ben on the other (telnet players stay where they connected)."""
    ann, ben, ann_worker, _ = await on_both_workers(workers)
    await two_at_a_table(ann, ben, "Den", 20)
    await ann.ask("start")
    drawn = re.search(r"You draw #(\d+)", flat(await ann.ask("draw")))
    assert drawn is not None
    await ben.client.expect(loosely("Ann draws a card."))
    held_before = sorted(card.number for card in await ann.hand())
    doomed = pid_of(workers, ann_worker)

    workers_log_before = workers.log.count(f"[{ann_worker}]: listening for telnet")
    os.kill(doomed, signal.SIGKILL)
    await workers.logged(rf"worker {ann_worker} \(pid {doomed}\) ended with signal SIGKILL")
    await ben.client.expect(loosely("Ann has disconnected; the seat is kept."), timeout=15)
    await workers.logged(rf"worker {ann_worker} \(node \S+\) is pid (?!{doomed}\b)\d+")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while workers.log.count(f"[{ann_worker}]: listening for telnet") <= workers_log_before:
        assert loop.time() < deadline, workers.log
        await asyncio.sleep(0.1)

    # Back through the one port, to whichever worker the kernel chooses.
    ann = await ScriptedPlayer.connect(workers.port, "Ann", create=False)
    assert "You are back at your seat in room Den" in flat(ann.client.transcript)
    await ben.client.expect(loosely("Ann is back."))
    assert sorted(card.number for card in await ann.hand()) == held_before
    assert "You play" in flat(await ann.ask(f"play {held_before[0]}"))
    await ben.client.expect(loosely(f"Ann plays #{held_before[0]}"))

    assert await workers.stop(signal.SIGTERM) == 0


async def test_each_worker_has_its_metrics_port_and_counts_down_on_the_first_sigint_and_stops_on_the_second(
    cluster_database,  # noqa: F811
    broker_url,  # noqa: F811
    prefix,  # noqa: F811
    tmp_path,
):
    first = free_port()
    while not port_is_free(first + 1):
        first = free_port()
    server = two_workers(
        cluster_database, broker_url, prefix, tmp_path, DVORAK_SHUTDOWN_COUNTDOWN="600", DVORAK_METRICS_PORT=str(first)
    )
    await server.start(listeners=2)
    server.follow()
    try:
        for port in (first, first + 1):
            async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/healthz") as answer:
                assert answer.status == 200 and (await answer.json())["accepting"] is True
        ann, ben, _, _ = await on_both_workers(server)
        assert server.process is not None
        server.process.send_signal(signal.SIGINT)
        for each in (ann, ben):
            await each.client.expect(loosely("*** The server will shut down in 10 minutes. ***"))
        async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{first}/healthz") as answer:
            assert answer.status == 503  # counting down: balancers send new players elsewhere
        assert await server.stop(signal.SIGINT) == 0
        for each in (ann, ben):
            await each.client.expect(r"The server is shutting down")
        assert server.log.count("asked to stop: shutting down in 600 s") == 2
        assert server.log.count("asked to stop: shutting down now") == 2
    finally:
        if server.process is not None and server.process.returncode is None:
            await server.stop(signal.SIGKILL)


def port_is_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


async def test_a_worker_that_keeps_dying_at_start_is_given_up(tmp_path):
    # A database nobody answers at: every start fails at once.
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        dead_port = closed.getsockname()[1]
    server = ServerProcess(f"postgresql+asyncpg://postgres@127.0.0.1:{dead_port}/none", tmp_path)
    server.env.update(DVORAK_WORKERS="2", DVORAK_MQTT_URL=MQTT_URL, DVORAK_CLUSTER_SECRET=SECRET)
    server.process = await asyncio.create_subprocess_exec(
        *server.program, "serve", env=server.env, stderr=asyncio.subprocess.PIPE
    )
    assert await server.exited(60) == 1
    assert re.search(r"worker w\d \(pid \d+\) ended with exit status 1 after [\d.]+ s; starting it again", server.log)
    assert "5 times in a row within 10 s of starting: giving up" in server.log
    assert "every worker has stopped (not all cleanly)" in server.log


async def test_several_workers_are_refused_without_postgresql_and_a_broker(tmp_path):
    sqlite = f"sqlite+aiosqlite:///{tmp_path / 'dvorak.sqlite3'}"
    for url, extra in (
        (sqlite, ()),
        (sqlite, ("--mqtt-url", MQTT_URL)),
        (POSTGRES_URL, ()),
    ):
        code, out, err = await run_cli_for_status(url, "serve", "--workers", "2", "--port", "0", *extra)
        assert code == 1, err
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "--workers:" in lines[0], err
        if not extra:
            assert "PostgreSQL" in lines[0] and "MQTT broker" in lines[0]
    for bad in ("-1", "100000"):
        code, _, err = await run_cli_for_status(POSTGRES_URL, "serve", "--workers", bad, "--mqtt-url", MQTT_URL)
        assert code == 1 and "--workers: 0 (one per core) to 256" in err, err
    code, _, err = await run_cli_for_status(sqlite, "serve", "--workers", "two")
    assert code == 2 and "--workers" in err


async def test_several_workers_refuse_a_port_taken_before_any_starts(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, _, err = await run_cli_for_status(
            POSTGRES_URL,
            "serve",
            *("--workers", "2", "--mqtt-url", MQTT_URL, "--port", str(port), "--no-web"),
            env={"DVORAK_CLUSTER_SECRET": SECRET},
        )
    assert code == 1
    assert f"cannot listen for telnet on 127.0.0.1 port {port}" in err
    assert "worker w1" not in err


def test_workers_default_to_the_cores_for_a_cluster_node_and_to_one_otherwise():
    cluster = Settings(database_url=POSTGRES_URL, mqtt_url=MQTT_URL)
    assert worker_count(cluster) == cores()
    assert worker_count(Settings()) == 1
    assert worker_count(Settings(database_url=POSTGRES_URL)) == 1
    assert worker_count(dataclasses.replace(cluster, workers=3)) == 3
    second = worker_settings(dataclasses.replace(cluster, node_name="north", metrics_port=9250), 2)
    assert (second.node_name, second.metrics_port, second.workers) == ("north-w2", 9251, 1)
    assert worker_settings(dataclasses.replace(cluster, port=6250), 1).node_name.endswith("-6250-w1")
    assert worker_settings(cluster, 1).metrics_port == 0
