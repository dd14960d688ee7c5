"""A real browser plays a tabletop battle: the attacker's player proposes a result on the sheet's form, the
defender's player agrees, the GM confirms, the turn completes and the player reads the battle's report.
Screenshots of the sheet (screen and print), the form and the GM's queue go to tests/e2e/screenshots/."""

from __future__ import annotations

import pytest

from tests.e2e.test_browser import CHROMIUM, _log_in, _shot

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium: apt-get install -y chromium"),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def pending(tabletop_turn):
    return tabletop_turn


def test_two_players_agree_a_result_the_gm_confirms_and_the_turn_completes(browser, live_server, pending):
    from campaign.models import Turn

    base = live_server.url
    sheet = f"{base}/c/demo/turns/1/battles/region:K1/"

    page = _log_in(browser, base, "player", "player-password-1")
    page.goto(f"{base}/c/demo/turns/1/battles/")
    page.click("text=region:K1")
    page.wait_for_selector("h1:has-text('Battle of Kaarnala')")
    _shot(page, "20-battle-sheet")
    page.emulate_media(media="print")
    _shot(page, "21-battle-sheet-print")
    assert not page.is_visible("form.result-form"), "the form does not print"
    page.emulate_media(media="screen")
    page.check("input[name=winner][value=NOR]")
    page.check("input[name=decisive]")
    page.fill("input[name=loss-NOR-JV]", "1")
    page.fill("input[name=loss-KAR-JV]", "3")
    page.fill("input[name=loss-KAR-PA]", "1")
    page.fill("input[name=score]", "1450 – 820")
    _shot(page, "22-result-form")
    page.click("button[value=save]")
    page.wait_for_selector("text=Version 1: proposed")

    other = _log_in(browser, base, "karelian", "karelian-password-1")
    other.goto(sheet)
    other.click("button[value=agree]")
    other.wait_for_selector("text=Version 1: agreed")

    gm = _log_in(browser, base, "gm", "gm-password-1")
    gm.goto(f"{base}/c/demo/turns/1/battles/")
    _shot(gm, "23-gm-battle-queue")
    gm.goto(sheet)
    gm.click("button[value=confirm]")
    gm.wait_for_selector("text=Version 1: confirmed")
    assert Turn.objects.get(pk=pending.pk).status == Turn.Status.RESOLVED

    page.goto(f"{base}/c/demo/turns/1/")
    page.wait_for_selector("text=K1")
    _shot(page, "24-tabletop-report")
