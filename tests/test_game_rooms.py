"""Game rooms end to end: whole games over real connections, secrecy checked byte by byte,
spectators, dropped players, restarts."""

from __future__ import annotations

import asyncio
import re
import signal

from sqlalchemy import select

from games.dvorak.visibility import cards_seen
from i18n import shown
from persistence.models import GameResult
from tests.client import MudClient
from tests.conftest import WELCOME_END
from tests.players import ScriptedPlayer, flat, loosely
from tests.server_process import ServerProcess

DECK_SIZE = 24


def secret_name(i: int) -> str:
    return f"Secret{i:02d}"


async def seat_players(server, names, room="Table One", deck=DECK_SIZE):
    """The first player makes the room and loads a deck no one else sees being loaded;
    the others then join."""
    players = [await ScriptedPlayer.connect(server.port, name) for name in names]
    host = players[0]
    await host.ask(f"newroom {room}")
    for i in range(deck):
        kind = "A" if i % 2 else "T"
        await host.ask(f"loadcard {secret_name(i)}/{kind}/Text of card {i:02d}.")
    for player in players[1:]:
        await player.ask(f"join {room}")
    return players


def visible_to(events, viewer: int) -> set[int]:
    """The cards ``viewer`` may have seen, by the game's visibility policy: everything
    played or moved face up, and the cards drawn or dealt to the viewer."""
    seen: set[int] = set()
    for logged in events:
        seen |= cards_seen(logged.event, viewer)
    return seen


def assert_no_hidden_card_leaked(transcript: str, room, viewer_id: int, events) -> None:
    allowed = visible_to(events, viewer_id)
    for number, card in room.table.state.cards.items():
        if number not in allowed:
            assert card.name not in transcript, f"{card.name} (#{number}) leaked to account {viewer_id}"


async def test_three_players_and_a_spectator_play_a_whole_game(server):
    hana, ben, cara = await seat_players(server, ["Hana", "Ben", "Cara"])
    dora = await ScriptedPlayer.connect(server.port, "Dora")
    await dora.ask("watch table one")
    by_name = {p.name: p for p in (hana, ben, cara)}

    reply = await hana.ask("start")
    assert "each player is dealt 5 cards" in reply
    assert "Your hand:" in reply

    for _ in range(8):
        current, counts = await hana.table()
        assert set(counts) == {"Hana", "Ben", "Cara"}
        player = by_name[current]
        other = next(p for p in (hana, ben, cara) if p is not player)
        refused = await other.ask("draw")
        assert f"It is {current}'s turn; you may draw only on your own turn." in refused
        await player.ask("draw")
        held = await player.hand()
        thing = next((c for c in held if not c.is_action), None)
        if thing:
            assert f"You play #{thing.number} {thing.name} (Thing)" in flat(await player.ask(f"play {thing.number}"))
            held.remove(thing)
        if len(held) > 5:
            assert "You hold 6 cards; discard down to 5 before ending your turn." in flat(await player.ask("endturn"))
            assert f"You discard #{held[0].number}" in flat(await player.ask(f"discard {held[0].number}"))
        else:
            assert "You may discard only to get down to the hand limit of 5" in flat(
                await player.ask(f"discard {held[0].number}")
            )
        assert "You end the turn." in flat(await player.ask("endturn"))

    current, _ = await hana.table()
    forced = await by_name[current].ask("force draw")
    assert "[forced: outside the basic rules]" in flat(forced)
    await dora.client.expect(loosely(f"{current} draws a card. [forced: outside the basic rules]"))
    # A spectator never looks at hidden cards, and holds none.
    assert "Only players seated at this table can do that." in flat(await dora.ask("viewdraw"))
    assert "You are watching" in flat(await dora.ask("hand"))

    assert "*** Cara wins! ***" in flat(await hana.ask("win cara"))
    await dora.client.expect(r"\*\*\* Cara wins! \*\*\*")
    assert "Last game: Cara wins!" in flat(await ben.ask("look"))
    log_reply = await ben.ask("log 5")
    assert re.search(r"\[\d\d:\d\d\] Hana declares the game won\.", log_reply)

    room = await server.rooms.find("Table One")
    events = await room.events()
    for player in (ben, cara, dora):
        viewer_id = next(
            (s.account_id for s in room.table.state.seats if s.name == player.name),
            next(p.account_id for p in room.occupants.values() if p.name == player.name),
        )
        assert_no_hidden_card_leaked(player.client.transcript, room, viewer_id, events)

    assert "each player is dealt 5 cards" in flat(await hana.ask("start"))


