"""Ys's panel (commands/ys/panel.js, panel.css) in a real browser: a whole round played by
clicking only, at desktop and phone sizes, against a telnet player at the same table who
sees each of the page player's moves as the others may see them. The viewer's screen is a
tray that stays in sight over the board: a broker and a space are tapped with no scrolling
between them (``conftest.py`` says how pages are watched)."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import pytest
from playwright.async_api import Locator, Page, expect

from commands.ys.render import space_label
from games.ys import bots
from games.ys.visibility import seat_view
from tests.browser.conftest import ARTIFACTS, PHONE, Tab, telnet_player, until
from tests.client import MudClient

WIDE = {"width": 1366, "height": 850}


#: Scroll ``e``'s nearest scrolling box (the side column, or on a phone the page) until ``e`` is
#: in sight below the tray, as a player scrolls the board with a finger or the wheel.
SCROLL_TO = """e => {
    if (!e.isConnected) return false;  // drawn again meanwhile: try the new one
    const by = (dy) => {
        for (let box = e.parentElement; box && box !== document.body; box = box.parentElement) {
            if (!/(auto|scroll)/.test(getComputedStyle(box).overflowY)) continue;
            const before = box.scrollTop;
            box.scrollTop += dy;
            if (box.scrollTop !== before) return;
        }
        window.scrollBy(0, dy);
    };
    const r = e.getBoundingClientRect();
    by(r.top + r.height / 2 - innerHeight / 2);
    const below = document.getElementById("ys-screen").getBoundingClientRect().bottom + 8;
    const top = e.getBoundingClientRect().top;
    if (top < below) by(top - below);
    return e.isConnected;
}"""


def words(text: str) -> re.Pattern[str]:
    """``text`` as a pattern that matches it however the telnet text wrapped it."""
    return re.compile(r"\s+".join(re.escape(part) for part in text.split()))


def typed(space: list[Any]) -> str:
    """A space as a player types it: ``city 2 palace``."""
    return f"{space[0]} {space[1] + 1} {space[2]}"


async def scrolled(page: Page) -> list[float]:
    """Where the page and the side column are scrolled to."""
    return await page.evaluate("() => [window.scrollY, document.querySelector('.side').scrollTop]")


async def in_sight(node: Locator) -> bool:
    """Whether ``node`` is in the viewport and its middle is not covered (by the tray)."""
    for _attempt in range(10):
        seen = await node.evaluate(IN_SIGHT)
        if seen is not None:
            return seen
        await node.page.wait_for_timeout(50)
    return False


IN_SIGHT = """e => {
            if (!e.isConnected) return null;  // drawn again meanwhile: look at the new one
            const r = e.getBoundingClientRect();
            const x = r.left + r.width / 2, y = r.top + r.height / 2;
            if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
            const hit = document.elementFromPoint(x, y);
            return e === hit || e.contains(hit);
        }"""


async def tap_broker_then_space(tab: Tab, broker: Locator, space: Locator) -> None:
    """Bring ``space`` into sight, then tap ``broker`` and ``space``: both in sight at once,
    and nothing scrolls between the taps."""
    for _attempt in range(10):
        if await space.evaluate(SCROLL_TO):
            break
        await tab.page.wait_for_timeout(50)
    await expect(tab.page.locator("#ys-screen")).to_be_in_viewport()
    at = await scrolled(tab.page)
    assert await in_sight(broker), "the broker is out of sight with the space in sight"
    if not await in_sight(space):
        await tab.page.screenshot(path=ARTIFACTS / "40-ys-space-covered.png")
        raise AssertionError(f"the space is covered: {await space.get_attribute('id')}")
    await broker.click()
    await expect(broker).to_have_attribute("aria-pressed", "true")
    assert await in_sight(space), "the space went out of sight after the broker was tapped"
    await space.click()
    await expect(space).to_have_attribute("aria-pressed", "true")
    # The page may only keep the space where it was on the screen (scroll anchoring, as the
    # tray's lines change): nothing a player would call scrolling.
    after = await scrolled(tab.page)
    assert all(abs(a - b) <= 40 for a, b in zip(at, after, strict=True)), (at, after)


class Bo:
    """The telnet player: plays what an easy computer player would, by typing its commands."""

    def __init__(self, client: MudClient, state: Any, account: int) -> None:
        self.client = client
        self.state = state
        self.account = account
        self.rng = random.Random(7)
        self.sent: set[str] = set()

    def moment(self) -> str:
        s = self.state
        return repr(
            (s.round, s.stage, s.turn, s.turn_part, len(s.placed), s.awaiting, s.player(self.account)["screen"])
        )

    def move(self) -> None:
        """Type the move for this moment (once)."""
        moment = self.moment()
        if moment in self.sent:
            return
        self.sent.add(moment)
        view = seat_view(self.state, self.account)
        move = bots.easy(view, self.rng)
        kind = move["move"]
        prompt = (view.get("awaiting") or [{}])[0]
        if kind == "choose" and prompt.get("ask") == "order":
            line = f"order {move['answer'][0]}"
        elif kind == "choose":
            line = "choose " + " ".join(move["answer"])
        elif kind == "bid":
            line = "bid {} {}".format(*move["brokers"])
        elif kind == "place":
            (up, up_space), (down, down_space) = move["up"], move["down"]
            line = f"place {up} {typed(up_space)} {down} {typed(down_space)}"
        elif kind == "neutral":
            value = next(v for v in move["values"] if v in view["you"]["neutral"])
            line = f"neutral {value} {typed(move['space'])}"
        else:
            line = f"favour {move['value']}"
        self.client.send(line)


async def play_ann_move(tab: Tab, state: Any, ann: int, rng: random.Random, seen: list[re.Pattern[str]]) -> str:
    """Make Ann's move by clicking; what the others should see of it goes in ``seen``; the
    kind of move."""
    page = tab.page
    tray = page.locator("#ys-screen")
    board = page.locator("#ys-board")
    view = seat_view(state, ann)
    if state.awaiting:
        prompt = state.awaiting[0]
        if prompt["ask"] == "order":
            card = prompt["options"][0]
            await tray.locator(f"#ys-order-{card}").click()
            seen.append(re.compile(rf"Ann takes order card {card}\b"))
            await until(lambda: not state.awaiting or state.awaiting[0] != prompt)
            return "order"
        answer = tray.locator(".ys-prompt button").first
        await answer.click()
        seen.append(re.compile(r"\bAnn (takes|chooses|moves|swaps)\b"))
        await until(lambda: not state.awaiting or state.awaiting[0] != prompt)
        return "answer"
    if state.stage == "bid":
        screen = state.player(ann)["screen"]
        await tray.locator("#ys-broker-0").click()
        await tray.locator("#ys-broker-1").click()
        await expect(tray.locator("#ys-broker-0")).to_have_attribute("aria-pressed", "true")
        await tray.locator("#ys-bid").click()
        await until(lambda: bool(state.player(ann)["front"]) or state.stage != "bid")
        seen.append(words("Ann bids."))
        assert sorted(screen[:2]) == sorted(state.player(ann)["front"]) or state.stage != "bid"
        return "bid"
    spaces = bots.free_spaces(view)
    placed = len(state.placed)
    if state.turn_part == "neutral":
        value = view["you"]["neutral"][0]
        space = rng.choice(spaces)
        neutral = tray.locator(f"#ys-neutral-{value}")
        target = board.locator(f"#ys-space-{space[0]}-{space[1]}-{space[2]}")
        await tap_broker_then_space(tab, neutral, target)
        await tray.locator("#ys-place-neutral").click()
        await until(lambda: len(state.placed) > placed)
        seen.append(words(f"Ann places a neutral broker face down on {space_label(space)}."))
        return "neutral"
    up_space = rng.choice(spaces)
    down_space = rng.choice([s for s in spaces if s != up_space])
    screen = state.player(ann)["screen"]
    for index, space in ((0, up_space), (1, down_space)):
        await tap_broker_then_space(
            tab, tray.locator(f"#ys-broker-{index}"), board.locator(f"#ys-space-{space[0]}-{space[1]}-{space[2]}")
        )
    place = tray.locator("#ys-place")
    await expect(place).to_be_enabled()
    command = f"place {screen[0]} {typed(up_space)} {screen[1]} {typed(down_space)}"
    await expect(place).to_have_attribute("aria-label", f"Place: {command}")
    if len(state.placed) < 4:
        problems = await tab.accessibility_problems()
        assert problems == [], problems
        await page.screenshot(path=ARTIFACTS / f"40-ys-placing-{page.viewport_size['width']}.png")
    await place.click()
    await until(lambda: len(state.placed) > placed)
    # The face-down broker's value is Ann's secret: the others see "a broker".
    seen.append(
        words(
            f"Ann places a {screen[0]} face up on {space_label(up_space)} "
            f"and a broker face down on {space_label(down_space)}."
        )
    )
    return "pair"


@pytest.mark.parametrize("size", [WIDE, PHONE], ids=["1366x850", "390x844"])
async def test_a_ys_round_is_played_by_clicking_and_the_telnet_player_sees_every_move(start_server, open_tab, size):
    server = await start_server()
    tab = await open_tab(server, "Ann")
    page = tab.page
    await page.set_viewport_size(size)
    await tab.log_in("Ann")
    await tab.type("newroom/ys Quay")
    board = page.locator("#ys-board")
    await expect(board).to_be_visible()
    room = await server.rooms.find("quay")
    assert room is not None
    table = room.table
    state = table.state
    client = await telnet_player(server, "Bo")
    client.send("join Quay")
    await until(lambda: len(state.seats) == 2)
    ann = next(seat.account_id for seat in state.seats if seat.name == "Ann")
    bo = Bo(client, state, next(seat.account_id for seat in state.seats if seat.name == "Bo"))
    await page.locator("#ys-start").click()
    await until(lambda: state.phase == "playing")
    tray = page.locator("#ys-screen")
    await expect(tray.locator("#ys-bid")).to_be_disabled()
    problems = await tab.accessibility_problems()
    assert problems == [], problems
    if size == PHONE:
        await tab.screenshot("40-ys-bid")
        await page.set_viewport_size(size)

    rng = random.Random(3)
    seen: list[re.Pattern[str]] = []
    made: list[str] = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 120
    while state.phase == "playing" and state.round == 1:
        assert loop.time() < deadline, f"round 1 did not end; Ann made {made}"
        waiting = table.waiting_for()
        if bo.account in waiting:
            bo.move()
        if ann in waiting:
            made.append(await play_ann_move(tab, state, ann, rng, seen))
        else:
            await asyncio.sleep(0.05)
    assert {"bid", "pair", "neutral"} <= set(made), made

    # Bo saw each of Ann's moves, in order, as the others may see them.
    at = 0
    for pattern in seen:
        found = await client.wait_for(pattern, start=at)
        at = found.end()
    await expect(page.locator("#ys-board .summary")).to_contain_text(re.compile(r"Round 2 of 4|The game is over"))
    problems = await tab.accessibility_problems()
    assert problems == [], problems
    await page.screenshot(path=ARTIFACTS / f"40-ys-round-2-{size['width']}.png")
    await client.close()


async def test_at_phone_size_the_tray_stays_over_the_board_and_the_desktop_keeps_the_board_beside_the_text(
    start_server, open_tab
):
    """At 1366x850 the board is beside the text and command line; at 390x844 it is under
    them, and scrolled down to the market the tray (the viewer's brokers) is still at the top."""
    server = await start_server()
    tab = await open_tab(server, "Ann")
    page = tab.page
    await page.set_viewport_size(WIDE)
    await tab.log_in("Ann")
    await tab.type("newroom/ys Quay", "addbot", "set botdelay=0", "start")
    tray = page.locator("#ys-screen")
    await expect(tray.locator("#ys-broker-0")).to_be_visible()
    boxes = await page.evaluate(
        """() => Object.fromEntries(["#scrollback", "#command", "#ys-board"].map(s => {
            const r = document.querySelector(s).getBoundingClientRect();
            return [s, {left: r.left, right: r.right, top: r.top, width: r.width}];
        }))"""
    )
    assert boxes["#ys-board"]["left"] >= boxes["#scrollback"]["right"] - 1, boxes
    assert boxes["#scrollback"]["width"] >= 300 and boxes["#command"]["width"] >= 150, boxes
    await page.set_viewport_size(PHONE)
    market = page.locator("#ys-board .ys-market")
    await market.evaluate("e => e.scrollIntoView({block: 'end'})")
    assert (await scrolled(page))[0] > 0
    await expect(tray).to_be_in_viewport()
    top = await tray.evaluate("e => e.getBoundingClientRect().top")
    assert abs(top) <= 1, top
    assert await in_sight(tray.locator("#ys-broker-0"))
    await page.screenshot(path=ARTIFACTS / "40-ys-phone-market.png")
