"""A real browser plays a company turn (issue 12): the player buys a unit and repairs another, orders a
recon and an attack, the turn is processed into a table battle, the GM enters and confirms the result, and
the player reads the report and sees the XP on the roster. Screenshots to tests/e2e/screenshots/."""

from __future__ import annotations

import json

import pytest

from tests.company.conftest import company  # noqa: F401 - the fixture
from tests.e2e.test_browser import CHROMIUM, CSP_VIOLATIONS, _log_in, _shot, browser  # noqa: F401 - fixture

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium: apt-get install -y chromium"),
    pytest.mark.django_db(transaction=True),
]


def test_a_company_turn_in_the_browser_from_the_kasarmi_to_the_report(browser, live_server, company):  # noqa: F811
    from company import models
    from rules.services import turn_process

    base = live_server.url
    u = company.units
    models.Unit.objects.filter(pk=u["Ryhmä 2"].pk).update(tk=6)

    page = _log_in(browser, base, "player", "player-password-1")
    page.goto(f"{base}/c/demo/kasarmi/")
    page.wait_for_url(f"{base}/c/demo/kasarmi/NOR/")
    _shot(page, "company_kasarmi_before")
    page.click("text=Repair Ryhmä 2: +4 TK for 2 TP (balance after 28)")
    assert models.Unit.objects.get(pk=u["Ryhmä 2"].pk).tk == 10
    buy = page.locator("form", has_text="Buy JR for 15 TP (balance after 13)")
    buy.locator("select[name=group]").select_option("1")
    buy.locator("input[name=name]").fill("Ryhmä Uusi")
    buy.locator("button").click()
    page.wait_for_selector("text=Ryhmä Uusi")
    assert models.Balance.objects.get(nation=company.nor).tp == 30 - 2 - 15

    orders = page.locator("#orders form").first
    orders.locator("select[name=kind]").select_option("recon")
    orders.locator("select[name=from]").select_option("N5")
    orders.locator("select[name=to]").select_option("M1")
    orders.locator("select[name=units]").select_option(str(u["Tiedustelu"].number))
    orders.locator("button").click()
    page.wait_for_selector("text=recon N5 → M1")
    orders = page.locator("#orders form").first
    orders.locator("select[name=kind]").select_option("attack")
    orders.locator("select[name=from]").select_option("N5")
    orders.locator("select[name=to]").select_option("M1")
    orders.locator("select[name=units]").select_option([str(u["Ryhmä 1"].number), str(u["Ryhmä 2"].number)])
    orders.locator("button").click()
    page.wait_for_selector("text=attack N5 → M1")
    _shot(page, "company_kasarmi_orders")

    turn = company.campaign.turns.get(number=1)
    turn_process(turn_id=turn.pk)
    battle = models.Battle.objects.get(turn=turn, archived=False)

    gm = _log_in(browser, base, "gm", "gm-password-1")
    gm.goto(f"{base}/c/demo/battles/{battle.pk}/")
    vp = {u["Ryhmä 1"].number: 4, u["Ryhmä 2"].number: 2}
    entry = {"units": [{"unit": int(n), "vp": vp.get(int(n), 0)} for n in battle.data["units"]]}
    gm.fill("textarea[name=result]", json.dumps(entry))
    _shot(gm, "company_battle_gm")
    gm.click("text=Confirm the result")
    gm.wait_for_selector("#report")

    page.goto(f"{base}/c/demo/battles/{battle.pk}/")
    report = page.locator("#report").inner_text()
    assert "NOR" in report and "6 × 1 = 6" in report
    _shot(page, "company_battle_report")
    page.goto(f"{base}/c/demo/kasarmi/NOR/")
    xp = {row.name: row.xp for row in models.Unit.objects.filter(nation=company.nor)}
    assert xp["Ryhmä 1"] + xp["Ryhmä 2"] == 6
    card = page.locator(f"#unit-{u['Ryhmä 1'].number}").inner_text()
    assert f"XP {xp['Ryhmä 1']}" in card
    _shot(page, "company_kasarmi_after")
    page.goto(f"{base}/c/demo/battles/{battle.pk}/verify/")
    assert "every die and every result matches" in page.content()
    assert CSP_VIOLATIONS == []
