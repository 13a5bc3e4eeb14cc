"""The ``dvorak-mush`` command line: ``serve`` runs a node; ``migrate`` updates the schema
and ``downgrade`` undoes migrations (to roll back a release); ``check`` and ``replay``
audit the stored rooms; ``backup`` copies a SQLite database; ``prune`` deletes rooms
archived long ago, with their logs; ``admin`` grants rights; ``--version`` says which
release this is. Each game may add commands of its own (``deck import|export``: see
:attr:`commands.games.GameCommands.command_lines`)."""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import signal
import sqlite3
import sys
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeVar

from pythonjsonlogger.json import JsonFormatter

from commands.games import CommandLineError, all_game_commands
from i18n import ENGLISH, LANGUAGES
from persistence.accounts import AccountStore
from persistence.database import Database, MigrationError, describe_url, normalize_url
from persistence.rooms import RoomStore
from persistence.staff_log import CONSOLE, StaffLog
from server.audit import RoomReport, UnknownRoom, check_rooms, replay_rooms
from server.config import Settings, installed_version
from server.workers import Listeners, Supervisor, bind_listeners, worker_count

T = TypeVar("T")

log = logging.getLogger("server")

DATABASE_FLAGS = ("data_dir", "database_url", "database_timeout", "log_level", "log_format")
#: The games' own commands on the command line, by name.
GAME_COMMAND_LINES = {line.name: line for game in all_game_commands().values() for line in game.command_lines}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dvorak-mush",
        description="A MUSH-style server of multiplayer card and board games, for telnet clients and browsers.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {installed_version()}")
    commands = parser.add_subparsers(dest="command", metavar="<command>", required=True)
    serve = commands.add_parser(
        "serve",
        help="run the telnet server",
        description="Run the telnet server. Pending database migrations are applied first. "
        "SIGTERM or SIGINT (Ctrl-C) shuts it down cleanly: after telling the players and counting down "
        "--shutdown-countdown seconds, if set (a second signal stops it at once). An administrator's @shutdown "
        "stops it too, with exit status 0. With --workers N (N > 1: PostgreSQL and an MQTT broker), N worker "
        "processes serve the same ports, each a node of the cluster, under a supervisor that passes the "
        "signals on and starts again a worker that dies.",
    )
    Settings.add_arguments(serve)
    migrate = commands.add_parser(
        "migrate",
        help="apply pending database migrations and exit",
        description="Bring the database schema up to date (the server also does this when it starts).",
    )
    Settings.add_arguments(migrate, only=DATABASE_FLAGS)
    downgrade = commands.add_parser(
        "downgrade",
        help="undo database migrations back to a revision, to roll back a release",
        description="Undo the migrations after REVISION (the previous release's schema revision, which "
        "CHANGELOG.md names), with this release's code, so that the previous release can run on the database "
        "again. What those migrations added (tables, columns, and what they hold) is dropped. Stop every node "
        "of this release first; docs/operators.md has the whole order.",
    )
    downgrade.add_argument("revision", help="the schema revision to go back to, e.g. 0007")
    Settings.add_arguments(downgrade, only=DATABASE_FLAGS)

    for game in all_game_commands().values():
        for command_line in game.command_lines:
            for parser_on_a_database in command_line.add(commands):
                Settings.add_arguments(parser_on_a_database, only=DATABASE_FLAGS)

    check = commands.add_parser(
        "check",
        help="check every room's invariants, and that its event log rebuilds it",
        description="Check that every card is in exactly one place and within players' reach (no pile of someone "
        "who is not seated, none that nobody draws from), pile orders are dense, pending proposals match their "
        "votes, the turn is a seated player's, the event log "
        "has no gaps, and the room rebuilt from its event log is exactly the room as stored (as replay "
        "does). Exit status 1 if anything is wrong.",
    )
    check.add_argument("--room", help="check only this room")
    Settings.add_arguments(check, only=DATABASE_FLAGS)
    replay_parser = commands.add_parser(
        "replay",
        help="rebuild rooms from their event logs and compare",
        description="Rebuild each room (or the one named) from its append-only event log and report whether it is "
        "exactly the room as stored, naming the fields that differ. Exit status 1 if any differs.",
    )
    replay_parser.add_argument("--room", help="replay only this room")
    Settings.add_arguments(replay_parser, only=DATABASE_FLAGS)
    backup = commands.add_parser(
        "backup",
        help="copy the SQLite database while the server runs",
        description="Write a consistent copy of the SQLite database to FILE using SQLite's online backup, safe "
        "while the server runs. (For PostgreSQL use pg_dump.)",
    )
    backup.add_argument("file", help="where to write the copy")
    Settings.add_arguments(backup, only=DATABASE_FLAGS)
    prune = commands.add_parser(
        "prune",
        help="delete for good the rooms archived long ago, with their event logs",
        description="Delete for good every room deleted (delroom) or archived (unused for DVORAK_ROOM_ARCHIVE_SECONDS) "
        "more than DAYS days ago: its event log, cards, proposals, votes, card versions, results and what was said "
        "there. Open rooms are never touched. Safe while the server runs.",
    )
    prune.add_argument("--archived-days", type=float, required=True, metavar="DAYS", help="archived this long ago")
    Settings.add_arguments(prune, only=DATABASE_FLAGS)

    admin = commands.add_parser(
        "admin",
        help="grant or revoke staff roles",
        description="Make a player a moderator or an administrator (grant), or a player again (revoke). "
        "Moderators keep order (mute, boot, ban, read reports, walls); administrators also run the server "
        "(roles, shutdown) and may delete any saved deck or room. Written to the audit log.",
    )
    admin.add_argument("action", choices=("grant", "revoke"))
    admin.add_argument("name", help="the player's name")
    admin.add_argument(
        "--role", choices=("moderator", "admin"), default="admin", help="the role granted (default: admin)"
    )
    Settings.add_arguments(admin, only=DATABASE_FLAGS)

    translations = commands.add_parser(
        "translations",
        help="extract, update and check the language catalogs (docs/translators.md)",
        description="extract: write i18n/locale/mush.pot from the code. update: that, and bring every "
        "language's catalog up to date with it (new and changed texts are marked for the translator). "
        "check: list what each language lacks or gets wrong; exit 1 if Czech or Slovak lacks anything.",
    )
    translations.add_argument("action", choices=("extract", "update", "check"))
    return parser


