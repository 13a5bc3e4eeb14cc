"""A bare telnetlib3 server, the ceiling the benchmark compares against.

It negotiates like the MUSH (line mode, UTF-8) and answers every line at once, framed by
OUTPUTPREFIX/OUTPUTSUFFIX like the MUSH's replies. It stores nothing. In ``broadcast`` mode
every line is also sent to every other connection, as chat in one room is; in ``rooms``
mode to the other four of its group of five (connections in the order they came), as a
move at a table is.

    python -m bench.echo_server echo|broadcast|rooms   (port from DVORAK_PORT)
"""

from __future__ import annotations

import asyncio
import os
import sys

import telnetlib3

connections: set[telnetlib3.TelnetWriterUnicode] = set()
groups: list[list[telnetlib3.TelnetWriterUnicode]] = []


async def shell(reader: telnetlib3.TelnetReaderUnicode, writer: telnetlib3.TelnetWriterUnicode, mode: str) -> None:
    writer.write("echo server\r\ncreate <name> <password>\r\n=\r\n")
    prefix = suffix = ""
    connections.add(writer)
    if not groups or len(groups[-1]) == 5:
        groups.append([])
    group = groups[-1]
    group.append(writer)
    audience = connections if mode == "broadcast" else group if mode == "rooms" else ()
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
                heard = f"Someone: {line}\r\n"
                for other in audience:
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
        shell=lambda r, w: shell(r, w, mode),
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
