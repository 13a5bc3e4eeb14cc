"""Input as MUSH players type it, over real connections: a typo gets the command it was
likely meant for, a room is joined by the start of its name, and help answers for every
game and card."""

from __future__ import annotations

from tests.players import ScriptedPlayer, flat, seated_at

HUH = 'Huh? (Type "help" for help.)'


async def test_a_typo_of_a_command_usable_here_is_answered_with_it(server):
    """Issue 45: ``drwa`` answered a bare "Huh?"."""
    (ann,) = await seated_at(server.port, ["Ann"], "Parlour", cards=3)
    assert flat(await ann.ask("drwa")) == 'Huh? Did you mean "draw"? (Type "help" for help.)'
    assert flat(await ann.ask("hnad 3")) == 'Huh? Did you mean "hand"? (Type "help" for help.)'
    # Nothing close, or too short or too long to be a typo: a bare Huh.
    for line in ("xyzzy", "dr", "d" * 5000, "漢字漢字"):
        assert flat(await ann.ask(line)) == HUH, line
    await ann.ask("leave")
    # In the lobby a table's command is not suggested: there it is explained.
    assert flat(await ann.ask("drwa")) == HUH
    # Staff commands are never offered to players.
    said = flat(await ann.ask("@bna Troll"))
    assert said.startswith("Huh?") and "@ban" not in said


async def test_a_room_is_joined_by_the_start_of_its_name_when_that_names_one_room(server):
    """Issue 45: ``join Friday`` said there was no room called "Friday" while "Friday
    Night" was open."""
    host = await ScriptedPlayer.connect(server.port, "Host")
    await host.ask("newroom Friday Night")
    other = await ScriptedPlayer.connect(server.port, "Other")
    await other.ask("newroom/gnav Saturday Club")
    guest = await ScriptedPlayer.connect(server.port, "Guest")
    assert "Friday Night" in flat(await guest.ask("join  FRIDAY "))
    assert "Guest" in flat(await host.ask("look"))
    await guest.ask("leave")
    await other.ask("leave")
    await other.ask("newroom Friday Brunch")
    said = flat(await guest.ask("join fri"))
    assert said == '"fri" could be any of: Friday Brunch, Friday Night.'
    assert "Guest" not in flat(await host.ask("look"))
    said = flat(await guest.ask("join Sunday"))
    assert said.startswith('There is no room called "Sunday".')


async def test_help_lists_every_game_and_explains_every_ys_card(server):
    """Issue 45: ``help help`` listed dvorak and gnav, not ys; ``help alchemist`` said
    there was no such command."""
    reader = await ScriptedPlayer.connect(server.port, "Reader")
    assert "The games: dvorak, gnav, ys." in flat(await reader.ask("help help"))
    said = flat(await reader.ask("help alchemist"))
    assert said.startswith("Alchemist (yellow-edged, 1 in the deck): played at the end of the round")
    assert said == flat(await reader.ask("help ys alchemist"))
    cards = flat(await reader.ask("help ys cards"))
    assert "Ys action cards: 24, 4 blue-edged and 20 yellow-edged." in cards
    for card in ("Treasure", "Prince", "King", "Alchemist", "Banker", "Jeweller", "Merchant", "Herald", "Spy"):
        assert f"{card} (" in cards, card
    said = flat(await reader.ask("help alchemst"))
    assert said == 'There is no help on "alchemst" here. Did you mean "alchemist"? Type "help" for the list.'
    # A command of a game's tables is explained from the lobby, saying where it is used.
    assert flat(await reader.ask("help bid")).startswith("Help for bid (at Ys tables):")
    # The Ys board's legend is explained where the board is.
    legend = flat(await reader.ask("help board"))
    assert "A5 face up, B?' face down" in legend and "=A9 shows who leads it" in legend
