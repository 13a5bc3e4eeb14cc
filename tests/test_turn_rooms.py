"""Moves that must not get around the turn rules, end to end over real connections:
taking hidden cards, discarding before playing, using a Thing without an Action, looking at
hidden cards, loading a deck or kicking mid-game, taking a random card (the rules alone:
:mod:`tests.test_turn_rules`)."""

from __future__ import annotations

import json
import re

import pytest

from games.dvorak.state import DRAW
from tests.players import ScriptedPlayer, flat, loosely
from tests.test_game_rooms import DECK_SIZE, assert_no_hidden_card_leaked, seat_players
from tests.test_telnet_features import open_gmcp_client, read_until

FORCED = "[forced: outside the basic rules]"


async def whose_turn(players: list[ScriptedPlayer]) -> tuple[ScriptedPlayer, list[ScriptedPlayer]]:
    """The player whose turn it is, and the others in seat order."""
    current, _ = await players[0].table()
    player = next(p for p in players if p.name == current)
    return player, [p for p in players if p is not player]


async def test_taking_a_hidden_card_needs_force_and_the_refusal_does_not_say_where_it_is(server):
    players = await seat_players(server, ["Ann", "Bo", "Cy"])
    await players[0].ask("start")
    me, (other, third) = await whose_turn(players)
    await me.ask("draw")
    room = await server.rooms.find("Table One")
    in_their_hand = (await other.hand())[0].number
    in_the_draw_pile = room.table.state.pile(DRAW)[0]
    refusals = {
        flat(await me.ask(f"givecard {in_their_hand} to me")),
        flat(await me.ask(f"givecard {in_the_draw_pile} to me")),
        flat(await me.ask(f"givething {in_their_hand} to me")),
        flat(await me.ask(f"givething {in_the_draw_pile} to me")),
    }
    assert len(refusals) == 1, refusals
    refusal = refusals.pop()
    assert "only when a card says so" in refusal and "put force in front of the command" in refusal
    assert str(in_their_hand) not in refusal
    assert in_their_hand in [card.number for card in await other.hand()]
    assert room.table.state.cards[in_the_draw_pile].zone == DRAW

    reply = flat(await me.ask(f"force givecard {in_their_hand} to me"))
    assert f"You take #{in_their_hand}" in reply and FORCED in reply
    await third.client.expect(loosely(FORCED))
    assert in_their_hand in [card.number for card in await me.hand()]


async def test_shuffling_a_card_into_the_draw_pile_needs_force_and_the_refusal_does_not_say_where_it_is(server):
    """shufcard took a card from another player's hand (and showed everyone which) or
    tried the draw pile's numbers, without force: the sibling of givecard's loophole."""
    players = await seat_players(server, ["Ann", "Bo", "Cy"])
    await players[0].ask("start")
    me, (other, third) = await whose_turn(players)
    await me.ask("draw")
    room = await server.rooms.find("Table One")
    in_their_hand = (await other.hand())[0]
    in_the_draw_pile = room.table.state.pile(DRAW)[0]
    in_my_hand = (await me.hand())[0].number
    refusals = {flat(await me.ask(f"shufcard {n}")) for n in (in_their_hand.number, in_the_draw_pile, in_my_hand)}
    assert len(refusals) == 1, refusals
    assert "only when a card says so" in refusals.pop()
    assert in_their_hand.name not in flat(third.client.transcript)
    assert in_their_hand.number in [card.number for card in await other.hand()]
    reply = flat(await me.ask(f"force shufcard {in_their_hand.number}"))
    assert FORCED in reply
    assert room.table.state.cards[in_their_hand.number].zone == DRAW
    # The table is told that a card from a hand went into the draw pile, not which.
    await third.client.expect(loosely(f"shuffles a card from {other.name}'s hand into the draw pile."))
    assert in_their_hand.name not in flat(third.client.transcript)


