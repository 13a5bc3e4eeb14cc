"""How a Dvorak table and its events look to each viewer.

An event is rendered for one viewer at a time, from what the game's visibility policy
(:mod:`games.dvorak.visibility`) lets that viewer see of it: everyone may see *that* a
player drew a card; only the player sees *which*. Each viewer's line is drawn in their
language (:func:`commands.games.announce` sets it): every sentence is written whole,
one for the viewer who made the move ("You draw") and one for anyone else ("Ann
draws"); the names, the cards' names and words are the players' own, never translated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from commands.dvorak.summary import PileSummary, TableSummary, summarise
from commands.table_lines import listed
from commands.text import ljust
from games.dvorak.building import PASTED_DECK
from games.dvorak.facedown import label_text
from games.dvorak.rules import Event, Table
from games.dvorak.settings import SETTINGS
from games.dvorak.state import APPROVE, DISCARD, DRAW, HAND, NO_OWNER, OVER, PLAY, PLAYING, REJECT, Card, Proposal
from games.dvorak.visibility import event_for
from i18n import N_, Said, Text, _, ngettext, said, shown
from server.rooms import GameRoom
from server.text import coloured, shown_width

#: What a forced move's line says after its own sentence.
FORCED_NOTE = N_("[forced: outside the basic rules]")
#: What a special rule is called in its label, where a card has its type.
RULE_WORD = N_("rule")


def card_label(card: Card) -> str:
    """``#12 Kevlar Vest (Thing)``; a special rule is ``#14 Five Wheels (rule)``. The name
    is in the card's colour where the viewer's client shows colour; the type is in the
    reader's language where it is the game's (Action, Thing), else as its author wrote it."""
    return f"#{card.number} {coloured(card.name, card.colour)} ({_(RULE_WORD) if card.is_rule else card.kind_shown})"


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


#: What an empty list of cards shows.
NONE = N_("(none)")


def none_listed() -> str:
    """What an empty list of cards shows, indented as its cards would be."""
    return f"  {_(NONE)}"


def card_list(table: Table, numbers: list[int], empty: str | None = None) -> str:
    """One card per line, with full text, indented (``empty``, else "(none)", when there
    are none)."""
    if not numbers:
        return none_listed() if empty is None else empty
    return "\n".join(card_entries(table, numbers))


def card_entries(table: Table, numbers: list[int]) -> list[str]:
    """The lines of :func:`card_list`, one a card (for a list shown a page at a time)."""
    return [f"  {card_full(table.state.cards[n])}" for n in numbers]


def card_entry_said(card: Card) -> Said:
    """A line of :func:`card_entries` as a message each reader of a room is shown in their
    own language: its layout has no words, the type of an Action or Thing (or the word
    for a rule) is one, and the rest is the card's own."""
    kind: Text = card.kind_label
    if card.is_rule:
        kind = said(RULE_WORD)
    elif card.kind.strip().upper() in ("A", "T"):  # Action or Thing, the game's words
        kind = said(card.kind_label)
    text = card_text(card)
    layout = "  #{number} {name} ({kind}): {text}" if text else "  #{number} {name} ({kind})"
    return Said(
        layout, None, 0, {"number": card.number, "name": coloured(card.name, card.colour), "kind": kind, "text": text}
    )


def none_said() -> Said:
    """:func:`none_listed` as a message, for a list shown to a room."""
    return Said("  {none}", None, 0, {"none": said(NONE)})


def lines_said(lines: list[Text]) -> Said:
    """``lines``, each text or a message, as one message: each reader is shown every line
    in their language."""
    layout = "\n".join(f"{{line{index}}}" for index in range(len(lines)))
    return Said(layout, None, 0, {f"line{index}": line for index, line in enumerate(lines)})


def _card_of(table: Table, owner: int, viewer: int, actor: int, card: str) -> str:
    """``card`` (a card's label) as belonging to ``owner``, as ``viewer`` reads of it: "your
    own" or "their own" when the ``actor`` owns it ("Cy destroys their own #16"), else
    "your" or the owner's name."""
    if owner == actor:
        # Translators: a card of the player who makes the move, who is you.
        own = _("your own {card}") if owner == viewer else _("their own {card}")
        return own.format(card=card)
    if owner == viewer:
        return _("your {card}").format(card=card)
    return _("{name}'s {card}").format(name=table.name_of(owner), card=card)


def _source(table: Table, event: Event, viewer: int) -> str:
    """Where the event's card came from, with a space before it (" from the draw pile"),
    or "" if the event does not say."""
    source, owner = event.data.get("source"), event.data.get("source_owner", NO_OWNER)
    if source == DRAW:
        where = _("from the draw pile")
    elif source == DISCARD:
        where = _("from the discard pile")
    elif source == HAND and owner == event.actor:
        where = _("from your own hand") if owner == viewer else _("from their own hand")
    elif source == HAND:
        where = _("from your hand") if owner == viewer else _("from {name}'s hand").format(name=table.name_of(owner))
    elif source == PLAY:
        where = _("from play")
    else:
        return ""
    return f" {where}"


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
    def name(self) -> str:
        """The actor's name, as it was when the event happened."""
        return self.event.actor_name

    @property
    def cards(self) -> dict[int, Card]:
        return self.table.state.cards

    def line(self, you: str, other: str, **params: Any) -> str:
        """The sentence ``you`` (marked with ``N_``) when the viewer made the move, else
        ``other`` with the actor's name as ``{name}``: translated, ``params`` filled in."""
        if self.you:
            return _(you).format(**params)
        return _(other).format(name=self.name, **params)

    def card(self, key: str = "card") -> Card:
        """The card the event's ``key`` names."""
        return self.cards[self.data[key]]


