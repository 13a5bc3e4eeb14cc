"""Every family of commands, run without sockets (:mod:`tests.harness`): what the player
who typed it, another player and, where it matters, a spectator each saw.

End-to-end tests over TCP (``tests/test_game_rooms.py`` and the like) keep what needs a
real connection: telnet, framing on the wire, several nodes, crashes."""

from __future__ import annotations

import random
import re
from collections.abc import Awaitable
from typing import NamedTuple

import pytest

from commands import rooms as rooms_module
from commands.base import CommandError
from commands.dvorak.command_line import import_deck
from commands.dvorak.gmcp import votes_json
from commands.dvorak.render import RENDERERS, render_event
from commands.games import game_commands
from games import KINDS
from games.dvorak.rules import Event
from games.dvorak.state import DRAW, NO_OWNER
from games.gnav.cards import FOOL
from server.audit import check_rooms
from tests.harness import PASSWORD, Clock, World
from tests.players import flat
from tests.pure.test_ccg_rules import ANN, CY, a_ccg_game_of_three

#: Commands run without sockets (tests.harness): in the fast tier.
pytestmark = pytest.mark.fast

DECK = (
    "loadcard Rock/T/A rock.",
    "loadcard Hat/T/A hat.",
    "loadcard Lamp/T/A lamp.",
    "loadcard Boot/T/A boot.",
    "loadcard Kite/T/A kite.",
    "loadcard Rope/T/A rope.",
)


def cards_in(text: str) -> dict[int, str]:
    """The cards a reply lists, ``#number Name``, by number."""
    return {int(number): name for number, name in re.findall(r"#(\d+) (\w+)", text)}


async def dvorak_table(world: World, *deck: str) -> None:
    """Ann hosts room Table with ``deck`` loaded, Bo is seated, Cy watches; nothing is started."""
    await world.log_in("Ann", "Bo", "Cy")
    await world.call("Ann", "newroom Table")
    await world.call("Bo", "join Table")
    await world.call("Cy", "watch Table")
    await world.calls("Ann", *deck)


async def dvorak_game(world: World, *settings: str) -> dict[str, dict[int, str]]:
    """A started game of :func:`dvorak_table` (two cards each, Ann first, the table's
    shuffles seeded, and ``settings`` made by the host): each seated player's hand, as the
    start showed it to them."""
    await dvorak_table(world, *DECK)
    await world.calls("Ann", "set handsize=2", *settings)
    (await world.room("Table")).table.rng = random.Random(1)
    saw = await world.call("Ann", "start")
    assert "You go first." in saw["Ann"] and "Ann goes first." in saw["Bo"]
    return {name: cards_in(saw[name]) for name in ("Ann", "Bo")}


# -- the lobby: talk ---------------------------------------------------------------------


async def test_say_and_pose_reach_everyone_in_the_lobby_and_page_only_its_addressee(world):
    await world.log_in("Ann", "Bo", "Cy")

    saw = await world.call("Ann", "say hello")
    assert saw == {"Ann": 'You say, "hello"', "Bo": 'Ann says, "hello"', "Cy": 'Ann says, "hello"'}

    saw = await world.call("Bo", ":waves")
    assert saw == {"Ann": "Bo waves", "Bo": "Bo waves", "Cy": "Bo waves"}

    saw = await world.call("Ann", "page Bo=psst")
    assert saw == {"Ann": "You paged Bo with 'psst'.", "Bo": "Ann pages: psst", "Cy": ""}


async def test_talk_in_a_room_stays_in_the_room(world):
    await world.log_in("Ann", "Bo", "Cy")
    await world.call("Ann", "newroom Table")
    await world.call("Bo", "watch Table")

    saw = await world.call("Ann", '"anyone?')
    assert saw == {"Ann": 'You say, "anyone?"', "Bo": 'Ann says, "anyone?"', "Cy": ""}


# -- rooms ---------------------------------------------------------------------------------


async def test_newroom_join_watch_and_leave_tell_the_room_and_the_lobby(world):
    await world.log_in("Ann", "Bo", "Cy")
    assert (await world.call("Cy", "rooms"))["Cy"].startswith("There are no rooms yet.")

    saw = await world.call("Ann", "newroom Table")
    assert "You made room Table (Dvorak) and are its host." in saw["Ann"]
    assert saw["Bo"] == saw["Cy"] == "Ann leaves for room Table."

    saw = await world.call("Bo", "join Table")
    assert saw["Ann"] == "Bo arrives.\nBo takes a seat at the table."
    assert saw["Bo"].startswith("You take a seat at the table.\nRoom Table: Dvorak, waiting to start. Host: Ann.")
    assert saw["Cy"] == "Bo leaves for room Table."

    saw = await world.call("Cy", "watch Table")
    assert saw["Ann"] == saw["Bo"] == "Cy arrives to watch."
    assert saw["Cy"].endswith("Watching: Cy.")

    listing = (await world.call("Cy", "rooms"))["Cy"]
    assert re.search(r"Table\s+Dvorak\s+waiting\s+1\s+no\s+2: Ann, Bo", listing), listing

    saw = await world.call("Cy", "leave")
    assert saw["Ann"] == saw["Bo"] == "Cy goes back to the lobby."
    assert saw["Cy"].startswith("You leave room Table.\nThe Lobby")


async def test_games_lists_every_kind_and_newroom_gnav_makes_a_gnav_room(world):
    await world.log_in("Ann", "Bo")
    games = (await world.call("Ann", "games"))["Ann"]
    assert re.search(r"^  dvorak\s+Dvorak:", games, re.M) and re.search(r"^  gnav\s+Gnav:", games, re.M)

    saw = await world.call("Ann", "newroom/gnav Fjord")
    assert "You made room Fjord (Gnav) and are its host." in saw["Ann"]
    assert saw["Bo"] == "Ann leaves for room Fjord."
    assert (await world.room("Fjord")).game == "gnav"


async def test_a_room_may_not_be_named_after_the_lobby(world):
    await world.log_in("Ann", "Bo")
    for name in ("Lobby", "the lobby", "THE LOBBY"):
        saw = await world.call("Ann", f"newroom {name}")
        assert saw["Ann"] == f'"{name}" is the lobby\'s name, where everyone meets: choose another name.'
        assert saw["Bo"] == ""
    assert "You made room Lobby Two" in (await world.call("Ann", "newroom Lobby Two"))["Ann"]


async def test_a_room_command_in_the_lobby_says_where_it_is_used(world):
    await world.log_in("Ann")
    assert (await world.call("Ann", "draw"))["Ann"].startswith("That command is used at a game table.")


async def test_another_game_s_command_at_a_table_names_the_games_that_use_it_and_changes_nothing(world):
    await world.log_in("Ann", "Bo")
    await world.call("Ann", "newroom Table")
    await world.call("Bo", "newroom/gnav Fjord")
    other_games = 'Type "help" for this table\'s commands.'

    table_before = (await world.call("Ann", "look"))["Ann"]
    saw = await world.call("Ann", "addbot normal")
    assert flat(saw["Ann"]) == f"That command is used at Gnav and Ys tables, not at this Dvorak table. {other_games}"
    assert (await world.call("Ann", "look"))["Ann"] == table_before
    saw = await world.call("Bo", "draw")
    assert flat(saw["Bo"]) == f"That command is used at Dvorak tables, not at this Gnav table. {other_games}"
    assert saw["Ann"] == ""
    assert (await world.call("Bo", "xyzzy"))["Bo"] == 'Huh?  (Type "help" for help.)'


# -- Dvorak: moves -------------------------------------------------------------------------


async def test_a_drawn_card_is_named_to_its_drawer_only(world):
    await dvorak_game(world)

    saw = await world.call("Ann", "draw")
    drawn = re.fullmatch(r"You draw #(\d+) (\w+) \(Thing\): .*", saw["Ann"])
    assert drawn is not None, saw["Ann"]
    assert saw["Bo"] == saw["Cy"] == "Ann draws a card."
    name = drawn.group(2)
    assert name not in saw["Bo"] and name not in saw["Cy"]


