"""Servers under test as child processes: ours, and a bare telnetlib3 echo server for the
ceiling; with the open-file limit raised for them (not in the product) and their CPU time
and peak memory read from /proc.

Our server runs the code of a source tree (:class:`ServerCode`): this checkout's by
default, or, for ``python -m bench compare``, a release exported elsewhere; always with
this interpreter (the same virtual environment, so the same dependencies)."""

from __future__ import annotations

import asyncio
import contextvars
import getpass
import json
import os
import re
import resource
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The project's top-level packages, all of which a server's tree must provide itself.
PACKAGES = ("server", "commands", "games", "persistence", "migrations")
ECHO = [sys.executable, "-m", "bench.echo_server"]
MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
OPEN_FILES = 65536


def raise_open_file_limit() -> None:
    """Allow as many sockets as the machine lets a process have (for 10,000 connections)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(OPEN_FILES, hard) if hard != resource.RLIM_INFINITY else OPEN_FILES
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


#: The ports :func:`free_port` has chosen in this process.
_chosen: set[int] = set()


def free_port() -> int:
    """A loopback port free now, and never one chosen before: a server's ports are chosen
    one after another, each free until the server binds it."""
    while True:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        if port not in _chosen:
            _chosen.add(port)
            return port


@dataclass
class Usage:
    cpu_seconds: float
    rss_kib: int
    peak_rss_kib: int


def descendants(pid: int) -> list[int]:
    """The processes ``pid`` started that still run, and theirs (say, the workers of
    ``serve --workers``), from /proc."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in map(int, children):
            found += [child, *descendants(child)]
    return found


def usage_tree(pid: int) -> Usage:
    """:func:`usage` of ``pid`` and of its running descendants, summed (peak memory too:
    the most the processes held, if each peaked at once)."""
    total = Usage(0.0, 0, 0)
    for each in (pid, *descendants(pid)):
        try:
            one = usage(each)
        except (OSError, KeyError):
            continue  # ended meanwhile
        total = Usage(
            total.cpu_seconds + one.cpu_seconds, total.rss_kib + one.rss_kib, total.peak_rss_kib + one.peak_rss_kib
        )
    return total


def usage(pid: int) -> Usage:
    """CPU time (user + system) and memory of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    status = Path(f"/proc/{pid}/status").read_text()
    values = {
        line.split(":")[0]: line.split()[1] for line in status.splitlines() if line.startswith(("VmRSS", "VmHWM"))
    }
    return Usage(cpu, int(values["VmRSS"]), int(values["VmHWM"]))


@dataclass(frozen=True)
class ServerCode:
    """The server of the source tree ``tree``: ``dvorak-mush`` as its own pyproject.toml
    defines it, run by this interpreter with ``tree`` first on the path (and as the
    working directory), so its packages are imported from there and not from wherever
    the virtual environment's editable install points."""

    tree: Path

    def entry_point(self) -> tuple[str, str]:
        """The module and function of the tree's ``dvorak-mush`` script."""
        project = tomllib.loads((self.tree / "pyproject.toml").read_text())
        module, _, function = project["project"]["scripts"]["dvorak-mush"].partition(":")
        return module, function

    def command(self, *arguments: str) -> list[str]:
        module, function = self.entry_point()
        program = f"import sys; from {module} import {function}; sys.exit({function}())"
        return [sys.executable, "-c", program, *arguments]

    def env(self) -> dict[str, str]:
        return {"PYTHONPATH": str(self.tree)}

    def imported_from(self) -> dict[str, str]:
        """Where each of the project's packages is imported from when this code runs: the
        file of each, found by a child started exactly as the server is."""
        program = (
            "import importlib, json; "
            f"print(json.dumps({{name: importlib.import_module(name).__file__ for name in {PACKAGES!r}}}))"
        )
        found = subprocess.run(
            [sys.executable, "-c", program],
            cwd=self.tree,
            env={**os.environ, **self.env()},
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        )
        return dict(json.loads(found.stdout))

    def verify(self) -> dict[str, str]:
        """:meth:`imported_from`, after checking that every package comes from the tree."""
        files = self.imported_from()
        root = self.tree.resolve()
        strays = {name: file for name, file in files.items() if root not in Path(file).resolve().parents}
        if strays:
            raise RuntimeError(f"the server of {self.tree} would import code from elsewhere: {strays}")
        return files


#: Whose server the scenarios start when not this checkout's (``python -m bench compare``).
_CODE: contextvars.ContextVar[ServerCode | None] = contextvars.ContextVar("_CODE", default=None)


def current_code() -> ServerCode:
    """Whose server the scenarios start: this checkout's, unless :func:`server_code` says."""
    return _CODE.get() or ServerCode(ROOT)


