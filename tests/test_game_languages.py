"""The three games in other languages, over telnet: a Czech and a Slovak player play a
Dvorak game, a Gnav match against computer players and a Ys game to the end, each
reading it in their own language, every line within 80 columns; and a player reading the
pseudo-language plays them too, where any English word a game shows them (besides
names, what players wrote and command words) is text that bypasses the catalogs.

The players' moves are worked out from the room's table in this process (whose turn it
is, a legal move), never from the text: the text is what is checked."""

from __future__ import annotations

import asyncio
import random
import re

import pytest

from commands.dispatch import IN_THE_LOBBY
from commands.games import all_game_commands
from commands.session import CONNECTION_COMMANDS
from games import KINDS
from games.base import OVER
from games.dvorak.settings import SETTINGS as DVORAK_SETTINGS
from games.gnav import rules as gnav_rules
from games.ys import tables as ys_tables
from games.ys.visibility import seat_view
from i18n import PSEUDO, _, in_language, language, said
from server.rooms import GameRoom
from server.text import WHOLE_LINE, render_colours, shown_width
from tests.players import BEGIN, END, ScriptedPlayer
from tests.ys_players import command_for, neutral_command

#: Cards written by the players (never translated).
DECK = [f"loadcard Lucerna {i}/T/Svetlo na cestu." for i in range(1, 13)]


@pytest.fixture(autouse=True)
def quick_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """The next Gnav deal comes at once after a settlement."""
    monkeypatch.setattr(gnav_rules, "DEAL_PAUSE", 0.05)


async def in_language_player(server, name: str, code: str) -> ScriptedPlayer:
    player = await ScriptedPlayer.connect(server.port, name)
    await player.ask(f"@language {code}")
    return player


async def asks(player: ScriptedPlayer, *lines: str) -> None:
    """``player`` types each of ``lines`` in turn, each waiting for its reply."""
    for line in lines:
        await player.ask(line)


async def table_of(server, room_name: str) -> GameRoom:
    room = await server.rooms.find(room_name)
    assert room is not None
    return room


async def until_over(server, room_name: str, players: dict[int, ScriptedPlayer], move, limit: int = 600) -> None:
    """Each player waited for makes ``move(room, account_id)``'s move until the game is over."""
    for _turn in range(limit):
        room = await table_of(server, room_name)
        if room.table.state.phase == OVER:
            return
        waiting = [account for account in room.table.waiting_for() if account in players]
        if not waiting:
            await asyncio.sleep(0.02)
            continue
        command = move(room, waiting[0])
        if command is None:
            await asyncio.sleep(0.02)
            continue
        await players[waiting[0]].ask(command)
    last = {player.name: player.client.transcript[-600:] for player in players.values()}
    raise AssertionError(f"the game in {room_name} did not end: {last}")


def account(server, player: ScriptedPlayer) -> int:
    return next(p.account_id for p in server.hub.players.values() if p.name == player.name)


async def play_gnav(server, host: ScriptedPlayer, guest: ScriptedPlayer) -> None:
    await host.ask("newroom/gnav Fjord")
    await guest.ask("join Fjord")
    await asks(host, "addbot normal", "set botdelay=0", "start")
    players = {account(server, p): p for p in (host, guest)}
    await until_over(server, "Fjord", players, lambda room, me: "keep")
    await asks(host, "look", "leave")
    await guest.ask("leave")


async def play_dvorak(server, host: ScriptedPlayer, guest: ScriptedPlayer) -> None:
    await host.ask("newroom Hall")
    await guest.ask("join Hall")
    await asks(host, *DECK, "set handsize=3", "start")
    players = {account(server, p): p for p in (host, guest)}
    host_id = account(server, host)
    turns = 0

    def move(room: GameRoom, me: int) -> str | None:
        nonlocal turns
        state = room.table.state
        if not state.turn.drawn:
            return "draw"
        turns += 1
        if turns < 4 or me != host_id:  # (each turn adds a card: the host wins before a hand is full)
            return "endturn"
        return f"win {players[me].name}"  # the host declares a winner: themselves

    await until_over(server, "Hall", players, move)
    for player in (host, guest):
        await asks(player, "look", "results", "leave")


