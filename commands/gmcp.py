"""GMCP: structured state for MUD clients (Mudlet and others) that ask for it.

Packages, sent whenever they change (docs/players.md shows their JSON):

- ``Char.Name``: who you are logged in as.
- ``Room.Info``: where you are (the lobby or a game room).
- ``Room.Table``: in a game room, what every game's table shows everyone: the seats,
  whose turn, the turn timer, how the last game ended (``commands.games.table_summary``).
- to the browser page alone: ``Room.Rules`` (the game's rules, on entering its room),
  ``Room.Results`` (the room's last games, with each ``results``) and ``Lobby.List``
  (:mod:`commands.lobby`).
- each game's own packages, from what its visibility policy lets you see (for Dvorak
  ``Dvorak.Table``, ``Dvorak.Hand``, ``Dvorak.Votes``: see ``commands/dvorak/gmcp.py``).
"""

from __future__ import annotations

from typing import Any

from commands.games import all_game_commands, game_commands, send_views
from games import KINDS
from i18n import _, language
from server.hub import OnlinePlayer, Place
from server.rooms import GameRoom


def room_info(place: Place) -> dict[str, Any]:
    if isinstance(place, GameRoom):
        return {"name": place.name, "kind": "game", "game": place.game, "password": place.password_hash is not None}
    return {"name": _(place.title), "kind": "lobby"}


def send_identity(player: OnlinePlayer) -> None:
    for connection in player.connections:
        connection.send_gmcp("Char.Name", {"name": player.name, "fullname": player.name})


def send_place(player: OnlinePlayer) -> None:
    """Where the player is, and (in a room) its whole table, to every GMCP connection;
    every other game's packages empty (the player may come from another game's room
    without passing through the lobby)."""
    if not any(connection.gmcp for connection in player.connections):
        return
    place = player.place
    with language(player.language):
        info = room_info(place)
    for connection in player.connections:
        connection.send_gmcp("Room.Info", info)
    here = place.game if isinstance(place, GameRoom) else None
    if here is None:
        for connection in player.connections:
            connection.send_gmcp("Room.Table", {})
            if connection.browser_page:
                # Emptied, so that the next room's rules are sent even if they are the same.
                connection.send_gmcp("Room.Rules", {})
    for game, commands in all_game_commands().items():
        if game != here:
            for package, empty in commands.empty_views.items():
                for connection in player.connections:
                    connection.send_gmcp(package, empty)
    if isinstance(place, GameRoom):
        send_table(place, [player])
        pages = [connection for connection in player.connections if connection.browser_page]
        if pages:
            with language(player.language):
                rules = room_rules(place.game)
            for connection in pages:
                connection.send_gmcp("Room.Rules", rules)


def room_rules(game: str) -> dict[str, Any]:
    """``Room.Rules``, for the page's Rules tab: the game's rules and its help topics, as
    ``help <game>`` tells them (written as docstrings are: paragraphs apart, indented
    lines kept whole), in the language set around it."""
    commands = game_commands(game)
    return {
        "game": game,
        "title": _(KINDS[game].title),
        "text": _(commands.rules_help),
        "topics": [{"name": name, "text": _(text)} for name, text in commands.help_topics.items()],
    }


def send_table(room: GameRoom, players: list[OnlinePlayer] | None = None) -> None:
    """The room's table as its game shows it, to everyone in the room who asked for GMCP
    (or just to ``players``)."""
    send_views(room, players)


def place_changed(place: Place) -> None:
    """Players on other nodes came, went or moved: the table (who is watching, who is
    away) to those in the room."""
    if isinstance(place, GameRoom):
        send_table(place)


def moved(player: OnlinePlayer, origin: Place, destination: Place) -> None:
    """After a move between places: the mover's new place, and both rooms' tables (who is
    watching, who is away) to those in them."""
    send_place(player)
    for place in (origin, destination):
        if isinstance(place, GameRoom):
            send_table(place)
