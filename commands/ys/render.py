"""How a Ys table and its events read as text, for one viewer at a time.

Everything here takes what the visibility policy already filtered (an event's data as
:func:`games.ys.visibility.event_for` gave it to the viewer, or the viewer's
:func:`~games.ys.visibility.seat_view`), never the raw state, so nothing rendered can
show a broker, bid or card the viewer may not see. Pure text, no sessions.

Players are shown by a letter (their initial, or A-E if initials clash; N the neutral
player) in a colour of their own, so the board reads with colour and without it.

- ``render_event(data, kind, viewer, names, actor)``: the line ``viewer`` reads;
- ``prompt(after, viewer, names, ...)``: what the table now waits for, told to ``viewer``;
- ``render_board(view, room_name)``, ``render_market(view)``, ``render_screen(view)``:
  the board map, the market and your own screen, within 80 columns;
- ``help_text()``: the rules and every reading of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from commands.table_lines import Names, Renderer, capital, listed, seating_lines, verb, who
from commands.text import docstring_section
from games.base import NOBODY, OVER, PLAYING
from games.ys import tables as t
from server.text import WHOLE_LINE, coloured, render_colours, wrap_lines

WIDTH = 80

#: Each seat's colour, in seating order (the neutral player's is dim).
PLAYER_COLOURS = ("hc", "hm", "hw", "c", "m")
NEUTRAL_COLOUR = "x"
GEM_COLOURS = {"blue": "hb", "green": "hg", "yellow": "hy", "red": "hr", "white": "hw", "black": "x"}
GEM_LETTERS = {"blue": "b", "green": "g", "yellow": "y", "red": "r", "black": "k"}
RING_SHORT = {"port": "o", "commercial": "c", "palace": "p"}
COLOUR_SHORT = {colour: colour[0] for colour in t.COLOURS}

#: The grammar of a space, as help and refusals show it.
SPACE_GRAMMAR = (
    "A space is c<quadrant><ring> in the city (ring p palace, c commercial, o port),"
    " or m<row><colour> in the market (b blue, g green, y yellow, r red); quadrants and"
    " rows are 1-4. Long forms read too: city 2 palace, market 1 blue, m1 blue."
)


class SpaceError(ValueError):
    """Words that name no space (the message says why)."""


# -- spaces ------------------------------------------------------------------------------


def space_label(space: list[Any]) -> str:
    """``city 2 palace`` / ``market 1 blue`` (1-based) for a space as the state keeps it."""
    return f"{space[0]} {space[1] + 1} {space[2]}"


def space_code(space: list[Any]) -> str:
    """The short form a player types for ``space``: ``c2p``, ``m1b``."""
    if space[0] == "city":
        return f"c{space[1] + 1}{RING_SHORT[space[2]]}"
    return f"m{space[1] + 1}{COLOUR_SHORT[space[2]]}"


_TOKEN = re.compile(r"\d+|[a-z]+")


def tokens(text: str) -> list[str]:
    """``text`` as number and word tokens (``c2p`` -> c, 2, p); SpaceError for anything
    but letters, digits and spaces, or a number longer than 3 digits."""
    lowered = text.lower()
    if re.search(r"[^a-z0-9 ]", lowered):
        raise SpaceError("Use only letters, digits and spaces.")
    found = _TOKEN.findall(lowered)
    if any(token.isdigit() and len(token) > 3 for token in found):
        raise SpaceError("That number is far too big.")
    return found


def read_space(words: list[str]) -> list[Any]:
    """The space ``words`` (three tokens) name, 0-based as the rules keep it."""
    if len(words) != 3 or not words[1].isdigit():
        raise SpaceError(SPACE_GRAMMAR)
    where, number, name = words[0], int(words[1]) - 1, words[2]
    if where in ("c", "city"):
        ring = next((r for r, short in RING_SHORT.items() if name in (r, short)), None)
        if ring is None or not 0 <= number < t.QUADRANTS:
            raise SpaceError(SPACE_GRAMMAR)
        return ["city", number, ring]
    if where in ("m", "market"):
        colour = next((c for c, short in COLOUR_SHORT.items() if name in (c, short)), None)
        if colour is None or not 0 <= number < t.MARKET_ROWS:
            raise SpaceError(SPACE_GRAMMAR)
        return ["market", number, colour]
    raise SpaceError(SPACE_GRAMMAR)


def rules_words(words: list[str]) -> list[str]:
    """An answer's or a card's words as the rules read them: each space in them, typed
    as players type spaces (``c2p``, ``city 2 palace``; quadrants and rows 1-4), in the
    rules' own form (``city 1 palace``: 0-3); the other words as they are."""
    found, index = [], 0
    while index < len(words):
        if words[index] in ("c", "city", "m", "market") and index + 2 < len(words) and words[index + 1].isdigit():
            found += [str(part) for part in read_space(words[index : index + 3])]
            index += 3
        else:
            found.append(words[index])
            index += 1
    return found


def read_values_and_spaces(text: str, pairs: int) -> list[tuple[int, list[Any]]]:
    """``pairs`` of ``<value> <space>`` read from ``text``."""
    found = tokens(text)
    result = []
    for _ in range(pairs):
        if len(found) < 4 or not found[0].isdigit():
            raise SpaceError("Give a broker's value, then its space.")
        result.append((int(found[0]), read_space(found[1:4])))
        found = found[4:]
    if found:
        raise SpaceError("Too many words.")
    return result


