"""Commands for playing Ys in a game room; how its events and board read; its GMCP
package ``Ys.View``. Everything shown comes from the game's visibility policy
(:mod:`games.ys.visibility`): the lines from ``event_for``, the board and the GMCP
package from the viewer's ``seat_view``."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from commands.games import GameCommands, send_packages, with_presence
from commands.table_lines import names_for
from commands.ys.play import PLAY_COMMANDS, board_for, turn_seconds
from commands.ys.render import CARD_HELP, card_help, cards_help, prompt, render_event, render_screen
from games.base import NOBODY, Event, GameTable
from games.ys import KIND
from games.ys import tables as t
from games.ys.visibility import seat_view
from i18n import N_
from server.hub import OnlinePlayer
from server.rooms import GameRoom

#: The package, with what it holds outside a Ys room.
EMPTY_VIEWS: dict[str, Any] = {"Ys.View": {}}
#: The fields of the table whose last value an event set tell what it waits for next.
PROMPT_FIELDS = ("awaiting", "turn", "turn_part", "stage")


def event_line(table: GameTable, event: Event, viewer: int, past: bool = False) -> str:
    """The line ``viewer`` reads about ``event`` (from what the policy shows them of it),
    and, if the event's changes leave the table waiting for someone, what for: what to
    type for the one it waits for, whom it waits for for the others (with the seconds
    they have, unless it is read ``past``)."""
    names = names_for(table, event)
    shown = KIND.event_for(table.state, event, viewer)
    line = (render_event(shown, event.kind, viewer, names, event.actor) or "") if shown is not None else ""
    after = {delta[1]: delta[2] for delta in event.deltas if delta[0] == "set" and delta[1] in PROMPT_FIELDS}
    if not after:
        return line
    players = [h["id"] for h in table.state.players if h["id"] != t.NEUTRAL]
    bots = {seat.account_id for seat in table.state.seats if seat.bot}
    if after.get("turn_part") == "neutral" and "turn" not in after:
        after["turn"] = event.data.get("player", NOBODY)
    asked = prompt(after, viewer, names, players, None if past else turn_seconds(table), bots)
    return f"{line}\n{asked}" if asked and line else line or asked


def board_text(room: GameRoom, table: GameTable, viewer: int, away: set[int], watching: list[str]) -> str:
    """The board as ``look`` draws it for ``viewer``."""
    return with_presence(board_for(room, table, viewer), table, away, watching)


def own_screen(table: GameTable, viewer: int) -> str:
    """What a returning player holds: their screen."""
    return render_screen(seat_view(table.state, viewer))


def send_view(room: GameRoom, players: list[OnlinePlayer] | None) -> None:
    """``Ys.View`` to everyone in the room who asked for GMCP (or just to ``players``),
    each their own seat's view (:func:`games.ys.visibility.seat_view`)."""
    send_packages(room, players, lambda viewer: {"Ys.View": with_card_help(seat_view(room.table.state, viewer))})


def with_card_help(view: dict[str, Any]) -> dict[str, Any]:
    """The view, with ``card_help``: for each action card it shows (face up in a corner,
    or the viewer's own), what ``help <card>`` says of it (for the browser's tooltips)."""
    shown = {corner["up"] for corner in view["corners"] if corner["up"]}
    shown |= {card for card, _won in ((view.get("you") or {}).get("cards") or [])}
    return {**view, "card_help": {card: card_help(card) for card in sorted(shown)}}


class HelpTopics(Mapping[str, str]):
    """The game's help topics, each written when it is asked for: in the language of the
    player who asks."""

    def __init__(self, topics: dict[str, Callable[[], str]]) -> None:
        self._topics = topics

    def __getitem__(self, topic: str) -> str:
        return self._topics[topic]()

    def __iter__(self) -> Iterator[str]:
        return iter(self._topics)

    def __len__(self) -> int:
        return len(self._topics)


def _card_topic(card: str) -> Callable[[], str]:
    return lambda: card_help(card)


#: Told to the maker of a new room, after "You made room <name> and are its host.".
FIRST_STEPS = N_('Add computer players with addbot (easy or normal), then type "start". "help ys" has the rules.')
#: What giving up one's seat in a running game does.
# Translators: what leaving a Ys game costs ("Leaving gives up your seat: the game ends for everyone, abandoned.").
LEAVING_COSTS = N_("the game ends for everyone, abandoned")

GAME_COMMANDS = GameCommands(
    command_sets=(PLAY_COMMANDS,),
    render_event=event_line,
    render_table=board_text,
    own_hand=own_screen,
    send_views=send_view,
    empty_views=EMPTY_VIEWS,
    first_steps=FIRST_STEPS,
    leaving_costs=LEAVING_COSTS,
    rules_help=t.RULES_HELP,
    help_topics=HelpTopics({"cards": cards_help, **{card: _card_topic(card) for card in CARD_HELP}}),
    quick_bots=3,
)
