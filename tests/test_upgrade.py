"""Safe upgrades: a world the previous release (0.1.0, the tag ``v0.1.0``) left mid-game is
upgraded by this code, on SQLite and on PostgreSQL, and play goes on.

The databases are ``tests/data/release-0.1.0.sqlite3`` and the plain-SQL dump
``tests/data/release-0.1.0.postgresql.sql``, made by that release's own server over
real connections; ``tests/data/make_release_fixture.py`` says what is in them and how to
make them again, and ``tests/data/release-0.1.0.json`` is what these tests rely on.
Each test restores the fixture into a fresh database and runs the CURRENT ``dvorak-mush
migrate`` (to whatever migration is head), ``check`` and ``replay`` as an operator
would; then this code's server serves the fixture's players over telnet.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, make_url, text
from sqlalchemy.engine import Connection

from persistence.database import Database, alembic_config
from tests.data.make_release_fixture import GNAV_TURN, login, numbers_in_play, ys_move, ys_views
from tests.players import ScriptedPlayer, flat
from tests.server_process import ServerProcess, run_cli_for_status
from tests.test_migrations import _rows, _schema
from tests.ys_players import command_for

DATA = Path(__file__).parent / "data"
#: The previous release's fixture: ``<this>.sqlite3``, ``.postgresql.sql`` and ``.json``.
RELEASE_FIXTURE = "release-0.1.0"
FACTS = json.loads((DATA / f"{RELEASE_FIXTURE}.json").read_text())
PASSWORDS: dict[str, str] = FACTS["passwords"]
ROOM_NAMES = [room["name"] for room in FACTS["rooms"]]
#: A server on the upgraded database: the fixture's players have been away since it was
#: made and its rooms unused, long ago by now; neither may change the game here.
PATIENT = {"DVORAK_AWAY_GRACE_SECONDS": "1e9", "DVORAK_ROOM_ARCHIVE_SECONDS": "0", "DVORAK_WEB": "off"}

pytestmark = pytest.mark.slow


def test_the_fixture_was_made_by_the_previous_release_mid_game() -> None:
    assert FACTS["release"] == "v" + RELEASE_FIXTURE.removeprefix("release-")
    assert ScriptDirectory.from_config(alembic_config()).get_revision(FACTS["revision"]) is not None
    for backend in ("sqlite", "postgresql"):
        facts = FACTS[backend]
        assert sorted(facts["stored"]) == sorted(ROOM_NAMES)
        workshop = facts["workshop"]
        assert workshop["current_player"] == workshop["missing_voter"]
        assert sum(workshop["hand_sizes"].values()) > 0 and workshop["in_play"]
        assert facts["isle"]["stage"] in ("bid", "place")
    assert (DATA / f"{RELEASE_FIXTURE}.sqlite3").stat().st_size < 1_000_000
    assert (DATA / f"{RELEASE_FIXTURE}.postgresql.sql").stat().st_size < 1_000_000


async def restore(backend: str, database_url: str) -> None:
    """The previous release's database, put where ``database_url`` points (a SQLite file
    not yet there, or an empty PostgreSQL database)."""
    if backend == "sqlite":
        path = make_url(database_url).database
        assert path is not None
        shutil.copyfile(DATA / f"{RELEASE_FIXTURE}.sqlite3", path)
        return
    plain = make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)
    done = await asyncio.to_thread(
        subprocess.run,
        ["psql", "-q", "-v", "ON_ERROR_STOP=1", "-d", plain, "-f", str(DATA / f"{RELEASE_FIXTURE}.postgresql.sql")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr


async def cli(database_url: str, *args: str) -> str:
    """``dvorak-mush <args>`` of this code; what it printed (it must exit 0)."""
    code, out, err = await run_cli_for_status(database_url, *args)
    assert code == 0, f"dvorak-mush {' '.join(args)} exited {code}:\n{out}{err}"
    return out


async def assert_sound(database_url: str) -> None:
    """``check`` and ``replay`` find every room of the fixture sound (and exit 0)."""
    for audit in ("check", "replay"):
        said = await cli(database_url, audit)
        assert said.splitlines()[-1] == f"{len(ROOM_NAMES)} rooms sound.", said
        assert sorted(line.split(": ")[0] for line in said.splitlines()[:-1]) == sorted(ROOM_NAMES), said


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def stored_rooms(connection: Connection) -> dict[str, Any]:
    revision = connection.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
    rows = connection.execute(text("SELECT name, game, seq, digest, archived_at FROM rooms")).all()
    return {
        "revision": revision,
        "rooms": {name: {"game": game, "seq": seq, "digest": digest} for name, game, seq, digest, _ in rows},
        "archived": sorted(name for name, *_, archived_at in rows if archived_at is not None),
    }


async def read(database_url: str, work: Any) -> Any:
    database = Database(database_url)
    try:
        async with database.snapshot() as connection:
            return await connection.run_sync(work)
    finally:
        await database.dispose()


async def test_the_previous_release_is_migrated_and_its_games_go_on(backend: str, database_url: str, tmp_path) -> None:
    facts = FACTS[backend]
    await restore(backend, database_url)
    assert (await read(database_url, stored_rooms))["revision"] == FACTS["revision"]

    await cli(database_url, "migrate")
    stored = await read(database_url, stored_rooms)
    assert stored["revision"] == head_revision()
    # The migration carries every room over as the old release stored it: its log's
    # length and the digest chaining it are unchanged.
    assert stored["rooms"] == facts["stored"]
    assert stored["archived"] == [room["name"] for room in FACTS["rooms"] if room["archived"]]
    await assert_sound(database_url)

    node = ServerProcess(database_url, tmp_path)
    node.env.update(PATIENT)
    await node.start()
    people: list[ScriptedPlayer] = []
    connected: dict[str, ScriptedPlayer] = {}

    async def back(name: str, gmcp: bool = False) -> ScriptedPlayer:
        """``name`` logged in with the fixture's password (once: later, the same connection)."""
        if name not in connected:
            connected[name] = await login(node.port, name, create=False, gmcp=gmcp, password=PASSWORDS[name])
            people.append(connected[name])
        return connected[name]

    try:
        # Every account logs in with its password, and only with it.
        stranger = await ScriptedPlayer.connect(node.port, "Ann", "not-her-password", create=False)
        people.append(stranger)
        assert "Either that player does not exist, or has a different password." in flat(stranger.client.transcript)

        await play_on_in_workshop(back, facts["workshop"])
        await bring_the_saved_decks_to_arena(back)
        await play_on_in_fjord(back, facts["fjord"])
        await play_on_in_isle(back, facts["isle"])
        lobby = await back("Ed")
        listed = flat(await lobby.ask("rooms"))
        for room in FACTS["rooms"]:
            assert (room["name"] in listed) != room["archived"], listed
    finally:
        for player in people:
            await player.close()
        assert await node.stop() == 0, node.log

    after = await read(database_url, stored_rooms)
    for name in ("Workshop", "Arena", "Fjord", "Isle"):
        assert after["rooms"][name]["seq"] > facts["stored"][name]["seq"], name
    assert after["rooms"]["Attic"] == facts["stored"]["Attic"]
    await assert_sound(database_url)


