"""What a Gnav host may set: ``lives`` (between matches), ``turntime`` and ``botdelay``."""

from __future__ import annotations

from games.toolkit import BOT_DELAY, Setting, settings_by_name, turn_time
from i18n import N_

SETTINGS = settings_by_name(
    Setting("lives", 3, N_("lives each player starts a match with"), 1, 9, mid_match=False),
    turn_time(60, N_("seconds a person has for a turn before keeping by default")),
    BOT_DELAY,
)
