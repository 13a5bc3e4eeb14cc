"""Gnav rooms end to end, over real connections: whole matches against computer players,
restarts and kills mid-deal, byte-level secrecy for players and spectators (text and
GMCP), a table pausing while its people are gone, the turn timer, refusals, fuzzing."""

from __future__ import annotations

import asyncio
import random
import re
import signal
import sys

import pytest
from sqlalchemy import select

from commands.gnav.render import card_name
from games.base import Event
from games.gnav import rules as gnav_rules
from games.gnav.cards import english
from persistence.database import Database
from persistence.models import GameResult
from tests.gnav_players import (
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
from tests.players import flat
from tests.server_process import ServerProcess


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
    result, players = results[0]
    assert players == ["Hana", "Olga", "Sven", "Astrid"]
    assert re.fullmatch(r"(Hana|Olga|Sven|Astrid) won the match\.|A draw: .*", result), result

    rooms = flat(await hana.ask("rooms"))
    assert "Fjord Gnav" in rooms and "Olga (bot), Sven (bot), Astrid (bot)" in rooms
    who = flat(await hana.ask("WHO"))
    assert "Computer players: Olga (Fjord), Sven (Fjord), Astrid (Fjord)." in who
    look = await hana.ask("look")
    assert "The match is over." in look
    for marked in ("Olga (bot, easy)", "Sven (bot, normal)", "Astrid (bot, strong)"):
        assert marked in look
    assert await audit(server.database) == []


# -- restarts -------------------------------------------------------------------------


async def seq_and_last(database_url: str, room: str) -> tuple[int, str, int]:
    """The room's stored seq, and its last event's kind and data["player"] (or 0)."""
    log = await stored_log(database_url, room)
    last = log[-1].event
    return log[-1].seq, last.kind, last.data.get("player", 0)


#: ``dvorak-mush`` with the next deal 0.05 s after a settlement instead of 3 s.
QUICK_DEALS_PROGRAM = [
    sys.executable,
    "-c",
    "import sys; import games.gnav.rules as rules; rules.DEAL_PAUSE = 0.05; "
    "from server.cli import main; sys.exit(main())",
]


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
    cy = await connect(node.port, "Cy")
    assert "Watching: Cy." in flat(await cy.ask("watch hall"))
    await ann.ask("start")

    # Play until a person's turn in deal 2, not as its dealer: the next to act is a bot.
    rng = random.Random(2)
    holder = await play([ann, bo], rng, stop=lambda human: human.deal()[0] >= 2 and not human.deal()[1])
    assert holder is not None, "the match ended within a deal"
    paused_deal = holder.deal()[0]
    other = bo if holder is ann else ann
    card = {human.name: await human.ask("hand") for human in (ann, bo)}
    assert all(re.fullmatch(r"Your card: \S+\.\n", reply) for reply in card.values()), card
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
        await other.until(rf"\b{bot}\b")
        log = await stored_log(database_url, "Hall")
        moved = [logged.event for logged in log if logged.seq > paused_at]
        assert moved and moved[0].actor == player, [(e.kind, e.actor) for e in moved]
        # Play goes on: the next deal comes, and it is a person's turn again.
        holder = await connect(node.port, holder.name, create=False)
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

    assert await play([ann, bo], random.Random(3), swap_share=0.8, after_move=looking) is None
    for client in (ann, bo, cy, di):
        await client.client.quiet(0.2)

    room = await server.rooms.find("den")
    log = await room.events()
    state = room.table.state
    ids = {seat.name: seat.account_id for seat in state.seats}
    ids |= {player.name: player.account_id for player in room.occupants.values()}
    swaps = [event for deal in deals_in(log).values() for event in deal.events if event.kind == "swap"]
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