def _join(r: _Reading) -> str:
    table, data, you = r.table, r.data, r.you
    text = r.line(N_("You take a seat at the table."), N_("{name} takes a seat at the table."))
    if data.get("refilled"):
        text += f" {_refilled(data['refilled'])}"
    dealt = data["dealt"] if you else []
    count = data["dealt_counts"].get(r.actor, 0)
    if data.get("short"):
        if you:
            short = ngettext(
                "There are not enough cards for a full hand: you are dealt {n} card.",
                "There are not enough cards for a full hand: you are dealt {n} cards.",
                count,
            )
        else:
            short = ngettext(
                "There are not enough cards for a full hand: {name} is dealt {n} card.",
                "There are not enough cards for a full hand: {name} is dealt {n} cards.",
                count,
            )
        text += " " + short.format(name=r.name, n=count)
    if dealt:
        text += "\n" + _("You are dealt:") + "\n" + card_list(table, dealt)
    elif count and not data.get("short"):
        dealt_them = ngettext("{name} is dealt {n} card.", "{name} is dealt {n} cards.", count)
        text += " " + dealt_them.format(name=r.name, n=count)
    return text


def _leave_or_kick(r: _Reading) -> str:
    table, viewer, data = r.table, r.viewer, r.data
    if r.kind == "leave":
        text = r.line(N_("You leave the table."), N_("{name} leaves the table."))
    elif data["player"] == viewer:
        text = _("{host} removes you from the table.").format(host=r.name)
    else:
        you, other = N_("You remove {player} from the table."), N_("{name} removes {player} from the table.")
        text = r.line(you, other, player=data["name"])
    if data.get("discarded"):
        text += _cards_discarded(table, data, viewer)
    if data.get("alone"):
        if "alone_team" in data:
            alone = _(
                "team {team} is the only one left in the game, and it goes on: a kick decides nothing (the host "
                "ends it with win or endgame)."
            ).format(team=data["alone_team"])
        else:
            alone = _(
                "{name} is the only one left in the game, and it goes on: a kick decides nothing (the host ends it "
                "with win or endgame)."
            ).format(name=data["alone"])
        text += f" {alone}"
    text += _deck_handed_over(table, data, viewer)
    if "heir" in data:
        heir = data["heir"]
        host = _("You are now the host.") if heir == viewer else _("{name} is now the host.")
        text += " " + host.format(name=table.name_of(heir))
    return text + _turn_passes(table, data.get("next"), viewer)


def _host(r: _Reading) -> str:
    table, viewer, player = r.table, r.viewer, r.data["player"]
    if player == viewer:
        return r.line(N_("You make you the host."), N_("{name} makes you the host."))
    return r.line(
        N_("You make {player} the host."), N_("{name} makes {player} the host."), player=table.name_of(player)
    )


def _team(r: _Reading) -> str:
    table, viewer, data = r.table, r.viewer, r.data
    team = data["team"]
    if data["player"] == r.actor:
        # The host on a team of their own choosing.
        if team:
            return r.line(N_("You join team {team}."), N_("{name} joins team {team}."), team=team)
        return r.line(N_("You leave your team."), N_("{name} leaves their team."))
    if data["player"] == viewer:
        # Another's move (the player is not its actor).
        if team:
            return _("{name} puts you on team {team}.").format(name=r.name, team=team)
        return _("{name} takes you off your team.").format(name=r.name)
    player = table.name_of(data["player"])
    if team:
        you, other = N_("You put {player} on team {team}."), N_("{name} puts {player} on team {team}.")
        return r.line(you, other, player=player, team=team)
    you, other = N_("You take {player} off their team."), N_("{name} takes {player} off their team.")
    return r.line(you, other, player=player)


def _setting(r: _Reading) -> str:
    data = r.data
    you, other = N_("You set {setting} to {value}."), N_("{name} sets {setting} to {value}.")
    text = r.line(you, other, setting=data["name"], value=data["value"])
    if data["name"] == "votetime":
        value = str(data["value"])
        if value == "0":
            text += " " + _("Votes no longer run out of time.")
        else:
            decided = ngettext(
                "A vote still open {n} second after it opened is decided then, whoever has not voted counting "
                "against; every pending vote counts from now.",
                "A vote still open {n} seconds after it opened is decided then, whoever has not voted counting "
                "against; every pending vote counts from now.",
                int(value) if value.isdigit() else 2,
            )
            text += " " + decided.format(n=value)
    return text


def _load(r: _Reading) -> str:
    you, other = N_("You add a card to the deck: {card}"), N_("{name} adds a card to the deck: {card}")
    return r.line(you, other, card=card_full(r.card()))


def _loadrule(r: _Reading) -> str:
    you, other = N_("You put a special rule in force: {card}"), N_("{name} puts a special rule in force: {card}")
    return r.line(you, other, card=card_full(r.card()))


def _new_card_rule_or_revote(r: _Reading) -> str:
    card, kind = r.card(), r.kind
    if kind == "revote":
        you, other = N_("You put {card} to the vote again:"), N_("{name} puts {card} to the vote again:")
        text = r.line(you, other, card=card_name(card)) + f"\n  {card_full(card)}"
    elif kind == "newcard":
        text = r.line(
            N_("You propose a new card: {card}"), N_("{name} proposes a new card: {card}"), card=card_full(card)
        )
    else:
        you, other = N_("You propose a special rule: {card}"), N_("{name} proposes a special rule: {card}")
        text = r.line(you, other, card=card_full(card))
    return text + _how_to_vote(r.table, r.data["card"], r.viewer)


def _editcard(r: _Reading) -> str:
    data, card = r.data, r.card()
    face = data["face"]
    proposed = Card(data["card"], face["name"], face["kind"], face["text"], is_rule=card.is_rule)
    you, other = N_("You propose changing {card} to: {words}"), N_("{name} proposes changing {card} to: {words}")
    text = r.line(you, other, card=card_label(card), words=card_full(proposed))
    return text + _how_to_vote(r.table, data["card"], r.viewer)


def _removecard(r: _Reading) -> str:
    you, other = N_("You propose removing {card} from the game."), N_("{name} proposes removing {card} from the game.")
    text = r.line(you, other, card=card_label(r.card()))
    return text + _how_to_vote(r.table, r.data["card"], r.viewer)


def _vote(r: _Reading) -> str:
    data = r.data
    approve = data["choice"] == APPROVE
    members = data["cards"]
    if len(members) == 1:
        if approve:
            return r.line(N_("You approve {card}."), N_("{name} approves {card}."), card=f"#{data['card']}")
        return r.line(N_("You repeal {card}."), N_("{name} repeals {card}."), card=f"#{data['card']}")
    cards = ", ".join(f"#{n}" for n in members)
    if approve:
        return r.line(N_("You approve the bundle {cards}."), N_("{name} approves the bundle {cards}."), cards=cards)
    return r.line(N_("You repeal the bundle {cards}."), N_("{name} repeals the bundle {cards}."), cards=cards)