# -- who ------------------------------------------------------------------------------------


def letters(view: dict[str, Any]) -> dict[int, str]:
    """Each player's letter: their initial if those are all different, else A, B, C...;
    N for the neutral player."""
    people = [p for p in view["players"] if not p["neutral"]]
    initials = [p["name"][:1].upper() for p in people]
    neutral = any(p["neutral"] for p in view["players"])
    clash = (
        len(set(initials)) != len(initials) or (neutral and "N" in initials) or not all(i.isalpha() for i in initials)
    )
    chosen = [chr(ord("A") + i) for i in range(len(people))] if clash else initials
    result = {p["id"]: letter for p, letter in zip(people, chosen, strict=True)}
    result.update({p["id"]: "N" for p in view["players"] if p["neutral"]})
    return result


def _colour_of(view: dict[str, Any], player: int) -> str:
    ids = [p["id"] for p in view["players"] if not p["neutral"]]
    return PLAYER_COLOURS[ids.index(player) % len(PLAYER_COLOURS)] if player in ids else NEUTRAL_COLOUR


def _who(account_id: int, viewer: int, names: Names) -> str:
    """``you``, the player's name, or the neutral player."""
    return "the neutral player" if account_id == t.NEUTRAL else who(account_id, viewer, names)


def _subject(account_id: int, viewer: int, names: Names) -> str:
    return capital(_who(account_id, viewer, names))


def _gems(gems: list[str]) -> str:
    return " ".join(gems) if gems else "none"


def _ranking(ranking: list[list[int]], viewer: int, names: Names) -> str:
    return ", ".join(f"{_who(p, viewer, names)} {total}" for p, total in ranking)


# -- events ---------------------------------------------------------------------------------


def render_event(data: dict[str, Any], kind: str, viewer: int, names: Names, actor: int = NOBODY) -> str | None:
    """The line ``viewer`` reads about an event of ``kind``, from ``data`` as the
    visibility policy gave it to them; ``names`` maps seat ids to names. None: no renderer."""
    render = RENDERERS.get(kind)
    return render(data, viewer, names, actor) if render else None


