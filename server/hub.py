"""The hub: who is online, on which connections, and where each player is.

A logged-in player is always in exactly one :class:`Place`: the lobby, or a game room.
Places deliver text to their occupants; the hub finds players and routes text to them.
The hub holds no rules and writes no SQL.

When several server nodes share one world (see :mod:`server.cluster`), the hub also
knows the players online on the *other* nodes (:class:`RemotePlayer`), from what those
nodes announce; text for them goes through :class:`Peers`.
"""

from __future__ import annotations

import functools
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from i18n import ENGLISH, LANGUAGES, N_, PSEUDO, Text, _, language
from persistence.names import folded, plain
from server.connection import Connection

LOBBY_KEY = "lobby"


@dataclass(eq=False)
class OnlinePlayer:
    """A logged-in account and every connection it has to this node."""

    account_id: int
    name: str
    #: "player", "moderator" or "admin" (see :data:`persistence.accounts.ROLES`).
    role: str
    place: Place
    connections: list[Connection] = field(default_factory=list)
    #: Free text shown in WHO (``@doing``); kept while the player is online.
    doing: str = ""
    #: Who a bare ``page <text>`` goes to: the last player paged.
    last_paged: str | None = None
    #: ANSI colour: "auto" (if the client has it), "on" or "off" (``@color``).
    color: str = "auto"
    #: The stamp of their password (see :func:`server.sessions.credential_stamp`), put in
    #: the session tokens their browser is given.
    credential: str = ""
    online_since: float = field(default_factory=time.monotonic)
    #: The player has logged in on another node, which took them over: this node lets
    #: them go without telling anyone they left.
    taken_over: bool = False
    #: Until when staff have muted them (None: not muted), and why: read from their
    #: account when they log in, changed by staff while they are online.
    muted_until: datetime | None = None
    mute_reason: str = ""
    #: The accounts whose chat and pages this player does not want (``ignore``), as
    #: stored; read when they log in.
    ignoring: set[int] = field(default_factory=set)

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"

    @property
    def is_staff(self) -> bool:
        """A moderator or an administrator."""
        return self.role in ("moderator", "admin")

    @property
    def speaker_id(self) -> int | None:
        """Who is speaking when this player talks, for those who ignore them: their
        account, or None for staff (nobody can ignore staff, see ``ignore``)."""
        return None if self.is_staff else self.account_id

    @property
    def language(self) -> str:
        """The language the player is written to in (every connection of theirs has it)."""
        return self.connections[0].language if self.connections else ENGLISH

    def send(self, text: Text, wrap: bool = True) -> None:
        """Write ``text`` to every connection of this player (see :meth:`Connection.send`)."""
        for connection in self.connections:
            connection.send(text, wrap)

    def hears(self, speaker: int | None) -> bool:
        """Whether what account ``speaker`` says reaches this player (None: anyone's)."""
        return speaker is None or speaker not in self.ignoring

    def send_said(self, text: Text, speaker: int | None) -> None:
        """Show ``text``, said by account ``speaker``, unless this player ignores them."""
        if self.hears(speaker):
            self.send(text)

    @property
    def idle_seconds(self) -> float:
        """Idle time of the player's most recently active connection."""
        return min((c.idle_seconds for c in self.connections), default=0.0)

    @property
    def online_seconds(self) -> float:
        """Seconds since the player came online (its first current connection)."""
        return time.monotonic() - self.online_since


@dataclass(eq=False)
class RemotePlayer:
    """A player online on another node, as that node last announced them."""

    account_id: int
    name: str
    node: str
    #: The key of the place they are in (see :attr:`Place.key`).
    place: str
    #: When they came online and when they last did something (Unix time).
    since: float
    active: float
    doing: str = ""
    #: "player", "moderator" or "admin", as their node says (WHO marks staff).
    role: str = "player"
    peers: Peers = field(default_factory=lambda: Peers(), repr=False)

    def send(self, text: Text, wrap: bool = True) -> None:
        """Have their node show them ``text``."""
        self.peers.tell(self, text)

    def send_said(self, text: Text, speaker: int | None) -> None:
        """Have their node show them ``text``, said by account ``speaker``, unless they
        ignore them (their node knows)."""
        self.peers.tell(self, text, speaker)

    @property
    def idle_seconds(self) -> float:
        return max(0.0, time.time() - self.active)

    @property
    def online_seconds(self) -> float:
        return max(0.0, time.time() - self.since)


#: What every player sees of a wall (``@wall``), in their language.
WALL_LINE = N_("Announcement from {name}: {text}")


