"""The code stays lint-clean and formatted (ruff, configured in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUFF = [sys.executable, "-m", "ruff"]


@pytest.mark.parametrize("check", [["check", "."], ["format", "--check", "."]], ids=["lint", "format"])
def test_ruff(check):
    result = subprocess.run([*RUFF, *check], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
