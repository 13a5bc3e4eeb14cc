"""Shutting down with warning: a countdown told to every player, then the clean stop.

An administrator's ``@shutdown`` is announced to every node (:meth:`Countdown.announce`,
an announcement of kind ``shutdown``, see :meth:`server.hub.Hub.announce`): each node
counts down on its own clock, tells its players at the start and again at
:data:`MARKS` (an hour, ten minutes, a minute, ten seconds before, ...), and when the time
is up stops cleanly, as SIGTERM would. ``@shutdown/cancel`` (kind ``shutdown-cancel``)
stops every node's countdown. A service manager's SIGTERM, with ``--shutdown-countdown``,
counts down on this node alone (:meth:`Countdown.start_here`): no one cancels that one.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable
from typing import Any

from i18n import Said, Text, said, said_n
from server.hub import Hub
from server.text import clean_text

log = logging.getLogger(__name__)

#: The kinds of announcement a countdown listens to.
SHUTDOWN, CANCEL = "shutdown", "shutdown-cancel"
#: Longest countdown, in seconds: a day.
MOST_SECONDS = 24 * 3600
#: Longest message told with a countdown, in characters.
MOST_MESSAGE = 500
#: Longest name of whoever announced it (a player's name; see server.accounts).
MOST_NAME = 32
#: Seconds before the end at which players are told again (and at the start, however
#: long the countdown).
MARKS = (*(hours * 3600 for hours in range(23, 0, -1)), 1800, 600, 300, 120, 60, 30, 10)


def duration(seconds: float) -> Said:
    """``seconds`` in words, to the second: ``5 minutes``, ``1 hour 30 minutes``, ``3 seconds``."""
    hours, left = divmod(math.ceil(seconds), 3600)
    minutes, left = divmod(left, 60)
    parts = [
        *([said_n("{n} hour", "{n} hours", hours)] if hours else []),
        *([said_n("{n} minute", "{n} minutes", minutes)] if minutes else []),
        *([said_n("{n} second", "{n} seconds", left)] if left or not (hours or minutes) else []),
    ]
    words = parts[0]
    for part in parts[1:]:
        # Translators: two parts of a length of time, such as "1 hour" and "30 minutes".
        words = said("{earlier} {later}", earlier=words, later=part)
    return words


def notice(seconds: float, message: str, by: str) -> Said:
    """What players are told with ``seconds`` to go."""
    if seconds <= 0:
        when = said("{by}: the server is shutting down now.", by=by) if by else said("The server is shutting down now.")
    elif by:
        when = said("{by}: the server will shut down in {time}.", by=by, time=duration(seconds))
    else:
        when = said("The server will shut down in {time}.", time=duration(seconds))
    if message:
        # Translators: a notice to every player, and what the administrator added to it.
        return said("*** {notice} {message} ***", notice=when, message=message)
    return said("*** {notice} ***", notice=when)


class Countdown:
    """This node's countdown to a shutdown, if one is running; ``on_time`` is called
    when it is up (the node then stops)."""

    def __init__(self, hub: Hub, on_time: Callable[[], None]) -> None:
        self.hub = hub
        self._on_time = on_time
        self._task: asyncio.Task[None] | None = None
        self._deadline = 0.0
        #: Whether the running countdown is this node's alone (SIGTERM): not cancelled
        #: by ``@shutdown/cancel``, nor put off by a later ``@shutdown``.
        self.local = False
        hub.announcement_handlers[SHUTDOWN] = self._announced
        hub.announcement_handlers[CANCEL] = self._cancelled

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    @property
    def seconds_left(self) -> float | None:
        """Seconds until the stop, or None if no countdown runs."""
        if not self.running:
            return None
        return max(0.0, self._deadline - asyncio.get_running_loop().time())

    def announce(self, seconds: float, message: str, by: str) -> None:
        """Count down ``seconds`` on every node, telling players ``message`` from ``by``."""
        self.hub.announce({"kind": SHUTDOWN, "seconds": seconds, "message": message, "by": by})

    def cancel_everywhere(self, by: str) -> None:
        """Stop every node's announced countdown."""
        self.hub.announce({"kind": CANCEL, "by": by})

    def start_here(self, seconds: float) -> None:
        """Count down ``seconds`` on this node alone (a service manager's SIGTERM); a
        countdown already running that ends sooner is kept instead."""
        left = self.seconds_left
        if left is not None and left <= seconds:
            log.info("shutdown requested in %.0f s; the countdown running ends sooner (%.0f s)", seconds, left)
            self.local = True  # the node must stop now: @shutdown/cancel no longer cancels it
            return
        self._start(seconds, "", "", local=True)

    def halt(self) -> None:
        """Stop counting, telling no one (the node is stopping anyway)."""
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def _announced(self, announcement: dict[str, Any]) -> None:
        given = announcement.get("seconds")
        # Neither a bool (an int to Python), nor NaN nor infinity (outside the bounds).
        seconds = float(given) if isinstance(given, (int, float)) and not isinstance(given, bool) else math.nan
        if not 0 <= seconds <= MOST_SECONDS:
            raise ValueError(f"a shutdown countdown of {given!r:.40} seconds")
        message, by = _text(announcement.get("message"), MOST_MESSAGE), _text(announcement.get("by"), MOST_NAME)
        if not by:
            raise ValueError("a shutdown announced by no one")
        left = self.seconds_left
        if self.local and left is not None:
            # The service manager asked this node to stop: it does, at the sooner time.
            if left <= seconds:
                log.info("shutdown announced by %s in %.0f s; this node stops sooner (%.0f s)", by, seconds, left)
                return
            self._start(seconds, message, by, local=True)
            return
        self._start(seconds, message, by, local=False)

    def _cancelled(self, announcement: dict[str, Any]) -> None:
        by = _text(announcement.get("by"), MOST_NAME)
        if not by:
            raise ValueError("a shutdown cancelled by no one")
        if not self.running or self.local:
            return
        self.halt()
        log.info("shutdown cancelled by %s", by)
        self._tell(said("*** {by}: the shutdown is cancelled. ***", by=by))

    def _start(self, seconds: float, message: str, by: str, local: bool) -> None:
        self.halt()
        loop = asyncio.get_running_loop()
        self._deadline = loop.time() + seconds
        self.local = local
        log.info("shutdown in %.1f s%s: %s", seconds, f", announced by {by}" if by else "", message or "(no message)")
        self._tell(notice(seconds, message, by))
        self._task = loop.create_task(self._count_down(message, by), name="shutdown countdown")

    async def _count_down(self, message: str, by: str) -> None:
        loop = asyncio.get_running_loop()
        for mark in MARKS:
            wait = self._deadline - mark - loop.time()
            if wait <= 0:
                continue  # that mark is past (or is where the countdown started)
            await asyncio.sleep(wait)
            self._tell(notice(mark, message, by))
        await asyncio.sleep(max(0.0, self._deadline - loop.time()))
        log.info("the shutdown countdown is over")
        self._on_time()

    def _tell(self, text: Text) -> None:
        """Tell every player on this node (each node tells its own)."""
        for player in list(self.hub.players.values()):
            player.send(text)


def _text(value: object, most: int) -> str:
    """Text from an announcement, cleaned as players' own input is; raises if it is not
    text or is longer than ``most`` characters."""
    if not isinstance(value, str) or len(value) > most:
        raise ValueError(f"{value!r:.80} is not text of at most {most} characters")
    return clean_text(value).strip()
