"""The CCG game over telnet, from an empty room: a card set made by vote, three decks
built, a game played deck against deck, a set card edited between games and every copy
changed with it; decks saved (each player's own), exported, imported; the room's results."""

from __future__ import annotations

import json
import re

from server.audit import check_rooms, replay_rooms
from tests.players import ScriptedPlayer, flat, loosely


async def _vote_in(players: list[ScriptedPlayer], proposal: str) -> int:
    """``proposal`` made by the first player and approved by the others; its number."""
    reply = flat(await players[0].ask(proposal))
    number = int(re.search(r"#(\d+)", reply).group(1))  # type: ignore[union-attr]
    for voter in players[1:]:
        reply = flat(await voter.ask(f"approve {number}"))
    assert "is decided: accepted." in reply, reply
    return number


async def test_three_players_make_a_set_build_decks_play_and_change_the_set_between_games(server):
    ann, bo, cy = players = [await ScriptedPlayer.connect(server.port, name) for name in ("Ann", "Bo", "Cy")]
    try:
        await ann.ask("newroom Arena")
        for player in (bo, cy):
            await player.ask("join Arena")
        assert "You set ccg to on." in flat(await ann.ask("set ccg=on"))
        await ann.ask("set decksize=4")
        await ann.ask("set handsize=2")

        # The set, made by unanimous vote.
        goblin = await _vote_in(players, "newcard Goblin/T/Small and mean.")
        troll = await _vote_in([bo, ann, cy], "newcard Troll/T/Big and slow.")
        elf = await _vote_in([cy, ann, bo], "newcard Elf/A/Quick: draw a card.")
        await cy.client.expect(loosely(f"The vote on #{elf} Elf (Action) is decided: accepted. It joins the card set."))
        assert "already has a card called Goblin" in flat(await bo.ask("newcard goblin/A/Another."))
        viewset = flat(await bo.ask("viewset"))
        assert "The card set, version 3: 3 cards. A deck has at least 4 cards, any number of copies." in viewset
        assert f"#{troll} Troll (Thing): Big and slow." in viewset

        # Three decks; each is its builder's secret.
        for player in players:
            await player.ask(f"deckbuild add {goblin}=2")
        assert "You add 2 copies of" in flat(await ann.ask(f"build add {troll}=2"))
        await bo.client.expect(r"Ann changes their deck \(4 cards in all\)\.")
        await bo.ask(f"deckbuild add {elf}=2")
        await cy.ask(f"deckbuild add {troll}=1")
        refused = flat(await ann.ask("start"))
        assert "Cy's deck: it has 3 cards; the set asks at least 4" in refused
        await cy.ask(f"deckbuild add {elf}=1")
        listing = flat(await ann.ask("deckbuild"))
        assert f"2 x #{goblin} Goblin (Thing): Small and mean." in listing and "It can be played." in listing
        assert "Troll" not in flat(bo.client.transcript[bo.client.transcript.find("Ann changes their deck") :])
        assert "deck of 4 cards" in flat(await cy.ask("look"))
        assert "You save your deck as Rush (4 cards)." in flat(await ann.ask("deckbuild save Rush"))

        # A game, deck against deck: each draws from their own deck; nobody may propose.
        await ann.ask("start")
        for player in players:
            hand = await player.hand()
            assert len(hand) == 2
        assert "During a CCG game nobody may propose" in flat(await bo.ask("newcard Dragon/T/Breathes fire."))
        assert "Decks change between games" in flat(await bo.ask(f"deckbuild add {goblin}=1"))
        ended = flat(await ann.ask("win Bo"))
        assert "*** Bo wins! ***" in ended
        assert "deck of 4 cards" in flat(await ann.ask("look"))

        # Between games a set card is edited by unanimous vote: every copy changes.
        edited = flat(await bo.ask(f"editcard {goblin}/Goblin/T/Big and mean."))
        assert f"You propose changing #{goblin} Goblin (Thing) to:" in edited
        await ann.ask(f"approve {goblin}")
        decided = flat(await cy.ask(f"approve {goblin}"))
        assert "It now reads: #1 Goblin (Thing): Big and mean. Every copy in every deck reads the same." in decided
        for player in players:
            deck = flat(await player.ask("deckbuild"))
            assert f"#{goblin} Goblin (Thing): Big and mean." in deck
            assert "Small and mean" not in deck
        assert "built against version 3 of the set, which is now at version 4" in flat(await ann.ask("deckbuild"))

        # Exported and brought back; saved decks are their owner's alone.
        exported = flat(await ann.ask("deckbuild export json"))
        line = exported[exported.index("{") : exported.rindex("}") + 1]
        assert [card["name"] for card in json.loads(line)["cards"]].count("Goblin") == 2
        await ann.ask("deckbuild clear")
        assert "You bring the deck you pasted (4 cards in all)." in flat(await ann.ask(f"deckbuild import {line}"))
        await cy.client.expect(r"Ann brings a pasted deck \(4 cards in all\)\.")
        assert "no card called Wyvern" in flat(await ann.ask("deckbuild import loadcard Wyvern/T/Flies."))
        assert 'You have no saved deck called "Rush"' in flat(await cy.ask("deckbuild load Rush"))
        brought = flat(await ann.ask("deckbuild load Rush"))
        assert "You bring your deck Rush (4 cards in all)." in brought
        assert "built against version 3 of this set, which is now at 4" in brought

        # A second game, abandoned; the room's results say how each ended.
        await ann.ask("start")
        await ann.ask("endgame stalemate")
        results = flat(await cy.ask("results"))
        assert "stalemate (deck version 4). Stalemate: nobody can win, so the game is over." in results
        assert "won: Bo (deck version 3). Bo wins!" in results
        assert results.index("stalemate") < results.index("won: Bo")
        reports = await check_rooms(server.database) + await replay_rooms(server.database)
        assert [problem for report in reports for problem in report.problems] == []
    finally:
        for player in players:
            await player.close()
