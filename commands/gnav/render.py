"""How a Gnav table and its events read as text, for one viewer at a time.

Every function here takes what the visibility policy already filtered (an event's data
as :func:`games.gnav.visibility.event_for` gave it to the viewer, or the viewer's
:class:`~games.gnav.visibility.SeatView`), never the raw event or the state, so nothing
rendered can show a card the viewer may not see. Pure text, no sessions.

- ``render_event(data, kind, viewer, names, actor=0)``: the line ``viewer`` reads;
- ``render_view(view, room_name)``: the table for ``look``, within 80 columns;
- ``help_text()``: the rules, with English and Norwegian names and every reading.
"""

from __future__ import annotations

from typing import Any

from commands.table_lines import (
    Names,
    Renderer,
    capital,
    left_the_table,
    listed,
    seating_lines,
    subject,
    verb,
    who,
    whose,
)
from commands.text import docstring_section, truncate
from games.base import NOBODY, OVER, PLAYING
from games.gnav import cards, rules
from games.gnav.visibility import SeatView
from server.text import wrap_lines

WIDTH = 80
NAME_WIDTH = 24


def card_name(key: str) -> str:
    """``the Fool``, ``a VII``, ``an VIII`` (numbers read as words), ``the Cuckoo``."""
    rank = cards.BY_KEY[key]
    if rank.matador or key in (cards.FOOL, "owl", "pot"):
        return f"the {rank.english}"
    return f"an {rank.english}" if rank.english in ("VIII", "XI") else f"a {rank.english}"


def _list(ids: list[int], viewer: int, names: Names) -> str:
    return listed([who(account_id, viewer, names) for account_id in ids])


def _lives(count: int) -> str:
    return "1 life" if count == 1 else f"{count} lives"


def render_event(data: dict[str, Any], kind: str, viewer: int, names: Names, actor: int = NOBODY) -> str | None:
    """The line ``viewer`` reads about an event of ``kind``, from ``data`` as the
    visibility policy gave it to them (``KIND.event_for``); ``names`` maps seat ids to
    names (a leaver's too), ``actor`` is the event's actor. None: nothing to say."""
    render = RENDERERS.get(kind)
    return render(data, viewer, names, actor) if render else None


