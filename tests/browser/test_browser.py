"""The browser client in a real browser, at the page the server serves, next to a telnet
player at the same table: each test logs in through the form and plays by typing in the
command line and clicking the panels' buttons (``conftest.py`` says how pages are watched).
"""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import Locator, expect

from commands.login import welcome_screen
from games import KINDS
from games.ys import tables as t
from i18n import _, language
from server.web import WebConnection
from tests.browser.conftest import DESKTOP, PHONE, Tab, tab_to, telnet_player, until
from tests.client import MudClient

DECK = [f"loadcard Card{i}/T/Thing number {i}." for i in range(1, 9)]
HOSTILE_NAME = "<img src=x onerror=alert(1)>"
HOSTILE_TEXT = "<script>alert(2)</script> & <b>bold</b>"


def seat(tab: Tab, name: str) -> Locator:
    """A seat of the Dvorak table panel, by its player's name."""
    return tab.page.locator("#dvorak-table li.seat").filter(
        has=tab.page.locator(".seat-name", has_text=re.compile(f"^{re.escape(name)}$"))
    )


async def hand_numbers(tab: Tab) -> list[int]:
    ids = await tab.page.locator("#dvorak-hand button.card-button").evaluate_all("buttons => buttons.map(b => b.id)")
    return [int(button_id.removeprefix("hand-card-")) for button_id in ids]


async def dvorak_table(tab: Tab, server: Any, room: str = "Table", deck: list[str] = DECK) -> MudClient:
    """``tab`` (logged in) makes ``room`` with ``deck``, three cards each, no turns; Bo joins by telnet."""
    await tab.type(f"newroom {room}")
    await expect(tab.page.locator("#dvorak-table")).to_be_visible()
    await tab.type("set turns=off", "set handsize=3", *deck)
    bo = await telnet_player(server, "Bo")
    await bo.command(f"join {room}", r"Draw pile: .*")
    await expect(seat(tab, "Bo")).to_be_visible()
    return bo


async def test_a_player_logs_in_with_the_form_and_a_room_made_by_typing_shows_its_table(start_server, open_tab):
    server = await start_server()
    tab = await open_tab(server, "Ann")
    await expect(tab.page.locator("#panels")).to_have_js_property("hidden", True)
    await tab.screenshot("01-login")
    await tab.log_in("Ann")
    await tab.sees("Players here:")
    await expect(tab.page.locator("#login-password")).to_have_value("")
    # The password went only into the socket: not into the address, the storage or the history.
    assert "secret1" not in tab.page.url
    stored = await tab.page.evaluate("JSON.stringify([{...sessionStorage}, {...localStorage}])")
    assert "secret1" not in stored and "dvorak-mush.token" in stored
    await tab.page.locator("#command").press("ArrowUp")
    await expect(tab.page.locator("#command")).to_have_value("")
    await tab.type("newroom Table")
    await tab.sees("You made room Table")
    await expect(tab.page.locator("#room-name")).to_have_text("Table (dvorak)")
    table = tab.page.locator("#dvorak-table")
    await expect(table).to_be_visible()
    await expect(table.locator("h2")).to_have_text("Table: Table")
    await expect(seat(tab, "Ann")).to_contain_text("(you, host)")
    await expect(tab.page.locator("#dvorak-start")).to_be_visible()
    await expect(tab.page.locator("#leave-room")).to_be_visible()
    await tab.screenshot("02-new-room")


