"""The code stays lint-clean and formatted (ruff, configured in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUFF = [sys.executable, "-m", "ruff"]


@pytest.mark.parametrize("check", [["check", "."], ["format", "--check", "."]], ids=["lint", "format"])
def test_ruff(check):
    result = subprocess.run([*RUFF, *check], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_project_license_is_an_spdx_expression():
    """`project.license` is an SPDX string (PEP 639): the old table form made setuptools
    print its deprecation banner three times on a first `pip install`."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert isinstance(project["project"]["license"], str)
    assert "setuptools>=77" in project["build-system"]["requires"]  # the first to read PEP 639