@functools.cache
def wall_openings() -> tuple[str, ...]:
    """How a wall's line begins in each language ("Announcement from "): no line a
    player starts, nor a player's name, may pass for one."""
    openings = set()
    for code in (*LANGUAGES, PSEUDO):
        with language(code):
            openings.add(_(WALL_LINE).split("{name}", 1)[0])
    return tuple(sorted(opening for opening in openings if opening.strip()))


#: Anyone online, here or on another node: what WHO and page need of a player.
Someone = OnlinePlayer | RemotePlayer


class Peers:
    """The other nodes that share this world. A node on its own has none, and what it
    would tell them goes nowhere; :class:`server.cluster.Cluster` is a node's real peers."""

    #: Whether other nodes may change rooms too (so this node's copy of one can be behind).
    shared = False
    #: This node's name among its peers ("" alone).
    node = ""

    def relay(self, place_key: str, text: Text, exclude: int | None, speaker: int | None = None) -> None:
        """Show ``text`` to the players of place ``place_key`` on the other nodes (said
        by account ``speaker``: not to those who ignore them)."""

    def tell(self, player: RemotePlayer, text: Text, speaker: int | None = None) -> None:
        """Show ``text`` to ``player`` (on their node), unless they ignore account ``speaker``."""

    def evict(self, player: RemotePlayer, text: Text) -> None:
        """Send ``player`` from the place they are in to the lobby, telling them ``text``."""

    def take_over(self, player: RemotePlayer) -> None:
        """The account of ``player`` has logged in here: their node lets them go."""

    def presence_changed(self, player: OnlinePlayer, online: bool) -> None:
        """``player`` came online, moved, or (``online`` False) went offline here."""

    def room_events(self, room_id: int, seq_before: int, events: list[Any]) -> None:
        """This node stored ``events`` in room ``room_id``, whose seq was ``seq_before``."""

    def room_closed(self, room_id: int, text: Text) -> None:
        """Room ``room_id`` was deleted or archived: the other nodes send the players they
        have in it to the lobby, telling them ``text``."""

    def room_loaded(self, room_id: int) -> None:
        """This node has loaded room ``room_id``: it wants the other nodes' news of it."""

    def room_unloaded(self, room_id: int) -> None:
        """This node has unloaded room ``room_id``: it no longer wants news of it (if it
        loads the room again, it reads it afresh and is told :meth:`room_loaded`)."""

    def to_all(self, announcement: dict[str, Any]) -> None:
        """Have every other node act on ``announcement`` (see :meth:`Hub.announce`)."""


class Place:
    """Somewhere players are: text said here reaches everyone here, on every node."""

    title = "Somewhere"
    description = ""

    def __init__(self, key: str) -> None:
        #: Names the place across nodes: ``lobby``, or ``room/<id>``.
        self.key = key
        self.occupants: dict[int, OnlinePlayer] = {}
        #: Who is here on other nodes (kept up to date by the hub).
        self.remote: dict[int, RemotePlayer] = {}
        #: Passes what is said here on to the other nodes (set by the hub): the text, who
        #: is not to see it, and who said it.
        self.relay: Callable[[Text, int | None, int | None], None] | None = None

    def enter(self, player: OnlinePlayer) -> None:
        self.occupants[player.account_id] = player
        player.place = self

    def leave(self, player: OnlinePlayer) -> None:
        self.occupants.pop(player.account_id, None)

    def broadcast(self, text: Text, exclude: OnlinePlayer | None = None, speaker: int | None = None) -> None:
        """Send ``text`` to everyone here, on every node, except ``exclude``. Chat names
        its ``speaker`` (an account): those who ignore them are not shown it. (Game
        moves and notices name none: everyone sees them.)"""
        exclude_id = exclude.account_id if exclude is not None else None
        self.deliver(text, exclude_id, speaker)
        if self.relay is not None:
            self.relay(text, exclude_id, speaker)

    def deliver(self, text: Text, exclude: int | None = None, speaker: int | None = None) -> None:
        """Send ``text`` to the occupants on this node, except account ``exclude`` and
        those who ignore account ``speaker``."""
        for occupant in self.occupants.values():
            if occupant.account_id != exclude and occupant.hears(speaker):
                occupant.send(text)

    def notice(self, text: Text, exclude: OnlinePlayer | None = None, everywhere: bool = True) -> None:
        """Announce a comer or goer (see :meth:`Lobby.notice`), on every node or (not
        ``everywhere``) to the occupants on this one."""
        if everywhere:
            self.broadcast(text, exclude)
        else:
            self.deliver(text, exclude.account_id if exclude is not None else None)

    def everyone(self) -> list[Someone]:
        """Everyone here, on this node and the others."""
        return [*self.occupants.values(), *self.remote.values()]

    def present(self) -> set[int]:
        """The accounts of everyone here, on every node."""
        return set(self.occupants) | set(self.remote)

    def remote_changed(self) -> None:
        """Someone here on another node came, went or moved (the hub calls this)."""


