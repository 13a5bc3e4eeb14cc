"""The pure parts of the Evennia benchmark (``bench/evennia.py``, ``bench/evenniaclient.py``):
reading Evennia's telnet stream, matching a say's echo by its token, counting what the
others heard, the settings written into Evennia's game folder, and the side-by-side
report. Evennia itself is not needed (running it is a benchmark, not a test)."""

from __future__ import annotations

import asyncio
import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from bench.evennia import (
    AMP_PLUGIN,
    AMP_PLUGIN_MODULE,
    AMP_PORT,
    EVENNIA_VERSION,
    LINK_KEPT,
    PORT,
    RUN_DIR,
    SETTINGS,
    cache_folder,
    installed,
    side_by_side,
)
from bench.evenniaclient import DO, DONT, IAC, SB, SE, WILL, WONT, EvenniaClient, TelnetText, is_echo, is_heard, token
from bench.loadgen import Latencies


def test_options_offered_are_refused_once_and_refusals_are_not_answered():
    telnet = TelnetText()
    answers, lines = telnet.feed(bytes((IAC, WILL, 86, IAC, DO, 24, IAC, WONT, 1, IAC, DONT, 3)) + b"hello\r\n")
    assert answers == bytes((IAC, DONT, 86, IAC, WONT, 24))
    assert lines == ["hello"]
    assert telnet.feed(bytes((IAC, WILL, 86)))[0] == b""


def test_a_sequence_cut_by_the_network_waits_for_its_rest():
    telnet = TelnetText()
    assert telnet.feed(b"Wel" + bytes((IAC,))) == (b"", [])
    assert telnet.feed(bytes((DO,))) == (b"", [])
    answers, lines = telnet.feed(bytes((31,)) + b"come\r\nnext")
    assert answers == bytes((IAC, WONT, 31))
    assert lines == ["Welcome"]
    assert telnet.feed(b" line\n")[1] == ["next line"]


def test_subnegotiations_commands_colours_and_escaped_iac_are_not_text():
    telnet = TelnetText()
    data = (
        bytes((IAC, SB, 70, 1)) + b"MSSP junk" + bytes((IAC, SE))
        + b"\x1b[1m\x1b[32mYou say, \"\x1b[0mhi\"\r\n"
        + bytes((IAC, 0xF1, IAC, 0xF9))
        + b"a" + bytes((IAC, IAC)) + b"\r\x00\n"
    )  # fmt: skip
    answers, lines = telnet.feed(data)
    assert answers == b""
    assert lines == ['You say, "hi"', "a\ufffd"]


def test_an_unfinished_subnegotiation_waits():
    telnet = TelnetText()
    assert telnet.feed(bytes((IAC, SB, 24, 1)) + b"xterm") == (b"", [])
    assert telnet.feed(bytes((IAC, SE)) + b"ok\n") == (b"", ["ok"])


def test_a_token_never_matches_another_and_echo_is_told_from_others_speech():
    assert token(3, 4) not in f'You say, "chatter 1 {token(3, 41)}"'
    assert token(3, 4) not in f'You say, "chatter 1 {token(13, 4)}"'
    mark = token(3, 41)
    assert is_echo(f'You say, "chatter 12 {mark}"', mark)
    assert not is_echo(f'Talker3 says, "chatter 12 {mark}"', mark)
    assert is_heard(f'Talker3 says, "chatter 12 {mark}"')
    assert not is_heard(f'You say, "chatter 12 {mark}"')
    assert not is_heard("Talker9 has entered the game.")


class Transport:
    """What the client writes, kept (no socket)."""

    def __init__(self) -> None:
        self.written = b""

    def write(self, data: bytes) -> None:
        self.written += data

    def close(self) -> None:
        pass


def test_the_client_times_a_say_by_its_echo_and_counts_the_others_lines():
    async def scenario() -> tuple[EvenniaClient, Latencies, Transport, str]:
        latencies = Latencies()
        client = EvenniaClient(7, latencies)
        transport = Transport()
        client.connection_made(transport)  # type: ignore[arg-type]
        asking = asyncio.ensure_future(client.ask("say chatter 5"))
        await asyncio.sleep(0)
        mark = token(7, 1)
        assert transport.written == f"say chatter 5 {mark}\r\n".encode()
        client.data_received(b'Talker2 says, "chatter 9 =2.8="\r\nYou say, "chatter 5 =7.10=')
        assert not asking.done()
        client.data_received(f'"\r\nYou say, "chatter 5 {mark}"\r\nTalker4 says, "x =4.1="\r\n'.encode())
        return client, latencies, transport, await asking

    client, latencies, transport, echo = asyncio.run(scenario())
    assert echo == f'You say, "chatter 5 {token(7, 1)}"'
    assert client.heard == 2
    assert len(latencies.samples) == 1 and latencies.by_command == {"say": latencies.samples}