async def test_a_change_of_control_keeps_what_is_played_on_a_thing_and_a_discard_is_announced(server):
    ann, bo = await seat_players(server, ["Ann", "Bo"])
    await ann.ask("set turns=off")
    await ann.ask("set vote=any")
    await ann.ask("start")
    things = [c for c in await ann.hand() if not c.is_action]
    while len(things) < 6:
        await ann.ask("draw")
        things = [c for c in await ann.hand() if not c.is_action]
    pairs = [(things[i], things[i + 1]) for i in range(0, 6, 2)]
    for host, rider in pairs:
        await ann.ask(f"play {host.number}")
        await ann.ask(f"play {rider.number} on {host.number}")
    (host, rider), (host2, rider2), (host3, rider3) = pairs

    reply = flat(await ann.ask(f"givething {host.number} to bo"))
    assert "discard pile" not in reply
    play = flat(await bo.ask("viewplay"))
    assert f"#{rider.number} {rider.name} (Thing): Text of card" in play and f"[on #{host.number}]" in play
    assert "Discard pile: 0 cards" in flat(await bo.ask("look"))

    reply = flat(await bo.ask(f"givecard {host.number} to me"))
    assert f"Played on it, #{rider.number} {rider.name} (Thing) also goes to the discard pile." in reply
    reply = flat(await bo.ask(f"shufcard {host2.number}"))
    assert f"Played on it, #{rider2.number} {rider2.name} (Thing) also goes to the discard pile." in reply
    await bo.ask(f"removecard {host3.number}")
    reply = flat(await ann.ask(f"approve {host3.number}"))
    assert "It is removed from the game." in reply
    assert f"Played on it, #{rider3.number} {rider3.name} (Thing) also goes to the discard pile." in reply
    discard = await ann.ask("viewdisc")
    assert all(f"#{card.number} " in discard for card in (rider, rider2, rider3))


async def test_discarding_is_the_last_step_of_a_turn(server):
    players = await seat_players(server, ["Ann", "Bo"])
    await players[0].ask("start")
    me, (other,) = await whose_turn(players)
    held = await me.hand()
    assert "Draw first" in flat(await me.ask(f"discard {held[0].number}"))
    await me.ask("draw")
    held = await me.hand()
    assert "You discard" in flat(await me.ask(f"discard {held[0].number}"))
    for command in (f"play {held[1].number}", "draw"):
        refusal = flat(await me.ask(command))
        assert "discarding is the last step of a turn" in refusal, refusal
        assert "put force in front of the command" in refusal
    assert len(await me.hand()) == 5
    assert "It is now" in flat(await me.ask("endturn"))


async def test_only_a_thing_with_an_action_written_on_it_can_be_used(server):
    players = await seat_players(server, ["Ann", "Bo"])
    robot = flat(await players[0].ask("loadcard Robot/T/Sturdy.%rAction: destroy a Thing."))
    robot_number = int(re.search(r"#(\d+) Robot", robot).group(1))
    await players[0].ask("start")
    me, (other,) = await whose_turn(players)
    await me.ask("draw")
    plain = None
    for _ in range(DECK_SIZE):  # the deal may give only Actions (and the Robot): draw on
        plain = next((c for c in await me.hand() if not c.is_action and c.number != robot_number), None)
        if plain is not None:
            break
        await me.ask("force draw")
    assert plain is not None
    await me.ask(f"play {plain.number}")
    refusal = flat(await me.ask(f"use {plain.number}"))
    assert f'#{plain.number} has no "Action:" written on it.' in refusal
    assert "Actions 0 of 1." in flat(await me.ask("look"))
    await me.ask(f"force givething {robot_number} to me")
    reply = flat(await me.ask(f"use {robot_number}"))
    assert f"You use the Action of #{robot_number} Robot" in reply
    assert "Actions 1 of 1." in flat(await me.ask("look"))


async def test_looking_at_hidden_cards_needs_force_with_turns_on(server):
    players = await seat_players(server, ["Ann", "Bo", "Cy"])
    await players[0].ask("start")
    me, (other, third) = await whose_turn(players)
    their_hand = await other.hand()
    for command in (f"viewhand {other.name}", "viewdraw"):
        refusal = flat(await me.ask(command))
        assert "only when a card allows it" in refusal and "put force in front of the command" in refusal
        assert all(card.name not in refusal for card in their_hand)
    reply = flat(await third.ask(f"force viewhand {other.name}"))
    assert all(card.name in reply for card in their_hand)
    await other.client.expect(loosely(f"{third.name} looks at your hand. {FORCED}"))
    assert "Draw pile (" in flat(await me.ask("force viewdraw"))
    await other.client.expect(loosely(f"{me.name} looks through the draw pile. {FORCED}"))
    assert f"{me.name} looks at" not in other.client.transcript


