"""A telnet player handed to the worker that serves their room (``serve --workers N``,
:mod:`server.handoff`).

First the exchange between two workers' ends, in this process over real Unix sockets
(the socket handed over is one end of a socket pair, so what reaches it can be read at
the other); then whole servers, ``serve --workers 2`` on PostgreSQL and the broker, with
players connecting over TCP to the one port, the kernel choosing their worker, and the
log saying which (``[w1]``, ``[w2]``).
"""

from __future__ import annotations

import array
import asyncio
import json
import os
import re
import signal
import socket
import time
import zlib
from collections.abc import AsyncIterator

import pytest
import telnetlib3
import uvloop
from telnetlib3.telopt import IAC, MCCP2_COMPRESS, SB, SE

import server.handoff as handoff_module
from persistence.database import Database
from persistence.rooms import RoomStore
from server.handoff import Arrival, Handoff, bind_handoff_sockets, worker_serving
from server.limits import CommandRate
from server.telnet import MushTelnetServer, ParsingTurns
from server.web import RELAY_READ_AHEAD, RelaySocket
from server.workers import Listeners
from tests.players import END, ScriptedPlayer, flat, loosely
from tests.server_process import ServerProcess
from tests.test_cluster import (  # noqa: F401 (fixtures, which pytest finds by name)
    broker_url,
    cluster_database,
    eventually,
    load_deck,
    prefix,
    two_at_a_table,
)
from tests.test_telnet_features import GmcpClient, latest, read_until
from tests.test_workers import (
    on_both_workers,
    pid_of,
    running,
    start_draw_and_play,
    two_workers,
    worker_of,
    workers,  # noqa: F401 (a fixture, which pytest finds by name)
)
from tests.web_client import WebClient, web_log_in

#: An offer's state, as a worker sends it (the fields every taker reads).
ANN = {"name": "Ann", "address": "127.0.0.1", "account": 1, "room": 1, "telnet": {}}


@pytest.fixture
async def pair() -> AsyncIterator[tuple[Handoff, Handoff, list[Arrival]]]:
    """Two workers' ends, both taking whatever is offered; the arrivals at the second."""
    sockets = bind_handoff_sockets(2)
    addresses = [sock.getsockname() for sock in sockets]
    first, second = Handoff(sockets[0], addresses), Handoff(sockets[1], addresses)
    arrivals: list[Arrival] = []
    first.start(lambda state: True, arrivals.append)
    second.start(lambda state: True, arrivals.append)
    try:
        yield first, second, arrivals
    finally:
        for end in (first, second):
            end.stop()
        for sock in sockets:
            sock.close()
        for arrival in arrivals:
            arrival.sock.close()


async def test_a_socket_offered_taken_and_released_arrives_with_its_state(pair):
    first, second, arrivals = pair
    assert (first.number, second.number) == (1, 2)
    here, client = socket.socketpair()
    offer = await first.offer(2, dict(ANN), here.fileno())
    assert offer is not None
    await asyncio.sleep(0.05)
    assert arrivals == []  # taken, but not served until released
    assert first.release(2, offer, seq=17)
    await asyncio.sleep(0.05)
    (arrival,) = arrivals
    assert arrival.state == {**ANN, "seq": 17}
    here.close()  # the giver lets go; the taker's copy is the connection now
    arrival.sock.sendall(b"from the other worker")
    assert client.recv(100) == b"from the other worker"
    client.close()


async def test_a_refused_offer_leaves_the_player_with_the_giver(pair):
    first, second, arrivals = pair
    second._can_take = lambda state: False
    here, client = socket.socketpair()
    assert await first.offer(2, dict(ANN), here.fileno()) is None
    assert arrivals == []
    here.sendall(b"still here")
    assert client.recv(100) == b"still here"
    here.close()
    client.setblocking(False)
    await asyncio.sleep(0.05)
    assert client.recv(100) == b""  # the taker kept no copy open
    client.close()


async def test_an_offer_never_released_is_dropped_by_the_taker(pair, monkeypatch):
    first, second, arrivals = pair
    monkeypatch.setattr(handoff_module, "RELEASE_WAIT", 0.1)
    here, client = socket.socketpair()
    assert await first.offer(2, dict(ANN), here.fileno()) is not None
    here.close()  # as a giver would not, but then the only copy left is the taker's
    await asyncio.sleep(0.3)
    client.setblocking(False)
    assert client.recv(100) == b""  # closed by the taker, unused
    assert arrivals == []
    client.close()