@contextmanager
def server_code(code: ServerCode) -> Iterator[ServerCode]:
    """Scenarios run inside this start ``code``'s server."""
    token = _CODE.set(code)
    try:
        yield code
    finally:
        _CODE.reset(token)


class ChildServer:
    """A server process listening on a free loopback port."""

    def __init__(self, command: list[str], env: dict[str, str], ready: str, cwd: Path = ROOT) -> None:
        self.port = free_port()
        self.web_port = free_port()
        self.command = command
        self.env = {
            **os.environ,
            **env,
            "DVORAK_PORT": str(self.port),
            "DVORAK_WEB_PORT": str(self.web_port),
            "DVORAK_HOST": "127.0.0.1",
        }
        self.ready = ready
        self.cwd = cwd
        self.process: asyncio.subprocess.Process | None = None
        self.log = ""

    async def start(self, timeout: float = 120) -> float:
        """Start it; the seconds until it was listening."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        self.process = await asyncio.create_subprocess_exec(
            *self.command,
            cwd=self.cwd,
            env=self.env,
            stderr=asyncio.subprocess.PIPE,
            preexec_fn=raise_open_file_limit,
        )
        assert self.process.stderr is not None
        while self.ready not in self.log:
            line = await asyncio.wait_for(self.process.stderr.readline(), timeout)
            if not line:
                raise RuntimeError(f"{self.command} exited:\n{self.log}")
            self.log += line.decode()
        asyncio.ensure_future(self._drain())
        return loop.time() - started

    async def logged(self, text: str, timeout: float = 30) -> None:
        """Wait until the server has logged ``text`` (say, that its web port listens)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while text not in self.log:
            if loop.time() > deadline:
                raise TimeoutError(f"{self.command} never logged {text!r}:\n{self.log}")
            await asyncio.sleep(0.02)

    async def _drain(self) -> None:
        assert self.process is not None and self.process.stderr is not None
        while line := await self.process.stderr.readline():
            self.log += line.decode()

    def usage(self) -> Usage:
        """The server's CPU time and memory, its child processes' included (the workers of
        ``serve --workers``: a supervisor's own are next to nothing)."""
        assert self.process is not None
        return usage_tree(self.process.pid)

    async def stop(self, timeout: float = 30) -> int | None:
        """SIGTERM, and SIGKILL if it has not exited ``timeout`` seconds later; its exit
        status (negative: the signal that ended it), None if it never started."""
        if self.process is None:
            return None
        if self.process.returncode is None:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), timeout)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        return self.process.returncode


class MqttBroker(ChildServer):
    """Mosquitto configured as deploy/mosquitto.conf and deploy/mosquitto.acl recommend,
    on a port of its own, with a password file of its own for the nodes' user ``url``
    carries (running as the user who starts it, who owns those files)."""

    def __init__(self) -> None:
        super().__init__([MOSQUITTO, "-c"], {}, ready="running")
        directory = Path(tempfile.mkdtemp(prefix="dvorak-bench-"))
        passwords, acl, config = (
            directory / "mosquitto.passwd",
            directory / "mosquitto.acl",
            directory / "mosquitto.conf",
        )
        password = secrets.token_hex(16)
        subprocess.run([MOSQUITTO_PASSWD, "-b", "-c", str(passwords), "dvorak", password], check=True)
        shutil.copy(ROOT / "deploy" / "mosquitto.acl", acl)
        text = (ROOT / "deploy" / "mosquitto.conf").read_text()
        for option, value in (("listener", f"{self.port} 127.0.0.1"), ("password_file", passwords), ("acl_file", acl)):
            text = re.sub(rf"^{option} .*$", f"{option} {value}", text, flags=re.MULTILINE)
        config.write_text(text + f"user {getpass.getuser()}\n")
        self.command.append(str(config))
        self.url = f"mqtt://dvorak:{password}@127.0.0.1:{self.port}"


def dvorak_server(database_url: str, **settings: str) -> ChildServer:
    """Our server (the code :func:`current_code` says) on ``database_url``, with ``settings``
    (one process, unless they say ``DVORAK_WORKERS``)."""
    code = current_code()
    env = {
        **code.env(),
        "DVORAK_DATABASE_URL": database_url,
        "DVORAK_LOG_LEVEL": "info",
        "DVORAK_WORKERS": "1",
        **settings,
    }
    return ChildServer(code.command("serve"), env, ready="listening for telnet", cwd=code.tree)


def echo_server(mode: str) -> ChildServer:
    return ChildServer([*ECHO, mode], {}, ready="echo server listening")
