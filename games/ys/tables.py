"""Ys: the numbers this table plays with, where the rules (seed 001, the Czech wiki page)
are silent or leave a choice. Every such choice is told in :data:`RULES_HELP`, under
"Choices:", one paragraph each; the rules read this module, and ``help ys`` shows
:data:`RULES_HELP`.
"""

from __future__ import annotations

from i18n import N_

#: The rules of Ys for players (``help ys``), and every choice this table makes where
#: the rules are silent or leave one (under "Choices:", a paragraph each), paragraphs
#: apart as a docstring is written (filled to the reader's window when sent).
# Translators: the quotations in Czech are the rules' own words, quoted as they are.
RULES_HELP = N_(
    """Ys: hidden brokers bid for gems in a city and its market.

4 rounds. Each round: bid two brokers for the turn order (bid <a> <b>); from the
highest bid down, each then chooses an order card (order <card>; 1 places first
and wins ties, a tie in bids going to the lower card held before); then in turn
order place a pair, one face up and one face down (place <value> <space> <value>
<space>), until each has one broker left (2 players: after each pair one neutral
broker, neutral <value> <space>). Then all are turned up: each city space goes
to the highest sum (port: a black gem, commercial: 3 points, palace: its action
card), each quadrant's gems to its top three, each market row's gem to its top
broker; the price track moves by the market's colour columns, and the top market
investor moves one price (choose <colour> up|down). Each broker on the market
scores 1 point. At the end gems score by their colour's price.

A space is c<quadrant><ring> in the city (ring p palace, c commercial, o port),
or m<row><colour> in the market (b blue, g green, y yellow, r red); quadrants
and rows are 1-4. Long forms read too: city 2 palace, market 1 blue, m1 blue.

Choices:

- Players: 2 to 5 (2: with the neutral player). Gem colours blue, green, yellow,
red (ties between colours: blue > green > yellow > red), plus black and white
gems.

- Each player's 16 brokers: 0 x1, 1 x3, 2 x3, 3 x3, 4 x2, 5 x2, 6 x1, 7 x1.
Setup removes the three 2s (5 players: also one 1 and one 3), leaving 13 (11).

- The neutral player (2 players): each player has the neutral player's brokers
4, 2, 1, 0 to place face down each round, one after each of their pairs while
they have one (the rules: each player also gets these four), so neither knows
the other's.

- The price track runs 0..6 per colour; every price starts at 3; moves stop at
the ends.

- Gem cards: 24, each one big gem (2 gems in the city; 1 with 3 or 2 players)
and two small gems (1 each); five cards show a white small gem (the 5 white
gems).

- The market card fills rows from the top: the big gem's colour (two rows with 5
players), then each small gem; with 3 or 2 players only the two small gems; the
rows left are empty. The big gem counts 2 (the seed: "za větší drahokam se
dodají 2 drahokamy této barvy, za menší jeden drahokam"): with 4 players its row
holds both gems, with 5 they go into its two rows, one each ("v 5 hráčích se
drahokamy barvy většího drahokamu dodají do 2 řádků trhu"); every other row
holds one.

- Action cards: each corner gets its blue-edged card, then 3 shuffled
yellow-edged ones on it, face down, and each round turns up the top card of each
corner (the seed: "4 akční karty s modrým okrajem se rozmístí do jednotlivých
rohů hracího plánu", then "akční karty se žlutým okrajem se zamíchají a náhodně
rozmístí rubem nahoru v počtu 3 do každého rohu"; "otočí se 4 svrchní akční
karty"): rounds 1-3 a yellow-edged card, round 4 the blue-edged one. A face-up
card nobody wins is discarded at the end of the round.

- The order cards: once all have bid, each player chooses one of those still
free, from the highest bid down, a tie going to the lower card held before (the
seed: "hráči postupně od nejvyššího součtu po nejmenší si vyberou kartu pořadí,
ve kterém budou v aktuálním kole hrát, v případě rovnosti si první vybírá hráč,
který měl předtím před sebou kartu s nižším číslem"); the last takes the card
left. A person's turn timer takes the lowest free card (it places first and wins
ties).

- Immediate cards (the 4 blue-edged "treasure": one coloured gem of your choice;
Prince: 4 points; King: 5 points) take effect as soon as they are won; the
others are held, hidden, and played from the next round on (at most 2 a round
each), in their timing window.

- Yellow-edged cards that need a choice ask their player when their window comes
(the table waits, as for a white gem); each may be answered "pass", giving the
effect up. The Spy and the Conjurer are used through placement with words ("play
spy <player> <space>", "play conjurer <front> <behind>").

- Captain swaps the cards (and the gems on them) of two city quadrants, not the
market's.

- Bishop: both brokers of each of your pairs go face down (your own numbers are
typed as ever). Queen: the locked city space takes nobody's broker, yours
included, until resolution. Magician: the two brokers trade places and each
keeps its face; one taken from the King's favour goes onto the board face down.
Mercenary: the chosen broker counts 5 wherever it is counted (spaces, quadrants,
rows, the price track).

- Intriguer: every city tie that decides a prize (a space's winner; a quadrant's
paid places) is ordered by its player, the neutral player's ties included.

- Spy: each look shows one face-down broker of one opponent (the neutral
player's included) on one space, the earliest placed there not yet seen, or one
of their brokers on the King's favour space; a look is for the Spy's player
only.

- A white gem is swapped at once: its winner is asked for a colour. A quadrant's
winner chooses their 2 gems from its card, then the 2nd and 3rd place one each.

- Ties between colours on the price track: the larger column sum, then more
brokers, then the column holding the broker of the player with the highest sum
in front of the screen, then that player's lower order card, then blue > green >
yellow > red.

- The gem supply is unlimited (the rules say to use substitutes if any run out).

- A person leaving mid-game ends the game (abandoned); computer players play to
the end.

- The final ranking: most points, then most gems (coloured and black); a tie
stays a tie. The neutral player is never ranked."""
)