async def play_ys(server, host: ScriptedPlayer, guest: ScriptedPlayer) -> None:
    await host.ask("newroom/ys Harbour")
    await guest.ask("join Harbour")
    await asks(host, "addbot easy", "set botdelay=0")
    (await table_of(server, "Harbour")).table.rng = random.Random(5)
    await host.ask("start")
    players = {account(server, p): p for p in (host, guest)}
    rng = random.Random(2)

    def move(room: GameRoom, me: int) -> str | None:
        return neutral_command(room.table, me, rng) or command_for(seat_view(room.table.state, me), rng)

    await until_over(server, "Harbour", players, move)
    for player in (host, guest):
        await asks(player, "board", "look", "leave")


def lines_of(transcript: str) -> list[str]:
    text = render_colours(transcript.replace(WHOLE_LINE, "").replace(BEGIN, "").replace(END, ""), False)
    return text.replace("\r", "").split("\n")


def assert_fits(transcript: str) -> None:
    wide = [line for line in lines_of(transcript) if shown_width(line) > 80]
    assert wide == [], wide


def put(code: str, message: str, /, **params: object) -> str:
    return in_language(said(message, **params), code)


#: How each game is played here, and a line of its own each player must be shown.
GAMES = {
    "gnav": (play_gnav, "You take a seat at the {game} table."),
    "dvorak": (play_dvorak, "Your hand:"),
    "ys": (play_ys, "A game of Ys begins. Order cards: {order}."),
}


@pytest.mark.parametrize("game", GAMES)
async def test_a_czech_and_a_slovak_player_play_a_game_to_the_end_each_in_their_language(server, game):
    rehor = await in_language_player(server, "Řehoř", "cs")
    sarka = await in_language_player(server, "Šárka", "sk")
    play, sample = GAMES[game]
    await play(server, rehor, sarka)
    for player, code in ((rehor, "cs"), (sarka, "sk")):
        seen = player.client.transcript
        with language(code):
            wanted = _(sample).split("{", 1)[0]
        assert wanted != sample.split("{", 1)[0], f"{sample!r} has no {code} translation"
        assert wanted in seen, (code, wanted)
        assert_fits(seen)
    if game == "dvorak":
        assert "Lucerna 1" in rehor.client.transcript  # the players' own card, as written


def _typed_words() -> set[str]:
    """Every word of a command's name or usage, in the lobby and at every game's table."""
    sets = [*IN_THE_LOBBY, CONNECTION_COMMANDS]
    for commands in all_game_commands().values():
        sets += [*commands.command_sets, *commands.lobby_command_sets]
    words = {"UTC", *KINDS}
    for kind in KINDS.values():  # the computer players' names and the settings'
        table = getattr(kind, "table_class", None)
        words.update(getattr(table, "bot_names", ()), getattr(table, "settings_spec", {}))
    words.update(DVORAK_SETTINGS)
    # Ys's words a player types: colours, rings and cards (play spy, place 5 city 2 palace).
    words.update(ys_tables.COLOURS, ys_tables.RINGS, ys_tables.YELLOW_CARDS, [ys_tables.BLUE_CARD])
    words.update({"city", "market", "black", "white"})
    for command_set in sets:
        for command in command_set.commands:
            for form in (command.key, *command.aliases, *command.usage):
                words.update(re.findall(r"[A-Za-z]{3,}", form))
    return words


def _bypassing(lines: list[str], allowed: set[str]) -> list[str]:
    """The lines with a word of three letters or more that is not ``allowed`` (a Roman
    numeral is a card's rank)."""
    words = (set(re.findall(r"\b[A-Za-z]{3,}\b", line)) - allowed for line in lines)
    return [
        line for line, extra in zip(lines, words, strict=True) if any(not re.fullmatch("[IVXL]+", w) for w in extra)
    ]


@pytest.mark.parametrize("game", GAMES)
async def test_no_game_text_bypasses_the_catalogs(server, game):
    """Zed reads the pseudo-language through a game, with help on it; Ann plays beside
    him in English and is shown none of it."""
    zed = await in_language_player(server, "Zed", PSEUDO)
    since = len(zed.client.transcript)
    ann = await ScriptedPlayer.connect(server.port, "Ann")
    await zed.ask(f"help {game}")
    await GAMES[game][0](server, zed, ann)
    allowed = _typed_words() | {"Zed", "Ann", "Fjord", "Hall", "Harbour", "Lucerna", "Svetlo", "cestu"}
    allowed |= {"qps", "Gnav", "Dvorak", "MUSH"}
    shown = zed.client.transcript[since:]
    bypassing = _bypassing(lines_of(shown), allowed)
    assert bypassing == [], "\n".join(bypassing)
    assert not re.search("[ŵţþƀđƒĝĥĵķľɱǫŕûṽẋ]|~~", ann.client.transcript.split('create "Jo Smith"', 1)[1])
