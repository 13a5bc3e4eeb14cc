"""Run benchmark scenarios and print their figures.

.venv/bin/python -m bench game [--backend sqlite|postgresql|both] [--seconds 20] [--web-share 0.4] [--gmcp-share 0.2]
    [--gnav-share 0.2]
    [--workers N]   (N > 1: serve --workers N, PostgreSQL only, with an MQTT broker of its own)
    [--no-handoff]  (with --workers: telnet players stay on the worker the kernel chose)
    [--profile FILE]   (py-spy samples the server through the measured run: its time by stage in the figures)
.venv/bin/python -m bench compare <rev> [--scenarios game,chat] [--rounds 1] [scenario options]
    (the same scenarios against the server of git revision <rev> and this checkout's, one table of both)
.venv/bin/python -m bench webidle [--backend ...] [--web-connections 2000]   (idle memory, web and telnet)
.venv/bin/python -m bench gnavroom [--backend ...] [--rooms 200] [--seconds 20]   (Gnav rooms over telnet)
.venv/bin/python -m bench ysroom [--backend ...] [--rooms 50] [--seconds 20]   (Ys rooms over telnet)
.venv/bin/python -m bench attacks [<rev>] [--backend ...] [--attack-seconds 10] [--attacks second|<name>,...]
    (not part of "all"; with <rev>, each attack against that revision's server, then this checkout's)
.venv/bin/python -m bench chat [--where room|lobby|both] [--away 1] [--talkers 100] [--chat-rate 2000] [--rounds 1]
    (talk in one game room, with --away seated players whose connections dropped, or in the lobby, or both in turn)
.venv/bin/python -m bench chat --with-evennia [--with-ceiling] [--chat-rate 2000]   (ours, then Evennia and the
    bare telnetlib3 server at the same rate, and one line setting them side by side)
.venv/bin/python -m bench evenniachat [--chat-rate 2000]   (Evennia alone, installed on first use; not part of "all")
.venv/bin/python -m bench gnav [--matches 3000]   (computer players in process; not part of "all")
.venv/bin/python -m bench ys [--games 200]   (Ys computer players in process; not part of "all")
.venv/bin/python -m bench soak [--backend ...] [--minutes 10]   (a mixed population for N minutes, its figures
    every minute and their slopes; not part of "all")
.venv/bin/python -m bench batch [--backend ...] [--batches 2000]   (a group commit's own cost on the event loop,
    in process; not part of "all")
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from bench import attacks, batch, gnav, machine, profiling, scenarios, soak, ys
from bench.compare import COMPARABLE, CompareError, run_compare, sides
from bench.evennia import side_by_side
from bench.processes import raise_open_file_limit, server_code

SCENARIOS = ("game", "gnavroom", "ysroom", "chat", "idle", "webidle", "login", "coldstart", "ceiling", "crossnode")


def run(coroutine):  # type: ignore[no-untyped-def]
    """Run a scenario on uvloop where it is installed (the load generator needs speed too)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coroutine)
    return uvloop.run(coroutine)


def share(text: str) -> float:
    """A share, 0 to 1 (an option's type)."""
    value = float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"a share is between 0 and 1, not {text}")
    return value


def scenario_list(text: str) -> tuple[str, ...]:
    """Scenario names separated by commas (compare's --scenarios)."""
    names = tuple(dict.fromkeys(name.strip() for name in text.split(",") if name.strip()))
    unknown = [name for name in names if name not in COMPARABLE]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"compare runs some of {', '.join(COMPARABLE)}, not {text!r}")
    return names


def chosen_attacks(text: str) -> tuple[attacks.Attack, ...]:
    """The attacks ``--attacks`` names (every one when empty)."""
    if not text:
        return attacks.ATTACKS
    if text == "second":
        return tuple(attack for attack in attacks.ATTACKS if str(attack.review_item).startswith("2."))
    names = {name.strip() for name in text.split(",") if name.strip()}
    unknown = names - {attack.name for attack in attacks.ATTACKS}
    if unknown:
        raise SystemExit(f"no such attack: {', '.join(sorted(unknown))}")
    return tuple(attack for attack in attacks.ATTACKS if attack.name in names)


