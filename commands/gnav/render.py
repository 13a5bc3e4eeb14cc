"""How a Gnav table and its events read as text, for one viewer at a time.

Every function here takes what the visibility policy already filtered (an event's data
as :func:`games.gnav.visibility.event_for` gave it to the viewer, or the viewer's
:class:`~games.gnav.visibility.SeatView`), never the raw event or the state, so nothing
rendered can show a card the viewer may not see. Pure text, no sessions. Every line is
in the language of its reader (set around it by whoever draws it, see
:func:`commands.games.announce`): each sentence is written whole, one for the viewer
and one for anyone else where they differ.

- ``render_event(data, kind, viewer, names, actor=0)``: the line ``viewer`` reads;
- ``render_view(view, room_name)``: the table for ``look``, within 80 columns;
- ``help_text()``: the rules, with English and Norwegian names and every reading.
"""

from __future__ import annotations

from typing import Any

from commands.table_lines import Names, Renderer, as_seen, capital, left_the_table, listed, seating_lines
from commands.text import ljust, truncate
from games.base import NOBODY, OVER, PLAYING
from games.gnav import cards, rules
from games.gnav.rules import GnavTable
from games.gnav.visibility import SeatView
from i18n import N_, _, ngettext, shown
from server.text import WHOLE_LINE, reflowable, wrap_lines

WIDTH = 80
NAME_WIDTH = 24


def card_name(key: str) -> str:
    """``the Fool``, ``a VII``, ``an VIII`` (numbers read as words), ``the Cuckoo``."""
    rank = cards.BY_KEY[key]
    card = cards.shown_name(key)
    if rank.matador or key in (cards.FOOL, "owl", "pot"):
        # Translators: a card named in a sentence ("You swap the Fool for Bo's VII.").
        return _("the {card}").format(card=card)
    if rank.english in ("VIII", "XI"):
        # Translators: a number card named in a sentence, read as a word ("an VIII": an eight).
        return _("an {card}").format(card=card)
    # Translators: a number card named in a sentence ("a VII": a seven).
    return _("a {card}").format(card=card)


def _person(account_id: int, viewer: int, names: Names) -> str:
    """``you`` or the player's name, as one of a list of players."""
    if account_id == viewer:
        # Translators: the viewer as one of a list of players ("Resting this deal: you and Bo.").
        return _("you")
    return names.get(account_id, _("someone"))


def _list(ids: list[int], viewer: int, names: Names) -> str:
    return listed([_person(account_id, viewer, names) for account_id in ids])


def _name(account_id: int, names: Names) -> str:
    return names.get(account_id, _("someone"))


def _lives(count: int) -> str:
    return ngettext("{n} life", "{n} lives", count).format(n=count)


def render_event(data: dict[str, Any], kind: str, viewer: int, names: Names, actor: int = NOBODY) -> str | None:
    """The line ``viewer`` reads about an event of ``kind``, from ``data`` as the
    visibility policy gave it to them (``KIND.event_for``); ``names`` maps seat ids to
    names (a leaver's too), ``actor`` is the event's actor. None: nothing to say."""
    render = RENDERERS.get(kind)
    return render(data, viewer, names, actor) if render else None


