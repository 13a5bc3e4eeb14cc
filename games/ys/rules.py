"""The rules of Ys as moves on a table: each move checks the rules, then changes the
table through deltas grouped into events. No I/O: callers store and announce the events.

A game: setup (brokers, order cards at random, the action cards in the corners, prices
at 3), then 4 rounds of six stages, then the final scoring:

1. *intro*: a gem card in each city quadrant played and one for the market, the market
   rows filled, each corner's top action card turned up;
2. ``bid``: each player bids 2 brokers, hidden until all have bid;
3. ``order``: from the highest bid down (ties to the lower order card of the round
   before), each player chooses an order card from those still free (asked through
   ``awaiting``; the last takes the one left);
4. ``place``: in turn order each player places a pair (one face up, one face down;
   2 players: then one neutral broker face down), until each has one left;
5. ``resolve``: the last broker joins the bid, everything is turned up, and the
   resolution's *tasks* run in order: each city space, each quadrant, each market row,
   the price track, the top market investor's nudge, the end of the round. A task that
   needs a player's choice adds it to ``awaiting`` and waits for :meth:`YsTable.choose`;
6. ``favour`` (the ``favour`` setting): each player puts one bid broker on the King's
   favour space and takes a 2 from the supply.

Action cards are held hidden; a played card waits in ``queued`` for its timing window
(``tables.WINDOWS``), where :data:`EFFECTS` resolves it, in turn order. This module
resolves the immediate ones (treasure, Prince, King) as they are won; ``actions`` adds
the yellow-edged ones to :data:`EFFECTS`. The numbers and every reading of the rules
are in ``tables``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from typing import Any

from games.base import NOBODY, OVER, PLAYING, WAITING, Event, RuleViolation
from games.toolkit import TurnTable
from games.ys import bots, scoring
from games.ys import settings as table_settings
from games.ys import tables as t
from games.ys.state import YsState
from games.ys.visibility import seat_view
from i18n import N_, Said, _, ngettext, said, stored

#: When a card of each timing window may be played, for the refusal of one played too late.
_PLAYED_WHEN = {
    t.START_OF_PLACEMENT: N_("it takes effect at the start of placement, so it is played while the table bids"),
    t.AFTER_PAIR: N_("it takes effect after one of your pairs, so it is played before placement is over"),
    t.START_OF_RESOLUTION: N_("it takes effect at the start of resolution, so it is played before placement is over"),
    t.END_OF_ROUND: N_("it takes effect at the end of the round, so it is played before then"),
}
#: How players name the neutral player in a card's words (no person may sit under it).
NEUTRAL_WORD = "neutral"
#: How often a computer player's move is an action card, when it may play one.
BOT_CARD_CHANCE = 0.3
#: The computer players' levels (``addbot easy``), named so on the board and in the table's lines.
LEVELS = (N_("easy"), N_("normal"))
BOT_NAMES = ("Ysolde", "Tristan", "Morgane", "Gradlon", "Dahut", "Corentin", "Brendan", "Nolwenn")

#: What a played yellow-edged card does when its window comes: ``effect(table, event,
#: player)``. The ``actions`` module registers them; a card with none cannot be played.
EFFECTS: dict[str, Callable[[YsTable, Event, int], None]] = {}
#: How a card's prompt (``awaiting`` with ``ask`` the card's name) is answered:
#: ``answer(table, actor, prompt, words)`` checks the words, then makes the change and
#: returns its event; ``default(table, prompt)`` is the words of a legal answer (timeouts,
#: computer players). Registered by ``actions``.
Answer = Callable[["YsTable", int, dict[str, Any], list[str]], Event]
ANSWERS: dict[str, tuple[Answer, Callable[[YsTable, dict[str, Any]], list[str]]]] = {}
#: Cards whose effect lasts through placement and is used with words (``play spy ...``,
#: ``play conjurer ...``): ``use(table, actor, words)``, and ``sample(table, actor)``,
#: a legal use's words or None (for computer players). Registered by ``actions``.
USES: dict[str, tuple[Callable[[YsTable, int, list[str]], None], Callable[[YsTable, int], list[str] | None]]] = {}

#: The order of the round's stages; a window is ahead while its stage is.
_STAGES = ("bid", "place", "resolve", "favour")


def space_of(raw: Any) -> list[Any]:
    """A space as the state keeps it, ``["city", quadrant, ring]`` or ``["market", row,
    colour]``, from a list, a tuple or words (``"city 2 palace"``); RuleViolation if it is
    no space."""
    parts = raw.split() if isinstance(raw, str) else list(raw) if isinstance(raw, list | tuple) else []
    if len(parts) == 3 and isinstance(parts[0], str):
        where = parts[0].lower()
        try:
            number = int(parts[1])
        except (TypeError, ValueError):
            number = -1
        name = str(parts[2]).lower()
        if where == "city" and 0 <= number < t.QUADRANTS and name in t.RINGS:
            return ["city", number, name]
        if where == "market" and 0 <= number < t.MARKET_ROWS and name in t.COLOURS:
            return ["market", number, name]
    raise RuleViolation(_("A space is city <quadrant 1-4> <port|commercial|palace> or market <row 1-4> <colour>."))


class YsTable(TurnTable):
    """A Ys table: its state and every move made on it."""

    title = N_("Ys")
    game_word, games_word = N_("game"), N_("games")
    max_seats = t.MAX_PLAYERS
    settings_spec = table_settings.SETTINGS
    levels = LEVELS
    bot_names = BOT_NAMES
    state_class = YsState

    state: YsState

    # -- reading ---------------------------------------------------------------------

    def player_count(self) -> int:
        """The players of this game (the neutral player not counted)."""
        return len([holdings for holdings in self.state.players if holdings["id"] != t.NEUTRAL])

    def quadrants(self) -> int:
        """The city quadrants in play: 3 with 2 players, the setting with 3, else 4."""
        players = self.player_count()
        if players <= 2:
            return 3
        return int(self.setting("quadrants")) if players == 3 else t.QUADRANTS

    def waiting_for(self) -> list[int]:
        """The players who may (and must) act now, in turn order."""
        state = self.state
        if state.phase != PLAYING:
            return []
        if state.awaiting:
            return [state.awaiting[0]["player"]]
        if state.stage == "bid":
            return [p for p in state.order if not self._holdings(p)["front"]]
        if state.stage == "place":
            return [state.turn]
        if state.stage == "favour":
            return [p for p in state.order if len(self._holdings(p)["favour"]) < state.round]
        return []

    # -- seats -----------------------------------------------------------------------

    def seat_refusal(self, account_id: int, name: str) -> str | None:
        if name.strip().casefold() == NEUTRAL_WORD:
            # Cards name players by name, and "neutral" is the neutral player's.
            return _('At a Ys table "Neutral" is the neutral player\'s name: watch, or play with another name.')
        return super().seat_refusal(account_id, name)

    def _end_game(self, event: Event, result: Said, outcome: str, winners: list[str]) -> None:
        """A game ended by a person leaving it: the round's business is dropped too."""
        for name, value in (("stage", ""), ("turn", NOBODY), ("awaiting", []), ("tasks", [])):
            self._set(event, name, value)
        super()._end_game(event, result, outcome, winners)

    # -- the game --------------------------------------------------------------------

    def start(self, actor: int) -> None:
        """Begin a game (host only) with everyone seated: 2 to 5 players."""
        self._host(actor)
        state = self.state
        if state.phase == PLAYING:
            raise RuleViolation(_("A game is already being played."))
        if not t.MIN_PLAYERS <= len(state.seats) <= t.MAX_PLAYERS:
            raise RuleViolation(_("Ys is for 2 to 5 players (add a computer player: addbot normal)."))
        self._step_pending = True
        ids = [seat.account_id for seat in state.seats]
        order = list(ids)
        self.rng.shuffle(order)
        brokers = t.brokers_for(len(ids))
        # Each keeps their name, for the views of the finished game after they leave.
        players = [
            {**_holdings(account_id, brokers), "name": seat.name}
            for seat, account_id in zip(state.seats, ids, strict=True)
        ]
        if len(ids) == 2:
            # Each player places a set of the neutral player's brokers of their own.
            players.append(_holdings(t.NEUTRAL, sorted(t.NEUTRAL_BROKERS * len(ids))))
        gem_deck = list(range(len(t.GEM_CARDS)))
        self.rng.shuffle(gem_deck)
        yellow = t.yellow_deck()
        self.rng.shuffle(yellow)
        per_corner = t.YELLOW_PER_CORNER
        # The blue-edged card at the bottom of each corner, 3 yellow-edged ones on it: the
        # top card (the list's last) is turned up each round, the blue-edged one last.
        corners = [
            {"up": None, "stack": [t.BLUE_CARD, *yellow[i * per_corner : (i + 1) * per_corner]]}
            for i in range(t.QUADRANTS)
        ]
        event = self._record("start", actor, players=ids, order=order, neutral=len(ids) == 2)
        for name, value in (
            ("result", ""),
            ("round", 0),
            ("order", order),
            ("players", players),
            ("prices", {colour: t.PRICE_START for colour in t.COLOURS}),
            ("gem_deck", gem_deck),
            ("corners", corners),
            ("discard", sorted(yellow[t.QUADRANTS * per_corner :])),
            ("awaiting", []),
            ("tasks", []),
            ("queued", []),
            ("placed", []),
            ("phase", PLAYING),
        ):
            self._set(event, name, value)
        self._begin_round()

    def bid(self, actor: int, first: int, second: int, step: int | None = None) -> None:
        """Bid two brokers from behind your screen for the turn order (hidden until all
        have bid)."""
        holdings = self._acting(actor, step, "bid")
        if holdings["front"]:
            raise RuleViolation(_("You have bid already; waiting for the others."))
        screen = self._take(holdings["screen"], [first, second])
        self._step_pending = True
        event = self._record("bid", actor, player=actor, private=[[actor, {"brokers": sorted([first, second])}]])
        self._player(event, actor, screen=screen, front=sorted([first, second]))
        if all(self._holdings(p)["front"] for p in self.state.order):
            self._reveal_bids()

    def place(
        self, actor: int, up_value: int, up_space: Any, down_value: int, down_space: Any, step: int | None = None
    ) -> None:
        """Place a pair from behind your screen: ``up_value`` face up on ``up_space`` and
        ``down_value`` face down on ``down_space``."""
        holdings = self._acting(actor, step, "place", "pair")
        up, down = space_of(up_space), space_of(down_space)
        screen = self._take(holdings["screen"], [up_value, down_value])
        self._placeable(up)
        self._placeable(down)
        if up == down and up[0] == "market":
            raise RuleViolation(_("A market space holds one broker."))
        owed = [e for e in self.effects_of("conjurer") if e["player"] == actor and e["owed"]]
        if owed and Counter(owed[0]["owed"]) - Counter([up_value, down_value]):
            refusal = _("Place the broker you took from in front of the screen: {value}.")
            raise RuleViolation(refusal.format(value=owed[0]["owed"][0]))
        # A Bishop's player places both brokers face down.
        hidden = any(e["player"] == actor for e in self.effects_of("bishop"))
        self._step_pending = True
        secret = {"down_value": down_value, **({"up_value": up_value} if hidden else {})}
        event = self._record(
            "place",
            actor,
            player=actor,
            up={"space": up, **({} if hidden else {"value": up_value})},
            down={"space": down},
            private=[[actor, secret]],
        )
        if owed:
            self._set(event, "effects", [dict(e, owed=[]) if e in owed else e for e in self.state.effects])
        market = [space[0] for space in (up, down)].count("market")
        self._player(event, actor, screen=screen, points=holdings["points"] + market * t.MARKET_POINT)
        self._set(
            event,
            "placed",
            [
                *self.state.placed,
                {"player": actor, "value": up_value, "up": not hidden, "space": up},
                {"player": actor, "value": down_value, "up": False, "space": down},
            ],
        )
        if self.state.neutral_left(actor):
            self._set(event, "turn_part", "neutral")
            return
        self._after_pair(event, actor)

    def place_neutral(self, actor: int, value: int, space: Any, step: int | None = None) -> None:
        """(2 players) After your pair, place one of the neutral player's brokers face
        down: ``value`` on ``space``."""
        self._acting(actor, step, "place", "neutral")
        neutral = self._holdings(t.NEUTRAL)
        where = space_of(space)
        left = self.state.neutral_left(actor)
        if value not in left:
            # Only the player's own neutral brokers are named: the other player's are hidden.
            refusal = _("You have no neutral broker {value} left to place; yours: {values}.")
            raise RuleViolation(refusal.format(value=value, values=", ".join(map(str, reversed(left)))))
        screen = self._take(neutral["screen"], [value])
        self._placeable(where)
        self._step_pending = True
        event = self._record("neutral", actor, player=actor, space=where, private=[[actor, {"value": value}]])
        points = neutral["points"] + (t.MARKET_POINT if where[0] == "market" else 0)
        self._player(event, t.NEUTRAL, screen=screen, points=points)
        placed = {"player": t.NEUTRAL, "value": value, "up": False, "space": where, "by": actor}
        self._set(event, "placed", [*self.state.placed, placed])
        self._after_pair(event, actor)

    def choose(self, actor: int, answer: Any, step: int | None = None) -> None:
        """Answer the choice the table waits for from you (``awaiting``): a colour (a
        treasure, a white gem), gems to take from a quadrant's card (``"blue green"``),
        the market investor's nudge (``"red up"``), or what a card you played asks
        (its words are in ``actions``)."""
        state = self.state
        if state.phase != PLAYING:
            raise RuleViolation(_("No game is being played here."))
        if step is not None and step != state.step:
            raise RuleViolation(_("That move is out of date: the table has moved on."))
        if not state.awaiting or state.awaiting[0]["player"] != actor:
            if state.awaiting:
                refusal = _("The table waits for {name}, not you.")
                raise RuleViolation(refusal.format(name=self.name_of(state.awaiting[0]["player"])))
            raise RuleViolation(_("Nothing is asked of you now."))
        prompt = state.awaiting[0]
        if isinstance(answer, str):
            words = answer.lower().split()
        elif isinstance(answer, list | tuple):
            words = [str(word).lower() for word in answer]
        else:
            raise RuleViolation(_("Answer with words: a colour, gems, or a colour and up or down."))
        self._step_pending = True
        self._answer(actor, prompt, words)

    def favour(self, actor: int, value: int, step: int | None = None) -> None:
        """(King's favour) Put one of your brokers in front of the screen face down on
        the King's favour space; you take a 2 from the supply."""
        holdings = self._acting(actor, step, "favour")
        if len(holdings["favour"]) >= self.state.round:
            raise RuleViolation(_("You have given the King a broker this round already."))
        front = self._take(holdings["front"], [value], in_front=True)
        self._step_pending = True
        event = self._record("favour", actor, player=actor, private=[[actor, {"value": value}]])
        self._player(
            event,
            actor,
            front=front,
            favour=[*holdings["favour"], value],
            screen=sorted([*holdings["screen"], t.FAVOUR_BROKER]),
        )
        if not self.waiting_for():
            self._next_round()

    def play(self, actor: int, card: str, *words: Any, step: int | None = None) -> None:
        """Play a held action card (from the round after you won it, at most 2 a round):
        it takes effect in its timing window, in turn order. With ``words``, use a card
        in effect for you this round instead (the Spy's looks, the Conjurer's swaps: see
        ``actions``)."""
        state = self.state
        if state.phase != PLAYING:
            raise RuleViolation(_("No game is being played here."))
        if step is not None and step != state.step:
            raise RuleViolation(_("That move is out of date: the table has moved on."))
        holdings = self._holdings(actor) if state.player(actor) is not None else None
        if holdings is None:
            raise RuleViolation(_("Only players in this game can do that."))
        name = str(card).strip().lower()
        if words:
            if name not in USES:
                raise RuleViolation(_("Play a card by its name alone: play {card}.").format(card=name))
            self._step_pending = True
            USES[name][0](self, actor, [str(word).lower() for word in words])
            return
        held = next((entry for entry in holdings["cards"] if entry[0] == name), None)
        if held is None:
            raise RuleViolation(_("You hold no such card."))
        if held[1] >= state.round:
            raise RuleViolation(_("A card is played from the round after it was won."))
        if holdings["played"] >= t.PLAYS_PER_ROUND:
            refusal = ngettext(
                "You have played {n} card this round.", "You have played {n} cards this round.", t.PLAYS_PER_ROUND
            )
            raise RuleViolation(refusal.format(n=t.PLAYS_PER_ROUND))
        window = t.window_of(name)
        if name not in EFFECTS or not self._window_ahead(window):
            when = _PLAYED_WHEN.get(window) if name in EFFECTS else None
            if when:
                # Translators: {card} is the card's name as players type it (play spy); {when}, when it is played.
                refusal = _("The {card} cannot be played now: {when}.").format(card=name, when=_(when))
            else:
                refusal = _("The {card} cannot be played now.").format(card=name)
            raise RuleViolation(refusal)
        self._step_pending = True
        cards = list(holdings["cards"])
        cards.remove(held)
        event = self._record("play", actor, player=actor, card=name, window=window)
        self._player(event, actor, cards=cards, played=holdings["played"] + 1)
        self._set(event, "discard", [*state.discard, name])
        self._set(event, "queued", [*state.queued, [actor, name]])

    def timeout(self, step: int) -> None:
        """The turn timer ran out: the first person the table waits for gets the move the
        ``easy`` computer player would make from their seat's view."""
        state = self.state
        waiting = [p for p in self.waiting_for() if (seat := state.seat(p)) is not None and not seat.bot]
        if step != state.step or not waiting:
            raise RuleViolation(_("That turn is already over."))
        actor = waiting[0]
        # The default move carries the step forward.
        self._record("timeout", actor, player=actor)
        try:
            self._policy_move(actor, "easy")
        except RuleViolation:
            # As for a computer player: where the rules refuse the policy's choice, a
            # legal move is made instead.
            self._default_move(actor)

    def bot_move(self, actor: int, step: int) -> None:
        """A computer player's move: its level's policy (``bots``) decides from its seat's
        view alone."""
        seat = self.state.seat(actor)
        if seat is None or not seat.bot:
            raise RuleViolation(_("That is not a computer player here."))
        if step != self.state.step or actor not in self.waiting_for():
            raise RuleViolation(_("That move is out of date: the table has moved on."))
        if not self.state.awaiting and self.rng.random() < BOT_CARD_CHANCE and self._bot_card(actor):
            return
        try:
            self._policy_move(actor, seat.bot)
        except RuleViolation:
            # The policy sees only its seat's view; where the rules refuse what it chose (a
            # space a Queen locked, a broker a Conjurer owes, an answer a card does not
            # take), a legal move is made instead.
            self._default_move(actor)

    def _bot_card(self, actor: int) -> bool:
        """A computer player plays a held card it may play now, or uses one in effect for
        it, picked at random; False if it has none."""
        state = self.state
        holdings = self._holdings(actor)
        moves: list[list[str]] = []
        if holdings["played"] < t.PLAYS_PER_ROUND:
            moves += [
                [card]
                for card, won in holdings["cards"]
                if won < state.round and card in EFFECTS and self._window_ahead(t.window_of(card))
            ]
        for entry in state.effects:
            if entry["player"] == actor and entry["card"] in USES:
                words = USES[entry["card"]][1](self, actor)
                if words is not None:
                    moves.append([entry["card"], *words])
        if not moves:
            return False
        card, *words = self.rng.choice(moves)
        self.play(actor, card, *words)
        return True

    # -- default moves ---------------------------------------------------------------

    def _default_move(self, actor: int) -> None:
        """A legal move for ``actor`` where the table waits for them: brokers and spaces
        at random, the strongest colour for a gem, a nudge up of the strongest colour that
        can go up."""
        state = self.state
        rng = self.rng
        if state.awaiting:
            prompt = state.awaiting[0]
            ask = prompt["ask"]
            if ask == "take":
                ranked = sorted(prompt["options"], key=self._gem_strength)
                answer = ranked[: prompt["count"]]
            elif ask == "nudge":
                answer = bots.strongest_nudge(state.prices)
            elif ask == "order":
                answer = [str(min(prompt["options"]))]  # to place first, and win ties
            elif ask in ANSWERS:
                answer = ANSWERS[ask][1](self, prompt)
            else:
                answer = [scoring.colour_ranking(state.prices)[0]]
            self.choose(actor, answer)
            return
        holdings = self._holdings(actor)
        if state.stage == "bid":
            first, second = rng.sample(holdings["screen"], 2)
            self.bid(actor, first, second)
        elif state.stage == "favour":
            self.favour(actor, rng.choice(holdings["front"]))
        elif state.turn_part == "neutral":
            self.place_neutral(actor, rng.choice(state.neutral_left(actor)), rng.choice(self._free_spaces()))
        else:
            owed = [value for e in self.effects_of("conjurer") if e["player"] == actor for value in e["owed"]]
            rest = list(holdings["screen"])
            for value in owed:
                rest.remove(value)
            up_value, down_value = [*owed, *rng.sample(rest, 2 - len(owed))]
            up = rng.choice(self._free_spaces())
            down = rng.choice([space for space in self._free_spaces() if space != up or space[0] == "city"])
            self.place(actor, up_value, up, down_value, down)

    def _policy_move(self, actor: int, level: str) -> None:
        """Make the move ``level``'s policy chooses for ``actor`` from their seat's view:
        first the cards it plays (one the rules refuse is skipped), then its move."""
        move = bots.decide(level, seat_view(self.state, actor), self.rng)
        for card in move.get("play", ()):
            try:
                self.play(actor, card)
            except RuleViolation:
                continue
        kind = move["move"]
        if kind == "bid":
            self.bid(actor, *move["brokers"])
        elif kind == "place":
            (up_value, up_space), (down_value, down_space) = move["up"], move["down"]
            self.place(actor, up_value, up_space, down_value, down_space)
        elif kind == "neutral":
            # The first of the values the policy gives that the seat still has goes.
            left = self.state.neutral_left(actor)
            value = next((v for v in move["values"] if v in left), move["values"][0])
            self.place_neutral(actor, value, move["space"])
        elif kind == "choose":
            self.choose(actor, move["answer"])
        else:
            self.favour(actor, move["value"])

    def _gem_strength(self, gem: str) -> int:
        """How good a gem is to take by default: the strongest colour first, white (any
        colour) before all."""
        if gem == t.WHITE:
            return -1
        return scoring.colour_ranking(self.state.prices).index(gem)

    def _free_spaces(self) -> list[list[Any]]:
        """Every space a broker may go on now."""
        spaces: list[list[Any]] = [["city", q, ring] for q in range(self.quadrants()) for ring in t.RINGS]
        locked = [entry["space"] for entry in self.effects_of("queen")]
        spaces = [space for space in spaces if space not in locked]
        taken = [entry["space"] for entry in self.state.placed]
        for row, gem in enumerate(self.state.market):
            if gem is not None:
                spaces.extend(["market", row, c] for c in t.COLOURS if ["market", row, c] not in taken)
        return spaces

    # -- how a round goes ------------------------------------------------------------

    def _begin_round(self) -> None:
        state = self.state
        number = state.round + 1
        quadrants = self.quadrants()
        deck = list(state.gem_deck)
        laid = [deck.pop() if q < quadrants else -1 for q in range(t.QUADRANTS)]
        market_card = deck.pop()
        players = self.player_count()
        # A corner turns up its next card only beside a quadrant in play.
        corners = [
            {"up": c["stack"][-1], "stack": c["stack"][:-1]} if c["stack"] and q < quadrants else dict(c, up=None)
            for q, c in enumerate(state.corners)
        ]
        market = t.market_rows(market_card, players)
        event = self._record(
            "round",
            NOBODY,
            round=number,
            laid=laid,
            market_card=market_card,
            market=market,
            market_gems=[t.market_row_gems(row, players) if gem else 0 for row, gem in enumerate(market)],
            cards=[corner["up"] for corner in corners],
        )
        for holdings in state.players:
            mine = [entry["value"] for entry in state.placed if entry["player"] == holdings["id"]]
            screen = sorted([*holdings["screen"], *holdings["front"], *mine])
            if holdings["id"] == t.NEUTRAL:
                # A set for each player to place (a game begun with one shared set has
                # them from its next round on).
                screen = sorted(t.NEUTRAL_BROKERS * self.player_count())
            self._player(event, holdings["id"], screen=screen, front=[])
            if holdings["played"]:
                self._player(event, holdings["id"], played=0)
        for name, value in (
            ("round", number),
            ("gem_deck", deck),
            ("laid", laid),
            ("market_card", market_card),
            ("quadrant_gems", [t.card_gems(card, players) if card >= 0 else [] for card in laid]),
            ("market", market),
            ("corners", corners),
            ("placed", []),
            ("stage", "bid"),
            ("window", ""),
            ("turn", NOBODY),
            ("turn_part", ""),
            ("effects", []),
        ):
            self._set(event, name, value)

    def _reveal_bids(self) -> None:
        """Every player has bid: the bids are shown, and the players choose the order
        cards they play this round with, from the highest sum down; on a tie, whoever
        held the lower order card before chooses first (``tables``: the seed's words)."""
        state = self.state
        before = list(state.order)
        bids = {p: self._holdings(p)["front"] for p in before}
        choosers = sorted(before, key=lambda p: (-sum(bids[p]), before.index(p)))
        event = self._record("bids", NOBODY, bids=[[p, bids[p], sum(bids[p])] for p in before], choosers=choosers)
        self._set(event, "stage", "order")
        self._ask_order(event, choosers)

    def choose_order(self, actor: int, card: int, step: int | None = None) -> None:
        """Choose the order card you play this round with, when the table asks you:
        card 1 places first (and wins the ties the order card decides)."""
        state = self.state
        if state.phase == PLAYING and not (state.awaiting and state.awaiting[0]["ask"] == "order"):
            if state.stage == "bid" and not state.awaiting:
                raise RuleViolation(_("Order cards are chosen once everyone has bid."))
            raise RuleViolation(_("No order card is being chosen now."))
        self.choose(actor, [str(card)], step)

    def _ask_order(self, event: Event, choosers: list[int]) -> None:
        """Ask ``choosers`` in turn for an order card, each from those still free; the
        last takes the one left, and then placement begins in the new order."""
        state = self.state
        taken = {card for _unused, card in state.order_cards}
        free = [card for card in range(1, len(state.order) + 1) if card not in taken]
        if len(choosers) > 1:
            self._set(event, "awaiting", [{"player": p, "ask": "order", "options": free} for p in choosers])
            return
        chosen = [*state.order_cards, [choosers[0], free[0]]]
        order = [player for player, _unused in sorted(chosen, key=lambda pair: pair[1])]
        event = self._record("order", NOBODY, order=order, turn=order[0], last=[choosers[0], free[0]])
        for name, value in (
            ("awaiting", []),
            ("order_cards", []),
            ("order", order),
            ("stage", "place"),
            ("turn", order[0]),
            ("turn_part", "pair"),
        ):
            self._set(event, name, value)
        self._window(event, t.START_OF_PLACEMENT)

    def _after_pair(self, event: Event, actor: int) -> None:
        """The pair of ``actor`` is placed: their after-pair cards, then the next player
        with more than one broker behind the screen (none: resolution)."""
        self._window(event, t.AFTER_PAIR, actor)
        if self.state.awaiting:
            # A card played after the pair asks its player first (``cards``).
            self._set(event, "turn_part", "cards")
            return
        self._next_turn(actor)

    def _next_turn(self, actor: int) -> None:
        """The next player after ``actor`` with more than one broker behind the screen
        places (none: resolution)."""
        state = self.state
        at = state.order.index(actor)
        following = state.order[at + 1 :] + state.order[: at + 1]
        upcoming = next((p for p in following if len(self._holdings(p)["screen"]) > 1), NOBODY)
        if upcoming == NOBODY:
            self._begin_resolution()
            return
        turn = self._record("turn", upcoming, player=upcoming)
        self._set(turn, "turn", upcoming)
        self._set(turn, "turn_part", "pair")

    def _begin_resolution(self) -> None:
        state = self.state
        event = self._record("resolve", NOBODY, round=state.round)
        for holdings in state.players:
            if holdings["id"] != t.NEUTRAL:
                front = sorted([*holdings["front"], *holdings["screen"]])
                self._player(event, holdings["id"], front=front, screen=[])
        event.data["placed"] = [dict(entry, up=True) for entry in state.placed]
        event.data["fronts"] = [[p, self._holdings(p)["front"]] for p in state.order]
        for name, value in (
            ("placed", event.data["placed"]),
            ("stage", "resolve"),
            ("turn", NOBODY),
            ("turn_part", ""),
        ):
            self._set(event, name, value)
        self._window(event, t.START_OF_RESOLUTION)
        quadrants = range(self.quadrants())
        tasks: list[list[Any]] = [["space", q, ring] for q in quadrants for ring in t.RINGS]
        tasks += [["quadrant", q] for q in quadrants]
        tasks += [["row", row] for row in range(t.MARKET_ROWS)]
        tasks += [["prices"], ["nudge"], ["window", t.END_OF_ROUND], ["end"]]
        self._set(event, "tasks", tasks)
        self._run(event)

    def _run(self, event: Event) -> None:
        """Work through the resolution's tasks until one waits for a choice or all are
        done."""
        state = self.state
        while state.phase == PLAYING and state.stage == "resolve" and state.tasks and not state.awaiting:
            task = state.tasks[0]
            self._set(event, "tasks", state.tasks[1:])
            kind = task[0]
            if kind == "space":
                self._resolve_space(task[1], task[2], *task[3:])
            elif kind == "quadrant":
                self._resolve_quadrant(task[1], *task[2:])
            elif kind == "take":
                self._take_gems(task[1], task[2], task[3])
            elif kind == "row":
                self._resolve_row(task[1])
            elif kind == "prices":
                self._move_prices()
            elif kind == "nudge":
                self._nudge()
            elif kind == "window":
                self._window(event, task[1])
            else:
                self._end_round()

    def rank(self, where: Callable[[list[Any]], bool], decided: list[int] | None = None) -> list[tuple[int, int]]:
        """The players with brokers on the spaces ``where`` picks, best first, with their
        sums (a broker counting :func:`worth`): the higher sum, then the order ``decided``
        by an Intriguer among the tied, then the neutral player (who wins all ties), then
        the higher sum in front of the screen, then the lower order card."""
        sums: Counter[int] = Counter()
        present: set[int] = set()
        for entry in self.state.placed:
            if where(entry["space"]):
                sums[entry["player"]] += worth(entry)
                present.add(entry["player"])
        return [(p, sums[p]) for p in sorted(present, key=self._tie_key(sums, decided or []))]

    def _tie_key(self, sums: Counter[int], decided: list[int]) -> Callable[[int], tuple[int, int, int, int, int]]:
        order = self.state.order

        def key(p: int) -> tuple[int, int, int, int, int]:
            chosen = decided.index(p) if p in decided else 0
            if p == t.NEUTRAL:
                return (-sums[p], chosen, 0, 0, 0)
            return (-sums[p], chosen, 1, -sum(self._holdings(p)["front"]), order.index(p))

        return key

    def effects_of(self, card: str) -> list[dict[str, Any]]:
        """The effects of ``card`` this round, in the order they began."""
        return [entry for entry in self.state.effects if entry["card"] == card]

    def _city_tie(self, task: list[Any], ranked: list[tuple[int, int]], paid: int) -> bool:
        """With an Intriguer in effect, a tie in the city that decides a prize is put to its
        player: ``task`` waits at the head of the tasks and True is returned."""
        intriguers = self.effects_of("intriguer")
        totals = [total for _unused, total in ranked]
        prized = set(totals[:paid])
        tied = [p for p, total in ranked if total in prized and totals.count(total) > 1]
        if not intriguers or not tied:
            return False
        player = intriguers[0]["player"]
        event = self._record("asked", player, player=player, ask="intriguer", tied=tied, task=task)
        self._set(event, "tasks", [task, *self.state.tasks])
        self._ask(event, {"player": player, "ask": "intriguer", "tied": tied})
        return True

    def _resolve_space(self, quadrant: int, ring: str, decided: list[int] | None = None) -> None:
        ranked = self.rank(lambda space: space == ["city", quadrant, ring], decided)
        corner = self.state.corners[quadrant]
        card = corner["up"] if ring == "palace" else None
        paid = 0 if ring == "palace" and card is None else 1
        if not ranked or (decided is None and self._city_tie(["space", quadrant, ring], ranked, paid)):
            return
        winner = ranked[0][0]
        event = self._record(
            "win", winner, player=winner, space=["city", quadrant, ring], ranking=[list(r) for r in ranked]
        )
        holdings = self._holdings(winner)
        if ring == "port":
            self._gems(event, winner, {t.BLACK: 1})
            event.data["prize"] = t.BLACK
        elif ring == "commercial":
            won = t.MERCHANT_POINTS if self.effects_of("merchant") else t.COMMERCIAL_POINTS
            self._player(event, winner, points=holdings["points"] + won)
            event.data.update(prize="points", points=won)
        elif card is not None:
            event.data["prize"] = card
            corners = [dict(c) for c in self.state.corners]
            corners[quadrant]["up"] = None
            self._set(event, "corners", corners)
            self._won_card(event, winner, card)

    def _won_card(self, event: Event, winner: int, card: str) -> None:
        """``winner`` takes the action card ``card``: the immediate ones take effect at
        once; the neutral player takes a gem of the strongest colour instead of any other."""
        holdings = self._holdings(winner)
        if card in t.CARD_POINTS:
            self._player(event, winner, points=holdings["points"] + t.CARD_POINTS[card])
            self._set(event, "discard", [*self.state.discard, card])
        elif winner == t.NEUTRAL:
            strongest = scoring.colour_ranking(self.state.prices)[0]
            self._gems(event, winner, {strongest: 1})
            event.data["gem"] = strongest
            self._set(event, "discard", [*self.state.discard, card])
        elif card == t.BLUE_CARD:
            self._set(event, "discard", [*self.state.discard, card])
            self._ask(event, {"player": winner, "ask": "gem"})
        else:
            self._player(event, winner, cards=[*holdings["cards"], [card, self.state.round]])

    def _resolve_quadrant(self, quadrant: int, decided: list[int] | None = None) -> None:
        ranked = self.rank(lambda space: space[0] == "city" and space[1] == quadrant, decided)
        lying = len(self.state.quadrant_gems[quadrant])
        paid = len([i for i in range(len(t.QUADRANT_TAKES)) if sum(t.QUADRANT_TAKES[:i]) < lying])
        if not ranked or (decided is None and self._city_tie(["quadrant", quadrant], ranked, paid)):
            return
        event = self._record("quadrant", ranked[0][0], quadrant=quadrant, ranking=[list(r) for r in ranked])
        takes = [["take", p, quadrant, count] for (p, _unused), count in zip(ranked, t.QUADRANT_TAKES, strict=False)]
        self._set(event, "tasks", [*takes, *self.state.tasks])

    def _take_gems(self, player: int, quadrant: int, count: int) -> None:
        gems = self.state.quadrant_gems[quadrant]
        count = min(count, len(gems))
        if count == 0:
            return
        choices = {tuple(sorted(combo)) for combo in itertools.combinations(gems, count)}
        if len(choices) == 1 or player == t.NEUTRAL:
            chosen = sorted(gems, key=self._gem_strength)[:count]
            event = self._record("take", player, player=player, quadrant=quadrant, gems=sorted(chosen))
            self._from_quadrant(event, player, quadrant, chosen)
            return
        event = self._record("asked", player, player=player, ask="take", quadrant=quadrant, count=count)
        self._ask(event, {"player": player, "ask": "take", "quadrant": quadrant, "count": count, "options": gems})

    def _from_quadrant(self, event: Event, player: int, quadrant: int, chosen: list[str]) -> None:
        rest = list(self.state.quadrant_gems[quadrant])
        for gem in chosen:
            rest.remove(gem)
        lying = [list(g) for g in self.state.quadrant_gems]
        lying[quadrant] = rest
        self._set(event, "quadrant_gems", lying)
        self._receive(event, player, chosen)

    def _resolve_row(self, row: int) -> None:
        gem = self.state.market[row]
        ranked = self.rank(lambda space: space[0] == "market" and space[1] == row)
        if gem is None or not ranked:
            return
        winner = ranked[0][0]
        count = t.market_row_gems(row, self.player_count())
        ranking = [list(r) for r in ranked]
        event = self._record("row", winner, player=winner, row=row, gem=gem, count=count, ranking=ranking)
        market = list(self.state.market)
        market[row] = None
        self._set(event, "market", market)
        self._receive(event, winner, [gem] * count)

    def _move_prices(self) -> None:
        state = self.state
        order = state.order

        def key(colour: str) -> tuple[int, int, int, int, int]:
            column = [e for e in state.placed if e["space"][0] == "market" and e["space"][2] == colour]
            players = {e["player"] for e in column}
            best = (0, len(order) + 1)
            if t.NEUTRAL in players:
                best = (-1000, -1)
            elif players:
                best = min((-sum(self._holdings(p)["front"]), order.index(p)) for p in players)
            total = sum(worth(e) for e in column)
            return (-total, -len(column), best[0], best[1], t.COLOURS.index(colour))

        ranked = sorted(t.COLOURS, key=key)
        prices = dict(state.prices)
        moves = []
        for colour, move in zip(ranked, t.PRICE_MOVES, strict=True):
            prices[colour] = min(max(prices[colour] + move, t.PRICE_LOW), t.PRICE_HIGH)
            moves.append([colour, move])
        event = self._record("prices", NOBODY, ranking=ranked, moves=moves, prices=prices)
        self._set(event, "prices", prices)

    def _nudge(self) -> None:
        ranked = self.rank(lambda space: space[0] == "market")
        if not ranked:
            return
        winner = ranked[0][0]
        if winner == t.NEUTRAL:
            gems = self._holdings(t.NEUTRAL)["gems"]
            colour = min(t.COLOURS, key=lambda c: (-gems.get(c, 0), t.COLOURS.index(c)))
            self._price(winner, colour, 1)
            return
        event = self._record("asked", winner, player=winner, ask="nudge")
        self._ask(event, {"player": winner, "ask": "nudge"})

    def _price(self, player: int, colour: str, move: int) -> Event:
        """Move one colour's price (a nudge): its event, which is the whole answer to a
        nudge asked of a player (the price moved says who chose what)."""
        prices = dict(self.state.prices)
        was = prices[colour]
        prices[colour] = min(max(was + move, t.PRICE_LOW), t.PRICE_HIGH)
        event = self._record("nudge", player, player=player, colour=colour, move=move, prices=prices, was=was)
        self._set(event, "prices", prices)
        return event

    def _end_round(self) -> None:
        state = self.state
        event = self._record("endround", NOBODY, round=state.round)
        unwon = [corner["up"] for corner in state.corners if corner["up"] is not None]
        if unwon:
            self._set(event, "discard", [*state.discard, *unwon])
        self._set(event, "corners", [{"up": None, "stack": c["stack"]} for c in state.corners])
        self._set(event, "quadrant_gems", [[] for _unused in state.quadrant_gems])
        self._set(event, "market", [None] * t.MARKET_ROWS)
        if self.setting("favour"):
            self._set(event, "stage", "favour")
            self._set(event, "window", "")
            return
        self._next_round()

    def _next_round(self) -> None:
        if self.state.round >= t.ROUNDS:
            self._final_scoring()
        else:
            self._begin_round()

    def _final_scoring(self) -> None:
        state = self.state
        neutral = t.NEUTRAL if state.player(t.NEUTRAL) is not None else None
        gems = {h["id"]: {c: h["gems"].get(c, 0) for c in t.COLOURS} for h in state.players}
        colour = scoring.colour_points(gems, dict(state.prices), neutral)
        favour = scoring.favour_points({p: sum(self._holdings(p)["favour"]) for p in state.order})
        use_favour = bool(self.setting("favour"))
        lines = []
        totals: dict[int, int] = {}
        for p in state.order:
            holdings = self._holdings(p)
            black = scoring.black_gem_points(holdings["gems"].get(t.BLACK, 0))
            kings = favour.get(p, 0) if use_favour else 0
            total = holdings["points"] + black + colour.get(p, 0) + kings
            totals[p] = total
            lines.append([p, holdings["points"], black, colour.get(p, 0), kings, total])
        gem_counts = {p: sum(self._holdings(p)["gems"].values()) for p in state.order}
        winners = scoring.winners(totals, gem_counts)
        best = totals[winners[0]]
        names = [self.name_of(p) for p in winners]
        # Kept as a message, shown to each reader in their language (i18n.stored).
        result = stored(said("{names} won Ys with {points} points.", names=_both(names), points=best))
        event = self._record(
            "score",
            winners[0],
            scores=lines,
            winners=names,
            winner_ids=winners,
            result=result,
            outcome="won",
        )
        for p, *_unused, total in lines:
            self._player(event, p, points=total)
        for name, value in (
            ("phase", OVER),
            ("stage", ""),
            ("window", ""),
            ("turn", NOBODY),
            ("result", result),
            ("awaiting", []),
            ("tasks", []),
            ("queued", []),
            ("effects", []),
        ):
            self._set(event, name, value)

    # -- choices ---------------------------------------------------------------------

    def _answer(self, actor: int, prompt: dict[str, Any], words: list[str]) -> None:
        ask = prompt["ask"]
        if ask == "order":
            free = [str(card) for card in prompt["options"]]
            if len(words) != 1 or words[0] not in free:
                raise RuleViolation(_("Choose one of the free order cards: order {cards}.").format(cards=either(free)))
            event = self._record("ordercard", actor, player=actor, card=int(words[0]))
            self._set(event, "order_cards", [*self.state.order_cards, [actor, int(words[0])]])
            self._ask_order(event, [p["player"] for p in self.state.awaiting[1:]])
            return
        if ask in ("gem", "white"):
            if len(words) != 1 or words[0] not in t.COLOURS:
                raise RuleViolation(_("Choose a colour: {colours}.").format(colours=", ".join(t.COLOURS)))
            event = self._record("chose", actor, player=actor, ask=ask, gems=words)
            self._set(event, "awaiting", self.state.awaiting[1:])
            self._gems(event, actor, {words[0]: 1})
        elif ask == "take":
            options = Counter(prompt["options"])
            wanted = Counter(words)
            if len(words) != prompt["count"] or any(wanted[g] > options[g] for g in wanted):
                have = " ".join(prompt["options"])
                count = prompt["count"]
                refusal = ngettext("Take {n} of the gems there: {gems}.", "Take {n} of the gems there: {gems}.", count)
                raise RuleViolation(refusal.format(n=count, gems=have))
            event = self._record("take", actor, player=actor, quadrant=prompt["quadrant"], gems=sorted(words))
            self._set(event, "awaiting", self.state.awaiting[1:])
            self._from_quadrant(event, actor, prompt["quadrant"], words)
        elif ask == "nudge":
            if len(words) != 2 or words[0] not in t.COLOURS or words[1] not in ("up", "down"):
                raise RuleViolation(_("Move one colour's price: <colour> up, or <colour> down."))
            event = self._price(actor, words[0], 1 if words[1] == "up" else -1)
            self._set(event, "awaiting", self.state.awaiting[1:])
        elif ask in ANSWERS:
            event = ANSWERS[ask][0](self, actor, prompt, words)
        else:
            raise RuleViolation(_("That choice is answered with its card's command."))
        state = self.state
        if state.stage == "resolve":
            self._run(event)
        elif state.turn_part == "cards" and not state.awaiting:
            self._next_turn(state.turn)
        elif state.stage == "place" and state.turn_part == "pair" and not state.awaiting:
            # The table waited for a card played before placement: the first pair is due
            # now, and its player is told again.
            turn = self._record("turn", state.turn, player=state.turn)
            self._set(turn, "turn", state.turn)
            self._set(turn, "turn_part", "pair")

    def _ask(self, event: Event, prompt: dict[str, Any]) -> None:
        self._set(event, "awaiting", [*self.state.awaiting, prompt])

    def _receive(self, event: Event, player: int, gems: list[str]) -> None:
        """``player`` takes ``gems``; each white one is swapped at once for a coloured gem
        of their choice (the neutral player's: of the strongest colour)."""
        kept = Counter(gem for gem in gems if gem != t.WHITE)
        for _unused in range(gems.count(t.WHITE)):
            if player == t.NEUTRAL:
                kept[scoring.colour_ranking(self.state.prices)[0]] += 1
            else:
                self._ask(event, {"player": player, "ask": "white"})
        if kept:
            self._gems(event, player, dict(kept))

    def _gems(self, event: Event, player: int, more: dict[str, int]) -> None:
        gems = dict(self._holdings(player)["gems"])
        for gem, count in more.items():
            gems[gem] = gems.get(gem, 0) + count
        self._player(event, player, gems=gems)

    # -- timing windows ---------------------------------------------------------------

    def _window(self, event: Event, name: str, only: int | None = None) -> None:
        """The table reaches the timing window ``name``: the cards queued for it (only
        those of ``only``, after their pair) take effect, in turn order."""
        state = self.state
        self._set(event, "window", name)
        due = [entry for entry in state.queued if t.window_of(entry[1]) == name and only in (None, entry[0])]
        if not due:
            return
        due.sort(key=lambda entry: state.order.index(entry[0]))
        self._set(event, "queued", [entry for entry in state.queued if entry not in due])
        for player, card in due:
            effect = self._record("effect", player, player=player, card=card, window=name)
            EFFECTS[card](self, effect, player)

    def _window_ahead(self, window: str) -> bool:
        """Whether a card of ``window`` played now still takes effect this round."""
        stage = _STAGES.index(self.state.stage) if self.state.stage in _STAGES else len(_STAGES)
        if window == t.START_OF_PLACEMENT:
            return stage == 0
        if window in (t.AFTER_PAIR, t.START_OF_RESOLUTION):
            return stage <= 1
        if window == t.END_OF_ROUND:
            return stage <= 1 or (stage == 2 and self.state.window != t.END_OF_ROUND)
        return False

    # -- bookkeeping -----------------------------------------------------------------

    def _change(self, event: Event, delta: list[Any]) -> None:
        """Apply ``delta``, recorded with the newest event of the move: a change made for an
        earlier event after a later one began (a resolution task's bookkeeping) must
        still replay after that later event's changes."""
        super()._change(self._events[-1] if self._events else event, delta)

    def _player(self, event: Event, account_id: int, **changes: Any) -> None:
        self._change(event, ["player", account_id, changes])

    def _holdings(self, account_id: int) -> dict[str, Any]:
        holdings = self.state.player(account_id)
        if holdings is None:
            raise RuleViolation(_("Only players in this game can do that."))
        return holdings

    # -- checks ----------------------------------------------------------------------

    def _acting(self, actor: int, step: int | None, stage: str, part: str = "") -> dict[str, Any]:
        """The holdings of ``actor``, who must be a player the table waits for in
        ``stage`` (and, in placement, for ``part``)."""
        state = self.state
        if state.phase != PLAYING:
            raise RuleViolation(_("No game is being played here. The host starts one with: start"))
        holdings = self._holdings(actor)
        if step is not None and step != state.step:
            raise RuleViolation(_("That move is out of date: the table has moved on."))
        if state.awaiting:
            asked = state.awaiting[0]
            if asked["player"] != actor:
                refusal = _("The table waits for {name} to choose.")
                raise RuleViolation(refusal.format(name=self.name_of(asked["player"])))
            if asked["ask"] == "order":
                free = either([str(card) for card in asked["options"]])
                raise RuleViolation(_("Choose your order card first: order {cards}.").format(cards=free))
            raise RuleViolation(_("Answer what the table asks of you first (look shows it)."))
        if state.stage != stage:
            raise RuleViolation(_(_NOT_NOW[stage]))
        if stage == "place":
            if state.turn != actor:
                refusal = _("It is {name}'s turn to place, not yours.")
                raise RuleViolation(refusal.format(name=self.name_of(state.turn)))
            if state.turn_part != part:
                raise RuleViolation(_(_NOT_NOW[state.turn_part]))
        return holdings

    def _take(self, brokers: list[int], values: list[int], in_front: bool = False) -> list[int]:
        """``brokers`` (the player's, behind their screen, or ``in_front`` of it) without
        ``values``; RuleViolation if they are not all there."""
        rest = list(brokers)
        for value in values:
            number = isinstance(value, int) and not isinstance(value, bool)
            if not number or value not in rest:
                if number and value in brokers:
                    if in_front:
                        refusal = _("You have only one broker {value} in front of your screen.")
                    else:
                        refusal = _("You have only one broker {value} behind your screen.")
                elif in_front:
                    refusal = _("You have no broker {value} in front of your screen.")
                else:
                    refusal = _("You have no broker {value} behind your screen.")
                raise RuleViolation(refusal.format(value=value))
            rest.remove(value)
        return rest

    def _placeable(self, space: list[Any]) -> None:
        if any(entry["space"] == space for entry in self.effects_of("queen")):
            raise RuleViolation(_("The Queen has locked that space until resolution."))
        if space[0] == "city":
            if space[1] >= self.quadrants():
                raise RuleViolation(_("This game plays quadrants 1 to {n}.").format(n=self.quadrants()))
            return
        if self.state.market[space[1]] is None:
            raise RuleViolation(_("No broker may go in a market row without a gem."))
        if any(entry["space"] == space for entry in self.state.placed):
            raise RuleViolation(_("A market space holds one broker."))


