"""Players who are away, coming back, and rooms that end: over real connections.

Away players stop counting in votes after a grace period (and count again when back);
a player who comes back sees the table, their hand and what was said; a spectator comes
back watching; a host deletes a room, an unused one is archived, and neither leaves the
audit unsound."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta

from sqlalchemy import select, text

from persistence.database import Database
from persistence.models import Account, Room
from server.audit import check_rooms, replay_rooms
from tests.client import MudClient
from tests.conftest import WELCOME_END
from tests.players import ScriptedPlayer, flat, seated_at
from tests.server_process import run_cli

GRACE = 0.4


async def table_of(server, names, room="Table One", cards=8):
    return await seated_at(server.port, names, room, cards)


async def come_back(server, name: str) -> MudClient:
    client = await MudClient.open(server.port)
    await client.expect(WELCOME_END)
    client.send(f"connect {name} secret1")
    return client


async def assert_sound(server) -> None:
    reports = await check_rooms(server.database) + await replay_rooms(server.database)
    assert [r.problems for r in reports if r.problems] == []


# -- 23: away players and the vote ------------------------------------------------------


async def test_an_away_player_stops_counting_after_the_grace_and_counts_again_when_back(start_server):
    server = await start_server(away_grace_seconds=GRACE)
    ann, bo, cy = await table_of(server, ["Ann", "Bo", "Cy"])
    await ann.ask("set vote=unanimous")
    await ann.ask("set halt=on")
    await ann.ask("set turns=off")
    await ann.ask("force start")  # 8 cards: too few for three full hands
    await cy.close()
    await ann.client.expect(r"Cy has disconnected; the seat is kept\.")
    # Within the grace period Cy still counts, and viewvote says Cy is away.
    await ann.ask("newcard Early/T/Proposed while Cy is just gone.")
    await bo.ask("approve 9")
    listing = flat(await ann.ask("viewvote"))
    assert "voters: Ann, Bo, Cy (away)" in listing
    assert "Play waits for the vote" in flat(await ann.ask("draw"))
    # Past it, Cy stops counting: announced, and the vote Cy blocked is decided.
    await ann.client.expect(r"Cy has been away too long: votes are counted without Cy until Cy is back\.", 5)
    await ann.client.expect(r"The vote on #9 Early \(Thing\) is decided: accepted\.")
    assert "Nothing is waiting for a vote." in flat(await ann.ask("viewvote"))
    assert "You draw" in flat(await ann.ask("draw"))
    await ann.ask("newcard Later/T/Proposed while Cy does not count.")
    listing = flat(await bo.ask("viewvote"))
    assert "voters: Ann, Bo; away, not counted: Cy" in listing
    assert "decided: accepted" in flat(await bo.ask("approve 10"))
    # Back, Cy counts again: a new proposal waits for Cy.
    cy_again = await come_back(server, "Cy")
    await cy_again.expect(r"You are back at your seat")
    await ann.client.expect(r"Cy is back and votes again\.")
    await ann.ask("newcard Third/T/Waits for Cy.")
    await bo.ask("approve 11")
    assert "voters: Ann, Bo, Cy)" in flat(await ann.ask("viewvote"))
    cy_again.send("approve 11")
    await ann.client.expect(r"The vote on #11 Third \(Thing\) is decided: accepted\.")
    await cy_again.close()
    await ann.client.expect(r"Cy has been away too long", 5)  # then nothing more happens
    await assert_sound(server)


# -- 24: coming back -------------------------------------------------------------------


async def test_coming_back_mid_game_shows_the_hand_and_what_was_said(server):
    ann, bo = await table_of(server, ["Ann", "Bo"], cards=12)
    await ann.ask("start")
    hand = await bo.hand()
    await bo.close()
    await ann.client.expect(r"Bo has disconnected; the seat is kept\.")
    for i in range(25):
        await ann.ask(f"say line {i} while Bo is out")
    await ann.ask(":waves to the empty chair.")
    back = await come_back(server, "Bo")
    await back.expect(r"You are back at your seat in room Table One\.")
    shown = await back.expect(r"Your hand \(\d+ cards?\):\n((?:  #.*\n)+)")
    assert {int(n) for n in re.findall(r"#(\d+)", shown.group(1))} == {card.number for card in hand}
    caught = await back.expect(r"While you were away:\n((?:.*\n)*?.*Ann waves to the empty chair\.)")
    lines = caught.group(1)
    assert re.search(r'^\[\d\d:\d\d\] Ann says, "line 24 while Bo is out"$', lines, re.MULTILINE)
    assert "line 5 while" not in lines  # bounded: only the last of what was said
    assert "earlier lines said" in lines
    await back.close()


async def test_a_spectator_comes_back_watching_after_a_reconnect_and_a_restart(start_server):
    first = await start_server()
    ann, _ = await table_of(first, ["Ann", "Bo"])
    sam = await ScriptedPlayer.connect(first.port, "Sam")
    await sam.ask("watch table one")
    await sam.close()
    back = await come_back(first, "Sam")
    await back.expect(r"You are back watching room Table One\.")
    await back.expect(r"Watching: Sam\.")
    await back.close()
    await ann.close()
    await first.stop()
    second = await start_server()
    again = await come_back(second, "Sam")
    await again.expect(r"You are back watching room Table One\.")
    again.send("leave")
    await again.expect(r"You leave room Table One\.")
    await again.close()
    third = await come_back(second, "Sam")
    await third.expect(r"Players here: Sam\.")
    await third.close()


# -- 25: rooms listed, deleted, archived -----------------------------------------------


async def test_rooms_lists_long_names_whole(server):
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    name = "Thirty Character Room Name Xyz"
    await ann.ask(f"newroom {name}")
    await ann.ask("leave")
    listing = await ann.ask("rooms")
    assert re.search(rf"^{name} +Dvorak +waiting +0 no +0: -$", listing, re.MULTILINE)
    assert "Seats, in turn order" in flat(await ann.ask(f"join {name}"))


async def test_the_host_deletes_a_room_after_confirming_and_its_name_is_free(server):
    ann, bo = await table_of(server, ["Ann", "Bo"])
    sam = await ScriptedPlayer.connect(server.port, "Sam")
    await sam.ask("watch table one")
    assert flat(await ann.ask("delroom")) == "Usage: delroom <room> or delroom <room>=yes or delroom <room>=force"
    assert "Only the host (Ann) can delete room Table One." in flat(await bo.ask("delroom table one"))
    assert 'There is no room called "Nowhere"' in flat(await ann.ask("delroom Nowhere=yes"))
    asked = flat(await ann.ask("delroom table one"))
    assert "To delete room Table One, type: delroom Table One=yes" in asked
    await ann.ask("force start")  # 8 cards: too few for two full hands
    refused = flat(await ann.ask("delroom table one=yes"))
    assert "A game is running in room Table One" in refused and "delroom Table One=force" in refused
    assert "You delete room Table One." in flat(await ann.ask("delroom Table One=force"))
    for player in (bo, sam):
        await player.client.expect(r"Ann deletes room Table One\. You are in the lobby\.")
    assert "There are no rooms yet." in flat(await bo.ask("rooms"))
    assert "That command is used at a game table." in flat(await sam.ask("hand"))
    assert "You made room Table One" in flat(await bo.ask("newroom Table One"))
    await assert_sound(server)
    async with server.database.snapshot() as connection:
        names = (await connection.execute(select(Room.name, Room.archived_at.is_not(None)))).all()
    assert sorted(names) == [("Table One", False), ("Table One", True)]


async def test_a_room_unused_for_the_archive_time_is_archived_with_its_log(start_server):
    server = await start_server(room_archive_seconds=0.5)
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    await ann.ask("newroom Old Table")
    await ann.ask("loadcard Kept/T/In the log.")
    await ann.ask("newroom Busy Table")  # Ann is in Busy Table: it stays
    await asyncio.sleep(1.5)
    listing = flat(await ann.ask("rooms"))
    assert "Busy Table" in listing and "Old Table" not in listing
    assert 'There is no room called "old table"' in flat(await ann.ask("join old table"))
    async with server.database.snapshot() as connection:
        archived = (await connection.execute(select(Room.name).where(Room.archived_at.is_not(None)))).scalars()
        assert list(archived) == ["Old Table"]
    await assert_sound(server)


async def test_a_database_made_before_archives_and_watching_carries_on(start_server, database_url):
    server = await start_server()
    ann, bo = await table_of(server, ["Ann", "Bo"])
    await ann.ask("start")
    sam = await ScriptedPlayer.connect(server.port, "Sam")
    await sam.ask("watch table one")
    for player in (ann, bo, sam):
        await player.close()
    await server.stop()
    database = Database(database_url)
    try:
        await database.downgrade("0004")
        await database.upgrade()
        assert [r.problems for r in await check_rooms(database) + await replay_rooms(database)] == [[]] * 2
        async with database.snapshot() as connection:
            watching = (await connection.execute(select(Account.watching_room_id))).scalars()
            assert set(watching) == {None}
    finally:
        await database.dispose()
    again = await start_server()
    bo = await ScriptedPlayer.connect(again.port, "Bo", create=False)
    assert "Your hand (" in await bo.ask("hand")
    ann = await ScriptedPlayer.connect(again.port, "Ann", create=False)
    assert "You delete room Table One." in flat(await ann.ask("delroom table one=force"))


async def test_prune_deletes_for_good_the_rooms_archived_long_ago_and_nothing_else(start_server, database_url):
    """What an operator does with the event logs of rooms nobody can reach any more
    (docs/operators.md, "How the database grows"): ``dvorak-mush prune``."""
    server = await start_server()
    ann, bo = await table_of(server, ["Ann", "Bo"], room="Old Table")
    await ann.ask("start")
    await ann.ask("draw")
    assert "You delete room Old Table." in flat(await ann.ask("delroom Old Table=force"))
    await ann.ask("newroom Kept")
    await ann.ask("loadcard Keep/T/Kept.")
    async with server.database.transaction() as connection:
        await connection.execute(
            text("UPDATE rooms SET archived_at = :when WHERE archived_at IS NOT NULL"),
            {"when": datetime.now(UTC) - timedelta(days=40)},
        )

    def counts() -> str:
        return "SELECT (SELECT count(*) FROM rooms), (SELECT count(*) FROM events), (SELECT count(*) FROM cards)"

    async with server.database.snapshot() as connection:
        rooms, events, cards = (await connection.execute(text(counts()))).one()
    assert rooms == 2 and cards == 9
    said = await run_cli(database_url, "prune", "--archived-days", "60")
    assert said.startswith("No room was archived before")
    said = await run_cli(database_url, "prune", "--archived-days", "30")
    assert said.startswith("Deleted 1 room archived before") and "Old Table" in said
    async with server.database.snapshot() as connection:
        left = (await connection.execute(text(counts()))).one()
        joined = "SELECT count(*) FROM events e JOIN rooms r ON r.id = e.room_id"
        kept_events = (await connection.execute(text(joined))).scalar_one()
    assert left[0] == 1 and left[2] == 1 and left[1] == kept_events < events
    await assert_sound(server)
    assert "Keep" in flat(await ann.ask("viewall"))