async def test_playing_and_discarding_are_seen_by_everyone_and_out_of_turn_moves_are_refused(world):
    hands = await dvorak_game(world, "set handlimit=1")
    first, second = sorted(hands["Ann"])

    saw = await world.call("Bo", "draw")
    assert saw["Bo"].startswith("It is Ann's turn; you may draw only on your own turn.")
    assert saw["Ann"] == saw["Cy"] == ""

    await world.call("Ann", "draw")
    saw = await world.call("Ann", f"play {first}")
    played = f"#{first} {hands['Ann'][first]}"
    assert played in saw["Ann"] and played in saw["Bo"] and played in saw["Cy"]
    assert saw["Bo"].startswith("Ann plays")

    saw = await world.call("Ann", f"discard {second}")
    discarded = f"#{second} {hands['Ann'][second]}"
    assert discarded in saw["Ann"] and discarded in saw["Bo"] and discarded in saw["Cy"]


async def test_givecard_is_refused_with_turns_on_and_for_a_card_not_held(world):
    hands = await dvorak_game(world)
    mine, theirs = min(hands["Ann"]), min(hands["Bo"])

    saw = await world.call("Ann", f"givecard {mine} to Bo")
    assert saw["Ann"].startswith("With turns on, cards move between places and players only when a card says so.")
    assert saw["Bo"] == saw["Cy"] == ""

    saw = await world.call("Bo", f"givecard {mine} to Ann")
    assert saw["Bo"] != "" and hands["Ann"][mine] not in saw["Bo"]
    assert saw["Ann"] == ""
    assert mine in (await world.room("Table")).table.hand(world.account_id("Ann"))
    assert theirs in (await world.room("Table")).table.hand(world.account_id("Bo"))


# -- Dvorak: looking -----------------------------------------------------------------------


async def test_hand_viewplay_and_readcard_show_only_what_the_reader_may_see(world):
    hands = await dvorak_game(world)

    saw = await world.call("Bo", "hand")
    assert cards_in(saw["Bo"]) == hands["Bo"]
    assert saw["Bo"].startswith("Your hand (2 cards):")
    assert saw["Ann"] == saw["Cy"] == ""

    saw = await world.call("Cy", "hand")
    assert not cards_in(saw["Cy"])

    saw = await world.call("Ann", "viewplay")
    assert saw["Ann"] == "Ann:\n  (nothing)\nBo:\n  (nothing)"

    # A card's text is the room's (the deck is public); where it is, is not.
    number = min(hands["Ann"])
    text = f"#{number} {hands['Ann'][number]}\nType: Thing\nBy: Ann\nText: A {hands['Ann'][number].lower()}."
    assert (await world.call("Ann", f"readcard {number}"))["Ann"] == text
    assert (await world.call("Bo", f"readcard {number}"))["Bo"] == text


# -- Dvorak: votes -------------------------------------------------------------------------


async def test_a_proposed_card_is_voted_in_or_out_by_the_table(world):
    await dvorak_table(world)

    saw = await world.call("Ann", "newcard Star/T/Shine.")
    assert saw["Ann"].startswith("You propose a new card: #1 Star (Thing): Shine.")
    assert saw["Bo"].startswith("Ann proposes a new card: #1 Star (Thing): Shine.")
    assert "Vote with: approve 1   or   repeal 1" in saw["Bo"]

    saw = await world.call("Bo", "approve 1")
    decided = "*** The vote on #1 Star (Thing) is decided: accepted."
    assert saw["Bo"].startswith("You approve #1.") and decided in saw["Bo"]
    assert saw["Ann"].startswith("Bo approves #1.") and decided in saw["Ann"]
    assert decided in saw["Cy"]

    await world.call("Ann", "newcard Moon/A/Glow.")
    saw = await world.call("Bo", "repeal 2")
    assert "*** The vote on #2 Moon (Action) is decided: rejected." in saw["Ann"]

    saw = await world.call("Cy", "approve 1")
    assert saw["Ann"] == saw["Bo"] == ""


# -- Dvorak: the deck and the table --------------------------------------------------------


async def test_loadcard_tells_the_room_and_exportdeck_gives_the_deck_back(world):
    await dvorak_table(world)

    saw = await world.call("Ann", "loadcard Bolt/A/Deal 3 damage.")
    assert saw["Ann"] == "You add a card to the deck: #1 Bolt (Action): Deal 3 damage."
    assert saw["Bo"] == saw["Cy"] == "Ann adds a card to the deck: #1 Bolt (Action): Deal 3 damage."

    await world.call("Ann", "loadcard Shield/T/Block damage.")
    saw = await world.call("Bo", "exportdeck")
    assert saw["Bo"] == (
        "cleardeck\nloadcard Bolt/A/Deal 3 damage.\nloadcard Shield/T/Block damage.\n"
        "@emit The deck Table (2 cards) has been loaded."
    )
    assert saw["Ann"] == ""


async def test_host_moves_refused_to_others_name_the_host_before_anything_else(world):
    await dvorak_table(world, *DECK)
    # A spectator handing the room on, or kicking, is told who hosts, not that the
    # name is unknown; so is a seated player.
    assert (await world.call("Cy", "host Nobody"))["Cy"] == "Only the host (Ann) can do that."
    assert (await world.call("Cy", "host Bo"))["Cy"] == "Only the host (Ann) can do that."
    assert (await world.call("Bo", "kick Cy"))["Bo"] == "Only the host (Ann) can do that."
    assert (await world.call("Bo", "mutespec Cy"))["Bo"] == "Only the host (Ann) can do that."
    assert (await world.call("Ann", "host Nobody"))["Ann"].startswith("Nobody called")
    saw = await world.call("Ann", "host Bo")
    assert saw["Ann"] == "You make Bo the host.", saw
    assert (await world.call("Ann", "start"))["Ann"] == "Only the host (Bo) can do that."


async def test_only_the_host_sets_and_starts_and_settings_shows_the_changes(world):
    await dvorak_table(world, *DECK)

    saw = await world.call("Bo", "set handsize=3")
    assert saw["Bo"].startswith("Only the host")
    saw = await world.call("Ann", "set handsize=3")
    assert saw == {"Ann": "You set handsize to 3.", "Bo": "Ann sets handsize to 3.", "Cy": "Ann sets handsize to 3."}

    settings = (await world.call("Bo", "settings"))["Bo"]
    assert re.search(r"^handsize\s+3\s*\*", settings, re.M), settings
    # Only ASCII digits are numbers ("５" is not 5).
    assert (await world.call("Ann", "set handsize=\uff15"))["Ann"].startswith("handsize is a whole number from")
    # A setting name no table has is echoed cut short; nothing changes, nobody else hears.
    saw = await world.call("Ann", f"set {'Ж' * 400}=1")
    assert saw["Ann"].startswith(f'There is no setting "{"Ж" * 30}". The settings are handsize,'), saw
    assert saw["Bo"] == saw["Cy"] == ""
    assert (await world.call("Ann", "set votetime=nan"))["Ann"].startswith("votetime is a whole number from 10")

    saw = await world.call("Bo", "start")
    assert saw["Bo"].startswith("Only the host")
    saw = await world.call("Ann", "start")
    assert len(cards_in(saw["Ann"])) == len(cards_in(saw["Bo"])) == 3
    assert not cards_in(saw["Cy"])
    assert set(cards_in(saw["Ann"])).isdisjoint(cards_in(saw["Bo"]))


# -- Gnav ----------------------------------------------------------------------------------


async def gnav_match(world: World, seed: int) -> dict[str, str]:
    """Ann hosts Gnav room Fjord against computer player Olga (who moves at once), Bo
    watches; the match starts with the table's shuffles seeded by ``seed``. What each
    saw of the start."""
    await world.log_in("Ann", "Bo")
    await world.call("Ann", "newroom/gnav Fjord")
    await world.call("Bo", "watch Fjord")
    saw = await world.call("Ann", "addbot easy")
    assert saw["Ann"] == saw["Bo"] == "Olga (bot, easy) takes a seat."
    await world.call("Ann", "set botdelay=0")
    (await world.room("Fjord")).table.rng = random.Random(seed)
    return await world.call("Ann", "start")