async def test_the_browser_player_starts_and_plays_by_clicking_and_sees_the_telnet_players_moves(
    start_server, open_tab
):
    server = await start_server()
    tab = await open_tab(server, "Ann")
    await tab.log_in("Ann")
    bo = await dvorak_table(tab, server)
    await tab.sees("Bo arrives")

    await tab.page.locator("#dvorak-start").click()
    await bo.expect(r"dealt|deals")
    await expect(tab.page.locator("#dvorak-hand button.card-button")).to_have_count(3)
    await expect(tab.page.locator("#dvorak-start")).to_have_count(0)
    await expect(seat(tab, "Bo")).to_contain_text("3 cards in hand")
    await tab.screenshot("03-dealt")

    number = (await hand_numbers(tab))[0]
    await tab.page.locator(f"#hand-card-{number}").click()
    await expect(tab.page.locator(f"#card-actions-{number}")).to_be_visible()
    await expect(tab.page.locator(f"#play-{number}")).to_be_focused()
    await tab.screenshot("04-card-actions")
    await tab.page.locator(f"#play-{number}").click()
    played = await bo.expect(rf"Ann plays #{number} (Card\d)")
    await expect(seat(tab, "Ann").locator("ul.in-play")).to_contain_text(f"#{number} {played.group(1)}")
    await expect(tab.page.locator("#dvorak-hand button.card-button")).to_have_count(2)
    await expect(seat(tab, "Ann")).to_contain_text("2 cards in hand")

    bo.send("drawcard")
    drawn = await bo.expect(r"You draw #(\d+) (Card\d)")
    await tab.sees("Bo draws a card.")
    await expect(seat(tab, "Bo")).to_contain_text("4 cards in hand")
    # What Bo drew is Bo's alone: the page shows how many cards Bo holds, never which.
    await expect(tab.page.locator("#panels")).not_to_contain_text(drawn.group(2))
    bo.send(f"playcard {drawn.group(1)}")
    await bo.expect(rf"You play #{drawn.group(1)}")
    await expect(seat(tab, "Bo").locator("ul.in-play")).to_contain_text(f"#{drawn.group(1)} {drawn.group(2)}")
    await expect(seat(tab, "Bo")).to_contain_text("3 cards in hand")
    await tab.sees(f"Bo plays #{drawn.group(1)} {drawn.group(2)}")
    # A card Bo plays face down shows on the page by its label only.
    bo.send("drawcard")
    hidden = await bo.expect(r"You draw #(\d+) (Card\d+)")
    bo.send(f"playcard {hidden.group(1)}=facedown")
    await bo.expect(r"face down")
    await expect(seat(tab, "Bo").locator("ul.in-play")).to_contain_text("face-down card FD1")
    await tab.sees("Bo plays a card face down")
    await expect(tab.page.locator("#dvorak-table")).not_to_contain_text(re.compile(rf"#{hidden.group(1)}\b"))
    await expect(tab.page.locator("#dvorak-table")).not_to_contain_text(re.compile(rf"\b{hidden.group(2)}\b"))
    await expect(tab.page.locator("#dvorak-table .piles")).to_contain_text("Piles: draw pile")
    await expect(tab.page.locator("#panels")).not_to_contain_text("[object")
    await tab.screenshot("05-after-moves")
    await bo.close()


async def test_the_browser_player_votes_with_the_approve_button(start_server, open_tab):
    server = await start_server()
    tab = await open_tab(server, "Ann")
    await tab.log_in("Ann")
    bo = await dvorak_table(tab, server, deck=[])
    await bo.command("newcard Armageddon/A/Destroy all Things.", r"Vote with: approve (\d+)")
    votes = tab.page.locator("#dvorak-votes")
    await expect(votes).to_contain_text("Armageddon")
    await expect(votes).to_contain_text("Destroy all Things.")
    await expect(votes).to_contain_text("Proposed by Bo.")
    approve = votes.locator("button[id^=approve-]")
    await expect(approve).to_have_attribute("aria-pressed", "false")
    await tab.screenshot("06-vote")
    await approve.click()
    await bo.expect(r"Ann approves #\d+\.")
    await bo.expect(r"decided: accepted")
    await expect(tab.page.locator("#dvorak-votes")).to_have_count(0)
    await tab.sees("decided: accepted")
    await bo.close()


