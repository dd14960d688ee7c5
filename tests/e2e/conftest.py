"""The e2e tests' browser: Debian's chromium through Playwright, with turns processed in process."""

from __future__ import annotations

import pytest

from tests.e2e.test_browser import ARGS, CHROMIUM, SCREENSHOTS


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
