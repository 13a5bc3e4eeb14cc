"""Ys computer players: each level is a policy, a pure function of its seat's view (the
dict :func:`games.ys.visibility.seat_view` builds, never the state) and a random source,
returning a *move*, a dict the rules turn into a call (``YsTable.bot_move``):

- ``{"move": "bid", "brokers": [a, b], "play": [card, ...]}`` (the cards to try playing
  first; the rules skip one they refuse),
- ``{"move": "place", "up": [value, space], "down": [value, space]}``,
- ``{"move": "neutral", "values": [value, ...], "space": space}`` (2 players: the values
  of its own neutral brokers it would place, best first; the first it still has is placed),
- ``{"move": "choose", "answer": [word, ...]}`` and ``{"move": "favour", "value": v}``.

Levels:

- ``easy`` plays at random: any two brokers, any free order card, any free spaces; for a gem the colour
  highest on the price track, the same colour nudged up, the King's favour any broker.
- ``normal`` weighs every prize it can see (a black gem by what it adds to its black
  gems' points, 3 points for the commercial ring, the palace's card, a quadrant's two
  best gems, a market row's gem and point, the nudge) against the brokers there, its
  own counted as they are and each face-down broker of another's as the mean of what
  that player may still hold; it places brokers where they raise its chance of winning
  the most value for the broker spent, keeps its highest broker back as the last one
  (it joins the bid and wins ties), puts the stronger of a pair face down, and when no
  prize is worth a broker lays its weakest face down on a rich contest it is not in
  (a bluff). It bids its two weakest brokers unless a King or Prince lies in a palace
  (then two middling ones, for an early turn), and then takes the first order card
  free; otherwise the last one free, to place seeing more of the board. It takes the gems worth most to it
  (colours high on the price track, more so where it leads or can catch the leader),
  nudges up the colour it holds most of, gives the King its highest broker in the last
  two rounds and its middle one before, and plays a held Jeweller when it can. Its
  neutral broker goes, as high as it may be, on the contest the other player leads by
  the most.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from games.ys import scoring
from games.ys import tables as t

Move = dict[str, Any]
View = dict[str, Any]

#: normal: the value of a broker point kept for later in the round.
BROKER_COST = 0.35
#: normal: how much a lead (in broker points) must be to be fairly sure of a contest.
SPREAD = 1.6
#: normal: prizes of a palace card it does not weigh otherwise (a yellow-edged card).
CARD_VALUE = 2.0
#: normal: the cards it plays when it holds them (no choice asked at play).
PLAYED_CARDS = ("jeweller",)
#: normal: a palace card at least this valuable is worth an early turn.
EARLY_CARD = 4.0
#: normal: a pair's second broker worth less than this goes on a bluff instead.
BLUFF_BELOW = 0.3
_BLACK_POINTS = (0, 1, 4, 8, 12, 16, 20, 24)


def decide(level: str, view: View, rng: random.Random) -> Move:
    """The move the ``level`` computer player makes in ``view`` (its seat's view)."""
    return POLICIES[level](view, rng)


# -- easy ----------------------------------------------------------------------------


def easy(view: View, rng: random.Random) -> Move:
    you = _you(view)
    prompt = _prompt(view)
    if prompt is not None:
        ask = prompt["ask"]
        if ask == "take":
            ranked = sorted(prompt["options"], key=lambda gem: _price_strength(view, gem))
            return _choose(ranked[: prompt["count"]])
        if ask == "nudge":
            return _choose(strongest_nudge(view["prices"]))
        if ask == "order":
            return _choose([str(rng.choice(prompt["options"]))])
        return _choose(_fallback_answer(view, prompt))
    stage = view["stage"]
    if stage == "bid":
        return {"move": "bid", "brokers": rng.sample(you["screen"], 2), "play": []}
    if stage == "favour":
        return {"move": "favour", "value": rng.choice(you["front"])}
    spaces = free_spaces(view)
    if view["turn_part"] == "neutral":
        values = _neutral_left(view)
        rng.shuffle(values)
        return {"move": "neutral", "values": values, "space": rng.choice(spaces)}
    up_value, down_value = rng.sample(you["screen"], 2)
    up = rng.choice(spaces)
    down = rng.choice([space for space in spaces if space != up or space[0] == "city"])
    return {"move": "place", "up": [up_value, up], "down": [down_value, down]}


# -- normal --------------------------------------------------------------------------


def normal(view: View, rng: random.Random) -> Move:
    you = _you(view)
    prompt = _prompt(view)
    worth = _Worth(view)
    if prompt is not None:
        return _choose(_normal_answer(view, prompt, worth))
    stage = view["stage"]
    if stage == "bid":
        return {"move": "bid", "brokers": _normal_bid(view, worth), "play": _playable(view)}
    if stage == "favour":
        front = sorted(you["front"])
        value = front[-1] if view["round"] >= t.ROUNDS - 1 else front[len(front) // 2]
        return {"move": "favour", "value": value}
    board = _Board(view, worth)
    if view["turn_part"] == "neutral":
        return board.neutral_move()
    return board.pair_move(rng)


POLICIES: dict[str, Callable[[View, random.Random], Move]] = {"easy": easy, "normal": normal}


def _early_turn_pays(view: View, worth: _Worth) -> bool:
    """Whether a palace card up this round is worth placing early for (a King, a Prince)."""
    cards = [corner["up"] for q, corner in enumerate(view["corners"]) if view["laid"][q] >= 0]
    return any(worth.card(card) >= EARLY_CARD for card in cards)


def _normal_order_card(view: View, free: list[int], worth: _Worth) -> int:
    """The order card normal takes: the first free one when a palace card is worth an
    early turn (it bid for it), else the last (it places seeing more of the board)."""
    return min(free) if _early_turn_pays(view, worth) else max(free)


def _normal_bid(view: View, worth: _Worth) -> list[int]:
    screen = sorted(_you(view)["screen"])
    playable = screen[:-1] if len(screen) > 2 else screen
    if _early_turn_pays(view, worth) and len(playable) >= 4:
        middle = len(playable) // 2
        return [playable[middle], playable[middle - 1]]
    return playable[:2]


def strongest_nudge(prices: dict[str, int]) -> list[str]:
    """The nudge made without thinking (easy, and a person's turn timer): the strongest
    colour up, or the strongest not already at the top of the track (a nudge that moves
    nothing is a turn lost); if every colour is at the top, the weakest down."""
    ranking = scoring.colour_ranking(prices)
    rising = [colour for colour in ranking if prices[colour] < t.PRICE_HIGH]
    return [rising[0], "up"] if rising else [ranking[-1], "down"]


def _normal_answer(view: View, prompt: dict[str, Any], worth: _Worth) -> list[str]:
    ask = prompt["ask"]
    if ask == "order":
        return [str(_normal_order_card(view, prompt["options"], worth))]
    if ask == "take":
        ranked = sorted(prompt["options"], key=lambda gem: -worth.gem(gem))
        return ranked[: prompt["count"]]
    if ask in ("gem", "white"):
        return [worth.best_colour()]
    if ask == "nudge":
        mine = _mine(view)["gems"]
        prices = view["prices"]
        by_holding = sorted(t.COLOURS, key=lambda c: (-mine.get(c, 0), -prices[c], t.COLOURS.index(c)))
        rising = [c for c in by_holding if prices[c] < t.PRICE_HIGH]
        if rising and mine.get(rising[0], 0) > 0:
            return [rising[0], "up"]
        falling = [c for c in reversed(by_holding) if prices[c] > t.PRICE_LOW]
        if falling:
            return [falling[0], "down"]
        return [by_holding[0], "up"]
    return _fallback_answer(view, prompt)


def _playable(view: View) -> list[str]:
    """The held cards normal plays now: won in an earlier round, at most two a round."""
    held = [card for card, won in _you(view)["cards"] if won < view["round"] and card in PLAYED_CARDS]
    return held[: t.PLAYS_PER_ROUND]


class _Worth:
    """What prizes are worth to the viewer, in points, roughly."""

    def __init__(self, view: View) -> None:
        self.view = view
        ranking = scoring.colour_ranking(view["prices"])
        me = view["viewer"]
        mine = _mine(view)["gems"]
        others = [p["gems"] for p in view["players"] if p["id"] != me]
        self.colours: dict[str, float] = {}
        for colour in t.COLOURS:
            top = scoring.COLOUR_TABLE[ranking.index(colour)][0]
            have = mine.get(colour, 0)
            best_other = max((gems.get(colour, 0) for gems in others), default=0)
            if have >= best_other:
                factor = 1.3
            elif have + 2 >= best_other:
                factor = 1.0
            else:
                factor = 0.55
            self.colours[colour] = top / 7 * factor
        black = mine.get(t.BLACK, 0)
        self.black = float(max(_BLACK_POINTS[min(black + 1, 7)] - _BLACK_POINTS[min(black, 7)], 2))

    def gem(self, gem: str | None) -> float:
        if gem is None:
            return 0.0
        if gem == t.WHITE:
            return max(self.colours.values())
        if gem == t.BLACK:
            return self.black
        return self.colours[gem]

    def best_colour(self) -> str:
        return max(t.COLOURS, key=lambda c: (self.colours[c], -t.COLOURS.index(c)))

    def card(self, card: str | None) -> float:
        if card is None:
            return 0.0
        if card == t.BLUE_CARD:
            return max(self.colours.values())
        if card in t.CARD_POINTS:
            return float(t.CARD_POINTS[card])
        if card == "jeweller":
            return 2 * max(self.colours.values())
        return CARD_VALUE


class _Board:
    """The contests of the round as the viewer sees them: each one's prize and every
    player's (estimated) broker sum there."""

    def __init__(self, view: View, worth: _Worth) -> None:
        self.view = view
        self.me = view["viewer"]
        self.spaces = free_spaces(view)
        estimate = _estimates(view)
        self.sums: dict[tuple[Any, ...], dict[int, float]] = {}
        self.column: dict[str, float] = {colour: 0.0 for colour in t.COLOURS}
        for entry in view["placed"]:
            value = entry["value"] if entry["value"] is not None else estimate[entry["player"]]
            for contest in _contests(entry["space"]):
                sums = self.sums.setdefault(contest, {})
                sums[entry["player"]] = sums.get(entry["player"], 0.0) + value
        self.prize: dict[tuple[Any, ...], float] = {("market",): 1.5}
        for q, card in enumerate(view["laid"]):
            if card < 0:
                continue
            self.prize[("city", q, "port")] = worth.black
            self.prize[("city", q, "commercial")] = float(t.COMMERCIAL_POINTS)
            self.prize[("city", q, "palace")] = worth.card(view["corners"][q]["up"])
            lying = sorted((worth.gem(g) for g in view["quadrant_gems"][q]), reverse=True)
            self.prize[("quadrant", q)] = sum(lying[:2]) + 0.3 * sum(lying[2:])
        for row, gem in enumerate(view["market"]):
            self.prize[("row", row)] = worth.gem(gem) * max(1, view["market_gems"][row])
        mine = _mine(view)["gems"]
        others = [p["gems"] for p in view["players"] if p["id"] != self.me and not p["neutral"]]
        for colour in t.COLOURS:
            rest = sum(g.get(colour, 0) for g in others) / max(len(others), 1)
            self.column[colour] = max(min(0.12 * (mine.get(colour, 0) - rest), 0.5), -0.5)

    def standing(self, contest: tuple[Any, ...]) -> tuple[float | None, float]:
        """The viewer's sum in ``contest`` (None: absent) and the best of the others'
        (-1: nobody else there)."""
        sums = self.sums.get(contest, {})
        best = max((s for p, s in sums.items() if p != self.me), default=-1.0)
        return sums.get(self.me), best

    def gain(self, space: list[Any], value: int) -> float:
        """What putting the viewer's ``value`` on ``space`` is worth, less its cost: for
        each contest the space is in, its prize times the rise in the viewer's chance of
        winning it."""
        total = -BROKER_COST * value
        for contest in _contests(space):
            mine, best = self.standing(contest)
            before = 0.0 if mine is None else _chance(mine - best)
            total += self.prize.get(contest, 0.0) * (_chance((mine or 0.0) + value - best) - before)
        if space[0] == "market":
            total += t.MARKET_POINT + self.column[space[2]] * value
        return total

    def add(self, space: list[Any], value: int) -> None:
        for contest in _contests(space):
            sums = self.sums.setdefault(contest, {})
            sums[self.me] = sums.get(self.me, 0.0) + value

    def best(self, values: list[int], spaces: list[list[Any]]) -> tuple[float, int, list[Any]]:
        return max(((self.gain(s, v), v, s) for v in sorted(set(values)) for s in spaces), key=lambda c: c[0])

    def pair_move(self, rng: random.Random) -> Move:
        screen = sorted(_you(self.view)["screen"])
        usable = screen[:-1] if len(screen) > 2 else list(screen)
        _, first, first_space = self.best(usable, self.spaces)
        usable.remove(first)
        self.add(first_space, first)
        rest = [s for s in self.spaces if s != first_space or s[0] == "city"]
        score, second, second_space = self.best(usable, rest)
        if score < BLUFF_BELOW:
            second = min(usable)
            second_space = self._bluff(rest, first_space, rng)
        pair = sorted([(first, first_space), (second, second_space)], key=lambda p: p[0])
        return {"move": "place", "up": list(pair[0]), "down": list(pair[1])}

    def _bluff(self, spaces: list[list[Any]], used: list[Any], rng: random.Random) -> list[Any]:
        """A rich city space in a contest the viewer has no broker in."""
        elsewhere = used[1] if used[0] == "city" else -1
        apart = [
            s for s in spaces if s[0] == "city" and s[1] != elsewhere and self.me not in self.sums.get(tuple(s), {})
        ]
        pool = apart or spaces
        ranked = sorted(pool, key=lambda s: -sum(self.prize.get(c, 0.0) for c in _contests(s)))
        return rng.choice(ranked[:3])

    def neutral_move(self) -> Move:
        """The neutral player's broker, as high as it may be, where another leads most."""
        values = sorted(_neutral_left(self.view), reverse=True)

        def hurt(space: list[Any]) -> float:
            total = 0.0
            for contest in _contests(space):
                sums = self.sums.get(contest, {})
                theirs = max((s for p, s in sums.items() if p not in (self.me, t.NEUTRAL)), default=None)
                if theirs is not None and theirs > sums.get(self.me, -1.0):
                    total += self.prize.get(contest, 0.0)
            return total

        space = max(self.spaces, key=hurt)
        if hurt(space) == 0:
            # Nobody to stop: the neutral's weakest broker where the viewer contests least.
            values.reverse()
            space = min(self.spaces, key=lambda s: sum(self.prize.get(c, 0.0) for c in _contests(s)))
        return {"move": "neutral", "values": values, "space": space}


# -- reading the view -----------------------------------------------------------------


def free_spaces(view: View) -> list[list[Any]]:
    """Every space a broker may go on now: the city spaces of the quadrants played, and
    the empty market spaces of rows with a gem."""
    played = [q for q, card in enumerate(view["laid"]) if card >= 0]
    spaces: list[list[Any]] = [["city", q, ring] for q in played for ring in t.RINGS]
    taken = [entry["space"] for entry in view["placed"]]
    for row, gem in enumerate(view["market"]):
        if gem is not None:
            spaces.extend(["market", row, c] for c in t.COLOURS if ["market", row, c] not in taken)
    return spaces


def _chance(lead: float) -> float:
    """The chance of winning a contest led by ``lead`` broker points (before the brokers
    still to come)."""
    return 1 / (1 + math.exp(-(lead - 0.25) / SPREAD))


def _contests(space: list[Any]) -> list[tuple[Any, ...]]:
    if space[0] == "city":
        return [("city", space[1], space[2]), ("quadrant", space[1])]
    return [("row", space[1]), ("market",)]


def _estimates(view: View) -> dict[int, float]:
    """Each player's face-down broker as the mean of the brokers it may still hold: its
    brokers at setup less those the viewer has seen this round."""
    players = [p for p in view["players"] if not p["neutral"]]
    estimate: dict[int, float] = {}
    for player in view["players"]:
        pool = list(t.NEUTRAL_BROKERS) * len(players) if player["neutral"] else t.brokers_for(len(players))
        seen = [e["value"] for e in view["placed"] if e["player"] == player["id"] and e["value"] is not None]
        for value in [*seen, *(player["front"] or [])]:
            if value in pool:
                pool.remove(value)
        estimate[player["id"]] = sum(pool) / len(pool) if pool else 0.0
    return estimate


def _neutral_left(view: View) -> list[int]:
    """The neutral player's brokers the viewer may still place this round."""
    return list(view["you"]["neutral"]) if view["you"] is not None else []


def _price_strength(view: View, gem: str) -> int:
    """easy: white (any colour) first, then the colours from the highest price."""
    return -1 if gem == t.WHITE else scoring.colour_ranking(view["prices"]).index(gem)


def _fallback_answer(view: View, prompt: dict[str, Any]) -> list[str]:
    """A choice no level weighs: the first options offered, else the strongest colour."""
    options = prompt.get("options")
    if isinstance(options, list) and options:
        return [str(option) for option in options[: int(prompt.get("count", 1))]]
    return [scoring.colour_ranking(view["prices"])[0]]


def _choose(words: list[str]) -> Move:
    return {"move": "choose", "answer": list(words)}


def _prompt(view: View) -> dict[str, Any] | None:
    awaiting = view["awaiting"]
    if awaiting and awaiting[0]["player"] == view["viewer"]:
        prompt: dict[str, Any] = awaiting[0]
        return prompt
    return None


def _you(view: View) -> dict[str, Any]:
    you = view["you"]
    if you is None:
        raise ValueError("a policy decides only for a seated player")
    holdings: dict[str, Any] = you
    return holdings


def _mine(view: View) -> dict[str, Any]:
    return next(p for p in view["players"] if p["id"] == view["viewer"])
