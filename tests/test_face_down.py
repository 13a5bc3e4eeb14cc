"""Face-down play (playcard <num>=facedown, flip): the rules, and that nothing another
player or a spectator is shown names the hidden card until it is turned up."""

from __future__ import annotations

import json
import random

from server.audit import check_rooms, replay_rooms
from tests.client import DO, iac
from tests.harness import World
from tests.players import ScriptedPlayer, flat, seated_at
from tests.test_commands_fast import cards_in, dvorak_table

GMCP = 201

#: Names and texts found nowhere else in what the server says.
DECK = (
    "loadcard Zorbul/T/Zorbul zaps.",
    "loadcard Quimpet/T/Quimpet quacks.",
    "loadcard Vexnar/T/Vexnar vexes.",
    "loadcard Blorvik/T/Blorvik blinks.",
    "loadcard Kwazzle/A/Kwazzle whirls.",
    "loadcard Tramzel/A/Tramzel trips.",
)


async def started(world: World, *settings: str) -> dict[int, str]:
    """Ann and Bo play (two cards each, Ann first), Cy watches: Ann's hand."""
    await dvorak_table(world, *DECK)
    await world.calls("Ann", "set handsize=2", *settings)
    room = await world.room("Table")
    room.table.rng = random.Random(1)
    saw = await world.call("Ann", "start")
    if "You go first." not in saw["Ann"]:
        await world.call("Bo", "endturn")
    return cards_in(saw["Ann"])


def since_face_down(log: str) -> str:
    """The room's log from the face-down play on (the deck's loading names every card)."""
    at = log.index("plays a card face down")
    assert at > 0
    return log[at:]


def assert_hidden(number: int, name: str, *texts: str) -> None:
    for text in texts:
        assert name not in text
        assert f"#{number} " not in text and not text.rstrip().endswith(f"#{number}")


async def audit(world: World) -> list[str]:
    reports = await check_rooms(world.database) + await replay_rooms(world.database)
    return [problem for report in reports for problem in report.problems]


async def test_a_card_played_face_down_is_known_to_the_others_by_its_label_only_until_flipped(world):
    hand = await started(world, "set turns=off")
    number, name = sorted(hand.items())[0]
    world.gmcp("Bo"), world.gmcp("Cy")
    saw = await world.call("Ann", f"play {number}=facedown")
    assert f"#{number} {name}" in saw["Ann"] and "face-down card FD1" in saw["Ann"]
    assert "Ann plays a card face down: face-down card FD1." in saw["Bo"]
    assert "face-down card FD1" in saw["Cy"]
    assert_hidden(number, name, saw["Bo"], saw["Cy"])
    for who in ("Bo", "Cy"):
        looked = (await world.calls(who, "look", "viewplay"))[who]
        assert "face-down card FD1" in looked
        assert_hidden(number, name, looked, since_face_down((await world.call(who, "log"))[who]))
        sent = json.dumps(world.gmcp(who))
        assert name not in sent and "FD1" in sent
        assert f'"number": {number},' not in sent
    mine = (await world.calls("Ann", "look", "viewplay"))["Ann"]
    assert mine.count(f"#{number} {name}") == 2 and "face down" in mine
    hand_view = [data for package, data in world.gmcp("Ann") if package == "Dvorak.Hand"][-1]
    assert hand_view["face_down"][0]["number"] == number  # type: ignore[index]
    assert await audit(world) == []

    saw = await world.call("Bo", "flip FD1")
    assert "Only its owner turns a face-down card up." in saw["Bo"]
    saw = await world.call("Bo", "force flip FD1")
    for who in ("Ann", "Bo", "Cy"):
        assert f"up Ann's face-down card FD1: #{number} {name}" in saw[who] or who == "Ann"
    assert f"up your face-down card FD1: #{number} {name}" in saw["Ann"]
    assert f"#{number} {name}" in (await world.call("Cy", "viewplay"))["Cy"]
    assert await audit(world) == []


async def test_the_others_cannot_find_a_face_down_card_by_its_number(world):
    hand = await started(world, "set turns=off")
    number, name = sorted(hand.items())[0]
    await world.call("Ann", f"play {number}=facedown")
    hidden = (await world.call("Bo", f"destroy {number}"))["Bo"]
    assert hidden.strip() == f"#{number} is not in play."
    assert (await world.call("Bo", f"flip {number}"))["Bo"].strip() == (
        f"#{number} is not a card of yours in play face down."
    )
    some_hand_card = max(cards_in((await world.call("Bo", "hand"))["Bo"]))
    assert (await world.call("Ann", f"destroy {some_hand_card}"))["Ann"].strip() == f"#{some_hand_card} is not in play."
    saw = await world.call("Bo", "destroy fd1")
    assert f"#{number} {name}" in saw["Cy"] and "was face-down card FD1" in saw["Cy"]
    assert await audit(world) == []


