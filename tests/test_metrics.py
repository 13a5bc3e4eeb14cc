"""What a node tells Prometheus and balancers: ``/metrics`` scraped while players log in
and play, on the web port and on ``--metrics-port``; ``/healthz`` going from 200 to 503
when the database stops answering (and back), or while the node counts down to a
shutdown; the shipped HAProxy configurations asking it; the Grafana dashboard asking for
metrics that exist."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import ssl
import subprocess
import time
from typing import Any

import aiohttp

from server.metrics import SCRAPE_FRESH
from tests.client import MudClient
from tests.conftest import WELCOME_END, log_in
from tests.gnav_players import connect as gnav_player
from tests.gnav_players import play as play_gnav
from tests.players import ScriptedPlayer, seated_at
from tests.scraping import labelled, scrape, value
from tests.server_process import ROOT, free_port
from tests.test_outage import outage  # noqa: F401 - a fixture
from tests.test_server_admin import staff
from tests.test_web import haproxy  # noqa: F401 - a fixture
from tests.web_client import WebClient, web_log_in


async def fetch(port: int, path: str, scheme: str = "http", context: ssl.SSLContext | None = None) -> tuple[int, str]:
    url = f"{scheme}://127.0.0.1:{port}{path}"
    async with aiohttp.ClientSession() as session, session.get(url, ssl=context) as response:
        return response.status, await response.text()


async def health(port: int) -> tuple[int, dict[str, Any]]:
    status, body = await fetch(port, "/healthz")
    return status, json.loads(body)


async def until_health(port: int, wanted: int, timeout: float = 15.0) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        status, body = await health(port)
        if status == wanted:
            return body
        assert loop.time() < deadline, f"/healthz stayed {status} {body}"
        await asyncio.sleep(0.2)


async def test_metrics_count_connections_logins_commands_and_rooms_as_players_play(start_server):
    server = await start_server()
    before = await scrape(server.web_port)
    assert value(before, "dvorak_logins_total") == 0
    assert labelled(before, "dvorak_connections", "kind") == {"telnet": 0, "tls": 0, "web": 0}

    ann, bo = await seated_at(server.port, ["Ann", "Bo"], "Den", cards=12)
    await ann.ask("set turns=off")
    await ann.ask("start")
    await ann.play_turn()
    await bo.ask("draw")
    await ann.ask("xyzzy")
    cy = await WebClient.open(server.web_port)
    await web_log_in(cy, "Cy")
    intruder = await MudClient.open(server.port)
    await intruder.expect(WELCOME_END)
    await intruder.command("connect Ann wrong-password", "different password")
    await intruder.command("connect Nobody whatever1", "different password")
    await asyncio.sleep(SCRAPE_FRESH)  # a scrape is answered again as it is for a second
    watching = await scrape(server.web_port)
    await intruder.close()

    assert labelled(watching, "dvorak_connections", "kind") == {"telnet": 3, "tls": 0, "web": 1}
    assert value(watching, "dvorak_players_online") == 3
    assert value(watching, "dvorak_rooms_loaded") == 1
    assert 4 <= value(watching, "dvorak_tasks") < 200  # the connections' tasks, a handful of the node's
    assert value(watching, "dvorak_logins_total") == 3
    assert labelled(watching, "dvorak_failed_logins_total", "reason") == {
        "unknown_name": 1,
        "wrong_password": 1,
        "throttled": 0,
    }
    commands = labelled(watching, "dvorak_commands_total", "command")
    assert commands["create"] == 3 and commands["connect"] == 2
    assert commands["huh"] == 1 and commands["start"] == 1 and commands["newroom"] == 1
    assert commands["drawcard"] == 2 and commands["endturn"] == 1 and commands["loadcard"] == 12
    assert "xyzzy" not in commands and "Ann" not in commands
    count = value(watching, "dvorak_command_seconds_count")
    assert count == sum(commands.values())
    buckets = sorted(
        (float(dict(labels)["le"]), v) for (n, labels), v in watching.items() if n == "dvorak_command_seconds_bucket"
    )
    assert buckets[-1] == (float("inf"), count)
    assert all(a[1] <= b[1] for a, b in zip(buckets, buckets[1:], strict=False))
    assert value(watching, "dvorak_command_seconds_sum") > 0
    # Every move stored: the seats, twelve cards, the start, a turn and a draw.
    assert value(watching, "dvorak_commit_seconds_count") >= 18
    assert labelled(watching, "dvorak_database_errors_total", "kind") == {"unavailable": 0, "full": 0}
    assert value(watching, "dvorak_accepting") == 1 and value(watching, "dvorak_mqtt_connected") == 0
    assert value(watching, "process_resident_memory_bytes") > 0
    await cy.close()


async def test_metrics_and_health_on_a_port_of_their_own_without_the_web_port(start_server):
    port = free_port()
    server = await start_server(web=False, metrics_port=port)
    assert server.web is None and server.metrics_port is not None and server.metrics_port.port == port
    client = await MudClient.open(server.port)
    await client.expect(WELCOME_END)
    await log_in(client, "Ann")
    samples = await scrape(port)
    assert labelled(samples, "dvorak_connections", "kind")["telnet"] == 1
    assert await health(port) == (200, {"status": "ok", "database": "ok", "accepting": True})
    assert (await fetch(port, "/"))[0] == 404
    assert (await fetch(port, "/ws"))[0] == 404
    await client.close()


async def test_tls_connections_and_computer_players_moves_are_counted(start_server, self_signed, monkeypatch):
    from games.gnav import rules as gnav_rules

    monkeypatch.setattr(gnav_rules, "DEAL_PAUSE", 0.05)
    cert, key = self_signed
    port = free_port()
    server = await start_server(tls_port=0, tls_cert=str(cert), tls_key=str(key), metrics_port=port)
    context = ssl.create_default_context(cafile=str(cert))
    context.check_hostname = False
    reader, writer = await asyncio.open_connection("127.0.0.1", server.tls_port, ssl=context)
    secure = MudClient(reader, writer)
    await secure.expect(WELCOME_END)
    await log_in(secure, "Secure")
    # The web port speaks https now; its /healthz too.
    assert (await fetch(server.web_port, "/healthz", "https", context))[0] == 200

    hana = await gnav_player(server.port, "Hana")
    await hana.ask("newroom/gnav Fjord")
    for level in ("easy", "normal", "strong"):
        await hana.ask(f"addbot {level}")
    await hana.ask("set botdelay=0")
    await hana.ask("start")

    async def bots_moved(_: object) -> bool:
        return labelled(await scrape(port), "dvorak_bot_moves_total", "game")["gnav"] > 0

    await play_gnav([hana], random.Random(3), stop=bots_moved)
    samples = await scrape(port)
    assert labelled(samples, "dvorak_connections", "kind") == {"telnet": 1, "tls": 1, "web": 0}
    assert labelled(samples, "dvorak_bot_moves_total", "game")["dvorak"] == 0
    await secure.close()


async def test_a_scrape_is_answered_again_for_a_second_however_often_it_is_asked(start_server):
    server = await start_server()
    ann = await MudClient.open(server.port)
    await ann.expect(WELCOME_END)
    loop = asyncio.get_running_loop()
    asked = loop.time()
    first = await scrape(server.web_port)
    ann.send("create Ann secret1")
    await ann.expect("Players here")
    again = await asyncio.gather(*(scrape(server.web_port) for _ in range(20)))
    if loop.time() - asked < SCRAPE_FRESH:  # (else the machine was too slow to tell)
        assert all(samples == first for samples in again)
        assert value(first, "dvorak_logins_total") == 0
    await asyncio.sleep(SCRAPE_FRESH)
    assert value(await scrape(server.web_port), "dvorak_logins_total") == 1
    await ann.close()


async def test_a_stall_of_the_event_loop_shows_in_its_lag(start_server):
    server = await start_server()
    await asyncio.sleep(0.3)
    # Nothing runs in the test's event loop, which is the server's, for 0.3 s: what a
    # command that takes the loop that long does to everyone else.
    time.sleep(0.3)
    await asyncio.sleep(SCRAPE_FRESH + 0.1)  # a fresh scrape, not one given again
    samples = await scrape(server.web_port)
    looks = value(samples, "dvorak_event_loop_lag_seconds_count")
    late = looks - value(samples, "dvorak_event_loop_lag_seconds_bucket", le="0.1")
    assert looks >= 5  # ten a second
    assert late >= 1  # the stall, seen once (the loop ran the timer 0.2-0.3 s late)
    assert value(samples, "dvorak_event_loop_lag_seconds_sum") >= 0.15


async def test_healthz_fails_while_the_database_does_not_answer_and_recovers(start_server, outage):  # noqa: F811
    server = await start_server(database_url=outage.url, database_timeout=1.0)
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    assert await health(server.web_port) == (200, {"status": "ok", "database": "ok", "accepting": True})

    await outage.cut()
    body = await until_health(server.web_port, 503)
    assert body == {"status": "unavailable", "database": "down", "accepting": True}
    assert "The database is not answering" in await ann.ask("newroom Fragile")
    errors = labelled(await scrape(server.web_port), "dvorak_database_errors_total", "kind")
    assert errors["unavailable"] >= 1 and errors["full"] == 0

    await outage.restore()
    assert await until_health(server.web_port, 200) == {"status": "ok", "database": "ok", "accepting": True}
    assert "You made room Fragile" in await ann.ask("newroom Fragile")


async def test_healthz_sends_players_elsewhere_while_the_node_counts_down(start_server, database_url):
    server = await start_server()
    ann = await staff(server.port, database_url, "Ann")
    await ann.ask("@shutdown 10")
    assert await health(server.web_port) == (503, {"status": "unavailable", "database": "ok", "accepting": False})
    assert value(await scrape(server.web_port), "dvorak_accepting") == 0
    await ann.ask("@shutdown/cancel")
    assert (await health(server.web_port))[0] == 200


async def test_many_health_checks_at_once_ask_the_database_once(start_server):
    server = await start_server()
    asked = 0
    ping = server.database.ping

    async def counted() -> None:
        nonlocal asked
        asked += 1
        await ping()

    server.health._ping = counted
    server.health._answer = None
    answers = await asyncio.gather(*(health(server.web_port) for _ in range(50)))
    assert {status for status, _ in answers} == {200}
    assert asked == 1


async def test_behind_the_shipped_web_haproxy_config_a_node_whose_database_stops_gets_no_players(
    start_server,
    outage,  # noqa: F811
    self_signed,
    haproxy,  # noqa: F811
    tmp_path,
):
    cert, key = self_signed
    both = tmp_path / "both.pem"
    both.write_text(cert.read_text() + key.read_text())
    server = await start_server(database_url=outage.url, database_timeout=1.0, web_proxy_from="127.0.0.1")
    port = free_port()
    node = f"127.0.0.1:{server.web_port}"
    env = {**os.environ, "WEB_BIND": f"127.0.0.1:{port}", "WEB_CERT": str(both), "NODE1": node}
    process = await asyncio.create_subprocess_exec(
        haproxy, "-db", "-f", str(ROOT / "deploy" / "haproxy-web.cfg"), env=env, stdout=asyncio.subprocess.DEVNULL
    )
    context = ssl.create_default_context(cafile=str(cert))
    context.check_hostname = False

    async def page_status(wanted: int) -> None:
        for _ in range(150):
            try:
                if (await fetch(port, "/", "https", context))[0] == wanted:
                    return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.1)
        raise AssertionError(f"HAProxy never answered {wanted}")

    try:
        await page_status(200)
        # The operators' pages are not the public's.
        assert (await fetch(port, "/metrics", "https", context))[0] == 404
        assert (await fetch(port, "/healthz", "https", context))[0] == 404
        await outage.cut()
        await page_status(503)  # HAProxy: no node to send a player to
        await outage.restore()
        await page_status(200)
    finally:
        process.terminate()
        await process.wait()


def test_the_shipped_telnet_haproxy_config_checks_each_node_s_healthz_on_its_web_port(haproxy):  # noqa: F811
    config = (ROOT / "deploy" / "haproxy.cfg").read_text()
    checked = subprocess.run(
        [haproxy, "-c", "-f", str(ROOT / "deploy" / "haproxy.cfg")], capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stderr
    assert "option httpchk GET /healthz" in config and "on-marked-down shutdown-sessions" not in config
    servers = re.findall(r"^\s*server node(\d) 127\.0\.0\.1:(\d+) check port (\d+) send-proxy$", config, re.MULTILINE)
    # As deploy/local-cluster.sh and deploy/dvorak-mush@.service give them: telnet 6260..,
    # web 6280...
    assert servers == [("1", "6260", "6280"), ("2", "6261", "6281"), ("3", "6262", "6282")]
    script = (ROOT / "deploy" / "local-cluster.sh").read_text()
    assert "FIRST_NODE_PORT=6260" in script and "FIRST_WEB_PORT=6280" in script
    assert "--web-port $$((%i + 20))" in (ROOT / "deploy" / "dvorak-mush@.service").read_text()


async def test_every_metric_the_grafana_dashboard_asks_for_exists(start_server):
    dashboard = json.loads((ROOT / "deploy" / "grafana-dashboard.json").read_text())
    expressions = [
        target["expr"] for panel in dashboard["panels"] for target in panel.get("targets", []) if "expr" in target
    ]
    expressions += [variable["definition"] for variable in dashboard["templating"]["list"] if "definition" in variable]
    assert len(expressions) > 15
    wanted = {name for expr in expressions for name in re.findall(r"\b((?:dvorak|process)_[a-z_]+)\b", expr)}
    server = await start_server()
    present = {name for name, _ in await scrape(server.web_port)}
    assert wanted and wanted <= present, wanted - present
    ids = [panel["id"] for panel in dashboard["panels"]]
    assert len(ids) == len(set(ids))


async def test_a_scrapers_accept_header_cannot_break_a_scrape_nor_make_a_new_answer_each_time(start_server):
    # prometheus_client answers in whatever OpenMetrics version the Accept header names
    # (its Content-Type repeats it), and raises on one it cannot compare ("1.x"): each
    # new version was a fresh scrape kept in memory for good, and "1.x" a server error.
    server = await start_server()
    kinds = set()
    async with aiohttp.ClientSession() as session:
        for n in range(30):
            for accept in (
                f"application/openmetrics-text; version=1.0.{n}",
                f"application/openmetrics-text; version=1.0.0.{n}",
                f"text/plain; version=1.{n}.0; escaping=dots",
                f"application/openmetrics-text; version=1.x{n}",
            ):
                async with session.get(
                    f"http://127.0.0.1:{server.web_port}/metrics", headers={"Accept": accept}
                ) as response:
                    assert response.status == 200, accept
                    body = await response.text()
                    assert "logins" in body
                    kinds.add(response.headers["Content-Type"])
    versions = {re.findall(r"version=([^;]*)", kind)[0] for kind in kinds}
    assert versions <= {"0.0.4", "1.0.0"}, kinds
    assert len(kinds) <= 3, kinds