def test_the_settings_appended_to_evennia_turn_every_limit_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(RUN_DIR, str(tmp_path))
    monkeypatch.setenv(PORT, "4100")
    monkeypatch.setenv(AMP_PORT, "4101")
    namespace: dict[str, Any] = {
        "DATABASES": {"default": {"NAME": "game.db3"}},
        "PORTAL_SERVICES_PLUGIN_MODULES": ["server.conf.portal_services_plugins"],
        "SERVER_SERVICES_PLUGIN_MODULES": ["server.conf.server_services_plugins"],
    }
    exec(SETTINGS, namespace)
    assert namespace["TELNET_PORTS"] == [4100] and namespace["AMP_PORT"] == 4101
    assert namespace["TELNET_INTERFACES"] == ["127.0.0.1"] and namespace["AMP_INTERFACE"] == "127.0.0.1"
    assert namespace["WEBSERVER_ENABLED"] is False and namespace["WEBCLIENT_ENABLED"] is False
    assert namespace["CREATION_THROTTLE_LIMIT"] is None and namespace["LOGIN_THROTTLE_LIMIT"] is None
    assert namespace["MAX_COMMAND_RATE"] >= 1_000_000 and namespace["IDLE_TIMEOUT"] == -1
    assert namespace["DATABASES"]["default"]["NAME"] == str(tmp_path / "evennia.db3")
    assert namespace["SERVER_LOG_FILE"].startswith(str(tmp_path))
    plugin = f"server.conf.{AMP_PLUGIN_MODULE}"
    assert namespace["PORTAL_SERVICES_PLUGIN_MODULES"] == ["server.conf.portal_services_plugins", plugin]
    assert namespace["SERVER_SERVICES_PLUGIN_MODULES"] == ["server.conf.server_services_plugins", plugin]


def amp_plugin(monkeypatch: pytest.MonkeyPatch) -> tuple[type, list[bytes], list[bytes], list[str]]:
    """Evennia's AMP protocol class as the plugin leaves it, with what reached Twisted's AMP
    parser, what Evennia's own check got (it answers as HTTP and drops the link), and what
    was logged: Twisted and Evennia stood in for by modules of a few lines."""
    parsed: list[bytes] = []
    checked: list[bytes] = []
    logged: list[str] = []

    class AMP:
        def dataReceived(self, data: bytes) -> None:
            parsed.append(data)

    class AMPMultiConnectionProtocol(AMP):
        def __init__(self) -> None:
            self.multibatches = 0

        def dataReceived(self, data: bytes) -> None:
            checked.append(data)

    modules = {
        "twisted": {},
        "twisted.protocols": {},
        "twisted.protocols.amp": {"AMP": AMP},
        "evennia": {},
        "evennia.server": {},
        "evennia.server.portal": {},
        "evennia.server.portal.amp": {
            "NUL": b"\x00",
            "NULNUL": b"\x00\x00",
            "AMPMultiConnectionProtocol": AMPMultiConnectionProtocol,
        },
        "evennia.utils": {},
        "evennia.utils.logger": {"log_info": logged.append, "log_trace": logged.append},
    }
    for name, attributes in modules.items():
        module = types.ModuleType(name)
        module.__dict__.update(attributes)
        monkeypatch.setitem(sys.modules, name, module)
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(sys.modules[parent], child, module)
    namespace: dict[str, Any] = {}
    exec(AMP_PLUGIN, namespace)
    namespace["start_plugin_services"](object())
    return AMPMultiConnectionProtocol, parsed, checked, logged