_NOT_NOW = {
    "bid": N_("This is not the time to bid."),
    "place": N_("This is not the time to place brokers."),
    "favour": N_("This is not the time for the King's favour."),
    "pair": N_("Place your own pair now."),
    "neutral": N_("Place one of the neutral player's brokers now (2 players)."),
}


def either(words: list[str]) -> str:
    """``a``, ``a or b``, ``a or b or c`` (the choices a player may type)."""
    if len(words) <= 1:
        return "".join(words)
    return _("{choices} or {last}").format(choices=either(words[:-1]), last=words[-1])


def _both(names: list[str]) -> str | Said:
    """``a``, ``a and b``, ``a and b and c`` (winners' names), as a message each reader
    is shown in their language."""
    if len(names) <= 1:
        return "".join(names)
    return said("{names} and {last}", names=_both(names[:-1]), last=names[-1])


def worth(entry: dict[str, Any]) -> int:
    """What a placed broker counts at resolution: its number, or what a Mercenary made it."""
    return int(entry.get("worth", entry["value"]))


def _holdings(account_id: int, brokers: list[int]) -> dict[str, Any]:
    return {
        "id": account_id,
        "screen": list(brokers),
        "front": [],
        "gems": {gem: 0 for gem in (*t.COLOURS, t.BLACK)},
        "points": 0,
        "cards": [],
        "played": 0,
        "favour": [],
    }


__all__ = ["BOT_NAMES", "EFFECTS", "LEVELS", "WAITING", "YsTable", "space_of"]
