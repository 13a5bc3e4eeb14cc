"""The table settings a host may change: what each means, its default and its range."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class SettingError(ValueError):
    """A setting name or value was refused; the message says why."""


@dataclass(frozen=True)
class SettingSpec:
    name: str
    default: Any
    help: str
    low: int = 0
    high: int = 0
    #: For a setting that is one of a few words.
    choices: tuple[str, ...] = ()
    #: Only changeable while no game is running.
    before_start_only: bool = False
    #: A number that may also be 0 (meaning "none"), below its range.
    zero_allowed: bool = False

    @property
    def is_switch(self) -> bool:
        return isinstance(self.default, bool)

    def parse(self, raw: str) -> Any:
        raw = raw.strip().lower()
        if self.is_switch:
            if raw in ("on", "yes", "true", "1"):
                return True
            if raw in ("off", "no", "false", "0"):
                return False
            raise SettingError(f"{self.name} is on or off.")
        if self.choices:
            if raw not in self.choices:
                raise SettingError(f"{self.name} is one of: {', '.join(self.choices)}.")
            return raw
        zero = " (or 0 for none)" if self.zero_allowed else ""
        refusal = f"{self.name} is a whole number from {self.low} to {self.high}{zero}."
        if not raw.isascii():  # int() also reads other scripts' digits ("５")
            raise SettingError(refusal)
        try:
            value = int(raw)
        except ValueError:
            raise SettingError(refusal) from None
        if not (self.low <= value <= self.high or (self.zero_allowed and value == 0)):
            raise SettingError(refusal)
        return value

    def show(self, value: Any) -> str:
        if self.is_switch:
            return "on" if value else "off"
        return str(value)


#: The shortest vote time a host may set, in seconds (long enough to read and vote).
VOTETIME_LOW = 10

SETTINGS: dict[str, SettingSpec] = {
    spec.name: spec
    for spec in (
        SettingSpec("handsize", 5, "cards dealt to each player at the start", 0, 50),
        SettingSpec("handlimit", 5, "most cards a hand may hold at the end of a turn (0: no limit)", 0, 100),
        SettingSpec("turns", True, "take turns: draw, play, discard down to the limit, endturn"),
        SettingSpec("draws", 1, "cards drawn at the start of each turn", 0, 10),
        SettingSpec("plays", 1, "Things (and other non-Action cards) playable per turn", 0, 10),
        SettingSpec("actions", 1, "Actions playable per turn", 0, 10),
        SettingSpec("reshuffle", True, "shuffle the discard pile into a new draw pile when it runs out"),
        SettingSpec("teams", False, "team play: each turn you may also give a card to a teammate"),
        SettingSpec(
            "multideck",
            False,
            "each player draws from and discards to their own piles",
            before_start_only=True,
        ),
        SettingSpec(
            "vote",
            "unanimous",
            "accepting proposals: unanimous, majority, or any (the first vote decides)",
            choices=("unanimous", "majority", "any"),
        ),
        SettingSpec("halt", True, "while a vote is pending, card moves wait for it"),
        SettingSpec(
            "ccg",
            False,
            "the CCG game: the approved cards are a card set; each player builds a deck of copies (deckbuild)",
            before_start_only=True,
        ),
        SettingSpec("decksize", 20, "CCG: the fewest cards a deck may have to play", 1, 500),
        SettingSpec("maxcopies", 0, "CCG: the most copies of one card a deck may have (0: any number)", 0, 500),
        SettingSpec(
            "votetime",
            0,
            "seconds a vote stays open; then whoever has not voted counts against (0: no limit, as the seeds "
            "play: the table waits until everyone has answered)",
            VOTETIME_LOW,
            86400,
            zero_allowed=True,
        ),
    )
}

#: What a room had before new rooms were opened with the defaults above: the settings a
#: room's event log starts from, and those of a stored room that lacks one. A room made
#: since then is *opened with* the new defaults (``TableState.opened_with``), and replaying
#: its log starts from those (see :class:`games.dvorak.kind.DvorakKind`).
BEFORE: dict[str, Any] = {"halt": False, "votetime": 0}


def defaults() -> dict[str, Any]:
    """The settings of a new room."""
    return {name: spec.default for name, spec in SETTINGS.items()}


def log_start() -> dict[str, Any]:
    """The settings a room's event log starts from (a room made before ``BEFORE``'s
    settings took their defaults has these, and keeps them)."""
    return {**defaults(), **BEFORE}


def lookup(name: str) -> SettingSpec:
    spec = SETTINGS.get(name.strip().lower())
    if spec is None:
        raise SettingError(f'There is no setting "{name}". Settings: {", ".join(SETTINGS)}.')
    return spec