async def test_a_worker_about_to_stop_waits_for_the_players_it_took(pair, monkeypatch):
    """Once it refuses offers, a stopping worker settles: the player it took and the
    giver then lets go of is let in (to be told it stops), and one never let go is given
    up after RELEASE_WAIT; only then does it stop listening."""
    first, second, arrivals = pair
    monkeypatch.setattr(handoff_module, "RELEASE_WAIT", 0.3)
    here, client = socket.socketpair()
    kept, kept_client = socket.socketpair()
    released = await first.offer(2, dict(ANN), here.fileno())
    never = await first.offer(2, {**ANN, "name": "Bo", "account": 2}, kept.fileno())
    assert released is not None and never is not None
    second._can_take = lambda state: False  # stopping
    settling = asyncio.create_task(second.settle())
    await asyncio.sleep(0.05)
    assert not settling.done()
    assert await first.offer(2, dict(ANN), here.fileno()) is None  # refused now
    assert first.release(2, released, seq=3)
    await asyncio.sleep(0.05)
    assert [arrival.state["name"] for arrival in arrivals] == ["Ann"] and not settling.done()
    await asyncio.wait_for(settling, 1)  # Bo's offer given up
    for sock in (here, client, kept, kept_client):
        sock.close()


async def test_a_worker_that_does_not_answer_keeps_nobody_waiting(monkeypatch):
    monkeypatch.setattr(handoff_module, "ANSWER_WAIT", 0.2)
    monkeypatch.setattr(handoff_module, "RETRY_AFTER", 0.5)
    sockets = bind_handoff_sockets(2)
    addresses = [sock.getsockname() for sock in sockets]
    giver = Handoff(sockets[0], addresses)
    giver.start(lambda state: True, lambda arrival: None)
    here, client = socket.socketpair()

    async def offered() -> tuple[int | None, float]:
        started = time.monotonic()
        offer = await giver.offer(2, dict(ANN), here.fileno())
        return offer, time.monotonic() - started

    try:
        # Nobody reads worker 2's socket (a worker that died, being started again).
        offer, waited = await offered()
        # uvloop's clock is libuv's, read once per loop pass in whole milliseconds, so its
        # timer may end a fraction of a millisecond before time.monotonic() says it should.
        assert offer is None and 0.19 <= waited < 1
        # Not offered again for a while: no line of its rooms' players waits on it.
        offer, waited = await offered()
        assert offer is None and waited < 0.05
        await asyncio.sleep(0.5)
        sockets[1].close()  # a worker stopped for good: nobody listens at its address
        offer, waited = await offered()
        assert offer is None and waited < 0.05
    finally:
        giver.stop()
        for each in (*sockets, here, client):
            each.close()


def rights(sock: socket.socket) -> list[tuple[int, int, bytes]]:
    """Ancillary data passing ``sock``."""
    return [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [sock.fileno()]).tobytes())]


async def test_messages_from_outside_the_workers_or_malformed_are_dropped(pair):
    first, second, arrivals = pair
    stranger = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    stranger.bind(b"\0dvorak-mush-test-stranger-" + str(time.time()).encode())
    here, client = socket.socketpair()
    try:
        offer = json.dumps({"kind": "offer", "offer": 1, "sent": time.time(), "state": {**ANN, "name": "Mallory"}})
        stranger.sendmsg([offer.encode()], rights(here), 0, second.addresses[1])
        stranger.sendmsg([json.dumps({"kind": "released", "offer": 1, "seq": 0}).encode()], [], 0, second.addresses[1])
        stranger.setblocking(False)
        await asyncio.sleep(0.1)
        with pytest.raises(BlockingIOError):
            stranger.recv(100)  # no answer
        assert arrivals == []
        # Malformed, and a stale offer: the end goes on working.
        first.sock.sendto(b"{not json", second.addresses[1])
        first.sock.sendto(json.dumps({"kind": "offer"}).encode(), second.addresses[1])
        stale = {"kind": "offer", "offer": 99, "sent": time.time() - 60, "state": {}}
        first.sock.sendmsg([json.dumps(stale).encode()], rights(here), 0, second.addresses[1])
        await asyncio.sleep(0.05)
        offer_number = await first.offer(2, dict(ANN), here.fileno())
        assert offer_number is not None and first.release(2, offer_number, seq=0)
        await asyncio.sleep(0.05)
        assert [arrival.state["name"] for arrival in arrivals] == ["Ann"]
    finally:
        for each in (stranger, here, client):
            each.close()


def serve_handed(resume: dict[str, object], greeting: str) -> MushTelnetServer:
    """The protocol of a connection handed over (its telnet state ``resume``), as the
    taking worker serves it, whose session writes ``greeting``."""

    async def shell(reader: object, writer: telnetlib3.TelnetWriterUnicode) -> None:
        writer.write(greeting)

    return MushTelnetServer(
        mssp=dict,
        input_rate=1e6,
        input_burst=10**6,
        turns=ParsingTurns(),
        resume=resume,
        shell=shell,
        encoding="utf8",
        force_binary=True,
        line_mode=True,
        timeout=0,
        compression=True,
    )


