"""Migrations carry existing databases over: a database the release of schema revision
0005 made, with a game in progress and votes pending, upgraded to today's schema on
SQLite and PostgreSQL.

The rows are ``tests/data/schema_0005_game.json``, made by that release's own server
(``tests/data/make_schema_0005_fixture.py`` says how), with what that release loaded of
each room. An empty database is brought to 0005, the rows put in, and the migrations
after 0005 run as a server would run them: nothing may be lost, ``check`` and
``replay`` must find every room sound, and the game must go on over real connections.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import MetaData, func, inspect, select, text
from sqlalchemy.engine import Connection

from persistence.accounts import name_skeleton
from persistence.database import Database
from persistence.rooms import RoomStore
from server.audit import check_rooms, replay_rooms
from tests.players import ScriptedPlayer, flat

FIXTURE = json.loads((Path(__file__).parent / "data" / "schema_0005_game.json").read_text())
OLD_REVISION = FIXTURE["revision"]
#: The columns of ``rooms`` that 0006 carries into ``rooms.state``, and the snapshot's keys for them.
SNAPSHOT_KEYS = {
    "turn": "turn",
    "result": "result",
    "next_card_number": "next_number",
    "next_proposal": "next_proposal",
}
#: The columns the migrations after 0005 add to tables whose rows they otherwise keep,
#: and what every existing row holds in them.
NEW_COLUMNS = {
    "cards": {"copy_of": None},
    "game_results": {"outcome": "", "winners": None, "deck_version": None},
    "accounts": {
        "role": "player",  # the fixture has no administrator (0008 makes those "admin")
        "muted_until": None,
        "mute_reason": "",
        "locked_at": None,
        "lock_reason": "",
        "delete_after": None,
        "deleted_at": None,
        "language": None,  # 0012: no choice made
    },
    "room_talk": {"speaker_account_id": None},  # 0009: lines kept before it name no speaker
}
#: Tables the migrations after 0005 leave as they were.
UNCHANGED = sorted(set(FIXTURE["tables"]) - {"rooms", "seats", *NEW_COLUMNS})
#: Settings for a server on the migrated database: the fixture's players have been away
#: since it was made and its rooms unused, long ago by now; neither may change the game here.
PATIENT = {"away_grace_seconds": 1e9, "room_archive_seconds": 0.0}


def test_the_fixture_was_made_at_revision_0005_with_a_game_in_progress_and_votes_pending() -> None:
    assert OLD_REVISION == "0005"
    workshop = _room("Workshop")
    assert workshop["phase"] == "playing"
    armageddon = next(p for p in workshop["proposals"] if p["kind"] == "card")
    assert FIXTURE["played"]["missing_voter"] not in armageddon["votes"]
    assert len(armageddon["votes"]) == len(workshop["seats"]) - 1
    assert any(p["kind"] == "edit" for p in workshop["proposals"])


def _room(name: str) -> dict[str, Any]:
    return next(room for room in FIXTURE["rooms"] if room["name"] == name)


def _value(kind: str, value: Any) -> Any:
    """A fixture value as the database takes it."""
    return datetime.fromisoformat(value) if kind == "datetime" and value is not None else value


def _neutral(value: Any) -> Any:
    """A value read from either backend in the fixture's form (datetimes as ISO strings in UTC)."""
    if isinstance(value, datetime):
        return (value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)).isoformat()
    return value


def _reflected(connection: Connection) -> MetaData:
    metadata = MetaData()
    metadata.reflect(connection)
    return metadata


def _insert_fixture(connection: Connection) -> None:
    """Every row of the fixture into the tables of revision 0005 (parents first); then
    PostgreSQL's sequences past the ids given, as if the rows had been made here."""
    metadata = _reflected(connection)
    for table in metadata.sorted_tables:
        if table.name == "alembic_version":
            continue
        dumped = FIXTURE["tables"][table.name]
        kinds = dumped["columns"]
        assert set(kinds) == set(table.columns.keys()), f"{table.name} is not as the fixture's release made it"
        rows = [
            {column: _value(kind, value) for (column, kind), value in zip(kinds.items(), row, strict=True)}
            for row in dumped["rows"]
        ]
        if rows:
            connection.execute(table.insert(), rows)
    if connection.dialect.name == "postgresql":
        for table in metadata.sorted_tables:
            for column in table.primary_key.columns:
                sequence = connection.scalar(select(func.pg_get_serial_sequence(table.name, column.name)))
                highest = connection.scalar(select(func.max(column)))
                if sequence is not None and highest is not None:
                    connection.execute(
                        text("SELECT setval(:sequence, :highest)"), {"sequence": sequence, "highest": highest}
                    )


