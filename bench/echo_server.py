"""A bare telnetlib3 server, the ceiling the benchmark compares against.

It negotiates like the MUSH (line mode, UTF-8) and answers every line at once, framed by
OUTPUTPREFIX/OUTPUTSUFFIX like the MUSH's replies. In ``broadcast`` mode a ``say`` line is
also sent to every other connection, as chat in one room is. It stores nothing.

    python -m bench.echo_server echo|broadcast   (port from DVORAK_PORT)
"""

from __future__ import annotations

import asyncio
import os
import sys

import telnetlib3

connections: set[telnetlib3.TelnetWriterUnicode] = set()


async def shell(
    reader: telnetlib3.TelnetReaderUnicode, writer: telnetlib3.TelnetWriterUnicode, broadcast: bool
) -> None:
    writer.write("echo server\r\ncreate <name> <password>\r\n=\r\n")
    prefix = suffix = ""
    connections.add(writer)
    pending = ""
    try:
        while chunk := await reader.read(65536):
            pending += chunk
            *lines, pending = pending.replace("\r", "").split("\n")
            for line in lines:
                if not line:
                    continue
                word, _, rest = line.partition(" ")
                if word == "OUTPUTPREFIX":
                    prefix = rest
                    continue
                if word == "OUTPUTSUFFIX":
                    suffix = rest
                    continue
                if broadcast and word == "say":
                    heard = f'Someone says, "{rest}"\r\n'
                    for other in connections:
                        if other is not writer:
                            other.write(heard)
                writer.write(f"{prefix}\r\n{line}\r\n{suffix}\r\n")
    finally:
        connections.discard(writer)


async def main(mode: str) -> None:
    port = int(os.environ.get("DVORAK_PORT", "6260"))
    server = await telnetlib3.create_server(
        host="127.0.0.1",
        port=port,
        shell=lambda r, w: shell(r, w, mode == "broadcast"),
        encoding="utf8",
        encoding_errors="replace",
        force_binary=True,
        line_mode=True,
        connect_maxwait=0.5,
        timeout=0,
    )
    print(f"echo server listening on {port}", file=sys.stderr, flush=True)
    await server.wait_closed()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "echo"))