async def test_four_players_with_turns_off(server):
    players = await seat_players(server, ["Ann", "Bo", "Cy", "Di"], deck=30)
    ann = players[0]
    assert "You set turns to off." in flat(await ann.ask("set turns=off"))
    await players[3].client.expect(r"Ann sets turns to off\.")
    await ann.ask("start")
    # Everyone may draw at once, and more than once.
    replies = await asyncio.gather(*(p.ask("draw") for p in players))
    assert all("You draw #" in reply for reply in replies)
    assert all("You draw #" in reply for reply in await asyncio.gather(*(p.ask("draw") for p in players)))
    _, counts = await ann.table()
    assert counts == {"Ann": 7, "Bo": 7, "Cy": 7, "Di": 7}
    held = await players[2].hand()
    assert f"You discard #{held[0].number}" in flat(await players[2].ask(f"discard {held[0].number}"))
    assert "Turns are off at this table" in flat(await players[1].ask("endturn"))
    settings = await ann.ask("settings")
    assert re.search(r"^turns +off\*", settings, re.MULTILINE)
    room = await server.rooms.find("table one")
    events = await room.events()
    for player in players[1:]:
        viewer_id = next(s.account_id for s in room.table.state.seats if s.name == player.name)
        assert_no_hidden_card_leaked(player.client.transcript, room, viewer_id, events)
    total = sum(len(pile) for pile in room.table.state.piles.values())
    assert total == len(room.table.state.cards) == 30
    # The host plays judge: players are eliminated until one is left, who wins.
    await ann.ask("eliminate bo")
    await players[1].client.expect(r"Ann eliminates you from the game\.")
    assert "You resign from the game." in flat(await players[2].ask("eliminate me"))
    await ann.client.expect(r"Cy resigns from the game\.")
    reply = flat(await ann.ask("eliminate di"))
    assert "*** Only Ann remains: Ann wins! ***" in reply
    async with server.database.snapshot() as connection:
        results = (await connection.execute(select(GameResult.result, GameResult.players))).all()
    assert [(shown(result), players) for result, players in results] == [
        ("Only Ann remains: Ann wins!", ["Ann", "Bo", "Cy", "Di"])
    ]


async def test_looking_at_a_hand_is_announced_and_shown_only_to_the_looker(server):
    ann, bo, cy = await seat_players(server, ["Ann", "Bo", "Cy"])
    await ann.ask("set turns=off")
    await ann.ask("start")
    bo_hand = await bo.hand()
    reply = await ann.ask("viewhand bo")
    assert all(card.name in reply for card in bo_hand)
    await bo.client.expect(r"Ann looks at your hand\.")
    await cy.client.expect(r"Ann looks at Bo's hand\.")
    await cy.client.quiet(0.2)
    for card in bo_hand:
        assert card.name not in cy.client.transcript


async def test_things_attached_to_a_thing_are_destroyed_with_it(server):
    ann, bo = await seat_players(server, ["Ann", "Bo"])
    await ann.ask("set turns=off")
    await ann.ask("start")
    things = [c for c in await ann.hand() if not c.is_action]
    while len(things) < 2:
        await ann.ask("draw")
        things = [c for c in await ann.hand() if not c.is_action]
    host, vest = things[0], things[1]
    await ann.ask(f"play {host.number}")
    reply = await ann.ask(f"play {vest.number} on {host.number}")
    # Issue 45: the target came on a line of its own, under the card's text.
    assert reply.startswith(f"You play #{vest.number} {vest.name} on #{host.number} {host.name}"), reply
    assert f"on #{host.number}" in flat(await bo.ask("viewplay"))
    reply = await bo.ask(f"destroy {host.number}")
    assert f"Played on it, #{vest.number} {vest.name} (Thing) also goes to the discard pile." in flat(reply)
    discard = await bo.ask("viewdisc")
    assert f"#{host.number}" in discard and f"#{vest.number}" in discard


