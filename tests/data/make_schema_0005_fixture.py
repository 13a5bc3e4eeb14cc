"""Make ``tests/data/schema_0005_game.json``: a database as the release of schema
revision 0005 left it, with a game in progress and votes pending, for
``tests/test_migrations.py`` to carry over to today's schema.

The rows are made by that release's own server, not written by hand: this script runs
the old ``dvorak-mush serve`` (from a checkout of the old commit, with its own venv) on a
new SQLite file, plays over real telnet connections (accounts, two rooms, a deck loaded,
an edit accepted and a card rejected before the game, three turns played, a player away
while something is said, a spectator, a new card with one approval missing and an edit
with two), stops the server cleanly, has the old release's ``check`` and ``replay``
vouch for the database, and writes:

- ``revision``: the database's Alembic revision (it must be 0005);
- ``passwords``: each account's password, to log in again after the migration;
- ``tables``: every row of every table (but ``alembic_version``) in a form that suits
  any backend: each column's kind (integer, text, boolean, datetime, json), datetimes
  as ISO strings in UTC with their zone, JSON columns as JSON;
- ``rooms``: what the old release loads of each room (its head, phase, turn, cards and
  piles, pending proposals with their votes, seats, hand sizes), which the migrated
  database must give back.

To make it again, from the root of this repository with its own venv (``fea28cd`` is
the last commit at revision 0005; a tag of a release at that revision does as well)::

    git worktree add --detach /tmp/dvorak-0005 fea28cd
    (cd /tmp/dvorak-0005 && python3 run.py --help)     # makes its .venv
    .venv/bin/python tests/data/make_schema_0005_fixture.py /tmp/dvorak-0005
    git worktree remove --force /tmp/dvorak-0005

Whose turn it is depends on the shuffle, so the file differs from one run to the next;
the tests read every expectation from it.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from tests.players import ScriptedPlayer, flat  # noqa: E402
from tests.server_process import free_port  # noqa: E402

OUTPUT = HERE / "schema_0005_game.json"
REVISION = "0005"
PASSWORDS = {"Ann": "ann-pass-1", "Bo": "bo-pass-22", "Cy": "cy-pass-333", "Di": "di-pass-4444", "Ed": "ed-pass-55555"}
ROOM, OTHER_ROOM = "Workshop", "Annex"
THINGS = ["Robot", "Cat", "Teapot", "Umbrella", "Bicycle", "Lantern", "Anvil", "Kite", "Compass", "Harp", "Mirror"]
THINGS += ["Ladder", "Clock", "Feather", "Drum", "Rope"]
ACTIONS = ["Swap", "Steal", "Shuffle Up", "Recycle", "Borrow", "Trade"]

#: Run by the old release's Python, in its checkout: the rooms as it loads them, and its
#: audits' verdict. (It prints JSON; argv[1] is the database URL.)
OLD_RELEASE_VIEW = r"""
import asyncio, dataclasses, json, sys
from collections import Counter
from persistence.database import Database
from persistence.rooms import RoomStore
from server.audit import check_rooms, replay_rooms

async def main(url):
    database = Database(url)
    try:
        store = RoomStore(database)
        rooms = []
        for room_id, _ in await store.all_ids():
            stored = await store.load(room_id)
            state = stored.state
            names = {seat.account_id: seat.name for seat in state.seats}
            rooms.append({
                "id": stored.id, "name": stored.name, "game": stored.game, "seq": stored.seq,
                "digest": stored.digest, "archived": stored.archived, "phase": state.phase,
                "host": state.host, "settings": state.settings, "turn": dataclasses.asdict(state.turn),
                "result": state.result, "next_number": state.next_number,
                "next_proposal": state.next_proposal,
                "seats": [dataclasses.asdict(seat) for seat in state.seats],
                "cards": {str(n): dataclasses.asdict(card) for n, card in sorted(state.cards.items())},
                "piles": [[zone, owner, numbers] for (zone, owner), numbers in sorted(state.piles.items())],
                "cards_per_zone": dict(sorted(Counter(card.zone for card in state.cards.values()).items())),
                "hand_sizes": {
                    names[seat.account_id]: len(state.pile("hand", seat.account_id)) for seat in state.seats
                },
                "proposals": [
                    {**dataclasses.asdict(p), "votes": {names[a]: choice for a, choice in p.votes.items()}}
                    for p in state.proposals.values()
                ],
            })
        audits = {
            "check": {r.name: r.problems for r in await check_rooms(database)},
            "replay": {r.name: r.problems for r in await replay_rooms(database)},
        }
        print(json.dumps({"rooms": rooms, "audits": audits}))
    finally:
        await database.dispose()