def test_compression_starts_again_once_even_with_input_waiting_under_uvloop():
    """The client typed while being handed over: uvloop gives the protocol those bytes
    before the negotiation it would begin, and the stream must still be compressed once."""
    here, client = socket.socketpair()
    client.sendall(b"look\r\n")
    resume = {"local": [MCCP2_COMPRESS[0]], "remote": [], "pending": [], "extra": {}, "mccp2": True, "cols": 80}

    async def served() -> None:
        loop = asyncio.get_running_loop()
        await loop.connect_accepted_socket(lambda: serve_handed(resume, "after the handoff\r\n"), sock=here)
        await asyncio.sleep(0.2)

    uvloop.run(served())
    client.setblocking(False)
    data = client.recv(65536)
    client.close()
    start = IAC + SB + MCCP2_COMPRESS + IAC + SE
    assert data.startswith(start) and data.count(start) == 1
    plain = zlib.decompressobj().decompress(data[len(start) :])
    assert plain == b"after the handoff\r\n"


async def test_what_a_client_told_goes_along_cut_to_what_the_server_reads():
    """A client may tell any number of environment variables, each up to a subnegotiation's
    length: only the server's few, cut short, go to the other worker."""
    here, client = socket.socketpair()
    protocol = serve_handed({"local": [], "extra": {}}, "")
    await asyncio.get_running_loop().connect_accepted_socket(lambda: protocol, sock=here)
    protocol._extra.update({f"VAR{i}": "é" * 8000 for i in range(20)})
    protocol._extra.update(LANG="fr_FR.UTF-8" + "x" * 5000, TERM="xterm-256color", cols=132)
    state = protocol.handoff_state()
    assert state is not None
    assert state["extra"]["TERM"] == "xterm-256color" and state["extra"]["cols"] == 132
    assert len(state["extra"]["LANG"]) == 256 and not any(key.startswith("VAR") for key in state["extra"])
    assert len(json.dumps(state)) < 4096
    here.close()
    client.close()


async def test_an_offer_too_big_to_send_keeps_the_player_and_the_other_worker_offered_to(pair):
    first, second, arrivals = pair
    here, client = socket.socketpair()
    assert await first.offer(2, {"name": "x" * 70_000}, here.fileno()) is None
    offer = await first.offer(2, dict(ANN), here.fileno())
    assert offer is not None
    for each in (here, client):
        each.close()


def test_a_command_rate_goes_along_with_the_player():
    drained = CommandRate(rate=1.0, burst=3, flood_seconds=10)
    for _ in range(5):
        drained.delay()
    there = CommandRate(rate=1.0, burst=3, flood_seconds=10)
    there.restore(json.loads(json.dumps(drained.state())))
    assert there.delay() > 1  # overdrawn there too
    assert not there.flooding()
    there._throttled_since = time.monotonic() - 11
    again = CommandRate(rate=1.0, burst=3, flood_seconds=10)
    again.restore(there.state())
    assert again.flooding()


async def test_a_worker_stopped_for_good_keeps_its_handoff_address_and_takes_nobody():
    """Its ports close, so the kernel gives their connections to the others; its handoff
    socket's name stays taken, so no other process can bind it and be offered players,
    and an offer to it fails at once, its socket closed, not left waiting there."""
    sockets = bind_handoff_sockets(2)
    addresses = [sock.getsockname() for sock in sockets]
    giver = Handoff(sockets[0], addresses)
    giver.start(lambda state: True, lambda arrival: None)
    here, client = socket.socketpair()
    telnet = socket.socket()
    stopped = Listeners(telnet, handoff=sockets[1])
    try:
        sockets[0].sendmsg([b"{}"], rights(here), 0, addresses[1])  # waiting when it stopped
        stopped.close_ports()
        assert telnet.fileno() == -1 and sockets[1].fileno() != -1
        squatter = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        with pytest.raises(OSError):
            squatter.bind(addresses[1])
        squatter.close()
        started = time.monotonic()
        assert await giver.offer(2, dict(ANN), here.fileno()) is None
        assert time.monotonic() - started < 0.1
        here.close()  # the last copy: the client sees the end
        client.settimeout(1)
        assert client.recv(100) == b""
    finally:
        giver.stop()
        for sock in (*sockets, here, client):
            sock.close()


async def test_a_relay_reads_whole_messages_however_they_come_and_ends_on_a_bad_one():
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    loop = asyncio.get_running_loop()
    _transport, relay = await loop.connect_accepted_socket(RelaySocket, sock=ours)
    messages = relay.__aiter__()
    framed = b"".join(len(text.encode()).to_bytes(4, "big") + text.encode() for text in ("one", "twö", "three"))
    for piece in (framed[:2], framed[2:14], framed[14:]):  # a length, then "ö", split
        theirs.sendall(piece)
        await asyncio.sleep(0.01)
    assert [(await anext(messages)).data for _ in range(3)] == ["one", "twö", "three"]
    assert not relay.holds_input
    theirs.sendall(b"\x00\x00\x00\x05par")  # part of a message: held, not taken
    await asyncio.sleep(0.01)
    assert relay.holds_input
    await relay.send_str("to the page")
    theirs.settimeout(1)
    assert theirs.recv(100) == b"\x00\x00\x00\x0bto the page"
    theirs.sendall(b"ts" + (10**6).to_bytes(4, "big"))  # then a message too big: the relay ends
    assert (await anext(messages)).data == "parts"
    with pytest.raises(StopAsyncIteration):
        await anext(messages)
    await asyncio.sleep(0.01)  # the socket is closed in the event loop's next turn
    assert relay.closed and theirs.recv(100) == b""
    with pytest.raises(ConnectionResetError):
        await relay.send_str("too late")
    theirs.close()


