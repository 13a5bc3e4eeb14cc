"""Gnav's panel (commands/gnav/panel.js, panel.css) in a real browser: the table drawn as a
card table, checked against what the server's visibility policy lets each viewer know, and
a match played to its end by clicking (``conftest.py`` says how pages are watched)."""

from __future__ import annotations

import asyncio
import re

from playwright.async_api import Locator, expect
from playwright.async_api import TimeoutError as PlaywrightTimeout

from games.gnav import cards
from games.gnav.visibility import seat_view
from tests.browser.conftest import ARTIFACTS, Tab, clickable, until

ENDING = re.compile(r"wins? the match!|The match is a draw")


def seat(gnav: Locator, name: str) -> Locator:
    """A seat of the Gnav table, by its player's name."""
    return gnav.locator("li.seat").filter(
        has=gnav.page.locator(".seat-name", has_text=re.compile(f"^{re.escape(name)}$"))
    )


async def seat_cards(gnav: Locator) -> dict[str, str | None]:
    """Each seat's card as drawn, by player: its key face up, "down" face down, None if none."""
    return await gnav.locator("li.seat").evaluate_all(
        """seats => Object.fromEntries(seats.map(seat => {
            const card = seat.querySelector('.gnav-card.face-up, .gnav-card.face-down');
            const shown = !card ? null : card.classList.contains('face-up') ? card.dataset.key : 'down';
            return [seat.querySelector('.seat-name').textContent, shown];
        }))"""
    )


async def play_to_the_end(tab: Tab) -> int:
    """Click Keep and Swap (in turn) whenever it is ``tab``'s turn until a match in which it
    clicked has ended (starting another if the computer players end one first); the clicks."""
    gnav = tab.page.locator("#gnav-table")
    keep, swap = tab.page.locator("#gnav-keep"), tab.page.locator("#gnav-swap")
    clicks = 0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 40
    unplayed = 0  # matches the bots ended before the player's turn came (a card can end a deal at once)
    while True:
        ended = len(ENDING.findall(await tab.scrollback.inner_text()))
        if clicks and ended > unplayed:
            return clicks
        assert loop.time() < deadline, "no match was played to its end by clicking"
        if ended > unplayed:
            unplayed = ended
            await tab.page.locator("#gnav-start").click()
            await tab.page.wait_for_function(
                "n => document.querySelector('#scrollback').innerText.split('A match of Gnav begins').length > n",
                arg=ended + 1,
            )
            continue
        for button in (swap, keep) if clicks % 2 else (keep, swap):
            if await clickable(button):
                if not clicks:
                    # The shared table panel says whose turn it is, with the turn timer running.
                    turn_line = gnav.locator(".turn-line")
                    await expect(turn_line).to_contain_text(re.compile(r"Your turn\. \d+ s left"), timeout=1000)
                    await expect(gnav.locator("li.seat.current .seat-name")).to_have_text(tab.name, timeout=1000)
                try:
                    await button.click(timeout=1000)
                    clicks += 1
                except PlaywrightTimeout:
                    pass  # the turn moved on while clicking (a deal ended): look again
                break
        else:
            await tab.page.wait_for_timeout(50)


async def test_a_gnav_match_against_computer_players_is_played_to_the_end_by_clicking(start_server, open_tab):
    server = await start_server()
    tab = await open_tab(server, "Ann")
    await tab.log_in("Ann")
    await tab.type("newroom/gnav Den")
    gnav = tab.page.locator("#gnav-table")
    await expect(gnav).to_be_visible()
    # Keep and Swap are offered only while a match is played.
    await expect(tab.page.locator("#gnav-keep")).to_have_count(0)
    await expect(tab.page.locator("#gnav-swap")).to_have_count(0)
    await tab.page.locator("#gnav-addbot").click()
    await expect(gnav.locator("li.seat")).to_have_count(2)
    await tab.type("addbot easy", "set botdelay=0", "set lives=1")
    await expect(gnav.locator("li.seat")).to_have_count(3)
    await tab.page.locator("#gnav-start").click()
    # With one life each and no delay, the bots may finish the match in its first deal.
    await expect(gnav.locator(".summary").first).to_contain_text(re.compile(r"Phase: (playing|over)\."))
    await expect(tab.scrollback).to_contain_text("A match of Gnav begins")
    await tab.screenshot("10-gnav-playing")

    assert await play_to_the_end(tab) > 0
    await expect(gnav.locator(".summary").first).not_to_contain_text("Phase: playing.")
    await expect(gnav.locator(".result")).to_contain_text(re.compile(r"won the match|draw"))
    await expect(gnav.locator(".turn-line")).to_have_count(0)
    await expect(tab.page.locator("#gnav-start")).to_be_visible()
    await expect(tab.page.locator("#gnav-keep")).to_have_count(0)
    await tab.screenshot("11-gnav-over")