def _joined(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    """A seat taken: the line every table reads, with the game's name in the reader's language."""
    return seating_lines(_(GnavTable.title))["join"](d, v, n, actor)


def _leave(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    """A seat given up or taken away; mid-match, a forfeit."""
    player = d["player"]
    if not d.get("forfeit"):
        return left_the_table(d, v, n, actor)
    if actor not in (player, NOBODY):
        if player == v:
            return _("{host} removes you from the table; you forfeit the match.").format(host=_name(actor, n))
        if actor == v:
            return _("You remove {player} from the table; {player} forfeits the match.").format(player=_name(player, n))
        return _("{host} removes {player} from the table; {player} forfeits the match.").format(
            host=_name(actor, n), player=_name(player, n)
        )
    return as_seen(player, v, n, N_("You leave the match and forfeit."), N_("{name} leaves the match and forfeits."))


def _start(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    lives = d["lives"]
    return ngettext("A match of Gnav begins: {n} life each.", "A match of Gnav begins: {n} lives each.", lives).format(
        n=lives
    )


def _deal(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    dealer, first = d["dealer"], d["turn"]
    if dealer == v:
        opening = _("Deal {deal}: you deal; {first} goes first.")
    elif first == v:
        opening = _("Deal {deal}: {dealer} deals; you go first.")
    else:
        opening = _("Deal {deal}: {dealer} deals; {first} goes first.")
    parts = [opening.format(deal=d["deal"], dealer=_name(dealer, n), first=_name(first, n))]
    if "card" in d:
        parts.append(_("Your card: {card}.").format(card=cards.shown_name(d["card"])))
    for holder in d["fools"]:
        parts.append(as_seen(holder, v, n, N_("You knock and show the Fool."), N_("{name} knocks and shows the Fool.")))
    if d["resting"]:
        parts.append(_("Resting this deal: {names}.").format(names=_list(d["resting"], v, n)))
    # What to do comes last.
    if first == v:
        parts.append(_your_turn(d))
    return " ".join(parts)


def _keep(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    return as_seen(d["player"], v, n, N_("You keep your card."), N_("{name} keeps their card."))


def _timeout(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    you, other = N_("Time is up: you keep your card."), N_("Time is up: {name} keeps their card.")
    return as_seen(d["player"], v, n, you, other)


def _swap(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    asker, target = d["asker"], d["target"]
    if v == asker and "gave" in d:
        swapped = _("You swap {gave} for {name}'s {got}.")
        return swapped.format(gave=card_name(d["gave"]), name=_name(target, n), got=cards.shown_name(d["got"]))
    if v == target and "gave" in d:
        swapped = _("{name} swaps with you: you give {given} and get {got}.")
        return swapped.format(name=_name(asker, n), given=card_name(d["got"]), got=card_name(d["gave"]))
    if v == asker:
        return _("You swap cards with {name}.").format(name=_name(target, n))
    if v == target:
        return _("{name} swaps cards with you.").format(name=_name(asker, n))
    return _("{asker} swaps cards with {target}.").format(asker=_name(asker, n), target=_name(target, n))


def _pass(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    asker, holder, card = d["asker"], d["holder"], cards.shown_name(d["card"])
    if holder == NOBODY:
        you = N_("The stock's top card is the {card}: you draw again past it.")
        other = N_("The stock's top card is the {card}: {name} draws again past it.")
        return as_seen(asker, v, n, you, other, card=card)
    if v == holder:
        passed = _("You show the {card} and send {asker}'s ask on past.")
    elif v == asker:
        passed = _("{holder} shows the {card} and sends your ask on past.")
    else:
        passed = _("{holder} shows the {card} and sends {asker}'s ask on past.")
    return passed.format(holder=_name(holder, n), card=card, asker=_name(asker, n))


def _refuse(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    asker, holder, card, lives = d["asker"], d["holder"], cards.shown_name(d["card"]), d["lives"]
    if holder == NOBODY:
        if v == asker:
            refused = ngettext(
                "The stock's top card is the {card}: it refuses: you lose a life ({n} life left).",
                "The stock's top card is the {card}: it refuses: you lose a life ({n} lives left).",
                lives,
            )
        else:
            refused = ngettext(
                "The stock's top card is the {card}: it refuses: {asker} loses a life ({n} life left).",
                "The stock's top card is the {card}: it refuses: {asker} loses a life ({n} lives left).",
                lives,
            )
        return refused.format(card=card, asker=_name(asker, n), n=lives)
    if v == holder:
        refused = ngettext(
            "You show the {card} and refuse: {asker} loses a life ({n} life left).",
            "You show the {card} and refuse: {asker} loses a life ({n} lives left).",
            lives,
        )
    elif v == asker:
        refused = ngettext(
            "{holder} shows the {card} and refuses: you lose a life ({n} life left).",
            "{holder} shows the {card} and refuses: you lose a life ({n} lives left).",
            lives,
        )
    else:
        refused = ngettext(
            "{holder} shows the {card} and refuses: {asker} loses a life ({n} life left).",
            "{holder} shows the {card} and refuses: {asker} loses a life ({n} lives left).",
            lives,
        )
    answer = refused.format(holder=_name(holder, n), card=card, asker=_name(asker, n), n=lives)
    return f"{_asks(asker, holder, v, n)} {answer}"


def _undo(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    return _("The Cat undoes every swap of this deal ({n}), the last first.").format(n=len(d["swaps"]))


def _cuckoo(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    holder = d["holder"]
    if holder == NOBODY:
        return _("The stock's top card is the Cuckoo: the deal ends at once.")
    you = N_("You show the Cuckoo: the deal ends at once.")
    other = N_("{name} shows the Cuckoo: the deal ends at once.")
    return f"{_asks(d['asker'], holder, v, n)} {as_seen(holder, v, n, you, other)}"


def _asks(asker: int, holder: int, v: int, n: Names) -> str:
    """``Bo asks you to swap.``: the ask a matador answers."""
    if v == asker:
        return _("You ask {holder} to swap.").format(holder=_name(holder, n))
    if v == holder:
        return _("{asker} asks you to swap.").format(asker=_name(asker, n))
    return _("{asker} asks {holder} to swap.").format(asker=_name(asker, n), holder=_name(holder, n))


def _stock(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    asker = d["asker"]
    if d.get("empty"):
        you = N_("The stock is drawn out: you keep the card.")
        other = N_("The stock is drawn out: {name} keeps the card.")
        return as_seen(asker, v, n, you, other)
    if "got" in d:
        swapped = _("You swap {gave} for the stock's {got}.")
        return swapped.format(gave=card_name(d["gave"]), got=cards.shown_name(d["got"]))
    return as_seen(asker, v, n, N_("You swap with the stock."), N_("{name} swaps with the stock."))


def _turn(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    if d["player"] == v:
        return _your_turn(d)
    return _("It is {name}'s turn.").format(name=_name(d["player"], n))


def _your_turn(d: dict[str, Any]) -> str:
    """Whose turn it is, to the player whose it is, with how long they have for it (as
    the turn's event says; read later, it says no time)."""
    seconds = d.get("seconds")
    if not seconds:
        return _("It is your turn: keep or swap.")
    turn = ngettext(
        "It is your turn: keep or swap. (In {n} second you keep your card.)",
        "It is your turn: keep or swap. (In {n} seconds you keep your card.)",
        seconds,
    )
    return turn.format(n=seconds)


TOO_FEW = N_("Too few are left to compare: nobody loses a life.")
#: Why the holders of the lowest card lose a life, as the settlement says it.
LOSING = {
    "lowest": N_("the lowest card"),
    "one fool": N_("the Fool and the lowest of the others"),
    "two fools": N_("two Fools"),
}


def _settle(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    every_card = ", ".join(f"{_person(holder, v, n)} {cards.shown_name(card)}" for holder, card in d["cards"])
    shown_cards = _("Cards: {cards}.").format(cards=every_card)
    if d["how"] == "too few":
        return f"{shown_cards} {_(TOO_FEW)}"
    why, losers = _(LOSING[d["how"]]), d["losers"]
    if losers == [v]:
        lost = _("You lose a life ({why}).").format(why=why)
    elif len(losers) == 1:
        lost = _("{name} loses a life ({why}).").format(name=_name(losers[0], n), why=why)
    else:
        # Translators: {names} is a list of players, which may hold "you" ("You and Bo lose a life").
        lost = _("{names} lose a life ({why}).").format(names=capital(_list(losers, v, n)), why=why)
    return f"{shown_cards} {lost}"


def _rest(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    return _("Resting next deal, having held the Fool: {names}.").format(names=_list(d["players"], v, n))


def _out(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    return as_seen(d["player"], v, n, N_("You are out of the match."), N_("{name} is out of the match."))


def _win(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    return as_seen(d["player"], v, n, N_("You win the match!"), N_("{name} wins the match!"))


def _draw(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    if d["players"]:
        return _("The match is a draw: {names} lost the last lives together.").format(names=_list(d["players"], v, n))
    return _("The match is a draw: nobody is left.")


def _abandon(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    return _("The match is abandoned: no person is left playing.")


def _skip(d: dict[str, Any], v: int, n: Names, actor: int) -> str:
    skipped = _("Too few could play deal {deal}: it is skipped. Back from resting: {names}.")
    return skipped.format(deal=d["deal"], names=_list(d["resting"], v, n))


#: One renderer per event kind.
RENDERERS: dict[str, Renderer] = {
    **seating_lines(GnavTable.title),
    "join": _joined,
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
    lines = [truncate(_("Gnav at {room}").format(room=room_name), WIDTH)]
    if view.phase == PLAYING:
        lines.append(_("Deal {deal}. Lives at the start: {lives}.").format(deal=view.deal, lives=view.lives_setting))
    elif view.phase == OVER:
        if view.host == NOBODY:
            again = _("The next person to take a seat hosts the table and starts a new one with: start")
        else:
            again = _("The host starts a new one with: start")
        over = _("The match is over.")
        lines.extend(wrap_lines(f"{over} {shown(view.result)} {again}", WIDTH))
    else:
        lines.append(_("Waiting for the host to start a match (start)."))
    for player in view.players:
        label = player.name
        if player.bot:
            label = _("{name} (bot, {level})").format(name=player.name, level=_(player.bot))
        notes = []
        if player.account_id == view.host:
            notes.append(_("host"))
        if view.phase == PLAYING:
            if player.account_id == view.dealer:
                notes.append(_("dealer"))
            if player.left:
                # Translators: a seat's note in the table: the player left the match (a forfeit).
                notes.append(_("left"))
            elif player.out:
                notes.append(_("out"))
            elif player.resting:
                notes.append(_("resting"))
        marker = ">" if view.phase == PLAYING and player.account_id == view.turn else " "
        if player.account_id == view.viewer:
            label = _("{name} (you)").format(name=label)
        # Lives are shown once a match has been played; one who sat down after it has none yet.
        lives = _lives(player.lives) if view.phase != "waiting" and (player.lives or player.out) else ""
        row = f"{marker} {truncate(label, NAME_WIDTH):<{NAME_WIDTH}} {ljust(lives, 8)} {', '.join(notes)}"
        lines.append(row.rstrip())
    # Those out of the match (a player who left mid-deal) no longer take a turn.
    gone = {player.account_id for player in view.players if player.out}
    playing = [holder for holder in view.order if holder not in gone]
    if view.phase == PLAYING and playing:
        order = ", ".join(truncate(_seen_name(view, holder), 16) for holder in playing)
        lines.append(truncate(_("Order of play: {names}").format(names=order), WIDTH))
    if view.card is not None:
        rank = cards.BY_KEY[view.card]
        card = cards.shown_name(view.card)
        both = card if rank.english == rank.norwegian else f"{card} ({rank.norwegian})"
        lines.append(_("Your card: {card}.").format(card=both))
    revealed = [
        f"{_(STOCK) if holder == NOBODY else _seen_name(view, holder)}: {cards.shown_name(card)} ({_(WHY[why])})"
        for holder, card, why in view.revealed
    ]
    if revealed and view.phase == PLAYING:
        lines.extend(wrap_lines(_("Shown this deal: {cards}.").format(cards="; ".join(revealed)), WIDTH))
    known = [
        f"{_seen_name(view, holder)} {cards.shown_name(card)}" for holder, card in view.known if holder != view.viewer
    ]
    if known and view.phase == PLAYING and view.turn != NOBODY:
        lines.extend(wrap_lines(_("Where you know the cards are now: {cards}.").format(cards=", ".join(known)), WIDTH))
    if view.phase == PLAYING and view.turn == view.viewer:
        # Worded apart from the turn's own line ("(In 60 seconds ...)"): a client reading
        # the news for the turn (bench/gnavroom.py) tells the two apart.
        if seconds_left:
            turn = ngettext(
                "It is your turn: keep or swap. ({n} second left before you keep your card.)",
                "It is your turn: keep or swap. ({n} seconds left before you keep your card.)",
                seconds_left,
            ).format(n=seconds_left)
        else:
            turn = _("It is your turn: keep or swap.")
        lines.append(turn)
    elif view.phase == PLAYING and view.turn == NOBODY:
        lines.append(_("The deal is settled; the next one comes in a moment."))
    return "\n".join(lines)


#: Where a card shown from the stock lay, as the look says it.
STOCK = N_("the stock")
#: Why a card was shown to everyone, as the look says it.
# Translators: why a card was shown to all: a Fool dealt, a Horse or House passed on an
# ask, a Dragoon or Cat that refused, a Cuckoo asked to swap ("Bo: Cuckoo (asked)").
WHY = {"deal": N_("dealt"), "pass": N_("passed"), "refuse": N_("refused"), "cuckoo": N_("asked")}


def _seen_name(view: SeatView, account_id: int) -> str:
    if account_id == view.viewer:
        return _("you")
    player = view.player(account_id)
    return player.name if player else _("someone")


def help_text() -> str:
    """The rules of Gnav for ``help`` (:data:`games.gnav.rules.RULES_HELP`) in the reader's
    language, each paragraph a line, filled to the reader's window when sent."""
    return reflowable(_(rules.RULES_HELP)).replace(WHOLE_LINE, "")
