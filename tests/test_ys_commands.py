"""Ys rooms without sockets (:mod:`tests.harness`): every command, its refusals, what
each seat and a spectator see, the board within 80 columns, a renderer per event kind."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from commands.ys.game import with_card_help
from commands.ys.play import names_of
from commands.ys.render import RENDERERS, SpaceError, prompt, read_values_and_spaces, render_board, render_event
from games.ys import rules as ys_rules
from games.ys import tables as t
from games.ys.visibility import seat_view
from server.audit import check_rooms
from server.text import WHOLE_LINE, render_colours
from tests.harness import World
from tests.players import flat
from tests.ys_players import command_for, neutral_command


async def ys_game(world: World, *settings: str, seed: int = 3, bots: int = 1) -> dict[str, str]:
    """Ann hosts Ys room Isle with Bo seated and ``bots`` computer players (moving at
    once), Cy watches; started with the shuffles seeded by ``seed``. What each saw."""
    await world.log_in("Ann", "Bo", "Cy")
    await world.call("Ann", "newroom/ys Isle")
    await world.call("Bo", "join Isle")
    await world.call("Cy", "watch Isle")
    for _ in range(bots):
        await world.call("Ann", "addbot easy")
    await world.calls("Ann", "set botdelay=0", *settings)
    (await world.room("Isle")).table.rng = random.Random(seed)
    return await world.call("Ann", "start")


def visible(text: str) -> list[str]:
    return render_colours(text.replace(WHOLE_LINE, ""), False).split("\n")


async def play_out(world: World, rng: random.Random, limit: int = 400) -> list[dict[str, str]]:
    """Ann and Bo make legal moves until the game ends; everything everyone saw."""
    room = await world.room("Isle")
    seen = []
    for _ in range(limit):
        if room.table.state.phase != "playing":
            return seen
        for name in ("Ann", "Bo"):
            me = world.account_id(name)
            command = neutral_command(room.table, me, rng) or command_for(seat_view(room.table.state, me), rng)
            if command:
                saw = await world.call(name, command)
                assert not saw[name].startswith(("Usage", "A space")), (command, saw[name])
                seen.append(saw)
                break
    raise AssertionError("the game did not end")


async def test_newroom_ys_makes_a_ys_room_and_the_game_is_listed(world):
    await world.log_in("Ann")
    assert re.search(r"^  ys\s+Ys:", (await world.call("Ann", "games"))["Ann"], re.M)
    saw = await world.call("Ann", "newroom/ys Isle")
    assert "You made room Isle (Ys) and are its host." in saw["Ann"] and "addbot" in saw["Ann"]
    assert (await world.room("Isle")).game == "ys"
    assert "Choices" in (await world.call("Ann", "help ys"))["Ann"]


async def test_start_asks_every_player_to_bid_and_tells_the_spectator_it_waits(world):
    saw = await ys_game(world)
    assert "A game of Ys begins. Order cards:" in saw["Ann"]
    assert "Bid two brokers from behind your screen: bid <a> <b>" in saw["Ann"]
    assert "(In 90 seconds a move is made for you.)" in flat(saw["Ann"])
    assert "Waiting for everyone to bid." in saw["Cy"] and "bid <a>" not in saw["Cy"]
    assert "Ysolde bids." in saw["Cy"]


async def test_the_log_tells_past_turns_without_their_clock(world):
    # Read later (log, "While you were away"), "In 90 seconds" is long past: the prompt
    # is told without it; as it happens, with it.
    saw = await ys_game(world)
    assert "(In 90 seconds a move is made for you.)" in flat(saw["Ann"])
    await world.call("Ann", "bid 7 6")
    await world.call("Bo", "bid 0 1")
    saw = await world.call("Ann", "order 1")
    assert "Waiting for Ann to place, 90 seconds." in saw["Cy"]
    logged = {name: (await world.call(name, "log"))[name] for name in ("Ann", "Cy")}
    assert "Bid two brokers from behind your screen: bid <a> <b>" in logged["Ann"]
    assert "Waiting for Ann to place." in logged["Cy"]
    assert not any("seconds" in text for text in logged.values()), logged


async def test_bids_stay_hidden_until_all_have_bid_then_the_order_is_told(world):
    await ys_game(world)
    saw = await world.call("Ann", "bid 7 6")
    assert saw["Ann"].startswith("You bid 6 and 7 (hidden until everyone has bid).")
    assert saw["Bo"] == saw["Cy"] == "Ann bids."
    assert (await world.call("Ann", "bid 1 1"))["Ann"] == "You have bid already; waiting for the others."
    look = visible((await world.call("Ann", "look"))["Ann"])
    assert any("You have bid; waiting for Bo." in line for line in look)
    saw = await world.call("Bo", "bid 0 1")
    assert re.search(r"Bids: .*Ann 6\+7=13", saw["Cy"])
    # Issue 45: the order cards are chosen (seed 001), from the highest bid down.
    assert "Order cards are chosen from the highest bid down: Ann, Ysolde and Bo." in flat(saw["Cy"])
    assert "Waiting for Ann to choose an order card, 90 seconds." in flat(saw["Cy"])
    asked = "You must choose your order card for this round: order <card> (free: 1, 2, 3; 1 places first"
    assert asked in flat(saw["Ann"])
    assert (await world.call("Bo", "order 1"))["Bo"] == "The table waits for Ann, not you."
    assert (await world.call("Ann", "place 5 c2p 3 c1o"))["Ann"].startswith("Choose your order card first: order")
    assert (await world.call("Ann", "order 4"))["Ann"] == "Choose one of the free order cards: order 1 or 2 or 3."
    saw = await world.call("Ann", "order 2")
    assert "Ann takes order card 2." in flat(saw["Cy"])
    assert re.search(r"Ysolde takes order card [13]\.", flat(saw["Cy"]))
    assert re.search(r"Bo takes order card [13], the one left\. Turn order this round: .*Ann", flat(saw["Cy"]))
    room = await world.room("Isle")
    assert room.table.state.order[1] == world.account_id("Ann")


async def test_place_shows_the_face_down_value_to_its_owner_only(world):
    await ys_game(world)
    await world.call("Ann", "bid 7 6")
    await world.call("Bo", "bid 0 1")
    await world.call("Ann", "order 1")
    saw = await world.call("Ann", "place 5 c2p 3 city 1 port")
    assert saw["Ann"].startswith("You place a 5 face up on city 2 palace and your 3 face down on city 1 port.")
    for name in ("Bo", "Cy"):
        assert saw[name].startswith("Ann places a 5 face up on city 2 palace and a broker face down on city 1 port.")
    board = {name: "\n".join(visible((await world.call(name, "board"))[name])) for name in ("Ann", "Bo", "Cy")}
    assert "A3'" in board["Ann"] and "A?'" in board["Bo"] and "A?'" in board["Cy"] and "A5" in board["Cy"]


async def test_placement_refusals_say_the_grammar_and_change_nothing(world):
    await ys_game(world)
    await world.call("Ann", "bid 7 6")
    await world.call("Bo", "bid 0 1")
    await world.call("Ann", "order 1")
    room = await world.room("Isle")
    step = room.table.state.step
    for line, reply in (
        ("place 5 c2p", "Give a broker's value, then its space."),
        ("place 5 c9p 3 c1o", "A space is c<quadrant><ring>"),
        ("place 5 c2x 3 c1o", "A space is c<quadrant><ring>"),
        ("place -5 c2p 3 c1o", "Use only letters, digits and spaces."),
        ("place 99999 c2p 3 c1o", "That number is far too big."),
        ("place 5 c2p 3 c1o c1o", "Too many words."),
        ("place 9 c2p 3 c1o", "You have no broker 9 behind your screen."),
        ("place 5 m3b 3 c1o", "No broker may go in a market row without a gem."),
        ("place 5 m1b 3 m1b", "A market space holds one broker."),
    ):
        assert (await world.call("Ann", line))["Ann"].startswith(reply), line
    assert (await world.call("Bo", "place 5 c2p 3 c1o"))["Bo"] == "It is Ann's turn to place, not yours."
    assert (await world.call("Cy", "bid 1 2"))["Cy"] == "Only players in this game can do that."
    assert room.table.state.step == step


async def test_other_refusals(world):
    await ys_game(world)
    assert (await world.call("Ann", "bid 1"))["Ann"] == "Usage: bid <value> <value>"
    assert (await world.call("Ann", "bid 1 x"))["Ann"] == "Usage: bid <value> <value>"
    assert (await world.call("Ann", "bid 2 2"))["Ann"] == "You have no broker 2 behind your screen."
    assert (await world.call("Ann", "favour"))["Ann"] == "Usage: favour <value>"
    assert (await world.call("Ann", "favour 3"))["Ann"] == "This is not the time for the King's favour."
    assert (await world.call("Ann", "choose blue"))["Ann"] == "Nothing is asked of you now."
    assert (await world.call("Ann", "choose"))["Ann"] == "Usage: choose <answer>"
    assert (await world.call("Ann", "play"))["Ann"].startswith("Which card?")
    assert (await world.call("Ann", "play spy"))["Ann"] == "You hold no such card."
    assert (await world.call("Ann", "neutral 4 c1c"))["Ann"] == "This is not the time to place brokers."
    assert (await world.call("Bo", "set turntime=30"))["Bo"] == "Only the host (Ann) can do that."
    assert (await world.call("Ann", "set favour=1"))["Ann"] == "favour can be changed only between games."
    assert (await world.call("Ann", "addbot hard"))["Ann"].startswith("Which level? easy, normal.")
    assert (await world.call("Ann", "removebot Ysolde"))["Ann"].startswith("Computer players play a game to its end")
    assert (await world.call("Cy", "screen"))["Cy"] == "You are watching, so you have no screen."


async def test_seats_settings_and_bots_between_games(world):
    await world.log_in("Ann", "Bo")
    await world.call("Ann", "newroom/ys Isle")
    assert (await world.call("Ann", "start"))["Ann"].startswith("Ys is for 2 to 5 players")
    assert (await world.call("Ann", "addbot normal Dahut"))["Ann"] == "Dahut (bot, normal) takes a seat."
    assert (await world.call("Ann", "addbot easy Bob"))["Ann"].startswith(
        "There is no computer player called Bob: computer players are named"
    )
    assert (await world.call("Ann", "removebot"))["Ann"] == "Which computer player? Usage: removebot <name>"
    assert (await world.call("Ann", "removebot Dahut"))["Ann"] == "Dahut (bot, normal) leaves the table."
    assert (await world.call("Ann", "set favour=1"))["Ann"] == "You set favour to 1."
    listing = (await world.call("Ann", "set"))["Ann"]
    assert re.search(r"^favour\s+1\* ", listing, re.M) and "turntime" in listing
    assert (await world.call("Ann", "set nothing"))["Ann"] == "Usage: set   or   set <setting>=<value>"
    refusal = (await world.call("Ann", "set colour=1"))["Ann"]
    assert refusal.startswith('There is no setting "colour". The settings are favour, quadrants')
    look = (await world.call("Ann", "look"))["Ann"]
    assert "Waiting for the host to start a game (start)." in look


def test_spaces_read_short_and_long():
    assert read_values_and_spaces("5 c2p 3 m1b", 2) == [(5, ["city", 1, "palace"]), (3, ["market", 0, "blue"])]
    assert read_values_and_spaces("5 city 4 port 0 market 4 red", 2) == [
        (5, ["city", 3, "port"]),
        (0, ["market", 3, "red"]),
    ]
    assert read_values_and_spaces("1 m2 yellow", 1) == [(1, ["market", 1, "yellow"])]
    assert read_values_and_spaces("1 C3C", 1) == [(1, ["city", 2, "commercial"])]
    for bad in ("1 c0p", "1 c5p", "1 m1w", "1 x1p", "c1p", "1 c1"):
        try:
            read_values_and_spaces(bad, 1)
        except SpaceError:
            continue
        raise AssertionError(bad)


async def test_a_whole_game_renders_every_event_for_everyone_within_80_columns(world):
    """Ann and Bo against Ysolde with the King's favour: every event kind they meet has a
    line for each viewer, every board fits 80 columns, check finds the room sound."""
    await ys_game(world, "set favour=1", seed=5)
    seen = await play_out(world, random.Random(2))
    room = await world.room("Isle")
    assert room.table.state.phase == "over" and "won Ys" in room.table.state.result
    assert any("The final score" in saw["Cy"] for saw in seen)
    assert any("King's favour" in saw["Ann"] for saw in seen)
    for name in ("Ann", "Bo", "Cy"):
        for command in ("board", "market", "screen", "look"):
            for line in visible((await world.call(name, command))[name]):
                assert len(line) <= 80, line
    assert all(not report.problems for report in await check_rooms(world.database))


async def test_every_event_kind_the_rules_emit_has_a_renderer():
    sources = [path.read_text() for path in Path(ys_rules.__file__).parent.glob("*.py")]
    kinds = {kind for source in sources for kind in re.findall(r'_record\(\s*"(\w+)"', source)}
    assert kinds and kinds <= set(RENDERERS), kinds - set(RENDERERS)
    assert len(kinds) >= 25


def test_a_card_played_and_the_choice_it_asks_for_read_as_sentences():
    names = {1: "Ann", 2: "Bo"}
    played = {"player": 1, "card": "mercenary", "window": t.AFTER_PAIR}
    assert render_event(played, "play", 1, names, 1) == "You play the mercenary: it takes effect after your pair."
    assert render_event(played, "play", 2, names, 1) == "Ann plays the mercenary: it takes effect after their pair."
    asked = {"player": 1, "ask": "magician"}
    assert render_event(asked, "asked", 1, names, 1) == "You choose what the magician does."
    assert render_event(asked, "asked", 2, names, 1) == "Ann chooses what the magician does."
    won = {"player": 2, "space": ["city", 0, "commercial"], "ranking": [[2, 6], [1, 5]], "prize": "points"}
    assert render_event(won, "win", 1, names, 2).endswith("(Bo 6, you 5): 3 points.")
    assert render_event({**won, "points": 5}, "win", 1, names, 2).endswith("(Bo 6, you 5): 5 points.")
    waits = {"awaiting": [{"player": 1, "ask": "magician"}]}
    assert prompt(waits, 1, names, [1, 2], None, set()).startswith(
        "You must choose what the magician does: choose <value> <space>"
    )
    assert prompt(waits, 2, names, [1, 2], None, set()) == "Waiting for Ann to choose what the magician does."


async def test_a_game_abandoned_by_a_leaver_reads_as_over_once_on_the_board(world):
    await ys_game(world)
    await world.call("Bo", "leave now")
    board = " ".join((await world.call("Ann", "look"))["Ann"].split())
    assert "Game over. The game was abandoned: Bo left. The host starts another with: start" in board
    # Nobody had bid: no row says "bid" once the game is over.
    rows = [line for line in visible((await world.call("Ann", "look"))["Ann"]) if line[1:3] in ("A ", "B ")]
    assert rows and not any(" bid " in row for row in rows), rows


async def test_joining_a_ys_game_being_played_is_refused_before_the_player_moves(world):
    await ys_game(world)
    await world.log_in("Dee")
    saw = await world.call("Dee", "join Isle")
    assert " ".join(saw["Dee"].split()) == (
        "A game is being played here; you can join when it ends (watch it meanwhile: watch)."
    )
    assert saw["Ann"] == saw["Bo"] == saw["Cy"] == ""
    assert "The Lobby" in (await world.call("Dee", "look"))["Dee"]


async def test_two_players_place_the_neutral_player_brokers_and_only_the_placer_knows_them(world):
    await world.log_in("Ann", "Bo", "Cy")
    await world.call("Ann", "newroom/ys Isle")
    await world.call("Bo", "join Isle")
    await world.call("Cy", "watch Isle")
    (await world.room("Isle")).table.rng = random.Random(4)
    start = await world.call("Ann", "start")
    assert "A game of Ys begins with the neutral player." in start["Cy"]
    await world.call("Ann", "bid 7 6")
    await world.call("Bo", "bid 0 1")
    await world.call("Ann", "order 1")
    saw = await world.call("Ann", "place 5 c2p 3 c1o")
    assert "Now place one neutral broker face down: neutral <value> <space>." in saw["Ann"]
    assert "Waiting for Ann to place a neutral broker, 90 seconds." in saw["Cy"]
    refused = await world.call("Ann", "neutral 9 c1c")
    assert refused["Ann"] == "You have no neutral broker 9 left to place; yours: 4, 2, 1, 0."
    assert (await world.call("Ann", "neutral 4 c4c"))["Ann"] == "This game plays quadrants 1 to 3."
    saw = await world.call("Ann", "neutral 4 c1c")
    assert saw["Ann"].startswith("You place the neutral player's 4 face down on city 1 commercial.")
    assert saw["Bo"].startswith("Ann places a neutral broker face down on city 1 commercial.")
    assert "4" not in saw["Cy"].split("\n")[0]
    board = "\n".join(visible((await world.call("Cy", "board"))["Cy"]))
    assert "N?'" in board
    assert "N4'" in "\n".join(visible((await world.call("Ann", "board"))["Ann"]))
    # Bo places neutral brokers of his own: nothing he is told, refusals included,
    # gives away which one Ann placed.
    await world.call("Bo", "place 3 c2c 4 c3o")
    assert "Neutral brokers you may still place this round: 4 2 1 0." in (await world.call("Bo", "screen"))["Bo"]
    assert "Neutral brokers you may still place this round: 2 1 0." in (await world.call("Ann", "screen"))["Ann"]
    saw = await world.call("Bo", "neutral 4 c2o")
    assert saw["Bo"].startswith("You place the neutral player's 4 face down on city 2 "), saw["Bo"]
    await world.call("Ann", "place 4 c3c 5 c1p")
    refused = await world.call("Ann", "neutral 4 c3p")
    assert refused["Ann"] == "You have no neutral broker 4 left to place; yours: 2, 1, 0."


async def test_the_gmcp_view_is_the_seat_view(world):
    await ys_game(world)
    await world.call("Ann", "bid 7 6")
    views = [data for package, data in world.gmcp("Ann") if package == "Ys.View"]
    assert views and views[-1]["you"]["front"] == [6, 7]
    room = await world.room("Isle")
    assert views[-1] == with_card_help(seat_view(room.table.state, world.account_id("Ann")))
    spectator = [data for package, data in world.gmcp("Cy") if package == "Ys.View"][-1]
    assert spectator["you"] is None and all(p["front"] is None for p in spectator["players"])
    # The action cards left over at setup are put away unseen: naming them would tell
    # which lie face down in the corners.
    assert len(room.table.state.discard) == 8
    assert spectator["discard"] == views[-1]["discard"] == []


def test_every_event_of_whole_games_with_cards_reads_for_every_seat_and_a_spectator():
    # Computer players play their cards (every card but the Queen turns up over these
    # games): each event, as each seat and a spectator may see it, has a line, and a
    # Spy's look names the value to its player only.
    from games.ys.visibility import event_for
    from tests.pure.test_ys_rules import play_out

    kinds, cards = set(), set()
    for seed in range(8):
        table, log = play_out(4, seed, favour=seed % 2)
        names = {seat.account_id: seat.name for seat in table.state.seats}
        for event in log:
            kinds.add(event.kind)
            for viewer in [*names, 99]:
                shown = event_for(table.state, event, viewer)
                line = render_event(shown, event.kind, viewer, names, event.actor)
                assert line, (event.kind, shown)
                if event.kind == "card":
                    cards.add(event.data["card"])
                    if event.data["card"] == "spy" and viewer != event.actor:
                        assert "it is a" not in line
    assert "card" in kinds and len(cards) >= 5, cards


def test_spaces_in_a_cards_words_are_typed_as_for_place_and_passed_on_as_the_rules_count():
    from commands.ys.render import rules_words, tokens

    assert rules_words(tokens("5 c1o 1 m2r")) == ["5", "city", "0", "port", "1", "market", "1", "red"]
    assert rules_words(tokens("spy bo city 4 palace")) == ["spy", "bo", "city", "3", "palace"]
    assert rules_words(tokens("red blue")) == ["red", "blue"]
    with pytest.raises(SpaceError):
        rules_words(tokens("5 c9p"))


async def test_before_a_game_the_board_says_who_is_seated(world):
    await world.log_in("Ann", "Bo")
    await world.call("Ann", "newroom/ys Isle")
    await world.call("Bo", "join Isle")
    await world.call("Ann", "addbot easy Tristan")
    assert "Seated: Ann, Bo, Tristan." in (await world.call("Bo", "board"))["Bo"]


def test_a_five_player_board_with_long_names_and_card_names_fits_80_columns_and_keeps_them_whole():
    table = ys_rules.YsTable(rng=random.Random(2))
    names = ["Annabellee", "Bartholome", "Cunegondee", "Dorotheaaa", "Evangeline"]
    for account_id, name in enumerate(names, 1):
        table.sit(account_id, name)
    table.start(1)
    corners = [dict(corner) for corner in table.state.corners]
    for corner, card in zip(corners, ("intriguer", "mercenary", "alchemist", "conjurer"), strict=False):
        corner["up"] = card
    table.state.apply(["set", "corners", corners])
    board = render_board(seat_view(table.state, 1), "Isle", names_of(table), 60)
    lines = visible(board)
    assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
    text = "\n".join(lines)
    for card in ("intriguer", "mercenary", "alchemist", "conjurer"):
        assert f"palace[{card}]" in text
    legend = text[text.index("letters:") :]
    for letter, name in zip("ABCDE", names, strict=True):
        assert f"{letter} {name}" in legend  # never broken between a letter and its name


async def test_the_players_gems_stay_in_columns_with_two_digit_counts(world):
    await ys_game(world)
    room = await world.room("Isle")
    room.table.state.player(world.account_id("Ann"))["gems"]["green"] = 12
    look = visible((await world.call("Cy", "look"))["Cy"])
    header = next(i for i, line in enumerate(look) if line.lstrip().startswith("Who"))
    rows = look[header : header + 1 + len(room.table.state.seats)]
    assert "g12" in "\n".join(rows), rows
    assert len({len(row.rstrip()) for row in rows[1:]}) == 1, rows
    assert all(row[: rows[0].index("pts") + 3].endswith(" 0") for row in rows[1:]), rows  # points under "pts"


def test_a_quadrant_won_alone_and_a_choice_of_gems_read_as_english():
    """Issue 45: "Quadrant 4: Ysolde 5; they take its gems in that order" was said of one
    player, and the choice of gems was hinted as ``choose <gem> ....``."""
    names = {1: "Ann", 2: "Ysolde"}
    alone = {"quadrant": 3, "ranking": [[2, 5]]}
    assert render_event(alone, "quadrant", 1, names) == "Quadrant 4: Ysolde (5) takes its gems."
    assert render_event(alone, "quadrant", 2, names) == "Quadrant 4: You (5) take its gems."
    both = {"quadrant": 0, "ranking": [[2, 9], [1, 4]]}
    assert render_event(both, "quadrant", 1, names).endswith("; they take its gems in that order.")
    ask = {"awaiting": [{"player": 1, "ask": "take", "count": 2, "quadrant": 0, "options": ["red", "blue", "red"]}]}
    said = prompt(ask, 1, names, [1, 2], None, set())
    assert "(red blue red): choose <gem> <gem>" in said and "...." not in said