async def test_a_card_named_with_html_is_shown_as_text_and_runs_nothing(start_server, open_tab):
    server = await start_server()
    tab = await open_tab(server, "Ann")
    await tab.log_in("Ann")
    # Every card is the hostile one, so whoever is dealt what, Ann holds it.
    bo = await dvorak_table(tab, server, deck=[f"loadcard {HOSTILE_NAME}/T/{HOSTILE_TEXT}"] * 6)
    await tab.type("say <script>alert(3)</script>")
    await bo.expect(re.escape('Ann says, "<script>alert(3)</script>"'))
    # The card proposed stays pending while Ann plays one of the same name.
    await tab.type("set halt=off")
    await bo.command(f"newcard {HOSTILE_NAME}/A/{HOSTILE_TEXT}", r"Vote with")
    votes = tab.page.locator("#dvorak-votes")
    await expect(votes).to_contain_text(HOSTILE_NAME)
    await expect(votes).to_contain_text(HOSTILE_TEXT)

    await tab.page.locator("#dvorak-start").click()
    hand = tab.page.locator("#dvorak-hand li.card")
    await expect(hand).to_have_count(3)
    for index in range(3):
        await expect(hand.nth(index).locator(".card-name")).to_have_text(HOSTILE_NAME)
        await expect(hand.nth(index).locator(".card-text")).to_have_text(HOSTILE_TEXT)
    number = (await hand_numbers(tab))[0]
    await tab.page.locator(f"#hand-card-{number}").click()
    await expect(tab.page.locator(f"#play-{number}")).to_have_attribute("aria-label", f"Play #{number} {HOSTILE_NAME}")
    await tab.page.locator(f"#play-{number}").click()
    await bo.expect(rf"Ann plays #{number} {re.escape(HOSTILE_NAME)}")
    await expect(seat(tab, "Ann").locator("ul.in-play .card-name")).to_have_text(HOSTILE_NAME)
    await tab.sees(f"You play #{number} {HOSTILE_NAME}")
    await tab.sees("<script>alert(3)</script>")
    await tab.type(f"readcard {number}")
    await tab.sees(HOSTILE_TEXT)
    await tab.screenshot("07-hostile-card")
    assert await tab.page.locator("img").count() == 0
    # The page's own scripts alone: app.js and each game's panel.
    sources = await tab.page.locator("script").evaluate_all("scripts => scripts.map((s) => s.getAttribute('src'))")
    assert sources == ["/static/app.js", *(f"/static/games/{game}.js" for game in KINDS)]
    assert await tab.page.locator("b").count() == 0
    await tab.page.wait_for_timeout(200)
    assert tab.dialogs == []
    await bo.close()


async def test_a_dropped_websocket_comes_back_by_itself_to_its_seat(start_server, open_tab):
    server = await start_server()
    tab = await open_tab(server, "Ann")
    await tab.log_in("Ann")
    bo = await dvorak_table(tab, server)
    await tab.page.locator("#dvorak-start").click()
    await expect(tab.page.locator("#dvorak-hand button.card-button")).to_have_count(3)
    before = sorted(await hand_numbers(tab))

    # The network goes: the server's end of each web connection is cut, with no goodbye.
    dropped = [c for c in server.hub.connections if isinstance(c, WebConnection)]
    assert len(dropped) == 1
    for connection in dropped:
        assert connection.transport is not None
        connection.transport.abort()
    await bo.expect("Ann has disconnected; the seat is kept.")
    await tab.sees("The connection dropped; reconnecting…")
    await expect(tab.page.locator("#status")).to_have_attribute("data-state", "reconnecting")
    await tab.screenshot("08-reconnecting")

    await expect(tab.page.locator("#status")).to_have_attribute("data-state", "connected")
    await tab.sees("Welcome back, Ann.")
    await bo.expect(r"^Ann is back\.$")
    await expect(tab.page.locator("#login")).to_be_hidden()
    await expect(tab.page.locator("#room-name")).to_have_text("Table (dvorak)")
    await expect(seat(tab, "Ann")).to_contain_text("3 cards in hand")
    await expect(seat(tab, "Bo")).to_be_visible()
    await expect(tab.page.locator("#dvorak-hand button.card-button")).to_have_count(3)
    assert sorted(await hand_numbers(tab)) == before
    assert not any(isinstance(c, WebConnection) and c in dropped for c in server.hub.connections)
    # The seat works: a click still plays.
    await tab.page.locator(f"#hand-card-{before[0]}").click()
    await tab.page.locator(f"#play-{before[0]}").click()
    await bo.expect(rf"Ann plays #{before[0]}")
    await tab.screenshot("09-resumed")
    await bo.close()


