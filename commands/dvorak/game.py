"""Commands for playing Dvorak in a game room, with the original engine's names; how its
events and table read; its GMCP packages."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import replace
from typing import cast

from commands.dvorak.building import BUILD_COMMANDS
from commands.dvorak.command_line import DECK_COMMAND_LINE
from commands.dvorak.deck import DECK_COMMANDS, SAVED_DECK_COMMANDS, split_pasted_line
from commands.dvorak.gmcp import EMPTY_VIEWS, send_table
from commands.dvorak.manage import TABLE_COMMANDS
from commands.dvorak.moves import MOVE_COMMANDS
from commands.dvorak.render import render_event, render_table
from commands.dvorak.storage.decks import DeckStore
from commands.dvorak.storage.player_decks import PlayerDeckStore
from commands.dvorak.storage.tables import card_versions
from commands.dvorak.views import VIEW_COMMANDS, own_hand
from commands.dvorak.votes import VOTE_COMMANDS
from commands.games import GameCommands
from games.dvorak.rules import Table
from i18n import N_
from persistence.database import Database
from server.rooms import GameRoom

#: The rules, for ``help dvorak``; at its end, how this table reads what the seeds leave
#: open (as :mod:`games.dvorak.rules` explains them, under "Readings").
RULES_HELP = N_(
    """Dvorak: the card game whose cards are written by its players.

The deck is the room's: anyone seated proposes new cards (newcard <name>/<A|T>/<text>) and
special rules (newrule), and the table votes on each by its number (approve 12, repeal
12). A game: the host types start; every approved card is shuffled into the draw pile and
each player is dealt a hand. On your turn draw a card, play a Thing (it stays in play) and
an Action (it happens, then is discarded), and end your turn. Cards say what else happens;
when a card lets you break the basic rules, put force in front of the command. The game
ends when a card says someone wins (win <player>).

The CCG game (set ccg=on between games): the approved cards are the room's card set,
changed only by unanimous vote between games; each player builds a deck of copies of set
cards (deckbuild add <card>=<copies>) and plays it from their own piles.

Type "commands" for every command here, "help <command>" for one, "help vote" for how
the table votes.

Readings:

Where the seeds (000 in Slovak, 002 in Spanish, 003 in Russian) leave a point open, this
table plays it so, reading the sentence quoted:

- A new, edited or removed card is decided by every seated player, and play waits for the
vote, with no time limit: "hra sa zastaví, až kým sa nedohodnú a každý hráč musí povedať, či
ju schvaľuje" (000: play stops until they agree, every player saying whether they approve).
The host may change the policy (vote), let play go on (halt) or give votes a time
(votetime); the seeds allow rules about voting to change.

- A seated player away past the grace period (5 minutes) stops counting in votes until they
are back. The seeds assume everyone sits at the table; without this, one dropped connection
would halt the table for ever.

- The first player is drawn at random: "определите, кто ходит первым, с помощью
«камень-ножницы-бумага», подбрасывания монеты, броска кубика" (003: decide who goes first by
rock-paper-scissors, a coin, a die). Turns go in seat order, which is the order of joining.

- When both the draw pile and the discard pile are empty, the turn's draw counts as made:
"если и стопка сброса пуста, игроки продолжают игру, не беря карты" (003: if the discard
pile is empty too, the players go on without drawing).

- Once no card is left to draw (both piles empty), a player still in the game who holds no
card is out, at once; the last side left wins, and if nobody is left the game is a draw:
"Когда все карты разыграны и ни одной не осталось, игроки, у которых не осталось карт,
выбывают из игры, что иногда приводит к ничьей" (003: when all cards are played and none is
left, players with no cards left are out, which sometimes ends in a draw).

- A player who joins a game in progress is dealt a hand and plays after the others; the
seeds say nothing of joining late."""
)

#: How the table votes, for ``help vote``.
VOTE_HELP = N_(
    """Voting: how the table decides what goes into the deck.

A proposal (newcard, newrule, editcard, removecard) is shown to everyone seated and put
to the vote at once; proposing counts as approving. Each seated player votes with approve
<num> or repeal <num>, and may change their vote until it is decided. The policy (set
vote=) says what decides it: unanimous (the seeds' rule, and the default: one repeal
rejects it), majority, or any (one approval accepts it). Accepted, a card is shuffled
into the draw pile; rejected, it is set aside (viewrep), and revote <num> puts it to the
vote again. Several pending proposals can be lumped into one vote (bundle).

While a vote is open, play halts (set halt=off lets it go on): as the seeds say, the game
waits until everyone has answered. A seated player who has disconnected still counts,
marked (away) in viewvote, for a grace period (5 minutes unless the server says
otherwise); away longer, the vote goes on without them until they are back.

A host may give votes a time (set votetime=<seconds>; 0, the default, is none): whoever
has not voted when it runs out counts as voting against."""
)


async def cards_as_they_were(database: Database, room: GameRoom) -> Callable[[int], Table]:
    """The room's table as an event of a given seq is read later: every card edited
    since with the words it had then (its versions, by the seq of the event that made
    each), so the log does not show a card played before an edit with the new words."""
    table = cast(Table, room.table)
    if all(card.version == 1 for card in table.state.cards.values()):
        return lambda seq: table
    histories = await card_versions(database, room.id)
    edited = {number: faces for number, faces in histories.items() if len(faces) > 1 and number in table.state.cards}

    def table_at(seq: int) -> Table:
        cards = table.state.cards
        then = {}
        for number, faces in edited.items():
            face = next((face for face in reversed(faces) if face.seq <= seq), faces[0])
            if face.version != cards[number].version:
                then[number] = replace(
                    cards[number],
                    name=face.name,
                    kind=face.kind,
                    text=face.text,
                    colour=face.colour,
                    version=face.version,
                )
        if not then:
            return table
        past = copy.copy(table)
        past.state = replace(table.state, cards={**cards, **then})
        return past

    return table_at


GAME_COMMANDS = GameCommands(
    command_sets=(
        MOVE_COMMANDS,
        VIEW_COMMANDS,
        VOTE_COMMANDS,
        TABLE_COMMANDS,
        DECK_COMMANDS,
        SAVED_DECK_COMMANDS,
        BUILD_COMMANDS,
    ),
    # A Dvorak event's line has no clock in it: read later, it reads the same.
    render_event=lambda table, event, viewer, past: render_event(table, event, viewer),
    render_table=render_table,
    own_hand=own_hand,
    send_views=send_table,
    empty_views=EMPTY_VIEWS,
    first_steps=N_('Add cards with loadcard, then type "start".'),
    leaving_costs=N_("your cards go to the discard pile (in a CCG game, your deck's copies go back to your deck)"),
    rules_help=RULES_HELP,
    help_topics={"vote": VOTE_HELP},
    lobby_command_sets=(SAVED_DECK_COMMANDS,),
    split_line=split_pasted_line,
    command_lines=(DECK_COMMAND_LINE,),
    services=lambda database, settings: (
        DeckStore(database, settings.max_saved_decks, settings.max_saved_deck_bytes),
        PlayerDeckStore(database, settings.max_saved_decks),
    ),
    tables_then=cards_as_they_were,
)