#: Gem colours in tie order (the strongest first).
COLOURS = ("blue", "green", "yellow", "red")
BLACK, WHITE = "black", "white"
#: City rings, outer first: port (black gem), commercial (3 points), palace (action card).
RINGS = ("port", "commercial", "palace")
QUADRANTS = 4
MARKET_ROWS = 4
ROUNDS = 4
MIN_PLAYERS, MAX_PLAYERS = 2, 5

#: Each player's 16 brokers (0 x1, 1 x3, 2 x3, 3 x3, 4 x2, 5 x2, 6 x1, 7 x1).
BROKERS = (0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 5, 6, 7)
#: Removed at setup: the three 2s, and with 5 players also one 1 and one 3.
REMOVED = (2, 2, 2)
REMOVED_FIVE = (2, 2, 2, 1, 3)
#: The broker each player takes from the supply after the King's favour.
FAVOUR_BROKER = 2
NEUTRAL_BROKERS = (4, 2, 1, 0)
#: The neutral player's id (never a seat's: bots count down from -1, people up from 1).
NEUTRAL = -1_000_000

PRICE_LOW, PRICE_HIGH, PRICE_START = 0, 6, 3
#: Price moves by column rank, first to last.
PRICE_MOVES = (2, 1, -1, -2)
#: Victory points for each broker placed on the market, and for the commercial ring.
MARKET_POINT = 1
COMMERCIAL_POINTS = 3
#: What the commercial ring's winners score instead in a round with a Merchant played.
MERCHANT_POINTS = 5
#: A Mercenary's broker counts this much at resolution.
MERCENARY_WORTH = 5
#: Face-down enemy brokers a Spy may look at.
SPY_LOOKS = 3
#: Gems taken from a quadrant's card by its 1st, 2nd and 3rd place.
QUADRANT_TAKES = (2, 1, 1)