def _withdraw(r: _Reading) -> str:
    you, other = N_("You withdraw the proposal about {card}."), N_("{name} withdraws the proposal about {card}.")
    return r.line(you, other, card=card_label(r.card()))


def _timeup(r: _Reading) -> str:
    data, viewer = r.data, r.viewer
    members = data["cards"]
    one = len(members) == 1
    what = card_label(r.card()) if one else _("the bundle {cards}").format(cards=", ".join(f"#{n}" for n in members))
    silent = [_("you") if account == viewer else name for account, name in data["silent"]]
    if not silent:
        why = _("nobody was here to vote")
    else:
        why = _("{names} did not vote, which counts against").format(names=listed(silent))
    decision = data["decided"][0]
    if decision["accepted"] and one:
        # Translators: {what} is a card; {why} says who did not vote ("nobody was here to vote").
        decided = _("Time is up for the vote on {what}: {why}; it is accepted.")
    elif decision["accepted"]:
        # Translators: {what} is a bundle of cards; {why} says who did not vote ("nobody was here to vote").
        decided = _("Time is up for the vote on {what}: {why}; they are accepted.")
    elif one:
        # Translators: {what} is a card; {why} says who did not vote ("nobody was here to vote").
        decided = _("Time is up for the vote on {what}: {why}; it is rejected.")
    else:
        # Translators: {what} is a bundle of cards; {why} says who did not vote ("nobody was here to vote").
        decided = _("Time is up for the vote on {what}: {why}; they are rejected.")
    text = decided.format(what=what, why=why)
    if decision["accepted"]:
        return text
    again = [f"revote {number}" for number, kind in decision["proposals"] if kind in ("card", "rule")]
    if again:
        text += " " + _("({commands} puts it to the vote again.)").format(commands=_either(again))
    return text


def _either(options: list[str]) -> str:
    """``a``, ``a or b``, ``a or b or c``."""
    text = options[0]
    for option in options[1:]:
        text = _("{either} or {other}").format(either=text, other=option)
    return text


def _bundle(r: _Reading) -> str:
    you = N_("You lump {cards} into one vote: it accepts or rejects them all.")
    other = N_("{name} lumps {cards} into one vote: it accepts or rejects them all.")
    return r.line(you, other, cards=", ".join(f"#{n}" for n in r.data["cards"]))


def _cleardeck(r: _Reading) -> str:
    count = r.data["count"]
    if not count:
        return r.line(
            N_("You clear the deck: it was already empty."), N_("{name} clears the deck: it was already empty.")
        )
    if r.you:
        cleared = ngettext(
            "You clear the deck: {n} card or rule is gone.", "You clear the deck: {n} cards and rules are gone.", count
        )
    else:
        cleared = ngettext(
            "{name} clears the deck: {n} card or rule is gone.",
            "{name} clears the deck: {n} cards and rules are gone.",
            count,
        )
    return cleared.format(name=r.name, n=count)


def _loaddeck(r: _Reading) -> str:
    data = r.data
    count = data["count"]
    if r.you:
        loaded = ngettext(
            "You load the saved deck {deck} ({n} card).", "You load the saved deck {deck} ({n} cards).", count
        )
    else:
        loaded = ngettext(
            "{name} loads the saved deck {deck} ({n} card).", "{name} loads the saved deck {deck} ({n} cards).", count
        )
    text = loaded.format(name=r.name, deck=data["name"], n=count)
    if data.get("offset"):
        text += " " + _("Its cards are numbered from #{number} here.").format(number=data["offset"] + 1)
    if data.get("renumbered"):
        count, first = data["renumbered"]
        renumbered = ngettext(
            "One card's number was taken here: it is #{number} now.",
            "{n} cards' numbers were taken here: they are numbered from #{number} on.",
            count,
        )
        text += " " + renumbered.format(n=count, number=first)
    return text


def _import(r: _Reading) -> str:
    count = r.data["count"]
    imported = ngettext(
        "The deck {deck} is imported ({n} card and rules).", "The deck {deck} is imported ({n} cards and rules).", count
    )
    return imported.format(deck=r.data["name"], n=count)


def _start(r: _Reading) -> str:
    table, viewer, data = r.table, r.viewer, r.data
    handsize = data["handsize"]
    if data.get("short"):
        dealt = _("the cards are dealt out as far as they go (at most {n} each)").format(n=handsize)
    else:
        dealt = ngettext("each player is dealt {n} card", "each player is dealt {n} cards", handsize).format(n=handsize)
    if data.get("decks"):
        shuffled = _("each player's deck is shuffled into their own draw pile")
    else:
        shuffled = _("every approved card is shuffled into the draw pile")
    # Translators: {shuffled} says how the draw pile is made, {dealt} how the cards are dealt.
    you = N_("You start a new game: {shuffled} and {dealt}.")
    # Translators: {shuffled} says how the draw pile is made, {dealt} how the cards are dealt.
    other = N_("{name} starts a new game: {shuffled} and {dealt}.")
    text = r.line(you, other, shuffled=shuffled, dealt=dealt)
    if data["first"] == viewer:
        text += " " + _("You go first.")
    else:
        first = table.name_of(data["first"])
        text += " " + _("{name} goes first.").format(name=first[:1].upper() + first[1:])
    if viewer in data["players"]:
        text += "\n" + _("Your hand:") + "\n" + card_list(table, data["dealt"])
    return text


def _draw(r: _Reading) -> str:
    data = r.data
    if "card" in data and data["visible"]:
        you, other = N_("You draw and show everyone {card}"), N_("{name} draws and shows everyone {card}")
        return r.line(you, other, card=card_full(r.card()))
    if "card" in data:
        return _("You draw {card}").format(card=card_full(r.card()))
    return r.line(N_("You draw a card."), N_("{name} draws a card."))


def _refill(r: _Reading) -> str:
    return _refilled(sum(1 for d in r.event.deltas if d[0] == "move"))