async def test_the_page_works_by_keyboard_and_names_everything_for_screen_readers(start_server, open_tab):
    server = await start_server()
    tab = await open_tab(server, "Ann")
    page = tab.page
    await expect(page.locator("#status")).to_have_attribute("data-state", "connected")
    scrollback = page.get_by_role("log")
    await expect(scrollback).to_have_attribute("aria-live", "polite")
    await expect(scrollback).to_have_id("scrollback")
    await expect(page.get_by_role("textbox", name="command", exact=True)).to_have_id("command")

    # Keyboard only: Tab from the top of the page reaches the name field, then the password.
    await page.evaluate("document.activeElement.blur()")
    await tab_to(page, "login-name")
    await page.keyboard.type("Kim")
    await page.keyboard.press("Tab")
    await expect(page.locator("#login-password")).to_be_focused()
    await page.keyboard.type("secret1")
    await page.keyboard.press("Tab")
    await expect(page.locator("#login-connect")).to_be_focused()
    await page.keyboard.press("Tab")
    await expect(page.locator("#login-create")).to_be_focused()
    await page.keyboard.press("Enter")
    await tab.logged_in()
    await expect(page.locator("#command")).to_be_focused()
    await page.keyboard.type("newroom Keys")
    await page.keyboard.press("Enter")
    await tab.sees("You made room Keys")
    await tab.type("set handsize=3", *DECK[:6])
    bo = await telnet_player(server, "Bo")
    await bo.command("join Keys", r"Draw pile: .*")
    await bo.command("newcard Rule/R/A rule.", r"Vote with")
    await expect(page.locator("#dvorak-votes")).to_be_visible()

    # The Start button is reached with Tab and pressed with Enter; a hand card with Space.
    await tab_to(page, "dvorak-start")
    await page.keyboard.press("Enter")
    await expect(page.locator("#dvorak-hand button.card-button")).to_have_count(3)
    first = page.locator("#dvorak-hand button.card-button").first
    await tab_to(page, await first.get_attribute("id") or "")
    await page.keyboard.press("Space")
    number = int((await first.get_attribute("id") or "").removeprefix("hand-card-"))
    # The first move offered has the focus (Play on your turn; here a vote halts play: Close).
    await expect(page.locator(f"#card-actions-{number} button").first).to_be_focused()
    await page.keyboard.press("Escape")
    await expect(page.locator(f"#card-actions-{number}")).to_have_count(0)
    await expect(page.locator(f"#hand-card-{number}")).to_be_focused()

    # Every visible button has a name.
    await tab.sees(re.compile(r"#\d+"))
    buttons = page.locator("button")
    unnamed = []
    for index in range(await buttons.count()):
        button = buttons.nth(index)
        if not await button.is_visible():
            continue
        label = (await button.get_attribute("aria-label") or "").strip() or (await button.inner_text()).strip()
        if not label:
            unnamed.append(await button.evaluate("b => b.outerHTML"))
    assert unnamed == []
    assert await page.locator("#scrollback button.ref").count() > 0
    await tab.screenshot("12-keyboard")
    await bo.close()


async def test_a_page_left_at_the_login_form_past_the_login_time_connects_again_when_the_player_logs_in(
    start_server, open_tab
):
    server = await start_server(login_timeout=1.0)
    tab = await open_tab(server, "Ann")
    await expect(tab.scrollback).to_contain_text("You did not log in in time.")
    await expect(tab.page.locator("#status")).to_have_attribute("data-state", "disconnected")
    # It waits for the player rather than knocking again every few minutes.
    await tab.page.wait_for_timeout(2500)
    assert not server.hub.connections
    await tab.page.get_by_label("Name", exact=True).fill("Ann")
    await tab.page.get_by_label("Password", exact=True).fill("secret1")
    await tab.page.locator("#login-create").click()
    await tab.logged_in()
    await expect(tab.page.locator("#status")).to_have_attribute("data-state", "connected")