def test_the_evennia_link_keeps_a_read_cut_just_after_a_box_began(monkeypatch: pytest.MonkeyPatch):
    protocol, parsed, checked, logged = amp_plugin(monkeypatch)
    link = protocol()
    box = b"\x00\x04_ask\x00\x011\x00\x00"
    # The first read ends with a whole box and the first byte of the next: Evennia took the
    # second read, which does not start with NUL, for HTTP and dropped the link.
    cut = box + box[:1]
    link.dataReceived(cut)
    link.dataReceived(box[1:])
    assert parsed == [cut, box[1:]] and checked == []
    assert logged == [LINK_KEPT]
    # A box cut in the middle is Evennia's own case of a read to come: nothing to log.
    link.dataReceived(box[:5])
    link.dataReceived(box[5:])
    assert parsed[2:] == [box[:5], box[5:]] and logged == [LINK_KEPT]


def test_the_evennia_link_still_turns_away_what_never_was_amp(monkeypatch: pytest.MonkeyPatch):
    protocol, parsed, checked, logged = amp_plugin(monkeypatch)
    stray = protocol()
    stray.dataReceived(b"GET / HTTP/1.1\r\n")
    assert checked == [b"GET / HTTP/1.1\r\n"] and parsed == [] and logged == []


def test_the_installation_is_found_only_when_complete_and_of_this_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("DVORAK_BENCH_EVENNIA_CACHE", str(tmp_path))
    assert cache_folder() == tmp_path
    assert installed(tmp_path) is None
    (tmp_path / "installed.json").write_text(json.dumps({"version": "0.9.5", "library": "/x"}))
    assert installed(tmp_path) is None
    (tmp_path / "installed.json").write_text(json.dumps({"version": EVENNIA_VERSION, "library": "/x/evennia"}))
    found = installed(tmp_path)
    assert found is not None and found.library == Path("/x/evennia") and found.game == tmp_path / "game"


def chat(says: float, p99: float) -> dict[str, Any]:
    return {"commands_per_s": says, "p50_ms": 1.0, "p99_ms": p99, "server_cpu_cores": 0.5, "moves_per_s": 0}


def test_side_by_side_gives_the_ratio_of_says_and_whether_the_target_is_met():
    report = side_by_side(2000, chat(1986, 2.3), {"evennia": chat(80, 900.0), "ceiling": chat(1407, 76.0)})
    assert report["ours"] == {"commands_per_s": 1986, "p50_ms": 1.0, "p99_ms": 2.3, "server_cpu_cores": 0.5}
    assert report["evennia"]["p99_ms"] == 900.0
    assert report["says_per_s_vs_evennia"] == 24.8 and report["says_per_s_vs_ceiling"] == 1.4
    assert report["target_met"] is True
    assert side_by_side(2000, chat(1986, 12.0), {"evennia": chat(80, 900.0)})["target_met"] is False
    assert side_by_side(2000, chat(1986, 2.3), {"evennia": chat(120, 900.0)})["target_met"] is False


def test_the_target_is_not_judged_at_a_rate_evennia_keeps_up_with():
    report = side_by_side(60, chat(62, 6.7), {"evennia": chat(57, 250.0)})
    assert report["says_per_s_vs_evennia"] == 1.1
    assert report["target_met"] is None


def test_a_run_in_which_evennia_fell_short_without_being_busy_is_void_not_a_success():
    # 2026-12-02: Evennia's players all waited for echoes lost with its Portal-Server link.
    stalled = {"commands_per_s": 3, "p50_ms": 1344.0, "p99_ms": 1395.2, "server_cpu_cores": 0.05}
    report = side_by_side(2000, chat(1989, 4.1), {"evennia": stalled, "ceiling": chat(1379, 82.5)})
    assert report["target_met"] is None
    assert report["says_per_s_vs_evennia"] is None and report["says_per_s_vs_ceiling"] == 1.4
    assert "3 of the 2000 says/s offered on 0.05 cores" in report["evennia_void"]
    # Busy and short of the rate: judged as ever.
    busy = {**stalled, "commands_per_s": 83, "server_cpu_cores": 1.2}
    report = side_by_side(2000, chat(1989, 4.1), {"evennia": busy})
    assert report["target_met"] is True and "evennia_void" not in report
    # Keeping up on little CPU is not void: there is simply nothing to judge.
    report = side_by_side(20, chat(20, 1.0), {"evennia": {**stalled, "commands_per_s": 20, "server_cpu_cores": 0.3}})
    assert report["target_met"] is None and "evennia_void" not in report


def test_side_by_side_without_evennia_says_nothing_of_the_target_and_a_dead_run_has_no_ratio():
    report = side_by_side(2000, chat(1986, 2.3), {"ceiling": chat(0, 0.0)})
    assert report["says_per_s_vs_ceiling"] is None
    assert "target_met" not in report
