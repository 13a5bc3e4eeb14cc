"""Every family of commands, run without sockets (:mod:`tests.harness`): what the player
who typed it, another player and, where it matters, a spectator each saw.

End-to-end tests over TCP (``tests/test_game_rooms.py`` and the like) keep what needs a
real connection: telnet, framing on the wire, several nodes, crashes."""

from __future__ import annotations

import random
import re

from tests.harness import World

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


async def test_a_room_command_in_the_lobby_says_where_it_is_used(world):
    await world.log_in("Ann")
    assert (await world.call("Ann", "draw"))["Ann"].startswith("That command is used at a game table.")


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
    text = f"#{number} {hands['Ann'][number]}\nType: Thing\nBy: Ann\nA {hands['Ann'][number].lower()}."
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


async def test_only_the_host_sets_and_starts_and_settings_shows_the_changes(world):
    await dvorak_table(world, *DECK)

    saw = await world.call("Bo", "set handsize=3")
    assert saw["Bo"].startswith("Only the host")
    saw = await world.call("Ann", "set handsize=3")
    assert saw == {"Ann": "You set handsize to 3.", "Bo": "Ann sets handsize to 3.", "Cy": "Ann sets handsize to 3."}

    settings = (await world.call("Bo", "settings"))["Bo"]
    assert re.search(r"^handsize\s+3\s*\*", settings, re.M), settings

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


async def test_gnav_start_shows_each_seat_its_own_card_only(world):
    saw = await gnav_match(world, seed=7)
    card = re.search(r"Your card: (\w+)\.", saw["Ann"])
    assert card is not None, saw["Ann"]
    assert "It is your turn: keep or swap." in saw["Ann"]
    assert saw["Bo"] == "A match of Gnav begins: 3 lives each.\nDeal 1: Olga deals; Ann goes first."
    assert not re.search(rf"\b{card.group(1)}\b", saw["Bo"])


async def test_gnav_keep_lets_the_computer_player_move_and_the_deal_settle(world):
    await gnav_match(world, seed=7)

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