def _rows(connection: Connection) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table but ``alembic_version``, in the fixture's form, in a
    stable order."""
    metadata = _reflected(connection)
    tables: dict[str, list[dict[str, Any]]] = {}
    for name, table in metadata.tables.items():
        if name == "alembic_version":
            continue
        order = list(table.primary_key.columns) or list(table.columns)
        tables[name] = [
            {column: _neutral(value) for column, value in row._mapping.items()}
            for row in connection.execute(select(table).order_by(*order))
        ]
    return tables


def _fixture_rows(table: str) -> list[dict[str, Any]]:
    dumped = FIXTURE["tables"][table]
    return [dict(zip(dumped["columns"], row, strict=True)) for row in dumped["rows"]]


async def _read(database: Database, work: Any) -> Any:
    async with database.snapshot() as connection:
        return await connection.run_sync(work)


def _schema(connection: Connection) -> dict[str, dict[str, Any]]:
    """Each table's columns (type, nullable, default), keys, references and indexes, in
    no particular order: what a migration down must give back as it was."""
    inspector = inspect(connection)
    return {
        table: {
            "columns": {
                c["name"]: (str(c["type"]), c["nullable"], c.get("default")) for c in inspector.get_columns(table)
            },
            "primary key": inspector.get_pk_constraint(table)["constrained_columns"],
            "references": sorted(
                (fk["name"], fk["constrained_columns"], fk["referred_table"], fk["referred_columns"])
                for fk in inspector.get_foreign_keys(table)
            ),
            "indexes": sorted((i["name"], i["column_names"], i["unique"]) for i in inspector.get_indexes(table)),
            "unique": sorted((u["name"], u["column_names"]) for u in inspector.get_unique_constraints(table)),
        }
        for table in inspector.get_table_names()
    }


async def _database_at_0005(database_url: str) -> Database:
    """A database of ``database_url`` migrated to 0005 and holding the fixture's rows."""
    database = Database(database_url)
    await database.upgrade(OLD_REVISION)
    async with database.transaction() as connection:
        await connection.run_sync(_insert_fixture)
    return database


async def _assert_sound(database: Database) -> None:
    reports = await check_rooms(database) + await replay_rooms(database)
    assert sorted({report.name for report in reports}) == sorted(room["name"] for room in FIXTURE["rooms"])
    assert {report.name: report.problems for report in reports if not report.sound} == {}


async def _assert_rooms_as_the_old_release_loaded_them(database: Database) -> None:
    store = RoomStore(database)
    for room in FIXTURE["rooms"]:
        stored = await store.load(room["id"])
        assert stored is not None
        state = stored.state
        assert (stored.name, stored.game, stored.seq, stored.digest, stored.archived) == (
            room["name"],
            room["game"],
            room["seq"],
            room["digest"],
            room["archived"],
        )
        assert (state.phase, state.host, state.settings) == (room["phase"], room["host"], room["settings"])
        assert dataclasses.asdict(state.turn) == room["turn"]
        assert (state.result, state.next_number, state.next_proposal) == (
            room["result"],
            room["next_number"],
            room["next_proposal"],
        )
        assert [dataclasses.asdict(seat) for seat in state.seats] == [{**seat, "bot": ""} for seat in room["seats"]]
        cards = {str(number): dataclasses.asdict(card) for number, card in state.cards.items()}
        assert cards == {number: {**card, "copy_of": None} for number, card in room["cards"].items()}
        assert sorted([zone, owner, numbers] for (zone, owner), numbers in state.piles.items()) == room["piles"]
        assert dict(Counter(card.zone for card in state.cards.values())) == room["cards_per_zone"]
        names = {seat.account_id: seat.name for seat in state.seats}
        hands = {seat.name: len(state.piles.get(("hand", seat.account_id), [])) for seat in state.seats}
        assert hands == room["hand_sizes"]
        proposals = [
            {**dataclasses.asdict(p), "votes": {names[a]: choice for a, choice in p.votes.items()}}
            for p in state.proposals.values()
        ]
        assert proposals == room["proposals"]