async def test_a_ys_board_is_drawn_and_bid_and_placed_on_by_clicking_and_shows_no_hidden_broker(start_server, open_tab):
    server = await start_server()
    tab = await open_tab(server, "Ann")
    await tab.log_in("Ann")
    await tab.type("newroom/ys Board")
    board = tab.page.locator("#ys-board")
    await expect(board).to_be_visible()
    room = await server.rooms.find("board")
    assert room is not None
    state = room.table.state
    for seats in (2, 3):
        await tab.page.locator("#ys-addbot").click()
        await until(lambda seats=seats: len(state.seats) == seats)
    bots = [seat.name for seat in state.seats if seat.bot]
    ann = next(seat.account_id for seat in state.seats if seat.name == "Ann")
    await tab.page.locator("#ys-start").click()
    await expect(board.locator(".ys-city-space")).to_have_count(12)
    await expect(board.locator(".ys-market-space")).to_have_count(16)
    await expect(board.locator(".ys-price-row")).to_have_count(4)
    for name in ("Ann", *bots):
        await expect(board.locator(".ys-player .seat-name", has_text=name)).to_have_count(1)
    # Each palace's action card says, as a tooltip, when it is played and what it does
    # (yellow-edged ones in rounds 1-3).
    cards = board.locator(".ys-action-card")
    await expect(cards).to_have_count(4)
    for index in range(4):
        title = await cards.nth(index).get_attribute("title") or ""
        assert "(yellow-edged" in title and ("played " in title or "taken at once" in title), title
    await tab.screenshot("13-ys-board")

    # The bid: two brokers clicked, then Bid.
    screen = tab.page.locator("#ys-screen")
    bid = tab.page.locator("#ys-bid")
    await expect(bid).to_be_disabled()
    first, second = screen.locator("#ys-broker-0"), screen.locator("#ys-broker-1")
    values = sorted([int(await first.inner_text()), int(await second.inner_text())])
    await first.click()
    await second.click()
    await expect(first).to_have_attribute("aria-pressed", "true")
    await expect(bid).to_be_enabled()
    await bid.click()
    await until(lambda: state.player(ann) is not None and state.player(ann)["front"] == values)
    await expect(screen).to_contain_text(f"In front of it: {values[0]} {values[1]}")
    # A computer player bidding as low as Ann may leave her an order card to choose.
    await until(lambda: state.stage == "place" or (bool(state.awaiting) and state.awaiting[0]["player"] == ann))
    if state.stage != "place":
        await tab.page.locator("[id^=ys-order-]").first.click()

    # A pair: a broker and a space face up, then face down, then Place.
    await until(lambda: state.stage == "place" and state.turn == ann)
    await expect(tab.page.locator("#ys-place")).to_be_visible()
    up_value = int(await screen.locator("#ys-broker-0").inner_text())
    down_value = int(await screen.locator("#ys-broker-1").inner_text())
    await screen.locator("#ys-broker-0").click()
    await board.locator("#ys-space-city-0-port").click()
    await screen.locator("#ys-broker-1").click()
    await board.locator("#ys-space-city-0-commercial").click()
    await tab.page.locator("#ys-place").click()
    # The bots place their pairs until Ann's turn comes again.
    await until(
        lambda: (
            state.stage == "place"
            and state.turn == ann
            and len([entry for entry in state.placed if entry["player"] == ann]) == 2
        )
    )
    hidden = [entry for entry in state.placed if entry["player"] != ann and not entry["up"]]
    assert hidden, "no computer player placed a broker face down"
    names = {seat.account_id: seat.name for seat in state.seats}
    chips = board.locator(".ys-chip")
    await expect(chips.filter(has_text=f"Ann, face down: {down_value}")).to_have_count(1)
    await expect(chips.filter(has_text=f"Ann, face up: {up_value}")).to_have_count(1)
    await expect(chips.filter(has_text=re.compile(r"face down: \?"))).to_have_count(len(hidden))
    for entry in hidden:
        space = entry["space"]
        cell = board.locator(f'.ys-space[data-space="{space[0]} {space[1] + 1} {space[2]}"]')
        await expect(cell.locator(".ys-chip", has_text=f"{names[entry['player']]}, face down: ?")).not_to_have_count(0)
    bot_faces_down = re.compile(rf"({'|'.join(map(re.escape, bots))}), face down: \d")
    await expect(chips.filter(has_text=bot_faces_down)).to_have_count(0)
    assert not bot_faces_down.search(await tab.page.locator("#panels").inner_text())
    await tab.screenshot("14-ys-placed")


