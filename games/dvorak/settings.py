"""The table settings a host may change: what each means, its default and its range."""

from __future__ import annotations

from typing import Any

from games import toolkit
from games.toolkit import Setting
from i18n import N_

#: The shortest vote time a host may set, in seconds (long enough to read and vote).
VOTETIME_LOW = 10

SETTINGS = toolkit.settings_by_name(
    Setting("handsize", 5, N_("cards dealt to each player at the start"), 0, 50),
    Setting("handlimit", 5, N_("most cards a hand may hold at the end of a turn (0: no limit)"), 0, 100),
    Setting("turns", True, N_("take turns: draw, play, discard down to the limit, endturn")),
    Setting("draws", 1, N_("cards drawn at the start of each turn"), 0, 10),
    Setting("plays", 1, N_("Things (and other non-Action cards) playable per turn"), 0, 10),
    Setting("actions", 1, N_("Actions playable per turn"), 0, 10),
    Setting("reshuffle", True, N_("shuffle the discard pile into a new draw pile when it runs out")),
    Setting("teams", False, N_("team play: each turn you may also give a card to a teammate")),
    Setting(
        "multideck",
        False,
        N_("each player draws from and discards to their own piles"),
        mid_match=False,
    ),
    Setting(
        "vote",
        "unanimous",
        N_("accepting proposals: unanimous, majority, or any (the first vote decides)"),
        choices=("unanimous", "majority", "any"),
    ),
    Setting("halt", True, N_("while a vote is pending, card moves wait for it")),
    Setting(
        "ccg",
        False,
        N_("the CCG game: the approved cards are a card set; each player builds a deck of copies (deckbuild)"),
        mid_match=False,
    ),
    Setting("decksize", 20, N_("CCG: the fewest cards a deck may have to play"), 1, 500),
    Setting("maxcopies", 0, N_("CCG: the most copies of one card a deck may have (0: any number)"), 0, 500),
    Setting(
        "votetime",
        0,
        N_(
            "seconds a vote stays open; then whoever has not voted counts against (0: no limit, as the seeds "
            "play: the table waits until everyone has answered)"
        ),
        VOTETIME_LOW,
        86400,
        zero_allowed=True,
    ),
)

#: What a room had before new rooms were opened with the defaults above: the settings a
#: room's event log starts from, and those of a stored room that lacks one. A room made
#: since then is *opened with* the new defaults (``TableState.opened_with``), and replaying
#: its log starts from those (see :class:`games.dvorak.kind.DvorakKind`).
BEFORE: dict[str, Any] = {"halt": False, "votetime": 0}


def defaults() -> dict[str, Any]:
    """The settings of a new room."""
    return toolkit.defaults(SETTINGS)


def log_start() -> dict[str, Any]:
    """The settings a room's event log starts from (a room made before ``BEFORE``'s
    settings took their defaults has these, and keeps them)."""
    return {**defaults(), **BEFORE}
