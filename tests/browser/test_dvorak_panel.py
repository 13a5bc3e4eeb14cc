"""Dvorak's panels (commands/dvorak/panel.js, panel.css) in a real browser: the hand and each
seat's play area drawn as cards, a turn played by clicking only (draw, a Thing, a Thing on that
Thing with its target asked for, a card proposed with the form, another player's proposal
approved), while a telnet player sees every move; a spectator has no hand; the votes come
first; and axe-core finds nothing serious (``conftest.py`` says how pages are watched)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import expect

from tests.browser.conftest import Tab, telnet_player
from tests.browser.test_browser import seat

DESKTOP_1366 = {"width": 1366, "height": 850}
PHONE_390 = {"width": 390, "height": 844}
DECK = [f"loadcard Gadget{i}/T/Thing number {i}.%rIt does little." for i in range(1, 13)]


async def hand_numbers(tab: Tab) -> list[int]:
    ids = await tab.page.locator("#dvorak-hand button.card-button").evaluate_all("buttons => buttons.map(b => b.id)")
    return [int(button_id.removeprefix("hand-card-")) for button_id in ids]


async def shot(tab: Tab, moment: str, size: dict[str, int]) -> None:
    """Screenshots at both widths, then back to the test's own viewport."""
    await tab.screenshot(moment)
    await tab.page.set_viewport_size(size)


async def no_problems(tab: Tab) -> None:
    assert await tab.accessibility_problems() == []