def _play(r: _Reading) -> str:
    data, played = r.data, r.card()
    if data.get("onto"):
        target = card_label(r.cards[data["onto"]])
        words = card_text(played)
        if words:
            you, other = N_("You play {card} on {target}: {text}"), N_("{name} plays {card} on {target}: {text}")
            return r.line(you, other, card=card_name(played), target=target, text=words)
        you, other = N_("You play {card} on {target}."), N_("{name} plays {card} on {target}.")
        return r.line(you, other, card=card_name(played), target=target)
    return r.line(N_("You play {card}"), N_("{name} plays {card}"), card=card_full(played))


def _use(r: _Reading) -> str:
    you, other = N_("You use the Action of {card}"), N_("{name} uses the Action of {card}")
    return r.line(you, other, card=card_full(r.card()))


def _discard(r: _Reading) -> str:
    label = card_label(r.card())
    if r.data.get("random"):
        you, other = N_("You discard a random card: {card}."), N_("{name} discards a random card: {card}.")
        return r.line(you, other, card=label)
    return r.line(N_("You discard {card}."), N_("{name} discards {card}."), card=label)


def _destroy(r: _Reading) -> str:
    card = _card_of(r.table, r.data["owner"], r.viewer, r.actor, card_label(r.card()))
    return r.line(N_("You destroy {card}."), N_("{name} destroys {card}."), card=card)


def _hidden_label(data: dict[str, Any]) -> str:
    """The label of the event's face-down card that the viewer may not see."""
    return next(label_text(label) for number, label, *_unused in data["face_down"] if number is None)


def _give(r: _Reading) -> str:
    table, viewer, data, actor = r.table, r.viewer, r.data, r.actor
    to = data["to"]
    source = _source(table, r.event, viewer)
    if "card" not in data:
        card = _card_of(table, data["source_owner"], viewer, actor, _hidden_label(data))
        hand = _("your hand") if to == viewer else _("{name}'s hand").format(name=table.name_of(to))
        return r.line(N_("You move {card} into {hand}."), N_("{name} moves {card} into {hand}."), card=card, hand=hand)
    label = card_label(r.card())
    if data["thing"]:
        if to == actor:
            where = ""
        elif to == viewer:
            where = " " + _("for you")
        else:
            where = " " + _("for {name}").format(name=table.name_of(to))
        # The card's text after the sentence, as play shows it: mid-sentence it read as part of it.
        face = card_text(r.card())
        if face:
            # Translators: {where} is whom the card is put into play for (" for Bo"), {source} where it came
            # from (" from the draw pile"), each with a space before it, or nothing; {text} is the card's words.
            you = N_("You put {card} into play{where}{source}: {text}")
            # Translators: as the line before, with the name of the player who moves the card.
            other = N_("{name} puts {card} into play{where}{source}: {text}")
        else:
            # Translators: {where} is whom the card is put into play for (" for Bo"), {source} where it came
            # from (" from the draw pile"), each with a space before it, or nothing.
            you = N_("You put {card} into play{where}{source}.")
            # Translators: as the line before, with the name of the player who moves the card.
            other = N_("{name} puts {card} into play{where}{source}.")
        return r.line(you, other, card=label, where=where, source=source, text=face)
    if to == actor:
        # Translators: {source} is where the card came from, with a space before it (" from the draw pile"), or nothing.
        return r.line(N_("You take {card}{source}."), N_("{name} takes {card}{source}."), card=label, source=source)
    if to == viewer:
        # Translators: {source} is where the card came from, with a space before it (" from the draw pile"), or nothing.
        return _("{name} gives {card} to you{source}.").format(name=r.name, card=label, source=source)
    # Translators: {source} is where the card came from, with a space before it (" from the draw pile"), or nothing.
    you, other = N_("You give {card} to {player}{source}."), N_("{name} gives {card} to {player}{source}.")
    return r.line(you, other, card=label, player=table.name_of(to), source=source)


def _takerand(r: _Reading) -> str:
    table, viewer, data = r.table, r.viewer, r.data
    if "card" not in data:
        you, other = (
            N_("You take a random card from {player}'s hand."),
            N_("{name} takes a random card from {player}'s hand."),
        )
        return r.line(you, other, player=data["name"])
    label = card_label(r.card())
    if data["player"] == viewer:
        return _("{name} takes {card} from your hand at random.").format(name=r.name, card=label)
    you, other = (
        N_("You take {card} from {player}'s hand at random."),
        N_("{name} takes {card} from {player}'s hand at random."),
    )
    return r.line(you, other, card=label, player=table.name_of(data["player"]))


def _shuffle(r: _Reading) -> str:
    count = r.data["count"]
    if r.you:
        shuffled = ngettext(
            "You shuffle the discard pile ({n} card) into the draw pile.",
            "You shuffle the discard pile ({n} cards) into the draw pile.",
            count,
        )
    else:
        shuffled = ngettext(
            "{name} shuffles the discard pile ({n} card) into the draw pile.",
            "{name} shuffles the discard pile ({n} cards) into the draw pile.",
            count,
        )
    return shuffled.format(name=r.name, n=count)


def _shufcard(r: _Reading) -> str:
    table, viewer, data = r.table, r.viewer, r.data
    if "card" not in data and data.get("face_down"):
        card = _card_of(table, data["source_owner"], viewer, r.actor, _hidden_label(data))
        return r.line(
            N_("You shuffle {card} into the draw pile."), N_("{name} shuffles {card} into the draw pile."), card=card
        )
    source = _source(table, r.event, viewer)
    if "card" not in data:
        # Translators: {source} is where the card came from, with a space before it (" from the draw pile"), or nothing.
        you = N_("You shuffle a card{source} into the draw pile.")
        # Translators: {source} is where the card came from, with a space before it (" from the draw pile"), or nothing.
        other = N_("{name} shuffles a card{source} into the draw pile.")
        return r.line(you, other, source=source)
    # Translators: {source} is where the card came from, with a space before it (" from the draw pile"), or nothing.
    you = N_("You shuffle {card} into the draw pile{source}.")
    # Translators: {source} is where the card came from, with a space before it (" from the draw pile"), or nothing.
    other = N_("{name} shuffles {card} into the draw pile{source}.")
    return r.line(you, other, card=card_label(r.card()), source=source)