async def test_drawing_from_an_empty_pile_reshuffles_the_discards_and_then_says_so(server):
    ann, bo = await seat_players(server, ["Ann", "Bo"], deck=10)
    await ann.ask("set turns=off")
    await ann.ask("start")
    assert "nothing to draw" in flat(await ann.ask("draw"))
    held = await ann.hand()
    await ann.ask(f"discard {held[0].number}")
    reply = await bo.ask("draw")
    assert "the discard pile (1 card) is shuffled into a new draw pile" in flat(reply)
    assert f"You draw #{held[0].number}" in reply
    assert "The draw pile holds 0 cards." in flat(await ann.ask("countdraw"))


async def test_a_dropped_player_keeps_the_seat_and_catches_up_on_return(start_server):
    server = await start_server(away_grace_seconds=1.0)
    ann, bo, cy = await seat_players(server, ["Ann", "Bo", "Cy"])
    await ann.ask("start")
    current, _ = await ann.table()
    players = {"Ann": ann, "Bo": bo, "Cy": cy}
    # Make it Bo's turn.
    while current != "Bo":
        await players[current].play_turn()
        current, _ = await ann.table()
    await bo.close()
    await ann.client.expect(r"Bo has disconnected; the seat is kept\.")
    _, counts = await ann.table()
    assert "Bo" in counts
    assert re.search(r"^ [ >] Bo +\d+ cards +\(away\)$", await cy.ask("look"), re.MULTILINE)
    # Only just dropped (a connection often comes back in a moment): not Cy's to skip yet.
    assert "Bo has only just dropped out" in flat(await cy.ask("skip bo"))
    await ann.client.expect(r"Bo has been away too long")
    assert "You skip Bo's turn." in flat(await cy.ask("skip bo"))
    current, _ = await ann.table()
    await players[current].ask("say we carry on")
    back = await MudClient.open(server.port)
    await back.expect(WELCOME_END)
    await back.command("connect Bo secret1", r"You are back at your seat in room Table One\.")
    await back.expect(r"Seats, in turn order:")
    await back.expect(r"While you were away:\n(?:.*\n)*.*Cy skips your turn\.")
    await ann.client.expect(r"Bo is back\.")
    await back.close()


async def test_a_restart_mid_game_puts_every_card_back_in_place(start_server):
    first = await start_server()
    ann, bo, cy = await seat_players(first, ["Ann", "Bo", "Cy"])
    await ann.ask("set handlimit=7")
    await ann.ask("start")
    for _ in range(4):
        current, _ = await ann.table()
        await {"Ann": ann, "Bo": bo, "Cy": cy}[current].play_turn(hand_limit=7)
    room = await first.rooms.find("Table One")
    before = room.table.state.copy()
    before_seq = room.seq
    for player in (ann, bo, cy):
        await player.close()
    await first.stop()

    second = await start_server()
    again = await second.rooms.find("table one")
    state = again.table.state
    assert again.seq == before_seq
    assert state.cards == before.cards
    assert {k: v for k, v in state.piles.items() if v} == {k: v for k, v in before.piles.items() if v}
    assert state.turn == before.turn and state.seats == before.seats
    assert state.settings == before.settings and state.phase == before.phase
    # The players come back and carry on.
    current = state.turn.player
    name = next(s.name for s in state.seats if s.account_id == current)
    player = await ScriptedPlayer.connect(second.port, name, create=False)
    assert "You draw #" in flat(await player.ask("draw"))