@pytest.mark.parametrize("size", [DESKTOP_1366, PHONE_390], ids=["1366x850", "390x844"])
async def test_a_dvorak_turn_is_played_by_clicking_cards_while_a_telnet_player_sees_each_move(
    start_server, open_tab, size: dict[str, int]
):
    server = await start_server()
    tab = await open_tab(server, "Ann")
    page = tab.page
    await page.set_viewport_size(size)
    await tab.log_in("Ann")
    await tab.type("newroom Cards")
    await expect(page.locator("#dvorak-table")).to_be_visible()
    # Two Things a turn: one played alone, one played on it.
    await tab.type("set handsize=3", "set plays=2", *DECK)
    bo = await telnet_player(server, "Bo")
    await bo.command("join Cards", r"Draw pile: .*")
    await expect(seat(tab, "Bo")).to_be_visible()
    # Nothing dealt yet: the host's Start, no draw, no hand moves.
    await expect(page.locator("#dvorak-draw")).to_have_count(0)
    await page.locator("#dvorak-start").click()
    await bo.expect(r"Ann starts the game|dealt|deals")
    await expect(page.locator("#dvorak-hand li.card")).to_have_count(3)

    turn_line = page.locator("#dvorak-table .turn-line")
    await expect(turn_line).to_have_text(re.compile(r"Your turn\.|Bo's turn\."))
    if "Bo" in await turn_line.inner_text():
        # Bo goes first: no draw button for Ann while it is not her turn.
        await expect(page.locator("#dvorak-draw")).to_have_count(0)
        await bo.command("drawcard", r"You draw")
        await bo.command("endturn", r"Ann")
        await expect(turn_line).to_contain_text("Your turn.")

    # A spectator: the table, and no hand.
    spectator = await open_tab(server, "Cy")
    await spectator.page.set_viewport_size(size)
    await spectator.log_in("Cy")
    await spectator.type("watch Cards")
    await expect(spectator.page.locator("#dvorak-table")).to_be_visible()
    await expect(spectator.page.locator("#dvorak-hand")).to_have_count(0)
    await expect(spectator.page.locator("#panels")).not_to_contain_text("Your hand")
    await expect(spectator.page.locator("#dvorak-draw")).to_have_count(0)
    await no_problems(spectator)

    # The draw: its button goes once the turn's one draw is made.
    await expect(page.locator("#dvorak-draw")).to_be_visible()
    await shot(tab, "30-dvorak-turn-begins", size)
    await page.locator("#dvorak-draw").click()
    await bo.expect(r"Ann draws a card\.")
    await expect(page.locator("#dvorak-hand li.card")).to_have_count(4)
    await expect(page.locator("#dvorak-draw")).to_have_count(0)
    await expect(page.locator("#dvorak-endturn")).to_be_visible()

    # A Thing played alone: choosing a card offers Play and Play on…, nothing chosen for it.
    first, second = (await hand_numbers(tab))[:2]
    await page.locator(f"#hand-card-{first}").click()
    await expect(page.locator(f"#card-actions-{first}")).to_be_visible()
    await expect(page.locator(f"#play-{first}")).to_be_focused()
    await expect(page.locator(f"#hand-card-{first}")).to_have_attribute("aria-expanded", "true")
    await expect(page.locator(f"#discard-{first}")).to_have_count(0)  # 4 cards, under the limit of 5
    await expect(page.locator("#play-on-" + str(first))).to_have_count(0)  # nothing in play to play it on
    await no_problems(tab)
    await shot(tab, "31-dvorak-card-chosen", size)
    await page.locator(f"#play-{first}").click()
    played = await bo.expect(rf"Ann plays #{first} (Gadget\d+)")
    await expect(seat(tab, "Ann").locator("ul.in-play")).to_contain_text(f"#{first} {played.group(1)}")
    await expect(page.locator("#dvorak-hand li.card")).to_have_count(3)

    # A Thing played on it: "Play on…" asks which card, and sends nothing until one is picked.
    await page.locator(f"#hand-card-{second}").click()
    play_on = page.locator(f"#play-on-{second}")
    await expect(play_on).to_be_visible()
    await expect(play_on).to_have_attribute("aria-expanded", "false")
    await expect(page.locator("#dvorak-targets")).to_have_count(0)
    # No list with a card already chosen in it (the old panel's "on" menu).
    preselected = page.locator("#dvorak-hand select, #dvorak-table select, #dvorak-hand [aria-selected=true]")
    assert await preselected.count() == 0
    await play_on.click()
    targets = page.locator("#dvorak-targets button")
    await expect(targets).to_have_count(1)
    target = page.locator(f"#play-{second}-on-{first}")
    await expect(target).to_have_text(f"#{first} {played.group(1)} (Thing, Ann's)")
    await expect(target).to_be_focused()  # focus moves to the list; nothing was sent
    await expect(tab.scrollback.locator(".entry.echo").last).not_to_have_text(re.compile("playcard .* on"))
    assert await target.evaluate("b => b.scrollWidth <= b.clientWidth + 1")  # the label is whole
    await no_problems(tab)
    await shot(tab, "32-dvorak-play-on-which", size)
    await target.click()
    on = await bo.expect(rf"Ann plays #{second} (Gadget\d+) on #{first}")
    host = seat(tab, "Ann").locator(f"li.dv-played[data-card='{first}']")
    await expect(host.locator(f"ul.dv-on-it li.dv-played[data-card='{second}']")).to_contain_text(
        f"#{second} {on.group(1)}"
    )
    await expect(page.locator("#dvorak-hand li.card")).to_have_count(2)
    watched = spectator.page.locator(f"#dvorak-table li.dv-played[data-card='{first}'] ul.dv-on-it")
    await expect(watched).to_contain_text(f"#{second}")
    await shot(tab, "33-dvorak-thing-on-thing", size)

    # A card proposed with the form (Bo approves it by typing).
    await page.locator("#dvorak-propose summary").click()
    form = page.locator("#dvorak-propose-form")
    await form.get_by_label("Card name", exact=True).fill("Trampoline")
    await form.get_by_label("Card type", exact=True).select_option("T")
    await form.get_by_label("Card text", exact=True).fill("Bounce.\nTwice.")
    await no_problems(tab)
    await page.locator("#dvorak-propose-send").click()
    proposed = await bo.expect(r"Ann proposes a new card: #(\d+) Trampoline")
    await bo.expect(r"Bounce\.")
    votes = page.locator("#dvorak-votes")
    await expect(votes).to_contain_text("Trampoline")
    await expect(votes.locator(".card-text")).to_have_text("Bounce.\nTwice.")
    await expect(form.get_by_label("Card name", exact=True)).to_have_value("")
    # While a vote waits (halt is on), play waits too: no play or End your turn buttons.
    await expect(page.locator("#dvorak-table .dv-note")).to_contain_text("waits for the vote")
    await expect(page.locator("#dvorak-endturn")).to_have_count(0)
    await bo.command(f"approve {proposed.group(1)}", r"decided: accepted")
    await expect(votes.locator("li.vote")).to_have_count(0)

    # Bo's proposal: the votes come first, in sight without scrolling; Ann approves by its button.
    armageddon = await bo.command("newcard Armageddon/A/Destroy all Things.", r"Vote with: approve (\d+)")
    await expect(votes).to_contain_text("Armageddon")
    # A screen reader is told, once, that the vote waits for Ann.
    told = f"A vote waits for you: #{armageddon.group(1)} Armageddon."
    await expect(page.locator("#announcer")).to_have_text(told)
    await expect(votes).to_contain_text("Proposed by Bo.")
    panels = page.locator("#game-dvorak > section")
    await expect(panels.first).to_have_id("dvorak-votes")
    approve = votes.locator("button[id^=approve-]")
    await expect(approve).to_have_attribute("aria-pressed", "false")
    if size == DESKTOP_1366:
        await expect(approve).to_be_in_viewport()
        assert await page.evaluate("document.querySelector('#dvorak-votes').getBoundingClientRect().top") < 850
        assert await page.evaluate("window.scrollY") == 0
    await no_problems(tab)
    await shot(tab, "34-dvorak-vote-pending", size)
    await approve.click()
    await bo.expect(r"Ann approves #\d+\.")
    await bo.expect(r"decided: accepted")
    await expect(votes.locator("li.vote")).to_have_count(0)
    await expect(panels.first).to_have_id("dvorak-table")
    await tab.sees("decided: accepted")

    # The turn ends by its button.
    await page.locator("#dvorak-endturn").click()
    await bo.expect(r"Ann ends")
    await expect(page.locator("#dvorak-endturn")).to_have_count(0)
    await expect(page.locator("#dvorak-draw")).to_have_count(0)
    await no_problems(tab)
    await shot(tab, "35-dvorak-turn-over", size)
    await no_problems(spectator)
    await shot(spectator, "36-dvorak-spectator", size)
    await bo.close()


