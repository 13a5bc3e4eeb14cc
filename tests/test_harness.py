"""The test harness's own promises, where a broken one makes other tests fail at random."""

from __future__ import annotations

import socket

from tests.server_process import LOWEST_PORT, _ephemeral_ports, free_port


def test_ports_for_server_processes_are_free_and_never_ones_a_client_connection_could_take(monkeypatch):
    """A port for a server started as a process is free, and below the ephemeral range:
    chosen there, a client connection of a test running at once could take it as its local
    port before the server bound it (a SIGKILL test failed so in CI: "address already in
    use"). Each xdist worker chooses in a slice of its own."""
    ephemeral = _ephemeral_ports()[0]
    slices = []
    for worker in ("gw0", "gw1", "gw2"):
        monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
        monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "3")
        ports = {free_port() for _ in range(30)}
        assert all(LOWEST_PORT <= port < ephemeral for port in ports)
        slices.append((min(ports), max(ports)))
        for port in ports:
            with socket.socket() as server:
                server.bind(("127.0.0.1", port))
    assert slices[0][1] < slices[1][0] and slices[1][1] < slices[2][0]
