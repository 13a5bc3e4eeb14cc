"""The packages keep their layers: games < persistence < server core < commands < app.

The contracts are in pyproject.toml (``[tool.importlinter]``) and explained in
docs/layers.md; import-linter checks them, direct and indirect imports alike.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from games import KINDS

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("i18n", "games", "persistence", "server", "commands")


def copy_of_the_code(folder: Path) -> Path:
    """The packages and pyproject.toml copied into ``folder``, to plant a fault in; ``folder``."""
    shutil.copy(ROOT / "pyproject.toml", folder)
    for package in PACKAGES:
        shutil.copytree(ROOT / package, folder / package, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


LINT_IMPORTS = [
    sys.executable,
    "-c",
    "from importlinter.cli import lint_imports_command; lint_imports_command()",
    "--no-cache",
    "--no-logo",
]


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(LINT_IMPORTS, cwd=root, capture_output=True, text=True, timeout=120)


def test_every_import_keeps_to_the_layers():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_an_upward_import_breaks_the_layers(tmp_path):
    """The check is live: a copy of the code where the server core imports a command
    module fails it, naming the import."""
    copy_of_the_code(tmp_path)
    hub = tmp_path / "server" / "hub.py"
    hub.write_text(hub.read_text() + "\nimport commands.look  # planted upward import\n")
    result = lint_imports(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "server.hub -> commands.look" in result.stdout


def game_contracts(root: Path, folder: Path) -> Path:
    """An import-linter configuration (written in ``folder``) for the code in ``root``, of the contracts that follow
    from the registry, so that no list of games is kept by hand: the room engine and the
    storage import no game's package (a game's own tables are found through its
    registration), and the shared command modules import no game's commands."""
    games = [f"games.{name}" for name in KINDS]
    game_commands = [f"commands.{name}" for name in KINDS]
    shared = sorted(f"commands.{path.stem}" for path in (root / "commands").glob("*.py") if path.stem != "__init__")
    config = folder / "game-contracts.toml"
    config.write_text(
        f"""[tool.importlinter]
root_packages = {list(PACKAGES)!r}

[[tool.importlinter.contracts]]
id = "engine-names-no-game"
name = "The room engine and the storage import no game's package"
type = "forbidden"
source_modules = ["server", "persistence"]
forbidden_modules = {games + game_commands!r}

[[tool.importlinter.contracts]]
id = "shared-commands-name-no-game"
name = "The shared command modules import no game's commands"
type = "forbidden"
source_modules = {shared!r}
forbidden_modules = {game_commands!r}
"""
    )
    return config


def test_the_room_engine_the_storage_and_the_shared_commands_import_no_game(tmp_path):
    config = game_contracts(ROOT, tmp_path)
    result = subprocess.run([*LINT_IMPORTS, "--config", str(config)], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 kept, 0 broken" in result.stdout


def test_a_game_imported_by_the_room_engine_breaks_the_game_contracts(tmp_path):
    (tmp_path / "code").mkdir()
    code = copy_of_the_code(tmp_path / "code")
    rooms = code / "server" / "rooms.py"
    rooms.write_text(rooms.read_text() + "\nimport games.gnav.rules  # planted\n")
    look = code / "commands" / "look.py"
    look.write_text(look.read_text() + "\nimport commands.ys.render  # planted\n")
    config = game_contracts(code, tmp_path)
    result = subprocess.run([*LINT_IMPORTS, "--config", str(config)], cwd=code, capture_output=True, text=True)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "server.rooms -> games.gnav.rules" in result.stdout
    assert "commands.look -> commands.ys.render" in result.stdout