async def play_on_in_workshop(back: Any, workshop: dict[str, Any]) -> None:
    """The Dvorak game as it was: hands, cards in play, whose turn; the pending vote is
    decided and play, halted for it, goes on."""
    seated = {name: await back(name) for name in workshop["hand_sizes"]}
    for player in seated.values():
        assert "You are back at your seat in room Workshop." in flat(player.client.transcript)
        assert sorted(card.number for card in await player.hand()) == workshop["hands"][player.name]
    ed = await back("Ed")
    assert "You are back watching room Workshop." in flat(ed.client.transcript)
    ann = seated["Ann"]
    current, hand_sizes = await ann.table()
    assert (current, hand_sizes) == (workshop["current_player"], workshop["hand_sizes"])
    assert numbers_in_play(await ed.ask("look")) == workshop["in_play"]
    assert f"#{workshop['beacon']} Beacon" not in flat(await ann.ask("viewvote"))

    number, missing = workshop["armageddon"], workshop["missing_voter"]
    assert f"yet to vote: {missing}" in flat(await ann.ask("viewvote"))
    mover = seated[workshop["current_player"]]
    assert "Play waits for the vote" in flat(await mover.ask("draw"))
    decided = flat(await seated[missing].ask(f"approve {number}"))
    assert f"The vote on #{number} Armageddon (Action) is decided: accepted." in decided
    await ed.client.expect(rf"The vote on #{number} Armageddon \(Action\) is decided: accepted\.")
    assert "You draw #" in flat(await mover.ask("draw"))
    _, hands_after = await ann.table()
    assert hands_after[mover.name] == workshop["hand_sizes"][mover.name] + 1


