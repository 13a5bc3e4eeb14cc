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
- ``card_help(card)``, ``cards_help()``: the action cards (the rules are
  :data:`games.ys.tables.RULES_HELP`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from commands.table_lines import Names, Renderer, as_seen, listed, seating_lines
from games.base import NOBODY, OVER, PLAYING
from games.ys import tables as t
from i18n import N_, _, ngettext, shown
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
SPACE_GRAMMAR = N_(
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
        raise SpaceError(_("Use only letters, digits and spaces."))
    found = _TOKEN.findall(lowered)
    if any(token.isdigit() and len(token) > 3 for token in found):
        raise SpaceError(_("That number is far too big."))
    return found


def read_space(words: list[str]) -> list[Any]:
    """The space ``words`` (three tokens) name, 0-based as the rules keep it."""
    if len(words) != 3 or not words[1].isdigit():
        raise SpaceError(_(SPACE_GRAMMAR))
    where, number, name = words[0], int(words[1]) - 1, words[2]
    if where in ("c", "city"):
        ring = next((r for r, short in RING_SHORT.items() if name in (r, short)), None)
        if ring is None or not 0 <= number < t.QUADRANTS:
            raise SpaceError(_(SPACE_GRAMMAR))
        return ["city", number, ring]
    if where in ("m", "market"):
        colour = next((c for c, short in COLOUR_SHORT.items() if name in (c, short)), None)
        if colour is None or not 0 <= number < t.MARKET_ROWS:
            raise SpaceError(_(SPACE_GRAMMAR))
        return ["market", number, colour]
    raise SpaceError(_(SPACE_GRAMMAR))


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
    for _unused in range(pairs):
        if len(found) < 4 or not found[0].isdigit():
            raise SpaceError(_("Give a broker's value, then its space."))
        result.append((int(found[0]), read_space(found[1:4])))
        found = found[4:]
    if found:
        raise SpaceError(_("Too many words."))
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
    """``you``, the player's name, or the neutral player (in a list of players)."""
    if account_id == t.NEUTRAL:
        return _("the neutral player")
    return _("you") if account_id == viewer else names.get(account_id, _("someone"))


def _told(person: int, viewer: int, names: Names, you: str, other: str, neutral: str, **params: Any) -> str:
    """:func:`~commands.table_lines.as_seen`, where ``person`` may be the neutral player
    too: then the sentence ``neutral`` (each marked with ``N_``)."""
    if person == t.NEUTRAL:
        return _(neutral).format(**params)
    return as_seen(person, viewer, names, you, other, **params)


def _gems(gems: list[str]) -> str:
    return " ".join(gems) if gems else _("none")


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
    if d.get("neutral"):
        return _("A game of Ys begins with the neutral player. Order cards: {order}.").format(order=order)
    return _("A game of Ys begins. Order cards: {order}.").format(order=order)


def _round(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    counts = d.get("market_gems") or [1] * len(d["market"])
    rows = ", ".join(_row_gems(gem or None, count) for gem, count in zip(d["market"], counts, strict=False))
    # The palace cards of the quadrants in play (laid -1: a quadrant out of play).
    cards = ", ".join(card or "-" for card, laid in zip(d["cards"], d["laid"], strict=False) if laid >= 0)
    line = _("Round {round}: gem cards are laid. Market rows: {rows}. Palace cards: {cards}.")
    return line.format(round=d["round"], rows=rows, cards=cards)


def _row_gems(gem: str | None, count: int) -> str:
    """A market row's gems, for a line: ``red``, ``red x2`` (the big gem's two), ``-``."""
    return "-" if gem is None else gem + (f" x{count}" if count > 1 else "")


def _bid(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    if "brokers" in d:
        line = _("You bid {first} and {second} (hidden until everyone has bid).")
        return line.format(first=d["brokers"][0], second=d["brokers"][1])
    return as_seen(d["player"], v, n, N_("You bid."), N_("{name} bids."))


def _bids(d: dict[str, Any], v: int, n: Names) -> str:
    return ", ".join(f"{_who(p, v, n)} {a}+{b}={total}" for p, (a, b), total in d["bids"])


def _bids_shown(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    choosers = listed([_who(p, v, n) for p in d["choosers"]])
    line = _("Bids: {bids}. Order cards are chosen from the highest bid down: {choosers}.")
    return line.format(bids=_bids(d, v, n), choosers=choosers)


def _order_card(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    you, other = N_("You take order card {card}."), N_("{name} takes order card {card}.")
    return as_seen(d["player"], v, n, you, other, card=d["card"])


def _order(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    order = listed([_who(p, v, n) for p in d["order"]])
    if "bids" in d:  # stored by 0.2 games, where the bids set the order
        return _("Bids: {bids}. Turn order: {order}.").format(bids=_bids(d, v, n), order=order)
    player, card = d["last"]
    you = N_("You take order card {card}, the one left. Turn order this round: {order}.")
    other = N_("{name} takes order card {card}, the one left. Turn order this round: {order}.")
    return as_seen(player, v, n, you, other, card=card, order=order)


def _place(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    up, down, player = d["up"], d["down"], d["player"]
    spaces = {"up_space": space_label(up["space"]), "down_space": space_label(down["space"])}
    # Under the Bishop both go face down: the "up" one has no value to show.
    if player == v and "down_value" in d:
        if "value" in up:
            line = _("You place a {up} face up on {up_space} and your {down} face down on {down_space}.")
        else:
            line = _("You place a broker face down (Bishop) on {up_space} and your {down} face down on {down_space}.")
        return line.format(up=up.get("value"), down=d["down_value"], **spaces)
    if "value" in up:
        you = N_("You place a {up} face up on {up_space} and a broker face down on {down_space}.")
        other = N_("{name} places a {up} face up on {up_space} and a broker face down on {down_space}.")
        return as_seen(player, v, n, you, other, up=up["value"], **spaces)
    you = N_("You place a broker face down (Bishop) on {up_space} and a broker face down on {down_space}.")
    other = N_("{name} places a broker face down (Bishop) on {up_space} and a broker face down on {down_space}.")
    return as_seen(player, v, n, you, other, **spaces)


def _neutral(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    space = space_label(d["space"])
    if "value" in d:
        you = N_("You place the neutral player's {value} face down on {space}.")
        other = N_("{name} places the neutral player's {value} face down on {space}.")
        return as_seen(d["player"], v, n, you, other, value=d["value"], space=space)
    you = N_("You place a neutral broker face down on {space}.")
    other = N_("{name} places a neutral broker face down on {space}.")
    return as_seen(d["player"], v, n, you, other, space=space)


def _turn(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    return as_seen(d["player"], v, n, N_("You place next."), N_("{name} places next."))


def _resolve(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    fronts = "; ".join(f"{_who(p, v, n)} {' '.join(map(str, front))}" for p, front in d["fronts"])
    line = _("Round {round} is resolved: every broker is turned up. In front of the screens: {fronts}.")
    return line.format(round=d["round"], fronts=fronts)


#: What a city space's prize is called in a line, by the prize (an action card is named).
PRIZES = {"black": N_("a black gem")}


def _win(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    prize = d.get("prize", "")
    if prize == "points":
        # Events stored before the points were kept with them won the usual 3.
        points = d.get("points", t.COMMERCIAL_POINTS)
        got = ngettext("{n} point", "{n} points", points).format(n=points)
    elif prize in PRIZES:
        got = _(PRIZES[prize])
    else:
        # Translators: {card} is an action card's name as players type it (spy, treasure).
        got = _("the {card} card").format(card=prize)
    params = {"space": space_label(d["space"]), "ranking": _ranking(d["ranking"], v, n), "prize": got}
    if "gem" in d:
        # The neutral player takes a gem of the strongest colour instead of a card.
        line = _("The neutral player wins {space} ({ranking}): {prize}, and takes a {gem} gem instead.")
        return line.format(gem=coloured(d["gem"], GEM_COLOURS[d["gem"]]), **params)
    return _told(
        d["player"],
        v,
        n,
        N_("You win {space} ({ranking}): {prize}."),
        N_("{name} wins {space} ({ranking}): {prize}."),
        N_("The neutral player wins {space} ({ranking}): {prize}."),
        **params,
    )


def _quadrant(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    ranking, quadrant = d["ranking"], d["quadrant"] + 1
    if len(ranking) == 1:
        player, total = ranking[0]
        return _told(
            player,
            v,
            n,
            N_("Quadrant {quadrant}: You ({total}) take its gems."),
            N_("Quadrant {quadrant}: {name} ({total}) takes its gems."),
            N_("Quadrant {quadrant}: The neutral player ({total}) takes its gems."),
            quadrant=quadrant,
            total=total,
        )
    line = _("Quadrant {quadrant}: {ranking}; they take its gems in that order.")
    return line.format(quadrant=quadrant, ranking=_ranking(ranking, v, n))


def _take(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    return _told(
        d["player"],
        v,
        n,
        N_("You take {gems} from quadrant {quadrant}."),
        N_("{name} takes {gems} from quadrant {quadrant}."),
        N_("The neutral player takes {gems} from quadrant {quadrant}."),
        gems=_gems(d["gems"]),
        quadrant=d["quadrant"] + 1,
    )


#: What a player is asked to choose, after "choose" ("You choose ...", "Waiting for Ann
#: to choose ..."), by what the table asks.
ASKS = {
    "order": N_("an order card"),
    "gem": N_("a gem of any colour (treasure)"),
    "white": N_("a colour for a white gem"),
    "take": N_("gems from a quadrant"),
    "nudge": N_("a price to move (top market investor)"),
}


def _ask_words(ask: str) -> str:
    """What a player is asked to choose, after "choose" ("what the magician does")."""
    if ask in ASKS:
        return _(ASKS[ask])
    if ask in CARD_ANSWERS:
        # Translators: {card} is an action card's name as players type it (magician).
        return _("what the {card} does").format(card=ask)
    return _("something")


def _asked(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    you, other = N_("You choose {what}."), N_("{name} chooses {what}.")
    return as_seen(d["player"], v, n, you, other, what=_ask_words(d["ask"]))


def _chose(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    player = d["player"]
    if d["ask"] == "nudge":  # stored by 0.2 games, whose nudge was told twice
        return as_seen(player, v, n, N_("You move a price."), N_("{name} moves a price."))
    gem = _gems(d.get("gems", []))
    if d["ask"] == "white":
        you, other = N_("You take a {gem} gem for the white gem."), N_("{name} takes a {gem} gem for the white gem.")
    else:
        you, other = N_("You take a {gem} gem (treasure)."), N_("{name} takes a {gem} gem (treasure).")
    return as_seen(player, v, n, you, other, gem=gem)


def _row(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    count = d.get("count", 1)
    if count == 1:
        gems = _("the {gem} gem").format(gem=d["gem"])
    else:
        gems = _("the {n} {gem} gems").format(n=count, gem=d["gem"])
    return _told(
        d["player"],
        v,
        n,
        N_("You take {gems} of market row {row} ({ranking})."),
        N_("{name} takes {gems} of market row {row} ({ranking})."),
        N_("The neutral player takes {gems} of market row {row} ({ranking})."),
        gems=gems,
        row=d["row"] + 1,
        ranking=_ranking(d["ranking"], v, n),
    )


def _prices(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    moves = ", ".join(f"{colour} {move:+d}" for colour, move in d["moves"])
    now = ", ".join(f"{colour} {price}" for colour, price in d["prices"].items())
    return _("The prices move: {moves}. Now {prices}.").format(moves=moves, prices=now)


def _nudge(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    now = d["prices"][d["colour"]]
    up = d["move"] > 0
    if d.get("was") == now:  # (events stored before "was" was kept read as a move)
        if up:
            sentences = (
                N_("You choose {colour} up, but it is at the top of the track already ({price})."),
                N_("{name} chooses {colour} up, but it is at the top of the track already ({price})."),
                N_("The neutral player chooses {colour} up, but it is at the top of the track already ({price})."),
            )
        else:
            sentences = (
                N_("You choose {colour} down, but it is at the bottom of the track already ({price})."),
                N_("{name} chooses {colour} down, but it is at the bottom of the track already ({price})."),
                N_("The neutral player chooses {colour} down, but it is at the bottom of the track already ({price})."),
            )
    elif up:
        sentences = (
            N_("You move {colour} up: it is at {price}."),
            N_("{name} moves {colour} up: it is at {price}."),
            N_("The neutral player moves {colour} up: it is at {price}."),
        )
    else:
        sentences = (
            N_("You move {colour} down: it is at {price}."),
            N_("{name} moves {colour} down: it is at {price}."),
            N_("The neutral player moves {colour} down: it is at {price}."),
        )
    return _told(d["player"], v, n, *sentences, colour=d["colour"], price=now)


def _endround(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    return _("Round {round} ends.").format(round=d["round"])


def _favour(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    if "value" in d:
        line = _("You give the King's favour your {value} and take a {n} from the supply.")
        return line.format(value=d["value"], n=t.FAVOUR_BROKER)
    you = N_("You give the King's favour a broker and take a {n}.")
    other = N_("{name} gives the King's favour a broker and takes a {n}.")
    return as_seen(d["player"], v, n, you, other, n=t.FAVOUR_BROKER)


#: When a played card takes effect, by its timing window ("it takes effect ...").
WINDOW_WORDS = {
    t.IMMEDIATE: N_("at once"),
    t.START_OF_PLACEMENT: N_("at the start of placement"),
    t.AFTER_PAIR: N_("after their pair"),
    t.START_OF_RESOLUTION: N_("at the start of resolution"),
    t.END_OF_ROUND: N_("at the end of the round"),
}


def _play(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    player = d["player"]
    if d["window"] == t.AFTER_PAIR and player == v:
        when = _("after your pair")
    elif d["window"] in WINDOW_WORDS:
        when = _(WINDOW_WORDS[d["window"]])
    else:
        when = _("in its window")
    # Translators: {card} is an action card's name as players type it; {when}, when it takes effect.
    you, other = (
        N_("You play the {card}: it takes effect {when}."),
        N_("{name} plays the {card}: it takes effect {when}."),
    )
    return as_seen(player, v, n, you, other, card=d["card"], when=when)


def _effect(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    player = d["player"]
    if player == v:
        return _("Your {card} takes effect.").format(card=d["card"])
    return _("{name}'s {card} takes effect.").format(name=n.get(player, _("Someone")), card=d["card"])


def _card(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    """A card's effect as its player chose it (what only they may know is only theirs)."""
    player, card = d["player"], d["card"]

    def seen(you: str, other: str, **params: Any) -> str:
        return as_seen(player, v, n, you, other, **params)

    if d.get("passed"):
        return seen(N_("You give up the {card}'s effect."), N_("{name} gives up the {card}'s effect."), card=card)
    if card == "spy":
        target = d["target"]
        if target == v:
            whose = _("your")
        elif target == t.NEUTRAL:
            whose = _("the neutral player's")
        else:
            whose = _("{name}'s").format(name=n.get(target, _("someone")))
        # A look at the King's favour space is stored as the space ["favour"].
        if d["space"] == ["favour"]:
            where = _("on the King's favour space")
        else:
            where = _("on {space}").format(space=space_label(d["space"]))
        if "value" in d:
            return seen(
                # Translators: {whose} is "your", "Ann's" or "the neutral player's"; {where}, "on city 1 port".
                N_("You look at one of {whose} face-down brokers {where} (Spy): it is a {value}."),
                N_("{name} looks at one of {whose} face-down brokers {where} (Spy): it is a {value}."),
                whose=whose,
                where=where,
                value=d["value"],
            )
        return seen(
            N_("You look at one of {whose} face-down brokers {where} (Spy)."),
            N_("{name} looks at one of {whose} face-down brokers {where} (Spy)."),
            whose=whose,
            where=where,
        )
    if card == "conjurer":
        return seen(
            N_("You take a {front} from in front of the screen, a {behind} going there (Conjurer)."),
            N_("{name} takes a {front} from in front of the screen, a {behind} going there (Conjurer)."),
            front=d["front"],
            behind=d["behind"],
        )
    if card == "alchemist":
        return seen(
            N_("You change a {gave} gem for a {took} one (Alchemist)."),
            N_("{name} changes a {gave} gem for a {took} one (Alchemist)."),
            gave=d["gave"],
            took=d["took"],
        )
    if card == "banker":
        return seen(
            N_("You move {up} up and {down} down (Banker)."),
            N_("{name} moves {up} up and {down} down (Banker)."),
            up=d["up"],
            down=d["down"],
        )
    if card == "captain":
        first, second = (q + 1 for q in d["quadrants"])
        return seen(
            N_("You swap the gem cards of quadrants {first} and {second} (Captain)."),
            N_("{name} swaps the gem cards of quadrants {first} and {second} (Captain)."),
            first=first,
            second=second,
        )
    if card == "herald":
        spaces = {"value": d["value"], "origin": space_label(d["origin"]), "to": space_label(d["to"])}
        if d.get("scored"):
            return seen(
                N_("You move a {value} from {origin} to {to} and score a point (Herald)."),
                N_("{name} moves a {value} from {origin} to {to} and scores a point (Herald)."),
                **spaces,
            )
        return seen(
            N_("You move a {value} from {origin} to {to} (Herald)."),
            N_("{name} moves a {value} from {origin} to {to} (Herald)."),
            **spaces,
        )
    if card == "jeweller":
        return seen(
            N_("You take {gems} gems (Jeweller)."), N_("{name} takes {gems} gems (Jeweller)."), gems=_gems(d["gems"])
        )
    if card == "magician":
        where = listed([_("the King's favour space") if s == "favour" else space_label(s) for s in d["spaces"]])
        if "values" in d:
            return seen(
                N_("You swap two brokers ({values}) on {where} (Magician)."),
                N_("{name} swaps two brokers ({values}) on {where} (Magician)."),
                values=listed([str(value) for value in d["values"]]),
                where=where,
            )
        return seen(
            N_("You swap two brokers on {where} (Magician)."),
            N_("{name} swaps two brokers on {where} (Magician)."),
            where=where,
        )
    if card == "mercenary":
        return seen(
            N_("You make a broker on {space} count {worth} (Mercenary)."),
            N_("{name} makes a broker on {space} count {worth} (Mercenary)."),
            space=space_label(d["space"]),
            worth=d["worth"],
        )
    if card == "queen":
        return seen(
            N_("You lock {space} until the resolution (Queen)."),
            N_("{name} locks {space} until the resolution (Queen)."),
            space=space_label(d["space"]),
        )
    if card == "intriguer":
        return seen(
            N_("You order a tie: {order} (Intriguer)."),
            N_("{name} orders a tie: {order} (Intriguer)."),
            order=", ".join(_who(p, v, n) for p in d["order"]),
        )
    return seen(N_("You use the {card}."), N_("{name} uses the {card}."), card=card)


def _timeout(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    you, other = (
        N_("Time is up for you: a move is made for you."),
        N_("Time is up for {name}: a move is made for them."),
    )
    return as_seen(d["player"], v, n, you, other)


def _score(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    lines = [_("The final score (points in play, black gems, colours, King's favour, total):")]
    for p, points, black, colour, kings, total in d["scores"]:
        lines.append(f"  {_who(p, v, n)[:20]:<20} {points:>3} {black:>3} {colour:>3} {kings:>3} = {total:>3}")
    # Kept as a message (i18n.stored): each reader is shown it in their language.
    lines.append(shown(d["result"]))
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
    "alchemist": N_("choose <your gem's colour> <the colour you want> (choose red blue)"),
    "banker": N_("choose <colour up> <colour down> (choose blue red)"),
    "captain": N_("choose <quadrant> <quadrant>: swap their gem cards (choose 1 3)"),
    "herald": N_("choose <value> <its space> <new space> (choose 5 c1o m2r)"),
    "jeweller": N_("choose <colour> <colour> (choose red red)"),
    "magician": N_("choose <value> <space> <value> <space> or <value> favour (choose 5 c1o 1 m2r)"),
    "mercenary": N_("choose <value> <space>: it counts 5 (choose 0 c4p)"),
    "queen": N_("choose <city space> to lock (choose c2p)"),
    "intriguer": N_("choose <the tied players, best first> (choose Bo Ann)"),
}

#: The Magician's answer for a player with no broker on the King's favour space.
MAGICIAN_ON_THE_BOARD = N_("choose <value> <space> <value> <space> (choose 5 c1o 1 m2r)")

PLACE_HINT = N_("place <value> <space> <value> <space> (first face up, second face down), e.g. place 5 c2p 3 m1b")


def _ask_hint(prompt: dict[str, Any]) -> str:
    """What the player the table asks must do: a sentence, with what to type."""
    ask = prompt["ask"]
    if ask == "take":
        count = prompt["count"]
        line = ngettext(
            "You must choose {n} of the gems on quadrant {quadrant} ({gems}): choose {answer}.",
            "You must choose {n} of the gems on quadrant {quadrant} ({gems}): choose {answer}.",
            count,
        )
        # Translators: what a player types for one gem (choose <gem> <gem>: choose red blue).
        answer = " ".join([_("<gem>")] * count)
        return line.format(n=count, quadrant=prompt["quadrant"] + 1, gems=" ".join(prompt["options"]), answer=answer)
    if ask == "nudge":
        return _("You must move one colour's price as top market investor: choose <colour> up|down.")
    if ask == "order":
        free = ", ".join(map(str, prompt["options"]))
        line = _(
            "You must choose your order card for this round: order <card> (free: {cards}; 1 places first, wins ties)."
        )
        return line.format(cards=free)
    if ask == "white":
        return _("You must choose a colour for your white gem: choose blue|green|yellow|red.")
    if ask == "gem":
        return _("You must choose a gem of any colour (treasure): choose blue|green|yellow|red.")
    if ask == "magician" and prompt.get("favour") is False:
        # No broker of theirs on the King's favour space (asks made before this was said offer it).
        return _("You must choose what the magician does: {answer}.").format(answer=_(MAGICIAN_ON_THE_BOARD))
    answer = _(CARD_ANSWERS[ask]) if ask in CARD_ANSWERS else _("choose <answer>, or choose pass")
    # Translators: {card} is an action card's name as players type it (magician).
    return _("You must choose what the {card} does: {answer}.").format(card=ask, answer=answer)


def prompt(
    after: dict[str, Any], viewer: int, names: Names, players: list[int], seconds: int | None, bots: set[int]
) -> str:
    """What the table waits for once an event made the changes ``after`` (the last value
    it set of ``awaiting``, ``turn``, ``turn_part`` and ``stage``), told to ``viewer``:
    what to type if it is them, else whom the table waits for. ``players`` are those in
    the game; ``seconds`` the turn time a person has; ``bots`` the computer players. ""
    if the event asks nothing."""

    def timed(player: int, line: str) -> str:
        """``line``, told to ``player``, and when a move is made for them."""
        if player in bots or not seconds:
            return line
        timer = ngettext("(In {n} second a move is made for you.)", "(In {n} seconds a move is made for you.)", seconds)
        return f"{line} {timer.format(n=seconds)}"

    def waiting(player: int, sentences: tuple[str, str, str], **params: Any) -> str:
        """Whom the table waits for: ``sentences`` are the sentence without the seconds
        left and the two forms of the one with them (each marked with ``N_``)."""
        name = names.get(player, _("someone"))
        if player in bots or not seconds:
            return _(sentences[0]).format(name=name, **params)
        return ngettext(sentences[1], sentences[2], seconds).format(name=name, n=seconds, **params)

    awaiting = after.get("awaiting")
    if awaiting:
        first = awaiting[0]
        if first["player"] == viewer:
            return timed(viewer, _ask_hint(first))
        choosing = (
            N_("Waiting for {name} to choose {what}."),
            N_("Waiting for {name} to choose {what}, {n} second."),
            N_("Waiting for {name} to choose {what}, {n} seconds."),
        )
        return waiting(first["player"], choosing, what=_ask_words(first["ask"]))
    turn, part = after.get("turn", NOBODY), after.get("turn_part", "")
    if part == "neutral" and turn != NOBODY:
        if turn == viewer:
            return timed(viewer, _("Now place one neutral broker face down: neutral <value> <space>."))
        placing = (
            N_("Waiting for {name} to place a neutral broker."),
            N_("Waiting for {name} to place a neutral broker, {n} second."),
            N_("Waiting for {name} to place a neutral broker, {n} seconds."),
        )
        return waiting(turn, placing)
    if turn != NOBODY and part == "pair":
        if turn == viewer:
            return timed(viewer, _("Your turn to place a pair: {hint}.").format(hint=_(PLACE_HINT)))
        placing = (
            N_("Waiting for {name} to place."),
            N_("Waiting for {name} to place, {n} second."),
            N_("Waiting for {name} to place, {n} seconds."),
        )
        return waiting(turn, placing)
    stage = after.get("stage")
    if stage in ("bid", "favour"):
        if viewer in players:
            if stage == "bid":
                return timed(viewer, _("Bid two brokers from behind your screen: bid <a> <b> (see screen)."))
            return timed(viewer, _("Give the King's favour one broker in front of your screen: favour <value>."))
        return _("Waiting for everyone to bid.") if stage == "bid" else _("Waiting for everyone's King's favour.")
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
            return _("You have bid; waiting for {names}.").format(names=listed(later))
    if after["stage"] == "favour" and me in players:
        given = next(p for p in view["players"] if p["id"] == me)["favour"]
        if given >= view["round"]:
            return _("You have given the King's favour a broker; waiting for the others.")
    return prompt(after, me, names, players, seconds, bots)


# -- the board ------------------------------------------------------------------------------


#: The stage of a round, as the board names it ("Round 2 of 4, bidding.").
STAGE_WORDS = {
    "bid": N_("bidding"),
    "place": N_("placing"),
    "resolve": N_("resolution"),
    "favour": N_("the King's favour"),
}


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


#: Each city ring's label on the board: what it holds (the palace: its action card, by
#: name), the ring named as players type it (place 5 c2p: palace, commercial, port).
RING_LABELS = {
    # Translators: a ring's label on the board; players type the ring's name (city 2 palace, c2p).
    "palace": N_("palace[{card}]"),
    # Translators: a ring's label on the board, 3 points for its winner.
    "commercial": N_("commerc.(3)"),
    # Translators: a ring's label on the board, a black gem for its winner.
    "port": N_("port(black)"),
}
#: The width of a city space's label on the board: "palace[intriguer]", the longest.
LABEL_WIDTH = len("palace[]") + max(len(card) for card in (*t.YELLOW_CARDS, t.BLUE_CARD))


def _quadrant_block(view: dict[str, Any], q: int, marks: dict[int, str], width: int) -> list[str]:
    corner = view["corners"][q] if q < len(view["corners"]) else {"up": None, "left": 0}
    card = corner["up"] or "-"
    lead = _lead(view, marks, lambda s: s[0] == "city" and s[1] == q)
    if lead:
        head = _("Quadrant {quadrant}  leads {lead}").format(quadrant=q + 1, lead=lead)
    else:
        head = _("Quadrant {quadrant}").format(quadrant=q + 1)
    gems = view["quadrant_gems"][q] if q < len(view["quadrant_gems"]) else []
    shown_gems = " ".join(coloured(g, GEM_COLOURS[g]) for g in gems) or "-"
    lines = [head, " " + _("gems: {gems}").format(gems=shown_gems)]
    for ring in reversed(t.RINGS):
        label = _(RING_LABELS[ring]).format(card=card)
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
    # Translators: the market's column heads ("Market", the colours, "gem", "lead"), 8 columns each.
    head = _pad(_("Market"), 8) + "".join(_pad(coloured(c, GEM_COLOURS[c]), 8) for c in t.COLOURS)
    lines = [head + _pad(_("gem"), 8) + _("lead")]
    for row in range(t.MARKET_ROWS):
        gem = view["market"][row] if row < len(view["market"]) else None
        cells = []
        for colour in t.COLOURS:
            entry = next((e for e in view["placed"] if e["space"] == ["market", row, colour]), None)
            cells.append(_pad(_broker(view, entry, marks) if entry else ".", 8))
        lead = _lead(view, marks, lambda s, row=row: s[0] == "market" and s[1] == row)  # type: ignore[misc]
        count = (view.get("market_gems") or [1] * t.MARKET_ROWS)[row]
        shown = coloured(_row_gems(gem, count), GEM_COLOURS[gem]) if gem else _("(none)")
        lines.append(_pad(_("row {row}").format(row=row + 1), 8) + "".join(cells) + _pad(shown, 8) + lead)
    lines.append(render_prices(view))
    return [line.rstrip() for line in lines]


def render_prices(view: dict[str, Any]) -> str:
    prices = view["prices"] or {c: t.PRICE_START for c in t.COLOURS}
    track = "  ".join(f"{coloured(c, GEM_COLOURS[c])} {prices.get(c, t.PRICE_START)}" for c in t.COLOURS)
    return _("Prices ({low}-{high}): {track}").format(low=t.PRICE_LOW, high=t.PRICE_HIGH, track=track)


def _gem_counts(gems: dict[str, int], width: int = 0) -> str:
    """Each colour's letter and count (``b3 g12 ...``); in a table's column, each count
    padded to ``width`` so that the colours stay under their letters."""
    return " ".join(
        f"{coloured(GEM_LETTERS[g], GEM_COLOURS[g])}{gems.get(g, 0):<{width}}" for g in (*t.COLOURS, t.BLACK)
    )


def _with_level(name: str, level: str) -> str:
    """A player's name, and a computer player's level (``Ysolde (easy)``)."""
    return _("{name} ({level})").format(name=name, level=_(level)) if level else name


def render_players(view: dict[str, Any]) -> list[str]:
    """A row per player: letter, name, host/turn marks, screen, front, gems, points, cards."""
    marks = letters(view)
    # Translators: the column heads of the players' rows on the Ys board (each column's width is fixed).
    heads = (_("Who"), _("screen"), _("front"), _("gems"), _("pts"), _("cards"))
    lines = [f"  {heads[0]:<21} {heads[1]:>6} {heads[2]:<10} {heads[3]:<19} {heads[4]:>4} {heads[5]}"]
    for p in view["players"]:
        name = _with_level(p["name"], p["bot"])
        if p["id"] == view["viewer"]:
            name = _("{name} (you)").format(name=name)
        if p["id"] == view["host"]:
            name += " *"
        marker = ">" if p["id"] == view["turn"] or any(a["player"] == p["id"] for a in view["awaiting"][:1]) else " "
        # "bid": their bid is in, still face down (only while a game is played).
        has_bid = p["bid"] and view["phase"] == PLAYING
        # Translators: in the "front" column of a player's row: their bid is in, face down.
        front = " ".join(map(str, p["front"])) if p["front"] is not None else (_("bid") if has_bid else "-")
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
    lines = [_("Ys at {room}").format(room=room_name)[:WIDTH]]
    if view["phase"] == PLAYING:
        order = ", ".join(names.get(p, "?")[:12] for p in view["order"])
        stage = _(STAGE_WORDS[view["stage"]]) if view["stage"] in STAGE_WORDS else view["stage"]
        line = _("Round {round} of {rounds}, {stage}. Turn order: {order}.")
        lines.extend(wrap_lines(line.format(round=view["round"], rounds=t.ROUNDS, stage=stage, order=order), WIDTH))
    elif view["phase"] == OVER:
        # The result is a sentence of its own ("Cy won Ys with 99 points.", "The game was abandoned: ..."),
        # in the viewer's language already (the view's).
        if view["host"] == NOBODY:
            line = _(
                "Game over. {result} The next person to take a seat hosts the table and starts another with: start"
            )
        else:
            line = _("Game over. {result} The host starts another with: start")
        lines.extend(wrap_lines(line.format(result=shown(view["result"])), WIDTH))
    else:
        lines.append(_("Waiting for the host to start a game (start)."))
        seated = ", ".join(name for player, name in names.items() if player != t.NEUTRAL)
        lines.extend(wrap_lines(_("Seated: {names}.").format(names=seated or _("nobody")), WIDTH))
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
            lines.append("  " + _with_level(p["name"], p["bot"]))
    line = waiting_line(view, names, seconds)
    if line:
        lines.extend(wrap_lines(line, WIDTH))
    return whole(_fit(line) for line in lines)


def _legend(letters: list[str]) -> list[str]:
    """The board's key: how a broker reads, and each player's letter, a line broken only
    between players."""
    lines = [_("A5 face up, B?' face down, =A9 leads; letters:")]
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
        return _("You are watching, so you have no screen.")
    me = next((p for p in view["players"] if p["id"] == view["viewer"]), None)
    if me is None:
        return _("No game is being played here: you have no brokers yet.")
    won = _("{card} (won in round {round})")
    cards = ", ".join(won.format(card=card, round=round_won) for card, round_won in you["cards"]) or _("none")
    lines = [
        _("Behind your screen: {brokers}.").format(brokers=" ".join(map(str, you["screen"])) or _("nothing")),
        _("In front of it: {brokers}.").format(brokers=" ".join(map(str, you["front"])) or _("nothing")),
        _("Your gems: {gems}. Points: {points}.").format(gems=_gem_counts(me["gems"]), points=me["points"]),
        *wrap_lines(_("Your action cards: {cards}.").format(cards=cards), WIDTH),
    ]
    if you["favour"]:
        lines.append(_("Given to the King's favour: {brokers}.").format(brokers=" ".join(map(str, you["favour"]))))
    if any(p["neutral"] for p in view["players"]):
        neutral = " ".join(map(str, reversed(you.get("neutral") or []))) or _("none")
        lines.append(_("Neutral brokers you may still place this round: {brokers}.").format(brokers=neutral))
    return whole(lines)


# -- help -----------------------------------------------------------------------------------


#: What each action card does, for players (``help <card>``, ``help ys cards``, the
#: browser's tooltips); when it is played comes from its timing window.
CARD_HELP: dict[str, str] = {
    t.BLUE_CARD: N_("Choose a coloured gem, and take it."),
    "prince": N_("4 points."),
    "king": N_("5 points."),
    "alchemist": N_(
        "Give one of your coloured gems for one of another colour: choose <colour> <colour> "
        "(choose red blue: a red gem for a blue one)."
    ),
    "banker": N_("Move one colour's price up 1 and another's down 1: choose <up colour> <down colour>."),
    "captain": N_("Swap the gem cards of two city quadrants, with their gems: choose <quadrant> <quadrant>."),
    "bishop": N_("Every broker you place this round goes face down."),
    "spy": N_(
        "During placement, look at up to 3 of your opponents' face-down brokers, one at a time, whenever "
        "you like: play spy <player> <space> shows the first placed there, play spy <player> favour one on the "
        "King's favour space. Only you see the numbers."
    ),
    "herald": N_(
        "Move one of your brokers to another space: choose <number> <space> <space>. From the city to "
        "the market it scores 1 point; within the market, none. The market space must be free, its row holding "
        "a gem."
    ),
    "conjurer": N_(
        "This round, before placing a pair, you may place a broker from in front of your screen, "
        "putting one from behind the screen there instead: play conjurer <front> <behind>, then place the "
        "pair with <front> in it. Up to twice a pair."
    ),
    "intriguer": N_(
        "You order every tie in the city that decides a prize, the neutral player's too: asked, "
        "choose the tied players' names, best first."
    ),
    "jeweller": N_("Take 2 coloured gems: choose <colour> <colour>."),
    "magician": N_(
        "Swap the places of two of your brokers, one of them may be on the King's favour space: "
        "choose <broker> <broker>. Each keeps its face; one from the favour space goes on the board face down."
    ),
    "merchant": N_("This round, each commercial ring's winner scores 5 points instead of 3."),
    "mercenary": N_("One of your placed brokers counts 5 wherever it is counted this round: choose <number> <space>."),
    "queen": N_("Lock one city space: no broker goes there, yours included, until resolution: choose <space>."),
}
#: When a card of each timing window is played, for its help.
WHEN_PLAYED = {
    t.IMMEDIATE: N_("taken at once, when won"),
    t.START_OF_PLACEMENT: N_("played at the start of placement"),
    t.AFTER_PAIR: N_("played after you place a pair"),
    t.START_OF_RESOLUTION: N_("played at the start of resolution"),
    t.END_OF_ROUND: N_("played at the end of the round"),
}


def card_help(card: str) -> str:
    """One action card: its name, edge and how many there are, when it is played, what it does."""
    params = {
        "card": card.capitalize(),
        "n": t.QUADRANTS if card == t.BLUE_CARD else t.YELLOW_COUNTS[card],
        "when": _(WHEN_PLAYED[t.window_of(card)]),
        "does": _(CARD_HELP[card]),
    }
    if card == t.BLUE_CARD:
        # Translators: {card} is the card's name as players type it, capitalised; {when}, when it is played.
        line = _("{card} (blue-edged, {n} in the deck): {when}. {does}")
    elif t.window_of(card) == t.IMMEDIATE:
        line = _("{card} (yellow-edged, {n} in the deck): {when}. {does}")
    else:
        line = _(
            "{card} (yellow-edged, {n} in the deck): {when} (from the round after you win it; at most 2 cards a "
            "round). {does}"
        )
    return line.format(**params)


#: How action cards are won and played, before each card in ``help ys cards``.
CARDS_HELP = N_(
    "Ys action cards: 24, 4 blue-edged and 20 yellow-edged. Each corner of the city holds a stack; "
    "each round its top card is turned up, the blue-edged one last (round 4), and the winner of the "
    "quadrant's palace space takes it. A card taken at once counts when won; the others are held "
    "behind your screen and played from the next round on (play <card>), at most 2 a round, each at "
    'its time. "help <card>" tells one, e.g. help alchemist.'
)


def cards_help() -> str:
    """Every action card, for ``help ys cards``: how they are won and played, then each."""
    cards = [t.BLUE_CARD, *sorted(t.YELLOW_CARDS)]
    return "\n\n".join([_(CARDS_HELP), *(card_help(card) for card in cards)])