async def test_rooms_are_listed_named_uniquely_and_can_have_passwords(server, connect):
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    bo = await ScriptedPlayer.connect(server.port, "Bo")
    assert "no rooms yet" in flat(await bo.ask("rooms"))
    assert "You made room Secret Club" in flat(await ann.ask("newroom Secret Club=hushhush"))
    taken = flat(await bo.ask("newroom secret club"))
    assert 'A room called "Secret Club" already exists. Join it with: join Secret Club=<password>' in taken
    assert "A room name is 2-30 characters" in flat(await bo.ask("newroom x"))
    listing = await bo.ask("rooms")
    assert re.search(r"^Secret Club +Dvorak +waiting +0 yes 1: Ann$", listing, re.MULTILINE)
    assert "has a password" in flat(await bo.ask("join secret club"))
    assert "That is not the password of room Secret Club." in flat(await bo.ask("join secret club=wrong"))
    assert "Seats, in turn order:" in flat(await bo.ask("join Secret Club=hushhush"))
    assert re.search(r"^Secret Club .* 2: Ann, Bo$", await ann.ask("rooms"), re.MULTILINE)


async def test_talk_in_a_room_stays_in_the_room(server):
    ann, bo = await seat_players(server, ["Ann", "Bo"], deck=2)
    lobby = await ScriptedPlayer.connect(server.port, "Lou")
    await ann.ask("say only for the table")
    await bo.client.expect(r'Ann says, "only for the table"')
    await lobby.ask("say lobby talk")
    await ann.ask(":waves at the table.")
    await bo.client.expect(r"Ann waves at the table\.")
    await lobby.client.quiet(0.2)
    await ann.client.quiet(0.2)
    assert "only for the table" not in lobby.client.transcript
    assert "waves at the table" not in lobby.client.transcript
    assert "lobby talk" not in ann.client.transcript


async def test_host_powers_kick_and_handing_over(server):
    ann, bo, cy = await seat_players(server, ["Ann", "Bo", "Cy"], deck=6)
    assert "Only the host (Ann) can do that." in flat(await bo.ask("start"))
    assert "used at Gnav and Ys tables, not at this Dvorak table." in flat(await bo.ask("addbot easy"))
    assert "Only the host (Ann) can do that." in flat(await bo.ask("kick cy"))
    await ann.ask("kick cy")
    await cy.client.expect(r"You have been removed from room Table One by Ann\. You are in the lobby\.")
    assert "That command is used at a game table." in flat(await cy.ask("hand"))
    assert "You make Bo the host." in flat(await ann.ask("host bo"))
    await bo.client.expect(r"Ann makes you the host\.")
    assert "Host: Bo." in flat(await bo.ask("look"))
    await ann.ask("leave")
    assert re.search(r"Seats, in turn order:\n   Bo +0 cards  \(you\)\n[^ ]", await bo.ask("look"))


async def test_one_room_at_a_time_and_leaving_a_running_game_needs_now(server):
    ann, bo = await seat_players(server, ["Ann", "Bo"], deck=12)
    await ann.ask("start")
    assert "You are playing in room Table One" in flat(await ann.ask("newroom Other Place"))
    assert "To go anyway, type: leave now" in flat(await ann.ask("leave"))
    reply = await ann.ask("leave now")
    assert "You leave room Table One." in reply
    await bo.client.expect(
        loosely("Ann leaves the table. 5 cards from their hand and play area go to the discard pile.")
    )
    await bo.client.expect(r"\*\*\* Ann forfeits: Bo wins! \*\*\*")


async def test_a_second_connection_of_a_seated_player_is_shown_their_hand_too(server):
    ann, bo = await seat_players(server, ["Ann", "Bo"], deck=12)
    await ann.ask("start")
    held = sorted(card.number for card in await bo.hand())
    phone = await MudClient.open(server.port)
    await phone.expect(WELCOME_END)
    await phone.command("connect Bo secret1", r"Welcome back, Bo\.")
    await phone.expect(r"Your hand[^:\n]*:\n")
    await phone.quiet(0.3)
    shown = sorted(int(n) for n in re.findall(r"^  #(\d+) ", phone.transcript.split("Your hand")[1], re.M))
    assert shown == held
    await phone.close()


