"""How a Dvorak table and its events look to each viewer.

An event is rendered for one viewer at a time, from what the game's visibility policy
(:mod:`games.dvorak.visibility`) lets that viewer see of it: everyone may see *that* a
player drew a card; only the player sees *which*.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from commands.dvorak.summary import PileSummary, TableSummary, summarise
from commands.text import plural
from games.dvorak.building import PASTED_DECK
from games.dvorak.facedown import label_text
from games.dvorak.rules import Event, Table
from games.dvorak.settings import SETTINGS
from games.dvorak.state import APPROVE, DISCARD, DRAW, HAND, NO_OWNER, PLAY, PLAYING, REJECT, Card, Proposal
from games.dvorak.visibility import event_for
from server.rooms import GameRoom
from server.text import coloured

FORCED_NOTE = " [forced: outside the basic rules]"


def card_label(card: Card) -> str:
    """``#12 Kevlar Vest (Thing)``; a special rule is ``#14 Five Wheels (rule)``. The name
    is in the card's colour where the viewer's client shows colour."""
    return f"#{card.number} {coloured(card.name, card.colour)} ({'rule' if card.is_rule else card.kind_label})"


def card_name(card: Card) -> str:
    """``#12 Kevlar Vest``: the card's number and name, for the middle of a sentence."""
    return f"#{card.number} {coloured(card.name, card.colour)}"


def card_text(card: Card) -> str:
    """The card's text with its ``%r`` line breaks made real."""
    return "\n    ".join(part.strip() for part in card.text.split("%r")) if card.text else ""


def card_full(card: Card) -> str:
    """``#12 Kevlar Vest (Thing): Play on a Thing: it gets +2.``"""
    text = card_text(card)
    return f"{card_label(card)}: {text}" if text else card_label(card)


def card_list(table: Table, numbers: list[int], empty: str = "  (none)") -> str:
    """One card per line, with full text, indented."""
    if not numbers:
        return empty
    return "\n".join(card_entries(table, numbers))


def card_entries(table: Table, numbers: list[int]) -> list[str]:
    """The lines of :func:`card_list`, one a card (for a list shown a page at a time)."""
    return [f"  {card_full(table.state.cards[n])}" for n in numbers]


def _name(table: Table, account_id: int, viewer: int, possessive: bool = False, actor: int = NO_OWNER) -> str:
    """The player as ``viewer`` reads of them: "you", or their name. A possessive about
    the ``actor`` themselves is "your own" or "their own" ("Cy destroys their own #16")."""
    if possessive and account_id == actor:
        return "your own" if account_id == viewer else "their own"
    if account_id == viewer:
        return "your" if possessive else "you"
    name = table.name_of(account_id)
    return f"{name}'s" if possessive else name


def _source(table: Table, event: Event, viewer: int) -> str:
    source, owner = event.data.get("source"), event.data.get("source_owner", NO_OWNER)
    if source == DRAW:
        return " from the draw pile"
    if source == DISCARD:
        return " from the discard pile"
    if source == HAND:
        return f" from {_name(table, owner, viewer, possessive=True, actor=event.actor)} hand"
    if source == PLAY:
        return " from play"
    return ""


@dataclass(frozen=True)
class _Reading:
    """One event as one viewer reads it: what the renderers of each event kind need."""

    table: Table
    event: Event
    viewer: int
    #: What the visibility policy lets the viewer see of the event's data.
    data: dict[str, Any]

    @property
    def actor(self) -> int:
        return self.event.actor

    @property
    def kind(self) -> str:
        return self.event.kind

    @property
    def you(self) -> bool:
        return self.viewer == self.event.actor

    @property
    def who(self) -> str:
        return "You" if self.you else self.event.actor_name

    @property
    def cards(self) -> dict[int, Card]:
        return self.table.state.cards

    def verb(self, own: str, other: str) -> str:
        """The actor and the verb: ``You draw``, ``Bob draws``."""
        return f"{self.who} {own if self.you else other}"

    def card(self, key: str = "card") -> Card:
        """The card the event's ``key`` names."""
        return self.cards[self.data[key]]


def _join(r: _Reading) -> str:
    table, event, data, actor, you, verb = r.table, r.event, r.data, r.actor, r.you, r.verb
    text = verb("take", "takes") + " a seat at the table."
    if data.get("refilled"):
        text += f" {_refilled(data['refilled'])}"
    dealt = data["dealt"] if you else []
    count = data["dealt_counts"].get(actor, 0)
    if data.get("short"):
        held = count
        whom = "you are" if you else f"{event.actor_name} is"
        text += f" There are not enough cards for a full hand: {whom} dealt {plural(held, 'card')}."
    if dealt:
        text += "\nYou are dealt:\n" + card_list(table, dealt)
    elif count and not data.get("short"):
        text += f" {event.actor_name} is dealt {plural(count, 'card')}."
    return text