LOG_FORMATS = ("text", "json")


def configure_logging(level: str, form: str = "text", worker: str = "") -> None:
    """Log to standard error at ``level``: a line of text per record, or (``form`` json)
    a JSON object per line, for log shippers: ``time`` (ISO 8601, UTC), ``level``,
    ``logger``, ``message``, and ``exception`` (the traceback) when there is one. A
    worker of ``serve --workers`` says which it is (``worker``: ``w1``...): in brackets
    after the logger's name, or in a ``worker`` field."""
    handler = logging.StreamHandler(sys.stderr)
    if form == "json":
        handler.setFormatter(
            JsonFormatter(
                ["levelname", "name", "message"],
                rename_fields={"levelname": "level", "name": "logger", "exc_info": "exception"},
                timestamp="time",
                static_fields={"worker": worker} if worker else None,
            )
        )
    else:
        tag = f"[{worker}]" if worker else ""
        handler.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s %(name)s{tag}: %(message)s"))
    logging.basicConfig(level=getattr(logging, level.upper(), logging.INFO), handlers=[handler], force=True)
    # Our own log has one line per connection, login and error; the libraries' chatter
    # about each connection would only repeat it.
    for noisy in ("alembic", "aiosqlite", "asyncio"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    # telnetlib3 warns about every client that leaves a negotiation unanswered, which
    # most do; what matters of a connection is in our own log.
    logging.getLogger("telnetlib3").setLevel(logging.ERROR)


def check_serve_settings(settings: Settings) -> None:
    """Refuse (CommandLineError) settings ``serve`` cannot run with."""
    from server.cluster import Broker, check_node_name
    from server.envelopes import check_cluster_secret
    from server.shutdown import MOST_SECONDS
    from server.telnet import parse_networks

    if settings.mqtt_url:
        try:
            Broker(settings.mqtt_url)
        except ValueError as error:
            raise CommandLineError(f"--mqtt-url: {error}") from None
        if not settings.resolved_database_url.startswith("postgresql"):
            raise CommandLineError(
                "--mqtt-url: the nodes of one world share one PostgreSQL database; "
                "give it with --database-url postgresql+asyncpg://..."
            )
        problem = check_node_name(settings.resolved_node_name)
        if problem:
            raise CommandLineError(f"--node-name: {problem}")
        if settings.cluster_secret and settings.cluster_secret_file:
            raise CommandLineError(
                "--mqtt-url: give the cluster secret once, in DVORAK_CLUSTER_SECRET_FILE or DVORAK_CLUSTER_SECRET"
            )
        try:
            secret = settings.resolved_cluster_secret
        except OSError as error:
            raise CommandLineError(
                f"--cluster-secret-file: cannot read {settings.cluster_secret_file}: {error}"
            ) from None
        problem = check_cluster_secret(secret)
        if problem:
            raise CommandLineError(
                f"--mqtt-url: {problem}. Put it in a file only the server can read and give its path in "
                "DVORAK_CLUSTER_SECRET_FILE (or --cluster-secret-file), or the secret in DVORAK_CLUSTER_SECRET"
            )

    try:
        parse_networks(settings.proxy_from)
    except ValueError as error:
        raise CommandLineError(f"--proxy-from: {error}") from None
    if not 0 <= settings.shutdown_countdown <= MOST_SECONDS:
        raise CommandLineError(
            f"--shutdown-countdown: 0 to {MOST_SECONDS} seconds (a day), not {settings.shutdown_countdown}"
        )


async def serve(settings: Settings, listeners: Listeners | None = None) -> None:
    from server.app import MushServer

    check_serve_settings(settings)
    server = MushServer(settings, listeners)
    await server.start()
    tune_interpreter()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, server.terminate)
    # Until a signal, or an administrator's @shutdown, has stopped it.
    await server.stopped()