async def test_with_two_players_the_page_offers_only_the_viewer_s_own_neutral_brokers(start_server, open_tab):
    server = await start_server()
    tab = await open_tab(server, "Ann")
    await tab.log_in("Ann")
    await tab.type("newroom/ys Pair")
    # The room exists once its board is drawn (the command is answered after it is made).
    await expect(tab.page.locator("#ys-board")).to_be_visible()
    room = await server.rooms.find("pair")
    assert room is not None
    state = room.table.state
    await tab.page.locator("#ys-addbot").click()
    await until(lambda: len(state.seats) == 2)
    ann = next(seat.account_id for seat in state.seats if seat.name == "Ann")
    await tab.page.locator("#ys-start").click()
    screen, board = tab.page.locator("#ys-screen"), tab.page.locator("#ys-board")
    # Her two highest brokers (7 and 6): the computer player keeps its highest back, so
    # Ann's bid is the highest.
    brokers = len(state.player(ann)["screen"])
    await screen.locator(f"#ys-broker-{brokers - 1}").click()
    await screen.locator(f"#ys-broker-{brokers - 2}").click()
    await tab.page.locator("#ys-bid").click()
    # Issue 45: the order cards are chosen, from the highest bid down: the page offers
    # Ann the free ones as buttons (the last to choose takes the one left).
    asked = {"player": ann, "ask": "order", "options": [1, 2]}
    await until(lambda: bool(state.awaiting) and state.awaiting[0] == asked)
    offered = tab.page.locator("[id^=ys-order-]")
    await expect(offered).to_have_count(2)
    assert await offered.all_inner_texts() == ["Order card 1", "Order card 2"]
    await tab.page.locator("#ys-order-1").click()
    await until(lambda: state.stage == "place")
    assert state.order[0] == ann

    def own_neutrals() -> list[int]:
        return [e["value"] for e in state.placed if e["player"] == t.NEUTRAL and e.get("by") == ann]

    for placed, quadrant in ((0, 0), (1, 1)):
        await until(lambda placed=placed: (state.turn, state.turn_part, len(own_neutrals())) == (ann, "pair", placed))
        await screen.locator("#ys-broker-0").click()
        await board.locator(f"#ys-space-city-{quadrant}-port").click()
        await screen.locator("#ys-broker-1").click()
        await board.locator(f"#ys-space-city-{quadrant}-commercial").click()
        await tab.page.locator("#ys-place").click()
        # Her own four, less the ones she placed: never anything of the computer player's.
        offered = tab.page.locator("[id^=ys-neutral-]")
        expected = sorted(set(t.NEUTRAL_BROKERS) - set(own_neutrals()))
        await expect(offered).to_have_count(len(expected))
        assert [int(text) for text in await offered.all_inner_texts()] == expected
        await tab.page.locator(f"#ys-neutral-{expected[-1]}").click()
        await board.locator(f"#ys-space-city-{quadrant}-palace").click()
        await tab.page.locator("#ys-place-neutral").click()
        await until(lambda placed=placed: len(own_neutrals()) == placed + 1)
    assert own_neutrals() == [4, 2]


async def test_a_board_wider_than_the_scrollback_is_shown_whole_in_a_smaller_font_and_prose_still_wraps(
    start_server, open_tab
):
    """A Ys board is laid out 80 columns wide; the scrollback beside the panels at desktop
    width holds fewer. The board is shown whole, every line on one line, in a smaller font;
    the text the server wrapped to the page is as it was; at phone width, where the board
    would be too small to read, it wraps as prose does."""
    server = await start_server()
    tab = await open_tab(server, "Ann")
    await tab.log_in("Ann")
    await tab.type("newroom/ys Quay", "addbot normal", "start")
    await tab.sees("Bid two brokers")
    await tab.type("look")
    board = tab.scrollback.locator(".entry", has_text="Quadrant 1").last
    whole = re.compile(r"\bwhole\b")
    await expect(board).to_have_class(whole)

    async def shown(entry: Locator) -> dict[str, float]:
        return await entry.evaluate(
            """e => ({lines: e.innerText.split("\\n").length, height: e.getBoundingClientRect().height,
                      lineHeight: parseFloat(getComputedStyle(e).lineHeight), scrolled: e.scrollWidth - e.clientWidth,
                      font: parseFloat(getComputedStyle(e).fontSize),
                      usual: parseFloat(getComputedStyle(e.parentElement).fontSize)})"""
        )

    drawn = await shown(board)
    assert drawn["lines"] > 20
    assert round(drawn["height"] / drawn["lineHeight"]) == drawn["lines"]  # no line wrapped
    assert drawn["scrolled"] <= 0  # nor cut off
    assert 0.7 * drawn["usual"] <= drawn["font"] < drawn["usual"]
    prose = tab.scrollback.locator(".entry", has_text="You made room Quay")
    await expect(prose).not_to_have_class(whole)
    assert (await shown(prose))["font"] == drawn["usual"]

    await tab.page.set_viewport_size(PHONE)
    await expect(board).not_to_have_class(whole)
    narrow = await shown(board)
    assert narrow["font"] == narrow["usual"] and round(narrow["height"] / narrow["lineHeight"]) > narrow["lines"]
    await tab.page.set_viewport_size(DESKTOP)
    await expect(board).to_have_class(whole)
    await tab.screenshot("15-ys-board-whole")


