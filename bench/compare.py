"""``python -m bench compare <rev>``: the same scenarios against the server of an earlier
revision and against this checkout's, in one go, and one table of both.

The revision is exported with ``git archive <rev> | tar -x`` into a temporary folder,
and its server runs its own code from there (this interpreter, so the same virtual
environment; ``PYTHONPATH`` and the working directory are the exported tree, which is
checked before anything runs by importing the project's packages as the server will).
The load generator is always this checkout's, so both servers get the same load. Each
scenario runs on the one server and then at once on the other, the order swapped every
round, so that both meet the machine in the same state.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.comparison import METRICS, Results, report
from bench.processes import ROOT, ServerCode, server_code

#: The scenarios a comparison can run: those that start our server (not the ceiling,
#: which runs a bare telnetlib3 server, nor the in-process ones). crossnode runs on
#: PostgreSQL only.
COMPARABLE = tuple(METRICS)
POSTGRESQL_ONLY = ("crossnode",)


class CompareError(Exception):
    """The comparison cannot be made as asked (say, the revision is unknown)."""


@dataclass
class Side:
    name: str
    label: str
    code: ServerCode


def git(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *arguments], cwd=ROOT, capture_output=True, text=True, check=False)


def resolve(rev: str) -> str:
    """The full hash of the commit ``rev`` names in this repository."""
    if not rev or rev.startswith("-") or any(ch.isspace() or not ch.isprintable() for ch in rev):
        raise CompareError(f"not a revision: {rev!r}")
    found = git("rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}")
    if found.returncode != 0:
        raise CompareError(f"{rev!r} names no commit of this repository (give a tag, a branch or a commit)")
    return found.stdout.strip()


def export(commit: str, into: Path) -> None:
    """``git archive <commit> | tar -x`` into the folder ``into``."""
    archive = subprocess.Popen(["git", "archive", "--format=tar", commit], cwd=ROOT, stdout=subprocess.PIPE)
    assert archive.stdout is not None
    try:
        untar = subprocess.run(["tar", "-x", "-C", str(into)], stdin=archive.stdout, capture_output=True, check=False)
    finally:
        archive.stdout.close()
    if archive.wait() != 0 or untar.returncode != 0:
        raise CompareError(f"could not export {commit}: {untar.stderr.decode(errors='replace').strip()}")
    if not (into / "pyproject.toml").exists():
        raise CompareError(f"{commit} has no pyproject.toml: not a revision of this project")


def current_label() -> str:
    """This checkout: its commit, and whether files differ from it."""
    head = git("rev-parse", "--short", "HEAD").stdout.strip() or "no commit"
    changed = git("status", "--porcelain", "--untracked-files=no").stdout.strip()
    return f"{head} + changes" if changed else head


@contextmanager
def sides(rev: str) -> Iterator[tuple[Side, Side]]:
    """The previous side (``rev`` exported into a temporary folder, removed afterwards)
    and the current one, each verified to import its own code."""
    commit = resolve(rev)
    with tempfile.TemporaryDirectory(prefix="dvorak-compare-") as folder:
        tree = Path(folder)
        export(commit, tree)
        label = rev if commit.startswith(rev) else f"{rev} ({commit[:7]})"
        yield Side("previous", label, ServerCode(tree)), Side("current", current_label(), ServerCode(ROOT))


def run_compare(
    rev: str,
    scenarios: tuple[str, ...],
    backends: tuple[str, ...],
    rounds: int,
    run_one: Callable[[str, str], dict[str, Any]],
    emit: Callable[[str], None] = print,
) -> str:
    """Run each scenario on each backend against both sides, ``rounds`` times, printing
    each run's JSON line as it ends; the report (:func:`bench.comparison.report`).
    ``run_one(scenario, backend)`` runs one scenario against whichever server
    :func:`bench.processes.current_code` says."""
    with sides(rev) as (previous, current):
        results: dict[str, Results] = {previous.name: {}, current.name: {}}
        for side in (previous, current):
            files = side.code.verify()
            emit(json.dumps({"compare": side.name, "code": side.label, "tree": str(side.code.tree), **files}))
        for round_number in range(rounds):
            order = (previous, current) if round_number % 2 == 0 else (current, previous)
            for scenario in scenarios:
                for backend in ("postgresql",) if scenario in POSTGRESQL_ONLY else backends:
                    for side in order:
                        with server_code(side.code):
                            try:
                                result = run_one(scenario, backend)
                            except Exception as error:  # the table says n/a, and why
                                result = {"error": f"{type(error).__name__}: {error}"[:300]}
                        line = {"compare": side.name, "code": side.label, "scenario": scenario, "backend": backend}
                        emit(json.dumps({**line, **result}))
                        results[side.name].setdefault((scenario, backend), []).append(result)
        return report(results[previous.name], results[current.name], previous.label, current.label)
