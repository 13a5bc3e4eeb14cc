"""Gnav rooms end to end, over real connections: whole matches against computer players,
restarts and kills mid-deal, byte-level secrecy for players and spectators (text and
GMCP), a table pausing while its people are gone, the turn timer, refusals, fuzzing."""

from __future__ import annotations

import asyncio
import random
import re
import signal
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from commands.dispatch import in_a_room
from commands.gnav.render import card_name
from games.base import Event
from games.gnav import rules as gnav_rules
from games.gnav.cards import english
from i18n import shown
from persistence.database import Database
from persistence.models import GameResult
from tests.gnav_players import (
    QUICK_DEALS_PROGRAM,
    Human,
    allowed_names,
    audit,
    connect,
    deals_in,
    gmcp_leaks,
    gmcp_tables,
    leaks,
    play,
    policy_leaks,
    stored_log,
)
from tests.players import flat, loosely
from tests.server_process import ServerProcess
from tests.test_hostile import LineClient, ServerThread
from tests.test_hostile import arguments as hostile_arguments


@pytest.fixture
def quick_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """The next deal comes 0.05 s after a settlement instead of 3 s (in this process's
    servers), so that whole matches take a moment."""
    monkeypatch.setattr(gnav_rules, "DEAL_PAUSE", 0.05)


async def room_seq(server, name: str) -> int:
    room = await server.rooms.find(name)
    assert room is not None
    return room.seq


async def test_a_player_plays_a_whole_match_against_three_computer_players(server, quick_deals):
    hana = await connect(server.port, "Hana")
    games = flat(await hana.ask("games"))
    assert "dvorak Dvorak:" in games and "gnav Gnav:" in games
    made = flat(await hana.ask("newroom/gnav Fjord"))
    assert "You made room Fjord (Gnav) and are its host." in made
    for level, name in (("easy", "Olga"), ("normal", "Sven"), ("strong", "Astrid")):
        assert f"{name} (bot, {level}) takes a seat." in await hana.ask(f"addbot {level}")
    assert "You set botdelay to 0.0." in await hana.ask("set botdelay=0")
    assert "A match of Gnav begins: 3 lives each." in await hana.ask("start")

    end = await play([hana], random.Random(1))
    assert end is None
    ending = re.search(r"^(?:.* wins? the match!|The match is a draw.*)$", hana.client.transcript, re.MULTILINE)
    assert ending is not None

    async with server.database.snapshot() as connection:
        results = (await connection.execute(select(GameResult.result, GameResult.players))).all()
    assert len(results) == 1, results
    stored, players = results[0]
    # Kept as a message, each reader shown it in their language: read here in English.
    result = shown(stored)
    assert players == ["Hana", "Olga", "Sven", "Astrid"]
    assert re.fullmatch(r"(Hana|Olga|Sven|Astrid) won the match\.|A draw: .*", result), result

    rooms = flat(await hana.ask("rooms"))
    assert "Fjord Gnav" in rooms and "Olga (bot), Sven (bot), Astrid (bot)" in rooms
    who = flat(await hana.ask("WHO"))
    assert "Computer players: Olga (Fjord), Sven (Fjord), Astrid (Fjord)." in who
    look = flat(await hana.ask("look"))
    assert f"The match is over. {result} The host starts a new one with: start" in look
    for marked in ("Olga (bot, easy)", "Sven (bot, normal)", "Astrid (bot, strong)"):
        assert marked in look
    assert await audit(server.database) == []


# -- restarts -------------------------------------------------------------------------


async def seq_and_last(database_url: str, room: str) -> tuple[int, str, int]:
    """The room's stored seq, and its last event's kind and data["player"] (or 0)."""
    log = await stored_log(database_url, room)
    last = log[-1].event
    return log[-1].seq, last.kind, last.data.get("player", 0)


async def before_a_bot(human: Human) -> bool:
    """Whether it is ``human``'s turn in deal 2 or later with a computer player, still in
    the match, next in the order of play (as their look tells it)."""
    number, dealing = human.deal()
    if number < 2 or dealing:
        return False
    look = await human.ask("look")
    human.read_all()  # the look says it is their turn again: not a new turn
    order = re.search(r"Order of play: ((?:\w+, )*\w+)", flat(look))
    assert order is not None, look
    names = order.group(1).split(", ")
    following = names[names.index("you") + 1]
    row = re.search(rf"^[ >] {following} \(bot, \w+\)(.*)$", look, re.MULTILINE)
    return row is not None and "out" not in row.group(1)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL], ids=["stopped", "killed"])
