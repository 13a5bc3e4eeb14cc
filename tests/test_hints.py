"""Hints that say what to type: before and after logging in, room passwords, a missing
player or card number, and drawing several cards. Checked over real TCP connections."""

from __future__ import annotations

from tests.conftest import log_in
from tests.players import ScriptedPlayer, flat, loosely

THINGS = ["Robot", "Vest", "Cap", "Hat", "Boot", "Sock", "Coat", "Belt"]


async def game_of(server, names, room="Parlour", handsize=4, deck=None):
    """A started game, turns off, whose deck is only Things (named in THINGS): ``deck`` of
    them, all dealt unless said otherwise, so each hand is known to its player."""
    players = [await ScriptedPlayer.connect(server.port, name) for name in names]
    host = players[0]
    await host.ask(f"newroom {room}")
    for name in THINGS[: deck or handsize * len(names)]:
        await host.ask(f"loadcard {name}/T/A {name.lower()}.")
    for player in players[1:]:
        await player.ask(f"join {room}")
    await host.ask("set turns=off")
    await host.ask(f"set handsize={handsize}")
    await host.ask("start")
    return players


async def test_a_command_typed_before_logging_in_says_to_log_in_first(connect):
    client = await connect()
    await client.command("say hi", loosely("You are not logged in: type connect <name> <password>"))
    await client.expect(loosely("or create <name> <password> to make a new player."))
    await client.command("look", r"You are not logged in")
    await client.command("xyzzy", r'^Huh\?  \(Type "help" for help\.\)$')


async def test_create_or_connect_when_logged_in_says_you_are_logged_in(connect):
    client = await connect()
    await log_in(client, "Alice")
    await client.command("create Bob secret1", loosely("You are already logged in, as Alice. To be another"))
    await client.expect(loosely("player, type LOGOUT first."))
    await client.command("connect Alice secret1", r"You are already logged in, as Alice\.")
    await client.command("WHO", r"1 player connected\.")


async def test_room_password_hints_name_the_command_typed(server):
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    bo = await ScriptedPlayer.connect(server.port, "Bo")
    assert flat(await ann.ask("newroom")) == (
        "Usage: newroom <name> or newroom <name>=<password> or newroom/<game> <name>[=<password>]"
    )
    await ann.ask("newroom Den=hush")
    reply = flat(await bo.ask("watch Den"))
    assert "Room Den has a password: add it after an equals sign, e.g. watch Den=<password>" in reply
    assert "join Den=" not in reply
    assert "join Den=<password>" in flat(await bo.ask("join Den"))
    assert flat(await bo.ask("join")) == "Usage: join <room> or join <room>=<password>"
    assert flat(await bo.ask("watch =x")) == "Usage: watch <room> or watch <room>=<password>"
    taken = flat(await bo.ask("newroom Den=hush"))
    assert taken == 'A room called "Den" already exists. Join it with: join Den=<password>'
    await bo.ask("newroom Open")
    assert flat(await ann.ask("newroom open")).endswith("Join it with: join Open")


async def test_naming_nobody_shows_how_to_name_a_player(server):
    ann, bo = await game_of(server, ["Ann", "Bo"])
    assert flat(await ann.ask("host")) == "Which player? Usage: host <player>"
    assert flat(await ann.ask("skip")) == "Which player? Usage: skip <player>"
    assert flat(await ann.ask("win")) == "Which player? Usage: win <player>"
    assert flat(await ann.ask("eliminate")) == "Which player? Usage: eliminate <player> or eliminate me"
    assert flat(await ann.ask("team =red")) == "Which player? Usage: team <player>=<team name> or team <player>="
    assert "Host: Ann." in flat(await bo.ask("look"))


async def test_play_on_nothing_shows_the_on_form(server):
    ann, _ = await game_of(server, ["Ann", "Bo"])
    reply = flat(await ann.ask("play 1 on"))
    usage = "Usage: playcard <num> or playcard <num> on <num> or playcard <num>=facedown"
    assert reply == f"Which card? Give its number. {usage}"
    assert flat(await ann.ask("play")).endswith(usage)


async def test_draw_n_draws_n_cards_and_each_counts_against_the_turn(server):
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    bo = await ScriptedPlayer.connect(server.port, "Bo")
    await ann.ask("newroom Drawing")
    await bo.ask("join Drawing")
    for name in THINGS + ["Hood", "Cape", "Ring", "Scarf"]:
        await ann.ask(f"loadcard {name}/T/A {name.lower()}.")
    await ann.ask("set handsize=1")
    await ann.ask("start")
    current, _ = await ann.table()
    player, other = (ann, bo) if current == "Ann" else (bo, ann)
    refused = flat(await player.ask("draw 2"))
    assert refused.startswith("Nothing was drawn: you may draw 1 card a turn, and 2 would be more.")
    assert len(await player.hand()) == 1
    assert flat(await player.ask("draw 0")) == "Usage: drawcard or drawcard <n>, where n is 1 to 20."
    assert flat(await player.ask("draw two")) == "Usage: drawcard or drawcard <n>, where n is 1 to 20."
    await ann.ask("set draws=3")
    reply = flat(await player.ask("draw 3"))
    assert reply.count("You draw #") == 3
    await other.client.expect(r"draws a card\.\n(?:.*\n)*?.*draws a card\.\n(?:.*\n)*?.*draws a card\.")
    assert len(await player.hand()) == 4
    assert "drawn 3 of 3" in flat(await player.ask("look"))
    assert flat(await player.ask("draw")).startswith("You have already drawn this turn")


async def test_draw_n_from_a_pile_too_short_draws_nothing(server):
    ann, bo = await game_of(server, ["Ann", "Bo"], handsize=3, deck=8)
    assert "The draw pile holds 2 cards." in flat(await ann.ask("countdraw"))
    reply = flat(await ann.ask("draw 3"))
    assert reply.startswith("Nothing was drawn, since only 2 of the 3 cards could be: The draw pile and the discard")
    assert len(await ann.hand()) == 3
    assert "The draw pile holds 2 cards." in flat(await bo.ask("countdraw"))
    assert flat(await ann.ask("draw 2")).count("You draw #") == 2


async def test_five_failed_logins_are_answered_and_the_sixth_is_refused(start_server, connect):
    server = await start_server(login_failure_limit=5, login_failure_window=60.0)
    owner = await connect(server)
    await log_in(owner, "Alice")
    guesser = await connect(server)
    for attempt in range(5):
        await guesser.command(f"connect Alice guess{attempt}", r"different password")
    await guesser.command(
        "connect Alice secret1",
        loosely(
            "Too many failed logins from your address (5 wrong passwords in 60 seconds, room passwords included). "
            "Try again in"
        ),
    )
    assert "Welcome back" not in guesser.transcript
