"""The page's lobby in Chromium, played by clicking only: "Play Gnav now" to the winner
banner, at a laptop's and a phone's size, with a telnet player watching every move; a
table made with the New table form and joined from another page's list; and axe-core's
audit of each screen."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace

import pytest
from playwright.async_api import expect

from commands import lobby
from games.gnav import rules as gnav_rules
from games.gnav import settings as gnav_settings
from tests.browser.conftest import Tab, clickable, tab_to, telnet_player
from tests.browser.test_gnav_panel import play_to_the_end

LAPTOP = {"width": 1366, "height": 850}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def quick_gnav(monkeypatch: pytest.MonkeyPatch) -> None:
    """Computer players that move at once, one life each and the next deal at once, so that
    a match played by clicking takes seconds (the servers run in this process)."""
    spec = gnav_settings.SETTINGS
    monkeypatch.setitem(spec, "botdelay", replace(spec["botdelay"], default=0.0))
    monkeypatch.setitem(spec, "lives", replace(spec["lives"], default=1))
    monkeypatch.setattr(gnav_rules, "DEAL_PAUSE", 0.05)
    monkeypatch.setattr(lobby, "REFRESH", 0.2)


async def assert_accessible(tab: Tab, screen: str) -> None:
    problems = await tab.accessibility_problems()
    assert problems == [], f"axe-core on {screen}:\n" + "\n".join(problems)


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["1366x850", "390x844"])
async def test_play_gnav_now_is_played_by_clicking_to_the_winner_banner_and_a_telnet_watcher_sees_every_move(
    start_server, open_tab, quick_gnav, size
):
    server = await start_server()
    tab = await open_tab(server, "Ann")
    await tab.page.set_viewport_size(size)
    await expect(tab.page.locator("#status")).to_have_attribute("data-state", "connected")
    await assert_accessible(tab, "the login form")
    await tab.log_in("Ann")
    play = tab.page.locator("#play-gnav")
    await expect(play).to_have_text("Play Gnav now")
    await expect(tab.page.locator("#lobby-online li")).to_have_text(["Ann"])
    await assert_accessible(tab, "the lobby")
    await tab.screenshot("20-lobby")

    await play.click()
    await expect(tab.page.locator("#gnav-table")).to_be_visible()
    await expect(tab.page.locator("#gnav-table li.seat")).to_have_count(4)
    await expect(tab.page.locator("#lobby")).to_have_count(0)
    bo = await telnet_player(server, "Bo")
    await bo.command("watch Gnav 1", r"Watching: Bo\.")
    await assert_accessible(tab, "the Gnav table")
    await tab.screenshot("21-gnav-table")

    clicks = await play_to_the_end(tab)
    assert clicks > 0
    banner = tab.page.locator("#gnav-table .result.banner")
    await expect(banner).to_contain_text(re.compile(r"won the match|draw"))
    await expect(tab.page.locator("#gnav-start")).to_be_visible()
    await assert_accessible(tab, "the match's end")
    await tab.screenshot("22-gnav-winner")

    # Every move clicked reached the telnet watcher, and the match's end too.
    await bo.expect(r"wins? the match!|The match is a draw")
    scrollback = await tab.scrollback.inner_text()
    # (Ann's line of each move, and the watcher's of it.)
    moves = {
        r"You keep your card\.": r"Ann keeps their card\.",
        r"You swap [^.\n]+ for (?!the stock's)\w+'s [^.\n]+\.": r"Ann swaps cards with \w+\.",
        r"You ask \w+ to swap\.": r"Ann asks \w+ to swap\.",
        r"You swap [^.\n]+ for the stock's [^.\n]+\.": r"Ann swaps with the stock\.",
    }
    made = {mine: len(re.findall(mine, scrollback)) for mine in moves}
    # (A click may come as the turn moves on, and be refused: moves made are what count.)
    mine = [line for line in scrollback.splitlines() if line.startswith(("You ", "> "))]
    assert sum(made.values()) >= 1, (clicks, mine)
    for mine, theirs in moves.items():
        assert len(re.findall(theirs, bo.transcript)) == made[mine], (theirs, bo.transcript)
    await bo.close()


async def test_a_table_made_with_the_form_is_listed_to_another_page_which_joins_it_by_clicking(
    start_server, open_tab, quick_gnav
):
    server = await start_server()
    ann = await open_tab(server, "Ann")
    await ann.log_in("Ann")
    await ann.page.locator("#new-table-game").select_option("gnav")
    await ann.page.locator("#new-table-name").fill("Fjord")
    # The game's settings, each at its default, changed before the table is made.
    await ann.page.get_by_text("Settings", exact=True).click()
    lives = ann.page.locator("#setting-lives")
    await expect(lives).to_have_value("1")  # this test's default (quick_gnav)
    await lives.fill("4")
    await ann.page.locator("#new-table-make").click()
    await ann.sees("You made room Fjord (Gnav) and are its host.")
    await ann.sees("You set lives to 4.")
    await expect(ann.page.locator("#gnav-table")).to_be_visible()
    room = await server.rooms.find("Fjord")
    assert room.table.state.settings["lives"] == 4 and room.table.state.settings["botdelay"] == 0.0

    cy = await open_tab(server, "Cy")
    await cy.page.set_viewport_size(PHONE)
    await cy.log_in("Cy")
    row = cy.page.locator("#lobby-tables li.table-row").filter(has_text="Fjord")
    await expect(row).to_contain_text("waiting for players")
    await expect(row).to_contain_text("seated: Ann")
    await expect(cy.page.locator("#lobby-online li")).to_have_text(["Ann", "Cy"])
    await assert_accessible(cy, "the lobby with a table")
    await cy.screenshot("23-lobby-tables")
    await row.get_by_role("button", name="Join Fjord").click()
    await cy.sees("You take a seat")
    await expect(ann.page.locator("#gnav-table li.seat")).to_have_count(2)
    # Ann's page hears of Cy at once; a private table's Join asks for the password in the
    # command line, where it is neither echoed nor kept.
    bo = await telnet_player(server, "Bo")
    await bo.command("newroom/gnav Den=sesame", r"You made room Den")
    dee = await open_tab(server, "Dee")
    await dee.log_in("Dee")
    den = dee.page.locator("#lobby-tables li.table-row").filter(has_text="Den")
    await expect(den).to_contain_text("password")
    await den.get_by_role("button", name="Join Den").click()
    await expect(dee.page.locator("#command")).to_have_value("join Den=")
    await dee.page.locator("#command").press_sequentially("sesame")
    await dee.page.locator("#command").press("Enter")
    await dee.sees("You take a seat")
    assert "sesame" not in await dee.scrollback.inner_text()
    await bo.close()


async def drawn(tab: Tab, text: str) -> dict[str, float]:
    """How the newest entry holding ``text`` is drawn now: its lines on the screen, how far
    it overflows the scrollback, and where its first line and the second start."""
    return await tab.scrollback.locator(".entry", has_text=text).last.evaluate(
        """entry => {
            const rects = [];
            const walker = document.createTreeWalker(entry, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                const range = document.createRange();
                range.selectNodeContents(node);
                rects.push(...[...range.getClientRects()].filter(rect => rect.width > 0));
            }
            const tops = [...new Set(rects.map(rect => Math.round(rect.top)))];
            const lefts = tops.map(top => Math.min(...rects.filter(r => Math.round(r.top) === top).map(r => r.left)));
            const scrollback = document.getElementById("scrollback");
            const measure = document.getElementById("measure");
            return {
                lines: tops.length,
                overflow: scrollback.scrollWidth - scrollback.clientWidth,
                indent: (lefts[1] - lefts[0]) / (measure.getBoundingClientRect().width / 100),
            };
        }"""
    )


async def settled(tab: Tab, text: str) -> dict[str, float]:
    """:func:`drawn`, once two looks a fifth of a second apart agree (the page wraps anew a
    moment after a resize)."""
    last = await drawn(tab, text)
    for _look in range(50):
        await tab.page.wait_for_timeout(200)
        now = await drawn(tab, text)
        if now == last:
            return now
        last = now
    raise AssertionError(f"the entry never settled: {last}")


async def test_the_text_wraps_anew_to_the_scrollback_s_width_at_every_resize(start_server, open_tab):
    """The page wraps the server's lines itself (they come unwrapped), so what was shown
    before a resize wraps anew too, each continuation hanging two columns in."""
    server = await start_server()
    tab = await open_tab(server, "Ann")
    await tab.page.set_viewport_size(LAPTOP)
    await tab.log_in("Ann")
    words = " ".join(f"word{i}" for i in range(150))
    await tab.type(f"say {words}")
    await tab.sees(re.compile(r"word149\""))
    wide = await drawn(tab, "word149")
    assert 10 <= wide["lines"] <= 16 and wide["overflow"] <= 0, wide
    assert wide["indent"] == pytest.approx(2, abs=0.2), wide
    await tab.page.set_viewport_size(PHONE)
    narrow = await settled(tab, "word149")
    assert narrow["lines"] >= 2 * wide["lines"] and narrow["overflow"] <= 0, narrow
    assert narrow["indent"] == pytest.approx(2, abs=0.2), narrow
    # A table's row hangs under its last column where that is less than half the width,
    # else two columns in (the welcome's "WHO  see who is on", on a phone).
    row = tab.scrollback.locator(".line", has_text="see who is on").first
    await expect(row).to_have_css("padding-left", re.compile(r"^(1[6-9]|2[0-3])(\.\d+)?px$"))
    await tab.page.set_viewport_size(LAPTOP)
    await expect(row).not_to_have_css("padding-left", re.compile(r"^(1[6-9]|2[0-3])(\.\d+)?px$"))
    # A table's panel widens the side column: the text narrows with it, the old lines too.
    await tab.page.locator("#play-gnav").click()
    await expect(tab.page.locator("#gnav-table")).to_be_visible()
    beside = await settled(tab, "word149")
    assert wide["lines"] < beside["lines"] < narrow["lines"] and beside["overflow"] <= 0, beside


async def test_a_room_s_rules_and_results_are_tabs_beside_its_table(start_server, open_tab, quick_gnav):
    server = await start_server()
    tab = await open_tab(server, "Ann")
    await tab.page.set_viewport_size(LAPTOP)
    await tab.log_in("Ann")
    tabs = tab.page.get_by_role("tablist", name="This room")
    await expect(tabs).to_be_hidden()
    await tab.page.locator("#play-gnav").click()
    await expect(tabs).to_be_visible()
    await expect(tab.page.get_by_role("tab", name="Table")).to_have_attribute("aria-selected", "true")

    await tab.page.get_by_role("tab", name="Rules").click()
    rules = tab.page.locator("#rules-panel")
    await expect(rules).to_contain_text("Gjøk")
    await expect(tab.page.locator("#gnav-table")).to_be_hidden()
    await assert_accessible(tab, "the Rules tab")
    await tab.screenshot("25-rules")
    # The arrow keys move between the tabs, as screen readers' users expect of tabs.
    await tab.page.get_by_role("tab", name="Rules").press("ArrowLeft")
    await expect(tab.page.get_by_role("tab", name="Table")).to_be_focused()
    await expect(tab.page.locator("#gnav-table")).to_be_visible()

    clicks = await play_to_the_end(tab)
    assert clicks > 0
    winner = await tab.page.locator("#gnav-table .result.banner").inner_text()
    await tab.page.get_by_role("tab", name="Results").click()
    await tab.sees(re.compile(r"The last game in room Gnav 1:"))
    results = tab.page.locator("#results-panel li")
    await expect(results).to_have_count(1)
    await expect(results).to_contain_text(winner)
    await assert_accessible(tab, "the Results tab")
    await tab.screenshot("26-results")
    # Back in the lobby, no tabs; the next room opens on its table, with its own rules
    # (the same as the last room's) and results (none yet).
    await tab.page.get_by_role("button", name="Leave room").click()
    await expect(tabs).to_be_hidden()
    await expect(tab.page.locator("#lobby")).to_be_visible()
    await tab.page.locator("#play-gnav").click()
    await expect(tab.page.locator("#room-name")).to_have_text("Gnav 2 (gnav)")
    await expect(tab.page.get_by_role("tab", name="Table")).to_have_attribute("aria-selected", "true")
    await tab.page.get_by_role("tab", name="Rules").click()
    await expect(rules).to_contain_text("Gjøk")
    await tab.page.get_by_role("tab", name="Results").click()
    await expect(tab.page.locator("#results-panel")).to_contain_text("No game has ended in this room yet.")


async def test_a_gnav_match_is_played_by_keyboard_alone_and_its_turns_and_end_are_announced(
    start_server, open_tab, quick_gnav
):
    server = await start_server()
    tab = await open_tab(server, "Ann")
    await tab.page.set_viewport_size(LAPTOP)
    await tab.log_in("Ann")
    page = tab.page
    await expect(page.locator("#play-gnav")).to_be_visible()
    await tab_to(page, "play-gnav")
    await page.keyboard.press("Enter")
    await expect(page.locator("#gnav-table")).to_be_visible()
    announcer = page.locator("#announcer")
    banner = page.locator("#gnav-table .result.banner")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    moves = 0
    while not await banner.is_visible():
        assert loop.time() < deadline, "the match did not end"
        keep = page.locator("#gnav-keep")
        # (The table's turn line, from the same package the announcement is made from.)
        your_turn = page.locator("#gnav-table .turn-line", has_text="Your turn.")
        if await clickable(keep) and await your_turn.count():
            await expect(announcer).to_have_text("Your turn.")
            try:
                await tab_to(page, "gnav-keep")
                await page.keyboard.press("Enter")
                moves += 1
            except AssertionError:
                pass  # the turn moved on (a deal ended) while tabbing: look again
        else:
            await page.wait_for_timeout(50)
    assert moves > 0
    await expect(announcer).to_have_text(await banner.inner_text())


async def test_the_display_menu_makes_the_text_larger_and_the_contrast_higher_and_remembers_it(start_server, open_tab):
    server = await start_server()
    tab = await open_tab(server, "Ann")
    await tab.page.set_viewport_size(LAPTOP)
    await tab.log_in("Ann")
    page = tab.page
    usual = await page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    await page.get_by_text("Display", exact=True).click()
    await page.get_by_label("Text size").select_option("larger")
    await page.get_by_label("High contrast").check()
    html = page.locator("html")
    await expect(html).to_have_class(re.compile(r"\btext-larger\b"))
    await expect(html).to_have_class(re.compile(r"\bcontrast\b"))
    assert await page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") > usual * 1.3
    assert await page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(0, 0, 0)"
    await assert_accessible(tab, "the lobby in high contrast and larger text")
    await tab.screenshot("27-display")
    await page.reload()
    await expect(page.locator("html")).to_have_class(re.compile(r"\btext-larger\b"))
    await expect(page.get_by_label("High contrast")).to_be_checked()


async def test_the_newest_line_stays_in_sight_through_resizes(start_server, open_tab):
    """The scrollback follows its newest line through any resize: the lines wrapped anew
    move it, and that is not the reader scrolling up."""
    server = await start_server()
    tab = await open_tab(server, "Ann")
    await tab.page.set_viewport_size(LAPTOP)
    await tab.log_in("Ann")
    for number in range(12):
        await tab.type(f"say {number} " + " ".join(["a few words more"] * 12))
    newest = tab.scrollback.locator(".entry").last
    for size in ({"width": 1280, "height": 800}, PHONE, {"width": 1000, "height": 700}, LAPTOP):
        await tab.page.set_viewport_size(size)
        await tab.page.wait_for_timeout(300)
        await expect(newest).to_be_in_viewport()
        await tab.type(f"say {size['width']}")
        await expect(tab.scrollback.locator(".entry").last).to_be_in_viewport()
    # A reader who scrolls up to read is left there when lines come, until they scroll down.
    box = await tab.scrollback.bounding_box()
    await tab.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    await tab.page.mouse.wheel(0, -1500)
    await tab.page.wait_for_timeout(300)
    top = await tab.scrollback.evaluate("s => s.scrollTop")
    bo = await telnet_player(server, "Bo")
    await bo.command("say I am here", r"You say")
    await tab.sees('Bo says, "I am here"')
    await tab.page.wait_for_timeout(300)
    assert await tab.scrollback.evaluate("s => s.scrollTop") == top
    await tab.page.mouse.wheel(0, 100_000)
    await tab.page.wait_for_timeout(300)
    await bo.command("say again", r"You say")
    await expect(tab.scrollback.locator(".entry", has_text='Bo says, "again"')).to_be_in_viewport()
    await bo.close()
