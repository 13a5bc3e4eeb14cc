"""``dvorak-mush serve`` as a child process, for tests that stop or kill the server."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import socket
import sys
from pathlib import Path

#: The console script installed with the project, as operators run it.
PROGRAM = [str(Path(sys.executable).parent / "dvorak-mush")]
ROOT = Path(__file__).resolve().parent.parent


#: The lowest port tests choose for servers they start as processes.
LOWEST_PORT = 10000
#: The ports :func:`free_port` has chosen in this process.
_chosen: set[int] = set()


def _ephemeral_ports() -> tuple[int, int]:
    """The kernel's range of ports for the local end of outgoing connections."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999  # Linux's default


def free_port() -> int:
    """A loopback port free now, for a server a test starts in a process of its own: below
    the kernel's ephemeral range, from which every client connection of every test takes
    its local port (a port chosen there can be taken by one before the server binds it:
    "address already in use"), and in a slice of its own for each xdist worker, so that
    two tests running at once never choose the same. Never one it chose before: a server's
    ports are chosen one after another, each free until the server binds it."""
    ceiling = min(_ephemeral_ports()[0], 65536)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    span = (ceiling - LOWEST_PORT) // max(workers, 1)
    first = LOWEST_PORT + (int(worker) if worker.isdigit() else 0) * span
    for port in random.sample(range(first, first + span), min(span, 500)):
        if port in _chosen:
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            _chosen.add(port)
            return port
    raise RuntimeError(f"no free port between {first} and {first + span}")


async def run_cli(database_url: str, *args: str) -> str:
    """Run ``dvorak-mush <args> --database-url <database_url>``; what it printed (it
    must succeed)."""
    code, out, err = await run_cli_for_status(database_url, *args)
    assert code == 0, err
    return out


async def run_cli_for_status(database_url: str, *args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """Run ``dvorak-mush <args> --database-url <database_url>`` (with ``env`` added to the
    environment): its exit status, and what it printed to standard output and to standard
    error."""
    process = await asyncio.create_subprocess_exec(
        *PROGRAM,
        *args,
        "--database-url",
        database_url,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


class ServerProcess:
    """``dvorak-mush serve`` in a child process, configured through the environment."""

    def __init__(self, database_url: str, data_dir: Path, program: list[str] = PROGRAM) -> None:
        self.port = free_port()
        self.web_port = free_port()
        self.program = program
        self.env = {
            **os.environ,
            "DVORAK_PORT": str(self.port),
            "DVORAK_WEB_PORT": str(self.web_port),
            "DVORAK_DATA_DIR": str(data_dir),
            "DVORAK_DATABASE_URL": database_url,
            "DVORAK_NEGOTIATION_WAIT": "0.05",
            # One process, even on PostgreSQL with a broker (where the default is a worker
            # per core): tests of several workers ask for them.
            "DVORAK_WORKERS": "1",
        }
        self.process: asyncio.subprocess.Process | None = None
        self.log = ""
        self._follower: asyncio.Task[None] | None = None

    async def start(self, listeners: int = 1) -> None:
        """Start it and wait until ``listeners`` processes (workers) listen."""
        self.process = await asyncio.create_subprocess_exec(
            *self.program, "serve", cwd=ROOT, env=self.env, stderr=asyncio.subprocess.PIPE
        )
        assert self.process.stderr is not None
        ready = "listening for telnet" if self.env.get("DVORAK_WEB") == "off" else "listening for browsers"
        while self.log.count(ready) < listeners:
            line = await asyncio.wait_for(self.process.stderr.readline(), 30)
            assert line, f"server exited early:\n{self.log}"
            self.log += line.decode()

    def follow(self) -> None:
        """Keep reading its log into :attr:`log` as it is written (see :meth:`logged`)."""
        assert self.process is not None and self.process.stderr is not None
        stderr = self.process.stderr

        async def read() -> None:
            while line := await stderr.readline():
                self.log += line.decode()

        self._follower = asyncio.ensure_future(read())

    async def logged(self, pattern: str, timeout: float = 30) -> re.Match[str]:
        """Wait (following the log) until a line of it matches ``pattern``; the match."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (found := re.search(pattern, self.log, re.MULTILINE)) is None:
            if loop.time() > deadline:
                raise AssertionError(f"the server never logged {pattern!r}:\n{self.log}")
            await asyncio.sleep(0.05)
        return found

    async def stop(self, signum: int = signal.SIGTERM) -> int:
        assert self.process is not None
        self.process.send_signal(signum)
        return await self.exited(30)

    async def exited(self, timeout: float) -> int:
        """Wait until the server exits by itself (within ``timeout`` seconds); its exit
        status, with the rest of its log read."""
        assert self.process is not None and self.process.stderr is not None
        try:
            if self._follower is not None:
                await asyncio.wait_for(asyncio.shield(self._follower), timeout)
            else:
                rest = await asyncio.wait_for(self.process.stderr.read(), timeout)
                self.log += rest.decode()
            return await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"the server did not exit within {timeout} s:\n{self.log}") from None