def _start(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    order = listed([_who(p, v, n) for p in d["order"]])
    neutral = " with the neutral player" if d.get("neutral") else ""
    return f"A game of Ys begins{neutral}. Order cards: {order}."


def _round(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    counts = d.get("market_gems") or [1] * len(d["market"])
    rows = ", ".join(
        (gem + (f" x{count}" if count > 1 else "")) if gem else "-"
        for gem, count in zip(d["market"], counts, strict=False)
    )
    # The palace cards of the quadrants in play (laid -1: a quadrant out of play).
    cards = ", ".join(card or "-" for card, laid in zip(d["cards"], d["laid"], strict=False) if laid >= 0)
    return f"Round {d['round']}: gem cards are laid. Market rows: {rows}. Palace cards: {cards}."


def _row_gems(gem: str | None, count: int) -> str:
    """A market row's gems, for a line: ``red``, ``red x2`` (the big gem's two), ``-``."""
    return "-" if gem is None else gem + (f" x{count}" if count > 1 else "")


def _bid(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    if "brokers" in d:
        return f"You bid {d['brokers'][0]} and {d['brokers'][1]} (hidden until everyone has bid)."
    return f"{_subject(d['player'], v, n)} bids."


def _bids_shown(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    bids = ", ".join(f"{_who(p, v, n)} {a}+{b}={total}" for p, (a, b), total in d["bids"])
    choosers = listed([_who(p, v, n) for p in d["choosers"]])
    return f"Bids: {bids}. Order cards are chosen from the highest bid down: {choosers}."


def _order_card(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    player = d["player"]
    return f"{_subject(player, v, n)} {verb(player, v, 'take', 'takes')} order card {d['card']}."


def _order(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    order = listed([_who(p, v, n) for p in d["order"]])
    if "bids" in d:  # stored by 0.2 games, where the bids set the order
        bids = ", ".join(f"{_who(p, v, n)} {a}+{b}={total}" for p, (a, b), total in d["bids"])
        return f"Bids: {bids}. Turn order: {order}."
    player, card = d["last"]
    left = f"{_subject(player, v, n)} {verb(player, v, 'take', 'takes')} order card {card}, the one left. "
    return f"{left}Turn order this round: {order}."


def _place(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    up, down, player = d["up"], d["down"], d["player"]
    hidden = f"your {d['down_value']}" if "down_value" in d else "a broker"
    places = verb(player, v, "place", "places")
    # Under the Bishop both go face down: the "up" one has no value to show.
    first = f"a {up['value']} face up" if "value" in up else "a broker face down (Bishop)"
    return (
        f"{_subject(player, v, n)} {places} {first} on {space_label(up['space'])}"
        f" and {hidden} face down on {space_label(down['space'])}."
    )


def _neutral(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    which = f"the neutral player's {d['value']}" if "value" in d else "a neutral broker"
    player = d["player"]
    places = verb(player, v, "place", "places")
    return f"{_subject(player, v, n)} {places} {which} face down on {space_label(d['space'])}."


def _turn(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    return f"{capital(_who(d['player'], v, n))} {verb(d['player'], v, 'place', 'places')} next."


def _resolve(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    fronts = "; ".join(f"{_who(p, v, n)} {' '.join(map(str, front))}" for p, front in d["fronts"])
    return f"Round {d['round']} is resolved: every broker is turned up. In front of the screens: {fronts}."


PRIZES = {"black": "a black gem"}


def _win(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    prize = d.get("prize", "")
    # Events stored before the points were kept with them won the usual 3.
    got = (
        f"{d.get('points', t.COMMERCIAL_POINTS)} points"
        if prize == "points"
        else PRIZES.get(prize, f"the {prize} card")
    )
    if "gem" in d:
        # The neutral player takes a gem of the strongest colour instead of a card.
        got += f", and takes a {coloured(d['gem'], GEM_COLOURS[d['gem']])} gem instead"
    player = d["player"]
    return (
        f"{_subject(player, v, n)} {verb(player, v, 'win', 'wins')} {space_label(d['space'])}"
        f" ({_ranking(d['ranking'], v, n)}): {got}."
    )


def _quadrant(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    ranking = d["ranking"]
    if len(ranking) == 1:
        player = ranking[0][0]
        takes = verb(player, v, "take", "takes")
        return f"Quadrant {d['quadrant'] + 1}: {_subject(player, v, n)} ({ranking[0][1]}) {takes} its gems."
    return f"Quadrant {d['quadrant'] + 1}: {_ranking(ranking, v, n)}; they take its gems in that order."


def _take(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    player = d["player"]
    takes = verb(player, v, "take", "takes")
    return f"{_subject(player, v, n)} {takes} {_gems(d['gems'])} from quadrant {d['quadrant'] + 1}."


ASKS = {
    "order": "an order card",
    "gem": "a gem of any colour (treasure)",
    "white": "a colour for a white gem",
    "take": "gems from a quadrant",
    "nudge": "a price to move (top market investor)",
}


def _ask_words(ask: str) -> str:
    """What a player is asked to choose, after "choose" ("what the magician does")."""
    return ASKS.get(ask) or (f"what the {ask} does" if ask in CARD_ANSWERS else "something")


def _asked(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    player = d["player"]
    return f"{_subject(player, v, n)} {verb(player, v, 'choose', 'chooses')} {_ask_words(d['ask'])}."


def _chose(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    player = d["player"]
    if d["ask"] == "nudge":  # stored by 0.2 games, whose nudge was told twice
        return f"{_subject(player, v, n)} {verb(player, v, 'move', 'moves')} a price."
    why = "for the white gem" if d["ask"] == "white" else "(treasure)"
    return f"{_subject(player, v, n)} {verb(player, v, 'take', 'takes')} a {_gems(d.get('gems', []))} gem {why}."


def _row(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    player = d["player"]
    takes = verb(player, v, "take", "takes")
    gems = f"the {d['gem']} gem" if d.get("count", 1) == 1 else f"the {d['count']} {d['gem']} gems"
    return f"{_subject(player, v, n)} {takes} {gems} of market row {d['row'] + 1} ({_ranking(d['ranking'], v, n)})."


def _prices(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    moves = ", ".join(f"{colour} {move:+d}" for colour, move in d["moves"])
    now = ", ".join(f"{colour} {price}" for colour, price in d["prices"].items())
    return f"The prices move: {moves}. Now {now}."


def _nudge(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    player = d["player"]
    way = "up" if d["move"] > 0 else "down"
    now = d["prices"][d["colour"]]
    if d.get("was") == now:  # (events stored before "was" was kept read as a move)
        end = "top" if d["move"] > 0 else "bottom"
        chooses = verb(player, v, "choose", "chooses")
        still = f"it is at the {end} of the track already ({now})"
        return f"{_subject(player, v, n)} {chooses} {d['colour']} {way}, but {still}."
    moves = verb(player, v, "move", "moves")
    return f"{_subject(player, v, n)} {moves} {d['colour']} {way}: it is at {now}."


def _endround(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    return f"Round {d['round']} ends."


def _favour(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    if "value" in d:
        return f"You give the King's favour your {d['value']} and take a {t.FAVOUR_BROKER} from the supply."
    return f"{_subject(d['player'], v, n)} gives the King's favour a broker and takes a {t.FAVOUR_BROKER}."


WINDOW_WORDS = {
    t.IMMEDIATE: "at once",
    t.START_OF_PLACEMENT: "at the start of placement",
    t.AFTER_PAIR: "after their pair",
    t.START_OF_RESOLUTION: "at the start of resolution",
    t.END_OF_ROUND: "at the end of the round",
}


def _play(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    player = d["player"]
    when = "after your pair" if d["window"] == t.AFTER_PAIR and player == v else WINDOW_WORDS.get(d["window"], "")
    when = when or "in its window"
    return f"{_subject(player, v, n)} {verb(player, v, 'play', 'plays')} the {d['card']}: it takes effect {when}."


def _effect(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    player = d["player"]
    whose = "Your" if player == v else f"{n.get(player, 'Someone')}'s"
    return f"{whose} {d['card']} takes effect."


def _card(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    """A card's effect as its player chose it (what only they may know is only theirs)."""
    player, card = d["player"], d["card"]
    who, does = _subject(player, v, n), lambda own, other: verb(player, v, own, other)
    if d.get("passed"):
        return f"{who} {does('give', 'gives')} up the {card}'s effect."
    if card == "spy":
        seen = f": it is a {d['value']}" if "value" in d else ""
        target = d["target"]
        whose = "your" if target == v else f"{_who(target, v, n)}'s"
        looked = f"{who} {does('look', 'looks')} at one of {whose} face-down brokers"
        # A look at the King's favour space is stored as the space ["favour"].
        where = "on the King's favour space" if d["space"] == ["favour"] else f"on {space_label(d['space'])}"
        return f"{looked} {where} (Spy){seen}."
    if card == "conjurer":
        takes = does("take", "takes")
        return f"{who} {takes} a {d['front']} from in front of the screen, a {d['behind']} going there (Conjurer)."
    if card == "alchemist":
        return f"{who} {does('change', 'changes')} a {d['gave']} gem for a {d['took']} one (Alchemist)."
    if card == "banker":
        return f"{who} {does('move', 'moves')} {d['up']} up and {d['down']} down (Banker)."
    if card == "captain":
        first, second = (q + 1 for q in d["quadrants"])
        return f"{who} {does('swap', 'swaps')} the gem cards of quadrants {first} and {second} (Captain)."
    if card == "herald":
        scored = " and scores a point" if d.get("scored") else ""
        moves = does("move", "moves")
        return (
            f"{who} {moves} a {d['value']} from {space_label(d['origin'])} to {space_label(d['to'])}{scored} (Herald)."
        )
    if card == "jeweller":
        return f"{who} {does('take', 'takes')} {_gems(d['gems'])} gems (Jeweller)."
    if card == "magician":
        where = " and ".join("the King's favour space" if s == "favour" else space_label(s) for s in d["spaces"])
        values = f" ({' and '.join(map(str, d['values']))})" if "values" in d else ""
        return f"{who} {does('swap', 'swaps')} two brokers{values} on {where} (Magician)."
    if card == "mercenary":
        return f"{who} {does('make', 'makes')} a broker on {space_label(d['space'])} count {d['worth']} (Mercenary)."
    if card == "queen":
        return f"{who} {does('lock', 'locks')} {space_label(d['space'])} until the resolution (Queen)."
    if card == "intriguer":
        return f"{who} {does('order', 'orders')} a tie: {', '.join(_who(p, v, n) for p in d['order'])} (Intriguer)."
    return f"{who} {does('use', 'uses')} the {card}."


def _timeout(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    player = d["player"]
    return f"Time is up for {_who(player, v, n)}: a move is made for {verb(player, v, 'you', 'them')}."


def _score(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    lines = ["The final score (points in play, black gems, colours, King's favour, total):"]
    for p, points, black, colour, kings, total in d["scores"]:
        lines.append(f"  {_who(p, v, n)[:20]:<20} {points:>3} {black:>3} {colour:>3} {kings:>3} = {total:>3}")
    lines.append(d["result"])
    return "\n".join(lines)


#: One renderer per event kind the rules emit.
RENDERERS: dict[str, Renderer] = {
    **seating_lines("Ys"),
    "start": _start,
    "round": _round,
    "bid": _bid,
    "bids": _bids_shown,
    "ordercard": _order_card,
    "order": _order,
    "place": _place,
    "neutral": _neutral,
    "turn": _turn,
    "resolve": _resolve,
    "win": _win,
    "quadrant": _quadrant,
    "take": _take,
    "asked": _asked,
    "chose": _chose,
    "row": _row,
    "prices": _prices,
    "nudge": _nudge,
    "endround": _endround,
    "favour": _favour,
    "play": _play,
    "effect": _effect,
    "card": _card,
    "timeout": _timeout,
    "score": _score,
}


# -- prompts --------------------------------------------------------------------------------


#: What a card's player types when it asks (spaces as for place; a broker of yours is its
#: value and its space, or its value and "favour"; "choose pass" gives the effect up).
CARD_ANSWERS = {
    "alchemist": "choose <your gem's colour> <the colour you want> (choose red blue)",
    "banker": "choose <colour up> <colour down> (choose blue red)",
    "captain": "choose <quadrant> <quadrant>: swap their gem cards (choose 1 3)",
    "herald": "choose <value> <its space> <new space> (choose 5 c1o m2r)",
    "jeweller": "choose <colour> <colour> (choose red red)",
    "magician": "choose <value> <space> <value> <space> or <value> favour (choose 5 c1o 1 m2r)",
    "mercenary": "choose <value> <space>: it counts 5 (choose 0 c4p)",
    "queen": "choose <city space> to lock (choose c2p)",
    "intriguer": "choose <the tied players, best first> (choose Bo Ann)",
}

#: The Magician's answer for a player with no broker on the King's favour space.
MAGICIAN_ON_THE_BOARD = "choose <value> <space> <value> <space> (choose 5 c1o 1 m2r)"

PLACE_HINT = "place <value> <space> <value> <space> (first face up, second face down), e.g. place 5 c2p 3 m1b"


def _ask_hint(prompt: dict[str, Any]) -> str:
    ask = prompt["ask"]
    if ask == "take":
        return (
            f"choose {prompt['count']} of the gems on quadrant {prompt['quadrant'] + 1}"
            f" ({' '.join(prompt['options'])}): choose " + " ".join(["<gem>"] * prompt["count"])
        )
    if ask == "nudge":
        return "move one colour's price as top market investor: choose <colour> up|down"
    if ask == "order":
        free = ", ".join(map(str, prompt["options"]))
        return f"choose your order card for this round: order <card> (free: {free}; 1 places first, wins ties)"
    if ask == "white":
        return "choose a colour for your white gem: choose blue|green|yellow|red"
    if ask == "gem":
        return "choose a gem of any colour (treasure): choose blue|green|yellow|red"
    if ask == "magician" and prompt.get("favour") is False:
        # No broker of theirs on the King's favour space (asks made before this was said offer it).
        return f"choose what the magician does: {MAGICIAN_ON_THE_BOARD}"
    return f"choose what the {ask} does: {CARD_ANSWERS.get(ask, 'choose <answer>, or choose pass')}"


def prompt(
    after: dict[str, Any], viewer: int, names: Names, players: list[int], seconds: int | None, bots: set[int]
) -> str:
    """What the table waits for once an event made the changes ``after`` (the last value
    it set of ``awaiting``, ``turn``, ``turn_part`` and ``stage``), told to ``viewer``:
    what to type if it is them, else whom the table waits for. ``players`` are those in
    the game; ``seconds`` the turn time a person has; ``bots`` the computer players. ""
    if the event asks nothing."""

    def timer(player: int) -> str:
        return "" if player in bots or not seconds else f" (In {seconds} seconds a move is made for you.)"

    def waiting(player: int, what: str) -> str:
        clock = "" if player in bots or not seconds else f", {seconds} seconds"
        return f"Waiting for {names.get(player, 'someone')} to {what}{clock}."

    awaiting = after.get("awaiting")
    if awaiting:
        first = awaiting[0]
        if first["player"] == viewer:
            return f"You must {_ask_hint(first)}.{timer(viewer)}"
        return waiting(first["player"], "choose " + _ask_words(first["ask"]))
    turn, part = after.get("turn", NOBODY), after.get("turn_part", "")
    if part == "neutral" and turn != NOBODY:
        if turn == viewer:
            return f"Now place one neutral broker face down: neutral <value> <space>.{timer(viewer)}"
        return waiting(turn, "place a neutral broker")
    if turn != NOBODY and part == "pair":
        if turn == viewer:
            return f"Your turn to place a pair: {PLACE_HINT}.{timer(viewer)}"
        return waiting(turn, "place")
    stage = after.get("stage")
    if stage in ("bid", "favour"):
        if viewer in players:
            if stage == "bid":
                return f"Bid two brokers from behind your screen: bid <a> <b> (see screen).{timer(viewer)}"
            return f"Give the King's favour one broker in front of your screen: favour <value>.{timer(viewer)}"
        return "Waiting for everyone to bid." if stage == "bid" else "Waiting for everyone's King's favour."
    return ""


def waiting_line(view: dict[str, Any], names: Names, seconds: int | None) -> str:
    """The table's one line on whom it waits for now (from the view)."""
    if view["phase"] != PLAYING:
        return ""
    after = {
        "awaiting": view["awaiting"],
        "turn": view["turn"],
        "turn_part": view["turn_part"],
        "stage": view["stage"] if not view["awaiting"] and view["turn"] == NOBODY else "",
    }
    bots = {p["id"] for p in view["players"] if p["bot"]}
    players = [p["id"] for p in view["players"] if not p["neutral"]]
    me = view["viewer"]
    if after["stage"] == "bid" and me in players:
        mine = next(p for p in view["players"] if p["id"] == me)
        if mine["bid"]:
            later = [names.get(p["id"], "?") for p in view["players"] if not p["neutral"] and not p["bid"]]
            return f"You have bid; waiting for {listed(later)}."
    if after["stage"] == "favour" and me in players:
        given = next(p for p in view["players"] if p["id"] == me)["favour"]
        if given >= view["round"]:
            return "You have given the King's favour a broker; waiting for the others."
    return prompt(after, me, names, players, seconds, bots)


# -- the board ------------------------------------------------------------------------------


STAGE_WORDS = {"bid": "bidding", "place": "placing", "resolve": "resolution", "favour": "the King's favour"}


def _broker(view: dict[str, Any], entry: dict[str, Any], marks: dict[int, str]) -> str:
    value = "?" if entry["value"] is None else str(entry["value"])
    text = f"{marks[entry['player']]}{value}" + ("" if entry["up"] else "'")
    return coloured(text, _colour_of(view, entry["player"]))


def _visible_len(text: str) -> int:
    return len(_plain(text))


def _plain(text: str) -> str:
    return render_colours(text, False)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _visible_len(text))


def _all_known(view: dict[str, Any]) -> bool:
    return all(entry["value"] is not None for entry in view["placed"])


def leaders(view: dict[str, Any], where: Callable[[list[Any]], bool]) -> list[tuple[int, int]]:
    """The players on the spaces ``where`` picks, best first, by the rules' order: sum,
    the neutral player on ties, the larger sum in front of the screen, the lower order
    card. Only once every broker there is known to the viewer."""
    sums: dict[int, int] = {}
    for entry in view["placed"]:
        if where(entry["space"]):
            if entry["value"] is None:
                return []
            sums[entry["player"]] = sums.get(entry["player"], 0) + entry["value"]
    fronts = {p["id"]: sum(p["front"] or []) for p in view["players"]}
    order = view["order"]

    def key(p: int) -> tuple[int, int, int, int]:
        if p == t.NEUTRAL:
            return (-sums[p], 0, 0, 0)
        return (-sums[p], 1, -fronts.get(p, 0), order.index(p) if p in order else 99)

    return [(p, sums[p]) for p in sorted(sums, key=key)]


def _lead(view: dict[str, Any], marks: dict[int, str], where: Callable[[list[Any]], bool]) -> str:
    ranked = leaders(view, where)
    if not ranked:
        return ""
    p, total = ranked[0]
    return coloured(f"{marks[p]}{total}", _colour_of(view, p))


#: The width of a city space's label on the board: "palace[intriguer]", the longest.
LABEL_WIDTH = len("palace[]") + max(len(card) for card in (*t.YELLOW_CARDS, t.BLUE_CARD))


def _quadrant_block(view: dict[str, Any], q: int, marks: dict[int, str], width: int) -> list[str]:
    corner = view["corners"][q] if q < len(view["corners"]) else {"up": None, "left": 0}
    card = corner["up"] or "-"
    lead = _lead(view, marks, lambda s: s[0] == "city" and s[1] == q)
    head = f"Quadrant {q + 1}" + (f"  leads {lead}" if lead else "")
    gems = view["quadrant_gems"][q] if q < len(view["quadrant_gems"]) else []
    lines = [head, f" gems: {' '.join(coloured(g, GEM_COLOURS[g]) for g in gems) or '-'}"]
    for ring in reversed(t.RINGS):
        label = {"palace": f"palace[{card}]", "commercial": "commerc.(3)", "port": "port(black)"}[ring]
        label = f" {label:<{LABEL_WIDTH}}"
        brokers = [_broker(view, e, marks) for e in view["placed"] if e["space"] == ["city", q, ring]]
        lead = _lead(view, marks, lambda s, ring=ring: s == ["city", q, ring])  # type: ignore[misc]
        if lead:
            brokers.append(f"={lead}")
        line = label
        for broker in brokers or ["."]:
            if _visible_len(line) + 1 + _visible_len(broker) > width:
                lines.append(line)
                line = " " * (LABEL_WIDTH + 1)
            line += " " + broker
        lines.append(line)
    return lines


def _side_by_side(left: list[str], right: list[str], width: int) -> list[str]:
    rows = max(len(left), len(right))
    left = left + [""] * (rows - len(left))
    right = right + [""] * (rows - len(right))
    return [(_pad(a, width) + " | " + b).rstrip() for a, b in zip(left, right, strict=True)]


def render_market(view: dict[str, Any]) -> str:
    """The market: each row's gem and the broker in each colour column, the leaders once
    known, and the price track."""
    return whole(market_lines(view))


def market_lines(view: dict[str, Any]) -> list[str]:
    marks = letters(view)
    lines = ["Market  " + "".join(_pad(coloured(c, GEM_COLOURS[c]), 8) for c in t.COLOURS) + "gem     lead"]
    for row in range(t.MARKET_ROWS):
        gem = view["market"][row] if row < len(view["market"]) else None
        cells = []
        for colour in t.COLOURS:
            entry = next((e for e in view["placed"] if e["space"] == ["market", row, colour]), None)
            cells.append(_pad(_broker(view, entry, marks) if entry else ".", 8))
        lead = _lead(view, marks, lambda s, row=row: s[0] == "market" and s[1] == row)  # type: ignore[misc]
        count = (view.get("market_gems") or [1] * t.MARKET_ROWS)[row]
        shown = coloured(_row_gems(gem, count), GEM_COLOURS[gem]) if gem else "(none)"
        lines.append(f"row {row + 1}   " + "".join(cells) + _pad(shown, 8) + lead)
    lines.append(render_prices(view))
    return [line.rstrip() for line in lines]


def render_prices(view: dict[str, Any]) -> str:
    prices = view["prices"] or {c: t.PRICE_START for c in t.COLOURS}
    track = "  ".join(f"{coloured(c, GEM_COLOURS[c])} {prices.get(c, t.PRICE_START)}" for c in t.COLOURS)
    return f"Prices ({t.PRICE_LOW}-{t.PRICE_HIGH}): {track}"


def _gem_counts(gems: dict[str, int], width: int = 0) -> str:
    """Each colour's letter and count (``b3 g12 ...``); in a table's column, each count
    padded to ``width`` so that the colours stay under their letters."""
    return " ".join(
        f"{coloured(GEM_LETTERS[g], GEM_COLOURS[g])}{gems.get(g, 0):<{width}}" for g in (*t.COLOURS, t.BLACK)
    )


def render_players(view: dict[str, Any]) -> list[str]:
    """A row per player: letter, name, host/turn marks, screen, front, gems, points, cards."""
    marks = letters(view)
    lines = [f"  {'Who':<21} {'screen':>6} {'front':<10} {'gems':<19} {'pts':>4} cards"]
    for p in view["players"]:
        name = p["name"] + (f" ({p['bot']})" if p["bot"] else "") + (" (you)" if p["id"] == view["viewer"] else "")
        if p["id"] == view["host"]:
            name += " *"
        marker = ">" if p["id"] == view["turn"] or any(a["player"] == p["id"] for a in view["awaiting"][:1]) else " "
        # "bid": their bid is in, still face down (only while a game is played).
        has_bid = p["bid"] and view["phase"] == PLAYING
        front = " ".join(map(str, p["front"])) if p["front"] is not None else ("bid" if has_bid else "-")
        if p["neutral"]:
            front = "-"
        letter = coloured(marks[p["id"]], _colour_of(view, p["id"]))
        lines.append(
            f"{marker}{letter} {name[:20]:<20} {p['screen']:>6} {front[:10]:<10} {_gem_counts(p['gems'], 2)} "
            f"{p['points']:>4} {p['cards']:>3}"
        )
    return lines


def render_board(view: dict[str, Any], room_name: str, names: Names, seconds: int | None) -> str:
    """The whole board for ``look`` and ``board``: the city's quadrants (each space's
    brokers, ``A5`` face up, ``B?'`` face down, ``'`` marking a face-down one you know),
    the market, prices, the players; at most 80 columns."""
    lines = [f"Ys at {room_name}"[:WIDTH]]
    if view["phase"] == PLAYING:
        order = ", ".join(names.get(p, "?")[:12] for p in view["order"])
        stage = STAGE_WORDS.get(view["stage"], view["stage"])
        lines.extend(wrap_lines(f"Round {view['round']} of {t.ROUNDS}, {stage}. Turn order: {order}.", WIDTH))
    elif view["phase"] == OVER:
        # The result is a sentence of its own ("Cy won Ys with 99 points.", "The game was abandoned: ...").
        who = "The host starts"
        if view["host"] == NOBODY:
            who = "The next person to take a seat hosts the table and starts"
        lines.extend(wrap_lines(f"Game over. {view['result']} {who} another with: start", WIDTH))
    else:
        lines.append("Waiting for the host to start a game (start).")
        seated = ", ".join(name for player, name in names.items() if player != t.NEUTRAL)
        lines.extend(wrap_lines(f"Seated: {seated or 'nobody'}.", WIDTH))
    if view["phase"] != "waiting" and view["players"]:
        marks = letters(view)
        half = 38
        blocks = [_quadrant_block(view, q, marks, half) for q in range(_quadrants(view))]
        for i in range(0, len(blocks), 2):
            pair = blocks[i : i + 2]
            lines.extend(_side_by_side(pair[0], pair[1] if len(pair) > 1 else [], half))
        lines.extend(market_lines(view))
        lines.extend(render_players(view))
        lines.extend(_legend([f"{marks[p['id']]} {p['name'][:10]}" for p in view["players"]]))
    else:
        for p in view["players"]:
            lines.append(f"  {p['name']}" + (f" ({p['bot']})" if p["bot"] else ""))
    line = waiting_line(view, names, seconds)
    if line:
        lines.extend(wrap_lines(line, WIDTH))
    return whole(_fit(line) for line in lines)


def _legend(letters: list[str]) -> list[str]:
    """The board's key: how a broker reads, and each player's letter, a line broken only
    between players."""
    lines = ["A5 face up, B?' face down, =A9 leads; letters:"]
    for i, letter in enumerate(letters):
        piece = letter + ("," if i < len(letters) - 1 else "")
        if len(lines[-1]) + 1 + len(piece) > WIDTH:
            lines.append(" ")
        lines[-1] += " " + piece
    return lines


def whole(lines: Iterable[str]) -> str:
    """``lines`` as one text whose lines the connection sends as they are (they fit in 80
    columns already; colour markup would make them look longer to the wrapping)."""
    return "\n".join(WHOLE_LINE + line for line in lines)


def _fit(line: str) -> str:
    """A line cut to 80 visible columns (a name may be long); colour markup kept whole."""
    if _visible_len(line) <= WIDTH:
        return line
    return _plain(line)[:WIDTH]


def _quadrants(view: dict[str, Any]) -> int:
    return len([card for card in view["laid"] if card >= 0]) or t.QUADRANTS


def render_screen(view: dict[str, Any]) -> str:
    """The viewer's own screen: brokers behind it and in front, gems, held cards, favour."""
    you = view["you"]
    if you is None:
        return "You are watching, so you have no screen."
    me = next((p for p in view["players"] if p["id"] == view["viewer"]), None)
    if me is None:
        return "No game is being played here: you have no brokers yet."
    cards = ", ".join(f"{card} (won in round {won})" for card, won in you["cards"]) or "none"
    lines = [
        f"Behind your screen: {' '.join(map(str, you['screen'])) or 'nothing'}.",
        f"In front of it: {' '.join(map(str, you['front'])) or 'nothing'}.",
        f"Your gems: {_gem_counts(me['gems'])}. Points: {me['points']}.",
        *wrap_lines(f"Your action cards: {cards}.", WIDTH),
    ]
    if you["favour"]:
        lines.append(f"Given to the King's favour: {' '.join(map(str, you['favour']))}.")
    if any(p["neutral"] for p in view["players"]):
        neutral = " ".join(map(str, reversed(you.get("neutral") or []))) or "none"
        lines.append(f"Neutral brokers you may still place this round: {neutral}.")
    return whole(lines)


# -- help -----------------------------------------------------------------------------------


#: What each action card does, for players (``help <card>``, ``help ys cards``, the
#: browser's tooltips); when it is played comes from its timing window.
CARD_HELP: dict[str, str] = {
    t.BLUE_CARD: "Choose a coloured gem, and take it.",
    "prince": "4 points.",
    "king": "5 points.",
    "alchemist": "Give one of your coloured gems for one of another colour: choose <colour> <colour> "
    "(choose red blue: a red gem for a blue one).",
    "banker": "Move one colour's price up 1 and another's down 1: choose <up colour> <down colour>.",
    "captain": "Swap the gem cards of two city quadrants, with their gems: choose <quadrant> <quadrant>.",
    "bishop": "Every broker you place this round goes face down.",
    "spy": "During placement, look at up to 3 of your opponents' face-down brokers, one at a time, whenever "
    "you like: play spy <player> <space> shows the first placed there, play spy <player> favour one on the "
    "King's favour space. Only you see the numbers.",
    "herald": "Move one of your brokers to another space: choose <number> <space> <space>. From the city to "
    "the market it scores 1 point; within the market, none. The market space must be free, its row holding "
    "a gem.",
    "conjurer": "This round, before placing a pair, you may place a broker from in front of your screen, "
    "putting one from behind the screen there instead: play conjurer <front> <behind>, then place the "
    "pair with <front> in it. Up to twice a pair.",
    "intriguer": "You order every tie in the city that decides a prize, the neutral player's too: asked, "
    "choose the tied players' names, best first.",
    "jeweller": "Take 2 coloured gems: choose <colour> <colour>.",
    "magician": "Swap the places of two of your brokers, one of them may be on the King's favour space: "
    "choose <broker> <broker>. Each keeps its face; one from the favour space goes on the board face down.",
    "merchant": "This round, each commercial ring's winner scores 5 points instead of 3.",
    "mercenary": "One of your placed brokers counts 5 wherever it is counted this round: choose <number> <space>.",
    "queen": "Lock one city space: no broker goes there, yours included, until resolution: choose <space>.",
}
#: When a card of each timing window is played, for its help.
WHEN_PLAYED = {
    t.IMMEDIATE: "taken at once, when won",
    t.START_OF_PLACEMENT: "played at the start of placement",
    t.AFTER_PAIR: "played after you place a pair",
    t.START_OF_RESOLUTION: "played at the start of resolution",
    t.END_OF_ROUND: "played at the end of the round",
}


def card_help(card: str) -> str:
    """One action card: its name, edge and how many there are, when it is played, what it does."""
    count = t.QUADRANTS if card == t.BLUE_CARD else t.YELLOW_COUNTS[card]
    edge = "blue-edged" if card == t.BLUE_CARD else "yellow-edged"
    when = WHEN_PLAYED[t.window_of(card)]
    later = "" if t.window_of(card) == t.IMMEDIATE else " (from the round after you win it; at most 2 cards a round)"
    return f"{card.capitalize()} ({edge}, {count} in the deck): {when}{later}. {CARD_HELP[card]}"


def cards_help() -> str:
    """Every action card, for ``help ys cards``: how they are won and played, then each."""
    cards = [t.BLUE_CARD, *sorted(t.YELLOW_CARDS)]
    return "\n\n".join(
        [
            "Ys action cards: 24, 4 blue-edged and 20 yellow-edged. Each corner of the city holds a stack; "
            "each round its top card is turned up, the blue-edged one last (round 4), and the winner of the "
            "quadrant's palace space takes it. A card taken at once counts when won; the others are held "
            "behind your screen and played from the next round on (play <card>), at most 2 a round, each at "
            'its time. "help <card>" tells one, e.g. help alchemist.',
            *(card_help(card) for card in cards),
        ]
    )


def help_text() -> str:
    """The rules of Ys for ``help ys``, with every choice this table plays by: written as
    a docstring is (paragraphs apart), filled to the reader's window when sent."""
    return "\n".join(
        [
            "Ys: hidden brokers bid for gems in a city and its market.",
            "",
            (
                "4 rounds. Each round: bid two brokers for the turn order (bid <a> <b>); from the"
                " highest bid down, each then chooses an order card (order <card>; 1 places first"
                " and wins ties, a tie in bids going to the lower card held before); then in"
                " turn order place a pair, one face up and one face down (place <value> <space>"
                " <value> <space>), until each has one broker left (2 players: after each pair"
                " one neutral broker, neutral <value> <space>). Then all are turned up: each city"
                " space goes to the highest sum (port: a black gem, commercial: 3 points, palace:"
                " its action card), each quadrant's gems to its top three, each market row's gem"
                " to its top broker; the price track moves by the market's colour columns, and the"
                " top market investor moves one price (choose <colour> up|down). Each broker on the"
                " market scores 1 point. At the end gems score by their colour's price."
            ),
            "",
            SPACE_GRAMMAR,
            "",
            "Choices:",
            "",
            docstring_section(t.__doc__ or "", "Choices"),
        ]
    )
