"""The rules of Dvorak as moves on a table: each move checks the rules, then changes the
table through deltas grouped into events. No I/O: callers store and announce the events.

With ``turns`` on, the basic turn rules apply (draw, then at most one Thing and one
Action, discard down to the hand limit, endturn); cards override the basic rules, so
most moves can be forced, which skips the turn rules but never the facts of the table
(a card must be where the move says it is).

Readings
--------
Where the seeds (000 in Slovak, 002 in Spanish, 003 in Russian) leave a point open, this
table plays it as the rules help says, with the sentence of the seed it reads (``help
dvorak``: ``RULES_HELP`` in :mod:`commands.dvorak.game`, the one place it is written).
"""

from __future__ import annotations

import re
from dataclasses import replace

from games.base import Changes, Event, RuleViolation
from games.dvorak import settings as table_settings
from games.dvorak.core import TEAM_MAX, with_force_hint
from games.dvorak.deck import DeckMoves
from games.dvorak.draworder import DrawOrder
from games.dvorak.facedown import FaceDownMoves
from games.dvorak.state import (
    DECK_ZONES,
    DISCARD,
    DRAW,
    HAND,
    NO_OWNER,
    OVER,
    PLAY,
    PLAYING,
    Seat,
    Turn,
)
from games.dvorak.voting import Voting
from games.toolkit import change_refusal, find_setting
from i18n import N_, Said, Text, _, ngettext, said, stored

__all__ = ["Changes", "Event", "RuleViolation", "Table"]

#: How a game may end without a winner (``endgame <how>``), and what the table is told.
ENDINGS = {
    "": N_("The game ended without a winner."),
    "draw": N_("The game is a draw."),
    "stalemate": N_("Stalemate: nobody can win, so the game is over."),
    "boredom": N_("The game is abandoned out of boredom."),
}

#: "Action:" written on a Thing: its owner may use it instead of playing an Action.
_ACTION_ON_A_THING = re.compile(r"(?<![a-z])action\s*:", re.IGNORECASE)


