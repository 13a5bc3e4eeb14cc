"""The yellow-edged action cards' effects (seed 001, "Akční karty"), registered into
``rules.EFFECTS``; the readings of the rules are in ``tables``.

A card is played with ``play <card>`` (from the round after it was won, at most 2 a
round) and takes effect when its window comes, in turn order. A card that needs its
player's choices then asks them (the table waits, as for a white gem), and they answer
with ``choose <words>``, or ``choose pass`` to give the effect up. The Spy and the
Conjurer stay in effect through placement and are used with ``play spy <words>`` and
``play conjurer <words>``. Each card's function below says what the player types.

Words: a colour is blue, green, yellow or red; a space is ``city <quadrant> <ring>`` or
``market <row> <colour>`` (as for ``place``); a broker of yours is its number and its
space (``5 city 0 port``), or its number and ``favour`` for one on the King's favour
space (``3 favour``); a player is named as seated, the neutral player ``neutral``.

Every effect lasts the round at most: ``effects`` is emptied when a round begins.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from games.base import Event, RuleViolation
from games.ys import rules, scoring
from games.ys import tables as t
from games.ys.rules import YsTable, space_of
from i18n import _, ngettext

PASS = "pass"


# -- effects that only last --------------------------------------------------------------


def bishop(table: YsTable, event: Event, player: int) -> None:
    """Bishop (start of placement; ``play bishop``): every broker you place this round goes
    face down; you type ``place`` as ever."""
    _lasting(table, event, player, "bishop")


def merchant(table: YsTable, event: Event, player: int) -> None:
    """Merchant (start of resolution; ``play merchant``): this round every commercial
    ring's winner scores 5 points instead of 3."""
    _lasting(table, event, player, "merchant")


def intriguer(table: YsTable, event: Event, player: int) -> None:
    """Intriguer (start of resolution; ``play intriguer``): every tie in the city that
    decides a prize is yours to order. Asked ``intriguer``, answer with the tied players'
    names, best first: ``choose Bo Ann``."""
    _lasting(table, event, player, "intriguer")


def spy(table: YsTable, event: Event, player: int) -> None:
    """Spy (start of placement; ``play spy``): during placement, look at up to 3 face-down
    brokers of your opponents, one at a time whenever you like: ``play spy <player>
    <space>`` (``play spy Bo city 2 port``) shows you the earliest-placed face-down broker
    of theirs there you have not seen; ``play spy <player> favour`` one of theirs on the
    King's favour space. Only you are shown the number."""
    _lasting(table, event, player, "spy", seen=[])


def conjurer(table: YsTable, event: Event, player: int) -> None:
    """Conjurer (start of placement; ``play conjurer``): this round, on your turn and before
    placing your pair, ``play conjurer <front> <behind>`` (``play conjurer 6 1``) takes the
    broker <front> from in front of your screen to place now, the broker <behind> going
    in front of the screen in its place; then place the pair with <front> in it. Up to
    twice a pair, any number of pairs."""
    _lasting(table, event, player, "conjurer", owed=[])


def _lasting(table: YsTable, event: Event, player: int, card: str, **more: Any) -> None:
    table._set(event, "effects", [*table.state.effects, {"card": card, "player": player, **more}])


# -- effects that ask ----------------------------------------------------------------------


def _asking(table: YsTable, event: Event, player: int) -> None:
    """A card that asks its player a choice when its window comes (``ask``: the card; the
    Magician's ask says whether its player has a broker on the King's favour space to
    swap, a public count)."""
    card = event.data["card"]
    asked = table._record("asked", player, player=player, ask=card)
    more = {"favour": bool(table._holdings(player)["favour"])} if card == "magician" else {}
    table._ask(asked, {"player": player, "ask": card, **more})


def alchemist(table: YsTable, actor: int, prompt: dict[str, Any], words: list[str]) -> Event:
    """Alchemist (end of round; ``play alchemist``): asked ``alchemist``, give one of your
    coloured gems for one of another colour: ``choose <colour> <colour>`` (``choose red
    blue``: a red gem for a blue one)."""
    given, taken = _colours(words, 2, _("Exchange a gem: <your colour> <another colour>, or pass."))
    if given == taken:
        raise RuleViolation(_("Take a gem of another colour than the one you give."))
    if table._holdings(actor)["gems"].get(given, 0) < 1:
        raise RuleViolation(_("You hold no {colour} gem.").format(colour=given))
    event = _answered(table, actor, "alchemist", gave=given, took=taken)
    table._gems(event, actor, {given: -1, taken: 1})
    return event