def run_attacks(arguments: argparse.Namespace, backends: tuple[str, ...]) -> int:
    """One line per attack, each against a server of its own, printed as it ends; given a
    revision, each attack against that revision's server and then this checkout's."""
    chosen = chosen_attacks(arguments.attacks)

    if not arguments.rev:
        for backend in backends:
            for attack in chosen:
                result = run(attacks.run_attack(backend, attack, arguments.attack_seconds))
                print(json.dumps({"scenario": "attacks", "backend": backend, **result}), flush=True)
        return 0
    try:
        with sides(arguments.rev) as both:
            for attack in chosen:
                for side in both:
                    with server_code(side.code):
                        for backend in backends:
                            try:
                                result = run(attacks.run_attack(backend, attack, arguments.attack_seconds))
                            except Exception as error:  # the old code may not have what it needs
                                result = {"attack": attack.name, "error": f"{type(error).__name__}: {error}"[:300]}
                            line = {"scenario": "attacks", "backend": backend, "code": side.label}
                            print(json.dumps({**line, **result}), flush=True)
    except CompareError as error:
        print(f"python -m bench attacks: {error}", file=sys.stderr)
        return 2
    return 0


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bench", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "scenario", choices=(*SCENARIOS, "evenniachat", "attacks", "gnav", "ys", "batch", "soak", "all", "compare")
    )
    parser.add_argument(
        "rev", nargs="?", help="compare, attacks: the git revision to compare with (a tag, a branch, a commit)"
    )
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each measured run")
    parser.add_argument(
        "--rate", type=float, default=3000.0, help="game: Dvorak moves a second offered (in its Dvorak rooms)"
    )
    parser.add_argument("--rooms", type=int, default=200, help="game, gnavroom, ysroom: rooms")
    parser.add_argument(
        "--web-share",
        type=share,
        default=0.4,
        help="game: share of each room's people played over WebSockets (0.4: two of a Dvorak room's five, "
        "one of a Gnav room's two; 0: telnet only)",
    )
    parser.add_argument(
        "--gmcp-share",
        type=share,
        default=0.2,
        help="game: share of each Dvorak room's five on telnet asking for GMCP, as MUD clients do (0.2: one; "
        "0: none, as every game figure taken before this option)",
    )
    parser.add_argument(
        "--gnav-share",
        type=share,
        default=0.2,
        help="game: share of the rooms that are Gnav rooms of two people and two computer players "
        "(0.2: 40 of 200; 0: Dvorak rooms only, as every game figure taken before this option)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="game: the server's worker processes (serve --workers; more than one on PostgreSQL only, with a "
        "Mosquitto of the bench's own); CPU is summed over them",
    )
    parser.add_argument(
        "--no-handoff",
        dest="handoff",
        action="store_false",
        help="game, with --workers above 1: leave each telnet player on the worker the kernel gave its connection "
        "(DVORAK_HANDOFF=off) rather than handing it to the worker serving its room",
    )
    parser.add_argument(
        "--chat-rate",
        type=float,
        default=2000.0,
        help="chat, evenniachat: says a second offered (1e9: each talker says the next line once its last is echoed)",
    )
    parser.add_argument("--talkers", type=int, default=100, help="chat: the players talking")
    parser.add_argument(
        "--where",
        choices=("room", "lobby", "both"),
        default="room",
        help="chat: where they talk: seated in one game room, or in the lobby; both: the lobby and then the room, "
        "--rounds times, and a line of the medians side by side",
    )
    parser.add_argument(
        "--away",
        type=int,
        default=0,
        help="chat, --where room: more players seated there whose connections dropped (what is said is kept for them)",
    )
    parser.add_argument(
        "--with-evennia",
        action="store_true",
        help="chat: after ours, the same load against Evennia (evenniachat), and a line of both side by side",
    )
    parser.add_argument(
        "--with-ceiling",
        action="store_true",
        help="chat: after ours, the same load against the bare telnetlib3 server (ceiling-chat), in that line too",
    )
    parser.add_argument("--connections", type=int, default=10_000, help="idle: connections")
    parser.add_argument(
        "--web-connections", type=int, default=2000, help="webidle: web players, and as many telnet ones"
    )
    parser.add_argument("--cross-rate", type=float, default=200.0, help="crossnode: lines a second offered")
    parser.add_argument("--attack-seconds", type=float, default=10.0, help="attacks: length of each timed attack")
    parser.add_argument(
        "--attacks",
        default="",
        help='attacks: the attacks to run, by name, separated by commas, or "second" for those of the second '
        "review (default: every one)",
    )
    parser.add_argument("--matches", type=int, default=3000, help="gnav: matches per pairing of levels")
    parser.add_argument("--games", type=int, default=200, help="ys: games per measurement")
    parser.add_argument("--batches", type=int, default=2000, help="batch: batches written and timed")
    parser.add_argument("--minutes", type=int, default=10, help="soak: minutes the population plays")
    parser.add_argument(
        "--scenarios",
        type=scenario_list,
        default=("game", "chat"),
        help=f"compare: the scenarios to run, separated by commas (of {', '.join(COMPARABLE)}; default game,chat)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        metavar="FILE",
        help="game: sample the server with py-spy through the measured run, keep the raw stacks in FILE "
        "and add its time by stage to the figures (one backend, one worker)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="compare: runs of each scenario on each side (the table: medians); chat --where both: runs in each place",
    )
    return parser


