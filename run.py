#!/usr/bin/env python3
"""Set up and run Dvorak MUSH from a fresh checkout, needing nothing but Python 3.11+.

    python3 run.py serve [options]   start the server (SQLite under ./data by default)
    python3 run.py test [pytest options]   run the whole test suite (or pytest with those options)
    python3 run.py vendor   fetch the JavaScript libraries from npm (pinned): the page's into
                            server/webclient/vendor, the browser tests' into
                            tests/browser/vendor (needs npm; the result is committed)
    python3 run.py screenshots   take the screenshots docs/players.md shows anew (the
                            browser tests take them; needs Chromium)
    python3 run.py <any dvorak-mush subcommand>   e.g. migrate, --help

The first run creates a virtual environment in .venv and installs the project into it
(editable, with the test dependencies); later runs reinstall only when pyproject.toml
changes.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".installed-from"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
#: Where JavaScript libraries are vendored, and what for (the first line of its VERSIONS).
VENDOR_FOLDERS = {
    ROOT / "server" / "webclient" / "vendor": "The web page's JavaScript libraries",
    ROOT / "tests" / "browser" / "vendor": "The browser tests' JavaScript libraries (never served)",
}
_PAGE, _TESTS = VENDOR_FOLDERS

#: The JavaScript libraries, from the npm registry at pinned versions: (package, version,
#: the file in the package that is vendored, its licence file, the folder it goes to). The
#: README says what each is for.
JS_LIBRARIES = (
    ("ansi_up", "6.0.6", "ansi_up.js", "LICENSE", _PAGE),
    ("axe-core", "4.14.1", "axe.min.js", "LICENSE", _TESTS),
)


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


def _tar_member(tar: tarfile.TarFile, name: str) -> bytes:
    member = tar.extractfile(f"package/{name}")
    if member is None:
        raise SystemExit(f"{name} is not a file in the npm package")
    return member.read()


def vendor() -> int:
    """Fetch each of JS_LIBRARIES with ``npm pack`` (which checks the registry's integrity
    hash), check that hash again, and write its file, its licence and a line of its
    folder's VERSIONS."""
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("python3 run.py vendor needs npm (the Node.js package manager) on the PATH.")
    lines = {
        folder: [
            f"# {what}, vendored from the npm registry by `python3 run.py vendor`.",
            "# package version file licence npm-integrity-of-the-package sha256-of-the-vendored-file",
        ]
        for folder, what in VENDOR_FOLDERS.items()
    }
    with tempfile.TemporaryDirectory() as temporary:
        for package, version, source, licence_file, folder in JS_LIBRARIES:
            spec = f"{package}@{version}"
            print(f"npm pack {spec}", file=sys.stderr)
            packed = subprocess.run(
                [npm, "pack", spec, "--json", "--silent"], cwd=temporary, check=True, capture_output=True, text=True
            )
            info = json.loads(packed.stdout)[0]
            tarball = Path(temporary) / info["filename"]
            algorithm, _, expected = info["integrity"].partition("-")
            actual = base64.b64encode(hashlib.new(algorithm, tarball.read_bytes()).digest()).decode()
            if actual != expected or info["version"] != version:
                sys.exit(f"{spec}: the package does not match the registry's integrity hash or version")
            with tarfile.open(tarball) as tar:
                manifest = json.loads(_tar_member(tar, "package.json"))
                code = _tar_member(tar, source)
                licence = _tar_member(tar, licence_file)
            folder.mkdir(parents=True, exist_ok=True)
            (folder / source).write_bytes(code)
            (folder / f"{package}.LICENSE").write_bytes(licence)
            digest = hashlib.sha256(code).hexdigest()
            lines[folder].append(
                f"{package} {version} {source} {manifest['license']} {info['integrity']} sha256:{digest}"
            )
    for folder, written in lines.items():
        (folder / "VERSIONS").write_text("\n".join(written) + "\n")
        print(f"Wrote {folder.relative_to(ROOT)}/VERSIONS", file=sys.stderr)
    return 0


#: The screenshots docs/players.md shows, as the browser tests name them, and the tests
#: that take them.
DOC_SCREENSHOTS = (
    "20-lobby-desktop.png",
    "20-lobby-phone.png",
    "21-gnav-table-desktop.png",
    "21-gnav-table-phone.png",
    "22-gnav-winner-desktop.png",
    "25-rules-desktop.png",
    "33-dvorak-thing-on-thing-phone.png",
    "34-dvorak-vote-pending-desktop.png",
    "40-ys-placing-390.png",
)
SCREENSHOT_TESTS = (
    "tests/browser/test_lobby_page.py",
    "tests/browser/test_dvorak_panel.py",
    "tests/browser/test_ys_panel.py",
)


def screenshots() -> int:
    """Run the browser tests that take the screenshots docs/players.md shows, and copy
    those into docs/screenshots/."""
    with tempfile.TemporaryDirectory() as folder:
        environment = {**os.environ, "DVORAK_TEST_ARTIFACTS": folder}
        failed = subprocess.call([str(BIN / "python"), "-m", "pytest", "-q", *SCREENSHOT_TESTS], env=environment)
        if failed:
            return failed
        target = ROOT / "docs" / "screenshots"
        target.mkdir(exist_ok=True)
        for name in DOC_SCREENSHOTS:
            shutil.copyfile(Path(folder) / "screenshots" / name, target / name)
    print(f"Wrote {len(DOC_SCREENSHOTS)} screenshots to docs/screenshots/", file=sys.stderr)
    return 0


def main(argv: list[str]) -> int:
    if argv == ["vendor"]:
        return vendor()
    ensure_environment()
    os.chdir(ROOT)
    if argv == ["screenshots"]:
        return screenshots()
    if argv == ["test"]:
        # The whole suite in three processes (each test has its own servers, databases and
        # ports; most of a test's time is spent waiting on them, so a third process keeps
        # two cores busy), then the tests marked serial, which must run alone, after them.
        pytest = [str(BIN / "python"), "-m", "pytest"]
        together = subprocess.call([*pytest, "-n", "3", "-m", "not serial"])
        alone = subprocess.call([*pytest, "-m", "serial"])
        return together or alone
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
