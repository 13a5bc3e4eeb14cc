"""The rules of Gnav as moves on a table: each move checks the rules, then changes the
table through deltas grouped into events. No I/O: callers store and announce the events.

Gnav (Kille, Cuckoo): each player alive and not resting gets one hidden card; in order
of play, from the dealer's left with the dealer last, each keeps it or asks to swap with
the next participant on their left. Numbers, 0, Pot, Owl and Fool must accept; the five
matadors answer instead (Cuckoo ends the deal, Dragoon and Cat refuse and cost the asker
a life, the Cat undoing every swap of the deal, Horse and House send the asker on past
them). The dealer swaps with the top of the stock instead. Then all cards are shown and
the holders of the lowest card lose a life; the last player with lives wins.

Readings
--------
Where the rules (the Czech page of Cardavia, the authority) leave a point open, this
table plays it as :data:`RULES_HELP` says under "Readings": written once, for the
players, as ``help gnav`` shows them (in each reader's language).
"""

from __future__ import annotations

import copy
from typing import Any

from games.base import NOBODY, OVER, PLAYING, WAITING, Due, Event, RuleViolation
from games.gnav import bots, cards
from games.gnav import settings as table_settings
from games.gnav.cards import CAT, CUCKOO, FOOL, PASSERS, REFUSERS
from games.gnav.state import GnavState, Seat, hand_pairs
from games.gnav.visibility import seat_view
from games.toolkit import TurnTable
from i18n import N_, _, said, stored