async def test_a_gnav_turn_read_in_the_log_has_no_clock(world):
    saw = await gnav_match(world, seed=1)
    turn = "It is your turn: keep or swap. (In 60 seconds you keep your card.)"
    assert turn in flat(saw["Ann"])
    logged = (await world.call("Ann", "log"))["Ann"]
    assert "It is your turn: keep or swap." in logged and "seconds" not in logged, logged


async def test_an_event_its_renderer_fails_on_is_shown_as_a_note_and_the_rest_and_the_log_still_read(
    world, monkeypatch, caplog
):
    await dvorak_game(world)

    def broken(reading):
        raise IndexError("a renderer's bug")

    monkeypatch.setitem(RENDERERS, "draw", broken)
    saw = await world.call("Ann", "draw")
    assert saw["Ann"] == saw["Bo"] == "(Ann: a draw event that cannot be shown.)"
    assert "could not render a 'draw' event" in caplog.text
    log = (await world.call("Bo", "log 3"))["Bo"]
    assert "a draw event that cannot be shown" in log and "Sorry" not in log
    saw = await world.call("Ann", "endturn")
    assert saw["Bo"] == "Ann ends the turn. It is now your turn: draw a card to begin."


async def test_a_move_typed_alone_refuses_what_follows_it_and_changes_nothing(world):
    await dvorak_game(world, "set turns=off")
    room = await world.room("Table")
    seq = room.seq
    for line in ("endturn Bo", "discrand 3", "shuffle now", "force discrand 2", "start again", "cleardeck all"):
        key = line.split()[-2]
        saw = await world.call("Ann", line)
        assert saw["Ann"] == f"Type {key} alone: it takes nothing after it.", line
        assert saw["Bo"] == "" and room.seq == seq
    await world.log_in("Di")
    await world.call("Di", "newroom/gnav Fjord")
    await world.calls("Di", "addbot easy", "set botdelay=0")
    assert (await world.call("Di", "start 2"))["Di"] == "Type start alone: it takes nothing after it."
    assert (await world.room("Fjord")).table.state.phase == "waiting"
    await world.call("Di", "start")
    assert (await world.call("Di", "keep it"))["Di"] == "Type keep alone: it takes nothing after it."


async def test_leaving_a_running_game_warns_what_it_costs_in_that_game(world):
    await gnav_match(world, seed=7)
    assert flat((await world.call("Ann", "leave"))["Ann"]) == (
        "You are playing in this game. Leaving gives up your seat: you forfeit the match. To go anyway, type: leave now"
    )
    assert '(you forfeit the match) with "leave now"' in flat((await world.call("Ann", "newroom Elsewhere"))["Ann"])
    await world.call("Bo", "newroom/ys Isle")
    await world.call("Bo", "addbot")
    await world.call("Bo", "start")
    assert "Leaving gives up your seat: the game ends for everyone, abandoned." in flat(
        (await world.call("Bo", "leave"))["Bo"]
    )


async def test_a_player_who_left_a_gnav_match_is_shown_as_left_not_away(world):
    await world.log_in("Ann", "Bo")
    await world.call("Ann", "newroom/gnav Fjord")
    await world.call("Bo", "join Fjord")
    await world.calls("Ann", "addbot easy", "set botdelay=0", "start")
    await world.call("Bo", "leave now")
    table = (await world.call("Ann", "look"))["Ann"]
    assert re.search(r"^  Bo +\d+ (?:life|lives) +(?:dealer, )?left$", table, re.M), table
    assert "Away:" not in table


async def test_joining_a_gnav_match_being_played_is_refused_before_the_player_moves(world):
    await gnav_match(world, seed=7)
    await world.log_in("Dee")
    saw = await world.call("Dee", "join Fjord")
    refused = "A match is being played here; you can join when it ends (watch it meanwhile: watch)."
    assert flat(saw["Dee"]) == refused
    assert saw["Ann"] == saw["Bo"] == ""
    assert "The Lobby" in (await world.call("Dee", "look"))["Dee"]


async def test_a_player_who_forfeited_a_gnav_match_no_longer_plays_there_until_it_ends(world):
    await world.log_in("Ann", "Bo")
    await world.call("Ann", "newroom/gnav Fjord")
    await world.call("Bo", "join Fjord")
    await world.calls("Ann", "addbot easy", "set botdelay=0", "start")
    room = await world.room("Fjord")
    bo_id = next(seat.account_id for seat in room.table.state.seats if seat.name == "Bo")
    await world.call("Bo", "leave now")
    seq = room.seq
    saw = await world.call("Bo", "join Fjord")
    assert flat(saw["Bo"]) == "A match is being played here; you can join when it ends (watch it meanwhile: watch)."
    assert saw["Ann"] == "" and room.seq == seq and "The Lobby" in (await world.call("Bo", "look"))["Bo"]
    # Logging in again does not bring them back to the seat they forfeited.
    assert await world.rooms.with_seat_for(bo_id) is None
    # They may play elsewhere meanwhile, and watch the match.
    assert "You made room Den" in (await world.call("Bo", "newroom Den"))["Bo"]
    assert "Gnav at Fjord" in (await world.call("Bo", "watch Fjord"))["Bo"]
    assert room.spectators() == ["Bo"]


async def test_the_log_and_while_you_were_away_tell_a_card_by_the_words_it_had_then(world):
    # An accepted edit used to rewrite the past: the log showed the card's new words in
    # every event before it ("Ann plays #2 Boulder", "proposes changing #2 Boulder to:
    # #2 Boulder"), as if the players had played a card nobody had written yet.
    # Three cards: one is left to draw, so that nobody runs out of cards (and is out).
    await dvorak_table(world, "loadcard Rock/T/A rock.", "loadcard Hat/T/A hat.", "loadcard Cup/T/A cup.")
    await world.calls("Ann", "set handsize=0", "set turns=off", "set vote=any", "start")
    await world.call("Bo", "LOGOUT")
    await world.calls("Ann", "draw", "draw")
    played, old_name = next(iter(cards_in((await world.call("Ann", "hand"))["Ann"]).items()))
    await world.call("Ann", f"play {played}")
    await world.call("Ann", f"editcard {played}/Boulder/T/A big rock.")
    saw = await world.call("Ann", f"approve {played}")
    assert f"It now reads: #{played} Boulder (Thing): A big rock." in flat(saw["Cy"])
    missed = (await world.call("Bo", f"connect Bo {PASSWORD}"))["Bo"].split("While you were away:")[1]
    logged = (await world.call("Cy", "log 5"))["Cy"]
    for past in (missed, logged):
        lines = flat(past.replace("\n[", "\n\n[")).split(" [")
        assert any(f"Ann plays #{played} {old_name} (Thing): A {old_name.lower()}." in line for line in lines), past
        proposed = f"proposes changing #{played} {old_name} (Thing) to: #{played} Boulder (Thing): A big rock."
        assert any(proposed in line for line in lines), past
        assert f"It now reads: #{played} Boulder (Thing): A big rock." in flat(past), past


async def test_viewvote_of_a_bundle_made_by_another_still_counts_its_proposers_approval(world):
    await dvorak_table(world)
    await world.log_in("Di")
    await world.call("Di", "join Table")
    await world.calls("Ann", "newcard Moon/T/Glow.", "newcard Sun/T/Burn.")
    await world.call("Bo", "bundle 1 2")
    shown = flat((await world.call("Cy", "viewvote"))["Cy"])
    assert "approve: Ann, Bo" in shown or "approve: Bo, Ann" in shown, shown
    # A bundle of two players' proposals names both proposers.
    await world.call("Bo", "newcard Star/T/Shine.")
    await world.call("Di", "bundle 1 3")
    assert "proposed by Ann, Bo;" in flat((await world.call("Cy", "viewvote"))["Cy"])


