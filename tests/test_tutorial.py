"""docs/adding-a-game.md runs: the Nim it builds, extracted from its code blocks into a
temporary package and registered, is at most 150 lines, touches nothing outside its two
packages, passes the conformance checks, is served to the browser, and is played to its
end over telnet against its computer player."""

from __future__ import annotations

import ast
import asyncio
import importlib
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

import commands
import games
from commands.dispatch import in_a_room
from commands.games import game_commands
from games import GAMES, KINDS
from games.base import GameKind
from tests.conformance import check_kind
from tests.players import ScriptedPlayer, flat

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs/adding-a-game.md"
#: A block of the tutorial's code: its language, the file it is, its text.
BLOCK = re.compile(r"^```(\w+) file=(\S+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
REGISTRATION = re.compile(r"^```python registration\n(.*?)^```$", re.MULTILINE | re.DOTALL)
#: The packages the tutorial's game is, each with an empty __init__.py as it says.
PACKAGES = ("games/nim", "commands/nim")


def tutorial_files() -> dict[str, str]:
    """The files of the tutorial's game, by path, as its code blocks give them."""
    files = {path: text for _language, path, text in BLOCK.findall(DOC.read_text())}
    return {**{f"{package}/__init__.py": "" for package in PACKAGES}, **files}


@pytest.fixture
def nim(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GameKind]:
    """The tutorial's game, written out under ``tmp_path`` and registered for the test."""
    for path, text in tutorial_files().items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    monkeypatch.setattr(games, "__path__", [*games.__path__, str(tmp_path / "games")])
    monkeypatch.setattr(commands, "__path__", [*commands.__path__, str(tmp_path / "commands")])
    kind = importlib.import_module("games.nim.kind").KIND
    monkeypatch.setitem(KINDS, "nim", kind)
    yield kind
    game_commands.cache_clear()
    in_a_room.cache_clear()
    for name in [name for name in sys.modules if name.split(".")[:2] in (["games", "nim"], ["commands", "nim"])]:
        del sys.modules[name]


def test_the_tutorials_game_is_at_most_150_lines_in_its_two_packages():
    files = tutorial_files()
    assert {path.rsplit("/", 1)[0] for path in files} == set(PACKAGES)
    assert {"games/nim/kind.py", "commands/nim/game.py", "commands/nim/panel.js"} <= set(files)
    lines = sum(len(text.splitlines()) for text in files.values())
    print(f"\nthe tutorial's Nim: {lines} lines in {len(files)} files")
    assert lines <= 150


def test_the_tutorials_registration_is_the_registry_with_its_game_added():
    (block,) = REGISTRATION.findall(DOC.read_text())
    name, _, value = block.strip().partition(" = ")
    assert name == "GAMES" and ast.literal_eval(value) == (*GAMES, "nim")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_tutorials_game_passes_the_conformance_checks(nim, seed):
    played = check_kind(nim, seed)
    assert "took the last one and won" in played.table.state.result


async def test_the_tutorials_game_is_played_over_telnet_against_its_computer_player(nim, start_server):
    server = await start_server()
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    made = flat(await ann.ask("newroom/nim Pile"))
    assert "You made room Pile (Nim) and are its host." in made
    assert "take" in flat(await ann.ask("help take"))
    assert "Marienbad (bot, perfect) takes a seat." in flat(await ann.ask("addbot"))
    await ann.ask("set botdelay=0")
    assert "A game of Nim begins: a pile of 15. Your turn: take 1, 2 or 3." in flat(await ann.ask("start"))
    assert "Usage: take <count>" in flat(await ann.ask("take 4"))
    room = await server.rooms.find("Pile")
    rng = random.Random(47)
    for _ in range(200):
        state = room.table.state
        if state.phase != "playing":
            break
        if state.turn == room.table.state.seats[0].account_id and not room.moving_by_itself:
            reply = flat(await ann.ask(f"take {rng.randint(1, min(3, state.pile))}"))
            assert reply.startswith("You take"), reply
        else:
            await asyncio.sleep(0.02)
    assert room.table.state.phase == "over"
    await ann.client.quiet(0.3)
    told = flat(ann.client.transcript)
    # Whoever moves first against the perfect player from 15 loses: it leaves a multiple of 4.
    assert "Marienbad takes" in told and "Marienbad took the last one and won." in told
    assert "Nim in Pile: Marienbad took the last one and won." in flat(await ann.ask("look"))
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{server.web_port}/") as page:
            assert '<script type="module" src="/static/games/nim.js"></script>' in await page.text()
        async with session.get(f"http://127.0.0.1:{server.web_port}/static/games/nim.js") as panel:
            assert panel.status == 200 and 'registerGame("Nim"' in await panel.text()
    await ann.close()