async def test_a_game_in_progress_is_carried_over_with_nothing_lost(database_url: str) -> None:
    database = await _database_at_0005(database_url)
    try:
        await database.upgrade()
        rows = await _read(database, _rows)
        await _assert_sound(database)
        await _assert_rooms_as_the_old_release_loaded_them(database)
    finally:
        await database.dispose()

    for table in UNCHANGED:
        assert rows[table] == _fixture_rows(table), table
    for table, added in NEW_COLUMNS.items():
        expected = [{**row, **added} for row in _fixture_rows(table)]
        if table == "accounts":  # 0010: each name as it looks, filled in
            expected = [{**row, "name_skeleton": name_skeleton(row["name"])} for row in expected]
        assert rows[table] == expected, table
    account_names = {account["id"]: account["name"] for account in _fixture_rows("accounts")}
    assert rows["seats"] == [
        {**seat, "name": account_names[seat["account_id"]], "bot": ""} for seat in _fixture_rows("seats")
    ]
    rooms = []
    for room in _fixture_rows("rooms"):
        rooms.append({column: value for column, value in room.items() if column not in SNAPSHOT_KEYS})
        rooms[-1]["state"] = {key: room[column] for column, key in SNAPSHOT_KEYS.items()}
    assert rows["rooms"] == rooms


async def test_the_game_goes_on_after_the_migration(database_url: str, start_server) -> None:
    database = await _database_at_0005(database_url)
    await database.dispose()
    server = await start_server(**PATIENT)
    passwords, played = FIXTURE["passwords"], FIXTURE["played"]
    workshop = _room("Workshop")
    players = {
        seat["name"]: await ScriptedPlayer.connect(server.port, seat["name"], passwords[seat["name"]], create=False)
        for seat in workshop["seats"]
    }
    spectator = await ScriptedPlayer.connect(server.port, "Ed", passwords["Ed"], create=False)
    try:
        await spectator.ask("look")
        assert "You are back watching room Workshop." in flat(spectator.client.transcript)
        current, hands = await players["Ann"].table()
        assert (current, hands) == (played["current_player"], workshop["hand_sizes"])
        assert "yet to vote: " + played["missing_voter"] in flat(await players["Ann"].ask("viewvote"))

        number = played["armageddon"]
        decided = flat(await players[played["missing_voter"]].ask(f"approve {number}"))
        assert (
            f"*** The vote on #{number} Armageddon (Action) is decided: accepted. It is shuffled into the draw pile."
            in decided
        )
        await spectator.client.expect(rf"The vote on #{number} Armageddon \(Action\) is decided: accepted\.")
        assert "You draw #" in flat(await players[played["current_player"]].ask("draw"))
        _, hands_after = await players["Ann"].table()
        assert hands_after[played["current_player"]] == workshop["hand_sizes"][played["current_player"]] + 1
        edit = next(p for p in workshop["proposals"] if p["kind"] == "edit")
        still_pending = flat(await players["Ann"].ask("viewvote"))
        assert (
            f"proposed words: #{edit['subject']} {edit['face']['name']} (Thing): {edit['face']['text']}"
            in still_pending
        )
        assert f"proposed by {edit['proposer_name']}; approve: {edit['proposer_name']};" in still_pending
    finally:
        for player in (*players.values(), spectator):
            await player.close()
    await _assert_sound(server.database)


async def test_a_downgrade_to_0005_gives_back_the_old_schema_and_rows_and_upgrades_again(database_url: str) -> None:
    database = await _database_at_0005(database_url)
    try:
        schema_at_0005 = await _read(database, _schema)
        await database.upgrade()
        await database.downgrade(OLD_REVISION)
        assert await _read(database, _schema) == schema_at_0005
        rows = await _read(database, _rows)
        assert rows == {table: _fixture_rows(table) for table in FIXTURE["tables"]}
        await database.upgrade()
        await _assert_sound(database)
        await _assert_rooms_as_the_old_release_loaded_them(database)
    finally:
        await database.dispose()