def _facedown(r: _Reading) -> str:
    label = label_text(r.data["label"])
    if "card" in r.data:
        return _("You play {card} face down: the others see it as {label}.").format(
            card=card_label(r.card()), label=label
        )
    return r.line(N_("You play a card face down: {label}."), N_("{name} plays a card face down: {label}."), label=label)


def _flip(r: _Reading) -> str:
    data = r.data
    card = _card_of(r.table, data["owner"], r.viewer, r.actor, label_text(data["label"]))
    text = r.line(
        N_("You turn up {card}: {face}"), N_("{name} turns up {card}: {face}"), card=card, face=card_full(r.card())
    )
    if data.get("discarded"):
        text += "\n  " + _("It is an Action: it goes to the discard pile.")
    return text


def _draw_pile_of(r: _Reading) -> str:
    """The draw pile the event is about: "the draw pile", or in a multi-deck game whose it
    is ("your own draw pile")."""
    owner = r.data["owner"]
    if owner == NO_OWNER:
        return _("the draw pile")
    if owner == r.actor:
        return _("your own draw pile") if owner == r.viewer else _("their own draw pile")
    if owner == r.viewer:
        return _("your draw pile")
    return _("{name}'s draw pile").format(name=r.table.name_of(owner))


def _putcard(r: _Reading) -> str:
    data = r.data
    what = card_label(r.card()) if "card" in data else _("a card")
    pile = _draw_pile_of(r)
    depth, size = data["depth"], data["size"]
    if depth == 1:
        where = _("on top of {pile}").format(pile=pile)
    elif depth == size:
        where = _("at the bottom of {pile}").format(pile=pile)
    else:
        above = ngettext("into {pile}, with {n} card above it", "into {pile}, with {n} cards above it", depth - 1)
        where = above.format(pile=pile, n=depth - 1)
    # Translators: {source} is where the card came from, with a space before it (" from the draw pile"), or
    # nothing; {where} is where in the draw pile it goes ("on top of the draw pile").
    you = N_("You put {card}{source} {where}.")
    # Translators: as the line before, with the name of the player who moves the card.
    other = N_("{name} puts {card}{source} {where}.")
    return r.line(you, other, card=what, source=_source(r.table, r.event, r.viewer), where=where)


def _reorder(r: _Reading) -> str:
    data = r.data
    count = data["count"]
    if r.you:
        reordered = ngettext(
            "You reorder the top {n} card of {pile}.", "You reorder the top {n} cards of {pile}.", count
        )
    else:
        reordered = ngettext(
            "{name} reorders the top {n} card of {pile}.", "{name} reorders the top {n} cards of {pile}.", count
        )
    text = reordered.format(name=r.name, n=count, pile=_draw_pile_of(r))
    if "cards" in data:
        text += " " + _("Now on top, top first:") + "\n" + card_list(r.table, data["cards"])
    return text


def _viewhand(r: _Reading) -> str:
    data = r.data
    if data["player"] == r.viewer:
        return r.line(N_("You look at your hand."), N_("{name} looks at your hand."))
    return r.line(N_("You look at {player}'s hand."), N_("{name} looks at {player}'s hand."), player=data["name"])


def _viewdraw(r: _Reading) -> str:
    return r.line(N_("You look through the draw pile."), N_("{name} looks through the draw pile."))


def _endturn_or_skip(r: _Reading) -> str:
    table, viewer, data, actor = r.table, r.viewer, r.data, r.actor
    if r.kind == "endturn":
        text = r.line(N_("You end the turn."), N_("{name} ends the turn."))
    elif data["player"] == actor:
        text = r.line(N_("You skip your own turn."), N_("{name} skips their own turn."))
    elif data["player"] == viewer:
        text = _("{name} skips your turn.").format(name=r.name)
    else:
        you, other = N_("You skip {player}'s turn."), N_("{name} skips {player}'s turn.")
        text = r.line(you, other, player=table.name_of(data["player"]))
    return text + _turn_passes(table, data["next"], viewer)


def _turn_passes(table: Table, following: int | None, viewer: int) -> str:
    """Whose turn it is now, after a move that passed the turn on (``following``: the
    player whose turn begins; None or nobody: it passed to no one), with a space before it."""
    if following == viewer:
        yours = (
            _("It is now your turn: draw a card to begin.") if table.settings["draws"] else _("It is now your turn.")
        )
        return f" {yours}"
    if following is not None and following != NO_OWNER:
        return " " + _("It is now {name}'s turn.").format(name=table.name_of(following))
    return ""


def _eliminate(r: _Reading) -> str:
    table, viewer, data, actor = r.table, r.viewer, r.data, r.actor
    if data["player"] == actor:
        text = r.line(N_("You resign from the game."), N_("{name} resigns from the game."))
    elif data["player"] == viewer:
        text = _("{name} eliminates you from the game.").format(name=r.name)
    else:
        you, other = N_("You eliminate {player} from the game."), N_("{name} eliminates {player} from the game.")
        text = r.line(you, other, player=table.name_of(data["player"]))
    if data.get("discarded"):
        text += _cards_discarded(table, data, viewer)
    return text + _turn_passes(table, data.get("next"), viewer)


def _win(r: _Reading) -> str:
    return r.line(N_("You declare the game won."), N_("{name} declares the game won."))


def _endgame(r: _Reading) -> str:
    return r.line(N_("You end the game."), N_("{name} ends the game."))


def _build(r: _Reading) -> str:
    data = r.data
    size = ngettext("({n} card in all)", "({n} cards in all)", data["size"]).format(n=data["size"])
    brought = data.get("brought")
    # An imported deck is brought under the name "pasted" (commands.dvorak.building).
    pasted = brought == PASTED_DECK
    if not r.you:
        if brought:
            changed = _("{name} brings a pasted deck {size}.") if pasted else _("{name} brings a saved deck {size}.")
        else:
            changed = _("{name} changes their deck {size}.")
        return changed.format(name=r.name, size=size)
    if brought:
        mine = _("You bring the deck you pasted {size}.") if pasted else _("You bring your deck {deck} {size}.")
        return mine.format(deck=brought, size=size)
    if data.get("cleared"):
        return _("You empty your deck.")
    card = card_name(r.card())
    if data.get("added"):
        added = ngettext(
            "You add {n} copy of {card} to your deck {size}.",
            "You add {n} copies of {card} to your deck {size}.",
            data["added"],
        )
        return added.format(n=data["added"], card=card, size=size)
    removed = ngettext(
        "You take {n} copy of {card} out of your deck {size}.",
        "You take {n} copies of {card} out of your deck {size}.",
        data["removed"],
    )
    return removed.format(n=data["removed"], card=card, size=size)