class Table(Voting, DeckMoves, FaceDownMoves, DrawOrder):
    """A Dvorak table: its state and every move players make on it."""

    # -- seats -------------------------------------------------------------------------

    def sit(self, account_id: int, name: str) -> None:
        """Take a seat at the end of the turn order; mid-game, the newcomer is dealt a hand
        (in a CCG game, from the deck they built here, which must be fit to play)."""
        if self.state.seat(account_id) is not None:
            raise RuleViolation(_("You already have a seat here."))
        refusal = self.seat_refusal(account_id, name)
        if refusal is not None:
            raise RuleViolation(refusal)
        event = self._event("join", account_id, player=account_id, name=name)
        self._set_seats(event, [*self.state.seats, Seat(account_id, name)])
        if self.state.host == NO_OWNER:
            self._set(event, "host", account_id)
        if self.state.phase == PLAYING:
            if self.ccg:
                # A CCG player joins with the deck they built here (if any), shuffled.
                self._decks_into_play(event, [account_id])
                order = list(self.state.pile(DRAW, account_id))
                self.rng.shuffle(order)
                self._change(event, ["order", DRAW, account_id, order])
            self._deal(event, [account_id], self.settings["handsize"])
            if len(self.hand(account_id)) < self.settings["handsize"]:
                event.data["short"] = True
        self.recount_votes(event)

    def seat_refusal(self, account_id: int, name: str) -> str | None:
        """While a game is played: a player who gave up their seat in it is not dealt into
        it again, and in a CCG game a player whose deck cannot be played may not sit."""
        if self.state.phase != PLAYING:
            return None
        if account_id in self.state.left_game:
            return _(
                "You gave up your seat in the game being played here, so you cannot be dealt into it again: "
                "sit down again when it is over, and watch it meanwhile (watch)."
            )
        if self.ccg and self.deck_problems(account_id):
            refusal = _(
                "A CCG game is being played, and your deck cannot be: {problems}. Watch this one (watch), and build "
                "your deck between games."
            )
            return refusal.format(problems="; ".join(self.deck_problems(account_id)))
        return None

    def unseat(self, actor: int, account_id: int) -> None:
        """Give up a seat (``actor`` is the player) or remove one (``actor`` is the host);
        mid-game, the player's hand and Things go to the discard pile."""
        if actor != account_id:
            self._host(actor)
        seat = self.state.seat(account_id)
        if seat is None:
            raise RuleViolation(_("That player is not seated at this table."))
        event = self._event("leave" if actor == account_id else "kick", actor, player=account_id, name=seat.name)
        sides_before = len(self._sides())
        was_current = self.state.phase == PLAYING and self.state.turn.player == account_id
        following = self._next_player(account_id) if was_current else NO_OWNER
        self._clear_player_cards(event, account_id)
        remaining = [s for s in self.state.seats if s.account_id != account_id]
        self._set_seats(event, remaining)
        if self.state.phase == PLAYING:
            self._change(event, ["left-game", [*self.state.left_game, account_id]])
        self._hand_over_deck(event, account_id)
        if self.state.host == account_id:
            heir = remaining[0].account_id if remaining else NO_OWNER
            self._set(event, "host", heir)
            if remaining:
                event.data["heir"] = heir
        if self.state.phase == PLAYING:
            how = "resigned" if actor == account_id else "kicked"
            self._after_player_gone(event, was_current, following, sides_before, seat.name, how)
        self.recount_votes(event)

    def _hand_over_deck(self, event: Event, leaver: int) -> None:
        """A player has left: their own draw and discard piles (a multi-deck game's) stay
        at the table. While a game runs, the cards are dealt out face up to the discard
        piles of the players still in it, their draw pile shuffled first, and become those
        players' own; between games they go into the shared draw pile, to be dealt out at
        the next start. Cards of their deck that others hold or have in play become the
        holders' own. In a CCG game the leaver's copies, wherever they are, go back to
        their deck."""
        if self.ccg:
            self._decks_back(event, leaver)
            return
        for card in list(self.state.cards.values()):
            if card.zone in DECK_ZONES and card.deck_owner == leaver and card.owner != leaver:
                self._change(event, ["deck", card.number, card.owner])
        draw = list(self.state.pile(DRAW, leaver))
        self.rng.shuffle(draw)
        cards = draw + list(self.state.pile(DISCARD, leaver))
        if not cards:
            return
        takers = [s.account_id for s in self.state.active_seats() or self.state.seats]
        if self.state.phase != PLAYING or not takers:
            event.data["deck_shared"] = len(cards)
            for number in cards:
                self._change(event, ["deck", number, NO_OWNER])
                self._move(event, number, DRAW, NO_OWNER)
            return
        shares = dict.fromkeys(takers, 0)
        for index, number in enumerate(cards):
            taker = takers[index % len(takers)]
            shares[taker] += 1
            self._change(event, ["deck", number, taker])
            self._move(event, number, DISCARD, taker)
        event.data["deck_shares"] = [[taker, count] for taker, count in shares.items() if count]

    def set_host(self, actor: int, account_id: int) -> None:
        self._host(actor)
        seat = self._target(account_id)
        event = self._event("host", actor, player=account_id, name=seat.name)
        self._set(event, "host", account_id)

    def set_team(self, actor: int, account_id: int, team: str) -> None:
        self._host(actor)
        team = team.strip()
        if len(team) > TEAM_MAX:
            raise RuleViolation(_("A team name is at most {n} characters.").format(n=TEAM_MAX))
        seat = self._target(account_id)
        if seat.team == team:
            if account_id == actor:
                refusal = _("You are already on team {team}.") if team else _("You are on no team.")
            else:
                refusal = _("{name} is already on team {team}.") if team else _("{name} is on no team.")
            raise RuleViolation(refusal.format(name=seat.name, team=team))
        event = self._event("team", actor, player=account_id, name=seat.name, team=team)
        self._set_seats(event, [replace(s, team=team) if s.account_id == account_id else s for s in self.state.seats])

    def change_setting(self, actor: int, name: str, raw: str) -> None:
        self._host(actor)
        spec = find_setting(table_settings.SETTINGS, name)
        value = spec.parse(raw)
        refusal = change_refusal(spec, self.state.phase, N_("games"))
        if refusal is not None:
            raise RuleViolation(refusal)
        event = self._event("setting", actor, name=spec.name, value=spec.show(value))
        if spec.name == "ccg" and bool(value) != self.ccg:
            self._switch_ccg(event, bool(value))
        self._change(event, ["setting", spec.name, value])
        if spec.name == "votetime" and value:
            self.restart_vote_clocks(event)

    # -- the game ----------------------------------------------------------------------

    def waiting_for(self) -> list[int]:
        """The player whose turn it is, in a game played in turns."""
        player = self.state.turn.player
        if self.state.phase != PLAYING or not self.settings["turns"] or self.state.seat(player) is None:
            return []
        return [player]

    def start(self, actor: int, forced: bool = False) -> None:
        """Shuffle every approved card into the draw pile, deal, and pick a first player.
        A deck too small to deal every player a full hand is dealt only when forced."""
        self._host(actor)
        if self.state.phase == PLAYING:
            raise RuleViolation(_("A game is already running (the host can end it with endgame)."))
        if not self.state.seats:
            raise RuleViolation(_("Nobody is seated here."))
        players = [seat.account_id for seat in self.state.seats]
        handsize = self.settings["handsize"]
        if self.ccg:
            self._ccg_start(actor, players, forced)
            return
        deck = self.deck_cards()
        if not deck:
            raise RuleViolation(_("The deck is empty: add cards first (loadcard <name>/<A|T>/<text>)."))
        short = len(deck) < handsize * len(players)
        if short and not forced:
            raise RuleViolation(_too_few_cards(len(deck), handsize, len(players)))
        event = self._begin_game(actor, players, forced, short)
        multideck = bool(self.settings["multideck"])
        self.rng.shuffle(deck)
        unowned = iter(range(len(deck)))
        for card in deck:
            deck_owner = NO_OWNER
            if multideck:
                # A player's own cards stay theirs; the shared deck is dealt out evenly.
                deck_owner = card.deck_owner if card.deck_owner in players else players[next(unowned) % len(players)]
            if card.deck_owner != deck_owner:
                self._change(event, ["deck", card.number, deck_owner])
            self._move(event, card.number, DRAW, deck_owner)
        self._shuffle_and_deal(event, players)

    def _ccg_start(self, actor: int, players: list[int], forced: bool) -> None:
        """A CCG game: every player's built deck becomes their own draw pile. Decks
        outside the set's limits play only when forced; votes are finished first (nobody
        may propose or vote on cards during a CCG game)."""
        if self.state.proposals:
            waiting = ", ".join(f"#{p.subject}" for p in self.state.proposals.values())
            refusal = _("Finish the votes on {cards} first: nobody votes on cards during a CCG game.")
            raise RuleViolation(refusal.format(cards=waiting))
        empty = [self.name_of(player) for player in players if not self.built(player)]
        if empty:
            refusal = _("No deck built yet: {names} (deckbuild add <card number>=<copies>).")
            raise RuleViolation(refusal.format(names=", ".join(empty)))
        unfit = self._decks_unfit(players)
        if unfit and not forced:
            refusal = _("{problems}. Build on (deckbuild), or play these decks anyway: force start")
            raise RuleViolation(refusal.format(problems="; ".join(unfit)))
        short = any(len(self.built(player)) < self.settings["handsize"] for player in players)
        event = self._begin_game(actor, players, forced, short)
        event.data["decks"] = True
        self._decks_into_play(event, players)
        self._shuffle_and_deal(event, players)

    def _begin_game(self, actor: int, players: list[int], forced: bool, short: bool) -> Event:
        """The start event: a first player picked, everyone seated back in, the game on."""
        first = self.rng.choice(players)
        handsize = self.settings["handsize"]
        event = self._event("start", actor, forced, first=first, handsize=handsize, players=players, short=short)
        self._set_seats(event, [replace(seat, out=False) for seat in self.state.seats])
        self._set(event, "phase", PLAYING)
        self._set(event, "result", "")
        return event

    def _shuffle_and_deal(self, event: Event, players: list[int]) -> None:
        """Shuffle each draw pile, deal every player a hand, and begin the first turn."""
        for owner in players if self.own_piles else [NO_OWNER]:
            order = list(self.state.pile(DRAW, owner))
            self.rng.shuffle(order)
            self._change(event, ["order", DRAW, owner, order])
        self._deal(event, players, self.settings["handsize"])
        self._set_turn(event, **vars(Turn(player=event.data["first"], number=1)))
        self.recount_votes(event)

    def _deal(self, event: Event, players: list[int], count: int) -> None:
        """Deal ``count`` cards to each of ``players`` in turn; a draw pile that runs out is
        refilled from its discard pile, as a draw does (with reshuffle on)."""
        for _unused in range(count):
            for player in players:
                owner = self.draw_key(player)[1]
                discard = self.state.pile(*self.discard_key(owner))
                if not self.state.pile(DRAW, owner) and discard and self.settings["reshuffle"]:
                    event.data["refilled"] = event.data.get("refilled", 0) + len(discard)
                    self._refill(event, owner)
                pile = self.state.pile(DRAW, owner)
                if pile:
                    self._move(event, pile[-1], HAND, player)

    def draw(self, actor: int, visible: bool = False, forced: bool = False) -> int:
        """Draw the top card of your draw pile; returns its number."""
        self._playing()
        self._not_halted(forced)
        self._seated(actor)
        self._own_turn(actor, "draw", forced)
        self._not_after_discarding(actor, "draw", forced)
        turn = self.state.turn
        if self._turn_rules(forced) and not self.settings["draws"]:
            raise RuleViolation(with_force_hint(_("Nobody draws at this table (draws is 0).")))
        if self._turn_rules(forced) and turn.drawn >= self.settings["draws"]:
            refusal = _("You have already drawn this turn (the rule is {n} a turn).").format(n=self.settings["draws"])
            raise RuleViolation(with_force_hint(refusal))
        draw_zone, owner = self.draw_key(actor)
        if not self.state.pile(draw_zone, owner):
            discard = self.state.pile(*self.discard_key(owner))
            if not discard:
                raise RuleViolation(_("The draw pile and the discard pile are both empty: there is nothing to draw."))
            if not self.settings["reshuffle"]:
                raise RuleViolation(_("The draw pile is empty (and reshuffle is off)."))
            self._refill(self._event("refill", actor, owner=owner), owner)
        top = self.state.pile(draw_zone, owner)[-1]
        event = self._event("draw", actor, forced, card=top, visible=visible)
        self._move(event, top, HAND, actor)
        if turn.player == actor:
            self._set_turn(event, drawn=turn.drawn + 1)
        return top

    def draw_many(self, actor: int, count: int, visible: bool = False, forced: bool = False) -> None:
        """Draw ``count`` cards, one draw each; if the turn's draws or the piles allow
        fewer, refuse the lot (the caller undoes a refused move, as every move's)."""
        turn, draws = self.state.turn, self.settings["draws"]
        if count > 1 and self._turn_rules(forced) and turn.player == actor and turn.drawn + count > draws:
            if turn.drawn:
                refusal = ngettext(
                    "Nothing was drawn: you may draw {n} card a turn, and {count} would be more (you have drawn "
                    "{drawn}).",
                    "Nothing was drawn: you may draw {n} cards a turn, and {count} would be more (you have drawn "
                    "{drawn}).",
                    draws,
                )
            else:
                refusal = ngettext(
                    "Nothing was drawn: you may draw {n} card a turn, and {count} would be more.",
                    "Nothing was drawn: you may draw {n} cards a turn, and {count} would be more.",
                    draws,
                )
            raise RuleViolation(with_force_hint(refusal.format(n=draws, count=count, drawn=turn.drawn)))
        for drawn_so_far in range(count):
            try:
                self.draw(actor, visible=visible, forced=forced)
            except RuleViolation as violation:
                if not drawn_so_far:
                    raise
                refusal = _("Nothing was drawn, since only {drawn} of the {count} cards could be: {refusal}")
                raise RuleViolation(refusal.format(drawn=drawn_so_far, count=count, refusal=violation)) from None

    def _refill(self, event: Event, owner: int) -> None:
        """The draw pile ran out: the discard pile is shuffled to make a new one."""
        order = list(self.state.pile(*self.discard_key(owner)))
        self.rng.shuffle(order)
        for number in order:
            self._move(event, number, DRAW, owner)

    def play(self, actor: int, number: int, onto: int | None = None, forced: bool = False) -> None:
        """Play a card from your hand: an Action to the discard pile, anything else into
        play in front of you (``onto`` another Thing to attach it)."""
        self._playing()
        self._not_halted(forced)
        self._seated(actor)
        card = self._in_hand(actor, number)
        host = None
        if onto is not None:
            host = self.card(onto)
            if host.zone != PLAY or self._hidden_from(actor, host):
                raise RuleViolation(_("#{number} is not in play, so nothing can be played on it.").format(number=onto))
            if onto in self.state.face_down:
                refusal = _("#{number} is face down: nothing can be played on it until it is turned up.")
                raise RuleViolation(refusal.format(number=onto))
            if card.is_action:
                raise RuleViolation(
                    _("#{number} is an Action; only Things are played on a Thing.").format(number=number)
                )
        self._own_turn(actor, "play cards", forced)
        no_draw = self._drawn_first(actor, forced)
        self._not_after_discarding(actor, "play cards", forced)
        turn = self.state.turn
        if card.is_action:
            if self._turn_rules(forced) and turn.actions >= self.settings["actions"]:
                raise RuleViolation(with_force_hint(_("You have already played an Action this turn.")))
        elif self._turn_rules(forced) and turn.things >= self.settings["plays"]:
            raise RuleViolation(with_force_hint(_("You have already played a Thing this turn.")))
        event = self._event("play", actor, forced, card=number, onto=onto)
        if no_draw:
            self._draw_counted(event)
            turn = self.state.turn
        if card.is_action:
            self._move(event, number, *self._discard_key_for(card))
        else:
            self._move(event, number, PLAY, actor)
            if host is not None:
                self._change(event, ["attach", number, host.number])
        if turn.player == actor:
            if card.is_action:
                self._set_turn(event, actions=turn.actions + 1)
            else:
                self._set_turn(event, things=turn.things + 1)

    def use(self, actor: int, number: int, forced: bool = False) -> None:
        """Use the "Action:" written on one of your Things instead of playing an Action
        (a Thing without one only when forced: a card may give it one)."""
        self._playing()
        self._not_halted(forced)
        self._seated(actor)
        card = self.card(number)
        if card.zone != PLAY or card.owner != actor:
            raise RuleViolation(_("#{number} is not one of your Things in play.").format(number=number))
        if number in self.state.face_down:
            raise RuleViolation(_("#{number} is face down: turn it up first (flip {number}).").format(number=number))
        if not forced and not _ACTION_ON_A_THING.search(card.text.replace("%r", "\n")):
            raise RuleViolation(with_force_hint(_('#{number} has no "Action:" written on it.').format(number=number)))
        self._own_turn(actor, "use a Thing's Action", forced)
        no_draw = self._drawn_first(actor, forced)
        self._not_after_discarding(actor, "use a Thing's Action", forced)
        turn = self.state.turn
        if self._turn_rules(forced) and turn.actions >= self.settings["actions"]:
            raise RuleViolation(with_force_hint(_("You have already played an Action this turn.")))
        event = self._event("use", actor, forced, card=number)
        if no_draw:
            self._draw_counted(event)
            turn = self.state.turn
        if turn.player == actor:
            self._set_turn(event, actions=turn.actions + 1)

    def discard(self, actor: int, number: int | None = None, forced: bool = False) -> int:
        """Discard a card from your hand (a random one when ``number`` is None)."""
        self._playing()
        self._not_halted(forced)
        self._seated(actor)
        hand = self.hand(actor)
        if number is None:
            if not hand:
                raise RuleViolation(_("Your hand is empty."))
            card = self.card(self.rng.choice(hand))
        else:
            card = self._in_hand(actor, number)
        self._own_turn(actor, "discard", forced)
        no_draw = self._drawn_first(actor, forced)
        limit = self.settings["handlimit"]
        if self._turn_rules(forced) and (limit == 0 or len(hand) <= limit):
            if limit:
                refusal = _("You may discard only to get down to the hand limit of {limit}; you hold {held}.")
            else:
                refusal = _("You may discard only to get down to the hand limit (there is none here).")
            raise RuleViolation(with_force_hint(refusal.format(limit=limit, held=len(hand))))
        event = self._event("discard", actor, forced, card=card.number, random=number is None)
        if no_draw:
            self._draw_counted(event)
        self._move(event, card.number, *self._discard_key_for(card))
        turn = self.state.turn
        if self._turn_rules(forced) and turn.player == actor:
            self._set_turn(event, discarded=turn.discarded + 1)
        return card.number

    def destroy(self, actor: int, number: int, forced: bool = False, by_label: bool = False) -> None:
        """Destroy a card in play: it and everything played on it go to the discard pile
        (``by_label``: named by its face-down label, as a face-down card of another's must be)."""
        self._playing()
        self._not_halted(forced)
        self._seated(actor)
        card = self.card(number)
        if card.zone != PLAY or (self._hidden_from(actor, card) and not by_label):
            raise RuleViolation(_("#{number} is not in play.").format(number=number))
        self._own_turn(actor, "destroy cards", forced)
        event = self._event("destroy", actor, forced, card=number, owner=card.owner)
        self._leave_play(event, card)
        self._move(event, number, *self._discard_key_for(card))

    def give(self, actor: int, number: int, to: int, as_thing: bool = False, forced: bool = False) -> None:
        """Move a card from wherever it is into a player's hand (or into play for them)."""
        self._playing()
        self._not_halted(forced)
        seat = self._seated(actor)
        card = self.card(number)
        self._in_deck(card)
        target = self._target(to)
        if as_thing and card.zone == PLAY and card.owner == to:
            # A move to where it is would be no move; and it would show a face-down card.
            raise RuleViolation(_("That card is already in play for {name}.").format(name=target.name))
        turn = self.state.turn
        team_gift = (
            bool(self.settings["teams"])
            and not as_thing
            and card.zone == HAND
            and card.owner == actor
            and to != actor
            and bool(seat.team)
            and target.team == seat.team
        )
        self._own_turn(actor, "move cards between players", forced)
        if not team_gift:
            self._moved_by_a_card(forced)
        self._not_after_discarding(actor, "give cards", forced)
        if team_gift and self._turn_rules(forced) and turn.gives >= 1:
            raise RuleViolation(with_force_hint(_("You have already given a card to a teammate this turn.")))
        if not as_thing and card.zone == HAND and card.owner == to == actor:
            # No move, and it would name a card of your hand to the whole table. (Only your
            # own hand: a refusal about another's would tell where one of their cards is.)
            raise RuleViolation(_("That card is already in your hand."))
        event = self._event(
            "give", actor, forced, card=number, to=to, thing=as_thing, source=card.zone, source_owner=card.owner
        )
        if not (as_thing and card.zone == PLAY):
            # A change of control keeps what is played on the Thing; leaving play does not.
            self._leave_play(event, card)
        self._move(event, number, PLAY if as_thing else HAND, to)
        if team_gift and turn.player == actor:
            self._set_turn(event, gives=turn.gives + 1)

    def take_random(self, actor: int, target: int, forced: bool = False) -> int:
        """Take a random card from another player's hand into yours (as Espionage-like
        cards say); returns its number. Only the two players are told which card. With
        turns on it is a card's doing, like any card moved between players: forced."""
        self._playing()
        self._not_halted(forced)
        self._seated(actor)
        if target == actor:
            raise RuleViolation(_("You cannot take a card from your own hand."))
        seat = self._target(target)
        hand = self.hand(target)
        if not hand:
            raise RuleViolation(_("{name}'s hand is empty: there is nothing to take.").format(name=seat.name))
        self._own_turn(actor, "take cards from other players", forced)
        self._moved_by_a_card(forced)
        number = self.rng.choice(hand)
        event = self._event("takerand", actor, forced, card=number, player=target, name=seat.name)
        self._move(event, number, HAND, actor)
        return number

    def shuffle_discard(self, actor: int, forced: bool = False) -> None:
        """Shuffle the discard pile into the draw pile."""
        self._playing()
        self._not_halted(forced)
        self._seated(actor)
        self._own_turn(actor, "shuffle", forced)
        owner = self.draw_key(actor)[1]
        discard = list(self.state.pile(*self.discard_key(owner)))
        if not discard:
            raise RuleViolation(_("The discard pile is empty."))
        event = self._event("shuffle", actor, forced, count=len(discard))
        for number in discard:
            self._move(event, number, DRAW, owner)
        order = list(self.state.pile(DRAW, owner))
        self.rng.shuffle(order)
        self._change(event, ["order", DRAW, owner, order])

    def shuffle_card(self, actor: int, number: int, forced: bool = False) -> None:
        """Shuffle one card, from wherever it is, into the draw pile (with turns on, only
        forced: a card must say so, as for any card moved between places)."""
        self._playing()
        self._not_halted(forced)
        self._seated(actor)
        card = self.card(number)
        self._in_deck(card)
        self._own_turn(actor, "shuffle cards", forced)
        self._moved_by_a_card(forced)
        owner = card.deck_owner if self.own_piles else NO_OWNER
        event = self._event("shufcard", actor, forced, card=number, source=card.zone, source_owner=card.owner)
        self._leave_play(event, card)
        pile = self.state.pile(DRAW, owner)
        self._move(event, number, DRAW, owner, self.rng.randint(0, len(pile)))

    def view_hand(self, actor: int, target: int, forced: bool = False) -> list[int]:
        """Look at another player's hand (with turns on, only forced: a card must allow
        it); the table is told."""
        self._playing()
        self._seated(actor)
        seat = self._target(target)
        if self._turn_rules(forced):
            refusal = _("With turns on, you may look at another player's hand only when a card allows it.")
            raise RuleViolation(with_force_hint(refusal))
        self._event("viewhand", actor, forced, player=target, name=seat.name)
        return list(self.hand(target))

    def view_draw(self, actor: int, forced: bool = False) -> list[int]:
        """Look through your draw pile, top first (with turns on, only forced: a card must
        allow it); the table is told."""
        self._playing()
        self._seated(actor)
        if self._turn_rules(forced):
            refusal = _("With turns on, you may look through the draw pile only when a card allows it.")
            raise RuleViolation(with_force_hint(refusal))
        event = self._event("viewdraw", actor, forced)
        pile = self.state.pile(*self.draw_key(actor))
        self._saw(event, actor, pile)
        return list(reversed(pile))

    def end_turn(self, actor: int, forced: bool = False) -> None:
        """End your turn; the next player in turn order begins theirs."""
        self._playing()
        self._not_halted(forced)
        self._seated(actor)
        if not self.settings["turns"]:
            raise RuleViolation(_("Turns are off at this table (the host can set turns=on)."))
        if self.state.turn.player != actor:
            raise RuleViolation(_("It is {name}'s turn, not yours.").format(name=self.name_of(self.state.turn.player)))
        limit = self.settings["handlimit"]
        held = len(self.hand(actor))
        if not forced and limit and held > limit:
            # More than the limit, which is at least 1: never one card.
            refusal = ngettext(
                "You hold {n} card; discard down to {limit} before ending your turn.",
                "You hold {n} cards; discard down to {limit} before ending your turn.",
                held,
            )
            raise RuleViolation(refusal.format(n=held, limit=limit))
        self._drawn_first(actor, forced)
        following = self._next_player(actor)
        event = self._event("endturn", actor, forced, next=following)
        self._begin_turn(event, following)

    def skip(self, actor: int, target: int, target_present: bool) -> None:
        """Pass the turn of a player who is away, counted as such (the host may pass
        anyone's)."""
        self._playing()
        self._seated(actor)
        if not self.settings["turns"]:
            raise RuleViolation(_("Turns are off at this table."))
        if self.state.turn.player != target:
            raise RuleViolation(_("It is not {name}'s turn.").format(name=self.name_of(target)))
        if target == actor:
            raise RuleViolation(_("To pass your own turn, use endturn."))
        if target_present and actor != self.state.host:
            refusal = _("{name} is here: only the host can skip a present player's turn.")
            raise RuleViolation(refusal.format(name=self.name_of(target)))
        seat = self.state.seat(target)
        if actor != self.state.host and seat is not None and not seat.absent:
            # A dropped connection is often back in a moment: not a turn lost to anyone.
            refusal = _(
                "{name} has only just dropped out: anyone may skip their turn once they have been away long "
                "enough for votes to go on without them; the host may now."
            )
            raise RuleViolation(refusal.format(name=self.name_of(target)))
        following = self._next_player(target)
        event = self._event("skip", actor, player=target, name=self.name_of(target), next=following)
        self._begin_turn(event, following)

    def _next_player(self, after: int) -> int:
        """The next player still in the game after ``after``, in seat order."""
        seats = self.state.seats
        ids = [seat.account_id for seat in seats]
        start = ids.index(after) if after in ids else -1
        for step in range(1, len(seats) + 1):
            seat = seats[(start + step) % len(seats)]
            if not seat.out and seat.account_id != after:
                return seat.account_id
        return after if after in ids and not seats[start].out else NO_OWNER

    def _begin_turn(self, event: Event, player: int) -> None:
        self._set_turn(event, **vars(Turn(player=player, number=self.state.turn.number + 1)))

    def _clear_player_cards(self, event: Event, account_id: int) -> None:
        """A player leaves the game: their hand and Things go to the discard pile."""
        gone = [*self.hand(account_id), *self.in_play(account_id)]
        if gone:
            event.data["discarded"] = len(gone)
        for number in gone:
            card = self.state.cards[number]
            if card.zone == PLAY:
                self._leave_play(event, card)
            if card.zone in (HAND, PLAY):
                self._move(event, number, *self._discard_key_for(card))

    def _sides(self) -> set[str]:
        """The sides still in the game: each player, or with team play on, each team (a
        player without a team is a side of their own)."""
        teams = bool(self.settings["teams"])
        return {f"team {s.team}" if teams and s.team else f"player {s.account_id}" for s in self.state.active_seats()}

    def _after_player_gone(
        self, event: Event, was_current: bool, following: int, sides_before: int, name: str, how: str
    ) -> None:
        """``name`` left the game (``how``: "resigned", "kicked" or "eliminated"): pass
        their turn on, and end the game if it is decided. The last side left (a player, or
        with team play a team) in a game of several wins: by forfeit when the last opponent
        resigned, never by a kick (the host's power over seats does not decide games; win
        and endgame do, openly)."""
        active = self.state.active_seats()
        decided = len(self._sides()) == 1 and sides_before > 1
        team = active[0].team if decided and self.settings["teams"] else ""
        if decided and how != "kicked":
            if team:
                mates = [s.name for s in self.state.seats if s.team == team]
                result = said(
                    "Only team {team} is left: Team {team} ({players}) wins!", team=team, players=", ".join(mates)
                )
                self._finish(event, result, "last standing", mates)
            elif how == "resigned":
                result = said("{name} forfeits: {winner} wins!", name=name, winner=active[0].name)
                self._finish(event, result, "forfeit", [active[0].name])
            else:
                result = said("Only {name} remains: {name} wins!", name=active[0].name)
                self._finish(event, result, "last standing", [active[0].name])
        elif not active:
            self._finish(event, said("Nobody is left in the game."), "abandoned")
        else:
            if decided:
                event.data["alone"] = f"team {team}" if team else active[0].name
                if team:
                    # The team by itself, for the line each reader is shown in their language.
                    event.data["alone_team"] = team
            if was_current:
                event.data["next"] = following
                self._begin_turn(event, following)

    def settle(self) -> None:
        """Out of cards, out of the game (seed 003, see Readings): once a move leaves
        the draw pile and the discard pile a player draws from both empty, each player
        still in the game holding no card is out, as if eliminated (their Things go to
        the discard pile); the last side left wins, and if nobody is left the game is
        drawn."""
        if self.state.phase != PLAYING:
            return
        out = [
            seat
            for seat in self.state.active_seats()
            if not self.hand(seat.account_id)
            and not self.state.pile(*self.draw_key(seat.account_id))
            and not self.state.pile(*self.discard_key(seat.account_id))
        ]
        if not out:
            return
        event = self._events[-1]
        event.data["out_of_cards"] = [seat.name for seat in out]
        sides_before = len(self._sides())
        current = self.state.turn.player
        gone = {seat.account_id for seat in out}
        for seat in out:
            self._clear_player_cards(event, seat.account_id)
        self._set_seats(event, [replace(s, out=True) if s.account_id in gone else s for s in self.state.seats])
        if not self.state.active_seats():
            names = _listed([seat.name for seat in out])
            self._finish(
                event, said("No cards are left, and {names} hold none: the game is a draw.", names=names), "draw"
            )
            return
        following = self._next_player(current) if current in gone else NO_OWNER
        self._after_player_gone(event, current in gone, following, sides_before, out[0].name, "eliminated")
        self.recount_votes(event)

    def eliminate(self, actor: int, target: int) -> None:
        """Take a player out of the game (the host, or a player resigning themselves)."""
        self._playing()
        if actor != target:
            self._host(actor)
        seat = self._target(target)
        event = self._event("eliminate", actor, player=target, name=seat.name)
        sides_before = len(self._sides())
        was_current = self.state.turn.player == target
        following = self._next_player(target) if was_current else NO_OWNER
        self._clear_player_cards(event, target)
        self._set_seats(event, [replace(s, out=True) if s.account_id == target else s for s in self.state.seats])
        how = "resigned" if actor == target else "eliminated"
        self._after_player_gone(event, was_current, following, sides_before, seat.name, how)
        self.recount_votes(event)

    def win(self, actor: int, target: int) -> None:
        """Declare the winner (the deck says how to win; the host judges)."""
        self._playing()
        self._host(actor)
        seat = self._target(target)
        event = self._event("win", actor, player=target, name=seat.name)
        if seat.team:
            mates = [s.name for s in self.state.seats if s.team == seat.team]
            self._finish(
                event, said("Team {team} ({players}) wins!", team=seat.team, players=", ".join(mates)), "won", mates
            )
        else:
            self._finish(event, said("{name} wins!", name=seat.name), "won", [seat.name])

    def end_game(self, actor: int, how: str = "") -> None:
        """End the game without a winner: drawn, in stalemate, abandoned out of boredom,
        or just ended (``how`` is one of :data:`ENDINGS`)."""
        self._playing()
        self._host(actor)
        if how not in ENDINGS:
            raise RuleViolation(
                _("A game ends as one of: {endings}.").format(endings=", ".join(e for e in ENDINGS if e))
            )
        event = self._event("endgame", actor, how=how)
        self._finish(event, said(ENDINGS[how]), how or "no winner")

    def _finish(self, event: Event, result: Said, outcome: str, winners: list[str] | None = None) -> None:
        """The game is over: elimination lasts one game, so everyone seated is back in
        (to vote, propose and host the aftermath); in a CCG game every copy goes back
        to its deck. The event records the result for the room's results: the sentence,
        the outcome (won, forfeit, last standing, draw, stalemate, boredom, no winner,
        abandoned), the winners and the deck's version. The sentence is kept as a message
        each reader is shown in their own language (:func:`i18n.stored`)."""
        kept = stored(result)
        event.data.update(result=kept, outcome=outcome, winners=winners or [], deck_version=self.state.deck_version)
        self._turn_up_all(event)
        if self.ccg:
            self._decks_back(event)
        if any(seat.out for seat in self.state.seats):
            self._set_seats(event, [replace(seat, out=False) for seat in self.state.seats])
        if self.state.left_game:
            self._change(event, ["left-game", []])
        self._set(event, "phase", OVER)
        self._set(event, "result", kept)
        self._set_turn(event, **vars(Turn()))