async def test_loaddeck_mid_game_needs_force_and_counts_the_cards_as_savedeck_does(server):
    ann, bo = await seat_players(server, ["Ann", "Bo"], deck=23)
    await ann.ask("loadrule Short Game/The first to hold 7 cards wins.")
    assert "You save the room as deck Kept (23 cards)." in flat(await ann.ask("savedeck Kept"))
    assert re.search(r"Kept +Ann +23 ", await ann.ask("listdecks"))
    await ann.ask("start")
    refusal = flat(await ann.ask("loaddeck Kept"))
    assert "A game is running: end it first (endgame), or force loaddeck" in refusal
    assert len(await bo.hand()) == 5 and "playing" in flat(await bo.ask("look"))
    reply = flat(await ann.ask("force loaddeck Kept"))
    assert "You load the saved deck Kept (23 cards)." in reply and FORCED in reply


async def test_a_kick_never_decides_a_game(server):
    ann, bo = await seat_players(server, ["Ann", "Bo"])
    await ann.ask("start")
    reply = flat(await ann.ask("kick bo"))
    assert "wins" not in reply
    look = flat(await ann.ask("look"))
    assert "playing" in look and "Last game" not in look
    cy = await ScriptedPlayer.connect(server.port, "Cy")
    await cy.ask("join table one")
    assert len(await cy.hand()) == 5


@pytest.mark.parametrize("resign", ["eliminate me", "leave now"])
async def test_a_resignation_is_a_forfeit(server, resign):
    ann, bo = await seat_players(server, ["Ann", "Bo"])
    await ann.ask("start")
    await bo.ask(resign)
    await ann.client.expect(re.escape("*** Bo forfeits: Ann wins! ***"))
    assert "Last game: Bo forfeits: Ann wins!" in flat(await ann.ask("look"))


async def test_takerand_shows_the_card_only_to_the_two_players(server):
    players = await seat_players(server, ["Ann", "Bo", "Cy"])
    reader, writer = await open_gmcp_client(server.port)
    seen = [""]
    try:
        await read_until(reader, "QUIT", seen)
        writer.write("create Gil secret1\r\n")
        await read_until(reader, "Players here", seen)
        writer.write("watch table one\r\n")
        await read_until(reader, "Seats, in turn order", seen)
        await players[0].ask("start")
        me, (other, third) = await whose_turn(players)
        await me.ask("draw")
        refusal = flat(await me.ask(f"takerand {other.name}"))
        assert "only when a card says so" in refusal and "put force in front of the command" in refusal
        before = {card.number for card in await other.hand()}
        reply = flat(await me.ask(f"force takerand {other.name}"))
        taken = int(re.search(r"You take #(\d+) ", reply).group(1))
        name = (await server.rooms.find("Table One")).table.state.cards[taken].name
        assert taken in before and f"from {other.name}'s hand at random. {FORCED}" in reply
        await other.client.expect(loosely(f"{me.name} takes #{taken} {name} "))
        assert taken in {card.number for card in await me.hand()}
        await third.client.expect(loosely(f"{me.name} takes a random card from {other.name}'s hand. {FORCED}"))
        await read_until(reader, f"{me.name} takes a random card from {other.name}'s hand.", seen)
        await third.ask("log")
        writer.write("log\r\n")
        await read_until(reader, f"] {me.name} takes a random card from {other.name}'s hand.", seen)
        # The log shows every card as it was loaded; what matters is that no news of the
        # move, live or in the log, names the card.
        for text in (third.client.transcript, seen[0]):
            assert f"{me.name} takes a random card from {other.name}'s hand." in flat(text)
            assert not [line for line in text.splitlines() if " takes " in line and name in line]
        assert name not in json.dumps(writer.protocol.gmcp)
    finally:
        writer.close()