async def test_a_card_that_cannot_be_played_now_says_why_and_offers_no_play(start_server, open_tab):
    server = await start_server()
    tab = await open_tab(server, "Ann")
    page = tab.page
    await tab.log_in("Ann")
    await tab.type("newroom Wait")
    await tab.type("set handsize=3", *DECK[:8])
    bo: Any = await telnet_player(server, "Bo")
    await bo.command("join Wait", r"Draw pile: .*")
    await bo.command("newcard Rule/R/A rule.", r"Vote with")
    await page.locator("#dvorak-start").click()
    await expect(page.locator("#dvorak-hand li.card")).to_have_count(3)
    number = (await hand_numbers(tab))[0]
    await page.locator(f"#hand-card-{number}").click()
    # A vote waits (halt is on): no Play, no Draw, and the reason shown.
    await expect(page.locator(f"#card-actions-{number}")).to_contain_text("Play waits for the vote")
    await expect(page.locator(f"#play-{number}")).to_have_count(0)
    await expect(page.locator("#dvorak-draw")).to_have_count(0)
    await expect(page.locator(f"#close-{number}")).to_be_focused()
    await page.keyboard.press("Escape")
    await expect(page.locator(f"#card-actions-{number}")).to_have_count(0)
    await expect(page.locator(f"#hand-card-{number}")).to_be_focused()
    await bo.close()
