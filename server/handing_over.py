"""Handing a player to the worker of this host that serves their room (``serve
--workers``): a plain telnet client's socket itself goes, with its telnet state; a page's
socket stays and is relayed. Mixed into :class:`server.app.MushServer`; the transport
between the workers is :mod:`server.handoff`."""

from __future__ import annotations

import asyncio
import functools
import logging
import socket
import time
from typing import TYPE_CHECKING, Any, Protocol

from server.connection import Connection, TelnetConnection
from server.handoff import Arrival, Handoff
from server.hub import Hub, OnlinePlayer
from server.limits import CommandRate
from server.rooms import GameRoom, RoomRegistry
from server.telnet import MushTelnetServer
from server.web import RelaySocket, WebConnection, WebFront

if TYPE_CHECKING:
    from server.config import Settings

log = logging.getLogger("server")


class Disconnecting(Protocol):
    """What handing over needs of the command processor (which the server core may not
    import): to see a connection go."""

    async def disconnected(self, connection: Connection) -> None: ...


class HandingOver:
    """Mixed into :class:`server.app.MushServer`: its players handed over to the worker
    serving their room, and those handed over to it taken in."""

    settings: Settings
    hub: Hub
    rooms: RoomRegistry
    processor: Disconnecting
    web: WebFront | None
    #: With several workers: telnet players handed to the worker serving their room.
    handoff: Handoff | None
    _stopping: bool
    _arrivals: set[asyncio.Task[None]]

    if TYPE_CHECKING:

        def accepting(self) -> bool: ...

        def _protocol(
            self, plain: bool, handed: dict[str, Any] | None = None
        ) -> functools.partial[MushTelnetServer]: ...

    async def _hand_over(self, connection: Connection, rate: CommandRate) -> bool:
        """Hand a player sitting down in (or watching) a room another worker of this host
        serves to that worker (see :mod:`server.handoff`); True once it serves them. A
        plain telnet connection goes there itself; a page's socket stays here, relayed to
        that worker. Only a player's only connection, with nothing it sent waiting to be
        run or half read; otherwise (or if the other worker does not take it) the player
        stays here, and is tried again after their next line."""
        handoff = self.handoff
        player = connection.player
        place = player.place if player is not None else None
        if handoff is None or player is None or not isinstance(place, GameRoom):
            return False
        owner = handoff.owner_of(place.id)
        if type(connection) is TelnetConnection:
            hand = functools.partial(self._hand_over_telnet, connection)
        elif type(connection) is WebConnection:
            hand = functools.partial(self._hand_on_relay if connection.relayed else self._relay_page, connection)
        else:  # over TLS
            return False
        if (
            owner == handoff.number
            or player.connections != [connection]
            or connection.secret_prompt is not None
            or connection.holds_input
            or connection.gone
        ):
            return False
        state = {
            "address": connection.address,
            "account": player.account_id,
            "name": player.name,
            "room": place.id,
            "connected_for": time.monotonic() - connection.connected_at,
            "online_for": time.monotonic() - player.online_since,
            "doing": player.doing,
            "last_paged": player.last_paged,
            "output_prefix": connection.output_prefix,
            "output_suffix": connection.output_suffix,
            "command_rate": rate.state(),
            "node": self.hub.peers.node,
        }
        return await hand(player, place, owner, state)

    async def _hand_over_telnet(
        self, connection: TelnetConnection, player: OnlinePlayer, place: GameRoom, owner: int, state: dict[str, Any]
    ) -> bool:
        """The client's socket itself goes, with its telnet state (not over TLS)."""
        handoff = self.handoff
        assert handoff is not None
        protocol = connection.writer.protocol
        if not isinstance(protocol, MushTelnetServer):
            return False
        connection.flush()
        telnet = protocol.handoff_state()
        if telnet is None or connection.write_buffer_size():
            return False
        state["telnet"] = telnet
        connection.hold_output(True)
        protocol.hold_reading("handoff")
        offer = await handoff.offer(owner, state, connection.fileno())
        if offer is not None and self._still_to_hand(connection, player, place):
            # Taken: what was held goes out from here, then the other worker serves.
            connection.hold_output(False)
            protocol.end_compression()
            if not connection.gone and not connection.write_buffer_size() and handoff.release(owner, offer, place.seq):
                connection.let_go()
                await self._handed(connection, player, place, owner)
                return True
            if telnet["mccp2"]:
                protocol.start_compression()
        # Not released: the other worker drops its copy, and this one goes on.
        connection.hold_output(False)
        protocol.release_reading("handoff")
        return False

    async def _relay_page(
        self, connection: WebConnection, player: OnlinePlayer, place: GameRoom, owner: int, state: dict[str, Any]
    ) -> bool:
        """The page's socket stays here (its WebSocket is this worker's); one end of a
        socket pair goes, and the page's messages pass through it both ways. What was
        queued for the page before goes out first, so nothing waits to be sent."""
        handoff = self.handoff
        assert handoff is not None
        state["web"] = connection.handoff_state()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            offer = await handoff.offer(owner, state, theirs.fileno())
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()  # sent with the offer, if it was: theirs to keep or close
        if (
            offer is not None
            and self._still_to_hand(connection, player, place)
            and handoff.release(owner, offer, place.seq)
        ):
            connection.relay_through(ours)
            await self._handed(connection, player, place, owner)
            return True
        ours.close()
        return False

    async def _hand_on_relay(
        self, connection: WebConnection, player: OnlinePlayer, place: GameRoom, owner: int, state: dict[str, Any]
    ) -> bool:
        """A page relayed here already: this worker's end of the relay goes on to the
        room's worker (so a page's player follows their room as a telnet player does),
        with everything queued for the page written into it first."""
        handoff = self.handoff
        relay = connection.socket
        assert handoff is not None and isinstance(relay, RelaySocket)
        if relay.write_buffer_size():
            return False
        state["web"] = connection.handoff_state()
        relay.hold_reading(True)
        try:
            offer = await handoff.offer(owner, state, relay.fileno())
        except BaseException:
            relay.hold_reading(False)
            raise
        if offer is not None and self._still_to_hand(connection, player, place):
            connection.send_now()
            # Gone if that was more than the page may leave unread (cut off, not handed on).
            if not connection.gone and not relay.write_buffer_size() and handoff.release(owner, offer, place.seq):
                connection.close()  # without a word: closes this worker's hold on the relay only
                await self._handed(connection, player, place, owner)
                return True
        relay.hold_reading(False)
        return False

    def _still_to_hand(self, connection: Connection, player: OnlinePlayer, place: GameRoom) -> bool:
        """Whether a player offered to another worker is still to go: while the offer was
        made they may have left the room (kicked, say), logged in again here, gone, or
        this worker begun to stop; then they stay."""
        return (
            player.place is place and player.connections == [connection] and not connection.gone and not self._stopping
        )

    async def _handed(self, connection: Connection, player: OnlinePlayer, place: GameRoom, owner: int) -> None:
        """The player is served by worker ``owner`` now: gone from here without a word."""
        log.info("connection %d (%s) handed to worker w%d", connection.number, player.name, owner)
        player.taken_over = True  # still online, there
        await self.processor.disconnected(connection)
        # The room is played there now: news of it need not come here any more.
        self.rooms.unload_unless_used(place)

    def _can_take(self, state: dict[str, Any]) -> bool:
        """Whether a player offered by another worker can be taken now: this worker
        taking players (not stopping or counting down to it), and neither full nor at
        the address's limit."""
        return (
            self.accepting()
            and len(self.hub.connections) < self.settings.max_connections
            and self.hub.per_address[state["address"]] < self.settings.max_connections_per_address
        )

    def _arrived(self, arrival: Arrival) -> None:
        """Serve a player another worker has handed over (released: the socket is ours)."""
        task = asyncio.create_task(self._take_arrival(arrival), name="handed over")
        self._arrivals.add(task)
        task.add_done_callback(self._arrivals.discard)

    async def _take_arrival(self, arrival: Arrival) -> None:
        loop = asyncio.get_running_loop()
        try:
            if "web" not in arrival.state:
                await loop.connect_accepted_socket(self._protocol(True, arrival.state), sock=arrival.sock)
                return
            if self.web is None:
                raise ValueError("this worker serves no web port")
            page = await self.web.relayed_page(arrival.sock, arrival.state)
        except (OSError, ValueError, TypeError, KeyError) as error:
            log.warning("could not serve a connection handed over: %s", error)
            arrival.sock.close()
            return
        await self.web.serve_page(page, arrival.state)