def run_one(scenario: str, backend: str, arguments: argparse.Namespace) -> dict[str, Any]:
    """One run of a scenario that starts our server, on ``backend``: its figures, with
    how fast the machine ran Python just before (:mod:`bench.machine`)."""
    speed = machine.loop_seconds()
    cores = machine.cores_at_once(speed)
    return machine.with_machine_speed(_run_scenario(scenario, backend, arguments), speed, cores)


def _run_scenario(scenario: str, backend: str, arguments: argparse.Namespace) -> dict[str, Any]:
    if scenario == "game":
        return run(
            scenarios.game(
                backend,
                arguments.rooms,
                arguments.rate,
                arguments.seconds,
                arguments.web_share,
                arguments.gnav_share,
                arguments.workers,
                arguments.profile,
                arguments.gmcp_share,
                arguments.handoff,
            )
        )
    if scenario == "gnavroom":
        return run(scenarios.gnav_rooms(backend, arguments.rooms, arguments.seconds))
    if scenario == "ysroom":
        return run(scenarios.ys_rooms(backend, arguments.rooms, arguments.seconds))
    if scenario == "chat":
        return run(
            scenarios.chat(
                backend, arguments.talkers, arguments.chat_rate, arguments.seconds, arguments.where, arguments.away
            )
        )
    if scenario == "idle":
        return run(scenarios.idle(backend, arguments.connections))
    if scenario == "webidle":
        # Each kind on a server of its own, the same number of players.
        web = run(scenarios.idle(backend, arguments.web_connections, web=True))
        telnet = run(scenarios.idle(backend, arguments.web_connections))
        return {"web": web, "telnet": telnet}
    if scenario == "login":
        return run(scenarios.logins_during_game(backend, arguments.rooms, arguments.rate, arguments.seconds))
    if scenario == "crossnode":
        # Two nodes need a database both reach: PostgreSQL only.
        return run(scenarios.cross_node(rate=arguments.cross_rate, seconds=arguments.seconds))
    if scenario == "coldstart":
        return run(scenarios.cold_start(backend))
    raise ValueError(f"no such scenario: {scenario}")


def chat_side_by_side(backends: tuple[str, ...], arguments: argparse.Namespace) -> None:
    """``chat --with-evennia`` / ``--with-ceiling``: ours on each backend, then the others
    at the same offered rate (each line as it ends), then a line per backend of them all
    side by side (:func:`bench.evennia.side_by_side`)."""
    ours = {}
    for backend in backends:
        ours[backend] = run_one("chat", backend, arguments)
        print(json.dumps({"scenario": "chat", "backend": backend, **ours[backend]}), flush=True)
    others = {}
    if arguments.with_ceiling:
        others["ceiling"] = run(
            scenarios.echo_ceiling("broadcast", arguments.talkers, 1, arguments.chat_rate, arguments.seconds)
        )
        print(json.dumps({"scenario": "ceiling-chat", **others["ceiling"]}), flush=True)
    if arguments.with_evennia:
        others["evennia"] = run(scenarios.evennia_chat(arguments.talkers, arguments.chat_rate, arguments.seconds))
        print(json.dumps({"scenario": "evenniachat", **others["evennia"]}), flush=True)
    for backend, result in ours.items():
        figures = side_by_side(arguments.chat_rate, result, others)
        print(json.dumps({"scenario": "chat-side-by-side", "backend": backend, **figures}), flush=True)


def chat_places(backends: tuple[str, ...], arguments: argparse.Namespace) -> None:
    """``chat --where both``: the same talk in the lobby and then at a table (with
    ``--away`` seated players away), ``--rounds`` times, the order swapped each round;
    each run's line, then a line per backend of the medians side by side."""
    for backend in backends:
        runs: dict[str, list[dict[str, Any]]] = {"lobby": [], "room": []}
        for round_ in range(arguments.rounds):
            for where in ("lobby", "room") if round_ % 2 == 0 else ("room", "lobby"):
                place = argparse.Namespace(**{**vars(arguments), "where": where})
                place.away = arguments.away if where == "room" else 0
                result = run_one("chat", backend, place)
                runs[where].append(result)
                print(json.dumps({"scenario": "chat", "backend": backend, **result}), flush=True)
        medians = {
            where: {
                figure: statistics.median(r[figure] for r in results)
                for figure in ("commands_per_s", "p50_ms", "p99_ms")
            }
            for where, results in runs.items()
        }
        ratio = medians["room"]["commands_per_s"] / medians["lobby"]["commands_per_s"]
        line = {"scenario": "chat-places", "backend": backend, "away": arguments.away, "rounds": arguments.rounds}
        print(json.dumps({**line, **medians, "room_says_vs_lobby": round(ratio, 3)}), flush=True)