async def test_the_table_is_told_who_hosts_it_when_the_host_leaves(world):
    # Dvorak and Ys handed the table over in silence (Gnav said so).
    await dvorak_game(world)
    saw = await world.call("Ann", "leave now")
    assert "Ann leaves the table." in flat(saw["Cy"]) and "Bo is now the host." in flat(saw["Cy"])
    assert "You are now the host." in flat(saw["Bo"])
    assert "Host: Bo" in (await world.call("Cy", "look"))["Cy"]
    await world.log_in("Di", "Ed")
    await world.call("Di", "newroom/ys Isle")
    await world.calls("Ed", "join Isle")
    saw = await world.call("Di", "leave")
    assert saw["Ed"] == "Di leaves the table.\nYou are now the host.\nDi goes back to the lobby."


async def test_a_finished_game_with_no_host_says_who_starts_the_next(world):
    await world.log_in("Gus")
    await world.call("Gus", "newroom/ys Isle")
    await world.calls("Gus", "addbot", "start")
    await world.call("Gus", "leave now")
    await world.log_in("Hal")
    board = flat((await world.call("Hal", "watch Isle"))["Hal"])
    assert "The next person to take a seat hosts the table and starts another with: start" in board, board
    assert "The host starts" not in board


async def test_a_player_back_between_two_absentee_checks_is_away_from_their_latest_drop(world):
    # Their first drop's time was kept: dropping again soon after counted as away since
    # the first, and a non-host could skip them seconds after a blip.
    await dvorak_game(world)
    room = await world.room("Table")
    bo = world.account_id("Bo")
    await world.call("Bo", "LOGOUT")
    room.away_since[bo] -= 1000  # the first drop, long ago
    await world.call("Bo", f"connect Bo {PASSWORD}")
    await world.call("Bo", "LOGOUT")
    await world.rooms.mark_absentees(500)
    await world.settle()
    assert "away too long" not in flat(world.take_output()["Ann"])
    assert not room.table.state.seat(bo).absent


async def test_a_host_kicking_themselves_is_told_to_leave_and_nothing_changes(world):
    # It used to unseat them at once: a forfeit (Gnav), an abandoned game (Ys) or a
    # Dvorak hand discarded, without the warning "leave" gives.
    await gnav_match(world, seed=7)
    room = await world.room("Fjord")
    seq = room.seq
    for line in ("kick Ann", "kick an"):
        saw = await world.call("Ann", line)
        assert saw["Ann"] == 'To go, type "leave".' and saw["Bo"] == "", line
    assert room.seq == seq and room.table.state.phase == "playing"


async def test_a_gnav_match_left_to_computer_players_alone_ends_and_the_room_can_be_deleted(world):
    await world.log_in("Gus", "Cy")
    await world.call("Gus", "newroom/gnav Zomb")
    await world.calls("Gus", "addbot", "addbot", "start")
    await world.call("Cy", "watch Zomb")
    saw = await world.call("Gus", "leave now")
    said = "Gus leaves the match and forfeits.\nThe match is abandoned: no person is left playing."
    assert saw["Cy"] == f"{said}\nGus goes back to the lobby."
    room = await world.room("Zomb")
    assert room.table.state.phase == "over" and room.due_at is None
    assert "abandoned. Nobody won: the last person playing left." in (await world.call("Cy", "results"))["Cy"]
    olga = room.table.state.seats[0].account_id
    room.table.state.apply(["set", "revealed", [[olga, FOOL, "deal"]]])  # as if dealt in the last deal
    board = (await world.call("Gus", "join Zomb"))["Gus"]
    assert "Shown this deal" not in board  # the match is over: its last deal is past
    assert "The match is over. Nobody won: the last person playing left." in flat(board)
    assert re.search(r"^  Gus \(you\) +host$", board, re.M) and "Your card" not in board, board
    assert "You delete room Zomb" in (await world.call("Gus", "delroom Zomb=yes"))["Gus"]


async def test_gnav_start_shows_each_seat_its_own_card_only(world):
    saw = await gnav_match(world, seed=7)
    card = re.search(r"Your card: (\w+)\.", saw["Ann"])
    assert card is not None, saw["Ann"]
    assert "It is your turn: keep or swap." in saw["Ann"]
    assert saw["Bo"] == "A match of Gnav begins: 3 lives each.\nDeal 1: Olga deals; Ann goes first."
    assert not re.search(rf"\b{card.group(1)}\b", saw["Bo"])


async def test_gnav_keep_lets_the_computer_player_move_and_the_deal_settle(world):
    await gnav_match(world, seed=7)
    # A name after swap is no choice of whom to ask: refused, and nothing is moved.
    saw = await world.call("Ann", "swap Olga")
    assert saw["Ann"].startswith("Type swap alone: you always ask the next player on your left")
    assert saw["Bo"] == ""

    saw = await world.call("Ann", "keep")
    assert saw["Ann"].startswith("You keep your card.\nIt is Olga's turn.")
    assert saw["Bo"].startswith("Ann keeps their card.\nIt is Olga's turn.")
    for seen in saw.values():
        assert re.search(r"^Olga (keeps their card|swaps with the stock)\.$", seen, re.M), seen
        assert re.search(r"^Cards: .*(loses a life|lose a life)", seen, re.M), seen

    saw = await world.call("Ann", "swap")
    assert saw["Ann"] == "This deal is over; the next one is coming."


async def test_gnav_swap_tells_only_the_two_holders_which_cards_changed_hands(world):
    start = await gnav_match(world, seed=0)
    card = re.search(r"Your card: (\w+)\.", start["Ann"])
    assert card is not None

    saw = await world.call("Ann", "swap")
    swapped = re.match(rf"You swap (?:the|a) {card.group(1)} for Olga's (\w+)\.", saw["Ann"])
    assert swapped is not None, saw["Ann"]
    assert saw["Bo"].startswith("Ann swaps cards with Olga.\nIt is Olga's turn.")
    assert not re.search(rf"\b{card.group(1)}\b", saw["Bo"].split("\nCards: ")[0])

    saw = await world.call("Bo", "keep")
    assert saw["Bo"] == "Only players seated at this table can do that."


# -- help ----------------------------------------------------------------------------------


async def test_help_and_commands_list_what_can_be_used_where_the_player_is(world):
    await world.log_in("Ann", "Bo")

    lobby = (await world.call("Ann", "commands"))["Ann"]
    assert lobby.startswith("Talk:      say") and "Cards:" not in lobby

    saw = await world.call("Ann", "help say")
    assert saw["Ann"].startswith("Help for say:\n  say <text>\n")
    assert saw["Bo"] == ""

    await world.call("Ann", "newroom Table")
    table = (await world.call("Ann", "commands"))["Ann"]
    assert re.search(r"^Cards:\s+drawcard \(draw\)", table, re.M)
    assert "help <command>" in (await world.call("Ann", "help"))["Ann"]


# -- one summary for look and Dvorak.Table ------------------------------------------------


def _last_table(world: World, name: str) -> dict:
    return [data for package, data in world.gmcp(name) if package == "Dvorak.Table"][-1]


async def test_look_and_the_gmcp_table_tell_the_same_table(world):
    await dvorak_game(world)
    await world.call("Ann", "draw")
    table = _last_table(world, "Cy")
    look = (await world.call("Cy", "look"))["Cy"]
    assert f"Draw pile: {table['piles']['draw']} card" in look
    for seat in table["seats"]:
        assert re.search(rf"{'>' if seat['current'] else ' '} {seat['name']} +{seat['cards']} card", look), look
    assert table["watching"] == ["Cy"] and "Watching: Cy." in look
    assert table["turn"]["player"] == "Ann" and "Ann's turn: drawn 1 of 1" in look


async def test_in_a_multi_deck_game_each_players_piles_are_told_alike(world):
    await dvorak_table(world)
    await world.calls("Ann", "set multideck=on", "set handsize=1", "loadcard Rock/T/A rock.", "loadcard Hat/T/A hat.")
    await world.calls("Bo", "loadcard Lamp/T/A lamp.", "loadcard Boot/T/A boot.")
    await world.call("Ann", "start")
    table = _last_table(world, "Cy")
    assert set(table["piles"]) == {"Ann", "Bo"}
    look = (await world.call("Cy", "look"))["Cy"]
    for name, pile in table["piles"].items():
        assert f"{name}: draw {pile['draw']}, discard {pile['discard']}" in look


