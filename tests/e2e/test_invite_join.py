"""A real browser: the GM makes an invitation link for a nation nobody plays; a friend opens it in a browser
of their own, signs up on the spot, joins and lands in the campaign playing that nation; the link then lets
no one else in, and the GM's panel shows who joined. Screenshots at 1280 and 390 px, in English and
Finnish."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.e2e.conftest import BROWSER_TEST, SCREENSHOTS, log_in, shot

pytestmark = BROWSER_TEST


@pytest.fixture
def site(live_server, settings):
    """The links the GM copies point at this server; the throttles count afresh."""
    settings.IRONFIST_SITE_URL = live_server.url
    cache.clear()
    return live_server.url


@pytest.mark.parametrize("language", ["en", "fi"])
def test_a_friend_signs_up_through_the_gms_link_and_lands_in_the_campaign(
    browser, site, demo, gm, player, nations, language
):
    violations: list[str] = []
    base = site
    gm_page = log_in(browser, base, "gm", violations=violations)
    if language == "fi":
        gm_page.click("button[lang=fi]")
    gm_page.goto(f"{base}/c/demo/gm/#invitations")
    row = gm_page.locator("#invite-SUD")
    row.locator("input[name=days]").fill("5")
    row.locator("button[type=submit]").click()
    gm_page.wait_for_selector("#invite-SUD [data-invite-url]")
    link = gm_page.input_value("#invite-SUD [data-invite-url]")
    assert link.startswith(f"{base}/join/")
    gm_page.locator("#invitations").screenshot(path=str(SCREENSHOTS / f"invite-01-panel-{language}.png"))

    # The friend, in a browser of their own, on a phone.
    friend = browser.new_context(
        viewport={"width": 390, "height": 844}, extra_http_headers={"Accept-Language": language}
    ).new_page()
    friend.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    friend.goto(link)
    assert "Sudrian Empire" in friend.inner_text("#join") and "gm" in friend.inner_text("#join")
    shot(friend, f"invite-02-join-anonymous-{language}")
    friend.fill("#id_username", f"friend-{language}")
    friend.fill("#id_email", f"friend-{language}@example.org")
    friend.fill("#id_password1", "a-long-passphrase-42")
    friend.fill("#id_password2", "a-long-passphrase-42")
    friend.click("#signup-form button[type=submit]")
    friend.wait_for_selector("#join-button")
    assert friend.url == link
    shot(friend, f"invite-03-join-signed-up-{language}")
    friend.click("#join-button")
    friend.wait_for_url(f"{base}/c/demo/")
    assert "Sudrian Empire" in friend.inner_text(".topbar")
    assert ("you play Sudrian Empire" if language == "en" else "pelaat valtiota Sudrian Empire") in (
        friend.inner_text(".messages")
    )
    shot(friend, f"invite-04-campaign-{language}")
    friend.goto(f"{base}/")
    assert "friend-" + language + "@example.org" in friend.inner_text("#confirm-email")
    shot(friend, f"invite-05-home-{language}")
    friend.set_viewport_size({"width": 1280, "height": 900})
    shot(friend, f"invite-05b-home-wide-{language}")

    # The link is spent: the player who opened it first plays, nobody else gets in.
    other = browser.new_context(extra_http_headers={"Accept-Language": language}).new_page()
    response = other.goto(link)
    assert response.status == 410
    shot(other, f"invite-06-link-used-{language}")
    gm_page.reload()
    assert f"friend-{language}" in gm_page.inner_text("#invite-SUD")
    assert gm_page.locator("#invite-SUD [data-invite-url]").count() == 0
    phone = log_in(browser, base, "gm", width=390, violations=violations)
    phone.goto(f"{base}/c/demo/gm/#invitations")
    phone.locator("#invitations").screenshot(path=str(SCREENSHOTS / f"invite-07-panel-phone-{language}.png"))
    assert violations == []
