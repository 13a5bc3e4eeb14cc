"""Rules that games found wrong, over real connections: team wins, what elimination
lasts, dealing from an empty pile, a multi-deck player leaving, card definitions that
look like colour codes, repeated votes, leaving after resigning, and saved decks that
keep their card numbers and histories."""

from __future__ import annotations

import asyncio

from tests.players import ScriptedPlayer, flat
from tests.server_process import PROGRAM, ROOT


async def room_of(server, names, room="Parlour", cards=0):
    """Players seated in a new room, the first its host, with ``cards`` plain Things loaded."""
    players = [await ScriptedPlayer.connect(server.port, name) for name in names]
    await players[0].ask(f"newroom {room}")
    for i in range(cards):
        await players[0].ask(f"loadcard Card {i}/T/Plain {i}.")
    for player in players[1:]:
        await player.ask(f"join {room}")
    return players


async def check(database_url: str) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        *PROGRAM,
        "check",
        "--database-url",
        database_url,
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await process.communicate()
    return process.returncode, out.decode()


async def test_a_card_named_like_a_colour_code_is_read_in_the_archive_form(server):
    (ann,) = await room_of(server, ["Ann"])
    reply = flat(await ann.ask("loadcard Gun/T/Roll a die: on 5/6, destroy a Thing."))
    assert "You add a card to the deck: #1 Gun (Thing): Roll a die: on 5/6, destroy a Thing." in reply
    reply = flat(await ann.ask("loadcard Ruby/A/Take 1/2 of the discard pile."))
    assert "#2 Ruby (Action): Take 1/2 of the discard pile." in reply
    # The Dvorax form, with a colour code in front, is still read as such.
    reply = flat(await ann.ask("loadcard hw/Bug/Thing - Pest/Eats 1/3 of a Thing."))
    assert "#3 Bug (Thing - Pest): Eats 1/3 of a Thing." in reply