class Lobby(Place):
    """Where logged-in players are when they are not in a game room."""

    title = N_("The Lobby")
    description = N_(
        'Players meet here before they sit down at a game. Talk with say (or ") and '
        'pose (or :), page anyone online, and type "commands" to see everything you can do.'
    )
    #: Above this many players, arrivals and departures are not announced (they would
    #: drown the talk, and cost every login a message to everyone).
    crowd = 50

    def __init__(self) -> None:
        super().__init__(LOBBY_KEY)

    def notice(self, text: Text, exclude: OnlinePlayer | None = None, everywhere: bool = True) -> None:
        """Announce a comer or goer, unless the lobby is crowded."""
        if len(self.occupants) + len(self.remote) <= self.crowd:
            super().notice(text, exclude, everywhere)


class Hub:
    """Every connection and every online player of this server process, and the players
    online on the other nodes."""

    def __init__(self) -> None:
        self.peers = Peers()
        self.connections: set[Connection] = set()
        #: How many connections each address has open.
        self.per_address: Counter[str] = Counter()
        self.players: dict[int, OnlinePlayer] = {}
        #: Players online on other nodes (never one who is online here too).
        self.remote: dict[int, RemotePlayer] = {}
        #: Remote players by the key of their place; a place's ``remote`` is its entry.
        self._remote_by_place: dict[str, dict[int, RemotePlayer]] = {}
        #: Places that exist on this node (the lobby, and the rooms loaded), by key.
        self.places: dict[str, Place] = {}
        self._next_connection_number = 1
        #: Told (player, origin, destination) after every move between places.
        self.on_move: Callable[[OnlinePlayer, Place, Place], None] | None = None
        #: Told about a place whose players on other nodes changed.
        self.on_remote_change: Callable[[Place], None] | None = None
        self.lobby = Lobby()
        self.add_place(self.lobby)
        #: What each kind of announcement does (see :meth:`announce`), by its "kind".
        self.announcement_handlers: dict[str, Callable[[dict[str, Any]], None]] = {}

    def add_place(self, place: Place) -> None:
        """Make ``place`` reachable from the other nodes (and know who is there)."""
        self.places[place.key] = place
        place.remote = self._remote_by_place.setdefault(place.key, {})
        key = place.key  # not ``place``: a closure over it would tie the place to itself
        place.relay = lambda text, exclude, speaker: self.peers.relay(key, text, exclude, speaker)

    def remove_place(self, place: Place) -> None:
        """Forget ``place`` (a room let go): what is said there no longer reaches here."""
        if self.places.get(place.key) is place:
            del self.places[place.key]

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

    def log_in(
        self,
        connection: Connection,
        account_id: int,
        name: str,
        role: str,
        color: str,
        credential: str = "",
        handed: bool = False,
    ) -> bool:
        """Attach ``connection`` to the account, whose password has the stamp
        ``credential`` (see :attr:`OnlinePlayer.credential`); True if the player was not
        online on this node before. If they were online on another node, that node lets
        them go; unless ``handed`` over from another worker (they left it on their own,
        and the news of where they were may be older than their coming back there)."""
        player = self.players.get(account_id)
        first = player is None
        if player is None:
            player = OnlinePlayer(account_id, name, role, self.lobby, color=color)
            self.players[account_id] = player
            self.lobby.enter(player)
            elsewhere = self._forget_remote(account_id)
            if elsewhere is not None and not handed:
                self.peers.take_over(elsewhere)
            self.peers.presence_changed(player, True)
        player.credential = credential
        player.connections.append(connection)
        connection.player = player
        connection.logged_in_at = time.monotonic()
        connection.session_changed()
        return first

    def log_out(self, connection: Connection) -> OnlinePlayer | None:
        """Detach ``connection`` from its player; returns the player if now offline."""
        player = connection.player
        if player is None:
            return None
        connection.player = None
        connection.session_changed()
        if connection in player.connections:
            player.connections.remove(connection)
        if player.connections:
            return None
        player.place.leave(player)
        del self.players[player.account_id]
        self.peers.presence_changed(player, False)
        return player

    def move(self, player: OnlinePlayer, destination: Place) -> None:
        """Take ``player`` from where they are to ``destination``."""
        origin = player.place
        origin.leave(player)
        destination.enter(player)
        self.peers.presence_changed(player, True)
        if self.on_move is not None:
            self.on_move(player, origin, destination)

    def set_doing(self, player: OnlinePlayer, doing: str) -> None:
        """Set the text WHO shows beside ``player``."""
        player.doing = doing
        self.peers.presence_changed(player, True)

    def set_role(self, player: OnlinePlayer, role: str) -> None:
        """Give ``player`` the role ``role`` (their commands change at once; the other
        nodes' WHO shows it)."""
        player.role = role
        self.peers.presence_changed(player, True)

    # -- announcements ------------------------------------------------------------------

    def announce(self, announcement: dict[str, Any]) -> None:
        """Act on ``announcement`` here and have every other node act on it too: what
        concerns the whole world, like a staff member's wall, ban or boot. It is a dict
        of JSON values whose "kind" names its handler (:attr:`announcement_handlers`)."""
        self.announced(announcement)
        self.peers.to_all(announcement)

    def announced(self, announcement: dict[str, Any]) -> None:
        """Act on an announcement made here or on another node. The handler checks what
        it is given (another node's message may be malformed) and raises if it is not
        what it expects, having done nothing."""
        handler = self.announcement_handlers.get(announcement.get("kind", ""))
        if handler is None:
            raise ValueError(f"no such announcement: {announcement.get('kind')!r}")
        handler(announcement)

    # -- players on other nodes --------------------------------------------------------

    def update_remote(self, node: str, players: Iterable[RemotePlayer], replace: bool) -> list[RemotePlayer]:
        """Take in what ``node`` says about its players: ``players`` come online or
        move; with ``replace`` they are all it has, and the others it had are gone.
        Returns those gone."""
        changed: set[str] = set()
        fresh = {p.account_id: p for p in players if p.account_id not in self.players}
        gone = []
        if replace:
            gone = [p for p in self.remote.values() if p.node == node and p.account_id not in fresh]
        for player in gone:
            changed.add(player.place)
            self._forget_remote(player.account_id)
        for account_id, player in fresh.items():
            old = self._forget_remote(account_id)
            if old is None or old.place != player.place:
                changed.add(player.place)
                if old is not None:
                    changed.add(old.place)
            player.peers = self.peers
            self.remote[account_id] = player
            self._remote_by_place.setdefault(player.place, {})[account_id] = player
        self._remote_changed(changed)
        return gone

    def remove_remote(self, node: str, account_ids: Iterable[int] | None = None) -> list[RemotePlayer]:
        """``node`` says these players (all of its players, for None) went offline."""
        wanted = set(account_ids) if account_ids is not None else None
        gone = [p for p in self.remote.values() if p.node == node and (wanted is None or p.account_id in wanted)]
        for player in gone:
            self._forget_remote(player.account_id)
        self._remote_changed({p.place for p in gone})
        return gone

    def occupied_places(self) -> set[str]:
        """The keys of the places where someone is, on this node or another."""
        return {p.place.key for p in self.players.values()} | {p.place for p in self.remote.values()}

    def remote_nodes(self) -> set[str]:
        return {p.node for p in self.remote.values()}

    def remote_in(self, place_key: str) -> dict[int, RemotePlayer]:
        """The players on other nodes in the place with key ``place_key``."""
        return self._remote_by_place.get(place_key, {})

    def _forget_remote(self, account_id: int) -> RemotePlayer | None:
        player = self.remote.pop(account_id, None)
        if player is not None:
            self._remote_by_place.get(player.place, {}).pop(account_id, None)
        return player

    def _remote_changed(self, place_keys: set[str]) -> None:
        for key in place_keys:
            place = self.places.get(key)
            if place is not None:
                place.remote_changed()
                if self.on_remote_change is not None:
                    self.on_remote_change(place)

    # -- finding players ---------------------------------------------------------------

    def is_online(self, account_id: int) -> bool:
        """Whether the account is logged in, on this node or another."""
        return account_id in self.players or account_id in self.remote

    def match_online(self, name: str) -> list[Someone]:
        """Players online anywhere called ``name`` (any case); failing that, those called
        it once accents are taken off (``Rehor`` for ``Řehoř``); failing that, those whose
        name starts with it, and then those whose name starts with it without accents."""
        key, unmarked = folded(name), plain(name)
        if not unmarked:
            return []
        alike: list[Someone] = []
        starts: list[Someone] = []
        bare_starts: list[Someone] = []
        for player in self.everyone():
            name_key, bare = folded(player.name), plain(player.name)
            if name_key == key:
                return [player]
            if bare == unmarked:
                alike.append(player)
            elif name_key.startswith(key):
                starts.append(player)
            elif bare.startswith(unmarked):
                bare_starts.append(player)
        return alike or starts or bare_starts

    def everyone(self) -> list[Someone]:
        """Every player online, on this node and the others."""
        return [*self.players.values(), *self.remote.values()]

    def players_by_login(self) -> list[Someone]:
        """Players online anywhere, longest-connected first (the order of WHO)."""
        return sorted(self.everyone(), key=lambda p: -p.online_seconds)
