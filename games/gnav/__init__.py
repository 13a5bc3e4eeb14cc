"""Gnav (Kille, Cuckoo): one hidden card each, keep it or swap it, avoid the lowest.

``cards`` holds the ranks and the deck, ``state`` a table and the deltas that change it,
``rules`` the moves (and, in ``RULES_HELP``, the rules as players are told them, with
every reading of them), ``visibility`` the one policy of who sees what, ``bots`` the
computer players, ``kind`` the game kind the rooms use: :data:`KIND`. Pure and
synchronous: no I/O.
"""

from games.gnav.kind import KIND

__all__ = ["KIND"]
