"""Work done once per turn of the event loop: what one event makes the server send to many
(a say heard by a room, a table's view after a move) is worked out for the first of them
and kept, for the others, until the turn ends."""

from __future__ import annotations

import asyncio
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class TurnCache(Generic[K, V]):
    """Values kept until the end of the event loop's current turn. Outside a running event
    loop (a last message as the server ends) nothing is kept."""

    def __init__(self) -> None:
        self._kept: dict[K, V] = {}

    def get(self, key: K) -> V | None:
        return self._kept.get(key)

    def keep(self, key: K, value: V) -> None:
        if not self._kept:
            try:
                asyncio.get_running_loop().call_soon(self._kept.clear)
            except RuntimeError:
                return
        self._kept[key] = value

    def values(self) -> list[V]:
        """What is kept, in the order it was kept."""
        return list(self._kept.values())

    def __len__(self) -> int:
        return len(self._kept)