def _alchemist_default(table: YsTable, prompt: dict[str, Any]) -> list[str]:
    gems = table._holdings(prompt["player"])["gems"]
    ranking = scoring.colour_ranking(table.state.prices)
    held = [colour for colour in reversed(ranking) if gems.get(colour, 0)]
    if not held or held[0] == ranking[0]:
        return [PASS]
    return [held[0], ranking[0]]


def banker(table: YsTable, actor: int, prompt: dict[str, Any], words: list[str]) -> Event:
    """Banker (start of resolution; ``play banker``): asked ``banker``, move one colour up 1
    on the price track and another down 1: ``choose <up colour> <down colour>``."""
    up, down = _colours(words, 2, _("Move prices: <colour up> <colour down>, or pass."))
    if up == down:
        raise RuleViolation(_("Move two different colours."))
    prices = dict(table.state.prices)
    for colour, move in ((up, 1), (down, -1)):
        prices[colour] = min(max(prices[colour] + move, t.PRICE_LOW), t.PRICE_HIGH)
    event = _answered(table, actor, "banker", up=up, down=down, prices=prices)
    table._set(event, "prices", prices)
    return event


def _banker_default(table: YsTable, prompt: dict[str, Any]) -> list[str]:
    gems = table._holdings(prompt["player"])["gems"]
    ranked = sorted(t.COLOURS, key=lambda colour: (-gems.get(colour, 0), t.COLOURS.index(colour)))
    return [ranked[0], ranked[-1]]


def captain(table: YsTable, actor: int, prompt: dict[str, Any], words: list[str]) -> Event:
    """Captain (start of resolution; ``play captain``): asked ``captain``, swap the gem
    cards (with their gems) of two city quadrants: ``choose <quadrant> <quadrant>``
    (``choose 0 2``)."""
    quadrants = table.quadrants()
    wrong = _("Swap two quadrants' gem cards: two numbers 1 to {n}, or pass.").format(n=quadrants)
    if len(words) != 2 or not all(word.isdigit() and int(word) < quadrants for word in words):
        raise RuleViolation(wrong)
    first, second = int(words[0]), int(words[1])
    if first == second:
        raise RuleViolation(wrong)
    state = table.state
    laid, lying = list(state.laid), [list(gems) for gems in state.quadrant_gems]
    laid[first], laid[second] = laid[second], laid[first]
    lying[first], lying[second] = lying[second], lying[first]
    event = _answered(table, actor, "captain", quadrants=[first, second])
    table._set(event, "laid", laid)
    table._set(event, "quadrant_gems", lying)
    return event


def _captain_default(table: YsTable, prompt: dict[str, Any]) -> list[str]:
    """The most gems to the first quadrant the player leads."""
    quadrants = range(table.quadrants())
    most = max(quadrants, key=lambda q: len(table.state.quadrant_gems[q]))
    for q in quadrants:
        ranked = table.rank(_in_quadrant(q))
        if q != most and ranked and ranked[0][0] == prompt["player"]:
            return [str(most), str(q)]
    return [PASS]


def _in_quadrant(quadrant: int) -> Callable[[list[Any]], bool]:
    return lambda space: space[:2] == ["city", quadrant]