async def test_a_relay_reads_only_a_few_messages_ahead_and_nothing_while_held():
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    _transport, relay = await asyncio.get_running_loop().connect_accepted_socket(RelaySocket, sock=ours)
    batch = b"".join(b"\x00\x00\x00\x01" + bytes([65 + i % 26]) for i in range(100))
    theirs.sendall(batch)
    await asyncio.sleep(0.05)
    theirs.sendall(batch)  # more than it reads ahead: waits in the socket
    await asyncio.sleep(0.05)
    assert RELAY_READ_AHEAD <= len(relay._messages) == 100
    messages = relay.__aiter__()
    for _ in range(100):
        await anext(messages)
    relay.hold_reading(True)
    await asyncio.sleep(0.05)
    assert not relay._messages and not relay.holds_input  # held: the rest is left in the socket
    relay.hold_reading(False)
    assert [(await anext(messages)).data for _ in range(100)] == [chr(65 + i % 26) for i in range(100)]
    theirs.close()
    ours.close()


# -- whole servers -------------------------------------------------------------------------


def handed(server: ServerProcess, name: str) -> list[tuple[str, str]]:
    """Each time ``name`` was handed over, by the log: (from worker, to worker)."""
    return re.findall(rf"\[(w\d)\]: connection \d+ \({name}\) handed to worker (w\d)", server.log)


async def room_worker(server: ServerProcess, room: str) -> str:
    """The worker serving ``room`` (by the room's number, as the workers share rooms out)."""
    database = Database(server.env["DVORAK_DATABASE_URL"])
    try:
        room_id = await RoomStore(database).find_id(room)
    finally:
        await database.dispose()
    assert room_id is not None, f"there is no room {room}"
    return f"w{worker_serving(room_id, int(server.env['DVORAK_WORKERS']))}"


NOT_TO_BE_SEEN = ("has disconnected", "has connected", "is back", "logged in from", "Welcome back")


async def test_players_who_sit_down_are_served_by_the_rooms_worker_and_notice_nothing(workers):  # noqa: F811
    ann, ben, ann_worker, ben_worker = await on_both_workers(workers)
    await ann.client.expect(loosely(f"{ben.name} has connected."))
    since = {who.name: len(who.client.transcript) for who in (ann, ben)}
    await two_at_a_table(ann, ben, "Den", 20)
    # The kernel put them on two workers; the room's worker serves both now.
    owner = await room_worker(workers, "Den")
    guest, guest_worker = (ben, ben_worker) if owner == ann_worker else (ann, ann_worker)
    await workers.logged(rf"\[{owner}\]: {guest.name} \(#\d+\) handed over")
    assert handed(workers, guest.name) == [(guest_worker, owner)]
    await workers.logged(rf"\[{guest_worker}\]: connection \d+ closed")

    await start_draw_and_play(ann, ben)
    await ben.ask("say Same table, one worker.")
    await ann.client.expect(loosely(f'{ben.name} says, "Same table, one worker."'))
    await eventually(ann, "WHO", ben.name)
    await eventually(ben, "WHO", "Ann")
    await asyncio.sleep(0.3)
    for who in (ann, ben):
        transcript = flat(who.client.transcript[since[who.name] :])
        for line in NOT_TO_BE_SEEN:
            assert line not in transcript, (who.name, line)
    # Every event once, even those made while the guest was being handed over.
    assert flat(ben.client.transcript).count("Ann draws a card.") == 1
    assert flat(ann.client.transcript).count(f"{ben.name} takes a seat at the table.") == 1
    assert flat(ben.client.transcript).count("You take a seat at the table.") == 1
    assert await workers.stop(signal.SIGTERM) == 0