def _away(r: _Reading) -> str:
    you = N_("You were away too long: votes are counted without you until you are back.")
    other = N_("{name} has been away too long: votes are counted without {name} until {name} is back.")
    return r.line(you, other)


def _back(r: _Reading) -> str:
    return r.line(N_("You are back and vote again."), N_("{name} is back and votes again."))


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
    if render is not None:
        text = render(reading)
    else:
        you, other = N_("You did something ({kind})."), N_("{name} did something ({kind}).")
        text = reading.line(you, other, kind=event.kind)
    # What leaving play took with it follows the sentence that made it leave: the move's
    # own, or the decision (an accepted removal) when the event decided a vote.
    attached_note = _attached_note(table, data.get("destroyed", []), "discarded" in data)
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
        text += f"\n*** {shown(data['result'])} ***"
    return text


def _out_of_cards(table: Table, kind: str, data: dict[str, Any], viewer: int) -> str:
    """Who went out holding no card once none were left to draw (seed 003), and, unless
    the move's own sentence said so, whose turn it is now."""
    mine = table.state.seat(viewer) is not None and table.name_of(viewer)
    names = data["out_of_cards"]
    if names == [mine]:
        text = _("No cards are left to draw: you hold none, and are out of the game.")
    elif len(names) == 1:
        text = _("No cards are left to draw: {names} holds none, and is out of the game.").format(names=names[0])
    else:
        who = _all_of([_("you") if name == mine else name for name in names])
        text = _("No cards are left to draw: {names} hold none, and are out of the game.").format(names=who)
    if kind not in ("endturn", "skip", "eliminate") and "next" in data and not data.get("result"):
        text += _turn_passes(table, data["next"], viewer)
    return text


def _all_of(names: list[str]) -> str:
    """``a and b``, ``a and b and c``."""
    text = names[0]
    for name in names[1:]:
        text = _("{names} and {last}").format(names=text, last=name)
    return text


def _with_forced_note(text: str) -> str:
    """``text`` with :data:`FORCED_NOTE` after the move's own sentence: the end of its
    first line, or, when that line introduces a list ("Now on top, top first:"), the
    sentence before; never after the last card of a list."""
    note = f" {_(FORCED_NOTE)}"
    line, newline, rest = text.partition("\n")
    if not newline:
        return text + note
    if line.endswith(":"):
        end = line.rfind(". ")
        if end < 0:
            return text + note
        return line[: end + 1] + note + line[end + 1 :] + newline + rest
    return line + note + newline + rest


def _face_down_note(table: Table, kind: str, data: dict[str, Any]) -> str:
    """Which face-down cards that left play (or were turned up as the game ended) the
    viewer now learns."""
    cards = table.state.cards
    notes = [
        _("{card} was {label}.").format(card=card_label(cards[number]), label=label_text(label))
        for number, label, *_unused in data.get("face_down", [])
        if number is not None
    ]
    notes += [
        _("{label} of {name} is turned up: {card}.").format(
            label=label_text(label), name=table.name_of(owner), card=card_label(cards[number])
        )
        for number, label, owner in data.get("turned_up", [])
    ]
    return "".join(f"\n  {note}" for note in notes)


def _attached_note(table: Table, destroyed: list[int], on_them: bool) -> str:
    """What Things leaving play took with them: the cards played on them (``on_them``: on
    several), or on it, now discarded."""
    if not destroyed:
        return ""
    labels = ", ".join(card_label(table.state.cards[n]) for n in destroyed)
    if on_them:
        note = ngettext(
            "Played on them, {cards} also goes to the discard pile.",
            "Played on them, {cards} also go to the discard pile.",
            len(destroyed),
        )
    else:
        note = ngettext(
            "Played on it, {cards} also goes to the discard pile.",
            "Played on it, {cards} also go to the discard pile.",
            len(destroyed),
        )
    return " " + note.format(cards=labels)


def _deck_handed_over(table: Table, data: dict, viewer: int) -> str:
    """Where the own deck of a player who left a multi-deck table went ("" if nowhere)."""
    mine, leaver = data["player"] == viewer, data["name"]
    shared = data.get("deck_shared")
    if shared:
        if mine:
            went = ngettext(
                "The {n} card of your own deck go into the shared draw pile, to be dealt out at the next start.",
                "The {n} cards of your own deck go into the shared draw pile, to be dealt out at the next start.",
                shared,
            )
        else:
            went = ngettext(
                "The {n} card of {name}'s own deck go into the shared draw pile, to be dealt out at the next start.",
                "The {n} cards of {name}'s own deck go into the shared draw pile, to be dealt out at the next start.",
                shared,
            )
        return " " + went.format(n=shared, name=leaver)
    shares = data.get("deck_shares")
    if not shares:
        return ""
    count = sum(share for _unused, share in shares)
    if len(shares) == 1:
        taker = shares[0][0]
        if mine:
            went = ngettext(
                "The {n} card of your own deck go to {taker}'s discard pile.",
                "The {n} cards of your own deck go to {taker}'s discard pile.",
                count,
            )
        elif taker == viewer:
            went = ngettext(
                "The {n} card of {name}'s own deck go to your discard pile.",
                "The {n} cards of {name}'s own deck go to your discard pile.",
                count,
            )
        else:
            went = ngettext(
                "The {n} card of {name}'s own deck go to {taker}'s discard pile.",
                "The {n} cards of {name}'s own deck go to {taker}'s discard pile.",
                count,
            )
        return " " + went.format(n=count, name=leaver, taker=table.name_of(taker))
    parts = ", ".join(
        (_("{n} to you") if taker == viewer else _("{n} to {name}")).format(n=share, name=table.name_of(taker))
        for taker, share in shares
    )
    if mine:
        went = ngettext(
            "The {n} card of your own deck go to the discard piles of the others: {shares}.",
            "The {n} cards of your own deck go to the discard piles of the others: {shares}.",
            count,
        )
    else:
        went = ngettext(
            "The {n} card of {name}'s own deck go to the discard piles of the others: {shares}.",
            "The {n} cards of {name}'s own deck go to the discard piles of the others: {shares}.",
            count,
        )
    return " " + went.format(n=count, name=leaver, shares=parts)


