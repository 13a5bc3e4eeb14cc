"""The lobby's board: the game rooms, the games and who is online, as the GMCP package
``Lobby.List``, sent to everyone in the lobby whose client draws it (the browser page:
``Connection.browser_page``) and sent again every :data:`REFRESH` seconds while anyone
is there to read it. A connection is sent a package only when it differs from the one it has (see
``send_gmcp``), so an unchanged board costs one query of the rooms a period."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from commands.games import bot_label, game_commands
from games import KINDS
from games.toolkit import Setting
from i18n import _, language
from persistence.database import DatabaseUnavailable
from server.hub import Hub, OnlinePlayer
from server.rooms import RoomRegistry, place_key

log = logging.getLogger(__name__)

#: How often the board is sent again to those in the lobby (seconds).
REFRESH = 1.0


@dataclass(frozen=True)
class RoomRow:
    """One game room as the lobby lists it (``rooms`` and ``Lobby.List``)."""

    name: str
    game: str
    phase: str
    #: Who is seated, computer players marked "(bot)".
    seated: list[str]
    watching: int
    password: bool


async def room_rows(rooms: RoomRegistry, hub: Hub) -> list[RoomRow]:
    """Every room as stored (not deleted nor archived), with what this node knows better
    of those it has loaded: their seats and phase as they are now, and who watches."""
    rows = []
    for summary, live in await rooms.summaries():
        if live:
            seated = [bot_label(seat) for seat in live.table.state.seats]
            phase, watching = live.table.state.phase, len(live.spectators())
        else:
            seated, phase = list(summary.seated), summary.phase
            elsewhere = hub.remote_in(place_key(summary.id)).values()
            watching = sum(p.name not in summary.seated for p in elsewhere)
        rows.append(RoomRow(summary.name, summary.game, phase, seated, watching, summary.has_password))
    return rows


def board(rows: list[RoomRow], hub: Hub) -> dict[str, Any]:
    """``Lobby.List`` in the language set around it: the games (with their titles, their
    settings, and whether ``play <game>`` offers them against computer players), the
    rooms, and the names of those online, longest-connected first."""
    return {
        "games": [
            {
                "name": game,
                "title": _(kind.title),
                "quick": bool(game_commands(game).quick_bots),
                "settings": [setting_json(setting) for setting in kind.settings().values()],
            }
            for game, kind in KINDS.items()
        ],
        "rooms": [
            {
                "name": row.name,
                "game": row.game,
                "phase": row.phase,
                "seated": row.seated,
                "watching": row.watching,
                "password": row.password,
            }
            for row in rows
        ],
        "online": [player.name for player in hub.players_by_login()],
    }


def setting_json(setting: Setting) -> dict[str, Any]:
    """A setting as the page's New table form offers it: its name, what it means, its
    default as typed, and its values: ``choices`` (a switch's on and off, or a word's), else
    a number from ``low`` to ``high`` (``whole`` or not; 0 too where ``zero_allowed``)."""
    switch = isinstance(setting.default, bool)
    return {
        "name": setting.name,
        "about": _(setting.about),
        "default": setting.show(setting.default),
        "choices": ["on", "off"] if switch else list(setting.choices),
        "low": setting.low,
        "high": setting.high,
        "whole": isinstance(setting.default, int),
        "zero_allowed": setting.zero_allowed,
    }


class LobbyBoard:
    """Sends ``Lobby.List`` to those in the lobby: at once to a player who arrives there
    (:meth:`arrived`), and every :data:`REFRESH` seconds to all of them."""

    def __init__(self, hub: Hub, rooms: RoomRegistry) -> None:
        self.hub = hub
        self.rooms = rooms
        #: Asks the next round to come now (someone arrived in the lobby).
        self._wanted = asyncio.Event()

    def arrived(self) -> None:
        """Someone came to the lobby: send the board now rather than at the next round."""
        self._wanted.set()

    def readers(self) -> list[OnlinePlayer]:
        """Those in the lobby on this node with a connection that draws the board."""
        return [
            player
            for player in self.hub.lobby.occupants.values()
            if any(connection.browser_page for connection in player.connections)
        ]

    async def send(self) -> None:
        """The board, as it is now, to every reader (each in their language)."""
        readers = self.readers()
        if not readers:
            return
        rows = await room_rows(self.rooms, self.hub)
        made: dict[str, dict[str, Any]] = {}
        # Read again: a reader may have left the lobby while the rooms were read.
        for player in self.readers():
            code = player.language
            if code not in made:
                with language(code):
                    made[code] = board(rows, self.hub)
            for connection in player.connections:
                if connection.browser_page:
                    connection.send_gmcp("Lobby.List", made[code])

    async def run(self) -> None:
        """Send the board every :data:`REFRESH` seconds, or at once when asked, for as
        long as the node runs."""
        while True:
            try:
                await asyncio.wait_for(self._wanted.wait(), REFRESH)
            except TimeoutError:
                pass
            self._wanted.clear()
            try:
                await self.send()
            except DatabaseUnavailable as outage:
                log.warning("could not send the lobby's board: %s", outage)
            except Exception:
                log.exception("error sending the lobby's board")