def _leave_or_kick(r: _Reading) -> str:
    table, viewer, data, verb, kind = r.table, r.viewer, r.data, r.verb, r.kind
    gone = data["name"] if data["player"] != viewer else "you"
    text = (
        verb("leave", "leaves") + " the table."
        if kind == "leave"
        else verb("remove", "removes") + f" {gone} from the table."
    )
    if data.get("discarded"):
        text += _cards_discarded(table, data, viewer)
    if data.get("alone"):
        text += (
            f" {data['alone']} is the only one left in the game, and it goes on: a kick decides nothing (the host "
            "ends it with win or endgame)."
        )
    text += _deck_handed_over(table, data, viewer)
    if "heir" in data:
        heir = data["heir"]
        text += " You are now the host." if heir == viewer else f" {table.name_of(heir)} is now the host."
    return text + _turn_passes(table, data.get("next"), viewer)


def _host(r: _Reading) -> str:
    table, viewer, data, verb = r.table, r.viewer, r.data, r.verb
    text = verb("make", "makes") + f" {_name(table, data['player'], viewer)} the host."
    return text


def _team(r: _Reading) -> str:
    table, viewer, data, verb = r.table, r.viewer, r.data, r.verb
    if data["player"] == r.actor:
        # The host on a team of their own choosing.
        whose = "your" if viewer == r.actor else "their"
        return (
            verb("join", "joins") + f" team {data['team']}."
            if data["team"]
            else verb("leave", "leaves") + f" {whose} team."
        )
    target = _name(table, data["player"], viewer)
    whose = "your" if data["player"] == viewer else "their"
    return (
        verb("put", "puts") + f" {target} on team {data['team']}."
        if data["team"]
        else verb("take", "takes") + f" {target} off {whose} team."
    )


def _setting(r: _Reading) -> str:
    data, verb = r.data, r.verb
    text = verb("set", "sets") + f" {data['name']} to {data['value']}."
    if data["name"] == "votetime":
        text += (
            " Votes no longer run out of time."
            if data["value"] == "0"
            else f" A vote still open {data['value']} seconds after it opened is decided then, whoever has not "
            "voted counting against; every pending vote counts from now."
        )
    return text


def _load(r: _Reading) -> str:
    verb, card = r.verb, r.card
    text = verb("add", "adds") + f" a card to the deck: {card_full(card())}"
    return text


def _loadrule(r: _Reading) -> str:
    verb, card = r.verb, r.card
    text = verb("put", "puts") + f" a special rule in force: {card_full(card())}"
    return text


def _new_card_rule_or_revote(r: _Reading) -> str:
    table, viewer, data, verb, card, kind = r.table, r.viewer, r.data, r.verb, r.card, r.kind
    what = {"newcard": "a new card", "newrule": "a special rule", "revote": "again"}[kind]
    if kind == "revote":
        text = verb("put", "puts") + f" {card_name(card())} to the vote again:\n  {card_full(card())}"
    else:
        text = verb("propose", "proposes") + f" {what}: {card_full(card())}"
    text += _how_to_vote(table, data["card"], viewer)
    return text


def _editcard(r: _Reading) -> str:
    table, viewer, data, verb, card = r.table, r.viewer, r.data, r.verb, r.card
    face = data["face"]
    proposed = Card(data["card"], face["name"], face["kind"], face["text"], is_rule=card().is_rule)
    text = verb("propose", "proposes") + f" changing {card_label(card())} to: {card_full(proposed)}"
    text += _how_to_vote(table, data["card"], viewer)
    return text


def _removecard(r: _Reading) -> str:
    table, viewer, data, verb, card = r.table, r.viewer, r.data, r.verb, r.card
    text = verb("propose", "proposes") + f" removing {card_label(card())} from the game."
    text += _how_to_vote(table, data["card"], viewer)
    return text


def _vote(r: _Reading) -> str:
    data, verb = r.data, r.verb
    choice = {"approve": ("approve", "approves"), "reject": ("repeal", "repeals")}[data["choice"]]
    members = data["cards"]
    what = f"#{data['card']}" if len(members) == 1 else "the bundle " + ", ".join(f"#{n}" for n in members)
    text = verb(*choice) + f" {what}."
    return text


def _withdraw(r: _Reading) -> str:
    verb, card = r.verb, r.card
    text = verb("withdraw", "withdraws") + f" the proposal about {card_label(card())}."
    return text


