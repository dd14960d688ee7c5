"""The e2e tests' browser: Debian's chromium through Playwright, with turns processed in process; how a test
marks itself a browser test, logs a user in and keeps a screenshot."""

from __future__ import annotations

from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).parent / "screenshots"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

# The marks of a browser test: `pytestmark = BROWSER_TEST`.
BROWSER_TEST = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium: apt-get install -y chromium"),
    pytest.mark.django_db(transaction=True),
]

# What the browser says of the pages' Content-Security-Policy: nothing, if they keep to it.
CSP_VIOLATIONS: list[str] = []


@pytest.fixture
def browser(monkeypatch):
    from playwright.sync_api import sync_playwright

    from config.celery import app

    # Process the turn in the live server's thread, even where a broker is configured for other tests.
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    # Playwright's sync API runs an event loop in this thread; the database is only touched by fixtures
    # before it starts and by the live server's own thread.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    SCREENSHOTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()
    app.conf.task_always_eager = eager


def log_in(browser, base, username, *, width=1280, lands="demo", violations=CSP_VIOLATIONS):
    """A new page `width` px wide, logged in as `username` (password "<username>-password-1") and landed on
    the page of its one campaign, `lands`; what the browser says of the Content-Security-Policy goes to
    `violations`."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", f"{username}-password-1")
    page.click("main button[type=submit]")  # the top bar has the language chooser
    # In one campaign only, a player lands on its page; the GM of it too.
    page.wait_for_url(f"{base}/c/{lands}/")
    return page


def fill_in(page, fields: dict[str, str | bool]) -> None:
    """Enter `fields` on `page` in their order, each by its selector: True ticks a box or picks a radio
    button, a select takes the option of that value, and any other field has the value typed in."""
    for selector, value in fields.items():
        if value is True:
            page.check(selector)
        elif page.locator(selector).evaluate("e => e.tagName") == "SELECT":
            page.select_option(selector, value)
        else:
            page.fill(selector, value)


def shot(page, name) -> Path:
    """The whole page, for a human eye, in tests/e2e/screenshots/NAME.png."""
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
