"""Run benchmark scenarios and print their figures.

.venv/bin/python -m bench game [--backend sqlite|postgresql|both] [--seconds 20] [--web-share 0.4] ...
.venv/bin/python -m bench webidle [--backend ...] [--web-connections 2000]   (idle memory, web and telnet)
.venv/bin/python -m bench gnavroom [--backend ...] [--rooms 200] [--seconds 20]   (Gnav rooms over telnet)
.venv/bin/python -m bench ysroom [--backend ...] [--rooms 50] [--seconds 20]   (Ys rooms over telnet)
.venv/bin/python -m bench attacks [--backend ...] [--attack-seconds 10]   (not part of "all")
.venv/bin/python -m bench gnav [--matches 2000]   (computer players in process; not part of "all")
.venv/bin/python -m bench ys [--games 200]   (Ys computer players in process; not part of "all")
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from bench import attacks, gnav, scenarios, ys
from bench.processes import raise_open_file_limit

SCENARIOS = ("game", "gnavroom", "ysroom", "chat", "idle", "webidle", "login", "coldstart", "ceiling", "crossnode")


def run(coroutine):  # type: ignore[no-untyped-def]
    """Run a scenario on uvloop where it is installed (the load generator needs speed too)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coroutine)
    return uvloop.run(coroutine)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("scenario", choices=(*SCENARIOS, "attacks", "gnav", "ys", "all"))
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each measured run")
    parser.add_argument("--rate", type=float, default=3000.0, help="game: moves a second offered")
    parser.add_argument("--rooms", type=int, default=200, help="game, gnavroom, ysroom: rooms")
    parser.add_argument(
        "--web-share",
        type=float,
        default=0.4,
        help="game: share of each room's five seats played over WebSockets (0.4: two; 0: telnet only)",
    )
    parser.add_argument("--chat-rate", type=float, default=2000.0, help="chat: says a second offered")
    parser.add_argument("--connections", type=int, default=10_000, help="idle: connections")
    parser.add_argument(
        "--web-connections", type=int, default=2000, help="webidle: web players, and as many telnet ones"
    )
    parser.add_argument("--cross-rate", type=float, default=200.0, help="crossnode: lines a second offered")
    parser.add_argument("--attack-seconds", type=float, default=10.0, help="attacks: length of each timed attack")
    parser.add_argument("--matches", type=int, default=2000, help="gnav: matches per pairing of levels")
    parser.add_argument("--games", type=int, default=200, help="ys: games per measurement")
    arguments = parser.parse_args(argv)
    if arguments.scenario == "ys":
        for result in ys.run(arguments.games):
            print(json.dumps(result), flush=True)
        return 0
    if arguments.scenario == "gnav":
        for result in gnav.run(arguments.matches):
            print(json.dumps(result), flush=True)
        return 0
    raise_open_file_limit()
    backends = ("sqlite", "postgresql") if arguments.backend == "both" else (arguments.backend,)
    if arguments.scenario == "attacks":
        # One line per attack, each against a server of its own, printed as it ends.
        for backend in backends:
            for attack in attacks.ATTACKS:
                result = run(attacks.run_attack(backend, attack, arguments.attack_seconds))
                print(json.dumps({"scenario": "attacks", "backend": backend, **result}), flush=True)
        return 0
    chosen = SCENARIOS if arguments.scenario == "all" else (arguments.scenario,)
    for scenario in chosen:
        if scenario == "ceiling":
            # The bare telnetlib3 server under the game's and the chat's load: no backend.
            game_load = run(scenarios.echo_ceiling("rooms", arguments.rooms * 5, 5, arguments.rate, arguments.seconds))
            print(json.dumps({"scenario": "ceiling-game", **game_load}), flush=True)
            chat_load = run(scenarios.echo_ceiling("broadcast", 100, 1, arguments.chat_rate, arguments.seconds))
            print(json.dumps({"scenario": "ceiling-chat", **chat_load}), flush=True)
            continue
        if scenario == "crossnode":
            # Two nodes need a database both reach: PostgreSQL only.
            result = run(scenarios.cross_node(rate=arguments.cross_rate, seconds=arguments.seconds))
            print(json.dumps({"scenario": scenario, "backend": "postgresql", **result}), flush=True)
            continue
        for backend in backends:
            if scenario == "game":
                result = run(
                    scenarios.game(backend, arguments.rooms, arguments.rate, arguments.seconds, arguments.web_share)
                )
            elif scenario == "gnavroom":
                result = run(scenarios.gnav_rooms(backend, arguments.rooms, arguments.seconds))
            elif scenario == "ysroom":
                result = run(scenarios.ys_rooms(backend, arguments.rooms, arguments.seconds))
            elif scenario == "chat":
                result = run(scenarios.chat(backend, 100, arguments.chat_rate, arguments.seconds))
            elif scenario == "idle":
                result = run(scenarios.idle(backend, arguments.connections))
            elif scenario == "webidle":
                # Each kind on a server of its own, the same number of players.
                web = run(scenarios.idle(backend, arguments.web_connections, web=True))
                telnet = run(scenarios.idle(backend, arguments.web_connections))
                result = {"web": web, "telnet": telnet}
            elif scenario == "login":
                result = run(scenarios.logins_during_game(backend, arguments.rooms, arguments.rate, arguments.seconds))
            else:
                result = run(scenarios.cold_start(backend))
            print(json.dumps({"scenario": scenario, "backend": backend, **result}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
