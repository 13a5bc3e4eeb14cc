"""The attacks of the security review, each run against a real server over TCP: floods of
bytes, lines and telnet commands from clients that never log in, pasted lines that would
slip past the command rate, and backlogs left behind by clients that hang up.

The server runs as its own process where the attack is on the event loop itself (a
frozen loop would freeze the test's clients too), and the players whose latency is
measured are ordinary connections to it.
"""

from __future__ import annotations

import asyncio
import socket
import time
import tracemalloc
from pathlib import Path

import pytest
import telnetlib3

from server.app import FLOOD_NOTICE
from server.telnet import PARSE_SLICE, MushTelnetServer, ParsingTurns
from tests.client import IAC, SB, MudClient
from tests.conftest import WELCOME_END, log_in
from tests.players import ScriptedPlayer
from tests.server_process import ServerProcess

MIB = 1024 * 1024

#: What a client that never logs in sends in one write, 2 MiB of each.
FLOODS = {
    "empty lines": b"\n" * (2 * MIB),
    "telnet NOPs": bytes([IAC, 241]) * MIB,
    "one endless subnegotiation": bytes([IAC, SB, 24]) + b"x" * (2 * MIB),
    "control characters": b"\x03\x7f\x15" * (2 * MIB // 3),
}


@pytest.fixture
async def node(tmp_path: Path):
    """``dvorak-mush serve`` as operators run it (its own process, uvloop), on SQLite."""
    process = ServerProcess(f"sqlite+aiosqlite:///{tmp_path / 'attack.sqlite3'}", tmp_path)
    await process.start()
    yield process
    if process.process is not None and process.process.returncode is None:
        await process.stop()


def rss_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS")))


async def answered_within(player: ScriptedPlayer, command: str, seconds: float) -> float:
    """Seconds ``command`` took to answer; fails if it took longer than ``seconds``."""
    started = time.monotonic()
    await player.ask(command, timeout=seconds)
    return time.monotonic() - started


@pytest.mark.parametrize("flood", list(FLOODS))
async def test_a_flood_from_a_client_that_never_logs_in_freezes_nobody(node, flood):
    player = await ScriptedPlayer.connect(node.port, "Watcher")
    attacker = await MudClient.open(node.port)
    await attacker.expect(WELCOME_END)
    attacker.send(FLOODS[flood])
    # While the server takes it in (or pushes back), everyone else is served at once.
    for _ in range(5):
        await answered_within(player, "WHO", 5.0)
        await asyncio.sleep(0.2)
    # And it stops when asked, attacker or no attacker.
    assert node.process is not None
    assert await asyncio.wait_for(node.stop(), 15) == 0
    await attacker.close()
    await player.close()


async def test_a_client_sending_without_pause_cannot_make_the_server_hold_what_it_sends(node):
    player = await ScriptedPlayer.connect(node.port, "Watcher")
    assert node.process is not None
    before = rss_kib(node.process.pid)
    sender = socket.create_connection(("127.0.0.1", node.port))
    sender.setblocking(False)
    # Commands first, so that its session waits on the command rate; then much more.
    lines = b"WHO\r\n" * 200 + b"look here at this long line of text\r\n" * (48 * MIB // 37)
    sent, deadline = 0, time.monotonic() + 8
    while sent < len(lines) and time.monotonic() < deadline:
        try:
            sent += sender.send(lines[sent : sent + 65536])
        except BlockingIOError:
            await asyncio.sleep(0.01)
    grown = rss_kib(node.process.pid) - before
    await answered_within(player, "WHO", 5.0)
    sender.close()
    # TCP pushed back: the kernel took only what its buffers hold, the server the rest.
    assert sent < len(lines) // 2, f"the server took {sent // MIB} MiB as fast as it was sent"
    assert grown < 16 * 1024, f"the server grew by {grown // 1024} MiB"
    await player.close()


async def test_every_line_counts_against_the_command_rate_even_an_empty_one(start_server):
    server = await start_server(command_rate=50.0, command_burst=20, flood_seconds=1.0)
    flood = await MudClient.open(server.port)
    await flood.expect(WELCOME_END)
    flood.send(b"\r\n" * 5000)
    await flood.expect(r"\*\*\* You send commands far too fast", timeout=15)
    await flood.wait_closed()
    assert FLOOD_NOTICE in flood.transcript


async def test_every_command_of_a_pasted_line_counts_against_the_command_rate(start_server):
    server = await start_server(command_rate=2.0, command_burst=12, flood_seconds=1.0)
    host = await ScriptedPlayer.connect(server.port, "Host")
    await host.ask("newroom Paste")
    paster = await MudClient.open(server.port)
    await paster.expect(WELCOME_END)
    await log_in(paster, "Paster")
    await paster.command("join paste", r"Seats, in turn order")
    paster.send("cleardeck " + " ".join(f"loadcard Card {i}/T/Text {i}." for i in range(100)))
    await paster.expect(r"\*\*\* You send commands far too fast", timeout=15)
    await paster.wait_closed()
    room = await server.rooms.find("paste")
    assert room is not None and len(room.table.state.cards) < 20


async def test_only_deck_commands_run_from_a_pasted_line(start_server):
    server = await start_server(command_burst=10_000)
    speaker = await MudClient.open(server.port)
    await speaker.expect(WELCOME_END)
    await log_in(speaker, "Speaker")
    listener = await MudClient.open(server.port)
    await listener.expect(WELCOME_END)
    await log_in(listener, "Listener")
    speaker.send("cleardeck" + " @emit spam" * 600)
    await speaker.expect(r"so its @emit was not: type @emit on a line of its own")
    await speaker.command("say done", r'You say, "done"')
    await listener.expect(r'Speaker says, "done"')
    assert "spam" not in listener.transcript


async def test_what_a_client_sent_is_dropped_when_it_hangs_up(start_server):
    server = await start_server(command_rate=5.0, command_burst=5, flood_seconds=600.0)
    host = await ScriptedPlayer.connect(server.port, "Host")
    await host.ask("newroom Backlog")
    await host.ask("set turns=off")
    quitter = await MudClient.open(server.port)
    await quitter.expect(WELCOME_END)
    await log_in(quitter, "Quitter")
    await quitter.command("join backlog", r"Seats, in turn order")
    quitter.send(b"".join(f"loadcard Card {i}/T/Text {i}.\r\n".encode() for i in range(200)))
    await asyncio.sleep(0.3)
    await quitter.close()
    await host.client.expect(r"Quitter has disconnected", timeout=10)
    room = await server.rooms.find("backlog")
    assert room is not None
    loaded = len(room.table.state.cards)
    await asyncio.sleep(1.5)
    assert len(room.table.state.cards) == loaded < 20


class QuietTransport(asyncio.Transport):
    """A transport that records what the protocol asks of it, for a protocol on its own."""

    def __init__(self) -> None:
        super().__init__()
        self.paused = False
        self.closing = False

    def write(self, data: bytes) -> None:
        pass

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def get_extra_info(self, name: str, default: object = None) -> object:
        return ("127.0.0.1", 40000) if name == "peername" else default

    def get_write_buffer_size(self) -> int:
        return 0


def telnet_protocol(turns: ParsingTurns, rate: int = 65536) -> tuple[MushTelnetServer, QuietTransport]:
    """The server's protocol on a transport of its own, as a connection starts it."""
    protocol = MushTelnetServer(
        mssp=dict, input_rate=rate, input_burst=rate, turns=turns, encoding="utf8", force_binary=True, timeout=0
    )
    transport = QuietTransport()
    protocol.connection_made(transport)
    return protocol, transport


async def test_telnet_commands_are_parsed_in_turns_a_slice_at_a_time_within_the_input_rate(monkeypatch):
    # telnetlib3 takes apart each byte of a telnet command in Python (about a microsecond
    # a byte): 256 KiB of them at once would stall every player for a quarter second, 20
    # clients sending them would stall everyone for seconds, and a client sending them
    # without pause would keep the server busy.
    parsed: list[tuple[int, int]] = []
    monkeypatch.setattr(
        telnetlib3.TelnetServer, "data_received", lambda self, data: parsed.append((id(self), len(data)))
    )
    turns = ParsingTurns()
    (first, first_transport), (second, _) = telnet_protocol(turns), telnet_protocol(turns)
    nops = bytes([IAC, 241]) * (128 * 1024)
    first.data_received(nops)
    second.data_received(nops)
    # Nothing is parsed on the spot: each waits its turn, and the client waits meanwhile.
    assert parsed == [] and first_transport.paused
    await asyncio.sleep(0)
    assert [who for who, _ in parsed[:4]] == [id(first), id(second), id(first), id(second)]
    assert all(size == PARSE_SLICE for _, size in parsed)
    await asyncio.sleep(0.5)
    # The burst, and half a second at the rate: not the whole quarter MiB.
    taken = sum(size for who, size in parsed if who == id(first))
    assert 64 * 1024 <= taken <= 64 * 1024 + 48 * 1024 and first_transport.paused
    # Plain text is parsed at once.
    parsed.clear()
    text, _ = telnet_protocol(turns)
    text.data_received(b"say hello\r\n" * 100)
    assert sum(size for _, size in parsed) == 1100
    for protocol in (first, second, text):
        protocol.connection_lost(None)


async def test_an_endless_subnegotiation_is_not_kept_in_memory():
    protocol, _ = telnet_protocol(ParsingTurns(), rate=4 * MIB)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        protocol.data_received(bytes([IAC, SB, 24]) + b"x" * (MIB // 2))
        for _ in range(2000):
            if not protocol._unparsed:
                break
            await asyncio.sleep(0)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # telnetlib3 would hold all of it, a deque entry a byte (over 4 MiB here).
    assert held < 256 * 1024, held
    protocol.connection_lost(None)


async def test_a_subnegotiation_s_bytes_wait_their_turn_like_telnet_commands():
    # Inside IAC SB ... IAC SE every byte costs telnetlib3 as much as a telnet command,
    # though none of them is an IAC: the slices of one wait their turn too.
    protocol, transport = telnet_protocol(ParsingTurns(), rate=4 * MIB)
    protocol.data_received(bytes([IAC, SB, 24]) + b"x" * (64 * 1024))
    await asyncio.sleep(0)  # one turn of the event loop: one round of turns
    assert len(protocol._unparsed) > 48 * 1024 and transport.paused
    protocol.connection_lost(None)
