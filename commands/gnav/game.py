"""Commands for playing Gnav in a game room; how its events and table read; its GMCP
package. Everything shown comes from the game's visibility policy
(:mod:`games.gnav.visibility`): the lines from ``event_for``, the table and the GMCP
package from the viewer's ``seat_view``."""

from __future__ import annotations

from typing import Any

from commands.games import GameCommands, send_packages, with_presence
from commands.gnav.play import PLAY_COMMANDS
from commands.gnav.render import render_event, render_view
from commands.table_lines import names_for
from commands.tables import timer_seconds_left
from games.base import Event, GameTable
from games.gnav import KIND, cards
from games.gnav.cards import shown_name
from games.gnav.rules import RULES_HELP
from games.gnav.visibility import seat_view
from i18n import N_
from server.hub import OnlinePlayer
from server.rooms import GameRoom

#: The package, with what it holds outside a Gnav room.
EMPTY_VIEWS: dict[str, Any] = {"Gnav.Table": {}}


def event_line(table: GameTable, event: Event, viewer: int, past: bool = False) -> str:
    """The line ``viewer`` reads about ``event``: from what the policy shows them of it
    (read ``past``, a turn's seconds are left out)."""
    names = names_for(table, event)
    shown = KIND.event_for(table.state, event, viewer)
    if past and shown is not None:
        shown = {key: value for key, value in shown.items() if key != "seconds"}
    return (render_event(shown, event.kind, viewer, names, event.actor) or "") if shown is not None else ""


def table_text(room: GameRoom, table: GameTable, viewer: int, away: set[int], watching: list[str]) -> str:
    """The table as ``look`` draws it for ``viewer``."""
    # The timer is the turn's: render_view tells it only to the player whose turn it is.
    drawing = render_view(seat_view(table.state, viewer), room.name, timer_seconds_left(room))
    return with_presence(drawing, table, away, watching)


def _card(key: str | None) -> dict[str, Any] | None:
    """A card as the page draws it: its key, its place from the lowest (0, the Fool) up,
    and its name in the reader's language."""
    return None if key is None else {"key": key, "rank": cards.order(key), "name": shown_name(key)}


def table_json(table: GameTable, viewer: int) -> dict[str, Any]:
    """``Gnav.Table`` for ``viewer``: their seat's view (nothing it may not know), the
    cards named in the viewer's language (set around it: :func:`commands.games.send_packages`).
    Each seat's ``known`` is its card now as far as the viewer knows it (the viewer's own,
    a dealt Fool, a card shown or swapped to them); ``swaps`` are the deal's swaps that
    stand, in order (with the stock: ``other`` is the stock card's place)."""
    view = seat_view(table.state, viewer)
    known = dict(view.known)
    return {
        "phase": view.phase,
        "deal": view.deal,
        "host": view.host,
        "dealer": view.dealer,
        "turn": view.turn,
        "order": list(view.order),
        "you": viewer if view.seated else None,
        "card": shown_name(view.card) if view.card is not None else None,
        "seats": [
            {
                "id": p.account_id,
                "name": p.name,
                "bot": p.bot or None,
                "lives": p.lives,
                "out": p.out,
                "resting": p.resting,
                "known": _card(known.get(p.account_id)),
            }
            for p in view.players
        ],
        "revealed": [{"holder": holder, "card": shown_name(card), "why": why} for holder, card, why in view.revealed],
        "your_card": _card(view.card),
        "ranks": [
            {"key": rank.key, "name": shown_name(rank.key), "norwegian": rank.norwegian, "matador": rank.matador}
            for rank in cards.RANKS
        ],
        "swaps": [{"how": how, "asker": asker, "other": other} for how, asker, other in view.swaps],
        "stock": view.stock_size,
    }


def send_table(room: GameRoom, players: list[OnlinePlayer] | None) -> None:
    """``Gnav.Table`` to everyone in the room who asked for GMCP (or just to ``players``),
    each their own seat's view."""
    send_packages(room, players, lambda viewer: {"Gnav.Table": table_json(room.table, viewer)})


GAME_COMMANDS = GameCommands(
    command_sets=(PLAY_COMMANDS,),
    render_event=event_line,
    render_table=table_text,
    send_views=send_table,
    empty_views=EMPTY_VIEWS,
    first_steps=N_('Add computer players with addbot (easy, normal or strong), then type "start".'),
    # Translators: what leaving a Gnav match costs ("Leaving gives up your seat: you forfeit the match.").
    leaving_costs=N_("you forfeit the match"),
    rules_help=RULES_HELP,
    quick_bots=3,
)
