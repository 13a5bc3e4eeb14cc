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
        try:
            value = int(raw)
        except ValueError:
            raise SettingError(f"{self.name} is a whole number from {self.low} to {self.high}.") from None
        if not self.low <= value <= self.high:
            raise SettingError(f"{self.name} is a whole number from {self.low} to {self.high}.")
        return value

    def show(self, value: Any) -> str:
        if self.is_switch:
            return "on" if value else "off"
        return str(value)


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
        SettingSpec("halt", False, "while a vote is pending, card moves wait for it"),
        SettingSpec(
            "ccg",
            False,
            "the CCG game: the approved cards are a card set; each player builds a deck of copies (deckbuild)",
            before_start_only=True,
        ),
        SettingSpec("decksize", 20, "CCG: the fewest cards a deck may have to play", 1, 500),
        SettingSpec("maxcopies", 0, "CCG: the most copies of one card a deck may have (0: any number)", 0, 500),
    )
}


def defaults() -> dict[str, Any]:
    return {name: spec.default for name, spec in SETTINGS.items()}


def lookup(name: str) -> SettingSpec:
    spec = SETTINGS.get(name.strip().lower())
    if spec is None:
        raise SettingError(f'There is no setting "{name}". Settings: {", ".join(SETTINGS)}.')
    return spec
