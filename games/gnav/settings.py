"""What a Gnav host may set: ``lives`` (between matches), ``turntime`` and ``botdelay``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Setting:
    name: str
    default: int | float
    low: int | float
    high: int | float
    #: int or float: what a value is read as.
    kind: type
    #: Whether it may change while a match is being played.
    mid_match: bool
    about: str

    def parse(self, raw: Any) -> int | float:
        """The value ``raw`` (text or a number) stands for; ValueError with a sentence for
        the player if it is no such value or out of range."""
        try:
            if isinstance(raw, str) and not raw.isascii():
                raise ValueError(raw)  # int() and float() also read other scripts' digits ("５")
            value = self.kind(float(raw)) if self.kind is int and not isinstance(raw, str) else self.kind(raw)
        except (TypeError, ValueError):
            raise ValueError(f"{self.name} is a {'whole ' if self.kind is int else ''}number") from None
        if self.kind is float and value != value:  # NaN
            raise ValueError(f"{self.name} is a number")
        if not self.low <= value <= self.high:
            raise ValueError(f"{self.name} is from {self.low} to {self.high}")
        return value


SETTINGS: dict[str, Setting] = {
    setting.name: setting
    for setting in (
        Setting("lives", 3, 1, 9, int, False, "lives each player starts a match with"),
        Setting("turntime", 60, 10, 600, int, True, "seconds a person has for a turn before keeping by default"),
        Setting("botdelay", 1.0, 0.0, 10.0, float, True, "seconds a computer player waits before its move"),
    )
}


def defaults() -> dict[str, Any]:
    return {name: setting.default for name, setting in SETTINGS.items()}