async def test_a_say_padded_to_the_edge_wraps_indented_so_it_cannot_pass_for_a_server_line(start_server, open_tab):
    """What the page wraps goes on indented (a line the server ended still starts at the
    edge): a say padded with spaces cannot put its end at the left edge, where a wall's
    "Announcement from ..." would be."""
    server = await start_server()
    tab = await open_tab(server, "Ann")
    await tab.log_in("Ann")
    bo = await telnet_player(server, "Bo")
    await tab.sees("Bo has connected")
    bo.send(f"say hi{' ' * 400}Announcement from Admin: type your password again.")
    said = tab.scrollback.locator(".entry", has_text="Bo says").last
    await expect(said).to_contain_text("Admin")

    where_words_start = """e => {
            const text = e.firstChild.nodeType === Node.TEXT_NODE ? e.firstChild : e.querySelector("*").firstChild;
            const at = (word) => {
                const range = document.createRange();
                const start = text.textContent.indexOf(word);
                range.setStart(text, start);
                range.setEnd(text, start + word.length);
                return range.getClientRects()[0].left;
            };
            return {edge: at("Bo"), fake: at("Announcement"), ch: parseFloat(getComputedStyle(e).fontSize)};
        }"""
    lefts = await said.evaluate(where_words_start)
    assert lefts["fake"] >= lefts["edge"] + lefts["ch"] * 0.9, lefts
    # Narrowed (a phone turned), the page wraps a line the server sent whole: indented too.
    bo.send("say " + " ".join(f"w{i:02}" for i in range(16)))
    said = tab.scrollback.locator(".entry", has_text="w15").last
    await expect(said).to_be_visible()
    await tab.page.set_viewport_size(PHONE)
    lefts = await said.evaluate(
        """e => {
            const text = e.firstChild.nodeType === Node.TEXT_NODE ? e.firstChild : e.querySelector("*").firstChild;
            const words = [];
            for (const match of text.textContent.matchAll(/\\S+/g)) {
                const range = document.createRange();
                range.setStart(text, match.index);
                range.setEnd(text, match.index + 1);
                const rect = range.getClientRects()[0];
                words.push([rect.top, rect.left]);
            }
            return words;
        }"""
    )
    first_top, edge = lefts[0]
    below = [left for top, left in lefts if top > first_top + 1]
    assert below and min(below) > edge + 5, lefts
    await tab.type("look")
    lobby = tab.scrollback.locator(".entry", has_text="Players here").last
    starts = await lobby.evaluate(
        """e => {
            const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
            const lefts = [];
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                let offset = 0;
                for (const line of node.textContent.split("\\n")) {
                    if (line.trim()) {
                        const range = document.createRange();
                        range.setStart(node, offset);
                        range.setEnd(node, offset + 1);
                        lefts.push(range.getClientRects()[0].left);
                    }
                    offset += line.length + 1;
                }
            }
            return lefts;
        }"""
    )
    assert len(starts) >= 2 and len(set(starts)) == 1, starts  # each line the server ended starts at the edge
    await tab.page.set_viewport_size(DESKTOP)
    await bo.close()