async def test_a_mud_client_keeps_compression_and_gmcp_when_handed_over(workers):  # noqa: F811
    hal = await ScriptedPlayer.connect(workers.port, "Hal")
    await hal.ask("newroom Den")
    for i in range(12):
        await hal.ask(f"loadcard Card {i}/T/Text {i}.")
    owner = await room_worker(workers, "Den")
    # A MUD client (MCCP2 and GMCP on) that the kernel put on the other worker.
    for attempt in range(40):
        # Each from an address of its own: the kernel spreads by address, and the server
        # lets one address make only so many players an hour.
        reader, writer = await telnetlib3.open_connection(
            "127.0.0.1",
            workers.port,
            client_factory=GmcpClient,
            local_addr=(f"127.0.1.{attempt + 1}", 0),
            connect_minwait=0.05,
            connect_maxwait=1.0,
        )
        seen = [""]
        await read_until(reader, "QUIT", seen)
        name = f"Gil{attempt}"
        writer.write(f"create {name} secret1\r\n")
        await read_until(reader, "Players here:", seen)
        if await worker_of(workers, name) != owner:
            break
        writer.close()
    else:
        raise AssertionError(f"40 connections in a row all went to the room's worker:\n{workers.log[-6000:]}")
    protocol = writer.protocol
    assert writer.mccp2_active
    writer.write("join den\r\n")
    await read_until(reader, "Seats, in turn order", seen)
    await workers.logged(rf"\[{owner}\]: {name} \(#\d+\) handed over")
    writer.write("look\r\n")
    await read_until(reader, "Draw pile: 12 cards", seen)
    assert writer.mccp2_active, "compression did not start again on the room's worker"
    assert latest(protocol, "Room.Info")["name"] == "Den"
    before = len(protocol.gmcp)
    await hal.ask("start")
    await read_until(reader, "each player is dealt", seen)
    await asyncio.sleep(0.3)
    assert [package for package, _ in protocol.gmcp[before:]].count("Dvorak.Hand") >= 1
    table = latest(protocol, "Dvorak.Table")
    assert [seat["name"] for seat in table["seats"]] == ["Hal", name]
    # Nothing of Hal's hand in what the client was sent (each card's text is its own).
    sent_texts = {card["text"] for card in latest(protocol, "Dvorak.Hand")["cards"]}
    everything = json.dumps(protocol.gmcp)
    leaked = [card.name for card in await hal.hand() if f'"Text {card.name[5:]}."' in everything]
    assert not leaked and len(sent_texts) == 5, (leaked, sent_texts)
    writer.close()
    assert await workers.stop(signal.SIGTERM) == 0


async def test_commands_sent_with_the_join_are_run_once_and_the_player_is_handed_over_after(workers):  # noqa: F811
    hal, owner, gus = await room_and_newcomer(workers, "Gus")
    gus_worker = await worker_of(workers, gus.name)
    # The join and two more lines in one packet: the worker they reach runs them all, once,
    # and hands the player over once none is left.
    gus.client.send(b"join den\r\nsay one\r\nsay two\r\n")
    await gus.client.expect(loosely('You say, "two"').pattern + r"\s*" + re.escape(END))
    await workers.logged(rf"\[{owner}\]: {gus.name} \(#\d+\) handed over")
    assert handed(workers, gus.name) == [(gus_worker, owner)]
    assert 'You say, "three"' in flat(await gus.ask("say three"))
    transcript = flat(gus.client.transcript)
    assert transcript.count("You take a seat") == 1
    assert transcript.count('You say, "one"') == transcript.count('You say, "two"') == 1
    assert 'You say, "four"' in flat(await gus.ask("say four"))
    await hal.client.expect(loosely(f'{gus.name} says, "four"'))
    for line in ("one", "two", "three", "four"):
        assert flat(hal.client.transcript).count(f'{gus.name} says, "{line}"') == 1
    assert await workers.stop(signal.SIGTERM) == 0


async def room_and_newcomer(server: ServerProcess, name: str) -> tuple[ScriptedPlayer, str, ScriptedPlayer]:
    """Hal, who made room Den; the worker serving it; and a new player in the lobby of the
    other worker (``name`` and a number)."""
    hal = await ScriptedPlayer.connect(server.port, "Hal")
    await hal.ask("newroom Den")
    owner = await room_worker(server, "Den")
    return hal, owner, await player_off(server, owner, name)


async def player_off(server: ServerProcess, worker: str, name: str) -> ScriptedPlayer:
    """A new player (``name`` and a number) that the kernel put on a worker other than
    ``worker``: connections are opened (and closed) until one is."""
    for attempt in range(40):
        player = await ScriptedPlayer.connect(server.port, f"{name}{attempt}", source=f"127.0.2.{attempt + 1}")
        if await worker_of(server, player.name) != worker:
            return player
        await player.close()
    raise AssertionError(f"40 connections in a row all went to {worker}")