asyncio.run(main(sys.argv[1]))
"""


@contextmanager
def old_server(old_tree: Path, database_url: str, data_dir: Path) -> Iterator[int]:
    """The old release's server on ``database_url`` at a free loopback port (its port),
    stopped with SIGTERM (a clean shutdown) when the block ends."""
    port = free_port()
    command = [str(old_tree / ".venv/bin/dvorak-mush"), "serve", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--data-dir", str(data_dir), "--database-url", database_url, "--negotiation-wait", "0.05"]
    process = subprocess.Popen(command, cwd=old_tree, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    log = ""
    while "listening for telnet" not in log:
        line = process.stderr.readline()
        if not line:
            raise SystemExit(f"the old server exited early:\n{log}")
        log += line
    try:
        yield port
    finally:
        process.terminate()
        log += process.stderr.read()
        if process.wait(30) != 0:
            raise SystemExit(f"the old server did not stop cleanly:\n{log}")


async def expect_in(player: ScriptedPlayer, command: str, wanted: str) -> str:
    """Send ``command`` as ``player``; its reply, which must say ``wanted``."""
    reply = flat(await player.ask(command))
    if wanted not in reply:
        raise SystemExit(f"{player.name}: {command!r} answered {reply!r}, not {wanted!r}")
    return reply


async def play(port: int) -> dict[str, str]:
    """Play on the old server; what the fixture must remember of the play."""
    ann, bo, cy = [await ScriptedPlayer.connect(port, name, PASSWORDS[name]) for name in ("Ann", "Bo", "Cy")]
    players = {p.name: p for p in (ann, bo, cy)}
    await expect_in(ann, f"newroom {ROOM}", ROOM)
    for name in THINGS:
        await expect_in(ann, f"loadcard {name}/T/A plain {name.lower()}.", "#")
    for name in ACTIONS:
        await expect_in(ann, f"loadcard {name}/A/Do the {name.lower()}.", "#")
    for player in (bo, cy):
        await expect_in(player, f"join {ROOM}", ROOM)

    # Before the game: an edit accepted (a second card version) and a card rejected.
    await expect_in(bo, "editcard 1/Robot Mk II/T/Beep beep.", "#1")
    await expect_in(ann, "approve 1", "You approve #1.")
    await expect_in(cy, "approve 1", "It now reads: #1 Robot Mk II (Thing): Beep beep.")
    await expect_in(cy, "newcard Nuke/A/Everyone loses.", "You propose a new card")
    await expect_in(bo, f"repeal {len(THINGS) + len(ACTIONS) + 1}", "is decided: rejected.")

    await expect_in(ann, "start", "")
    for _ in range(3):
        current, _ = await ann.table()
        if current is None:
            raise SystemExit("no game is running after start")
        await players[current].play_turn()

    # A player away while something is said in the room, then back.
    await cy.close()
    await asyncio.sleep(1)  # the server notices the dropped connection
    await expect_in(ann, "say Cy stepped out for tea.", "Cy stepped out for tea.")
    cy = players["Cy"] = await ScriptedPlayer.connect(port, "Cy", PASSWORDS["Cy"], create=False)

    # Another room, waiting for its game, and a spectator of the first.
    di = await ScriptedPlayer.connect(port, "Di", PASSWORDS["Di"])
    await expect_in(di, f"newroom {OTHER_ROOM}", OTHER_ROOM)
    await expect_in(di, "loadcard Pebble/T/Small and round.", "#")
    await expect_in(di, "loadcard Skip Ahead/A/Take another turn.", "#")
    ed = await ScriptedPlayer.connect(port, "Ed", PASSWORDS["Ed"])
    await expect_in(ed, f"watch {ROOM}", ROOM)

    # Votes pending: a new card that one player has yet to approve (proposing approves),
    # and an edit that only its proposer approved.
    current, _ = await ann.table()
    assert current is not None
    others = [name for name in players if name != current]
    proposer, approver, missing = others[0], others[1], current
    reply = await expect_in(players[proposer], "newcard Armageddon/A/Destroy all Things.", "You propose a new card")
    armageddon = re.search(r"#(\d+) Armageddon", reply)
    assert armageddon is not None
    await expect_in(players[approver], f"approve {armageddon.group(1)}", f"You approve #{armageddon.group(1)}.")
    await expect_in(players[approver], "editcard 2/Cat/T/A cat that always lands on its feet.", "#2")

    for player in (*players.values(), di, ed):
        await player.close()
    return {"armageddon": armageddon.group(1), "missing_voter": missing, "current_player": current}


def column_kinds(connection: sqlite3.Connection, table: str) -> dict[str, str]:
    """Each column of ``table`` and the kind of value it holds, as the old schema declares it."""
    kinds = {}
    for _, name, declared, *_ in connection.execute(f'PRAGMA table_info("{table}")'):
        declared = declared.upper()
        if declared in ("DATETIME", "TIMESTAMP"):
            kinds[name] = "datetime"
        elif declared == "JSON":
            kinds[name] = "json"
        elif declared == "BOOLEAN":
            kinds[name] = "boolean"
        elif declared == "INTEGER":
            kinds[name] = "integer"
        elif declared == "TEXT" or declared.startswith("VARCHAR"):
            kinds[name] = "text"
        else:
            raise SystemExit(f"{table}.{name} is of a type this script does not know: {declared}")
    return kinds


def neutral(kind: str, value: object) -> object:
    """A value as SQLite holds it, in the fixture's backend-neutral form."""
    if value is None:
        return None
    if kind == "datetime":
        assert isinstance(value, str)
        moment = datetime.fromisoformat(value)
        return (moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)).isoformat()
    if kind == "json":
        assert isinstance(value, str)
        return json.loads(value)
    if kind == "boolean":
        return bool(value)
    return value