async def test_a_player_out_of_a_running_game_is_not_dealt_into_it_again_by_joining(server):
    ann, bo, cy = await seat_players(server, ["Ann", "Bo", "Cy"], deck=18)
    await ann.ask("start")
    await ann.ask("eliminate bo")
    await bo.client.expect(r"Ann eliminates you from the game\.")
    await bo.ask("leave")
    reply = flat(await bo.ask("join Table One"))
    assert "You gave up your seat in the game being played here, so you cannot be dealt into it again" in reply
    await cy.client.quiet(0.2)
    assert "Bo arrives" not in cy.client.transcript
    await ann.ask("endgame")
    assert "You take a seat at the table." in flat(await bo.ask("join Table One"))


async def test_settings_teams_and_multideck_before_start(server):
    ann, bo, cy = await seat_players(server, ["Ann", "Bo", "Cy"], deck=18)
    assert "Only the host" in flat(await bo.ask("set handsize=3"))
    await ann.ask("set multideck=on")
    await ann.ask("set teams=on")
    assert "You put Cy on team Owls." in flat(await ann.ask("team cy=Owls"))
    await cy.client.expect(r"Ann puts you on team Owls\.")
    await ann.ask("team ann=Owls")
    await ann.ask("set handsize=3")
    look = await ann.ask("look")
    assert "Settings changed from the defaults: handsize=3, teams=on, multideck=on." in look
    assert "(team Owls, you)" in look
    await ann.ask("start")
    assert "multideck can be changed only between games." in flat(await ann.ask("set multideck=off"))
    look = flat(await bo.ask("look"))
    assert "Piles: Ann: draw 3, discard 0; Bo: draw 3, discard 0; Cy: draw 3, discard 0." in look
    assert len(await bo.hand()) == 3


async def test_card_commands_refuse_bad_input_clearly(server):
    ann, bo = await seat_players(server, ["Ann", "Bo"], deck=4)
    assert "No game is running here." in flat(await ann.ask("draw"))
    await ann.ask("force start")
    current, _ = await ann.table()
    player = ann if current == "Ann" else bo
    assert "Which card? Give its number." in flat(await player.ask("play banana"))
    assert "There is no card #999 at this table." in flat(await player.ask("read 999"))
    assert "Usage: givecard <num> to <player>" in flat(await player.ask("givecard 3"))
    assert 'Nobody called "zed" is seated here.' in flat(await player.ask("givecard 3 to zed"))
    assert "Usage: force <command>" in flat(await player.ask("force say hi"))
    assert "There is no card #999999 at this table." in flat(await player.ask("discard 999999"))
    assert "Type: Thing" in flat(await player.ask("readcard #1"))


async def test_sigkill_mid_game_loses_nothing_the_players_were_told(database_url, tmp_path):
    node = ServerProcess(database_url, tmp_path)
    await node.start()
    ann, bo, cy = await seat_players(node, ["Ann", "Bo", "Cy"])
    await ann.ask("start")
    players = {"Ann": ann, "Bo": bo, "Cy": cy}
    for _ in range(5):
        current, _ = await ann.table()
        await players[current].play_turn()
    current, _ = await ann.table()
    await players[current].ask("draw")
    seen = {name: sorted(c.number for c in await p.hand()) for name, p in players.items()}
    table_before = await ann.ask("look")
    discard_before = await ann.ask("viewdisc")
    assert await node.stop(signal.SIGKILL) == -signal.SIGKILL

    again = ServerProcess(database_url, tmp_path)
    await again.start()
    try:
        for name in players:
            back = await ScriptedPlayer.connect(again.port, name, create=False)
            assert sorted(c.number for c in await back.hand()) == seen[name]
            if name == "Ann":
                # Only who is connected differs: the others have not come back yet.
                assert re.sub(r"  \(away\)", "", await back.ask("look")) == table_before
                assert await back.ask("viewdisc") == discard_before
            await back.close()
    finally:
        await again.stop()