async def test_when_the_rooms_worker_is_killed_its_players_come_back_to_it_at_their_seats(workers):  # noqa: F811
    ann, ben, ann_worker, ben_worker = await on_both_workers(workers)
    await two_at_a_table(ann, ben, "Den", 20)
    owner = await room_worker(workers, "Den")
    await workers.logged(rf"\[{owner}\]: {(ben if owner == ann_worker else ann).name} \(#\d+\) handed over")
    await ann.ask("start")
    assert "You draw" in flat(await ann.ask("draw"))
    await ben.client.expect(loosely("Ann draws a card."))
    hands = {who.name: sorted(card.number for card in await who.hand()) for who in (ann, ben)}
    doomed = pid_of(workers, owner)
    started_before = workers.log.count(f"[{owner}]: listening for telnet")

    os.kill(doomed, signal.SIGKILL)  # both players were on it
    for who in (ann, ben):
        await who.client.wait_closed()
    await workers.logged(rf"worker {owner} \(pid {doomed}\) ended with signal SIGKILL")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while workers.log.count(f"[{owner}]: listening for telnet") <= started_before:
        assert loop.time() < deadline, workers.log
        await asyncio.sleep(0.1)

    # Back through the one port, from addresses of their own, to whichever worker the
    # kernel chooses: at their seats, and served by the room's worker again.
    for number, who in enumerate((ann, ben), start=1):
        again = await ScriptedPlayer.connect(workers.port, who.name, create=False, source=f"127.0.3.{number}")
        assert "You are back at your seat in room Den" in flat(again.client.transcript)
        assert sorted(card.number for card in await again.hand()) == hands[who.name]
        if who is ann:
            ann = again
        else:
            ben = again
    card = hands[ben.name][0]
    assert "You play" in flat(await ben.ask(f"play {card}"))
    await ann.client.expect(loosely(f"{ben.name} plays #{card}"))
    moved = [(giver, taker) for name in ("Ann", ben.name) for giver, taker in handed(workers, name)]
    assert all(taker == owner for _, taker in moved)
    assert await workers.stop(signal.SIGTERM) == 0


async def test_a_player_taken_by_a_worker_that_then_stops_is_let_in_told_and_let_go(workers):  # noqa: F811
    """The room's worker took the player, then began stopping before the other let go of
    them: it still lets them in once released, and tells them it stops, as everyone it
    had, rather than closing their connection without a word."""
    hal, owner, ivy = await room_and_newcomer(workers, "Ivy")
    await taken_as_it_stops(workers, owner, ivy)


async def test_a_player_taken_by_a_worker_with_nobody_else_that_then_stops_is_told_too(workers):  # noqa: F811
    """As above, with nobody else on the room's worker: it does not stop in the few turns
    of its event loop between letting the player's socket in and their session beginning
    (telnetlib3 starts it after its negotiation step), with no session left to wait for."""
    hal, owner, ivy = await room_and_newcomer(workers, "Ivy")
    hal.client.send("QUIT")
    await hal.client.wait_closed(timeout=10)
    await asyncio.sleep(0.3)  # its session over on the room's worker too
    await taken_as_it_stops(workers, owner, ivy)


async def taken_as_it_stops(server: ServerProcess, owner: str, ivy: ScriptedPlayer) -> None:
    """``ivy`` joins room Den, whose worker ``owner`` takes them and then begins stopping
    before the other worker lets go of them: they are let in, told it stops, let go."""
    taker = pid_of(server, owner)
    os.kill(taker, signal.SIGSTOP)  # the offer waits for it; then it takes it, and stops
    try:
        await ivy.client.command("join Den", "Seats, in turn order")
        # The offer follows the join's reply at once; the giver waits for the answer for
        # ANSWER_WAIT (2 s) from then, and the taker takes an offer as old only within it.
        await asyncio.sleep(0.8)
    finally:
        os.kill(taker, signal.SIGTERM)
        os.kill(taker, signal.SIGCONT)
    await ivy.client.wait_closed(timeout=15)
    assert "shutting down" in ivy.client.transcript, ivy.client.transcript[-500:]
    assert handed(server, ivy.name) == [("w1" if owner == "w2" else "w2", owner)]


async def test_half_a_line_sent_with_the_join_waits_for_its_end_on_the_first_worker(workers):  # noqa: F811
    hal, owner, ivy = await room_and_newcomer(workers, "Ivy")
    # Half a line, and half a character (the first byte of "é"), after the join: held
    # where they were read, so the player is not handed over with them.
    ivy.client.send(b"join den\r\nsay caf\xc3")
    await ivy.client.expect(loosely("You take a seat at the table."))
    await asyncio.sleep(0.5)
    assert handed(workers, ivy.name) == []
    ivy.client.send(b"\xa9 au lait\r\n")
    await ivy.client.expect(loosely('You say, "café au lait"').pattern + r"\s*" + re.escape(END))
    await hal.client.expect(loosely(f'{ivy.name} says, "café au lait"'))
    await workers.logged(rf"\[{owner}\]: {ivy.name} \(#\d+\) handed over")
    assert 'You say, "served there"' in flat(await ivy.ask("say served there"))
    await hal.client.expect(loosely(f'{ivy.name} says, "served there"'))
    assert flat(ivy.client.transcript).count("café") == 1
    assert flat(hal.client.transcript).count("café") == 1
    assert await workers.stop(signal.SIGTERM) == 0


async def page_off(server: ServerProcess, worker: str, name: str) -> tuple[WebClient, str]:
    """A new player (``name`` and a number) on a page the kernel put on a worker other
    than ``worker``: pages are opened (and closed) until one is."""
    for attempt in range(40):
        page = await WebClient.open(server.web_port, source=f"127.0.5.{attempt + 1}")
        player = f"{name}{attempt}"
        await web_log_in(page, player)
        if await worker_of(server, player) != worker:
            return page, player
        await page.close()
    raise AssertionError(f"40 pages in a row all went to {worker}")