def dump(path: Path) -> tuple[str, dict[str, dict[str, object]]]:
    """The database's Alembic revision, and every row of every other table."""
    connection = sqlite3.connect(path)
    try:
        (revision,) = connection.execute("SELECT version_num FROM alembic_version").fetchone()
        tables = {}
        names = connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "AND name <> 'alembic_version' ORDER BY name"
        )
        for (table,) in names.fetchall():
            kinds = column_kinds(connection, table)
            keys = sorted((row[5], row[1]) for row in connection.execute(f'PRAGMA table_info("{table}")') if row[5])
            order = ", ".join(f'"{key}"' for _, key in keys) or "rowid"
            columns = ", ".join(f'"{column}"' for column in kinds)
            rows = connection.execute(f'SELECT {columns} FROM "{table}" ORDER BY {order}').fetchall()
            tables[table] = {
                "columns": kinds,
                "rows": [
                    [neutral(kind, value) for kind, value in zip(kinds.values(), row, strict=True)] for row in rows
                ],
            }
        return revision, tables
    finally:
        connection.close()


def old_release_view(old_tree: Path, database_url: str) -> dict[str, object]:
    """The rooms as the old release loads them, and its check and replay of them."""
    done = subprocess.run(
        [str(old_tree / ".venv/bin/python"), "-c", OLD_RELEASE_VIEW, database_url],
        cwd=old_tree,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(f"usage: {sys.argv[0]} <checkout of the release at schema revision {REVISION}>")
    old_tree = Path(sys.argv[1]).resolve()
    old_commit = subprocess.run(
        ["git", "-C", str(old_tree), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "old.sqlite3"
        database_url = f"sqlite+aiosqlite:///{path}"
        with old_server(old_tree, database_url, Path(scratch)) as port:
            played = asyncio.run(play(port))
        view = old_release_view(old_tree, database_url)
        audits = view["audits"]
        assert isinstance(audits, dict)
        unsound = {audit: rooms for audit, rooms in audits.items() if any(rooms.values())}
        if unsound:
            raise SystemExit(f"the old release finds its own rooms unsound: {unsound}")
        revision, tables = dump(path)
    if revision != REVISION:
        raise SystemExit(f"the old release left revision {revision}, not {REVISION}")
    fixture = {
        "made_by": f"tests/data/make_schema_0005_fixture.py, the old server at commit {old_commit}",
        "revision": revision,
        "passwords": PASSWORDS,
        "played": played,
        "rooms": view["rooms"],
        "tables": tables,
    }
    OUTPUT.write_text(json.dumps(fixture, indent=1) + "\n")
    print(f"wrote {OUTPUT}: {sum(len(t['rows']) for t in tables.values())} rows in {len(tables)} tables")


if __name__ == "__main__":
    main()