async def test_given_into_a_hand_a_face_down_card_stays_hidden_from_the_rest(world):
    hand = await started(world, "set turns=off")
    number, name = sorted(hand.items())[0]
    await world.call("Ann", f"play {number}=facedown")
    saw = await world.call("Cy", "givecard FD1 to Bo")
    assert "Only players seated" in saw["Cy"]
    saw = await world.call("Bo", "givecard FD1 to Bo")
    assert f"#{number} {name}" in saw["Bo"] and f"#{number} {name}" in saw["Ann"]
    assert "moves Ann's face-down card FD1 into Bo's hand." in saw["Cy"]
    assert_hidden(number, name, saw["Cy"], since_face_down((await world.call("Cy", "log"))["Cy"]))
    assert await audit(world) == []


async def test_under_turn_rules_a_face_down_card_is_the_turns_thing_and_an_action_flipped_is_discarded(world):
    hand = await started(world)
    await world.call("Ann", "draw")
    hand = cards_in((await world.call("Ann", "hand"))["Ann"])
    action = next((n for n, name in hand.items() if name in ("Kwazzle", "Tramzel")), None)
    first = action if action is not None else min(hand)
    saw = await world.call("Ann", f"play {first}=facedown")
    assert "face-down card FD1" in saw["Bo"]
    other = next(n for n in hand if n != first)
    refused = (await world.call("Ann", f"play {other}=facedown"))["Ann"]
    assert "already played a Thing this turn" in refused
    assert "Usage" in (await world.call("Ann", f"play {other}=sideways"))["Ann"]
    assert "not on a Thing" in (await world.call("Ann", f"play {other} on {first}=facedown"))["Ann"]
    assert "face down" in (await world.call("Ann", f"use {first}"))["Ann"]
    saw = await world.call("Ann", f"flip {first}")
    if action is not None:
        assert "It is an Action: it goes to the discard pile." in saw["Bo"]
        assert f"#{first}" in (await world.call("Bo", "viewdisc"))["Bo"]
    else:
        assert f"#{first}" in (await world.call("Bo", "viewplay"))["Bo"]
    assert await audit(world) == []


async def test_the_game_end_turns_face_down_cards_up(world):
    hand = await started(world, "set turns=off")
    number, name = sorted(hand.items())[0]
    await world.call("Ann", f"play {number}=facedown")
    saw = await world.call("Ann", "endgame")
    assert f"face-down card FD1 of Ann is turned up: #{number} {name}" in saw["Cy"]
    room = await world.room("Table")
    assert room.table.state.face_down == {}
    assert await audit(world) == []


async def test_over_telnet_no_byte_the_others_receive_names_a_face_down_card_until_it_is_turned_up(server):
    ann, bo = await seated_at(server.port, ["Ann", "Bo"], "Felt")
    cy = await ScriptedPlayer.connect(server.port, "Cy")
    for player in (bo, cy):
        player.client.send(iac(DO, GMCP))
    await cy.ask("watch Felt")
    for line in (*DECK, "set handsize=3", "set turns=off", "start"):
        await ann.ask(line)
    card = (await ann.hand())[0]
    for player in (bo, cy):
        await player.ask("countdraw")  # reads everything sent before the play
    before = {player.name: len(player.client.raw) for player in (bo, cy)}
    assert "face-down card FD1" in await ann.ask(f"playcard {card.number}=facedown")
    looked = {}
    for player in (bo, cy):
        for line in ("look", "viewplay"):
            await player.ask(line)
        looked[player.name] = len(player.client.raw)
        assert card.name not in since_face_down(await player.ask("log"))
    for player in (bo, cy):
        received = bytes(player.client.raw[before[player.name] : looked[player.name]])
        assert b"FD1" in received and b"Dvorak.Table" in received
        for secret in (card.name, f"{card.name[:4].lower()}", f"#{card.number} ", f'"number": {card.number},'):
            assert secret.encode() not in received, (player.name, secret)
    await ann.ask("flip FD1")
    assert f"face-down card FD1: #{card.number} {card.name}" in flat(await cy.ask("log"))
    for player in (ann, bo, cy):
        await player.close()
