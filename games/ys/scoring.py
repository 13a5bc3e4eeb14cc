"""The final scoring of Ys, after round 4: black gems, coloured gems, the King's favour and
the winners. Pure functions of the final position; the caller adds their points to the
points scored during the game.

The authority is the seed (seed 001, the Czech page, "Závěrečné vyhodnocení" and
"Pravidla pro 2 hráče"); /work/shared/reference/ys.md agrees with it on every table here:
black gems, the colour table, the King's favour table and the winner's tie-break.

Readings
--------
Where the seed leaves a point open, this module plays it so:

- *Place* in a colour: players are ranked by the number of gems of that colour they hold;
  tied players all take the worst of the places they share ("za to nejhorší z dělených
  pořadí"), so a player's place is the number of holders with at least as many gems as
  they have. Two tied for most are both 2nd; three tied for most are all 3rd. Places past
  the table's five score 0.
- Only holders are ranked: a player without gems of a colour gets nothing for it and takes
  no place in it, so nobody behind is pushed down by them.
- The neutral player (2-player game) "dostane body za 3. místo i v případě, kdy nemá žádný
  drahokam příslušné barvy": it gets 3rd place's points even without gems of the colour.
  It is ranked among the holders by its gems like anyone when it holds some (and places
  no worse than 3rd); without gems it scores 3rd place's points but holds no place among
  the holders, so the others' places are counted as if it were absent. With two real
  players at most two others hold gems of a colour: they take 1st and 2nd (or share 2nd),
  never 3rd, so the neutral's 3rd overlaps nobody's place. Its winning all ties is a rule of the round's resolution
  ("vyhodnocení"), not of the final scoring ("závěrečné vyhodnocení"): ties in the final
  scoring are shared by the neutral as by anyone.
- King's favour: tied players share the average of the points of the places they occupy,
  rounded down ("zprůměrují a se zaokrouhlením dolů"); places past the fifth score 0.
- Winners: most points, then most gems (the caller counts them); players still tied all
  win ("Další kriterium již není stanoveno").
"""

from __future__ import annotations

#: The gem colours, also the order that breaks ties in their final price: blue is the
#: farthest from the city ("vzdálenost od města"), so it ranks first.
COLOURS = ("blue", "green", "yellow", "red")

#: Points for a colour gem holder: ``COLOUR_TABLE[rank][place]``, ``rank`` 0..3 the
#: colour's rank by final price (first..fourth), ``place`` 0..4 the player's place
#: (1st..5th) by gems held of that colour.
COLOUR_TABLE: tuple[tuple[int, ...], ...] = (
    (24, 18, 12, 6, 0),
    (20, 15, 10, 5, 0),
    (16, 12, 8, 4, 0),
    (12, 9, 6, 3, 0),
)

#: Black gems held (0..7; 7 stands for 7 or more) -> points.
_BLACK_GEM_POINTS = (0, 1, 4, 8, 12, 16, 20, 24)

#: The King's favour, by place (1st..5th).
_FAVOUR_POINTS = (12, 7, 3, 0, 0)

#: The place the neutral player (2-player game) scores in every colour at worst.
_NEUTRAL_PLACE = 3


def black_gem_points(count: int) -> int:
    """Points for holding ``count`` black gems: 0 -> 0, 1 -> 1, 2 -> 4, 3 -> 8, 4 -> 12,
    5 -> 16, 6 -> 20, 7 or more -> 24. A negative count is a ValueError."""
    if count < 0:
        raise ValueError(f"a player cannot hold {count} black gems")
    return _BLACK_GEM_POINTS[min(count, len(_BLACK_GEM_POINTS) - 1)]


def colour_ranking(prices: dict[str, int]) -> list[str]:
    """The four colours from the highest final price to the lowest; equal prices are
    ordered blue > green > yellow > red. ``prices`` must give a price for exactly the four
    colours of :data:`COLOURS` (else ValueError)."""
    if set(prices) != set(COLOURS):
        raise ValueError(f"prices must be given for exactly {', '.join(COLOURS)}")
    return sorted(COLOURS, key=lambda colour: (-prices[colour], COLOURS.index(colour)))


def _place_points(row: tuple[int, ...], place: int) -> int:
    """The points of 1-based ``place`` in a table row; places past the row score 0."""
    return row[place - 1] if place <= len(row) else 0


def colour_points(
    gems: dict[int, dict[str, int]], prices: dict[str, int], neutral: int | None = None
) -> dict[int, int]:
    """Points for coloured gems, per player id (every id of ``gems``, 0 if none).

    ``gems[player][colour]`` is the number of gems of that colour the player holds (a
    missing colour is 0); ``prices`` the final price of each colour (see
    :func:`colour_ranking`), whose rank picks the row of :data:`COLOUR_TABLE`. In each
    colour the players holding some are ranked by how many they hold; tied players all
    take the worst of the places they share; a player without gems of the colour scores
    nothing for it. ``neutral``, the neutral player's id in the 2-player game (it must be
    a key of ``gems``), scores at least 3rd place's points in every colour, even without
    gems of it; without gems it takes no place among the holders (see the module's
    readings). Unknown colours, negative counts or a neutral not in ``gems`` are a
    ValueError.
    """
    if neutral is not None and neutral not in gems:
        raise ValueError(f"the neutral player {neutral} has no entry in gems")
    for player, held in gems.items():
        for colour, count in held.items():
            if colour not in COLOURS:
                raise ValueError(f"unknown gem colour {colour!r}")
            if count < 0:
                raise ValueError(f"player {player} cannot hold {count} {colour} gems")
    points = dict.fromkeys(gems, 0)
    for rank, colour in enumerate(colour_ranking(prices)):
        row = COLOUR_TABLE[rank]
        holders = {player: held.get(colour, 0) for player, held in gems.items() if held.get(colour, 0) > 0}
        for player, count in holders.items():
            place = sum(1 for other in holders.values() if other >= count)
            if player == neutral:
                place = min(place, _NEUTRAL_PLACE)
            points[player] += _place_points(row, place)
        if neutral is not None and neutral not in holders:
            points[neutral] += _place_points(row, _NEUTRAL_PLACE)
    return points


def favour_points(sums: dict[int, int]) -> dict[int, int]:
    """The King's favour, per player id: by the sum of a player's brokers on the King's
    favour space, the highest scores 12, then 7, 3, 0, 0. Tied players share the average
    of the points of the places they occupy, rounded down: two tied for the highest score
    (12 + 7) // 2 = 9 each, three tied after them (7 + 3 + 0) // 3 = 3 each."""
    order = sorted(sums.values(), reverse=True)
    points: dict[int, int] = {}
    for player, total in sums.items():
        first = order.index(total)
        tied = order.count(total)
        shared = sum(_place_points(_FAVOUR_POINTS, place) for place in range(first + 1, first + tied + 1))
        points[player] = shared // tied
    return points


def winners(points: dict[int, int], gems: dict[int, int]) -> list[int]:
    """The winners: the players with the most points; among those, the ones holding the
    most gems (``gems[player]``, the total count of gems held, counted by the caller). All
    players still tied win: there is no further tie-break. The winners come in the order of
    ``points``; no players, no winners. ``points`` and ``gems`` must have the same players
    (else ValueError)."""
    if set(points) != set(gems):
        raise ValueError("points and gems must be given for the same players")
    if not points:
        return []
    best = max((points[player], gems[player]) for player in points)
    return [player for player in points if (points[player], gems[player]) == best]
