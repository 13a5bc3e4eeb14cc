"""The packages type-check: mypy, configured in pyproject.toml (``[tool.mypy]``), finds
no error in games, persistence, server or commands."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.test_layers import ROOT, copy_of_the_code


def mypy(root: Path) -> subprocess.CompletedProcess[str]:
    """mypy run in ``root`` as configured there, with nothing else on its command line."""
    return subprocess.run([sys.executable, "-m", "mypy"], cwd=root, capture_output=True, text=True, timeout=300)


def test_the_packages_type_check():
    result = mypy(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_type_error_fails_the_check(tmp_path):
    """The check is live: a copy of the code where a rules module gives a number a
    string fails it, naming the line."""
    copy_of_the_code(tmp_path)
    base = tmp_path / "games" / "base.py"
    planted = len(base.read_text().splitlines()) + 1
    base.write_text(base.read_text() + 'PLANTED: int = "not a number"\n')
    result = mypy(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"games/base.py:{planted}: error: Incompatible types in assignment" in result.stdout