def _cards_discarded(table: Table, data: dict, viewer: int) -> str:
    """What went to the discard pile from the hand and play area of a player who left
    (in a CCG game their own copies, wherever they were, go back to their deck)."""
    count, mine = data["discarded"], data["player"] == viewer
    if table.ccg:
        if mine:
            return " " + _("The copies of your deck go back to it; anything else you held goes to the discard pile.")
        return " " + _("The copies of their deck go back to it; anything else they held goes to the discard pile.")
    if mine:
        discarded = ngettext(
            "{n} card from your hand and play area goes to the discard pile.",
            "{n} cards from your hand and play area go to the discard pile.",
            count,
        )
    else:
        discarded = ngettext(
            "{n} card from their hand and play area goes to the discard pile.",
            "{n} cards from their hand and play area go to the discard pile.",
            count,
        )
    return " " + discarded.format(n=count)


def _refilled(count: int) -> str:
    refilled = ngettext(
        "The draw pile is empty: the discard pile ({n} card) is shuffled into a new draw pile.",
        "The draw pile is empty: the discard pile ({n} cards) is shuffled into a new draw pile.",
        count,
    )
    return refilled.format(n=count)


def _how_to_vote(table: Table, number: int, viewer: int) -> str:
    """How to vote on ``number``, for a ``viewer`` who may vote on it."""
    if table.state.pending_for(number) is None or viewer not in table.voters():
        return ""
    return "\n  " + _("Vote with: approve {number}   or   repeal {number}").format(number=number)


def _decision(table: Table, decision: dict) -> str:
    cards = table.state.cards
    accepted = decision["accepted"]
    lines = []
    for number, kind in decision["proposals"]:
        label = card_label(cards[number])
        rule = cards[number].is_rule
        if not accepted and kind == "remove":
            if rule:
                stays = _("The proposal to remove {card} is rejected: the rule stays in force.")
            else:
                stays = _("The proposal to remove {card} is rejected: the card stays in the game.")
            lines.append(f"*** {stays.format(card=label)}")
            continue
        if not accepted and kind == "edit":
            if rule:
                kept = _("The change to {card} is rejected: the rule keeps its words.")
            else:
                kept = _("The change to {card} is rejected: the card keeps its words.")
            lines.append(f"*** {kept.format(card=label)}")
            continue
        in_set = bool(decision.get("set"))
        if not accepted:
            after = [_("It goes to the rejected pile.")]
        elif kind == "card":
            after = [_("It joins the card set.") if in_set else _("It is shuffled into the draw pile.")]
        elif kind == "rule":
            after = [_("The rule is in force.")]
        elif kind == "edit":
            after = [_("It now reads: {card}").format(card=card_full(cards[number]))]
            after += [_("Every copy in every deck reads the same.")] if in_set else []
        else:
            after = [_("It is removed from the game.")]
            after += [_("Its copies leave every deck.")] if in_set else []
        if accepted:
            decided = _("The vote on {card} is decided: accepted.")
        else:
            decided = _("The vote on {card} is decided: rejected.")
        lines.append("*** " + " ".join([decided.format(card=label), *after]))
    return "\n".join(lines)


#: What each kind of proposal is, before the card it is about.
_PROPOSAL_KINDS = {
    "card": N_("new card {card}"),
    "rule": N_("new rule {card}"),
    "edit": N_("change to {card}"),
    "remove": N_("removal of {card}"),
}


def render_proposal(
    table: Table, group: list[Proposal], detailed: bool, author: Callable[[int, str], str] = lambda _, name: name
) -> str:
    """A pending proposal (or bundle): what it is, and (detailed) who voted how."""
    cards = table.state.cards
    lines = []
    for proposal in group:
        subject = cards[proposal.subject]
        line = "  " + _(_PROPOSAL_KINDS[proposal.kind]).format(
            card=card_full(subject) if detailed else card_label(subject)
        )
        if proposal.kind == "edit" and proposal.face is not None:
            proposed = Card(subject.number, proposal.face["name"], proposal.face["kind"], proposal.face["text"])
            words = card_full(proposed) if detailed else card_label(proposed)
            line += "\n    " + _("proposed words: {card}").format(card=words)
        lines.append(line)
    votes = group[0].votes
    voters = table.voters()
    approve = [table.name_of(a) for a in voters if votes.get(a) == APPROVE]
    reject = [table.name_of(a) for a in voters if votes.get(a) == REJECT]
    waiting = [table.name_of(a) for a in voters if a not in votes]
    if len(group) > 1:
        lines.insert(0, "  " + _("bundle of {cards}:").format(cards=", ".join(f"#{p.subject}" for p in group)))
    if detailed:
        proposers: dict[int, str] = {}
        for proposal in group:
            proposers.setdefault(proposal.proposer, author(proposal.proposer, proposal.proposer_name))
        votes_line = _("proposed by {names}; approve: {approve}; repeal: {repeal}; yet to vote: {waiting}").format(
            names=", ".join(proposers.values()),
            approve=", ".join(approve) or "-",
            repeal=", ".join(reject) or "-",
            waiting=", ".join(waiting) or "-",
        )
        lines.append(f"    {votes_line}{_time_left(table, group)}")
    else:
        lines[-1] += " " + _("({approving} of {voters} approve)").format(approving=len(approve), voters=len(voters))
    return "\n".join(lines)


