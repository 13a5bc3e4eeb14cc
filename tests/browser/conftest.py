"""What the browser tests share: Debian's Chromium driven by Playwright, a page of the web
client (:class:`Tab`) watched for errors, and a telnet player beside it.

Each test opens the page in a fresh headless Chromium context. Every page is watched for
console errors (Content-Security-Policy violations are reported there), uncaught script
errors and dialogs (``alert``): any of them fails the test.

Screenshots of the key moments, at desktop (1280x800) and phone (390x844) widths, go to
``test-artifacts/screenshots/`` under the repository root (ignored by git), or to the folder
named by ``DVORAK_TEST_ARTIFACTS``.

Chromium is at /usr/bin/chromium (``.ci/run`` installs it); without it these tests are
skipped, except under CI, where they fail. They run on SQLite only: they test the page, and
the same commands on PostgreSQL are tested over the WebSocket in ``tests/test_web.py``.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, ConsoleMessage, Dialog, Locator, Page, async_playwright, expect

from server.config import Settings
from tests.client import MudClient
from tests.conftest import IN_CI, WELCOME_END, log_in, server_settings
from tests.server_process import ROOT

#: axe-core, the accessibility checker (``python3 run.py vendor`` fetches it; never served).
AXE = Path(__file__).parent / "vendor" / "axe.min.js"
#: The impacts axe-core gives that fail a test.
SERIOUS = ("serious", "critical")

CHROMIUM = os.environ.get("DVORAK_TEST_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(os.environ.get("DVORAK_TEST_ARTIFACTS") or ROOT / "test-artifacts") / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: How long the page may take to show what the server sent (milliseconds).
WAIT_MS = 10_000

expect.set_options(timeout=WAIT_MS)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """The server's settings, on SQLite only (see the module's docstring)."""
    return server_settings(f"sqlite+aiosqlite:///{tmp_path / 'dvorak.sqlite3'}", tmp_path)


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    """A headless Chromium: Debian's, as Playwright cannot download its own here."""
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        if IN_CI:
            pytest.fail(f"Chromium is required in CI (.ci/run installs it); not found at {CHROMIUM}")
        pytest.skip(f"Chromium is not installed at {CHROMIUM}")
    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=executable, headless=True, args=["--no-sandbox"])
        yield launched
        await launched.close()


class Tab:
    """One page of the web client, and everything wrong it reported."""

    def __init__(self, page: Page, name: str) -> None:
        self.page = page
        self.name = name
        self.problems: list[str] = []
        self.dialogs: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(f"uncaught: {error}"))
        page.on("dialog", self._dialog)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type in ("error", "warning") or "Content Security Policy" in message.text:
            self.problems.append(f"console {message.type}: {message.text}")

    async def _dialog(self, dialog: Dialog) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        await dialog.dismiss()

    @property
    def scrollback(self) -> Locator:
        return self.page.locator("#scrollback")

    async def log_in(self, name: str, password: str = "secret1", create: bool = True) -> None:
        """Fill in the login form and press Create (or Connect); wait for the game view."""
        await expect(self.page.locator("#status")).to_have_attribute("data-state", "connected")
        await self.page.get_by_label("Name", exact=True).fill(name)
        await self.page.get_by_label("Password", exact=True).fill(password)
        await self.page.locator("#login-create" if create else "#login-connect").click()
        await self.logged_in()

    async def logged_in(self) -> None:
        await expect(self.page.locator("#login")).to_be_hidden()
        await expect(self.page.locator("#panels")).to_have_js_property("hidden", False)
        await expect(self.scrollback).to_contain_text("Players here:")

    async def type(self, *lines: str) -> None:
        """Type each line in the command line and press Enter."""
        command = self.page.locator("#command")
        for line in lines:
            await command.fill(line)
            await command.press("Enter")
            await expect(self.scrollback.locator(".entry.echo").last).to_have_text(f"> {line}")

    async def sees(self, text: str | re.Pattern[str]) -> None:
        """Wait until ``text`` is in the scrollback."""
        await expect(self.scrollback).to_contain_text(text)

    async def accessibility_problems(self) -> list[str]:
        """What axe-core finds of serious or critical impact on the page as it is now (run
        in the page, as a script the page's own policy does not govern)."""
        if not await self.page.evaluate("typeof axe !== 'undefined'"):
            await self.page.evaluate(AXE.read_text())
        violations = await self.page.evaluate(
            """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 3).map(n => n.target.join(" ") + ": " + n.failureSummary),
            }))"""
        )
        return [
            f"{found['id']} ({found['impact']}): {found['help']}; " + " | ".join(found["nodes"])
            for found in violations
            if found["impact"] in SERIOUS
        ]

    async def screenshot(self, moment: str) -> None:
        """Save the page at desktop and at phone width as ``<moment>-desktop.png`` and
        ``<moment>-phone.png``."""
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for width, size in (("desktop", DESKTOP), ("phone", PHONE)):
            await self.page.set_viewport_size(size)
            await self.page.wait_for_timeout(100)  # the layout settles (and the page re-sends its width)
            # The newest line stays in sight when the page narrows (a phone turned, its keyboard opened).
            newest = self.scrollback.locator(".entry").last
            await expect(newest).to_be_in_viewport()
            await self.page.screenshot(path=ARTIFACTS / f"{moment}-{width}.png", full_page=True)
        await self.page.set_viewport_size(DESKTOP)


@pytest.fixture
async def open_tab(browser: Browser) -> AsyncIterator[Any]:
    """Open the web client of a server in a new browser context (its own session storage);
    at the end, fail if any page logged an error, broke the CSP or opened a dialog."""
    tabs: list[Tab] = []

    async def open_page(server: Any, name: str = "page") -> Tab:
        context = await browser.new_context(viewport=DESKTOP)
        tab = Tab(await context.new_page(), name)
        tabs.append(tab)
        await tab.page.goto(f"http://127.0.0.1:{server.web_port}/")
        return tab

    yield open_page
    problems = [f"{tab.name}: {problem}" for tab in tabs for problem in tab.problems + tab.dialogs]
    for tab in tabs:
        await tab.page.context.close()
    if problems:
        pytest.fail("the page reported problems:\n" + "\n".join(problems))


async def telnet_player(server: Any, name: str) -> MudClient:
    client = await MudClient.open(server.port)
    await client.expect(WELCOME_END)
    await log_in(client, name)
    return client


async def tab_to(page: Page, element_id: str, most: int = 30) -> None:
    """Press Tab until the element with ``element_id`` has the focus (at most ``most`` times)."""
    for _attempt in range(most):
        await page.keyboard.press("Tab")
        if await page.evaluate("document.activeElement && document.activeElement.id") == element_id:
            return
    raise AssertionError(f"#{element_id} was not reached with Tab")


async def until(condition: Any, seconds: float = 20) -> None:
    """Wait until ``condition()`` holds (the server's own state, read in this process)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        assert loop.time() < deadline, "the table never reached the state waited for"
        await asyncio.sleep(0.05)


async def clickable(button: Locator) -> bool:
    """Whether ``button`` is on the page and enabled now (not waiting for it: a game's
    buttons come and go as its turns do)."""
    return bool(await button.evaluate_all("found => found.length > 0 && !found[0].disabled"))
