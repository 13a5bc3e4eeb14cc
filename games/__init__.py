"""Game rules: pure, synchronous code with no I/O, one package per game kind.

Nothing here imports from the server, the commands or the database: a game is state
plus moves that return events, testable without a socket.

:data:`KINDS` is the registry of game kinds, the one place a new game is added (see
"Adding a game" in docs/adding-a-game.md): rooms, storage, ``check``/``replay``, the
cluster, the commands and the views find a room's game here by its name.
"""

from __future__ import annotations

from games.base import GameKind
from games.dvorak.kind import KIND as DVORAK
from games.gnav.kind import KIND as GNAV
from games.ys.kind import KIND as YS

#: Every game a room can hold, by name; the first is the default (plain ``newroom``).
KINDS: dict[str, GameKind] = {kind.name: kind for kind in (DVORAK, GNAV, YS)}

DEFAULT_KIND = DVORAK.name


def kind_of(game: str) -> GameKind:
    """The game kind called ``game`` (a room's ``game``); KeyError if there is none."""
    return KINDS[game]