def _timeup(r: _Reading) -> str:
    data, viewer = r.data, r.viewer
    members = data["cards"]
    what = card_label(r.card()) if len(members) == 1 else "the bundle " + ", ".join(f"#{n}" for n in members)
    silent = ["you" if account == viewer else name for account, name in data["silent"]]
    if not silent:
        why = "nobody was here to vote"
    else:
        names = silent[0] if len(silent) == 1 else ", ".join(silent[:-1]) + " and " + silent[-1]
        why = f"{names} did not vote, which counts against"
    decision = data["decided"][0]
    text = f"Time is up for the vote on {what}: {why}; "
    if decision["accepted"]:
        return text + ("it is accepted." if len(members) == 1 else "they are accepted.")
    text += "it is rejected." if len(members) == 1 else "they are rejected."
    again = [f"revote {number}" for number, kind in decision["proposals"] if kind in ("card", "rule")]
    if again:
        text += f" ({' or '.join(again)} puts it to the vote again.)"
    return text


def _bundle(r: _Reading) -> str:
    data, verb = r.data, r.verb
    numbers = ", ".join(f"#{n}" for n in data["cards"])
    text = verb("lump", "lumps") + f" {numbers} into one vote: it accepts or rejects them all."
    return text


def _cleardeck(r: _Reading) -> str:
    data, verb = r.data, r.verb
    count = data["count"]
    gone = "it was already empty" if not count else "1 card or rule is gone" if count == 1 else ""
    text = verb("clear", "clears") + f" the deck: {gone or f'{count} cards and rules are gone'}."
    return text


def _loaddeck(r: _Reading) -> str:
    data, verb = r.data, r.verb
    text = verb("load", "loads") + f" the saved deck {data['name']} ({plural(data['count'], 'card')})."
    if data.get("offset"):
        text += f" Its cards are numbered from #{data['offset'] + 1} here."
    if data.get("renumbered"):
        count, first = data["renumbered"]
        text += (
            f" One card's number was taken here: it is #{first} now."
            if count == 1
            else f" {count} cards' numbers were taken here: they are numbered from #{first} on."
        )
    return text


def _import(r: _Reading) -> str:
    data = r.data
    text = f"The deck {data['name']} is imported ({plural(data['count'], 'card')} and rules)."
    return text


def _start(r: _Reading) -> str:
    table, viewer, data, verb = r.table, r.viewer, r.data, r.verb
    first = _name(table, data["first"], viewer)
    handsize = data["handsize"]
    dealt = (
        f"the cards are dealt out as far as they go (at most {handsize} each)"
        if data.get("short")
        else f"each player is dealt {plural(handsize, 'card')}"
    )
    shuffled = (
        "each player's deck is shuffled into their own draw pile"
        if data.get("decks")
        else "every approved card is shuffled into the draw pile"
    )
    text = (
        verb("start", "starts") + f" a new game: {shuffled} and {dealt}. "
        f"{first[0].upper() + first[1:]} {'go' if data['first'] == viewer else 'goes'} first."
    )
    if viewer in data["players"]:
        text += "\nYour hand:\n" + card_list(table, data["dealt"])
    return text


def _draw(r: _Reading) -> str:
    data, you, who, verb, card = r.data, r.you, r.who, r.verb, r.card
    if "card" in data and data["visible"]:
        text = verb("draw", "draws") + f" and show{'' if you else 's'} everyone {card_full(card())}"
    elif "card" in data:
        text = f"You draw {card_full(card())}"
    else:
        text = f"{who} draws a card."
    return text


def _refill(r: _Reading) -> str:
    event = r.event
    text = _refilled(sum(1 for d in event.deltas if d[0] == "move"))
    return text


def _play(r: _Reading) -> str:
    data, verb, card, cards = r.data, r.verb, r.card, r.cards
    played = card()
    if data.get("onto"):
        text = verb("play", "plays") + f" {card_name(played)} on {card_label(cards[data['onto']])}"
        words = card_text(played)
        text += f": {words}" if words else "."
    else:
        text = verb("play", "plays") + f" {card_full(played)}"
    return text


def _use(r: _Reading) -> str:
    verb, card = r.verb, r.card
    text = verb("use", "uses") + f" the Action of {card_full(card())}"
    return text


def _discard(r: _Reading) -> str:
    data, verb, card = r.data, r.verb, r.card
    if data.get("random"):
        text = verb("discard", "discards") + f" a random card: {card_label(card())}."
    else:
        text = verb("discard", "discards") + f" {card_label(card())}."
    return text


