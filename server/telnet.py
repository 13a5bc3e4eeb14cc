"""The telnet protocol, as this MUSH speaks it, on top of telnetlib3.

On connecting, a client is asked for its terminal type (TTYPE, including MTTS), window
size (NAWS) and character set (CHARSET), and offered compression (MCCP2), GMCP and MSSP.
Clients that answer none of it, like ``nc``, are greeted after a short wait and get
plain UTF-8 text. The line discipline stays with the client (no server echo), except
that a password prompt turns the client's local echo off and on again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import telnetlib3
from telnetlib3.telopt import ECHO, GMCP, MCCP2_COMPRESS, MSSP, WILL, WONT

log = logging.getLogger(__name__)

#: What MSSP sends a crawler: name, players online, uptime, codebase, port, ...
MsspProvider = Callable[[], dict[str, str | list[str]]]


class MushTelnetServer(telnetlib3.TelnetServer):
    """telnetlib3's server protocol, offering GMCP and MSSP and reporting when a client
    turns them on."""

    def __init__(self, *args: Any, mssp: MsspProvider, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._mssp = mssp
        self._mssp_sent = False
        self._gmcp_seen = False
        #: Called once when the client agrees to GMCP (set by the connection).
        self.on_gmcp: Callable[[], None] | None = None

    def begin_advanced_negotiation(self) -> None:
        # The base class offers MCCP3 (client-to-server compression) with MCCP2; with
        # telnetlib3 5.0.1 the server cannot read what its own client compresses, so only
        # MCCP2 (server-to-client, where the bytes are) is offered.
        offer_mccp2 = self._mccp2_enabled
        self._mccp2_enabled = False
        super().begin_advanced_negotiation()
        self._mccp2_enabled = offer_mccp2
        writer = self.writer
        assert writer is not None
        if offer_mccp2 and writer.get_extra_info("ssl_object") is None:
            writer.iac(WILL, MCCP2_COMPRESS)
        writer.iac(WILL, GMCP)
        writer.iac(WILL, MSSP)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        writer = self.writer
        if writer is None or self._closing:
            return
        if not self._mssp_sent and writer.local_option.enabled(MSSP):
            self._mssp_sent = True
            writer.send_mssp(self._mssp())
        if not self._gmcp_seen and writer.local_option.enabled(GMCP):
            self._gmcp_seen = True
            if self.on_gmcp is not None:
                self.on_gmcp()

    @property
    def negotiates(self) -> bool:
        """Whether the client answers telnet negotiation at all (``nc`` does not)."""
        return bool(self._advanced)


def gmcp_enabled(writer: telnetlib3.TelnetWriterUnicode) -> bool:
    return bool(writer.local_option.enabled(GMCP))


def set_local_echo(writer: telnetlib3.TelnetWriterUnicode, visible: bool) -> None:
    """Ask the client to stop (or resume) echoing what is typed, for a password. The
    server says it will echo (WILL ECHO) and then echoes nothing; clients that ignore this
    simply keep echoing."""
    writer.iac(WONT if visible else WILL, ECHO)