def herald(table: YsTable, actor: int, prompt: dict[str, Any], words: list[str]) -> Event:
    """Herald (start of resolution; ``play herald``): asked ``herald``, move one of your
    brokers to another space: ``choose <number> <space> <space>`` (``choose 5 city 0 port
    market 1 red``). From the city to the market scores 1 point; within the market, none.
    A market space must be free and its row hold a gem."""
    index, rest = _board_broker(table, actor, words)
    if len(rest) != 3:
        raise RuleViolation(_("Move a broker: <number> <space> <space>, or pass."))
    to = space_of(rest)
    state = table.state
    entry = state.placed[index]
    if to == entry["space"]:
        raise RuleViolation(_("Move the broker to another space."))
    if to[0] == "city" and to[1] >= table.quadrants():
        raise RuleViolation(_("This game plays quadrants 1 to {n}.").format(n=table.quadrants()))
    if to[0] == "market":
        if state.market[to[1]] is None:
            raise RuleViolation(_("No broker may go in a market row without a gem."))
        if any(other["space"] == to for other in state.placed):
            raise RuleViolation(_("A market space holds one broker."))
    scored = entry["space"][0] == "city" and to[0] == "market"
    event = _answered(table, actor, "herald", value=entry["value"], origin=entry["space"], to=to, scored=scored)
    placed = [dict(other) for other in state.placed]
    placed[index]["space"] = to
    table._set(event, "placed", placed)
    if scored:
        table._player(event, actor, points=table._holdings(actor)["points"] + t.MARKET_POINT)
    return event


def _herald_default(table: YsTable, prompt: dict[str, Any]) -> list[str]:
    state = table.state
    mine = [e for e in state.placed if e["player"] == prompt["player"] and e["space"][0] == "city"]
    taken = [e["space"] for e in state.placed]
    free = [
        ["market", row, colour]
        for row, gem in enumerate(state.market)
        if gem is not None
        for colour in t.COLOURS
        if ["market", row, colour] not in taken
    ]
    if not mine or not free:
        return [PASS]
    entry = min(mine, key=lambda e: e["value"])
    return [str(entry["value"]), *map(str, entry["space"]), *map(str, free[0])]


def jeweller(table: YsTable, actor: int, prompt: dict[str, Any], words: list[str]) -> Event:
    """Jeweller (start of resolution; ``play jeweller``): asked ``jeweller``, take 2
    coloured gems: ``choose <colour> <colour>`` (``choose red red``)."""
    first, second = _colours(words, 2, _("Take two gems: <colour> <colour>, or pass."))
    event = _answered(table, actor, "jeweller", gems=[first, second])
    table._gems(event, actor, dict(Counter([first, second])))
    return event


def _jeweller_default(table: YsTable, prompt: dict[str, Any]) -> list[str]:
    best = scoring.colour_ranking(table.state.prices)[0]
    return [best, best]


def magician(table: YsTable, actor: int, prompt: dict[str, Any], words: list[str]) -> Event:
    """Magician (after your pair; ``play magician``): asked ``magician``, swap the places of
    two of your brokers, one of them may be on the King's favour space: ``choose <broker>
    <broker>`` (``choose 5 city 0 port 1 market 2 red``, ``choose 0 city 1 palace 6
    favour``). Each keeps its face; one from the favour space goes on the board face
    down."""
    first, rest = _broker(table, actor, words)
    second, rest = _broker(table, actor, rest)
    if rest:
        raise RuleViolation(_("Swap two brokers: <number> <space> <number> <space>, or pass."))
    if isinstance(first, str) and isinstance(second, str):
        raise RuleViolation(_("Swap a broker on the board with another, or with one on the King's favour space."))
    state = table.state
    placed = [dict(entry) for entry in state.placed]
    if isinstance(first, str) or isinstance(second, str):
        board, favour = (second, first) if isinstance(first, str) else (first, second)
        assert isinstance(board, int) and isinstance(favour, str)
        holdings = table._holdings(actor)
        given = int(favour)
        entry = placed[board]
        kept = list(holdings["favour"])
        kept[kept.index(given)] = entry["value"]
        spaces: list[Any] = [entry["space"], "favour"]
        event = _answered(
            table, actor, "magician", spaces=spaces, private=[[actor, {"values": [entry["value"], given]}]]
        )
        entry.pop("worth", None)
        entry.update(value=given, up=False)
        table._player(event, actor, favour=kept)
        _forget_looks(table, event, board, actor)
    else:
        assert isinstance(first, int) and isinstance(second, int)
        if placed[first]["space"] == placed[second]["space"]:
            raise RuleViolation(_("Those two brokers are on the same space."))
        spaces = [placed[first]["space"], placed[second]["space"]]
        values = [placed[first]["value"], placed[second]["value"]]
        event = _answered(table, actor, "magician", spaces=spaces, private=[[actor, {"values": values}]])
        placed[first]["space"], placed[second]["space"] = spaces[1], spaces[0]
    table._set(event, "placed", placed)
    return event