async def test_after_a_restart_mid_deal_everyone_has_their_seat_and_card_and_a_pending_bot_turn_resumes(
    database_url, tmp_path, signum
):
    node = ServerProcess(database_url, tmp_path, QUICK_DEALS_PROGRAM)
    await node.start()
    ann = await connect(node.port, "Ann")
    await ann.ask("newroom/gnav Hall")
    await ann.ask("addbot normal Olga")
    bo = await connect(node.port, "Bo")
    assert "You take a seat at the Gnav table." in await bo.ask("join hall")
    await ann.ask("addbot easy Sven")
    await ann.ask("set botdelay=0")
    await ann.ask("set lives=9")  # no match ends before a person's turn in deal 2
    cy = await connect(node.port, "Cy")
    assert "Watching: Cy." in flat(await cy.ask("watch hall"))
    await ann.ask("start")

    # Play until a person's turn in deal 2 or later, with a computer player next.
    rng = random.Random(2)
    holder = await play([ann, bo], rng, stop=before_a_bot)
    assert holder is not None, "the match ended too soon"
    paused_deal = holder.deal()[0]
    other = bo if holder is ann else ann
    card = {human.name: await human.ask("hand") for human in (ann, bo)}
    assert re.fullmatch(r"Your card: \S+\.\n", card[holder.name]), card
    assert "You are watching, so you hold no card." in await cy.ask("hand")

    assert await node.stop(signum) == (-signum if signum == signal.SIGKILL else 0)
    for human in (ann, bo, cy):
        await human.close()

    node = ServerProcess(database_url, tmp_path, QUICK_DEALS_PROGRAM)
    await node.start()
    try:
        back = {name: await connect(node.port, name, create=False) for name in ("Ann", "Bo")}
        ann, bo = back["Ann"], back["Bo"]
        holder, other = back[holder.name], back[other.name]
        for human in (ann, bo):
            assert "You are back at your seat in room Hall." in flat(human.client.transcript)
            assert await human.ask("hand") == card[human.name]
        assert "It is your turn: keep or swap." in await holder.ask("look")
        cy = await connect(node.port, "Cy", create=False)
        assert "You are back watching room Hall." in flat(cy.client.transcript)

        # The holder keeps; the bot after them waits its delay; everyone leaves before it ends.
        await ann.ask("set botdelay=1.5")
        assert "You keep your card." in await holder.ask("keep")
        bot = (await holder.until(r"^It is (\w+)'s turn\.$")).group(1)
        assert bot in ("Olga", "Sven")
        for human in (ann, bo, cy):
            await human.close()
        assert await node.stop(signum) == (-signum if signum == signal.SIGKILL else 0)
        paused_at, kind, player = await seq_and_last(database_url, "Hall")
        assert kind == "turn" and player < 0, "the bot moved before its people had all gone"

        node = ServerProcess(database_url, tmp_path, QUICK_DEALS_PROGRAM)
        await node.start()
        await asyncio.sleep(0.5)
        assert (await seq_and_last(database_url, "Hall"))[0] == paused_at  # nobody is back yet
        other = await connect(node.port, other.name, create=False)
        holder = await connect(node.port, holder.name, create=False)
        await other.until(rf"\b{bot}\b")
        log = await stored_log(database_url, "Hall")
        moved = [logged.event for logged in log if logged.seq > paused_at]
        assert moved and moved[0].actor == player, [(e.kind, e.actor) for e in moved]
        # Play goes on to the next deal (or the match's end).
        await play([holder, other], rng, stop=lambda human: human.deal()[0] > paused_deal)
        kinds = {
            (logged.event.kind, logged.event.data.get("deal")) for logged in await stored_log(database_url, "Hall")
        }
        assert ("deal", paused_deal + 1) in kinds or {"win", "draw"} & {kind for kind, _ in kinds}
        database = Database(database_url)
        try:
            assert await audit(database) == []
        finally:
            await database.dispose()
    finally:
        await node.stop(signal.SIGKILL)


# -- secrecy --------------------------------------------------------------------------