async def bring_the_saved_decks_to_arena(back: Any) -> None:
    """The room's saved deck loads into the room, the CCG players' saved decks into their
    decks, and a game deals from them; the administrator may still delete any saved deck."""
    decks = FACTS["decks"]
    room_deck, room_deck_owner, room_deck_size = decks["room"]
    players = {owner: await back(owner) for owner in decks["players"]}
    host = players[room_deck_owner]
    for player in players.values():
        assert "You are back at your seat in room Arena." in flat(player.client.transcript)
    assert room_deck in flat(await host.ask("listdecks"))
    # A CCG room's set changes only by vote: the host loads a saved room with ccg off
    # (as the room was saved), and turns it on again.
    assert "You set ccg to off." in flat(await host.ask("set ccg=off"))
    loaded = flat(await host.ask(f"loaddeck {room_deck}"))
    assert f"You load the saved deck {room_deck} ({room_deck_size} cards)." in loaded, loaded
    assert "You set ccg to on." in flat(await host.ask("set ccg=on"))
    viewset = flat(await host.ask("viewset"))
    assert re.search(rf"The card set, version \d+: {room_deck_size} cards\. A deck has at least 4 cards", viewset)
    assert "#1 Goblin (Thing): Small and mean." in viewset, viewset

    for owner, (name, size) in decks["players"].items():
        player = players[owner]
        assert name in flat(await player.ask("deckbuild decks"))
        await player.ask("deckbuild clear")
        brought = flat(await player.ask(f"deckbuild load {name}"))
        assert f"You bring your deck {name} ({size} cards in all)." in brought, brought
        assert "It can be played." in flat(await player.ask("deckbuild"))
    assert "You start a new game" in flat(await host.ask("start"))
    for player in players.values():
        assert len(await player.hand()) == 2
    assert "You end the game." in flat(await host.ask("endgame"))

    bo = await back("Bo")
    assert "Only whoever saved that deck" in flat(await bo.ask(f"deletedeck {room_deck}"))
    admin = await back(FACTS["admin"])
    assert f"You delete the saved deck {room_deck}." in flat(await admin.ask(f"deletedeck {room_deck}"))


async def play_on_in_fjord(back: Any, fjord: dict[str, Any]) -> None:
    """The Gnav match waits for Gus with his card; his move, and the computer players play on."""
    gus = await back("Gus")
    assert "You are back at your seat in room Fjord." in flat(gus.client.transcript)
    assert flat(await gus.ask("hand")) == fjord["card"]
    assert "It is your turn: keep or swap." in flat(await gus.ask("look"))
    mark = len(gus.client.transcript)
    reply = flat(await gus.ask("keep"))
    assert "You keep" in reply, reply
    # The computer players move, and the match comes round to Gus again.
    await gus.client.wait_for(GNAV_TURN, mark + len(reply), 30)


async def play_on_in_isle(back: Any, isle: dict[str, Any]) -> None:
    """The Ys game waits for Hana at the step it was left at, with her brokers; her move,
    and the computer players play on until it waits for her again."""
    hana = await back("Hana", gmcp=True)
    assert "You are back at your seat in room Isle." in flat(hana.client.transcript)
    await hana.ask("look")
    view = ys_views(hana)[-1]
    assert (view["round"], view["stage"], view["step"], view["you"]["screen"]) == (
        isle["round"],
        isle["stage"],
        isle["step"],
        isle["screen"],
    )
    command = command_for(view, random.Random(1))
    assert command is not None, view
    reply = flat(await hana.ask(command))
    assert "no broker" not in reply and "not your" not in reply.lower(), reply
    await ys_move(hana, view["step"])


async def test_a_downgrade_to_the_release_gives_its_schema_and_rows_back_and_upgrades_again(
    backend: str, database_url: str
) -> None:
    await restore(backend, database_url)
    schema, rows = await read(database_url, _schema), await read(database_url, _rows)
    await cli(database_url, "migrate")
    await cli(database_url, "downgrade", FACTS["revision"])
    assert (await read(database_url, stored_rooms))["revision"] == FACTS["revision"]
    assert await read(database_url, _schema) == schema
    assert await read(database_url, _rows) == rows
    await cli(database_url, "migrate")
    assert (await read(database_url, stored_rooms))["revision"] == head_revision()
    await assert_sound(database_url)


def _release_columns(connection: Connection) -> dict[str, dict[str, dict[str, Any]]]:
    inspector = inspect(connection)
    return {
        table: {column["name"]: column for column in inspector.get_columns(table)}
        for table in inspector.get_table_names()
        if table != "alembic_version"
    }


async def test_migrations_since_the_release_only_add_so_its_nodes_keep_working(backend: str, database_url: str) -> None:
    """The rule docs/operators.md gives for rolling upgrades: a migration after a release
    keeps every table and column that release uses, as it was, and every column it adds to
    them is nullable or has a default, so a node of the release still running reads and
    writes the migrated database as before."""
    await restore(backend, database_url)
    before = await read(database_url, _release_columns)
    await cli(database_url, "migrate")
    after = await read(database_url, _release_columns)
    problems = []
    for table, columns in before.items():
        if table not in after:
            problems.append(f"table {table} is gone")
            continue
        for name, column in columns.items():
            now = after[table].get(name)
            if now is None:
                problems.append(f"{table}.{name} is gone")
            elif (str(now["type"]), now["nullable"]) != (str(column["type"]), column["nullable"]):
                problems.append(f"{table}.{name} changed from {column['type']} to {now['type']}")
        for name in after[table].keys() - columns.keys():
            added = after[table][name]
            if not added["nullable"] and added.get("default") is None:
                problems.append(f"{table}.{name} is new, NOT NULL and has no default: the release cannot insert")
    assert problems == []