def serve_command(settings: Settings) -> int:
    """``dvorak-mush serve``: one process, or a supervisor of several workers (see
    :mod:`server.workers`); the exit status."""
    try:
        count = worker_count(settings)
    except ValueError as error:
        raise CommandLineError(f"--workers: {error}") from None
    if count == 1:
        run_server(settings)
        return 0
    check_serve_settings(settings)
    # Every worker signs with the same secret: read once, here.
    settings = replace(settings, cluster_secret=settings.resolved_cluster_secret, cluster_secret_file="")
    # Imported once, before the workers fork (they share the pages, and start sooner).
    import server.app  # noqa: F401

    listeners = bind_listeners(settings, count)
    return Supervisor(settings, listeners, run_worker).run()


def run_worker(settings: Settings, listeners: Listeners, number: int) -> int:
    """Serve as worker ``number`` of ``serve --workers``: its exit status."""
    configure_logging(settings.log_level, settings.log_format, worker=f"w{number}")
    try:
        run_server(settings, listeners)
    except (OSError, CommandLineError, MigrationError) as error:
        log.error("%s", error)
        return 1
    return 0


def run_server(settings: Settings, listeners: Listeners | None = None) -> None:
    """Serve on the chosen event loop (see :func:`loop_factory`)."""
    with asyncio.Runner(loop_factory=loop_factory(settings.event_loop)) as runner:
        runner.run(serve(settings, listeners))