#: The 24 gem cards: (big gem, small gem, small gem). Five small gems are white.
GEM_CARDS: tuple[tuple[str, str, str], ...] = (
    ("blue", "white", "green"),
    ("blue", "blue", "yellow"),
    ("blue", "blue", "red"),
    ("blue", "green", "yellow"),
    ("blue", "white", "red"),
    ("blue", "green", "red"),
    ("green", "white", "blue"),
    ("green", "green", "yellow"),
    ("green", "green", "red"),
    ("green", "blue", "yellow"),
    ("green", "yellow", "red"),
    ("green", "blue", "red"),
    ("yellow", "white", "blue"),
    ("yellow", "yellow", "green"),
    ("yellow", "yellow", "red"),
    ("yellow", "blue", "green"),
    ("yellow", "green", "red"),
    ("yellow", "blue", "red"),
    ("red", "white", "blue"),
    ("red", "red", "green"),
    ("red", "red", "yellow"),
    ("red", "blue", "green"),
    ("red", "green", "yellow"),
    ("red", "blue", "yellow"),
)

#: The timing windows in which played action cards take effect.
IMMEDIATE = "immediate"
START_OF_PLACEMENT = "start_of_placement"
AFTER_PAIR = "after_pair"
START_OF_RESOLUTION = "start_of_resolution"
END_OF_ROUND = "end_of_round"
WINDOWS = (IMMEDIATE, START_OF_PLACEMENT, AFTER_PAIR, START_OF_RESOLUTION, END_OF_ROUND)
#: Non-immediate cards a player may play in one round.
PLAYS_PER_ROUND = 2

#: The blue-edged card, 4 alike (immediate: one coloured gem of your choice).
BLUE_CARD = "treasure"
#: The 20 yellow-edged cards and their timing windows.
YELLOW_CARDS: dict[str, str] = {
    "alchemist": END_OF_ROUND,
    "banker": START_OF_RESOLUTION,
    "captain": START_OF_RESOLUTION,
    "bishop": START_OF_PLACEMENT,
    "spy": START_OF_PLACEMENT,
    "herald": START_OF_RESOLUTION,
    "conjurer": START_OF_PLACEMENT,
    "intriguer": START_OF_RESOLUTION,
    "jeweller": START_OF_RESOLUTION,
    "magician": AFTER_PAIR,
    "merchant": START_OF_RESOLUTION,
    "mercenary": AFTER_PAIR,
    "queen": START_OF_PLACEMENT,
    "prince": IMMEDIATE,
    "king": IMMEDIATE,
}
#: How many of each yellow card the deck holds (20 in all).
YELLOW_COUNTS: dict[str, int] = {name: 1 for name in YELLOW_CARDS} | {
    "jeweller": 2,
    "merchant": 2,
    "banker": 2,
    "mercenary": 2,
    "spy": 2,
}
#: Immediate cards' points.
CARD_POINTS = {"prince": 4, "king": 5}
YELLOW_PER_CORNER = 3


def window_of(card: str) -> str:
    """The timing window of ``card``."""
    return IMMEDIATE if card == BLUE_CARD else YELLOW_CARDS[card]


def yellow_deck() -> list[str]:
    """The 20 yellow-edged cards, sorted (the rules shuffle them)."""
    return sorted(name for name, count in YELLOW_COUNTS.items() for _ in range(count))


def brokers_for(players: int) -> list[int]:
    """A player's brokers after setup, lowest first."""
    remaining = list(BROKERS)
    for value in REMOVED_FIVE if players >= 5 else REMOVED:
        remaining.remove(value)
    return remaining


def card_gems(card: int, players: int) -> list[str]:
    """The gems put on gem card ``card`` in a city quadrant: 2 for the big gem (1 with 3
    or fewer players), 1 for each small one."""
    big, first, second = GEM_CARDS[card]
    return [big] * (2 if players > 3 else 1) + [first, second]


def market_row_gems(row: int, players: int) -> int:
    """How many gems market row ``row`` holds when filled (see :func:`market_rows`): the
    big gem's two in its row with 4 players, else one."""
    return 2 if players == 4 and row == 0 else 1


def market_rows(card: int, players: int) -> list[str | None]:
    """The market rows filled from market card ``card``, top first (None: empty)."""
    big, first, second = GEM_CARDS[card]
    if players <= 3:
        gems: list[str] = [first, second]
    elif players >= 5:
        gems = [big, big, first, second]
    else:
        gems = [big, first, second]
    return [*gems, *[None] * (MARKET_ROWS - len(gems))][:MARKET_ROWS]