def _magician_default(table: YsTable, prompt: dict[str, Any]) -> list[str]:
    mine = [e for e in table.state.placed if e["player"] == prompt["player"]]
    for entry in mine:
        for other in mine:
            if other["space"] != entry["space"] and entry["value"] > other["value"]:
                return [str(entry["value"]), *map(str, entry["space"]), str(other["value"]), *map(str, other["space"])]
    return [PASS]


def mercenary(table: YsTable, actor: int, prompt: dict[str, Any], words: list[str]) -> Event:
    """Mercenary (after your pair; ``play mercenary``): asked ``mercenary``, one of your
    placed brokers counts 5 at resolution: ``choose <number> <space>`` (``choose 0 city 3
    palace``)."""
    index, rest = _board_broker(table, actor, words)
    if rest:
        raise RuleViolation(_("Name one broker: <number> <space>, or pass."))
    placed = [dict(entry) for entry in table.state.placed]
    event = _answered(table, actor, "mercenary", space=placed[index]["space"], worth=t.MERCENARY_WORTH)
    placed[index]["worth"] = t.MERCENARY_WORTH
    table._set(event, "placed", placed)
    return event


def _mercenary_default(table: YsTable, prompt: dict[str, Any]) -> list[str]:
    mine = [e for e in table.state.placed if e["player"] == prompt["player"] and "worth" not in e]
    if not mine:
        return [PASS]
    entry = min(mine, key=lambda e: e["value"])
    return [str(entry["value"]), *map(str, entry["space"])]


def queen(table: YsTable, actor: int, prompt: dict[str, Any], words: list[str]) -> Event:
    """Queen (start of placement; ``play queen``): asked ``queen``, lock one city space: no
    broker goes there until resolution: ``choose <space>`` (``choose city 1 palace``)."""
    space = space_of(words)
    if space[0] != "city":
        raise RuleViolation(_("The Queen locks a city space."))
    table._placeable(space)
    event = _answered(table, actor, "queen", space=space)
    table._set(event, "effects", [*table.state.effects, {"card": "queen", "player": actor, "space": space}])
    return event


def _queen_default(table: YsTable, prompt: dict[str, Any]) -> list[str]:
    return ["city", str(table.quadrants() - 1), "palace"]


def intriguer_answer(table: YsTable, actor: int, prompt: dict[str, Any], words: list[str]) -> Event:
    """The Intriguer's order of a tie (see :func:`intriguer`)."""
    tied = prompt["tied"]
    names = {_name(table, p).lower(): p for p in tied}
    wrong = _("Order the tied players, best first: {names}.").format(names=" ".join(_name(table, p) for p in tied))
    if sorted(words) != sorted(names) or len(set(words)) != len(words):
        raise RuleViolation(wrong)
    order = [names[word] for word in words]
    event = _answered(table, actor, "intriguer", order=order)
    tasks = [list(task) for task in table.state.tasks]
    tasks[0] = [*tasks[0], order]
    table._set(event, "tasks", tasks)
    return event


def _intriguer_default(table: YsTable, prompt: dict[str, Any]) -> list[str]:
    actor = prompt["player"]
    tied = sorted(prompt["tied"], key=lambda p: p != actor)
    return [_name(table, p).lower() for p in tied]


# -- cards used through placement --------------------------------------------------------