async def test_the_gnav_table_shows_what_each_viewer_knows_and_no_more(start_server, open_tab):
    """At Ann's turn her card is face up with its name and its place among the ranks, the
    others' cards face down unless she knows them, the hearts are the lives and the dealer
    has the chip; Bo, watching, sees no card of his own, no buttons and only what a watcher
    knows. Then Ann's swap shows, and the match is played to its end."""
    server = await start_server()
    ann = await open_tab(server, "Ann")
    await ann.log_in("Ann")
    await ann.type("newroom/gnav Den", "addbot easy", "addbot normal", "addbot strong", "set botdelay=0.3")
    gnav = ann.page.locator("#gnav-table")
    await expect(gnav.locator("li.seat")).to_have_count(4)
    # Before the match: the seats, no cards dealt, no ranks, no stock.
    await expect(gnav.locator(".gnav-card.face-up, .gnav-card.face-down")).to_have_count(0)
    await expect(ann.page.locator("#gnav-ranks")).to_have_count(0)
    await ann.page.locator("#gnav-start").click()
    room = await server.rooms.find("Den")
    assert room is not None
    ann_id = next(s.account_id for s in room.table.state.seats if s.name == "Ann")
    # Ann's turn (a deal the computer players end first, with a Cuckoo, is waited out).
    await expect(ann.page.locator("#gnav-keep")).to_be_enabled(timeout=30_000)
    await until(lambda: room.table.state.turn == ann_id)
    state = room.table.state

    bo = await open_tab(server, "Bo")
    await bo.log_in("Bo")
    await bo.type("watch Den")
    bo_gnav = bo.page.locator("#gnav-table")
    await expect(bo_gnav.locator("li.seat")).to_have_count(4)
    bo_id = next(c.account_id for c in room.occupants.values() if c.name == "Bo")

    view = seat_view(state, ann_id)
    assert view.card is not None
    names = {p.account_id: p.name for p in view.players}

    # Ann's own card, large and face up, named in both languages, and its place among the ranks.
    mine = ann.page.locator("#gnav-card .gnav-card.large")
    await expect(mine).to_have_class(re.compile(r"\bface-up\b"))
    await expect(mine).to_have_attribute("data-key", view.card)
    rank = cards.BY_KEY[view.card]
    await expect(mine).to_contain_text(rank.english)
    await expect(mine).to_contain_text(rank.norwegian)
    strip = ann.page.locator("#gnav-ranks")
    await expect(strip.locator(".gnav-rank")).to_have_count(21)
    await expect(strip.locator(".gnav-rank.matador")).to_have_count(5)
    await expect(strip.locator(".gnav-rank.yours")).to_have_count(1)
    place = await strip.locator(".gnav-rank").evaluate_all(
        "cells => cells.findIndex(c => c.classList.contains('yours'))"
    )
    assert place == cards.order(view.card)
    await expect(strip).to_have_attribute(
        "aria-label", f"Your card, {rank.english}, is {cards.order(view.card) + 1} of 21 from the lowest."
    )

    # Each seat: its card face up exactly where Ann knows it; hearts for lives; one dealer chip.
    known = dict(view.known)
    drawn = await seat_cards(gnav)
    for player in view.players:
        expected = known.get(player.account_id, "down") if player.account_id in view.order else None
        assert drawn[player.name] == expected, (player.name, drawn, known)
        hearts = seat(gnav, player.name).locator(".gnav-hearts")
        await expect(hearts).to_have_text("♥" * player.lives)
        await expect(seat(gnav, player.name).locator(".gnav-lives .sr-only")).to_have_text(f"{player.lives} lives")
    await expect(gnav.locator(".gnav-dealer-chip")).to_have_count(1)
    await expect(seat(gnav, names[view.dealer]).locator(".gnav-dealer-chip")).to_have_text("dealer")
    await expect(seat(gnav, "Ann")).to_have_class(re.compile(r"\bcurrent\b"))
    await expect(gnav.locator(".gnav-stock-count")).to_have_text(f"Stock: {view.stock_size}")
    await expect(gnav.locator(".gnav-stock .gnav-pile")).to_have_attribute(
        "aria-label", re.compile(r"The stock: \d+ cards")
    )

    # Bo watches: no card of his own, no buttons, and only the cards a watcher knows face up.
    await expect(bo_gnav.locator(".gnav-watching")).to_have_text("You are watching.")
    await expect(bo.page.locator("#gnav-card")).to_have_count(0)
    await expect(bo.page.locator("#gnav-ranks")).to_have_count(0)
    await expect(bo_gnav.locator("button")).to_have_count(0)
    watched = seat_view(state, bo_id)
    public = dict(watched.known)
    seen = await seat_cards(bo_gnav)
    for player in view.players:
        expected = public.get(player.account_id, "down") if player.account_id in view.order else None
        assert seen[player.name] == expected, (player.name, seen, public)
    # Ann's card, unless dealt a Fool (shown to all), is hidden from him.
    if view.card != cards.FOOL:
        assert seen["Ann"] == "down"
    await ann.screenshot("gnav-table")
    await bo.screenshot("gnav-table-watching")
    for size, width in (({"width": 1366, "height": 850}, "1366"), ({"width": 390, "height": 844}, "390")):
        await ann.page.set_viewport_size(size)
        await ann.page.wait_for_timeout(100)
        await gnav.screenshot(path=ARTIFACTS / f"gnav-table-panel-{width}.png")
    await ann.page.set_viewport_size({"width": 1280, "height": 800})

    # Ann swaps: the line says with whom (unless a matador answered instead).
    await ann.page.locator("#gnav-swap").click()
    await until(lambda: room.table.state.turn != ann_id or room.table.state.phase != "playing")
    asked = [swap for swap in room.table.state.swaps if swap[1] == ann_id]
    if asked:
        how, _asker, other = asked[-1]
        line = "You swapped with the stock." if how == "stock" else f"You swapped with {names[other]}."
        await expect(gnav.locator("#gnav-swap-line")).to_have_text(line)
        await expect(bo_gnav.locator("#gnav-swap-line")).to_have_text(
            "Ann swapped with the stock." if how == "stock" else f"Ann swapped with {names[other]}."
        )

    # A swap's cards move only for a reader who has not asked for less motion.
    moving = """() => {
        const card = document.querySelector('.gnav-card');
        card.classList.add('gnav-moving');
        return getComputedStyle(card).animationName;
    }"""
    await bo.page.emulate_media(reduced_motion="no-preference")
    assert await bo.page.evaluate(moving) == "gnav-swap"
    await bo.page.emulate_media(reduced_motion="reduce")
    assert await bo.page.evaluate(moving) == "none"

    # To the end, quickly.
    await ann.type("set botdelay=0")
    await play_to_the_end(ann)
    await expect(gnav.locator(".result")).to_contain_text(re.compile(r"won the match|draw"))
    await expect(bo_gnav.locator(".result")).to_contain_text(re.compile(r"won the match|draw"))
    await expect(bo_gnav.locator("button")).to_have_count(0)
    await ann.screenshot("gnav-table-over")