def loop_factory(choice: str = "auto") -> Callable[[], asyncio.AbstractEventLoop]:
    """What makes the event loop ``DVORAK_EVENT_LOOP`` chooses: uvloop's (faster sockets)
    for ``uvloop``, and for ``auto`` where it is installed; asyncio's own otherwise. The
    test suite runs on the one ``auto`` gives (tests/conftest.py)."""
    if choice not in ("auto", "asyncio", "uvloop"):
        raise CommandLineError("DVORAK_EVENT_LOOP is auto, asyncio or uvloop.")
    if choice != "asyncio":
        try:
            import uvloop
        except ImportError:
            if choice == "uvloop":
                raise CommandLineError("uvloop is not installed.") from None
        else:
            return uvloop.new_event_loop
    return asyncio.new_event_loop


#: How long a thread that wants the GIL waits for the event loop's thread to let go of it,
#: in seconds (Python's default is 5 ms). SQLite's commit thread needs the GIL for a
#: moment a dozen times a commit (between the statements it steps and the disk flush,
#: during which it lets go of it): with 5 ms each, a busy loop made every commit wait
#: tens of milliseconds for nothing, and every move with it (docs/benchmarks-history.md).
SWITCH_INTERVAL = 0.0002


def tune_interpreter() -> None:
    """Fewer, cheaper garbage collections, and a short wait for the GIL.

    What the server built to start (modules, tables, compiled SQL) is set aside from
    collection, and the young generation is collected less often. Reference counting
    frees almost everything at once anyway; collections only find cycles, and a full one
    over every live object stalls every player for as long as it takes. Threads besides
    the event loop's (the SQLite commit, password hashing) get the GIL back after at
    most :data:`SWITCH_INTERVAL`."""
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
    sys.setswitchinterval(SWITCH_INTERVAL)


async def migrate(settings: Settings) -> None:
    database = Database(settings.resolved_database_url, settings.database_timeout)
    try:
        await database.upgrade()
        revision = await database.revision()
    finally:
        await database.dispose()
    log.info("database %s is up to date (schema revision %s)", describe_url(database.url), revision)


async def downgrade(settings: Settings, revision: str) -> None:
    if revision.strip().lower() in ("base", "head", ""):
        raise CommandLineError(
            "downgrade takes the schema revision to go back to, e.g. 0007 (base would drop every table)."
        )
    database = Database(settings.resolved_database_url, settings.database_timeout)
    try:
        await database.downgrade(revision)
        now = await database.revision()
    finally:
        await database.dispose()
    log.info("database %s is at schema revision %s", describe_url(database.url), now)


async def with_database(settings: Settings, work: Callable[[Database], Awaitable[T]]) -> T:
    """Run ``work(database)`` on an up-to-date database, then close it."""
    database = Database(settings.resolved_database_url, settings.database_timeout)
    try:
        await database.upgrade()
        return await work(database)
    finally:
        await database.dispose()


ROLE_NAMES = {"player": "a player", "moderator": "a moderator", "admin": "an administrator"}


async def set_role(database: Database, name: str, role: str) -> str:
    """Give the player ``name`` the role ``role``, noting it in the audit log."""
    before = await AccountStore(database).set_role(name, role)
    if before is None or before.deleted_at is not None:
        raise CommandLineError(f'There is no player called "{name}".')
    await StaffLog(database).record(None, CONSOLE, "grant" if role != "player" else "revoke", before.name, role)
    if before.role == role:
        return f"{before.name} was {ROLE_NAMES[role]} already."
    return f"{before.name} is now {ROLE_NAMES[role]} (was {ROLE_NAMES[before.role]})."


async def audit(
    database: Database, room: str | None, auditor: Callable[[Database, str | None], Awaitable[list[RoomReport]]]
) -> tuple[str, bool]:
    try:
        reports = await auditor(database, room)
    except UnknownRoom:
        raise CommandLineError(f'There is no room called "{room}".') from None
    lines = []
    for report in reports:
        lines.append(f"{report.name}: {'ok' if report.sound else 'PROBLEMS'}")
        lines += [f"  {problem}" for problem in report.problems]
    sound = all(report.sound for report in reports)
    lines.append(f"{len(reports)} room{'s' if len(reports) != 1 else ''} {'sound' if sound else 'NOT sound'}.")
    return "\n".join(lines), sound