def look(table: YsTable, actor: int, words: list[str]) -> None:
    """A Spy's look (see :func:`spy`)."""
    state = table.state
    mine = [e for e in table.effects_of("spy") if e["player"] == actor]
    if not mine or state.stage != "place":
        raise RuleViolation(_("You have no Spy in effect now (it looks during placement)."))
    effect = next((e for e in mine if len(e["seen"]) < t.SPY_LOOKS), None)
    if effect is None:
        refusal = ngettext("Your Spy has looked {n} time.", "Your Spy has looked {n} times.", t.SPY_LOOKS)
        raise RuleViolation(refusal.format(n=t.SPY_LOOKS))
    if len(words) < 2:
        raise RuleViolation(_("Look with: play spy <player> <space>, or play spy <player> favour."))
    target = _player(table, words[0])
    if target == actor:
        raise RuleViolation(_("Look at your opponents' brokers."))
    seen = [look for e in mine for look in e["seen"]]
    if words[1:] == ["favour"]:
        favour = table._holdings(target)["favour"]
        index = next((i for i in range(len(favour)) if ["favour", target, i] not in seen), None)
        if index is None:
            refusal = _("{name} has no broker on the King's favour space you have not seen.")
            raise RuleViolation(refusal.format(name=_name(table, target)))
        look_at: list[Any] = ["favour", target, index]
        value, where = favour[index], ["favour"]
    else:
        space = space_of(words[1:])
        index = next(
            (
                i
                for i, e in enumerate(state.placed)
                if e["player"] == target
                and e["space"] == space
                and not e["up"]
                and e.get("by") != actor
                and ["board", i] not in seen
            ),
            None,
        )
        if index is None:
            refusal = _("{name} has no face-down broker there you have not seen.")
            raise RuleViolation(refusal.format(name=_name(table, target)))
        look_at = ["board", index]
        value, where = state.placed[index]["value"], space
    event = table._record(
        "card", actor, player=actor, card="spy", target=target, space=where, private=[[actor, {"value": value}]]
    )
    effects = [dict(e, seen=[*e["seen"], look_at]) if e is effect else e for e in state.effects]
    table._set(event, "effects", effects)


def _look_sample(table: YsTable, actor: int) -> list[str] | None:
    state = table.state
    mine = [e for e in table.effects_of("spy") if e["player"] == actor]
    seen = [look for e in mine for look in e["seen"]]
    if state.stage != "place" or not any(len(e["seen"]) < t.SPY_LOOKS for e in mine):
        return None
    options = [
        [_name(table, e["player"]).lower(), *map(str, e["space"])]
        for i, e in enumerate(state.placed)
        if e["player"] != actor and not e["up"] and e.get("by") != actor and ["board", i] not in seen
    ]
    return table.rng.choice(options) if options else None


def conjure(table: YsTable, actor: int, words: list[str]) -> None:
    """A Conjurer's swap (see :func:`conjurer`)."""
    state = table.state
    effect = next((e for e in table.effects_of("conjurer") if e["player"] == actor), None)
    if effect is None:
        raise RuleViolation(_("You have no Conjurer in effect this round."))
    if state.stage != "place" or state.turn != actor or state.turn_part != "pair" or state.awaiting:
        raise RuleViolation(_("The Conjurer works on your turn, before you place your pair."))
    if len(effect["owed"]) >= 2:
        raise RuleViolation(_("Place your pair now: it holds both brokers you took from in front of the screen."))
    if len(words) != 2 or not all(word.isdigit() for word in words):
        raise RuleViolation(_("Swap with: play conjurer <broker in front> <broker behind the screen>."))
    front, behind = int(words[0]), int(words[1])
    holdings = table._holdings(actor)
    rest_front = table._take(holdings["front"], [front], in_front=True)
    rest_screen = table._take(holdings["screen"], [behind])
    if front == behind:
        raise RuleViolation(_("Take a broker of another number from behind the screen."))
    if (Counter(holdings["screen"]) - Counter(effect["owed"]))[behind] < 1:
        refusal = _("The {value} you took from in front of the screen is for your pair: place it.")
        raise RuleViolation(refusal.format(value=behind))
    event = table._record("card", actor, player=actor, card="conjurer", front=front, behind=behind)
    table._player(event, actor, front=sorted([*rest_front, behind]), screen=sorted([*rest_screen, front]))
    table._set(event, "effects", [dict(e, owed=[*e["owed"], front]) if e is effect else e for e in state.effects])


def _conjure_sample(table: YsTable, actor: int) -> list[str] | None:
    state = table.state
    effect = next((e for e in table.effects_of("conjurer") if e["player"] == actor), None)
    if effect is None or len(effect["owed"]) >= 2 or state.turn != actor or state.turn_part != "pair":
        return None
    holdings = table._holdings(actor)
    free = Counter(holdings["screen"]) - Counter(effect["owed"])
    pairs = [(f, b) for f in set(holdings["front"]) for b in free if f != b]
    if state.stage != "place" or not pairs:
        return None
    front, behind = table.rng.choice(sorted(pairs))
    return [str(front), str(behind)]