async def test_no_client_is_ever_sent_a_hidden_card_the_policy_did_not_show_it(server, quick_deals):
    ann = await connect(server.port, "Ann")
    await ann.ask("newroom/gnav Den")
    await ann.ask("addbot strong")
    bo = await connect(server.port, "Bo", gmcp=True)
    await bo.ask("join den")
    await ann.ask("addbot normal")
    await ann.ask("set botdelay=0")
    await ann.ask("set lives=2")
    cy = await connect(server.port, "Cy")
    await cy.ask("watch den")
    di = await connect(server.port, "Di", gmcp=True)
    await di.ask("watch den")
    await ann.ask("start")

    async def looking(human: Human) -> None:
        await human.ask("hand")
        for watcher in (cy, di):
            await watcher.ask("look")
            await watcher.ask("hand")

    room = await server.rooms.find("den")
    rng = random.Random(3)
    for match in range(3):
        # The bots play as they like: a match may end before the people swapped at all;
        # then another is played, and every match's log is checked.
        if match:
            await ann.ask("start")
        assert await play([ann, bo], rng, swap_share=0.8, after_move=looking) is None
        log = await room.events()
        swaps = [event for deal in deals_in(log).values() for event in deal.events if event.kind == "swap"]
        if len(deals_in(log)) >= 2 and swaps:
            break
    for client in (ann, bo, cy, di):
        await client.client.quiet(0.2)

    log = await room.events()
    state = room.table.state
    ids = {seat.name: seat.account_id for seat in state.seats}
    ids |= {player.name: player.account_id for player in room.occupants.values()}
    assert len(deals_in(log)) >= 2 and swaps, "too little was played to check anything"
    for viewer in (ann, bo, cy, di):
        assert policy_leaks(log, state, ids[viewer.name]) == []
        assert leaks(viewer.client.transcript, log, ids[viewer.name]) == []
    for spectator in (cy, di):
        assert "Your card" not in spectator.client.transcript
        assert not re.search(r"You swap|swaps with you", spectator.client.transcript)

    # GMCP: each Gnav.Table holds the reader's own card and what was shown to all, only.
    assert gmcp_tables(bo.client) and gmcp_tables(di.client)
    assert gmcp_leaks(bo.client, log, ids["Bo"]) == []
    assert gmcp_leaks(di.client, log, ids["Di"]) == []
    assert all(table.get("card") is None and table.get("you") is None for table in gmcp_tables(di.client))
    assert {table.get("card") for table in gmcp_tables(bo.client)} - {None}

    # The oracle would see a leak: a swap's cards, as its asker read them, put into the
    # spectator's transcript in that deal.
    deals = deals_in(log)
    number, swap = next(
        (number, event)
        for number, deal in deals.items()
        for event in deal.events
        if event.kind == "swap" and not {english(card) for card in secrets(event)} <= allowed_names(deal, ids["Cy"])
    )
    leaked = cy.client.transcript.replace(f"Deal {number}: ", f"Deal {number}: {swap_line(swap)} ", 1)
    assert leaked != cy.client.transcript
    assert leaks(leaked, log, ids["Cy"]) != []
    assert await audit(server.database) == []


def secrets(event: Event) -> list[str]:
    """The cards a swap exchanged (its private fields)."""
    secret = event.data["private"][0][1]
    return [secret["gave"], secret["got"]]


def swap_line(event: Event) -> str:
    """What a swap's asker reads of it: the two cards exchanged."""
    gave, got = secrets(event)
    return f"You swap {card_name(gave)} for someone's {english(got)}."


# -- the table's own moves --------------------------------------------------------------


async def test_a_table_whose_people_have_all_gone_away_plays_on_without_them(server, quick_deals):
    """Issue 45: a table waited for ever once its people had all gone away; one person
    away among two was timed out. Now the computer players play on and the turn timer
    runs for the people away, as it would for one of two."""
    ann = await connect(server.port, "Ann")
    await ann.ask("newroom/gnav Pause")
    await ann.ask("addbot normal Olga")
    bo = await connect(server.port, "Bo")
    await bo.ask("join pause")
    await ann.ask("addbot easy Sven")
    await ann.ask("set botdelay=0.3")
    await ann.ask("set turntime=10")
    await ann.ask("start")
    holder = await play([ann, bo], random.Random(4), stop=lambda human: True)
    assert holder is not None
    other = bo if holder is ann else ann
    await other.close()
    await holder.until(rf"{other.name} has disconnected")
    assert "You keep your card." in await holder.ask("keep")
    await holder.close()

    room = await server.rooms.find("pause")
    for _ in range(100):
        if not room.occupants:
            break
        await asyncio.sleep(0.02)
    assert not room.occupants
    gone_at = room.seq
    bots = {seat.account_id for seat in room.table.state.seats if seat.bot}
    for _ in range(1500):
        since = [logged.event for logged in await room.events(after_seq=gone_at)]
        # Both a person's turn timed out and a computer player moved (in either order).
        if any(e.kind == "timeout" for e in since) and any(e.actor in bots for e in since):
            break
        await asyncio.sleep(0.02)
    made = [logged.event for logged in await room.events(after_seq=gone_at)]
    assert any(event.kind == "timeout" for event in made), [event.kind for event in made]
    assert any(event.actor in (bot.account_id for bot in room.table.state.seats if bot.bot) for event in made)

    back = await connect(server.port, other.name, create=False)
    assert "You are back at your seat in room Pause." in flat(back.client.transcript)
    assert await audit(server.database) == []