async def test_a_page_whose_player_sits_down_is_relayed_to_the_rooms_worker(workers):  # noqa: F811
    hal = await ScriptedPlayer.connect(workers.port, "Hal")
    await hal.ask("newroom Den")
    await hal.ask("set turns=off")
    await load_deck(hal, 20)
    owner = await room_worker(workers, "Den")
    page, name = await page_off(workers, owner, "Pia")
    page_worker = "w1" if owner == "w2" else "w2"
    tokens_before = len(page.tokens)
    # From here on (the pages opened and closed before it said their goodbyes in the lobby).
    page_since, hal_since = len(page.transcript), len(hal.client.transcript)
    # The page's socket stays where it is; its player is served by the room's worker. The
    # join and two lines more in one message: all run where they were read, once, and the
    # player handed over after the last.
    page.send_json({"line": "join den\nsay first\nsay second"})
    await page.expect(r"Seats, in turn order")
    await hal.client.expect(loosely(f'{name} says, "second"'))
    await workers.logged(rf"\[{owner}\]: {name} \(#\d+\) handed over")
    assert handed(workers, name) == [(page_worker, owner)]
    await workers.logged(rf"\[{owner}\]: connection \d+ from \S+ \(web, handed over\)")
    # Served there with the token it has (the room's worker gives the next when it is due).
    await page.view("Room.Info", lambda info: info.get("name") == "Den")

    await hal.ask("start")
    hand = await page.view("Dvorak.Hand", lambda view: len(view["cards"]) == 5)
    assert "You draw" in flat(await hal.ask("draw"))
    await page.expect(r"Hal draws a card\.")
    card = hand["cards"][0]["number"]
    page.send(f"play {card}")
    await page.expect(rf"You play #{card}")
    await hal.client.expect(loosely(f"{name} plays #{card}"))
    page.send("say One table, one worker.")
    await hal.client.expect(loosely(f'{name} says, "One table, one worker."'))
    await asyncio.sleep(0.3)
    hal_saw, page_saw = flat(hal.client.transcript[hal_since:]), page.transcript[page_since:]
    for line in NOT_TO_BE_SEEN:
        assert line not in hal_saw and line not in page_saw, line
    assert page_saw.count("Hal draws a card.") == 1
    assert page_saw.count("You take a seat at the table.") == 1
    assert hal_saw.count(f'{name} says, "first"') == hal_saw.count(f'{name} says, "second"') == 1
    assert len(page.tokens) == tokens_before  # not given another at the handoff: its own is good

    # The page closes: the relay ends, and the room's worker says the player went.
    await page.close()
    await hal.client.expect(loosely(f"{name} has disconnected; the seat is kept."))
    assert await workers.stop(signal.SIGTERM) == 0


async def relayed(
    server: ServerProcess, name: str, sit: str = "watch den", deck: int = 0
) -> tuple[ScriptedPlayer, str, WebClient, str]:
    """Hal, who made room Den (with turns off and a deck of ``deck`` cards, if any); the
    worker serving it; a page on the other worker; and its new player (``name`` and a
    number), who typed ``sit`` there and was relayed to the room's worker."""
    hal = await ScriptedPlayer.connect(server.port, "Hal")
    await hal.ask("newroom Den")
    if deck:
        await hal.ask("set turns=off")
        await load_deck(hal, deck)
    owner = await room_worker(server, "Den")
    page, player = await page_off(server, owner, name)
    page.send(sit)
    await server.logged(rf"\[{owner}\]: {player} \(#\d+\) handed over")
    return hal, owner, page, player


async def test_a_relayed_page_that_quits_is_told_goodbye_and_closed(workers):  # noqa: F811
    _hal, _owner, page, _name = await relayed(workers, "Quin")
    page.send("QUIT")
    await page.expect(r"Goodbye")
    # Its session ended there: the page is told to forget its token, as at any QUIT, and
    # closed.
    await page.until(lambda: page.tokens[-1] is None, "the page was not told to forget its token")
    await page.until(lambda: page.closed, "the page was not closed")
    await page.close()
    assert await workers.stop(signal.SIGTERM) == 0


async def test_workers_stopping_with_a_page_relayed_tell_it_and_close_it(workers):  # noqa: F811
    _hal, _owner, page, _name = await relayed(workers, "Rex")
    assert await workers.stop(signal.SIGTERM) == 0
    await page.expect(r"shutting down")
    await page.until(lambda: page.closed, "the page was not closed")
    await page.close()


