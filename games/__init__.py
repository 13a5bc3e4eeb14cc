"""Game rules: pure, synchronous code with no I/O, one package per game kind.

Nothing here imports from the server, the commands or the database: a game is state
plus moves that return events, testable without a socket.

:data:`KINDS` is the registry of game kinds, the one place a new game is added (see
docs/adding-a-game.md): rooms, storage, ``check``/``replay``, the
cluster, the commands and the views find a room's game here by its name.
"""

from __future__ import annotations

import importlib

from games.base import GameKind

#: The games a room can hold, by name: each is its package ``games/<name>`` (whose
#: module ``kind`` holds its ``KIND``) and ``commands/<name>``. The first is the default
#: (plain ``newroom``). A game is added by adding its name here, and nowhere else.
GAMES = ("dvorak", "gnav", "ys")

#: Every game a room can hold, by name, in the order of :data:`GAMES`.
KINDS: dict[str, GameKind] = {name: importlib.import_module(f"games.{name}.kind").KIND for name in GAMES}

DEFAULT_KIND = GAMES[0]


def kind_of(game: str) -> GameKind:
    """The game kind called ``game`` (a room's ``game``); KeyError if there is none."""
    return KINDS[game]