# -- the session and the account -----------------------------------------------------------


async def test_who_lists_everyone_connected_with_what_they_are_doing(world):
    await world.log_in("Ann", "Bo")
    await world.call("Ann", "@doing testing")

    saw = await world.call("Bo", "WHO")
    assert re.search(r"^Ann +00:00 +0s  testing$", saw["Bo"], re.M), saw["Bo"]
    assert re.search(r"^Bo +00:00 +0s$", saw["Bo"], re.M) and saw["Bo"].endswith("2 players connected.")
    assert saw["Ann"] == ""


async def test_idle_keeps_the_idle_time_running_and_any_other_command_resets_it(world):
    await world.log_in("Ann", "Bo")
    world.connections["Ann"].last_command_at -= 120

    saw = await world.call("Ann", "IDLE still here")
    assert saw == {"Ann": "", "Bo": ""}
    assert re.search(r"^Ann +\S+ +2m$", (await world.call("Bo", "WHO"))["Bo"], re.M)

    await world.call("Ann", "look")
    assert re.search(r"^Ann +\S+ +0s$", (await world.call("Bo", "WHO"))["Bo"], re.M)


async def test_color_is_chosen_on_off_or_auto_and_anything_else_shows_the_usage(world):
    await world.log_in("Ann")
    saw = await world.call("Ann", "@color")
    assert saw["Ann"].startswith("Colour is off here: your setting is auto")
    assert "Usage: @color on|off|auto" in saw["Ann"]

    assert (await world.call("Ann", "@color on"))["Ann"] == "Colour is on: like this."
    assert (await world.call("Ann", "@color off"))["Ann"] == "Colour is off."
    player = world.connections["Ann"].player
    assert player is not None and player.color == "off"


async def test_password_changes_only_with_the_current_one_and_the_new_one_logs_in(world):
    await world.log_in("Ann")
    saw = await world.call("Ann", "@password wrong1=newpass1")
    assert saw["Ann"] == "That is not your current password; it is unchanged."
    assert (await world.call("Ann", "@password newpass1"))["Ann"] == "Usage: @password <old>=<new>"
    assert (await world.call("Ann", f"@password {PASSWORD}=newpass1"))["Ann"] == (
        "Your password has been changed. Anyone else logged in as you is disconnected."
    )

    await world.call("Ann", "LOGOUT")
    assert world.connections["Ann"].player is None
    await world.call("Ann", f"connect Ann {PASSWORD}")
    assert world.connections["Ann"].player is None
    await world.call("Ann", "connect Ann newpass1")
    assert world.connections["Ann"].player is not None


async def test_outputprefix_and_outputsuffix_frame_only_the_typists_own_replies_until_cleared(world):
    await world.log_in("Ann", "Bo")
    assert await world.calls("Ann", "OUTPUTPREFIX <<", "OUTPUTSUFFIX >>") == {"Ann": "", "Bo": ""}

    saw = await world.call("Ann", "say hi")
    assert saw == {"Ann": '<<\nYou say, "hi"\n>>', "Bo": 'Ann says, "hi"'}

    await world.calls("Ann", "OUTPUTPREFIX", "OUTPUTSUFFIX")
    assert (await world.call("Ann", "say hi"))["Ann"] == 'You say, "hi"'


# -- saved decks ---------------------------------------------------------------------------


async def test_a_saved_deck_is_listed_loaded_and_deleted_by_whoever_saved_it_only(world):
    await dvorak_table(world, *DECK[:2])

    saw = await world.call("Ann", "savedeck Kit")
    assert saw["Ann"] == "You save the room as deck Kit (2 cards)."
    assert saw["Bo"] == saw["Cy"] == "Ann saves the room as deck Kit (2 cards)."
    assert re.search(r"^Kit +Ann +2  \d{4}-", (await world.call("Bo", "listdecks"))["Bo"], re.M)

    taken = 'The deck name "Kit" belongs to someone else. Choose another.'
    assert (await world.call("Bo", "savedeck Kit"))["Bo"] == taken
    saw = await world.call("Bo", "deletedeck Kit")
    assert saw == {"Ann": "", "Bo": "Only whoever saved that deck, or an administrator, can delete it.", "Cy": ""}

    await world.calls("Ann", "cleardeck", "loadcard Lamp/T/A lamp.")
    saw = await world.call("Ann", "loaddeck Kit")
    assert saw["Bo"] == "Ann loads the saved deck Kit (2 cards)."
    assert [card.name for card in (await world.room("Table")).table.deck_cards()] == ["Rock", "Hat"]

    saw = await world.call("Ann", "deletedeck Kit")
    assert saw["Ann"] == "You delete the saved deck Kit." and saw["Cy"] == "Ann deletes the saved deck Kit."
    assert (await world.call("Ann", "listdecks"))["Ann"].startswith("No decks have been saved.")
    assert (await world.call("Ann", "loaddeck Kit"))["Ann"].startswith('There is no saved deck called "Kit".')


# -- table management ----------------------------------------------------------------------


async def test_the_host_puts_players_on_teams_and_takes_them_off_and_no_one_else_may(world):
    await dvorak_table(world)
    saw = await world.call("Ann", "team Bo=Red")
    assert saw["Ann"] == "You put Bo on team Red." and saw["Bo"] == "Ann puts you on team Red."
    assert saw["Cy"] == "Ann puts Bo on team Red."
    assert "(team Red)" in (await world.call("Cy", "look"))["Cy"]

    assert (await world.call("Bo", "team Ann=Blue"))["Bo"].startswith("Only the host (Ann) can do that.")
    saw = await world.call("Ann", "team Bo=")
    assert saw["Cy"] == "Ann takes Bo off their team." and saw["Bo"] == "Ann takes you off your team."
    assert "team Red" not in (await world.call("Cy", "look"))["Cy"]
    # Nothing to change is refused, and told to no one else.
    saw = await world.call("Ann", "team Bo=")
    assert saw == {"Ann": "Bo is on no team.", "Bo": "", "Cy": ""}
    assert (await world.call("Ann", "team Ann="))["Ann"] == "You are on no team."
    saw = await world.call("Ann", "team Ann=Blue")
    assert saw["Ann"] == "You join team Blue." and saw["Bo"] == "Ann joins team Blue."
    assert (await world.call("Ann", "team Ann=Blue"))["Ann"] == "You are already on team Blue."
    saw = await world.call("Ann", "team Ann=")
    assert saw["Ann"] == "You leave your team." and saw["Cy"] == "Ann leaves their team."


async def test_win_and_endgame_end_a_running_game_only_at_the_hosts_word(world):
    await dvorak_game(world)
    assert (await world.call("Bo", "win Bo"))["Bo"].startswith("Only the host (Ann) can do that.")

    saw = await world.call("Ann", "win Bo")
    assert "*** Bo wins! ***" in saw["Ann"] and "*** Bo wins! ***" in saw["Cy"]
    assert (await world.call("Ann", "endgame"))["Ann"].startswith("No game is running here.")

    await world.call("Ann", "start")
    saw = await world.call("Ann", "endgame")
    assert "*** The game ended without a winner. ***" in saw["Bo"]


async def test_eliminating_the_other_of_two_players_ends_the_game_and_a_player_may_resign(world):
    await dvorak_game(world)
    saw = await world.call("Ann", "eliminate Bo")
    assert "*** Only Ann remains: Ann wins! ***" in saw["Bo"] and "*** Only Ann remains: Ann wins! ***" in saw["Cy"]

    await world.call("Ann", "start")
    saw = await world.call("Bo", "eliminate me")
    assert "*** Bo forfeits: Ann wins! ***" in saw["Ann"]


