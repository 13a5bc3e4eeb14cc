"""The packages keep their layers: games < persistence < server core < commands < app.

The contracts are in pyproject.toml (``[tool.importlinter]``) and explained in
docs/layers.md; import-linter checks them, direct and indirect imports alike.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "persistence", "server", "commands")


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
