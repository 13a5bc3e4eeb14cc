"""Issue 46's soak: what a connection or a room leaves behind once it is gone. The server
collects the oldest generation of objects rarely (server.cli.tune_interpreter), so a
connection or room whose objects point at each other would stay in memory long after it
closed: every one of them must be freed by reference counting alone, the moment its
session ends or the room is deleted."""

from __future__ import annotations

import asyncio
import gc
from collections import Counter

from tests.client import MudClient
from tests.conftest import WELCOME_END, log_in
from tests.web_client import WebClient, web_log_in

#: The server's objects of one connection, by class name: none may be left in a cycle.
CONNECTION_CLASSES = {
    "MushTelnetServer",
    "MushTelnetWriter",
    "TelnetReaderUnicode",
    "TelnetConnection",
    "WebConnection",
    "OnlinePlayer",
    "LineSplitter",
    # aiohttp's, of a web page's socket
    "RequestHandler",
    "WebSocketResponse",
    # a room's, with its game's table
    "GameRoom",
    "Table",
    "GnavTable",
    "YsTable",
}


async def left_in_cycles(play) -> Counter[str]:  # type: ignore[no-untyped-def]
    """The server's connection and room objects that ``play`` left for the collector to find."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        await play()
        await asyncio.sleep(0.5)  # the sessions' ends, after the sockets close
        gc.collect()
        return Counter(type(o).__name__ for o in gc.garbage if type(o).__name__ in CONNECTION_CLASSES)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


async def test_a_telnet_player_gone_leaves_nothing_for_the_collector(server):
    async def come_and_go() -> None:
        for number in range(3):
            client = await MudClient.open(server.port)
            await client.expect(WELCOME_END)
            await log_in(client, f"Visitor{number}")
            await client.command("look", r"Players here")
            client.send("quit")
            await client.wait_closed()

    assert await left_in_cycles(come_and_go) == Counter()


async def test_a_web_player_gone_leaves_nothing_for_the_collector(server):
    async def come_and_go() -> None:
        for number in range(3):
            page = await WebClient.open(server.web_port)
            await web_log_in(page, f"Surfer{number}")
            await page.close()

    assert await left_in_cycles(come_and_go) == Counter()


async def test_a_deleted_room_leaves_nothing_for_the_collector(server):
    async def make_and_delete() -> None:
        client = await MudClient.open(server.port)
        await client.expect(WELCOME_END)
        await log_in(client, "Builder")
        for game in ("dvorak", "gnav", "ys"):
            await client.command(f"newroom/{game} Passing{game}", r"You made room")
            await client.command(f"delroom Passing{game}=force", r"You delete room")
        client.send("quit")
        await client.wait_closed()

    assert await left_in_cycles(make_and_delete) == Counter()