async def three_player_game(world: World) -> None:
    """:func:`dvorak_game` with Dee seated too, after Bo (Ann first, then Bo, then Dee)."""
    await dvorak_table(world, *DECK)
    await world.log_in("Dee")
    await world.call("Dee", "join Table")
    await world.calls("Ann", "set handsize=1")
    (await world.room("Table")).table.rng = random.Random(1)
    assert "You go first." in (await world.call("Ann", "start"))["Ann"]


async def test_when_the_player_whose_turn_it_is_leaves_or_resigns_the_next_player_is_told_it_is_their_turn(world):
    await three_player_game(world)
    saw = await world.call("Ann", "leave now")
    assert "pile. You are now the host. It is now your turn: draw a card to begin." in flat(saw["Bo"]), saw["Bo"]
    assert "pile. Bo is now the host. It is now Bo's turn." in flat(saw["Dee"]), saw["Dee"]
    assert "pile. Bo is now the host. It is now Bo's turn." in flat(saw["Cy"]), saw["Cy"]

    saw = await world.call("Bo", "eliminate me")
    assert "Only Dee remains" not in saw["Dee"] and "Bo forfeits: Dee wins!" in saw["Dee"], saw["Dee"]


async def test_when_the_host_eliminates_or_removes_the_player_whose_turn_it_is_the_turn_passes_with_word(world):
    await three_player_game(world)
    await world.calls("Ann", "draw", "endturn")
    saw = await world.call("Ann", "eliminate Bo")
    assert saw["Dee"].endswith("It is now your turn: draw a card to begin."), saw["Dee"]
    assert saw["Ann"].endswith("It is now Dee's turn."), saw["Ann"]
    saw = await world.call("Ann", "kick Dee")
    assert flat(saw["Ann"]).endswith("It is now your turn: draw a card to begin."), saw["Ann"]


async def test_with_draws_at_0_a_turn_begins_without_asking_for_a_draw_and_draw_says_why_not(world):
    await three_player_game(world)
    await world.calls("Ann", "draw", "set draws=0")
    saw = await world.call("Ann", "endturn")
    assert saw["Bo"] == "Ann ends the turn. It is now your turn.", saw["Bo"]
    refused = (await world.call("Bo", "draw"))["Bo"]
    assert flat(refused) == (
        "Nobody draws at this table (draws is 0). (If a card allows it, put force in front of the command.)"
    )
    assert "Bo ends the turn." in (await world.call("Bo", "endturn"))["Dee"]


async def test_a_player_who_gave_up_their_seat_mid_game_is_not_dealt_into_it_again_until_it_is_over(world):
    await three_player_game(world)
    refused = "You gave up your seat in the game being played here, so you cannot be dealt into it again"
    await world.call("Ann", "eliminate Bo")
    await world.call("Bo", "leave")
    table_before = (await world.call("Ann", "look"))["Ann"]
    saw = await world.call("Bo", "join Table")
    assert flat(saw["Bo"]).startswith(refused), saw["Bo"]
    assert saw["Ann"] == saw["Dee"] == saw["Cy"] == ""
    assert (await world.call("Ann", "look"))["Ann"] == table_before
    assert "Bo arrives to watch." in (await world.call("Bo", "watch Table"))["Ann"]
    assert flat((await world.call("Bo", "join Table"))["Bo"]).startswith(refused)
    assert [report.problems for report in await check_rooms(world.database, "Table")] == [[]]

    await world.call("Ann", "endgame")
    assert "You take a seat at the table." in (await world.call("Bo", "join Table"))["Bo"]
    # Resigning by leaving is the same: no fresh hand in the game one walked out of.
    await world.calls("Ann", "start")
    await world.call("Bo", "leave now")
    assert flat((await world.call("Bo", "join Table"))["Bo"]).startswith(refused)
    assert [report.problems for report in await check_rooms(world.database, "Table")] == [[]]


# -- force ---------------------------------------------------------------------------------


async def test_force_drawcard_out_of_turn_is_made_and_the_table_is_told_it_was_forced(world):
    await dvorak_game(world)
    assert (await world.call("Bo", "drawcard"))["Bo"].startswith("It is Ann's turn")

    saw = await world.call("Bo", "force drawcard")
    drawn = re.fullmatch(r"You draw #\d+ (\w+) \(Thing\): .* \[forced: outside the basic rules\]", saw["Bo"])
    assert drawn is not None, saw["Bo"]
    assert saw["Ann"] == saw["Cy"] == "Bo draws a card. [forced: outside the basic rules]"
    assert len((await world.room("Table")).table.hand(world.account_id("Bo"))) == 3


async def test_a_thing_given_into_play_reads_with_its_text_after_the_sentence(world):
    hands = await dvorak_game(world)
    number, name = next(iter(hands["Ann"].items()))
    saw = flat_all(await world.call("Ann", f"force givething {number} to Bo"))
    text = f"A {name.lower()}."
    forced = r"\[forced: outside the basic rules\]"
    assert re.fullmatch(rf"Ann puts #{number} {name} \(Thing\) into play for you[^:]*: {text} {forced}", saw["Bo"])


async def test_giving_a_card_to_the_hand_it_is_in_is_refused_and_names_it_to_no_one(world):
    hands = await dvorak_game(world)
    mine = next(iter(hands["Ann"]))
    saw = await world.call("Ann", f"force givecard {mine} to Ann")
    assert saw == {"Ann": "That card is already in your hand.", "Bo": "", "Cy": ""}
    # Unforced, the usual refusal comes first; and one player's card given to its own
    # holder by another says nothing of where it is.
    assert "only when a card says so" in flat((await world.call("Ann", f"givecard {mine} to me"))["Ann"])
    theirs = next(iter(hands["Bo"]))
    saw = await world.call("Ann", f"force givecard {theirs} to Bo")
    assert "already in" not in saw["Ann"]
    assert mine in (await world.room("Table")).table.hand(world.account_id("Ann"))


async def test_force_of_a_command_that_is_not_a_move_shows_the_usage_naming_the_forceable_ones(world):
    await dvorak_game(world)
    saw = await world.call("Ann", "force say hi")
    assert saw["Ann"].startswith("Usage: force <command>, where the command is one of: cleardeck, destroy,")
    assert "drawcard" in saw["Ann"] and "viewhand." in saw["Ann"] and "say" not in saw["Ann"].split(":", 1)[1]
    assert saw["Bo"] == saw["Cy"] == ""


# -- Dvorak: every event kind, as each viewer reads it -------------------------------------

#: Things only, each named so that a name in a text tells which card it is.
THINGS = tuple(f"loadcard {name}/T/A {name.lower()}." for name in ("Anvil", "Bell", "Comb", "Drum", "Egg", "Fork"))


class Step(NamedTuple):
    """One line run at room Table: who typed it, the events it logged, what each player saw."""

    actor: str
    line: str
    events: list[Event]
    saw: dict[str, str]


class Scripted:
    """Lines run at room Table, each kept as a :class:`Step`."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.steps: list[Step] = []

    async def __call__(self, name: str, *lines: str) -> None:
        for line in lines:
            await self.step(name, line, self.world.call(name, line))

    async def step(self, name: str, line: str, done: Awaitable[dict[str, str]]) -> dict[str, str]:
        room = await self.world.room("Table")
        before = room.seq
        saw = await done
        events = [logged.event for logged in await room.events(after_seq=before)]
        self.steps.append(Step(name, line, events, saw))
        return saw

    async def held(self, name: str) -> list[int]:
        """The cards in ``name``'s hand."""
        return list((await self.world.room("Table")).table.hand(self.world.account_id(name)))


async def _reconciled(world: World) -> dict[str, str]:
    """What each player saw of the room catching up with what was stored behind its back."""
    world.take_output()
    await world.rooms.reconcile()
    await world.settle()
    return world.take_output()


async def _absentees_marked(world: World) -> dict[str, str]:
    """What each player saw of the seated players away being marked so (at once), or back."""
    world.take_output()
    await world.rooms.mark_absentees(0)
    await world.settle()
    return world.take_output()