async def prune_archived(database: Database, days: float) -> str:
    """Delete the rooms archived more than ``days`` days ago; what was deleted."""
    if not days >= 0:
        raise CommandLineError("--archived-days is a number of days, 0 or more.")
    before = datetime.now(UTC) - timedelta(days=days)
    names = await RoomStore(database).prune_archived(before)
    if not names:
        return f"No room was archived before {before:%Y-%m-%d %H:%M} UTC: nothing was deleted."
    rooms = f"{len(names)} room{'s' if len(names) != 1 else ''}"
    return f"Deleted {rooms} archived before {before:%Y-%m-%d %H:%M} UTC, with their logs: {', '.join(names)}."


def backup_sqlite(settings: Settings, target: Path) -> str:
    url = normalize_url(settings.resolved_database_url)
    if url.get_backend_name() != "sqlite":
        raise CommandLineError("backup copies SQLite databases; for PostgreSQL use pg_dump (see docs/operators.md).")
    source_path = Path(url.database or "")
    if not source_path.exists():
        raise CommandLineError(f"There is no database at {source_path}.")
    source = sqlite3.connect(source_path)
    try:
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)
        finally:
            copy.close()
    finally:
        source.close()
    return f"Backed up {source_path} to {target}."


def translations_command(action: str) -> int:
    """``translations extract|update|check`` (see :mod:`server.translations`)."""
    from server import translations  # Babel's extraction is needed by no server

    if action == "extract":
        translations.extract()
    elif action == "update":
        translations.update()
    else:
        complete = True
        for code in LANGUAGES:
            if code == ENGLISH:
                continue
            found = translations.problems(code)
            for problem in found:
                print(problem)
            print(f"{code}: {len(found)} to do")
            basic = translations.problems(code, translations.EVERY_LANGUAGE)
            complete = complete and not basic and (code not in translations.COMPLETE or not found)
        return 0 if complete else 1
    return 0


def main(argv: list[str] | None = None) -> int:
    arguments = build_parser().parse_args(argv)
    settings = Settings.from_sources(arguments)
    if settings.log_format not in LOG_FORMATS:
        raise SystemExit(f"--log-format (DVORAK_LOG_FORMAT) is text or json, not {settings.log_format!r}.")
    configure_logging(settings.log_level, settings.log_format)
    try:
        if arguments.command == "serve":
            return serve_command(settings)
        elif arguments.command == "migrate":
            asyncio.run(migrate(settings))
        elif arguments.command == "downgrade":
            asyncio.run(downgrade(settings, arguments.revision))
        elif arguments.command in GAME_COMMAND_LINES:
            run = GAME_COMMAND_LINES[arguments.command].run
            print(asyncio.run(with_database(settings, lambda db: run(arguments, db))))
        elif arguments.command == "admin":
            role = arguments.role if arguments.action == "grant" else "player"
            print(asyncio.run(with_database(settings, lambda db: set_role(db, arguments.name, role))))
        elif arguments.command in ("check", "replay"):
            auditor = check_rooms if arguments.command == "check" else replay_rooms
            report, sound = asyncio.run(with_database(settings, lambda db: audit(db, arguments.room, auditor)))
            print(report)
            return 0 if sound else 1
        elif arguments.command == "backup":
            print(backup_sqlite(settings, Path(arguments.file)))
        elif arguments.command == "translations":
            return translations_command(arguments.action)
        elif arguments.command == "prune":
            print(asyncio.run(with_database(settings, lambda db: prune_archived(db, arguments.archived_days))))
    except (OSError, CommandLineError, MigrationError, sqlite3.Error) as error:
        log.error("%s", error)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