def _destroy(r: _Reading) -> str:
    table, viewer, data, actor, verb, card = r.table, r.viewer, r.data, r.actor, r.verb, r.card
    owner = _name(table, data["owner"], viewer, possessive=True, actor=actor)
    text = verb("destroy", "destroys") + f" {owner} {card_label(card())}."
    return text


def _hidden_label(data: dict[str, Any]) -> str:
    """The label of the event's face-down card that the viewer may not see."""
    return next(label_text(label) for number, label, *_ in data["face_down"] if number is None)


def _give(r: _Reading) -> str:
    table, event, viewer, data, actor, verb, card = r.table, r.event, r.viewer, r.data, r.actor, r.verb, r.card
    target = _name(table, data["to"], viewer)
    source = _source(table, event, viewer)
    if "card" not in data:
        whose = _name(table, data["source_owner"], viewer, possessive=True, actor=actor)
        into = "your hand" if data["to"] == viewer else f"{_name(table, data['to'], viewer, possessive=True)} hand"
        return verb("move", "moves") + f" {whose} {_hidden_label(data)} into {into}."
    if data["thing"]:
        where = "" if data["to"] == actor else f" for {target}"
        # The card's text after the sentence, as play shows it: mid-sentence it read as part of it.
        face = card_text(card())
        text = verb("put", "puts") + f" {card_label(card())} into play{where}{source}" + (f": {face}" if face else ".")
    elif data["to"] == actor:
        text = verb("take", "takes") + f" {card_label(card())}{source}."
    else:
        text = verb("give", "gives") + f" {card_label(card())} to {target}{source}."
    return text


def _takerand(r: _Reading) -> str:
    table, viewer, data, who, verb, card = r.table, r.viewer, r.data, r.who, r.verb, r.card
    if "card" in data:
        text = verb("take", "takes") + (
            f" {card_label(card())} from {_name(table, data['player'], viewer, possessive=True)} hand at random."
        )
    else:
        text = f"{who} takes a random card from {data['name']}'s hand."
    return text


def _shuffle(r: _Reading) -> str:
    data, verb = r.data, r.verb
    text = verb("shuffle", "shuffles") + f" the discard pile ({plural(data['count'], 'card')}) into the draw pile."
    return text


def _shufcard(r: _Reading) -> str:
    table, event, viewer, verb, card = r.table, r.event, r.viewer, r.verb, r.card
    if "card" not in r.data and r.data.get("face_down"):
        whose = _name(table, r.data["source_owner"], viewer, possessive=True, actor=r.actor)
        return verb("shuffle", "shuffles") + f" {whose} {_hidden_label(r.data)} into the draw pile."
    if "card" not in r.data:
        return verb("shuffle", "shuffles") + f" a card{_source(table, event, viewer)} into the draw pile."
    text = verb("shuffle", "shuffles") + f" {card_label(card())} into the draw pile{_source(table, event, viewer)}."
    return text


def _facedown(r: _Reading) -> str:
    label = label_text(r.data["label"])
    if "card" in r.data:
        return f"You play {card_label(r.card())} face down: the others see it as {label}."
    return r.verb("play", "plays") + f" a card face down: {label}."


def _flip(r: _Reading) -> str:
    table, viewer, data, actor, verb, card = r.table, r.viewer, r.data, r.actor, r.verb, r.card
    whose = _name(table, data["owner"], viewer, possessive=True, actor=actor)
    text = verb("turn", "turns") + f" up {whose} {label_text(data['label'])}: {card_full(card())}"
    if data.get("discarded"):
        text += "\n  It is an Action: it goes to the discard pile."
    return text


def _draw_pile_of(r: _Reading) -> str:
    """The draw pile the event is about: "the draw pile", or in a multi-deck game whose it
    is ("your own draw pile")."""
    owner = r.data["owner"]
    if owner == NO_OWNER:
        return "the draw pile"
    return f"{_name(r.table, owner, r.viewer, possessive=True, actor=r.actor)} draw pile"


def _putcard(r: _Reading) -> str:
    table, event, viewer, data, verb, card = r.table, r.event, r.viewer, r.data, r.verb, r.card
    what = card_label(card()) if "card" in data else "a card"
    pile = _draw_pile_of(r)
    depth, size = data["depth"], data["size"]
    if depth == 1:
        where = f"on top of {pile}"
    elif depth == size:
        where = f"at the bottom of {pile}"
    else:
        where = f"into {pile}, with {plural(depth - 1, 'card')} above it"
    return verb("put", "puts") + f" {what}{_source(table, event, viewer)} {where}."