def _too_few_cards(cards: int, handsize: int, players: int) -> str:
    """The refusal to start with a deck of ``cards`` too small to deal ``handsize`` to each
    of ``players``, with what to do about it."""
    if players > 1:
        too_few = ngettext(
            "The deck has {n} card, too few to deal {handsize} to each of {players} players (the rules ask for at "
            "least 5 cards per player).",
            "The deck has {n} cards, too few to deal {handsize} to each of {players} players (the rules ask for at "
            "least 5 cards per player).",
            cards,
        )
    else:
        too_few = ngettext(
            "The deck has {n} card, too few to deal {handsize} to the one player (the rules ask for at least 5 "
            "cards per player).",
            "The deck has {n} cards, too few to deal {handsize} to the one player (the rules ask for at least 5 "
            "cards per player).",
            cards,
        )
    fits = cards // players
    if fits:
        remedy = _("Add cards, lower the hand size (set handsize={fits}), or deal what there is: force start")
    else:
        remedy = _("Add cards, or deal what there is: force start")
    return f"{too_few.format(n=cards, handsize=handsize, players=players)} {remedy.format(fits=fits)}"


def _listed(names: list[str]) -> Text:
    """``a``, ``a and b``, ``a and b and c``, as a message for each reader (the "and" in
    their language)."""
    listed: Text = names[0] if names else ""
    for name in names[1:]:
        listed = said("{names} and {last}", names=listed, last=name)
    return listed