def _time_left(table: Table, group: list[Proposal]) -> str:
    """How long the vote on ``group`` stays open ("" if it has no vote time)."""
    votetime = table.settings["votetime"]
    opened = [table.state.vote_opened[p.id] for p in group if p.id in table.state.vote_opened]
    if not votetime or not opened:
        return ""
    left = max(0, round(max(opened) + votetime - table.clock()))
    return "; " + _("time left: {minutes}m {seconds}s").format(minutes=left // 60, seconds=f"{left % 60:02d}")


def _held(cards: int) -> str:
    """How many cards a seat holds, as the table's column shows it (`` 3 cards``), as
    wide as any count of two figures."""
    widest = max(shown_width(ngettext("{n} card", "{n} cards", n).format(n="00")) for n in (1, 2, 5))
    return ljust(ngettext("{n} card", "{n} cards", cards).format(n=f"{cards:>2}"), widest)


def render_table(room: GameRoom, table: Table, viewer: int, away: set[int], watching: list[str]) -> str:
    """The table as ``look`` draws it for ``viewer``, from what everyone may see of it
    (:func:`commands.dvorak.summary.summarise`)."""
    summary = summarise(room, table, away, watching)
    state, settings, phase = table.state, summary.settings, summary.phase
    if phase == PLAYING:
        status = _("playing, turn {n}").format(n=state.turn.number)
    elif phase == OVER:
        status = _("game over")
    else:
        status = _("waiting to start")
    heading = _("Room {room}: Dvorak, {status}. Host: {host}.")
    lines = [heading.format(room=summary.room, status=status, host=summary.host or _("nobody"))]
    if summary.result and phase != PLAYING:
        lines.append(_("Last game: {result}").format(result=shown(summary.result)))
    if summary.seats:
        lines.append(_("Seats, in turn order:"))
        for seat in summary.seats:
            notes = []
            if seat.team:
                notes.append(_("team {team}").format(team=seat.team))
            if seat.out:
                notes.append(_("out"))
            if seat.away:
                notes.append(_("away"))
            if seat.account_id == viewer:
                notes.append(_("you"))
            if seat.deck is not None:
                notes.append(ngettext("deck of {n} card", "deck of {n} cards", seat.deck).format(n=seat.deck))
            lines.append(
                f" {'>' if seat.current else ' '} {seat.name:<20} {_held(seat.cards)}"
                + (f"  ({', '.join(notes)})" if notes else "")
            )
    else:
        lines.append(_("Nobody is seated."))
    in_play = [seat for seat in summary.seats if seat.in_play or seat.face_down]
    if in_play:
        lines.append(_("In play:"))
        for seat in in_play:
            things = [
                _("{card} on #{number}").format(card=card_label(card), number=card.attached_to)
                if card.attached_to
                else card_label(card)
                for card in seat.in_play
            ]
            things += [face_down_line(table, label, viewer) for label in seat.face_down]
            lines.append(f"  {seat.name}: " + ", ".join(things))
    lines.append(_piles_line(summary))
    if summary.card_set is not None:
        version, size = summary.card_set
        card_set = ngettext(
            "The CCG game: a card set of {n} card, version {version} (viewset, deckbuild).",
            "The CCG game: a card set of {n} cards, version {version} (viewset, deckbuild).",
            size,
        )
        lines.append(card_set.format(n=size, version=version))
    if summary.rules:
        lines.append(_("Special rules:"))
        lines += [f"  {card_full(card)}" for card in summary.rules]
    if state.proposals:
        lines.append(_("Waiting for a vote (viewvote for details):"))
        listed_already: set[int] = set()
        for proposal in state.proposals.values():
            if proposal.id not in listed_already:
                group = state.bundle_of(proposal)
                listed_already.update(p.id for p in group)
                lines.append(render_proposal(table, group, detailed=False))
    turn = summary.turn
    if turn is not None:
        if turn.player == viewer:
            whose = _("Your turn: drawn {drawn} of {draws}, Things {things} of {plays}, Actions {actions} of {most}.")
        else:
            whose = _(
                "{name}'s turn: drawn {drawn} of {draws}, Things {things} of {plays}, Actions {actions} of {most}."
            )
        lines.append(
            whose.format(
                name=summary.turn_player,
                drawn=turn.drawn,
                draws=settings["draws"],
                things=turn.things,
                plays=settings["plays"],
                actions=turn.actions,
                most=settings["actions"],
            )
        )
    if summary.watching:
        lines.append(_("Watching: {names}.").format(names=", ".join(summary.watching)))
    changed = [
        f"{name}={spec.show(settings[name])}" for name, spec in SETTINGS.items() if settings[name] != spec.default
    ]
    if changed:
        lines.append(_("Settings changed from the defaults: {settings}.").format(settings=", ".join(changed)))
    return "\n".join(lines)


def face_down_line(table: Table, label: str, viewer: int) -> str:
    """A face-down card in play as ``viewer`` sees it: its label, and to its owner what it is."""
    number = table.face_down_number(label)
    card = table.state.cards[number]
    if card.owner == viewer:
        return _("{card} (face down: the others see {label})").format(card=card_label(card), label=label_text(label))
    return label_text(label)


def _piles_line(summary: TableSummary) -> str:
    def piles(name: str, pile: PileSummary) -> str:
        if pile.discard_top:
            text = _("{name}: draw {draw}, discard {discard}, top {card}")
        else:
            text = _("{name}: draw {draw}, discard {discard}")
        card = card_label(pile.discard_top) if pile.discard_top else ""
        return text.format(name=name, draw=pile.draw, discard=pile.discard, card=card)

    if summary.multideck:
        parts = [piles(seat.name, summary.piles[seat.account_id]) for seat in summary.seats]
        shared = summary.piles.get(NO_OWNER)
        if shared is not None:
            parts.append(_("shared, dealt out at the start: draw {draw}").format(draw=shared.draw))
        return _("Piles: {piles}.").format(piles="; ".join(parts))
    pile = summary.piles[NO_OWNER]
    draw = ngettext("Draw pile: {n} card.", "Draw pile: {n} cards.", pile.draw).format(n=pile.draw)
    if pile.discard_top:
        discard = ngettext("Discard pile: {n} card, top {card}.", "Discard pile: {n} cards, top {card}.", pile.discard)
    else:
        discard = ngettext("Discard pile: {n} card.", "Discard pile: {n} cards.", pile.discard)
    top = card_label(pile.discard_top) if pile.discard_top else ""
    return f"{draw} {discard.format(n=pile.discard, card=top)}"