def _reorder(r: _Reading) -> str:
    data, verb = r.data, r.verb
    text = verb("reorder", "reorders") + f" the top {plural(data['count'], 'card')} of {_draw_pile_of(r)}."
    if "cards" in data:
        text += " Now on top, top first:\n" + card_list(r.table, data["cards"])
    return text


def _viewhand(r: _Reading) -> str:
    viewer, data, verb = r.viewer, r.data, r.verb
    target = "your" if data["player"] == viewer else f"{data['name']}'s"
    text = verb("look", "looks") + f" at {target} hand."
    return text


def _viewdraw(r: _Reading) -> str:
    verb = r.verb
    text = verb("look", "looks") + " through the draw pile."
    return text


def _endturn_or_skip(r: _Reading) -> str:
    table, viewer, data, actor, verb, kind = r.table, r.viewer, r.data, r.actor, r.verb, r.kind
    if kind == "endturn":
        text = verb("end", "ends") + " the turn."
    else:
        whose = _name(table, data["player"], viewer, possessive=True, actor=actor)
        text = verb("skip", "skips") + f" {whose} turn."
    return text + _turn_passes(table, data["next"], viewer)


def _turn_passes(table: Table, following: int | None, viewer: int) -> str:
    """Whose turn it is now, after a move that passed the turn on (``following``: the
    player whose turn begins; None or nobody: it passed to no one)."""
    if following == viewer:
        return " It is now your turn: draw a card to begin." if table.settings["draws"] else " It is now your turn."
    if following is not None and following != NO_OWNER:
        return f" It is now {table.name_of(following)}'s turn."
    return ""


def _eliminate(r: _Reading) -> str:
    table, viewer, data, actor, verb = r.table, r.viewer, r.data, r.actor, r.verb
    if data["player"] == actor:
        text = verb("resign", "resigns") + " from the game."
    else:
        text = verb("eliminate", "eliminates") + f" {_name(table, data['player'], viewer)} from the game."
    if data.get("discarded"):
        text += _cards_discarded(table, data, viewer)
    return text + _turn_passes(table, data.get("next"), viewer)


def _win(r: _Reading) -> str:
    verb = r.verb
    text = verb("declare", "declares") + " the game won."
    return text


def _endgame(r: _Reading) -> str:
    return r.verb("end", "ends") + " the game."


def _build(r: _Reading) -> str:
    data, you = r.data, r.you
    size = f" ({plural(data['size'], 'card')} in all)"
    brought = data.get("brought")
    # An imported deck is brought under the name "pasted" (commands.dvorak.building).
    pasted = brought == PASTED_DECK
    if not you:
        what = ("brings a pasted deck" if pasted else "brings a saved deck") if brought else "changes their deck"
        return f"{r.who} {what}{size}."
    if brought:
        return f"You bring the deck you pasted{size}." if pasted else f"You bring your deck {brought}{size}."
    if data.get("cleared"):
        return "You empty your deck."
    card = card_name(r.card())
    if data.get("added"):
        return f"You add {plural(data['added'], 'copy', 'copies')} of {card} to your deck{size}."
    return f"You take {plural(data['removed'], 'copy', 'copies')} of {card} out of your deck{size}."


def _away(r: _Reading) -> str:
    you, who = r.you, r.who
    text = (
        "You were away too long: votes are counted without you until you are back."
        if you
        else f"{who} has been away too long: votes are counted without {who} until {who} is back."
    )
    return text


def _back(r: _Reading) -> str:
    you, who = r.you, r.who
    text = "You are back and vote again." if you else f"{who} is back and votes again."
    return text


#: One renderer per kind of event the rules make.
RENDERERS: dict[str, Callable[[_Reading], str]] = {
    "join": _join,
    "leave": _leave_or_kick,
    "kick": _leave_or_kick,
    "host": _host,
    "team": _team,
    "setting": _setting,
    "load": _load,
    "loadrule": _loadrule,
    "newcard": _new_card_rule_or_revote,
    "newrule": _new_card_rule_or_revote,
    "revote": _new_card_rule_or_revote,
    "editcard": _editcard,
    "removecard": _removecard,
    "vote": _vote,
    "withdraw": _withdraw,
    "timeup": _timeup,
    "bundle": _bundle,
    "cleardeck": _cleardeck,
    "loaddeck": _loaddeck,
    "import": _import,
    "start": _start,
    "draw": _draw,
    "refill": _refill,
    "play": _play,
    "use": _use,
    "discard": _discard,
    "destroy": _destroy,
    "give": _give,
    "takerand": _takerand,
    "shuffle": _shuffle,
    "shufcard": _shufcard,
    "putcard": _putcard,
    "reorder": _reorder,
    "viewhand": _viewhand,
    "viewdraw": _viewdraw,
    "facedown": _facedown,
    "flip": _flip,
    "endturn": _endturn_or_skip,
    "skip": _endturn_or_skip,
    "eliminate": _eliminate,
    "win": _win,
    "endgame": _endgame,
    "build": _build,
    "away": _away,
    "back": _back,
}