MAX_SEATS = 8
MIN_PLAYERS = 2
#: Seconds between a settlement and the next deal, for everyone to read it.
DEAL_PAUSE = 3.0
# Translators: the levels of Gnav's computer players (a player types them in English: addbot strong).
LEVELS = (N_("easy"), N_("normal"), N_("strong"))
#: The names computer players take, in the order they are given out.
BOT_NAMES = ("Olga", "Sven", "Astrid", "Nils", "Ingrid", "Leif", "Sigrid", "Knut", "Frida", "Tor")
#: The rules of Gnav for ``help gnav``, with each card's English and Norwegian names and
#: every reading this table plays by (where the rules leave a point open): written as a
#: docstring is (paragraphs apart, the matadors' answers indented, each whole), filled
#: to the reader's window when sent.
# Translators: the help of Gnav; commands (addbot, keep, swap) stay in English, and the
# Norwegian names of the cards (in brackets) stay as they are.
RULES_HELP = N_(
    """\
Gnav (Kille): one hidden card each; keep it or swap it; avoid the lowest.

42 cards, two of each rank, lowest first: Fool (Narr), Owl (Ugle), Pot (Potte),
0, I, II, III, IV, V, VI, VII, VIII, IX, X, XI, XII, House (Hus), Horse (Hest),
Cat (Katt), Dragoon (Drak), Cuckoo (Gjøk). The top five are the matadors.

Everyone starts with the same lives (setting lives, 3 unless the host sets it).
Each deal, everyone alive and not resting gets one hidden card; a Fool dealt is
shown to all. Play starts left of the dealer; the dealer acts last.

On your turn: keep, or swap (ask) with the next player on your left. Numbers,
0, Pot, Owl and Fool must accept. Matadors answer instead:
    Cuckoo: shown; the deal ends at once.
    Dragoon: refuses; you lose a life; play goes on left of it.
    Cat: refuses; you lose a life; every swap of the deal is undone.
    Horse, House: you pass them and ask the next player.

The dealer swaps with the top of the stock instead. Then all cards are shown:
the holders of the lowest card lose a life. One Fool: its holder and the lowest
of the others lose a life; two Fools: only their holders. The last player with
lives wins.

At most 8 seats; computer players (addbot easy|normal|strong) fill any.

Readings:

Where the rules (the Czech page of Cardavia, the authority) leave a point open,
this table plays it so:

- Lowest is by the one order of the 21 ranks, Fool lowest and Cuckoo highest,
the matadors being the top five (House < Horse < Cat < Dragoon < Cuckoo). Two
cards of one rank tie.

- One Fool in play: its holder loses a life, and so do all players tied for the
lowest card among the others (with two contestants, that is both).

- Two Fools in play: only the two Fool holders lose a life.

- Surviving Fool holders rest the next deal: no card, no turn, nothing to pay;
they return for the deal after it. A deal without a comparison (below) rests
nobody.

- If fewer than two players would take part in a deal (the others resting), it
is skipped: nobody loses a life, the resters return, and the deal is dealt to
all survivors. The skipped deal does not move the dealer.

- If fewer than two contestants are left when the swapping ends (the others
brought to 0 by a Dragoon or a Cat, or gone), there is no comparison and nobody
loses a life.

- The dealer is the next surviving seat taking part in the deal (a resting
player does not deal); the first dealer of a match is drawn by lot.

- Play goes round once: each participant acts at most once a deal, the dealer
last. An ask never goes round past the dealer: past the dealer lies the stock.

- A Horse or House that is passed is shown to everyone (its holder says which
it is). After a swap, play goes on with the next participant after the asker,
so a passed Horse or House holder still has their turn, and the receiver then
has theirs.

- After a Dragoon's or Cat's refusal, play goes on with the next participant
left of the refuser; the passed Horse/House holders between the asker and the
refuser, and the refuser, have no turn this deal. A refusal from the stock ends
the deal (nobody is left of the stock), even when a player other than the
dealer asked past the dealer.

- A player brought to 0 by a Dragoon or Cat is out at once: their card stays
with them (a Cat still undoes swaps through their hand), but they are not
compared.

- The stock: a Horse or House drawn is shown and left where it lies, and the
next card is drawn. A Cuckoo drawn is shown and ends the deal at once; the
asker keeps their card. A Dragoon or Cat drawn is shown and refuses: the asker
loses a life (the Cat also undoing the deal's swaps), the card stays in the
stock. An ordinary card is taken, and the asker's card goes face down where it
lay (the asker alone knows it); the next draw takes the card under it. The
dealer's draw is shown to the dealer alone unless it reveals a matador.

- The Cat's undoing also undoes swaps with the stock, and a swap undone before
a Cat does not give anyone a turn again.

- A player who leaves mid-match forfeits: they are out at once, their card is
no longer compared, and their seat goes when the match ends. If it was their
turn, play goes on. Computer players cannot be removed mid-match (they play it
to the end), but when the last person in it leaves, a match of computer players
alone is abandoned: no winner.

- The match is won by the last player with lives; if every player left reaches
0 in the same settlement, it is a draw.

- At most 8 seats: 8 cards dealt leave 34 in the stock."""
)
#: Events that make up a deal's history (its record of what happened, which each seat's
#: view reads through the visibility policy).
DEAL_EVENTS = ("keep", "timeout", "swap", "pass", "refuse", "undo", "cuckoo", "stock", "settle", "rest", "out", "leave")