def main(argv: list[str] | None = None) -> int:
    options = parser()
    arguments = options.parse_args(argv)
    if arguments.scenario == "compare":
        if arguments.rev is None:
            options.error("compare needs the revision to compare with: python -m bench compare <rev>")
    elif arguments.rev is not None and arguments.scenario != "attacks":
        options.error(f"unexpected argument {arguments.rev!r} (only compare and attacks take a revision)")
    if arguments.rounds < 1:
        options.error("--rounds must be at least 1")
    if arguments.workers < 1:
        options.error("--workers must be at least 1")
    if arguments.batches < 1:
        options.error("--batches must be at least 1")
    if arguments.talkers < 1 or arguments.away < 0:
        options.error("--talkers must be at least 1, --away at least 0")
    if arguments.away and arguments.where == "lobby":
        options.error("--away is for --where room: the lobby has no seats")
    if arguments.where == "both" and (arguments.with_evennia or arguments.with_ceiling):
        options.error("--where both compares two places of ours: run --with-evennia with one place")
    if arguments.profile is not None and (
        arguments.scenario != "game" or arguments.backend == "both" or arguments.workers > 1
    ):
        options.error("--profile is for one game run: --backend sqlite or postgresql, one worker")
    if arguments.profile is not None:
        try:
            profiling.py_spy()  # before the set-up, not after it
        except RuntimeError as missing:
            options.error(str(missing))
    if arguments.workers > 1 and arguments.backend != "postgresql":
        options.error("--workers above 1 needs --backend postgresql (the workers share one database)")
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
    if arguments.scenario == "soak":
        if arguments.minutes < 1:
            options.error("--minutes must be at least 1")
        for backend in backends:
            emit = lambda row: print(json.dumps(row), flush=True)  # noqa: E731
            print(json.dumps(run(soak.soak(backend, arguments.minutes, emit=emit))), flush=True)
        return 0
    if arguments.scenario == "batch":
        for backend in backends:
            print(json.dumps(run(batch.run(backend, arguments.batches))), flush=True)
        return 0
    if arguments.scenario == "compare":
        try:
            table = run_compare(
                arguments.rev,
                arguments.scenarios,
                backends,
                arguments.rounds,
                lambda scenario, backend: run_one(scenario, backend, arguments),
                emit=lambda line: print(line, flush=True),
            )
        except CompareError as error:
            print(f"python -m bench compare: {error}", file=sys.stderr)
            return 2
        print(f"\n{table}", flush=True)
        return 0
    if arguments.scenario == "attacks":
        return run_attacks(arguments, backends)
    if arguments.scenario == "evenniachat":
        result = run(scenarios.evennia_chat(arguments.talkers, arguments.chat_rate, arguments.seconds))
        print(json.dumps({"scenario": "evenniachat", **result}), flush=True)
        return 0
    if arguments.scenario == "chat" and arguments.where == "both":
        chat_places(backends, arguments)
        return 0
    if arguments.scenario == "chat" and (arguments.with_evennia or arguments.with_ceiling):
        chat_side_by_side(backends, arguments)
        return 0
    chosen = SCENARIOS if arguments.scenario == "all" else (arguments.scenario,)
    for scenario in chosen:
        if scenario == "ceiling":
            # The bare telnetlib3 server under the game's and the chat's load: no backend.
            game_load = run(scenarios.echo_ceiling("rooms", arguments.rooms * 5, 5, arguments.rate, arguments.seconds))
            print(json.dumps({"scenario": "ceiling-game", **game_load}), flush=True)
            chat_load = run(
                scenarios.echo_ceiling("broadcast", arguments.talkers, 1, arguments.chat_rate, arguments.seconds)
            )
            print(json.dumps({"scenario": "ceiling-chat", **chat_load}), flush=True)
            continue
        for backend in ("postgresql",) if scenario == "crossnode" else backends:
            result = run_one(scenario, backend, arguments)
            print(json.dumps({"scenario": scenario, "backend": backend, **result}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
