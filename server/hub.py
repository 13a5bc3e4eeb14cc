"""The hub: who is online, on which connections, and where each player is.

A logged-in player is always in exactly one :class:`Place`: the lobby, or a game room.
Places deliver text to their occupants; the hub finds players and routes text to them.
The hub holds no rules and writes no SQL.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from server.connection import Connection


@dataclass(eq=False)
class OnlinePlayer:
    """A logged-in account and every connection it is logged in on."""

    account_id: int
    name: str
    is_admin: bool
    place: Place
    connections: list[Connection] = field(default_factory=list)
    #: Free text shown in WHO (``@doing``); kept while the player is online.
    doing: str = ""
    #: Who a bare ``page <text>`` goes to: the last player paged.
    last_paged: str | None = None
    #: ANSI colour: "auto" (if the client has it), "on" or "off" (``@color``).
    color: str = "auto"
    online_since: float = field(default_factory=time.monotonic)

    def send(self, text: str, wrap: bool = True) -> None:
        """Write ``text`` to every connection of this player (see :meth:`Connection.send`)."""
        for connection in self.connections:
            connection.send(text, wrap)

    @property
    def idle_seconds(self) -> float:
        """Idle time of the player's most recently active connection."""
        return min((c.idle_seconds for c in self.connections), default=0.0)

    @property
    def online_seconds(self) -> float:
        """Seconds since the player came online (its first current connection)."""
        return time.monotonic() - self.online_since


class Place:
    """Somewhere players are: text said here reaches everyone here."""

    title = "Somewhere"
    description = ""

    def __init__(self) -> None:
        self.occupants: dict[int, OnlinePlayer] = {}

    def enter(self, player: OnlinePlayer) -> None:
        self.occupants[player.account_id] = player
        player.place = self

    def leave(self, player: OnlinePlayer) -> None:
        self.occupants.pop(player.account_id, None)

    def broadcast(self, text: str, exclude: OnlinePlayer | None = None) -> None:
        """Send ``text`` to every occupant except ``exclude``."""
        for occupant in self.occupants.values():
            if occupant is not exclude:
                occupant.send(text)


class Lobby(Place):
    """Where logged-in players are when they are not in a game room."""

    title = "The Lobby"
    description = (
        'Players meet here before they sit down at a game. Talk with say (or ") and '
        'pose (or :), page anyone online, and type "commands" to see everything you can do.'
    )


class Hub:
    """Every connection and every online player of this server process."""

    def __init__(self) -> None:
        self.lobby = Lobby()
        self.connections: set[Connection] = set()
        #: How many connections each address has open.
        self.per_address: Counter[str] = Counter()
        self.players: dict[int, OnlinePlayer] = {}
        self._next_connection_number = 1
        #: Told (player, origin, destination) after every move between places.
        self.on_move: Callable[[OnlinePlayer, Place, Place], None] | None = None

    def next_connection_number(self) -> int:
        number = self._next_connection_number
        self._next_connection_number += 1
        return number

    def add_connection(self, connection: Connection) -> None:
        self.connections.add(connection)
        self.per_address[connection.address] += 1

    def remove_connection(self, connection: Connection) -> OnlinePlayer | None:
        """Forget ``connection``; returns its player if that player has just gone offline."""
        if connection in self.connections:
            self.connections.discard(connection)
            self.per_address[connection.address] -= 1
            if not self.per_address[connection.address]:
                del self.per_address[connection.address]
        return self.log_out(connection)

    def log_in(self, connection: Connection, account_id: int, name: str, is_admin: bool, color: str) -> bool:
        """Attach ``connection`` to the account; True if the player was not online before."""
        player = self.players.get(account_id)
        first = player is None
        if player is None:
            player = OnlinePlayer(account_id, name, is_admin, self.lobby, color=color)
            self.players[account_id] = player
            self.lobby.enter(player)
        player.connections.append(connection)
        connection.player = player
        connection.logged_in_at = time.monotonic()
        return first

    def log_out(self, connection: Connection) -> OnlinePlayer | None:
        """Detach ``connection`` from its player; returns the player if now offline."""
        player = connection.player
        if player is None:
            return None
        connection.player = None
        if connection in player.connections:
            player.connections.remove(connection)
        if player.connections:
            return None
        player.place.leave(player)
        del self.players[player.account_id]
        return player

    def move(self, player: OnlinePlayer, destination: Place) -> None:
        """Take ``player`` from where they are to ``destination``."""
        origin = player.place
        origin.leave(player)
        destination.enter(player)
        if self.on_move is not None:
            self.on_move(player, origin, destination)

    def match_online(self, name: str) -> list[OnlinePlayer]:
        """Online players called ``name`` (any case); failing that, those whose name starts with it."""
        key = name.casefold()
        if not key:
            return []
        starts: list[OnlinePlayer] = []
        for player in self.players.values():
            folded = player.name.casefold()
            if folded == key:
                return [player]
            if folded.startswith(key):
                starts.append(player)
        return starts

    def players_by_login(self) -> list[OnlinePlayer]:
        """Online players, longest-connected first (the order of WHO)."""
        return sorted(self.players.values(), key=lambda p: p.online_since)
