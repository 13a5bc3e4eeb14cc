"""Make the databases of the previous release for ``tests/test_upgrade.py``: what a world
run by Dvorak MUSH 0.1.0 (the tag ``v0.1.0``) holds mid-game, on SQLite and on
PostgreSQL, made by that release's own code.

To make them again, from the root of a checkout that has the tag (the venv needs only
the project's dependencies; PostgreSQL must answer at 127.0.0.1:5432 as for the tests)::

    .venv/bin/python tests/data/make_release_fixture.py

The script exports the tagged commit's tree (``git archive v0.1.0``) to a temporary
folder and runs THAT code (``python -m server.cli``, with the folder as the working
directory and ``PYTHONPATH``; it first checks that ``server``, ``games``, ``persistence``
and ``migrations`` are imported from there and not from the editable install). Its
server is started on a new SQLite file, and then on a new PostgreSQL database
(``release_fixture_<pid>``, dropped afterwards), and played over real telnet
connections. The old release's own ``check`` and ``replay`` must find every room sound.
It writes:

- ``tests/data/release-0.1.0.sqlite3``: the SQLite database (a compacted copy);
- ``tests/data/release-0.1.0.postgresql.sql``: ``pg_dump --no-owner --no-privileges`` of
  the PostgreSQL one, plain SQL for ``psql -f`` (without the ``\\restrict`` lines newer
  pg_dumps put around a dump: they name a random key and only the newest psql knows them);
- ``tests/data/release-0.1.0.json``: what the test may rely on (below).

What is in each database (the same script on both; whose turn it is, hands and cards
depend on the shuffle, so those are recorded per backend):

- accounts :data:`PASSWORDS`, each with its password; ``Ann`` is an administrator
  (``dvorak-mush admin grant Ann``);
- ``Workshop``, a Dvorak game in progress (Ann, Bo, Cy seated; ``Ed`` watching):
  18 cards loaded, three turns played, a new card ``Beacon`` accepted by vote during the
  game, and a new card ``Armageddon`` proposed and approved by two of the three, the
  player whose turn it is yet to vote (``halt`` is on, so play waits for that vote;
  ``votetime`` is 0, so it waits however long the fixture has been lying about);
- ``Arena``, a Dvorak CCG room between games (Di host, Fay seated; ``decksize`` 4,
  ``handsize`` 2): its three cards loaded and the room saved as ``Arena Set``
  (``savedeck``, before ``ccg`` was turned on), then each player's deck built of the
  set's cards and saved (``deckbuild save``: Di's ``Rush``, Fay's ``Swarm``);
- ``Fjord``, a Gnav match in progress: Gus and two computer players (9 lives,
  ``turntime`` 600, ``botdelay`` 0), stopped as it waits for Gus's second turn;
- ``Isle``, a Ys game in progress: Hana and two computer players (``turntime`` 600,
  ``botdelay`` 0), stopped as it waits for Hana after her second move;
- ``Attic``, a room its host deleted (``delroom``): archived, not listed, name free.

``release-0.1.0.json`` holds: ``release``, ``commit``, ``revision`` (the schema's
Alembic revision), ``passwords``, ``admin``, ``rooms`` (each room's name, game and
whether it is archived), ``decks`` (the saved decks, their owners and card counts) and
per backend (``sqlite``, ``postgresql``): ``stored`` (each room's ``seq`` and ``digest``
as the old release stored them), ``workshop`` (whose turn, hand sizes, each player's
hand, the cards in play, the numbers of ``Beacon`` and ``Armageddon`` and who is yet to
vote on it), ``fjord`` (Gus's card) and ``isle`` (Hana's view: round, stage, step, the
brokers behind her screen).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))

from tests.client import DO, MudClient, iac  # noqa: E402
from tests.players import BEGIN, END, ScriptedPlayer, flat  # noqa: E402
from tests.server_process import free_port  # noqa: E402
from tests.ys_players import command_for  # noqa: E402

RELEASE = "v0.1.0"
STEM = "release-0.1.0"
SQLITE_OUTPUT = HERE / f"{STEM}.sqlite3"
POSTGRESQL_OUTPUT = HERE / f"{STEM}.postgresql.sql"
FACTS_OUTPUT = HERE / f"{STEM}.json"
POSTGRES = "postgresql://postgres@127.0.0.1:5432"

PASSWORDS = {
    "Ann": "ann-pass-1",
    "Bo": "bo-pass-22",
    "Cy": "cy-pass-333",
    "Di": "di-pass-4444",
    "Ed": "ed-pass-55555",
    "Fay": "fay-pass-6",
    "Gus": "gus-pass-77",
    "Hana": "hana-pass-888",
}
ADMIN = "Ann"
THINGS = ["Robot", "Cat", "Teapot", "Umbrella", "Bicycle", "Lantern", "Anvil", "Kite", "Compass", "Harp", "Mirror"]
THINGS += ["Ladder"]
ACTIONS = ["Swap", "Steal", "Shuffle Up", "Recycle", "Borrow", "Trade"]
SET_CARDS = {"Goblin": "T/Small and mean.", "Troll": "T/Big and slow.", "Elf": "A/Quick: draw a card."}
#: Each CCG player's saved deck: its name and the copies of each set card in it.
PLAYER_DECKS = {"Di": ("Rush", {"Goblin": 2, "Troll": 2}), "Fay": ("Swarm", {"Goblin": 3, "Elf": 1})}
ROOM_DECK = "Arena Set"
ROOMS = [
    {"name": "Workshop", "game": "dvorak", "archived": False},
    {"name": "Arena", "game": "dvorak", "archived": False},
    {"name": "Fjord", "game": "gnav", "archived": False},
    {"name": "Isle", "game": "ys", "archived": False},
    {"name": "Attic", "game": "dvorak", "archived": True},
]
GMCP = 201
GNAV_TURN = r"It\s+is\s+your\s+turn:\s+keep\s+or\s+swap\."


# -- the old release's code ---------------------------------------------------------------


def export_release(into: Path) -> str:
    """The tagged commit's tree, exported into ``into``; the commit's id."""
    commit = git("rev-parse", f"{RELEASE}^{{commit}}")
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", RELEASE], check=True, capture_output=True).stdout
    into.mkdir(parents=True)
    with tempfile.TemporaryFile() as packed:
        packed.write(archive)
        packed.seek(0)
        with tarfile.open(fileobj=packed) as tar:
            tar.extractall(into, filter="data")
    return commit


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True).stdout.strip()


def old_environment(tree: Path, **settings: str) -> dict[str, str]:
    """The environment the old release's code runs in: its tree first on the path."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith("DVORAK_")}
    return {**environment, "PYTHONPATH": str(tree), **settings}


