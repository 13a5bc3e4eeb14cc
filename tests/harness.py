"""Commands run without sockets: a whole world in this process, on a temporary SQLite database.

In the spirit of Evennia's ``EvenniaCommandTest.call()``: a test logs players in and runs
one command line as one of them, and is given what every player saw because of it::

    world = await World.open(tmp_path / "world.sqlite3")
    await world.log_in("Ann", "Bo")
    saw = await world.call("Ann", "say hello")
    assert saw["Ann"] == 'You say, "hello"' and saw["Bo"] == 'Ann says, "hello"'

Everything but the socket is the server's own: the hub, the room registry, the command
processor and the stores are wired by :func:`server.app.build_world`, as the server's
are, and each player's connection is a real :class:`server.connection.Connection` whose
bytes, instead of going to a client, are kept as text (80 columns, no colour) and as
GMCP messages. Passwords are hashed with argon2id at its cheapest, so logging in costs
nothing.

The moves a room makes by itself (computer players, timers that are due) run on the event
loop as they do in the server: :meth:`World.call` lets those due now finish before it
returns, so with ``botdelay 0`` what the computer players did is in what it returns.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any

from persistence.database import Database
from server.app import World as BuiltWorld
from server.app import build_world
from server.config import Settings
from server.connection import Connection
from server.rooms import GameRoom

PASSWORD = "secret1"
#: argon2id's cheapest parameters: one pass over 8 KiB.
CHEAP_HASHING = {"argon2_time_cost": 1, "argon2_memory_kib": 8}
#: Turns of the event loop :meth:`World.settle` waits for due moves before giving up: a
#: table that keeps moving by itself this long is a bug, not something to wait out.
MOST_TURNS_TO_SETTLE = 100_000


async def migrated_database(database_file: Path) -> None:
    """Make an empty SQLite database at ``database_file``, migrated to the newest schema:
    a template for :meth:`World.open` to copy (migrating takes longer than a test)."""
    database = Database(f"sqlite+aiosqlite:///{database_file}")
    try:
        await database.upgrade()
    finally:
        await database.dispose()
    if database_file.with_name(database_file.name + "-wal").exists():
        raise AssertionError(f"{database_file} kept a write-ahead log: a copy of the file alone would miss it")


class KeptConnection(Connection):
    """A :class:`Connection` with no socket behind it: sending, framing and the command
    state are the real class's; what would be written to the client is kept in
    :attr:`text` (lines, without colour) and :attr:`gmcp_sent` instead."""

    kind = "in-process"

    def __init__(self, number: int, address: str, settings: Settings) -> None:
        super().__init__(number, address, settings.max_line_length, settings.output_limit)
        self.text: list[str] = []
        self.gmcp_sent: list[tuple[str, object]] = []

    @property
    def width(self) -> int:
        return 80

    @property
    def client_has_colour(self) -> bool:
        return False

    @property
    def colour(self) -> bool:
        """Never: what is kept is plain text, whatever the player chose."""
        return False

    def _deliver(self, texts: list[str]) -> None:
        """Keep what was queued for the client, a line at a time."""
        for text in texts:
            self.text.extend(text.split("\r\n"))

    @property
    def gmcp(self) -> bool:
        return not self.closing

    def send_gmcp(self, package: str, data: object) -> None:
        self.flush()
        self.gmcp_sent.append((package, data))

    def hide_input(self, hidden: bool) -> None:
        """There is no echo to turn off."""

    async def lines(self) -> AsyncGenerator[str, None]:
        """Nothing: :meth:`World.call` runs each command itself."""
        return
        yield ""

    @property
    def gone(self) -> bool:
        return self.closing

    def _hang_up(self) -> None:
        """There is no socket to close."""

    def take_text(self) -> str:
        """What was written since the last time, as one string of lines."""
        self.flush()
        text, self.text = self.text, []
        return "\n".join(text)


class Clock:
    """A wall clock a test moves on by hand (see :meth:`World.time_passes`)."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class World(BuiltWorld):
    """One server node's worth of hub, rooms, stores and commands, with no listener, as
    :func:`server.app.build_world` makes it. Open with :meth:`open`; :meth:`close` when
    done."""

    def __init__(self, database: Database, settings: Settings) -> None:
        self.settings = settings
        self.database = database
        #: Set when a shutdown's countdown is over (a server would then stop).
        self.shutdown_due = False
        super().__init__(**vars(build_world(settings, database, self._shutdown_due, hashing_threads=1)))
        #: Each player's connection, by name.
        self.connections: dict[str, KeptConnection] = {}

    def _shutdown_due(self) -> None:
        self.shutdown_due = True

    @classmethod
    async def open(cls, database_file: Path, template: Path | None = None, **settings: Any) -> World:
        """A world on a new SQLite database at ``database_file``, with :class:`Settings`
        overridden by keyword. The database is migrated to the newest schema, or, quicker,
        is a copy of ``template``, a database :func:`migrated_database` made."""
        if template is not None:
            shutil.copyfile(template, database_file)
        chosen = Settings(database_url=f"sqlite+aiosqlite:///{database_file}", **{**CHEAP_HASHING, **settings})
        database = Database(chosen.resolved_database_url, chosen.database_timeout)
        if template is None:
            await database.upgrade()
        return cls(database, chosen)

    async def close(self) -> None:
        """Stop the rooms' timed moves and any shutdown's countdown, hang everyone up,
        close the database."""
        self.countdown.halt()
        for room in self.rooms.loaded():
            room.stop_acting()
        for connection in list(self.connections.values()):
            connection.close()
            await self.processor.disconnected(connection)
        self.accounts.close()
        await self.database.dispose()

    async def log_in(self, *names: str) -> None:
        """Make a player for each name and log them in, in order (with ``create``, as a
        client would); what they saw doing so is dropped."""
        for name in names:
            connection = KeptConnection(self.hub.next_connection_number(), "127.0.0.1", self.settings)
            self.hub.add_connection(connection)
            quoted = f'"{name}"' if " " in name else name
            await self.processor.execute(connection, f"create {quoted} {PASSWORD}")
            if connection.player is None:
                raise AssertionError(f"{name} could not log in: {connection.take_text()}")
            self.connections[name] = connection
        await self.settle()
        self.take_output()

    async def call(self, name: str, line: str) -> dict[str, str]:
        """Run ``line`` as player ``name``, let the moves it made due run, and return what
        each logged-in player saw meanwhile, by name ("" for nothing)."""
        self.take_output()
        await self.processor.execute(self.connections[name], line)
        await self.settle()
        return self.take_output()

    async def calls(self, name: str, *lines: str) -> dict[str, str]:
        """Run each of ``lines`` as ``name``; what each player saw of all of them."""
        seen: dict[str, list[str]] = {}
        for line in lines:
            for who, text in (await self.call(name, line)).items():
                seen.setdefault(who, []).append(text)
        return {who: "\n".join(t for t in texts if t) for who, texts in seen.items()}

    def take_output(self) -> dict[str, str]:
        """What each player was shown since the last time, by name."""
        return {name: connection.take_text() for name, connection in self.connections.items()}

    def account_id(self, name: str) -> int:
        """The account of player ``name``, logged in here."""
        player = self.connections[name].player
        if player is None:
            raise AssertionError(f"{name} is not logged in")
        return player.account_id

    def gmcp(self, name: str) -> list[tuple[str, object]]:
        """The GMCP messages ``name`` was sent since the last time (and forget them)."""
        connection = self.connections[name]
        sent, connection.gmcp_sent = connection.gmcp_sent, []
        return sent

    async def room(self, name: str) -> GameRoom:
        """The game room called ``name``."""
        room = await self.rooms.find(name)
        if room is None:
            raise AssertionError(f"there is no room {name!r}")
        return room

    async def time_passes(self, room_name: str, clock: Clock, seconds: float) -> dict[str, str]:
        """``seconds`` pass on ``clock``, the wall clock the table of room ``room_name``
        was given (``room.table.clock = clock``): the move the room is then due to make by
        itself is timed afresh, as the server's timer would have run out by now, and made.
        What every player saw of it."""
        room = await self.room(room_name)
        self.take_output()
        clock.now += seconds
        room.stop_acting()
        room.reschedule()
        await self.settle()
        return self.take_output()

    async def settle(self) -> None:
        """Let every move a room is due to make by itself now run to the end (and those
        they make due in turn), as the server's event loop would between commands."""
        loop = asyncio.get_running_loop()
        for _ in range(MOST_TURNS_TO_SETTLE):
            rooms = self.rooms.loaded()
            due = [room for room in rooms if room.due_at is not None and room.due_at <= loop.time()]
            if not due and not any(room.moving_by_itself or room.busy for room in rooms):
                return
            await asyncio.sleep(0)
        raise AssertionError("the rooms kept moving by themselves")