async def test_every_dvorak_event_kind_is_told_to_the_actor_another_player_and_a_spectator(world, tmp_path):
    await world.log_in("Ann", "Bo", "Cy", "Di")
    await world.call("Ann", "newroom Table")
    run = Scripted(world)
    await run("Bo", "join Table")
    await world.call("Cy", "watch Table")
    await run("Ann", *THINGS, "loadrule Gravity/Things fall.", "set handsize=2", "set votetime=300", "team Bo=Red")
    # Votes: Ann's proposals are approved by Ann as she makes them; Bo decides each.
    await run("Ann", "newcard Star/T/Shine.")
    await run("Bo", "approve 8")
    await run("Ann", "newrule Tide/Water rises.")
    await run("Bo", "repeal 9")
    await run("Ann", "revote 9", "withdraw 9", "newcard Moon/T/Glow.", "newcard Sun/T/Burn.", "bundle 10 11")
    await run("Bo", "approve 10")
    await run("Ann", "editcard 8/Star/T/Shine bright.")
    await run("Bo", "approve 8")
    await run("Ann", "removecard 11")
    await run("Bo", "approve 11")
    # A vote runs out of time.
    clock = Clock()
    (await world.room("Table")).table.clock = clock
    await run("Ann", "newcard Comet/T/Fly.")
    await run.step("(clock)", "(time passes)", world.time_passes("Table", clock, 300))
    # Saved decks and the operator's import.
    await world.call("Ann", "savedeck Kit")
    await run("Ann", "cleardeck", "loaddeck Kit")
    deck = tmp_path / "Extra.txt"
    deck.write_text("loadcard Gong/T/A gong.\n", encoding="utf-8")
    await import_deck(world.database, deck, "Table")
    await run.step("(operator)", "deck import", _reconciled(world))
    # Seats and hosts.
    await run("Ann", "host Bo")
    await run("Bo", "host Ann")
    await run("Di", "join Table", "leave", "join Table")
    await run("Ann", "kick Di")
    # Away and back.
    await world.call("Bo", "LOGOUT")
    await run.step("Bo", "(away)", _absentees_marked(world))
    await run("Bo", f"connect Bo {PASSWORD}")
    # Bo was not there to be told that Bo was away: Bo is told on coming back.
    back = run.steps[-1].saw["Bo"]
    assert "While you were away:\n[" in back and "You were away too long: votes are counted without you" in back
    # A game.
    (await world.room("Table")).table.rng = random.Random(1)
    await run("Ann", "start", "draw")
    ann = await run.held("Ann")
    await run("Ann", f"play {ann[0]}", f"force use {ann[0]}", f"force destroy {ann[0]}", f"force discard {ann[1]}")
    await run("Ann", "force takerand Bo")
    ann = await run.held("Ann")
    await run("Ann", f"force givecard {ann[0]} to Bo", "shuffle", f"force shufcard {ann[1]}")
    await run("Ann", "force viewhand Bo", "force drawcard", "force viewdraw")
    await run("Ann", f"force putcard {(await run.held('Ann'))[0]}=top")
    pile = (await world.room("Table")).table.state.pile(DRAW, NO_OWNER)
    await run("Ann", f"force reorder {pile[-2]} {pile[-1]}", "force endturn", "skip Bo")
    # The draw pile runs out: the discard pile is shuffled into a new one.
    left = len((await world.room("Table")).table.state.pile(DRAW, NO_OWNER))
    await run("Ann", f"force drawcard {left}")
    await run("Ann", f"force discard {(await run.held('Ann'))[0]}", "force drawcard")
    await run("Ann", f"force play {(await run.held('Ann'))[0]}=facedown", "force flip FD1")
    # Three ways a game ends.
    await run("Ann", "eliminate Bo", "start", "win Ann", "start", "endgame")
    # The CCG game: the approved cards become the set, and a deck is built of copies.
    await run("Ann", "set ccg=on", "deckbuild add 8=2")

    kinds = {event.kind for step in run.steps for event in step.events}
    logged = {logged.event.kind for logged in await (await world.room("Table")).events()}
    assert kinds == logged == set(RENDERERS), set(RENDERERS) ^ logged
    cards = (await world.room("Table")).table.state.cards
    for actor, line, events, saw in run.steps:
        assert not any("did something (" in text for text in saw.values()), (line, saw)
        viewers = {actor, "Ann", "Bo", "Cy"} - {"(operator)", "(clock)"} - ({"Bo"} if line == "(away)" else set())
        assert all(saw[viewer] for viewer in viewers) or not events, (line, saw)
        for event in events:
            if event.kind == "reorder":
                hidden = [cards[number].name for number in event.data["cards"]]
                assert not any(name in saw[other] for name in hidden for other in viewers - {actor}), (line, saw)
            if event.kind == "putcard" or (event.kind == "draw" and not event.data["visible"]):
                name = cards[event.data["card"]].name
                assert not any(re.search(rf"\b{name}\b", saw[other]) for other in viewers - {actor}), (line, saw)


# -- the order of the draw pile ------------------------------------------------------------


def flat_all(saw: dict[str, str]) -> dict[str, str]:
    """What each player saw, with the line wrapping taken out."""
    return {name: " ".join(text.split()) for name, text in saw.items()}


async def test_putcard_from_a_hand_tells_the_table_where_but_not_which_card(world):
    hands = await dvorak_game(world, "set handsize=1")
    await world.call("Ann", "draw")
    number, name = next(iter(hands["Ann"].items()))
    saw = flat_all(await world.call("Ann", f"putcard {number}=top"))
    assert "With turns on, cards move between places and players only when a card says so." in saw["Ann"]
    assert saw["Bo"] == saw["Cy"] == ""
    saw = flat_all(await world.call("Ann", f"force putcard #{number}=top"))
    assert saw["Ann"] == (
        f"You put #{number} {name} (Thing) from your own hand on top of the draw pile. "
        "[forced: outside the basic rules]"
    )
    for other in ("Bo", "Cy"):
        assert saw[other] == (
            "Ann puts a card from their own hand on top of the draw pile. [forced: outside the basic rules]"
        )
    saw = flat_all(await world.call("Ann", f"force putcard {number}=2"))
    assert "You put #" in saw["Ann"] and "into the draw pile, with 1 card above it." in saw["Ann"]
    assert saw["Bo"].startswith("Ann puts a card from the draw pile into the draw pile, with 1 card above it.")
    assert name not in saw["Bo"] + saw["Cy"] and f"#{number}" not in saw["Bo"] + saw["Cy"]
    table = (await world.room("Table")).table
    assert table.state.pile(DRAW, NO_OWNER)[-2] == number


async def test_putcard_from_play_names_the_card_and_bad_places_are_refused(world):
    hands = await dvorak_game(world, "set turns=off")
    number, name = next(iter(hands["Bo"].items()))
    await world.call("Bo", f"play {number}")
    saw = flat_all(await world.call("Ann", f"putcard {number}=bottom"))
    assert saw["Cy"] == f"Ann puts #{number} {name} (Thing) from play at the bottom of the draw pile."
    for bad in (f"putcard {number}", f"putcard {number}=middle", "putcard x=top", f"putcard {number}=-1"):
        assert "Usage: putcard <num>=top" in (await world.call("Ann", bad))["Ann"], bad
    assert "count from 1" in (await world.call("Ann", f"putcard {number}=0"))["Ann"]
    assert "There is no card #99" in (await world.call("Ann", "putcard 99=top"))["Ann"]