def render_event(table: Table, event: Event, viewer: int) -> str:
    """The text ``viewer`` sees for ``event``: its kind's line (see :data:`RENDERERS`),
    then what leaving play took with it, whether it was forced, the votes it decided and
    the game's result."""
    data = event_for(event, viewer)
    reading = _Reading(table, event, viewer, data)
    render = RENDERERS.get(event.kind)
    text = render(reading) if render is not None else f"{reading.who} did something ({event.kind})."
    # What leaving play took with it follows the sentence that made it leave: the move's
    # own, or the decision (an accepted removal) when the event decided a vote.
    attached_note = _attached_note(table, data.get("destroyed", []), "them" if "discarded" in data else "it")
    if not data.get("decided"):
        text += attached_note
    if event.forced:
        text = _with_forced_note(text)
    for decision in data.get("decided", []):
        text += "\n" + _decision(table, decision)
    if data.get("decided"):
        text += attached_note
    text += _face_down_note(table, event.kind, data)
    if data.get("out_of_cards"):
        text += "\n" + _out_of_cards(table, event.kind, data, viewer)
    if data.get("result"):
        text += f"\n*** {data['result']} ***"
    return text


def _out_of_cards(table: Table, kind: str, data: dict[str, Any], viewer: int) -> str:
    """Who went out holding no card once none were left to draw (seed 003), and, unless
    the move's own sentence said so, whose turn it is now."""
    names = [
        ("you" if table.state.seat(viewer) and table.name_of(viewer) == name else name) for name in data["out_of_cards"]
    ]
    who = " and ".join(names)
    alone = len(names) == 1 and names[0] != "you"
    text = (
        f"No cards are left to draw: {who} {'holds' if alone else 'hold'} none, and "
        f"{'is' if alone else 'are'} out of the game."
    )
    if kind not in ("endturn", "skip", "eliminate") and "next" in data and not data.get("result"):
        text += _turn_passes(table, data["next"], viewer)
    return text


def _with_forced_note(text: str) -> str:
    """``text`` with :data:`FORCED_NOTE` after the move's own sentence: the end of its
    first line, or, when that line introduces a list ("Now on top, top first:"), the
    sentence before; never after the last card of a list."""
    line, newline, rest = text.partition("\n")
    if not newline:
        return text + FORCED_NOTE
    if line.endswith(":"):
        end = line.rfind(". ")
        if end < 0:
            return text + FORCED_NOTE
        return line[: end + 1] + FORCED_NOTE + line[end + 1 :] + newline + rest
    return line + FORCED_NOTE + newline + rest


def _face_down_note(table: Table, kind: str, data: dict[str, Any]) -> str:
    """Which face-down cards that left play (or were turned up as the game ended) the
    viewer now learns."""
    notes = [
        f"{card_label(table.state.cards[number])} was {label_text(label)}."
        for number, label, *_ in data.get("face_down", [])
        if number is not None
    ]
    notes += [
        f"{label_text(label)} of {table.name_of(owner)} is turned up: {card_label(table.state.cards[number])}."
        for number, label, owner in data.get("turned_up", [])
    ]
    return "".join(f"\n  {note}" for note in notes)


def _attached_note(table: Table, destroyed: list[int], on: str) -> str:
    """What Things leaving play took with them: the cards played on ``on``, now discarded."""
    if not destroyed:
        return ""
    labels = ", ".join(card_label(table.state.cards[n]) for n in destroyed)
    return f" Played on {on}, {labels} also {'goes' if len(destroyed) == 1 else 'go'} to the discard pile."


def _deck_handed_over(table: Table, data: dict, viewer: int) -> str:
    """Where the own deck of a player who left a multi-deck table went ("" if nowhere)."""
    whose = "your" if data["player"] == viewer else f"{data['name']}'s"
    if data.get("deck_shared"):
        return (
            f" The {plural(data['deck_shared'], 'card')} of {whose} own deck go into the shared draw pile, to be "
            "dealt out at the next start."
        )
    shares = data.get("deck_shares")
    if not shares:
        return ""
    count = sum(share for _, share in shares)
    if len(shares) == 1:
        taker = _name(table, shares[0][0], viewer, possessive=True)
        return f" The {plural(count, 'card')} of {whose} own deck go to {taker} discard pile."
    parts = ", ".join(f"{share} to {_name(table, taker, viewer)}" for taker, share in shares)
    return f" The {plural(count, 'card')} of {whose} own deck go to the discard piles of the others: {parts}."