class GnavTable(TurnTable):
    """A Gnav table: its state and every move made on it."""

    title = N_("Gnav")
    # Translators: what one game of Gnav is called, and more than one.
    game_word, games_word = N_("match"), N_("matches")
    max_seats = MAX_SEATS
    settings_spec = table_settings.SETTINGS
    levels = LEVELS
    bot_names = BOT_NAMES
    state_class = GnavState

    state: GnavState

    # -- reading ---------------------------------------------------------------------

    def due(self) -> Due | None:
        """What the table does by itself next: a computer player's move after the bot
        delay, a person's turn kept by default after the turn time, or the next deal a
        moment after a settlement. Each carries the step it was made for."""
        state = self.state
        if state.phase == PLAYING and state.turn == NOBODY:
            step = state.step
            return Due(DEAL_PAUSE, NOBODY, lambda table: table.next_deal(step), "deal", since=step)
        return super().due()

    # -- seats -----------------------------------------------------------------------

    def holds_seat(self, account_id: int) -> bool:
        """A person who left the match being played (a forfeit) keeps the seat until it
        ends, but no longer plays here: they may watch, sit elsewhere, and are not brought
        back to it when they log in."""
        seat = self.state.seat(account_id)
        return seat is not None and not seat.left

    def _leave_mid_game(self, actor: int, seat: Seat) -> None:
        """Leaving mid-match forfeits: out at once, the seat going when the match ends;
        if it was their turn, play goes on."""
        account_id = seat.account_id
        if seat.left:
            raise RuleViolation(_("You have already left this match; your seat goes when it ends."))
        self._step_pending = True
        was_turn = self.state.turn == account_id
        in_deal = self.state.in_deal(account_id)
        event = self._record("leave", actor, player=account_id, name=seat.name, forfeit=True)
        self._seat(event, account_id, out=True, left=True, resting=False)
        self._pass_host(event, account_id)
        if len(self.state.alive()) < MIN_PLAYERS:
            self._end_match()
        elif not any(not s.bot and not s.left for s in self.state.seats):
            self._abandon()
        elif was_turn:
            self._continue_after(account_id)
        elif in_deal and self.state.turn != NOBODY and len(self.state.contestants()) < MIN_PLAYERS:
            self._settle()

    # -- the match -------------------------------------------------------------------

    def start(self, actor: int) -> None:
        """Begin a match (host only): everyone seated gets the lives set, and the first
        deal is dealt by a dealer drawn by lot."""
        self._host(actor)
        if self.state.phase == PLAYING:
            raise RuleViolation(_("A match is already being played."))
        if len(self.state.seats) < MIN_PLAYERS:
            raise RuleViolation(_("Gnav needs at least two players (add a computer player: addbot normal)."))
        self._step_pending = True
        lives = int(self.setting("lives"))
        event = self._record("start", actor, players=[s.account_id for s in self.state.seats], lives=lives)
        for seat in self.state.seats:
            self._seat(event, seat.account_id, lives=lives, out=False, resting=False, left=False)
        for name, value in (("result", ""), ("deal", 0), ("dealer", NOBODY), ("phase", PLAYING)):
            self._set(event, name, value)
        self._deal()

    def keep(self, actor: int, step: int | None = None) -> None:
        """Keep your card; play goes on to the next participant."""
        self._own_turn(actor, step)
        self._step_pending = True
        self._record("keep", actor, player=actor)
        self._continue_after(actor)

    def timeout(self, step: int) -> None:
        """The turn timer ran out: the player whose turn it is keeps their card."""
        state = self.state
        if state.phase != PLAYING or state.turn == NOBODY or step != state.step:
            raise RuleViolation(_("That turn is already over."))
        actor = state.turn
        self._step_pending = True
        self._record("timeout", actor, player=actor)
        self._continue_after(actor)

    def bot_move(self, actor: int, step: int) -> None:
        """A computer player's move, decided from its seat's view alone."""
        seat = self.state.seat(actor)
        if seat is None or not seat.bot:
            raise RuleViolation(_("That is not a computer player here."))
        self._own_turn(actor, step)
        choice = bots.decide(seat.bot, seat_view(self.state, actor), self.rng)
        if choice == "swap":
            self.swap(actor, step)
        else:
            self.keep(actor, step)

    def swap(self, actor: int, step: int | None = None) -> None:
        """Ask the next participant on your left to swap cards (the dealer: swap with the
        top of the stock). Horses and Houses send the ask on past them."""
        self._own_turn(actor, step)
        state = self.state
        self._step_pending = True
        if actor == state.dealer:
            self._draw(actor)
            return
        target = NOBODY
        for holder in state.order[state.order.index(actor) + 1 :]:
            if not state.in_deal(holder):
                continue
            card = state.hands[holder]
            if card in PASSERS:
                event = self._record("pass", actor, asker=actor, holder=holder, card=card)
                self._reveal(event, holder, card, "pass")
                continue
            target = holder
            break
        if target == NOBODY:
            self._draw(actor)
            return
        card = state.hands[target]
        if card == CUCKOO:
            event = self._record("cuckoo", actor, asker=actor, holder=target, card=card)
            self._reveal(event, target, card, "cuckoo")
            self._settle()
        elif card in REFUSERS:
            self._refused(actor, target, card)
            self._continue_after(target)
        else:
            gave = state.hands[actor]
            secret = {"gave": gave, "got": card}
            event = self._record(
                "swap", actor, asker=actor, target=target, private=[[actor, secret], [target, dict(secret)]]
            )
            self._change(event, ["swap", actor, target])
            self._set(event, "swaps", [*state.swaps, ["seat", actor, target]])
            self._continue_after(actor)

    def next_deal(self, step: int) -> None:
        """Deal the next deal (the table does it by itself a moment after a settlement)."""
        state = self.state
        if state.phase != PLAYING or state.turn != NOBODY or step != state.step:
            raise RuleViolation(_("The next deal is not due."))
        self._step_pending = True
        self._deal()

    # -- how a deal goes -------------------------------------------------------------

    def _deal(self) -> None:
        state = self.state
        alive = state.alive()
        taking_part = [seat for seat in alive if not seat.resting]
        if len(taking_part) < MIN_PLAYERS:
            resting = [seat.account_id for seat in alive if seat.resting]
            event = self._record("skip", NOBODY, deal=state.deal + 1, resting=resting)
            for account_id in resting:
                self._seat(event, account_id, resting=False)
            taking_part = alive
        ids = [seat.account_id for seat in taking_part]
        if state.dealer == NOBODY:
            dealer = self.rng.choice(ids)
        else:
            everyone = [seat.account_id for seat in state.seats]
            at = everyone.index(state.dealer) if state.dealer in everyone else -1
            following = everyone[at + 1 :] + everyone[: at + 1]
            dealer = next(account_id for account_id in following if account_id in ids)
        at = ids.index(dealer)
        order = ids[at + 1 :] + ids[: at + 1]
        deck = list(cards.DECK)
        self.rng.shuffle(deck)
        hands = dict(zip(order, deck, strict=False))
        fools = [holder for holder in order if hands[holder] == FOOL]
        event = self._record(
            "deal",
            dealer,
            deal=state.deal + 1,
            dealer=dealer,
            order=order,
            fools=fools,
            resting=[seat.account_id for seat in alive if seat.resting],
            turn=order[0],
            seconds=self._time_for(order[0]),
            private=[[holder, {"card": hands[holder]}] for holder in order],
        )
        for name, value in (
            ("deal", state.deal + 1),
            ("dealer", dealer),
            ("order", order),
            ("stock", deck[len(order) :]),
            ("drawn", 0),
            ("swaps", []),
            ("revealed", [[holder, FOOL, "deal"] for holder in fools]),
            ("history", []),
            ("turn", order[0]),
        ):
            self._set(event, name, value)
        self._change(event, ["hands", hand_pairs(hands)])
        self._log(event)

    def _draw(self, asker: int) -> None:
        """``asker`` swaps with the stock: past any Horse or House, to the first other card."""
        state = self.state
        while True:
            index = state.stock_top()
            if index is None:
                self._record("stock", asker, asker=asker, empty=True)
                self._continue_after(asker)
                return
            card = state.stock[index]
            if card in PASSERS:
                event = self._record("pass", asker, asker=asker, holder=NOBODY, card=card, index=index)
                self._reveal(event, NOBODY, card, "pass")
                self._set(event, "drawn", state.drawn + 1)
                continue
            if card == CUCKOO:
                event = self._record("cuckoo", asker, asker=asker, holder=NOBODY, card=card, index=index)
                self._reveal(event, NOBODY, card, "cuckoo")
                self._settle()
                return
            if card in REFUSERS:
                self._refused(asker, NOBODY, card, index)
                self._settle()
                return
            secret = {"gave": state.hands[asker], "got": card}
            event = self._record("stock", asker, asker=asker, index=index, private=[[asker, secret]])
            self._change(event, ["stockswap", asker, index])
            self._set(event, "drawn", state.drawn + 1)
            self._set(event, "swaps", [*state.swaps, ["stock", asker, index]])
            self._continue_after(asker)
            return

    def _refused(self, asker: int, holder: int, card: str, index: int | None = None) -> None:
        """A Dragoon or Cat (a player's, or drawn from the stock) refuses: the asker loses
        a life, and a Cat undoes every swap of the deal, the last first."""
        seat = self.state.seat(asker)
        assert seat is not None
        lives = max(seat.lives - 1, 0)
        where = {} if index is None else {"index": index}
        event = self._record("refuse", asker, asker=asker, holder=holder, card=card, lives=lives, **where)
        self._reveal(event, holder, card, "refuse")
        self._seat(event, asker, lives=lives)
        if card == CAT and self.state.swaps:
            undone = list(reversed(self.state.swaps))
            undo = self._record("undo", holder, holder=holder, swaps=undone)
            for how, first, second in undone:
                self._change(undo, ["swap" if how == "seat" else "stockswap", first, second])
            self._set(undo, "swaps", [])
        if lives == 0:
            out = self._record("out", asker, player=asker, why="refuse")
            self._seat(out, asker, out=True)

    def _continue_after(self, account_id: int) -> None:
        """Play goes on with the first participant after ``account_id`` still in the
        match; after the dealer, the deal is settled."""
        state = self.state
        if len(state.contestants()) < MIN_PLAYERS:
            self._settle()
            return
        following = state.order[state.order.index(account_id) + 1 :]
        upcoming = next((holder for holder in following if state.in_deal(holder)), NOBODY)
        if upcoming == NOBODY:
            self._settle()
            return
        event = self._record("turn", upcoming, player=upcoming, seconds=self._time_for(upcoming))
        self._set(event, "turn", upcoming)

    def _settle(self) -> None:
        """All cards are shown; the holders of the lowest card (or the Fools) lose a life."""
        state = self.state
        contestants = state.contestants()
        how, losers = "too few", []
        if len(contestants) >= MIN_PLAYERS:
            fools = [holder for holder in contestants if state.hands[holder] == FOOL]
            if len(fools) >= 2:
                how, losers = "two fools", fools
            else:
                others = [holder for holder in contestants if holder not in fools]
                lowest = min(cards.order(state.hands[holder]) for holder in others)
                lowest_holders = [holder for holder in others if cards.order(state.hands[holder]) == lowest]
                how = "one fool" if fools else "lowest"
                losers = fools + lowest_holders
        lives_after = {seat.account_id: seat.lives - 1 for seat in state.seats if seat.account_id in losers}
        event = self._record(
            "settle",
            NOBODY,
            deal=state.deal,
            cards=[[holder, state.hands[holder]] for holder in state.order],
            contestants=contestants,
            how=how,
            losers=losers,
            lives=[[holder, lives] for holder, lives in lives_after.items()],
        )
        self._set(event, "turn", NOBODY)
        for seat in state.seats:
            if seat.resting:
                self._seat(event, seat.account_id, resting=False)
        for holder, lives in lives_after.items():
            self._seat(event, holder, lives=lives)
        resters = [holder for holder in losers if state.hands[holder] == FOOL and lives_after[holder] > 0]
        if resters:
            rest = self._record("rest", NOBODY, players=resters)
            for holder in resters:
                self._seat(rest, holder, resting=True)
        for holder, lives in lives_after.items():
            if lives <= 0:
                out = self._record("out", holder, player=holder, why="lowest")
                self._seat(out, holder, out=True)
        if len(state.alive()) < MIN_PLAYERS:
            self._end_match([holder for holder, lives in lives_after.items() if lives <= 0])

    def _end_match(self, together: list[int] | None = None) -> None:
        """The match is over: won by the last player with lives, or drawn if the last
        ones (``together``) lost their last lives in the same settlement."""
        state = self.state
        alive = state.alive()
        # The end's event carries the result: that is what has the store record it. It is
        # kept as a message, each reader shown it in their language (i18n.stored).
        if alive:
            winner = alive[0]
            result = stored(said("{name} won the match.", name=winner.name))
            end = self._record(
                "win",
                winner.account_id,
                player=winner.account_id,
                name=winner.name,
                result=result,
                outcome="won",
                winners=[winner.name],
            )
        else:
            players = together or []
            names = [self.name_of(account_id) for account_id in players]
            if names:
                result = stored(said("A draw: {names} lost their last lives together.", names=", ".join(names)))
            else:
                result = stored(said("A draw: nobody is left."))
            end = self._record("draw", NOBODY, players=players, names=names, result=result, outcome="draw", winners=[])
        self._finish_match(end, result)

    def _abandon(self) -> None:
        """The last person in the match left it to the computer players: nobody would
        see it played, and the room (pausing while its people are away) would wait for
        one for ever, so the match ends without a winner."""
        result = stored(said("Nobody won: the last person playing left."))
        end = self._record("abandon", NOBODY, result=result, outcome="abandoned", winners=[])
        self._finish_match(end, result)

    def _finish_match(self, end: Event, result: str) -> None:
        """End the match with ``end``, whose ``result`` is kept as :func:`i18n.stored`
        keeps a message."""
        for name, value in (("phase", OVER), ("turn", NOBODY), ("result", result)):
            self._set(end, name, value)
        for seat in self.state.seats:
            if seat.resting:
                self._seat(end, seat.account_id, resting=False)
        if any(seat.left for seat in self.state.seats):
            self._seats(end, [seat for seat in self.state.seats if not seat.left])

    # -- bookkeeping -----------------------------------------------------------------

    def _record(self, kind: str, actor: int, **data: Any) -> Event:
        """A new event (the first of a move carrying the step forward); those of a deal
        go into its history."""
        event = super()._record(kind, actor, **data)
        if kind in DEAL_EVENTS and self.state.phase == PLAYING:
            self._log(event)
        return event

    def _log(self, event: Event) -> None:
        self._change(event, ["log", {"kind": event.kind, "actor": event.actor, **copy.deepcopy(event.data)}])

    def _reveal(self, event: Event, holder: int, card: str, why: str) -> None:
        self._set(event, "revealed", [*self.state.revealed, [holder, card, why]])

    def _time_for(self, account_id: int) -> int | None:
        """The seconds a person has for the turn before keeping by default (None for a
        computer player), announced with the turn."""
        seat = self.state.seat(account_id)
        return None if seat is None or seat.bot else int(self.setting("turntime"))

    # -- checks ----------------------------------------------------------------------

    def _own_turn(self, actor: int, step: int | None) -> None:
        state = self.state
        if state.phase != PLAYING:
            raise RuleViolation(_("No match is being played here. The host starts one with: start"))
        seat = state.seat(actor)
        if seat is None:
            raise RuleViolation(_("Only players seated at this table can do that."))
        if seat.out:
            raise RuleViolation(_("You are out of this match."))
        if step is not None and step != state.step:
            raise RuleViolation(_("That move is out of date: the table has moved on."))
        if state.turn == NOBODY:
            raise RuleViolation(_("This deal is over; the next one is coming."))
        if seat.resting:
            raise RuleViolation(_("You are resting this deal."))
        if state.turn != actor:
            raise RuleViolation(_("It is {name}'s turn, not yours.").format(name=self.name_of(state.turn)))


__all__ = ["BOT_NAMES", "LEVELS", "MAX_SEATS", "GnavTable", "RuleViolation", "WAITING"]