async def test_reorder_after_viewdraw_tells_the_table_only_how_many(world):
    await dvorak_game(world)
    table = (await world.room("Table")).table
    top_first = list(reversed(table.state.pile(DRAW, NO_OWNER)))
    names = [table.state.cards[n].name for n in top_first]
    listed = " ".join(str(n) for n in reversed(top_first))
    assert "only when a card says so" in (await world.call("Ann", f"reorder {listed}"))["Ann"]
    # Without a look, every list gets the same answer, whatever is in the pile.
    for attempt in (listed, str(top_first[0]), "99", f"{top_first[0]} {top_first[0]}"):
        assert "look first (viewdraw)" in (await world.call("Ann", f"force reorder {attempt}"))["Ann"]
    await world.call("Ann", "force viewdraw")
    assert "List each card once." in (await world.call("Ann", f"force reorder {top_first[0]} {top_first[0]}"))["Ann"]
    assert "Those are not the top 1 cards" in (await world.call("Ann", f"force reorder {top_first[1]}"))["Ann"]
    assert "Usage: reorder" in (await world.call("Ann", "force reorder"))["Ann"]
    assert "at most 20" in (await world.call("Ann", "force reorder " + " ".join(["1"] * 21)))["Ann"]
    saw = flat_all(await world.call("Ann", f"force reorder {listed}"))
    assert saw["Ann"].startswith(
        "You reorder the top 2 cards of the draw pile. [forced: outside the basic rules] Now on top, top first: #"
    )
    assert saw["Ann"].index(names[1]) < saw["Ann"].index(names[0])
    for other in ("Bo", "Cy"):
        assert saw[other] == "Ann reorders the top 2 cards of the draw pile. [forced: outside the basic rules]"
    assert list(reversed(table.state.pile(DRAW, NO_OWNER))) == top_first[::-1]
    # What Ann saw is stored with the room, and its event log rebuilds it.
    assert table.state.seen[world.account_id("Ann")] == table.state.pile(DRAW, NO_OWNER)
    assert [report.problems for report in await check_rooms(world.database, "Table")] == [[]]


# -- pasted proposals ----------------------------------------------------------------------


async def test_a_paste_of_proposals_as_one_line_makes_each_proposal(world):
    await dvorak_table(world)
    connection = world.connections["Ann"]
    line = (
        "newcard Apple/T/Make a newcard of it. newcard Bad Card newcard Pear/A/Eat. "
        "newrule Tide/Water rises. newcard /T/no name"
    )
    pieces = world.processor.commands_in(connection, line)
    assert pieces == [
        "newcard Apple/T/Make a newcard of it. newcard Bad Card",
        "newcard Pear/A/Eat.",
        "newrule Tide/Water rises.",
        "newcard /T/no name",
    ]
    saw = flat_all(await world.calls("Ann", *pieces))
    assert "You propose a new card: #1 Apple (Thing): Make a newcard of it. newcard Bad Card" in saw["Ann"]
    assert "Ann proposes a new card: #2 Pear (Action): Eat." in saw["Bo"]
    assert "Ann proposes a special rule: #3 Tide (rule): Water rises." in saw["Cy"]
    assert "The card has no name. Usage: newcard" in saw["Ann"]
    assert set((await world.room("Table")).table.state.proposals) == {1, 2, 3}


async def test_a_pasted_line_makes_at_most_twenty_proposals(world):
    await dvorak_table(world)
    connection = world.connections["Ann"]
    pieces = world.processor.commands_in(connection, " ".join(f"newcard C{i}/T/x" for i in range(500)))
    assert pieces == [f"newcard C{i}/T/x" for i in range(20)]
    assert " ".join(connection.take_text().split()) == (
        "A pasted line makes at most 20 proposals, so the last 480 were not made: paste them again."
    )


async def test_a_ccg_room_shows_the_unanimous_vote_its_set_is_decided_by_whatever_the_vote_setting(world):
    await world.log_in("Ann", "Bo")
    await world.call("Ann", "newroom Den")
    await world.call("Bo", "join Den")
    await world.calls("Ann", "set vote=majority", "set ccg=on", "newcard Goblin/T/Small.")
    shown = flat((await world.call("Bo", "viewvote"))["Bo"])
    assert shown.startswith("Waiting for a vote (policy: unanimous, as always for a CCG set; voters: Ann, Bo)")
    room = await world.room("Den")
    assert votes_json(room.table)["policy"] == "unanimous"
    await world.call("Ann", "set ccg=off")
    assert "(policy: majority;" in (await world.call("Bo", "viewvote"))["Bo"]


async def test_deckbuild_refuses_odd_counts_and_names_clearly_and_changes_nothing(world):
    await world.log_in("Ann")
    await world.call("Ann", "newroom Den")
    await world.call("Ann", "loadcard Goblin/T/Small.")
    await world.call("Ann", "set ccg=on")
    for line, refusal in (
        ("deckbuild add 1=99999999999", "How many copies? A whole number, 1 to 100."),
        ("deckbuild add 1=²", "How many copies?"),
        ("deckbuild add 1=0", "Add or remove 1 to 100 copies at a time."),
        ("deckbuild add x", "Which card? Give its number."),
        ("deckbuild add 99999999999999999999", "There is no card #999999999999... at this table."),
        ("deckbuild add \uff15", "Which card? Give its number."),
        ("deckbuild add 99", "There is no card #99 at this table."),
        ("deckbuild frob", "Usage: deckbuild;"),
        ("deckbuild import {", "The JSON deck could not be read"),
        ('deckbuild import {"format": "dvorak-deck", "cards": [{"name": 5}]}', "card 1"),
        ("deckbuild save " + "x" * 200, "deck name"),
        ("deckbuild load nothing", 'You have no saved deck called "nothing"'),
    ):
        assert refusal in (await world.call("Ann", line))["Ann"], line
    assert "Your deck is empty." in (await world.call("Ann", "deckbuild"))["Ann"]
    assert (await world.room("Den")).table.built(world.account_id("Ann")) == []


async def test_deckbuild_in_a_room_of_the_basic_game_says_where_decks_are_built(world):
    await world.log_in("Ann")
    await world.call("Ann", "newroom Den")
    for line in ("deckbuild save Mine", "deckbuild add 1=2", "viewset"):
        assert "set ccg=on" in (await world.call("Ann", line))["Ann"], line


async def test_a_newroom_refused_on_the_way_in_leaves_no_room_behind(world, monkeypatch):
    await world.log_in("Ann")

    async def refused(ctx, destination, arrival):
        raise CommandError("Your table would not let you go.")

    monkeypatch.setattr(rooms_module, "go_to", refused)
    assert (await world.call("Ann", "newroom Den"))["Ann"] == "Your table would not let you go."
    assert "Den" not in (await world.call("Ann", "rooms"))["Ann"]
    monkeypatch.undo()
    assert "You made room Den" in (await world.call("Ann", "newroom Den"))["Ann"]


async def test_a_person_cannot_sit_under_the_name_of_a_computer_player_at_the_table(world):
    await world.log_in("Ann", "Olga")
    await world.call("Ann", "newroom/gnav Fjord")
    assert "Olga (bot, easy)" in (await world.call("Ann", "addbot easy Olga"))["Ann"]
    saw = await world.call("Olga", "join Fjord")
    assert flat(saw["Olga"]) == (
        "A computer player here is called Olga, as you are: the host may remove it (removebot) for you to sit down."
    )
    assert saw["Ann"] == "" and "The Lobby" in (await world.call("Olga", "look"))["Olga"]
    await world.call("Ann", "removebot Olga")
    assert "You take a seat" in (await world.call("Olga", "join Fjord"))["Olga"]


def test_a_player_leaving_a_ccg_game_is_told_their_copies_go_back_to_their_deck():
    room = a_ccg_game_of_three()
    room.do(lambda t: t.unseat(CY, CY))
    told = {viewer: render_event(room.table, room.events[-1], viewer) for viewer in (CY, ANN)}
    assert "The copies of your deck go back to it; anything else you held goes to the discard pile." in told[CY]
    assert "The copies of their deck go back to it; anything else they held" in told[ANN]


async def test_help_leave_says_what_leaving_mid_game_costs_in_every_registered_game(world):
    await world.log_in("Ann")
    await world.call("Ann", "newroom Hall")
    shown = " ".join((await world.call("Ann", "help leave"))["Ann"].split())
    for name in KINDS:
        assert f"{name.capitalize()}: {' '.join(game_commands(name).leaving_costs.split())}" in shown, name
    assert "help leave" in (await world.call("Ann", "help kick"))["Ann"]
