#!/usr/bin/env python3
"""Set up and run Dvorak MUSH from a fresh checkout, needing nothing but Python 3.11+.

    python3 run.py serve [options]   start the server (SQLite under ./data by default)
    python3 run.py test [pytest options]   run the whole test suite
    python3 run.py <any dvorak-mush subcommand>   e.g. migrate, --help

The first run creates a virtual environment in .venv and installs the project into it
(editable, with the test dependencies); later runs reinstall only when pyproject.toml
changes.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".installed-from"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")


def _project_fingerprint() -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()


def ensure_environment() -> None:
    """Create .venv and install the project into it when missing or out of date."""
    if sys.version_info < (3, 11):  # noqa: UP036 - run.py must explain itself on an old Python
        sys.exit(f"Python 3.11 or newer is required (this is {sys.version.split()[0]}).")
    fingerprint = _project_fingerprint()
    if STAMP.exists() and STAMP.read_text() == fingerprint:
        return
    if not (BIN / "python").exists():
        print("Creating a virtual environment in .venv ...", file=sys.stderr)
        venv.create(VENV, with_pip=True)
    print("Installing dvorak-mush and its dependencies into .venv ...", file=sys.stderr)
    pip = [str(BIN / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, "--upgrade", "pip"], check=True)
    subprocess.run([*pip, "--editable", f"{ROOT}[test]"], check=True)
    STAMP.write_text(fingerprint)


def main(argv: list[str]) -> int:
    ensure_environment()
    os.chdir(ROOT)
    if argv and argv[0] == "test":
        command = [str(BIN / "python"), "-m", "pytest", *argv[1:]]
    else:
        command = [str(BIN / "dvorak-mush"), *argv]
    if os.name == "nt":
        return subprocess.call(command)
    os.execv(command[0], command)
    return 0  # not reached: execv replaces this process


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