async def test_a_person_who_lets_the_turn_time_run_out_keeps_their_card(server):
    hana = await connect(server.port, "Hana")
    await hana.ask("newroom/gnav Clock")
    await hana.ask("addbot")
    await hana.ask("addbot")
    await hana.ask("set botdelay=0")
    assert "You set turntime to 10." in await hana.ask("set turntime=10")
    await hana.ask("start")
    await hana.until(loosely("It is your turn: keep or swap. (In 10 seconds you keep your card.)").pattern)
    await hana.until(r"^Time is up: you keep your card\.$", timeout=15)
    room = await server.rooms.find("clock")
    timeouts = [logged.event for logged in await room.events() if logged.event.kind == "timeout"]
    assert [event.data["player"] for event in timeouts] == [room.table.state.seats[0].account_id]
    assert await audit(server.database) == []


# -- refusals ---------------------------------------------------------------------------


async def test_refusals_say_why_in_a_sentence_and_change_nothing(server):
    ann = await connect(server.port, "Ann")
    await ann.ask("newroom/gnav Fjord")
    bo = await connect(server.port, "Bo")
    await bo.ask("join fjord")
    room = await server.rooms.find("fjord")

    async def refused(who: Human, command: str, answer: str) -> None:
        before = room.seq
        reply = flat(await who.ask(command))
        assert answer in reply, reply
        assert room.seq == before, f"{command!r} changed the room"

    await refused(bo, "addbot", "Only the host (Ann) can do that.")
    await refused(ann, "set lives=0", "lives is a whole number from 1 to 9.")
    await refused(ann, "newroom/chess X", 'There is no game "chess". Games: dvorak, gnav, ys (type "games").')
    await refused(ann, "addbot grandmaster", "Which level? easy, normal, strong.")
    for _ in range(6):
        await ann.ask("addbot")
    assert len(room.table.state.seats) == 8
    await refused(ann, "addbot", "This table is full: Gnav seats at most 8.")
    cy = await connect(server.port, "Cy")
    await refused(cy, "join fjord", "This table is full: Gnav seats at most 8.")
    assert "Cy" not in [seat.name for seat in room.table.state.seats]

    di = await connect(server.port, "Di")
    await di.ask("newroom/gnav Solo")
    solo = await server.rooms.find("solo")
    before = solo.seq
    assert "Gnav needs at least two players (add a computer player: addbot normal)." in flat(await di.ask("start"))
    assert solo.seq == before

    await ann.ask("set botdelay=10")
    await ann.ask("start")
    await refused(ann, "removebot Olga", "Computer players play a match to its end; remove them after it.")
    turn = room.table.state.turn
    idle = bo if turn == room.table.state.seats[0].account_id else ann
    await refused(idle, "keep", f"It is {room.table.name_of(turn)}'s turn, not yours.")
    await cy.ask("watch fjord")
    await refused(cy, "swap", "Only players seated at this table can do that.")
    await refused(cy, "keep", "Only players seated at this table can do that.")
    await refused(bo, "set botdelay=0", "Only the host (Ann) can do that.")
    assert await audit(server.database) == []


# -- hostile input ----------------------------------------------------------------------

#: Every command usable in a Gnav room, but those that end the session.
gnav_command_names = sorted(
    {name for command_set in in_a_room("gnav") for c in command_set.commands for name in (c.key, *c.aliases)}
    - {"QUIT", "LOGOUT"}
)
gnav_arguments = st.one_of(
    hostile_arguments,
    st.lists(
        st.sampled_from(
            [
                "easy",
                "normal",
                "strong",
                "Olga",
                "Sven",
                "Astrid",
                "lives=1",
                "botdelay=0",
                "turntime=10",
                "lives",
                "=",
                "-1",
                "nan",
                "1e9",
                "Host",
                "Fuzzer",
                "fuzz",
            ]
        ),
        max_size=4,
    ).map(" ".join),
)
gnav_command_lines = st.tuples(st.sampled_from(gnav_command_names), gnav_arguments).map(" ".join)


@pytest.fixture
def gnav_fuzz_server(settings, quick_deals):  # type: ignore[no-untyped-def]
    running = ServerThread(replace(settings, command_burst=10_000))
    host = LineClient(running.server.port)
    for line in ["create Host secret1", "newroom/gnav Fuzz", "addbot easy", "addbot strong", "set botdelay=0", "WHO"]:
        host.send(line)
    host.read_until(b"player connected.")
    player = LineClient(running.server.port)
    for line in ["create Fuzzer secret1", "join fuzz", "WHO"]:
        player.send(line)
    player.read_until(b"players connected")
    host.send("start")
    host.send("WHO")
    host.read_until(b"players connected")
    yield running, player
    player.close()
    host.close()
    running.stop()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(gnav_command_lines, min_size=1, max_size=20))
def test_random_commands_in_a_gnav_room_with_bots_never_break_it(gnav_fuzz_server, lines):
    running, player = gnav_fuzz_server
    player.run_all(["join fuzz", *lines])
    assert running.call(audit(running.server.database)) == []
