"""Clients that are not UTF-8, over a raw TCP connection, byte for byte: ``@charset`` for
a client that cannot say its character set, text read back in it, what it lacks written
in ASCII letters, and a byte it cannot mean replaced, never an error."""

from __future__ import annotations

import asyncio

from tests.players import ScriptedPlayer

#: How long to wait for the server's answer to a line.
PATIENCE = 10.0


class RawClient:
    """A telnet client that answers no option and reads bytes as they come."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.received = b""

    @classmethod
    async def open(cls, port: int) -> RawClient:
        client = cls(*await asyncio.open_connection("127.0.0.1", port))
        await client.until(b'create "Jo Smith" <password>')
        return client

    def send(self, line: bytes) -> None:
        self.writer.write(line + b"\r\n")

    async def until(self, wanted: bytes) -> bytes:
        """Everything received until ``wanted`` is (kept from then on)."""
        async with asyncio.timeout(PATIENCE):
            while wanted not in self.received:  # noqa: ASYNC110
                chunk = await self.reader.read(4096)
                assert chunk, f"closed before {wanted!r}: {self.received[-300:]!r}"
                self.received += chunk
        seen, _, self.received = self.received.partition(wanted)
        return seen + wanted

    async def close(self) -> None:
        self.writer.close()


async def test_a_cp1250_client_types_and_reads_czech_and_an_ascii_one_reads_it_without_accents(server):
    zhanna = await ScriptedPlayer.connect(server.port, "Жанна")
    ota = await RawClient.open(server.port)
    ota.send(b"create Ota heslo123")
    await ota.until(b"Players here:")
    ota.send(b"@charset cp1250")
    assert b"in CP1250 from now on: \xc8ajov\xf2a, Zhanna." in await ota.until(b"Zhanna.")

    # Typed in CP1250, the room is Čajovňa; the reply names it in CP1250, byte for byte.
    ota.send(b"newroom \xc8ajov\xf2a")
    await ota.until(b"You made room \xc8ajov\xf2a (Dvorak)")
    assert "Čajovňa" in await zhanna.ask("rooms")

    # A byte CP1250 does not mean is read as a replacement character, and the line goes on.
    ota.send(b"say caf\x81e")
    await ota.until(b'You say, "caf?e"')
    await zhanna.ask("watch Cajovna")

    # In ASCII: letters without their accents, Cyrillic in Latin letters.
    ota.send(b"@charset ascii")
    await ota.until(b"in ASCII from now on: Cajovna, Zhanna.")
    ota.send(b"WHO")
    assert b"Zhanna " in await ota.until(b"players connected.")
    ota.send(b"@charset koi8-r")
    await ota.until("Жанна.".encode("koi8-r"))
    ota.send(b"@charset auto")
    await ota.until("Жанна.".encode())
    ota.send(b"@charset ebcdic")
    await ota.until(b"Which character set? Usage: @charset")
    ota.send(b"WHO")
    assert "Жанна".encode() in await ota.until(b"players connected.")
    await ota.close()


async def test_lines_typed_together_are_each_answered_in_the_character_set_chosen_when_written(server):
    zhanna = await ScriptedPlayer.connect(server.port, "Жанна")
    ota = await RawClient.open(server.port)
    ota.send(b"create Ota heslo123")
    await ota.until(b"Players here:")
    # Typed at once, their answers are queued together: each keeps its own character set.
    ota.send(b"@charset ascii\r\nWHO\r\n@charset cp1250\r\n@charset auto")
    seen = await ota.until("UTF-8 from now on: Čajovňa, Жанна.".encode())
    assert b"ASCII from now on: Cajovna, Zhanna." in seen
    assert b"\nZhanna " in seen.replace(b"\r", b"")
    assert b"CP1250 from now on: \xc8ajov\xf2a, Zhanna." in seen
    await ota.close()
    await zhanna.close()
