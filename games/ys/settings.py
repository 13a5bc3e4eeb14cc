"""What a Ys host may set: ``favour`` (the King's favour, between games), ``quadrants``
(3 or 4 city quadrants with 3 players, between games), ``turntime`` and ``botdelay``."""

from __future__ import annotations

from typing import Any

from games.gnav.settings import Setting

SETTINGS: dict[str, Setting] = {
    setting.name: setting
    for setting in (
        Setting("favour", 0, 0, 1, int, False, "1: play the King's favour (a broker a round on the favour space)"),
        Setting("quadrants", 4, 3, 4, int, False, "city quadrants played with 3 players (2 players always play 3)"),
        Setting("turntime", 90, 10, 600, int, True, "seconds a person has for a move before a default one is made"),
        Setting("botdelay", 1.0, 0.0, 10.0, float, True, "seconds a computer player waits before its move"),
    )
}


def defaults() -> dict[str, Any]:
    return {name: setting.default for name, setting in SETTINGS.items()}
