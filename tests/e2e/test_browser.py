"""A real browser plays a turn: a player gives an order that conquers, the GM processes the turn, the
player reads the battle report and sees the new owner on the map.

Debian's chromium driven by Playwright against pytest-django's live server, turns processed in process
(eager Celery). Screenshots of the main pages go to tests/e2e/screenshots/ (git-ignored) for a human eye.
"""

from __future__ import annotations

import re
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

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium: apt-get install -y chromium"),
    pytest.mark.django_db(transaction=True),
]


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


# What the browser says of the pages' Content-Security-Policy: nothing, if they keep to it.
CSP_VIOLATIONS: list[str] = []


def _log_in(browser, base, username, password, *, width=1280):
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.on(
        "console",
        lambda m: CSP_VIOLATIONS.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")  # the top bar has the language chooser
    page.wait_for_url(f"{base}/")
    return page


def _shot(page, name):
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def test_it_plays_a_turn_in_the_browser_from_order_to_report(browser, live_server, demo, player, gm, nations):
    base = live_server.url
    nor_color = nations["NOR"].color

    # The player finds the campaign, chooses N5 on the map and orders an attack on the empty M2.
    page = _log_in(browser, base, "player", "player-password-1")
    page.click("text=The Grenzwald Crisis")
    page.wait_for_selector("svg.map")
    assert page.get_attribute("#region-M2 polygon.area", "fill") == "#e3e3e3"
    _shot(page, "01-campaign-player")
    page.click("#region-N5 polygon.area")
    assert page.input_value("#id_origin") == "N5"
    page.select_option("#id_kind", "attack")
    # Westmark is Nordmark's ally: the rules' message appears next to the target.
    page.select_option("#id_origin", "N4")
    page.select_option("#id_target", "W2")
    page.fill("#id_units_JV", "1")
    page.click("#order-form button[type=submit]")
    assert page.inner_text("#id_target + p.error") == "NOR is allied with WES"
    _shot(page, "02-order-rejected")
    page.select_option("#id_origin", "N5")
    page.select_option("#id_kind", "attack")
    page.select_option("#id_target", "M2")
    page.fill("#id_units_JV", "4")
    page.fill("#id_units_PA", "3")
    page.click("#order-form button[type=submit]")
    page.wait_for_selector(".messages")
    assert "Order saved: 4 JV, 3 PA attack M2 from N5." in page.inner_text(".messages")
    # A second attack, on Karelia's defended K1: a real battle, for a report with every term in it.
    page.select_option("#id_origin", "N3")
    page.select_option("#id_kind", "attack")
    page.select_option("#id_target", "K1")
    page.fill("#id_units_JV", "2")
    page.click("#order-form button[type=submit]")
    assert "Order saved: 2 JV attack K1 from N3." in page.inner_text(".messages")
    assert page.locator("svg.map line.arrow-attack").count() == 2
    _shot(page, "03-order-saved")
    phone = _log_in(browser, base, "player", "player-password-1", width=390)
    phone.goto(f"{base}/c/demo/")
    _shot(phone, "04-campaign-phone")
    phone.close()

    # The GM sees who has submitted and processes the turn; the status page shows the result.
    gm_page = _log_in(browser, base, "gm", "gm-password-1")
    gm_page.goto(f"{base}/c/demo/gm/")
    assert "submitted" in gm_page.inner_text("#process")
    _shot(gm_page, "05-gm-dashboard")
    gm_page.click("#process button[type=submit]")
    gm_page.wait_for_selector(".status-resolved", timeout=20_000)
    assert "2 battles, 1 conquest" in gm_page.inner_text("#status")
    _shot(gm_page, "06-gm-turn-processed")
    # The status of a turn not yet done updates itself: the page polls its JSON status.
    with gm_page.expect_request(lambda r: r.url.endswith("/c/demo/gm/turns/2/status.json"), timeout=10_000):
        gm_page.goto(f"{base}/c/demo/gm/turns/2/")
    assert "waiting for processing" in gm_page.inner_text("#status")

    # The player reads the report and sees M2 in Nordmark's colour.
    page.goto(f"{base}/c/demo/turns/")
    page.click("text=Turn 1")
    page.wait_for_selector("#battle-M2")
    report = page.inner_text("#battle-M2")
    assert "Kingdom of Nordmark takes M2" in report and "§7.1" in report
    assert re.search(r"M2\s+unowned\s+Kingdom of Nordmark", page.inner_text("#changes"))
    battle = page.inner_text("#battle-K1")
    assert "fortune of war" in battle and "KTA" in battle and "loss table row" in battle
    _shot(page, "07-turn-report")
    page.click("#battle-K1 .report tr:has-text('fortune of war') .rule a")
    page.wait_for_url(re.compile(r"/rules/#s4$"))
    assert page.inner_text("#s4") == "4. Combat value (KTA)"
    page.screenshot(path=str(SCREENSHOTS / "09-rules.png"))
    page.goto(f"{base}/c/demo/")
    assert page.get_attribute("#region-M2 polygon.area", "fill") == nor_color
    page.click("#map-table summary")
    assert "Kingdom of Nordmark" in page.inner_text("#row-M2")
    _shot(page, "08-campaign-after-turn")
    page.goto(f"{base}/api/schema/swagger-ui/")
    page.wait_for_selector(".swagger-ui .information-container", timeout=20_000)
    assert CSP_VIOLATIONS == []