async def test_beside_a_ys_board_the_text_and_command_line_keep_their_room_at_any_desktop_width(start_server, open_tab):
    # Between 701 and 900 pixels the board's column took all but 24 pixels of the window.
    server = await start_server()
    tab = await open_tab(server, "Ann")
    await tab.log_in("Ann")
    await tab.type("newroom/ys Quay", "addbot normal", "start")
    await tab.sees("Bid two brokers")
    for width in (701, 760, 900, 1000, 1280):
        await tab.page.set_viewport_size({"width": width, "height": 800})
        widths = await tab.page.evaluate(
            """() => ({text: document.querySelector(".scrollback").getBoundingClientRect().width,
                       command: document.querySelector("#command").getBoundingClientRect().width})"""
        )
        assert widths["text"] >= 300 and widths["command"] >= 150, (width, widths)


async def test_a_cards_line_breaks_read_as_breaks_in_the_panels(start_server, open_tab):
    # The hand, votes and rules panels showed "%r" where the text pane breaks the line.
    server = await start_server()
    tab = await open_tab(server, "Ann")
    await tab.log_in("Ann")
    bo = await dvorak_table(tab, server, deck=["loadcard Sign/T/First line. %r%r Second line."] * 6)
    await tab.page.locator("#dvorak-start").click()
    hand = tab.page.locator("#dvorak-hand li.card .card-text")
    await expect(hand).to_have_count(3)
    for index in range(3):
        await expect(hand.nth(index)).to_have_text("First line.\n\nSecond line.")
    await bo.command("newcard Note/A/One. %rTwo.", r"Vote with")
    await expect(tab.page.locator("#dvorak-votes .card-text")).to_have_text("One.\nTwo.")
    await bo.close()


async def test_the_page_speaks_the_browser_s_language_and_the_menu_changes_it_for_the_page_and_the_player(
    start_server, browser
):
    """A browser that asks for Czech (Accept-Language) gets the page's labels and the
    server's text in Czech before anyone logs in; choosing Slovak in the login form's menu
    changes both at once, and the player made then keeps Slovak: their page on another
    browser, which asks for English, turns Slovak once they log in."""
    server = await start_server()
    czech = await browser.new_context(viewport=DESKTOP, locale="cs-CZ")
    page = await czech.new_page()
    tab = Tab(page, "czech")
    await page.goto(f"http://127.0.0.1:{server.web_port}/")
    assert await page.evaluate("document.documentElement.lang") == "cs"
    with language("cs"):
        await expect(page.locator("label[for=login-name]")).to_have_text(_("Name"))
        await expect(page.locator("#login-connect")).to_have_text(_("Connect"))
        await tab.sees(next(line for line in welcome_screen(80, "cs").split("\n") if line.startswith("  help")).strip())
    await expect(page.locator("#status")).to_have_attribute("data-state", "connected")
    await page.locator("#login-language").select_option("sk")
    with language("sk"):
        await expect(page.locator("label[for=login-name]")).to_have_text(_("Name"))
        await expect(page.locator("#status")).to_have_text(_("Connected"))
        await tab.sees(_("The server writes to you in {language} from now on.").format(language="slovenčina"))
        await page.locator("#login-name").fill("Šárka")
        await page.locator("#login-password").fill("secret1")
        await page.locator("#login-create").click()
        await expect(page.locator("#login")).to_be_hidden()
        await tab.sees(_("Players here: {names}.").split("{", 1)[0])
    await tab.screenshot("language-slovak")

    english = await browser.new_context(viewport=DESKTOP, locale="en-US")
    other = Tab(await english.new_page(), "english")
    await other.page.goto(f"http://127.0.0.1:{server.web_port}/")
    await expect(other.page.locator("label[for=login-name]")).to_have_text("Name")
    await expect(other.page.locator("#status")).to_have_attribute("data-state", "connected")
    await other.page.locator("#login-name").fill("Šárka")
    await other.page.locator("#login-password").fill("secret1")
    await other.page.locator("#login-connect").click()
    with language("sk"):
        await other.sees(_("Welcome back, {name}.").format(name="Šárka"))
        await expect(other.page.locator("#leave-room")).to_have_text(_("Leave room"))
    assert await other.page.evaluate("document.documentElement.lang") == "sk"
    problems = tab.problems + tab.dialogs + other.problems + other.dialogs
    await czech.close()
    await english.close()
    assert problems == []