def _leave(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    """A seat given up or taken away; mid-match, a forfeit."""
    player = d["player"]
    if not d.get("forfeit"):
        return left_the_table(d, v, n, actor)
    forfeits = verb(player, v, "forfeit", "forfeits")
    if actor not in (player, NOBODY):
        removed = left_the_table(d, v, n, actor).removesuffix(".")
        return f"{removed}; {who(player, v, n)} {forfeits} the match."
    return f"{subject(player, v, n)} {verb(player, v, 'leave', 'leaves')} the match and {forfeits}."


def _start(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    return f"A match of Gnav begins: {_lives(d['lives'])} each."


def _deal(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    dealer, first = d["dealer"], d["turn"]
    parts = [
        f"Deal {d['deal']}: {who(dealer, v, n)} {verb(dealer, v, 'deal', 'deals')};"
        f" {who(first, v, n)} {verb(first, v, 'go', 'goes')} first."
    ]
    if "card" in d:
        parts.append(f"Your card: {cards.english(d['card'])}.")
    for holder in d["fools"]:
        parts.append(f"{subject(holder, v, n)} {verb(holder, v, 'knock and show', 'knocks and shows')} the Fool.")
    if d["resting"]:
        parts.append(f"Resting this deal: {_list(d['resting'], v, n)}.")
    # What to do comes last.
    if first == v:
        parts.append("It is your turn: keep or swap." + _timer(d))
    return " ".join(parts)


def _keep(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    player = d["player"]
    return f"{subject(player, v, n)} {verb(player, v, 'keep', 'keeps')} {verb(player, v, 'your', 'their')} card."


def _timeout(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    player = d["player"]
    keeps, their = verb(player, v, "keep", "keeps"), verb(player, v, "your", "their")
    return f"Time is up: {who(player, v, n)} {keeps} {their} card."


def _swap(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    asker, target = d["asker"], d["target"]
    if v == asker and "gave" in d:
        return f"You swap {card_name(d['gave'])} for {whose(target, v, n)} {cards.english(d['got'])}."
    if v == target and "gave" in d:
        return f"{subject(asker, v, n)} swaps with you: you give {card_name(d['got'])} and get {card_name(d['gave'])}."
    return f"{subject(asker, v, n)} {verb(asker, v, 'swap', 'swaps')} cards with {who(target, v, n)}."


def _pass(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    asker, holder, card = d["asker"], d["holder"], cards.english(d["card"])
    if holder == NOBODY:
        return (
            f"The stock's top card is the {card}: {who(asker, v, n)} {verb(asker, v, 'draw', 'draws')} again past it."
        )
    return (
        f"{subject(holder, v, n)} {verb(holder, v, 'show', 'shows')} the {card} and "
        f"{verb(holder, v, 'send', 'sends')} {whose(asker, v, n)} ask on past."
    )


def _refuse(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    asker, holder, card = d["asker"], d["holder"], cards.english(d["card"])
    if holder == NOBODY:
        source = f"The stock's top card is the {card}: it refuses"
    else:
        shows, refuses = verb(holder, v, "show", "shows"), verb(holder, v, "refuse", "refuses")
        source = f"{_asks(asker, holder, v, n)} {subject(holder, v, n)} {shows} the {card} and {refuses}"
    return f"{source}: {who(asker, v, n)} {verb(asker, v, 'lose', 'loses')} a life ({_lives(d['lives'])} left)."


def _undo(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    return f"The Cat undoes every swap of this deal ({len(d['swaps'])}), the last first."


def _cuckoo(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    if d["holder"] == NOBODY:
        return "The stock's top card is the Cuckoo: the deal ends at once."
    holder = d["holder"]
    shows = verb(holder, v, "show", "shows")
    return f"{_asks(d['asker'], holder, v, n)} {subject(holder, v, n)} {shows} the Cuckoo: the deal ends at once."


def _asks(asker: int, holder: int, v: int, n: Names) -> str:
    """``Bo asks you to swap.``: the ask a matador answers."""
    return f"{subject(asker, v, n)} {verb(asker, v, 'ask', 'asks')} {who(holder, v, n)} to swap."


def _stock(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    asker = d["asker"]
    if d.get("empty"):
        return f"The stock is drawn out: {who(asker, v, n)} {verb(asker, v, 'keep', 'keeps')} the card."
    if "got" in d:
        return f"You swap {card_name(d['gave'])} for the stock's {cards.english(d['got'])}."
    return f"{subject(asker, v, n)} swaps with the stock."


def _turn(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    if d["player"] == v:
        return "It is your turn: keep or swap." + _timer(d)
    return f"It is {n.get(d['player'], 'someone')}'s turn."


def _timer(d: dict[str, Any]) -> str:
    """How long a person has for the turn (as the turn's event says), for them."""
    seconds = d.get("seconds")
    return f" (In {seconds} seconds you keep your card.)" if seconds else ""


def _settle(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    shown = ", ".join(f"{who(holder, v, n)} {cards.english(card)}" for holder, card in d["cards"])
    if d["how"] == "too few":
        return f"Cards: {shown}. Too few are left to compare: nobody loses a life."
    why = {"lowest": "the lowest card", "one fool": "the Fool and the lowest of the others", "two fools": "two Fools"}
    losers = _list(d["losers"], v, n)
    verb = "lose" if len(d["losers"]) > 1 or d["losers"] == [v] else "loses"
    return f"Cards: {shown}. {capital(losers)} {verb} a life ({why[d['how']]})."


def _rest(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    return f"Resting next deal, having held the Fool: {_list(d['players'], v, n)}."


def _out(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    return f"{subject(d['player'], v, n)} {verb(d['player'], v, 'are', 'is')} out of the match."


def _win(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    return f"{subject(d['player'], v, n)} {verb(d['player'], v, 'win', 'wins')} the match!"


def _draw(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    if d["players"]:
        return f"The match is a draw: {_list(d['players'], v, n)} lost the last lives together."
    return "The match is a draw: nobody is left."


def _abandon(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    return "The match is abandoned: no person is left playing."


def _skip(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    return f"Too few could play deal {d['deal']}: it is skipped. Back from resting: {_list(d['resting'], v, n)}."


#: One renderer per event kind.
RENDERERS: dict[str, Renderer] = {
    **seating_lines("Gnav"),
    "leave": _leave,
    "start": _start,
    "deal": _deal,
    "keep": _keep,
    "timeout": _timeout,
    "swap": _swap,
    "pass": _pass,
    "refuse": _refuse,
    "undo": _undo,
    "cuckoo": _cuckoo,
    "stock": _stock,
    "turn": _turn,
    "settle": _settle,
    "rest": _rest,
    "out": _out,
    "win": _win,
    "draw": _draw,
    "abandon": _abandon,
    "skip": _skip,
}


def render_view(view: SeatView, room_name: str, seconds_left: int | None = None) -> str:
    """The table as ``look`` shows it to the view's seat (or a spectator): each seat with
    its lives, the dealer, whose turn it is, who rests and who is out; your card; the
    cards shown this deal; on your turn, the ``seconds_left`` before you keep by default
    (if known). At most 80 columns."""
    lines = [truncate(f"Gnav at {room_name}", WIDTH)]
    if view.phase == PLAYING:
        lines.append(f"Deal {view.deal}. Lives at the start: {view.lives_setting}.")
    elif view.phase == OVER:
        who = "The host starts"
        if view.host == NOBODY:
            who = "The next person to take a seat hosts the table and starts"
        lines.extend(wrap_lines(f"The match is over. {view.result} {who} a new one with: start", WIDTH))
    else:
        lines.append("Waiting for the host to start a match (start).")
    for player in view.players:
        label = player.name + (f" (bot, {player.bot})" if player.bot else "")
        notes = []
        if player.account_id == view.host:
            notes.append("host")
        if view.phase == PLAYING:
            if player.account_id == view.dealer:
                notes.append("dealer")
            if player.left:
                notes.append("left")
            elif player.out:
                notes.append("out")
            elif player.resting:
                notes.append("resting")
        marker = ">" if view.phase == PLAYING and player.account_id == view.turn else " "
        you = " (you)" if player.account_id == view.viewer else ""
        # Lives are shown once a match has been played; one who sat down after it has none yet.
        lives = _lives(player.lives) if view.phase != "waiting" and (player.lives or player.out) else ""
        row = f"{marker} {truncate(label + you, NAME_WIDTH):<{NAME_WIDTH}} {lives:<8} {', '.join(notes)}"
        lines.append(row.rstrip())
    # Those out of the match (a player who left mid-deal) no longer take a turn.
    gone = {player.account_id for player in view.players if player.out}
    playing = [holder for holder in view.order if holder not in gone]
    if view.phase == PLAYING and playing:
        order = ", ".join(truncate(_name(view, holder), 16) for holder in playing)
        lines.append(truncate(f"Order of play: {order}", WIDTH))
    if view.card is not None:
        rank = cards.BY_KEY[view.card]
        both = rank.english if rank.english == rank.norwegian else f"{rank.english} ({rank.norwegian})"
        lines.append(f"Your card: {both}.")
    shown = [
        f"{'the stock' if holder == NOBODY else _name(view, holder)}: {cards.english(card)} ({WHY[why]})"
        for holder, card, why in view.revealed
    ]
    if shown and view.phase == PLAYING:
        lines.extend(wrap_lines("Shown this deal: " + "; ".join(shown) + ".", WIDTH))
    known = [f"{_name(view, holder)} {cards.english(card)}" for holder, card in view.known if holder != view.viewer]
    if known and view.phase == PLAYING and view.turn != NOBODY:
        lines.extend(wrap_lines("Where you know the cards are now: " + ", ".join(known) + ".", WIDTH))
    if view.phase == PLAYING and view.turn == view.viewer:
        # Worded apart from the turn's own line ("(In 60 seconds ...)"): a client reading
        # the news for the turn (bench/gnavroom.py) tells the two apart.
        left = f" ({seconds_left} seconds left before you keep your card.)" if seconds_left else ""
        lines.append("It is your turn: keep or swap." + left)
    elif view.phase == PLAYING and view.turn == NOBODY:
        lines.append("The deal is settled; the next one comes in a moment.")
    return "\n".join(lines)


#: Why a card was shown to everyone, as the look says it.
WHY = {"deal": "dealt", "pass": "passed", "refuse": "refused", "cuckoo": "asked"}


def _name(view: SeatView, account_id: int) -> str:
    if account_id == view.viewer:
        return "you"
    player = view.player(account_id)
    return player.name if player else "someone"


def help_text() -> str:
    """The rules of Gnav for ``help``, with each card's English and Norwegian names and
    every reading this table plays by: written as a docstring is (paragraphs apart, the
    matadors' answers indented, each whole), filled to the reader's window when sent."""
    ranks = ", ".join(
        rank.english if rank.english == rank.norwegian else f"{rank.english} ({rank.norwegian})" for rank in cards.RANKS
    )
    return "\n".join(
        [
            "Gnav (Kille): one hidden card each; keep it or swap it; avoid the lowest.",
            "",
            f"42 cards, two of each rank, lowest first: {ranks}. The top five are the matadors.",
            "",
            "Everyone starts with the same lives (setting lives, 3 unless the host sets it). Each deal, everyone"
            " alive and not resting gets one hidden card; a Fool dealt is shown to all. Play starts left of the"
            " dealer; the dealer acts last.",
            "",
            "On your turn: keep, or swap (ask) with the next player on your left. Numbers, 0, Pot, Owl and Fool"
            " must accept. Matadors answer instead:",
            "    Cuckoo: shown; the deal ends at once.",
            "    Dragoon: refuses; you lose a life; play goes on left of it.",
            "    Cat: refuses; you lose a life; every swap of the deal is undone.",
            "    Horse, House: you pass them and ask the next player.",
            "",
            "The dealer swaps with the top of the stock instead. Then all cards are shown: the holders of the lowest"
            " card lose a life. One Fool: its holder and the lowest of the others lose a life; two Fools: only their"
            " holders. The last player with lives wins.",
            "",
            f"At most {rules.MAX_SEATS} seats; computer players (addbot easy|normal|strong) fill any.",
            "",
            "Readings:",
            "",
            docstring_section(rules.__doc__ or "", "Readings"),
        ]
    )