async def test_eight_seats_fit_around_the_table_on_a_phone_and_beside_the_text(start_server, open_tab):
    server = await start_server()
    tab = await open_tab(server, "Ann")
    await tab.log_in("Ann")
    await tab.type("newroom/gnav Hall", "set botdelay=10", *["addbot"] * 7)
    gnav = tab.page.locator("#gnav-table")
    await expect(gnav.locator("li.seat")).to_have_count(8)
    await tab.page.locator("#gnav-start").click()
    await expect(gnav.locator(".gnav-stock")).to_be_visible()
    await expect(gnav.locator("li.seat.gnav-top")).to_have_count(4)
    await expect(gnav.locator("li.seat.gnav-bottom")).to_have_count(4)
    for size in ({"width": 1366, "height": 850}, {"width": 390, "height": 844}):
        await tab.page.set_viewport_size(size)
        await tab.page.wait_for_timeout(100)
        # Every seat and card inside the felt, none over another.
        boxes = await gnav.locator(".gnav-felt").evaluate(
            """felt => {
                const box = (node) => node.getBoundingClientRect();
                const outer = box(felt);
                const seats = [...felt.querySelectorAll('li.seat')].map(box);
                const inside = seats.every(b => b.left >= outer.left && b.right <= outer.right + 0.5);
                const clear = (a, b) => a.right <= b.left + 0.5 || b.right <= a.left + 0.5
                    || a.bottom <= b.top + 0.5 || b.bottom <= a.top + 0.5;
                const apart = seats.every((a, i) => seats.every((b, j) => i === j || clear(a, b)));
                const cards = [...felt.querySelectorAll('li.seat')].every(
                    seat => box(seat.querySelector('.gnav-card')).right <= box(seat).right + 0.5);
                return {inside, apart, cards};
            }"""
        )
        assert boxes == {"inside": True, "apart": True, "cards": True}, (size, boxes)
    await tab.screenshot("gnav-table-eight")