async def test_takerand_from_an_empty_hand_is_refused_clearly(server):
    ann, bo = await seat_players(server, ["Ann", "Bo"])
    await ann.ask("set turns=off")
    await ann.ask("set handsize=0")
    await ann.ask("start")
    assert "Bo's hand is empty: there is nothing to take." in flat(await ann.ask("takerand bo"))
    assert "You cannot take a card from your own hand." in flat(await ann.ask("takerand me"))
    await ann.ask("force givecard 1 to bo")
    assert "You take #1 " in flat(await ann.ask("takerand bo"))


async def spectated_game(server) -> tuple[ScriptedPlayer, list[ScriptedPlayer], list[ScriptedPlayer]]:
    """Three players and a spectator, Dora; the game started and its first draw made: the
    player whose turn it is, the other two, and everyone else who watches (them and Dora)."""
    players = await seat_players(server, ["Ann", "Bo", "Cy"])
    dora = await ScriptedPlayer.connect(server.port, "Dora")
    await dora.ask("watch table one")
    await players[0].ask("start")
    me, others = await whose_turn(players)
    await me.ask("draw")
    return me, others, [*others, dora]


async def assert_nothing_hidden_reached(server, watchers: list[ScriptedPlayer], since: dict[str, int]) -> None:
    """No watcher read a card hidden from them since ``since`` (where each one's transcript
    stood: the host saw the deck being loaded)."""
    room = await server.rooms.find("Table One")
    events = await room.events()
    ids = {p.name: p.account_id for p in room.occupants.values()}
    for watcher in watchers:
        later = watcher.client.transcript[since[watcher.name] :]
        assert_no_hidden_card_leaked(later, room, ids[watcher.name], events)


async def test_putting_a_card_from_a_hand_on_the_draw_pile_tells_nobody_which(server):
    me, (other, _), watchers = await spectated_game(server)
    card = (await me.hand())[0]
    since = {watcher.name: len(watcher.client.transcript) for watcher in watchers}
    refusal = flat(await me.ask(f"putcard {card.number}=top"))
    assert "only when a card says so" in refusal and "put force in front of the command" in refusal
    reply = flat(await me.ask(f"force putcard {card.number}=top"))
    assert f"You put #{card.number} {card.name}" in reply and "on top of the draw pile" in reply and FORCED in reply
    for watcher in watchers:
        await watcher.client.expect(loosely(f"{me.name} puts a card from their own hand on top of the draw pile."))
    room = await server.rooms.find("Table One")
    assert room.table.state.pile(DRAW)[-1] == card.number
    for watcher in watchers:
        later = watcher.client.transcript[since[watcher.name] :]
        assert card.name not in later and not re.search(rf"#{card.number}\b", later)
    await assert_nothing_hidden_reached(server, watchers, since)
    # Drawn again, it is the same card.
    assert f"#{card.number} {card.name}" in flat(await me.ask("force draw"))


async def test_reordering_the_draw_pile_after_looking_tells_the_table_only_how_many(server):
    me, _, watchers = await spectated_game(server)
    room = await server.rooms.find("Table One")
    top = list(reversed(room.table.state.pile(DRAW)))[:3]
    since = {watcher.name: len(watcher.client.transcript) for watcher in watchers}
    assert "look first (viewdraw)" in flat(await me.ask(f"force reorder {top[2]} {top[1]} {top[0]}"))
    await me.ask("force viewdraw")
    reply = flat(await me.ask(f"force reorder {top[2]} {top[1]} {top[0]}"))
    assert f"You reorder the top 3 cards of the draw pile. {FORCED} Now on top, top first:" in reply
    for watcher in watchers:
        await watcher.client.expect(loosely(f"{me.name} reorders the top 3 cards of the draw pile. {FORCED}"))
    assert list(reversed(room.table.state.pile(DRAW)))[:3] == top[::-1]
    names = [room.table.state.cards[number].name for number in top]
    for watcher in watchers:
        later = watcher.client.transcript[since[watcher.name] :]
        assert not any(name in later for name in names)
    await assert_nothing_hidden_reached(server, watchers, since)