async def test_a_relayed_page_whose_rooms_worker_dies_is_closed_and_resumes_at_its_seat(workers):  # noqa: F811
    hal, owner, page, _name = await relayed(workers, "Sal", "join den", deck=20)
    await hal.ask("start")
    hand = await page.view("Dvorak.Hand", lambda view: len(view["cards"]) == 5)
    assert page.tokens and page.tokens[-1] is not None

    os.kill(pid_of(workers, owner), signal.SIGKILL)
    # The worker holding the page hears the relay end and closes the page, which (as the
    # page does after any drop) comes back with its token.
    await page.until(lambda: page.closed, "the page was left open with nobody serving it")
    await page.close()
    again = await WebClient.open(workers.web_port, source="127.0.6.1")
    again.send_json({"resume": page.tokens[-1]})
    await again.expect(r"You are back at your seat in room Den")
    back = await again.view("Dvorak.Hand")
    assert sorted(card["number"] for card in back["cards"]) == sorted(card["number"] for card in hand["cards"])
    await again.close()
    assert await workers.stop(signal.SIGTERM) == 0


async def test_a_worker_stopping_alone_tells_the_pages_it_relays_and_lets_them_go(workers):  # noqa: F811
    hal, owner, page, name = await relayed(workers, "Tam", "join den")
    holder = "w1" if owner == "w2" else "w2"
    os.kill(pid_of(workers, holder), signal.SIGTERM)
    # Still served meanwhile (the room's worker goes on), until the worker holding the
    # page gives up waiting for it to close them: then the page is told and closed cleanly.
    await page.expect(r"shutting down", timeout=15)
    await page.until(lambda: page.closed, "the page was not closed")
    assert page.close_code == 1000
    await hal.client.expect(loosely(f"{name} has disconnected; the seat is kept."))
    await page.close()


async def test_a_relayed_page_follows_its_player_to_the_next_room(workers):  # noqa: F811
    _hal, owner, page, name = await relayed(workers, "Uma", "join den")
    holder = "w1" if owner == "w2" else "w2"
    since = len(page.transcript)
    # Rooms of their own until one is the other worker's (rooms alternate between them):
    # there the relayed player goes on, from the room's worker to the one holding the page.
    page.send("leave")
    await page.expect(r"You leave room Den\.")
    for room in ("Two", "Three"):
        page.send(f"newroom {room}")
        await page.expect(rf"You made room {room}")
        if await room_worker(workers, room) == holder:
            break
    await workers.logged(rf"\[{owner}\]: connection \d+ \({name}\) handed to worker {holder}")
    await workers.logged(rf"\[{holder}\]: {name} \(#\d+\) handed over")
    assert handed(workers, name) == [(holder, owner), (owner, holder)]
    page.send("say Back where the page is.")
    await page.expect(r'You say, "Back where the page is\."')
    page.send("set handsize=3")
    await page.expect(r"handsize")
    # The page noticed nothing: every reply once, no goodbyes or welcomes.
    seen = page.transcript[since:]
    assert seen.count('You say, "Back where the page is."') == 1
    for line in NOT_TO_BE_SEEN:
        assert line not in seen, line
    await page.close()
    assert await workers.stop(signal.SIGTERM) == 0


@pytest.fixture
async def three_workers(cluster_database, broker_url, prefix, tmp_path) -> AsyncIterator[ServerProcess]:  # noqa: F811
    """``serve --workers 3``, commands as fast as they come (the test hops rooms quickly)."""
    fast = {"DVORAK_COMMAND_RATE": "1000", "DVORAK_COMMAND_BURST": "1000"}
    async with running(
        two_workers(cluster_database, broker_url, prefix, tmp_path, DVORAK_WORKERS="3", **fast)
    ) as server:
        yield server


async def test_players_hopping_rooms_over_three_workers_keep_their_session(three_workers):
    """Each hop a handoff (or a relay's end passed on) to the next room's worker, hops a
    few milliseconds apart: news of where the player was reaches the workers late and out
    of order, and must not make one of them take the player back ("You have logged in
    from somewhere else", which also told a page to forget its token)."""
    server = three_workers
    page = await WebClient.open(server.web_port, source="127.0.7.2")
    await web_log_in(page, "Vic")
    tel = await ScriptedPlayer.connect(server.port, "Tel", source="127.0.7.3")
    for i in range(5):
        page.send(f"newroom S{i}")
        await page.expect(rf"You made room S{i}")
    since = len(page.transcript)

    async def page_hops() -> None:
        for hop in range(30):
            page.send(f"join S{hop % 5}")
            page.send(f"say hop {hop}")
            await page.expect(rf'You say, "hop {hop}"')

    async def telnet_hops() -> None:
        for hop in range(30):
            assert "somewhere else" not in flat(await tel.ask(f"join S{(hop + 2) % 5}")), hop

    await asyncio.gather(page_hops(), telnet_hops())
    seen = page.transcript[since:]
    assert re.findall(r'You say, "hop (\d+)"', seen) == [str(hop) for hop in range(30)]
    assert "somewhere else" not in seen and None not in page.tokens and not page.closed
    assert len({taker for _, taker in handed(server, "Vic")}) == 3  # served by each worker in turn
    await page.close()
    assert await server.stop(signal.SIGTERM) == 0
