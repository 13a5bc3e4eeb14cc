"""Ys: the board game of hidden brokers and gems (seed 001).

``tables`` holds every number and reading of the rules (the game's help,
``RULES_HELP``, tells them), ``state`` a table and the deltas that change it, ``rules`` the moves,
``actions`` the yellow-edged action cards' effects (imported here, so they are
registered whenever the game is), ``visibility`` the one policy of who sees what,
``scoring`` the final scoring, ``kind`` the game kind the rooms use: :data:`KIND`. Pure and synchronous: no I/O.
"""

from games.ys import actions
from games.ys.kind import KIND

__all__ = ["KIND", "actions"]