def _cards_discarded(table: Table, data: dict, viewer: int) -> str:
    """What went to the discard pile from the hand and play area of a player who left
    (in a CCG game their own copies, wherever they were, go back to their deck)."""
    count, whose = data["discarded"], "your" if data["player"] == viewer else "their"
    if table.ccg:
        holder = "you" if data["player"] == viewer else "they"
        return f" The copies of {whose} deck go back to it; anything else {holder} held goes to the discard pile."
    goes = "goes" if count == 1 else "go"
    return f" {plural(count, 'card')} from {whose} hand and play area {goes} to the discard pile."


def _refilled(count: int) -> str:
    return f"The draw pile is empty: the discard pile ({plural(count, 'card')}) is shuffled into a new draw pile."


def _how_to_vote(table: Table, number: int, viewer: int) -> str:
    """How to vote on ``number``, for a ``viewer`` who may vote on it."""
    if table.state.pending_for(number) is None or viewer not in table.voters():
        return ""
    return f"\n  Vote with: approve {number}   or   repeal {number}"


def _decision(table: Table, decision: dict) -> str:
    cards = table.state.cards
    accepted = decision["accepted"]
    outcome = "accepted" if accepted else "rejected"
    lines = []
    for number, kind in decision["proposals"]:
        label = card_label(cards[number])
        thing = "rule" if cards[number].is_rule else "card"
        if not accepted and kind == "remove":
            stays = "the rule stays in force" if thing == "rule" else "the card stays in the game"
            lines.append(f"*** The proposal to remove {label} is rejected: {stays}.")
            continue
        if not accepted and kind == "edit":
            lines.append(f"*** The change to {label} is rejected: the {thing} keeps its words.")
            continue
        in_set = bool(decision.get("set"))
        if not accepted:
            after = " It goes to the rejected pile."
        elif kind == "card":
            after = " It joins the card set." if in_set else " It is shuffled into the draw pile."
        elif kind == "rule":
            after = " The rule is in force."
        elif kind == "edit":
            after = f" It now reads: {card_full(cards[number])}"
            after += " Every copy in every deck reads the same." if in_set else ""
        else:
            after = " It is removed from the game."
            after += " Its copies leave every deck." if in_set else ""
        lines.append(f"*** The vote on {label} is decided: {outcome}.{after}")
    return "\n".join(lines)


_PROPOSAL_KINDS = {"card": "new card", "rule": "new rule", "edit": "change to", "remove": "removal of"}


def render_proposal(
    table: Table, group: list[Proposal], detailed: bool, author: Callable[[int, str], str] = lambda _, name: name
) -> str:
    """A pending proposal (or bundle): what it is, and (detailed) who voted how."""
    cards = table.state.cards
    lines = []
    for proposal in group:
        what = _PROPOSAL_KINDS[proposal.kind]
        subject = cards[proposal.subject]
        line = f"  {what} {card_full(subject) if detailed else card_label(subject)}"
        if proposal.kind == "edit" and proposal.face is not None:
            proposed = Card(subject.number, proposal.face["name"], proposal.face["kind"], proposal.face["text"])
            line += f"\n    proposed words: {card_full(proposed) if detailed else card_label(proposed)}"
        lines.append(line)
    votes = group[0].votes
    voters = table.voters()
    approve = [table.name_of(a) for a in voters if votes.get(a) == APPROVE]
    reject = [table.name_of(a) for a in voters if votes.get(a) == REJECT]
    waiting = [table.name_of(a) for a in voters if a not in votes]
    if len(group) > 1:
        lines.insert(0, "  bundle of " + ", ".join(f"#{p.subject}" for p in group) + ":")
    if detailed:
        proposers: dict[int, str] = {}
        for proposal in group:
            proposers.setdefault(proposal.proposer, author(proposal.proposer, proposal.proposer_name))
        proposer = ", ".join(proposers.values())
        lines.append(
            f"    proposed by {proposer}; approve: {', '.join(approve) or '-'}; "
            f"repeal: {', '.join(reject) or '-'}; yet to vote: {', '.join(waiting) or '-'}"
        )
        lines[-1] += _time_left(table, group)
    else:
        lines[-1] += f" ({len(approve)} of {len(voters)} approve)"
    return "\n".join(lines)


