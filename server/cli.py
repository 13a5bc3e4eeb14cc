"""The ``dvorak-mush`` command line: ``serve`` runs a node, ``migrate`` updates the schema."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys

from persistence.database import Database, describe_url
from server.config import Settings

log = logging.getLogger("server")

DATABASE_FLAGS = ("data_dir", "database_url", "log_level")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dvorak-mush",
        description="A MUSH-style telnet server for Dvorak, the card game whose cards are written by its players.",
    )
    commands = parser.add_subparsers(dest="command", metavar="<command>", required=True)
    serve = commands.add_parser(
        "serve",
        help="run the telnet server",
        description="Run the telnet server. Pending database migrations are applied first. "
        "SIGTERM or SIGINT (Ctrl-C) shuts it down cleanly.",
    )
    Settings.add_arguments(serve)
    migrate = commands.add_parser(
        "migrate",
        help="apply pending database migrations and exit",
        description="Bring the database schema up to date (the server also does this when it starts).",
    )
    Settings.add_arguments(migrate, only=DATABASE_FLAGS)
    return parser


def configure_logging(level: str) -> None:
    logging.basicConfig(
        level=getattr(logging, level.upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    # Our own log has one line per connection, login and error; the libraries' chatter
    # about each connection would only repeat it.
    for noisy in ("telnetlib3", "alembic", "aiosqlite", "asyncio"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


async def serve(settings: Settings) -> None:
    from server.app import MushServer

    server = MushServer(settings)
    await server.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await stop.wait()
    await server.stop()


async def migrate(settings: Settings) -> None:
    database = Database(settings.resolved_database_url)
    try:
        await database.upgrade()
    finally:
        await database.dispose()
    log.info("database %s is up to date", describe_url(database.url))


def main(argv: list[str] | None = None) -> int:
    arguments = build_parser().parse_args(argv)
    settings = Settings.from_sources(arguments)
    configure_logging(settings.log_level)
    try:
        if arguments.command == "serve":
            asyncio.run(serve(settings))
        elif arguments.command == "migrate":
            asyncio.run(migrate(settings))
    except OSError as error:
        log.error("%s", error)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