def old_python(tree: Path, *args: str, **settings: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=tree, env=old_environment(tree, **settings), capture_output=True, text=True
    )


def check_old_code_is_imported(tree: Path) -> None:
    """Refuse to go on unless the old tree's packages, not the editable install's, are imported."""
    shown = old_python(
        tree,
        "-c",
        "import json, commands, games, migrations, persistence, server; "
        "print(json.dumps([m.__file__ for m in (commands, games, migrations, persistence, server)]))",
    )
    if shown.returncode != 0:
        raise SystemExit(f"the old release's code does not import: {shown.stderr}")
    for path in json.loads(shown.stdout):
        if not Path(path).resolve().is_relative_to(tree.resolve()):
            raise SystemExit(f"{path} is imported instead of the old release's code in {tree}")


def old_cli(tree: Path, database_url: str, *args: str) -> str:
    """``dvorak-mush <args>`` of the old release; what it printed (it must succeed)."""
    done = old_python(tree, "-m", "server.cli", *args, "--database-url", database_url)
    if done.returncode != 0:
        raise SystemExit(f"the old release's {args[0]} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


@contextmanager
def old_server(tree: Path, database_url: str, data_dir: Path) -> Iterator[int]:
    """The old release's server on ``database_url`` at a free loopback port (its port),
    stopped with SIGTERM (a clean shutdown) when the block ends."""
    port = free_port()
    environment = old_environment(
        tree,
        DVORAK_HOST="127.0.0.1",
        DVORAK_PORT=str(port),
        DVORAK_WEB="off",
        DVORAK_DATA_DIR=str(data_dir),
        DVORAK_DATABASE_URL=database_url,
        DVORAK_NEGOTIATION_WAIT="0.05",
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve"], cwd=tree, env=environment, stderr=subprocess.PIPE, text=True
    )
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
    if " ERROR " in log or "Traceback" in log:
        raise SystemExit(f"the old server logged an error:\n{log}")


# -- the play ------------------------------------------------------------------------------


async def login(
    port: int, name: str, create: bool = True, gmcp: bool = False, password: str | None = None
) -> ScriptedPlayer:
    """``name`` logged in with their password (:data:`PASSWORDS`, unless given) over a new
    connection (asking for GMCP if ``gmcp``), its replies framed."""
    client = await MudClient.open(port)
    await client.expect(r'create "Jo Smith" <password>\n=+\n')
    if gmcp:
        client.send(iac(DO, GMCP))
    client.send("OUTPUTPREFIX " + BEGIN)
    client.send("OUTPUTSUFFIX " + END)
    player = ScriptedPlayer(client, name)
    password = PASSWORDS[name] if password is None else password
    reply = flat(await player.ask(f"{'create' if create else 'connect'} {name} {password}"))
    if f"Welcome back, {name}." not in reply and f"Welcome, {name}!" not in reply:
        raise SystemExit(f"{name} could not log in: {reply}")
    return player


async def expect_in(player: ScriptedPlayer, command: str, wanted: str) -> str:
    """Send ``command`` as ``player``; its reply, which must say ``wanted``."""
    reply = flat(await player.ask(command))
    if wanted not in reply:
        raise SystemExit(f"{player.name}: {command!r} answered {reply!r}, not {wanted!r}")
    return reply


def numbers_in_play(look: str) -> list[int]:
    """The numbers of the cards a Dvorak ``look`` shows in play."""
    section = re.search(r"^In play:\n(.*?)^Draw pile:", look, re.MULTILINE | re.DOTALL)
    return sorted(int(number) for number in re.findall(r"#(\d+)", section.group(1))) if section else []


async def dvorak_workshop(port: int) -> dict[str, Any]:
    """Workshop: a game three turns in, a card accepted by vote in it, another pending."""
    ann = await login(port, "Ann", create=False)
    bo, cy = await login(port, "Bo"), await login(port, "Cy")
    players = {p.name: p for p in (ann, bo, cy)}
    await expect_in(ann, "newroom Workshop", "You made room Workshop (Dvorak)")
    await expect_in(ann, "set votetime=0", "votetime")
    for name in THINGS:
        await expect_in(ann, f"loadcard {name}/T/A plain {name.lower()}.", "#")
    for name in ACTIONS:
        await expect_in(ann, f"loadcard {name}/A/Do the {name.lower()}.", "#")
    for player in (bo, cy):
        await expect_in(player, "join Workshop", "Workshop")
    await expect_in(ann, "start", "You start a new game")
    for _ in range(3):
        current, _ = await ann.table()
        if current is None:
            raise SystemExit("no game is running in Workshop after start")
        await players[current].play_turn()

    current, _ = await ann.table()
    assert current is not None
    first, second = [name for name in players if name != current]
    reply = await expect_in(players[first], "newcard Beacon/T/Glows in the dark.", "You propose a new card")
    beacon = int(re.search(r"#(\d+) Beacon", reply).group(1))  # type: ignore[union-attr]
    await expect_in(players[second], f"approve {beacon}", f"You approve #{beacon}.")
    await expect_in(players[current], f"approve {beacon}", "is decided: accepted.")
    reply = await expect_in(players[second], "newcard Armageddon/A/Destroy all Things.", "You propose a new card")
    armageddon = int(re.search(r"#(\d+) Armageddon", reply).group(1))  # type: ignore[union-attr]
    await expect_in(players[first], f"approve {armageddon}", f"You approve #{armageddon}.")
    await expect_in(ann, "viewvote", f"yet to vote: {current}")

    ed = await login(port, "Ed")
    await expect_in(ed, "watch Workshop", "Workshop")
    look = await ann.ask("look")
    current_again, hand_sizes = await ann.table()
    assert current_again == current
    hands = {name: sorted(card.number for card in await player.hand()) for name, player in players.items()}
    for player in (*players.values(), ed):
        await player.close()
    return {
        "current_player": current,
        "hand_sizes": hand_sizes,
        "hands": hands,
        "in_play": numbers_in_play(look),
        "beacon": beacon,
        "armageddon": armageddon,
        "missing_voter": current,
    }


async def ccg_arena(port: int) -> None:
    """Arena: a CCG room between games, the room saved (before ccg was on, so with its
    cards), each player's deck built and saved."""
    di, fay = await login(port, "Di"), await login(port, "Fay")
    await expect_in(di, "newroom Arena", "You made room Arena (Dvorak)")
    numbers = {}
    for name, rest in SET_CARDS.items():
        reply = await expect_in(di, f"loadcard {name}/{rest}", "#")
        numbers[name] = int(re.search(rf"#(\d+) {name}", reply).group(1))  # type: ignore[union-attr]
    await expect_in(fay, "join Arena", "Arena")
    await expect_in(di, "set decksize=4", "decksize")
    await expect_in(di, "set handsize=2", "handsize")
    await expect_in(di, f"savedeck {ROOM_DECK}", f"You save the room as deck {ROOM_DECK} ({len(SET_CARDS)} cards)")
    await expect_in(di, "set ccg=on", "You set ccg to on.")
    for player in (di, fay):
        deck, copies = PLAYER_DECKS[player.name]
        for name, count in copies.items():
            await expect_in(player, f"deckbuild add {numbers[name]}={count}", "You add")
        saved = f"You save your deck as {deck} ({sum(copies.values())} cards)"
        await expect_in(player, f"deckbuild save {deck}", saved)
    await expect_in(di, "listdecks", ROOM_DECK)
    for player in (di, fay):
        await player.close()


async def gnav_fjord(port: int) -> dict[str, Any]:
    """Fjord: a Gnav match against two computer players, waiting for Gus's second turn."""
    gus = await login(port, "Gus")
    await expect_in(gus, "newroom/gnav Fjord", "You made room Fjord (Gnav)")
    await expect_in(gus, "addbot normal", "takes a seat")
    await expect_in(gus, "addbot strong", "takes a seat")
    for setting in ("botdelay=0", "lives=9", "turntime=600"):
        await expect_in(gus, f"set {setting}", "You set")
    await expect_in(gus, "start", "A match of Gnav begins: 9 lives each.")
    turn = await gus.client.wait_for(GNAV_TURN, 0, 30)
    await expect_in(gus, "keep", "")
    await gus.client.wait_for(GNAV_TURN, turn.end(), 30)
    card = flat(await gus.ask("hand"))
    await expect_in(gus, "look", "It is your turn: keep or swap.")
    await gus.close()
    return {"card": card}


def ys_views(player: ScriptedPlayer) -> list[dict[str, Any]]:
    """Every ``Ys.View`` GMCP message the player received."""
    found = []
    for raw in player.client.subnegotiations:
        if raw[:1] == bytes([GMCP]):
            package, _, data = raw[1:].decode("utf-8").partition(" ")
            if package == "Ys.View" and data.strip() not in ("", "{}"):
                found.append(json.loads(data))
    return found


async def ys_move(player: ScriptedPlayer, after_step: int, timeout: float = 30.0) -> dict[str, Any]:
    """Wait until the table waits for ``player`` at a step past ``after_step``; that view."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        seen = ys_views(player)
        if seen and seen[-1]["step"] > after_step and command_for(seen[-1], random.Random(0)) is not None:
            return seen[-1]
        await player.client.quiet(0.1)
    raise SystemExit(f"the Ys table did not wait for {player.name}: {player.client.transcript[-1500:]}")


async def ys_isle(port: int) -> dict[str, Any]:
    """Isle: a Ys game against two computer players, waiting for Hana after two moves."""
    hana = await login(port, "Hana", gmcp=True)
    await expect_in(hana, "newroom/ys Isle", "You made room Isle (Ys)")
    await expect_in(hana, "addbot easy", "takes a seat")
    await expect_in(hana, "addbot normal", "takes a seat")
    for setting in ("botdelay=0", "turntime=600"):
        await expect_in(hana, f"set {setting}", "You set")
    await expect_in(hana, "start", "A game of Ys begins.")
    rng = random.Random(5)
    step = -1
    for _ in range(2):
        view = await ys_move(hana, step)
        command = command_for(view, rng)
        assert command is not None
        reply = flat(await hana.ask(command))
        if "no broker" in reply or "not your" in reply.lower():
            raise SystemExit(f"Hana's {command!r} was refused: {reply}")
        step = view["step"]
    view = await ys_move(hana, step)
    await hana.close()
    return {"round": view["round"], "stage": view["stage"], "step": view["step"], "screen": view["you"]["screen"]}


async def attic(port: int) -> None:
    """Attic: made and deleted by its host (before she sits down in Workshop)."""
    ann = await login(port, "Ann")
    await expect_in(ann, "newroom Attic", "You made room Attic")
    await expect_in(ann, "loadcard Dust/T/Everywhere.", "#")
    await expect_in(ann, "delroom Attic=yes", "")
    rooms = flat(await ann.ask("rooms"))
    if "Attic" in rooms:
        raise SystemExit(f"Attic is still listed after delroom: {rooms}")
    await ann.close()


async def play(port: int) -> dict[str, Any]:
    """Everything the fixture holds, played on the old server at ``port``."""
    await attic(port)
    workshop = await dvorak_workshop(port)
    await ccg_arena(port)
    fjord = await gnav_fjord(port)
    isle = await ys_isle(port)
    return {"workshop": workshop, "fjord": fjord, "isle": isle}


# -- the databases -------------------------------------------------------------------------

STORED_ROOMS = r"""
import asyncio, json, sys
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

async def main(url):
    engine = create_async_engine(url)
    async with engine.connect() as connection:
        revision = (await connection.execute(text("SELECT version_num FROM alembic_version"))).scalar_one()
        rows = (await connection.execute(text("SELECT name, game, seq, digest FROM rooms ORDER BY id"))).all()
    await engine.dispose()
    print(json.dumps({"revision": revision, "rooms": {name: {"game": game, "seq": seq, "digest": digest}
                                                      for name, game, seq, digest in rows}}))

asyncio.run(main(sys.argv[1]))
"""


def make(tree: Path, database_url: str, scratch: Path) -> tuple[str, dict[str, Any]]:
    """Play on the old server on ``database_url``; the schema's revision and the facts."""
    with old_server(tree, database_url, scratch) as port:
        played = asyncio.run(play(port))
    old_cli(tree, database_url, "admin", "grant", ADMIN)
    for audit in ("check", "replay"):
        said = old_cli(tree, database_url, audit)
        if f"{len(ROOMS)} rooms sound." not in said:
            raise SystemExit(f"the old release's {audit} does not find every room sound:\n{said}")
    shown = old_python(tree, "-c", STORED_ROOMS, database_url)
    if shown.returncode != 0:
        raise SystemExit(shown.stderr)
    stored = json.loads(shown.stdout)
    if sorted(stored["rooms"]) != sorted(room["name"] for room in ROOMS):
        raise SystemExit(f"the old release stored other rooms: {stored['rooms']}")
    return stored["revision"], {**played, "stored": stored["rooms"]}


def compact_sqlite(source: Path, target: Path) -> None:
    """A consistent, compacted copy of ``source`` with no write-ahead log beside it."""
    target.unlink(missing_ok=True)
    original = sqlite3.connect(source)
    copy = sqlite3.connect(target)
    try:
        original.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")
        copy.execute("VACUUM")
    finally:
        copy.close()
        original.close()


def dump_postgresql(database: str, target: Path) -> None:
    dumped = subprocess.run(
        ["pg_dump", "--no-owner", "--no-privileges", f"{POSTGRES}/{database}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    lines = [line for line in dumped.splitlines() if not re.match(r"\\(un)?restrict\b", line)]
    target.write_text("\n".join(lines) + "\n")


def psql(command: str) -> None:
    subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", f"{POSTGRES}/postgres", "-c", command], check=True)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="release-fixture-") as temporary:
        scratch = Path(temporary)
        tree = scratch / "tree"
        commit = export_release(tree)
        check_old_code_is_imported(tree)
        facts: dict[str, Any] = {}

        sqlite_file = scratch / "release.sqlite3"
        revision, facts["sqlite"] = make(tree, f"sqlite+aiosqlite:///{sqlite_file}", scratch)
        compact_sqlite(sqlite_file, SQLITE_OUTPUT)

        database = f"release_fixture_{os.getpid()}"
        psql(f'CREATE DATABASE "{database}"')
        try:
            url = f"postgresql+asyncpg://postgres@127.0.0.1:5432/{database}"
            pg_revision, facts["postgresql"] = make(tree, url, scratch)
            dump_postgresql(database, POSTGRESQL_OUTPUT)
        finally:
            psql(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        if pg_revision != revision:
            raise SystemExit(f"the old release left revision {revision} on SQLite but {pg_revision} on PostgreSQL")
        shutil.rmtree(tree)

    FACTS_OUTPUT.write_text(
        json.dumps(
            {
                "made_by": f"tests/data/make_release_fixture.py, with the code of {RELEASE} ({commit})",
                "release": RELEASE,
                "commit": commit,
                "revision": revision,
                "passwords": PASSWORDS,
                "admin": ADMIN,
                "rooms": ROOMS,
                "decks": {
                    "players": {owner: [name, sum(copies.values())] for owner, (name, copies) in PLAYER_DECKS.items()},
                    "room": [ROOM_DECK, "Di", len(SET_CARDS)],
                },
                **facts,
            },
            indent=1,
        )
        + "\n"
    )
    for path in (SQLITE_OUTPUT, POSTGRESQL_OUTPUT, FACTS_OUTPUT):
        print(f"wrote {path.relative_to(ROOT)}: {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