def _time_left(table: Table, group: list[Proposal]) -> str:
    """How long the vote on ``group`` stays open ("" if it has no vote time)."""
    votetime = table.settings["votetime"]
    opened = [table.state.vote_opened[p.id] for p in group if p.id in table.state.vote_opened]
    if not votetime or not opened:
        return ""
    left = max(0, round(max(opened) + votetime - table.clock()))
    return f"; time left: {left // 60}m {left % 60:02d}s"


def render_table(room: GameRoom, table: Table, viewer: int, away: set[int], watching: list[str]) -> str:
    """The table as ``look`` draws it for ``viewer``, from what everyone may see of it
    (:func:`commands.dvorak.summary.summarise`)."""
    summary = summarise(room, table, away, watching)
    state, settings, phase = table.state, summary.settings, summary.phase
    status = {"waiting": "waiting to start", "playing": f"playing, turn {state.turn.number}", "over": "game over"}[
        phase
    ]
    lines = [f"Room {summary.room}: Dvorak, {status}. Host: {summary.host or 'nobody'}."]
    if summary.result and phase != PLAYING:
        lines.append(f"Last game: {summary.result}")
    if summary.seats:
        lines.append("Seats, in turn order:")
        for seat in summary.seats:
            notes = []
            if seat.team:
                notes.append(f"team {seat.team}")
            if seat.out:
                notes.append("out")
            if seat.away:
                notes.append("away")
            if seat.account_id == viewer:
                notes.append("you")
            if seat.deck is not None:
                notes.append(f"deck of {plural(seat.deck, 'card')}")
            lines.append(
                f" {'>' if seat.current else ' '} {seat.name:<20} {seat.cards:>2} card{'s' if seat.cards != 1 else ' '}"
                + (f"  ({', '.join(notes)})" if notes else "")
            )
    else:
        lines.append("Nobody is seated.")
    in_play = [seat for seat in summary.seats if seat.in_play or seat.face_down]
    if in_play:
        lines.append("In play:")
        for seat in in_play:
            things = [
                f"{card_label(card)}{f' on #{card.attached_to}' if card.attached_to else ''}" for card in seat.in_play
            ]
            things += [face_down_line(table, label, viewer) for label in seat.face_down]
            lines.append(f"  {seat.name}: " + ", ".join(things))
    lines.append(_piles_line(summary))
    if summary.card_set is not None:
        version, size = summary.card_set
        lines.append(f"The CCG game: a card set of {plural(size, 'card')}, version {version} (viewset, deckbuild).")
    if summary.rules:
        lines.append("Special rules:")
        lines += [f"  {card_full(card)}" for card in summary.rules]
    if state.proposals:
        lines.append("Waiting for a vote (viewvote for details):")
        shown: set[int] = set()
        for proposal in state.proposals.values():
            if proposal.id not in shown:
                group = state.bundle_of(proposal)
                shown.update(p.id for p in group)
                lines.append(render_proposal(table, group, detailed=False))
    turn = summary.turn
    if turn is not None:
        whose = "Your" if turn.player == viewer else f"{summary.turn_player}'s"
        lines.append(
            f"{whose} turn: drawn {turn.drawn} of {settings['draws']}, "
            f"Things {turn.things} of {settings['plays']}, Actions {turn.actions} of {settings['actions']}."
        )
    if summary.watching:
        lines.append(f"Watching: {', '.join(summary.watching)}.")
    changed = [
        f"{name}={spec.show(settings[name])}" for name, spec in SETTINGS.items() if settings[name] != spec.default
    ]
    if changed:
        lines.append("Settings changed from the defaults: " + ", ".join(changed) + ".")
    return "\n".join(lines)


def face_down_line(table: Table, label: str, viewer: int) -> str:
    """A face-down card in play as ``viewer`` sees it: its label, and to its owner what it is."""
    number = table.face_down_number(label)
    card = table.state.cards[number]
    if card.owner == viewer:
        return f"{card_label(card)} (face down: the others see {label_text(label)})"
    return label_text(label)


def _piles_line(summary: TableSummary) -> str:
    def top(pile: PileSummary) -> str:
        return f", top {card_label(pile.discard_top)}" if pile.discard_top else ""

    if summary.multideck:
        parts = []
        for seat in summary.seats:
            pile = summary.piles[seat.account_id]
            parts.append(f"{seat.name}: draw {pile.draw}, discard {pile.discard}{top(pile)}")
        shared = summary.piles.get(NO_OWNER)
        if shared is not None:
            parts.append(f"shared, dealt out at the start: draw {shared.draw}")
        return "Piles: " + "; ".join(parts) + "."
    pile = summary.piles[NO_OWNER]
    return f"Draw pile: {plural(pile.draw, 'card')}. Discard pile: {plural(pile.discard, 'card')}{top(pile)}."