# -- helpers -------------------------------------------------------------------------------


def _answered(table: YsTable, actor: int, card: str, **data: Any) -> Event:
    """The event of ``actor``'s answer to ``card``'s prompt, which it takes off ``awaiting``."""
    event = table._record("card", actor, player=actor, card=card, **data)
    table._set(event, "awaiting", table.state.awaiting[1:])
    return event


def _colours(words: list[str], count: int, wrong: str) -> list[str]:
    if len(words) != count or not all(word in t.COLOURS for word in words):
        raise RuleViolation(wrong)
    return words


def _broker(table: YsTable, actor: int, words: list[str]) -> tuple[int | str, list[str]]:
    """One of ``actor``'s brokers named at the head of ``words`` (``5 city 0 port`` or
    ``3 favour``): its index in ``placed`` (on the King's favour space, its number as a
    string), and the words after it."""
    if words[1:2] == ["favour"] and words[0].isdigit():
        if int(words[0]) not in table._holdings(actor)["favour"]:
            raise RuleViolation(_("You have no broker {value} on the King's favour space.").format(value=words[0]))
        return words[0], words[2:]
    return _board_broker(table, actor, words)


def _board_broker(table: YsTable, actor: int, words: list[str]) -> tuple[int, list[str]]:
    """One of ``actor``'s brokers on the board named at the head of ``words`` (``5 city 0
    port``): its index in ``placed``, and the words after it."""
    if not words or not words[0].isdigit():
        raise RuleViolation(_("Name a broker of yours: <number> <space> (or <number> favour)."))
    value = int(words[0])
    space = space_of(words[1:4])
    for index, entry in enumerate(table.state.placed):
        if entry["player"] == actor and entry["value"] == value and entry["space"] == space:
            return index, words[4:]
    raise RuleViolation(_("You have no broker {value} there.").format(value=value))


def _forget_looks(table: YsTable, event: Event, board: int, owner: int) -> None:
    """A Spy's looks at brokers a Magician has just exchanged no longer show them."""
    gone = (["board", board],)
    effects = []
    for entry in table.state.effects:
        if entry["card"] == "spy":
            seen = [look for look in entry["seen"] if look not in gone and look[:2] != ["favour", owner]]
            entry = dict(entry, seen=seen)
        effects.append(entry)
    if effects != table.state.effects:
        table._set(event, "effects", effects)


def _name(table: YsTable, player: int) -> str:
    return "neutral" if player == t.NEUTRAL else table.name_of(player)


def _player(table: YsTable, word: str) -> int:
    for holdings in table.state.players:
        if _name(table, holdings["id"]).lower() == word:
            return int(holdings["id"])
    raise RuleViolation(_("Nobody called {name} plays here.").format(name=word))


_ASKING: dict[str, tuple[Callable[..., Event], Callable[[YsTable, dict[str, Any]], list[str]]]] = {
    "alchemist": (alchemist, _alchemist_default),
    "banker": (banker, _banker_default),
    "captain": (captain, _captain_default),
    "herald": (herald, _herald_default),
    "jeweller": (jeweller, _jeweller_default),
    "magician": (magician, _magician_default),
    "mercenary": (mercenary, _mercenary_default),
    "queen": (queen, _queen_default),
}


def _or_pass(card: str, answer: Callable[..., Event]) -> Callable[[YsTable, int, dict[str, Any], list[str]], Event]:
    """``answer``, or the card's effect given up for ``pass``."""

    def answered(table: YsTable, actor: int, prompt: dict[str, Any], words: list[str]) -> Event:
        if words == [PASS]:
            return _answered(table, actor, card, passed=True)
        return answer(table, actor, prompt, words)

    return answered


for _card, (_answer, _default) in _ASKING.items():
    rules.EFFECTS[_card] = _asking
    rules.ANSWERS[_card] = (_or_pass(_card, _answer), _default)
rules.ANSWERS["intriguer"] = (intriguer_answer, _intriguer_default)
rules.EFFECTS.update(bishop=bishop, merchant=merchant, intriguer=intriguer, spy=spy, conjurer=conjurer)
rules.USES.update(spy=(look, _look_sample), conjurer=(conjure, _conjure_sample))
