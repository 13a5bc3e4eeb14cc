"""What a Ys host may set: ``favour`` (the King's favour, between games), ``quadrants``
(3 or 4 city quadrants with 3 players, between games), ``turntime`` and ``botdelay``."""

from __future__ import annotations

from games.toolkit import BOT_DELAY, Setting, settings_by_name, turn_time
from i18n import N_

SETTINGS = settings_by_name(
    Setting("favour", 0, N_("1: play the King's favour (a broker a round on the favour space)"), 0, 1, mid_match=False),
    Setting(
        "quadrants", 4, N_("city quadrants played with 3 players (2 players always play 3)"), 3, 4, mid_match=False
    ),
    turn_time(90, N_("seconds a person has for a move before a default one is made")),
    BOT_DELAY,
)
