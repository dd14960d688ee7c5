"""A real browser: the GM corrects a company's roster from its Kasarmi page (COMPANY.md §7.6), a bad edit is
refused beside its field with what was typed kept, the good one lands in the audit trail; the roster prints
without its forms; the battle page's dice panel logs a roll. Screenshots at 1280 and 390 px go to
tests/e2e/screenshots/company-gm-*."""

from __future__ import annotations

from pathlib import Path

from tests.company.conftest import at, battle, company  # noqa: F401 - the fixtures
from tests.e2e.conftest import BROWSER_TEST, log_in, shot

pytestmark = BROWSER_TEST


def _shot(page, name: str) -> Path:
    return shot(page, f"company-gm-{name}")


def test_the_gm_edits_a_roster_in_the_browser_and_the_roster_prints(browser, live_server, company):  # noqa: F811
    from rules.company import models

    base, violations = live_server.url, []
    unit = company.units["Ryhmä 1"]
    models.Unit.objects.filter(pk=unit.pk).update(tk=4, xp=23, abilities=["tarkka_tuli"])
    for width in (1280, 390):
        page = log_in(browser, base, "gm", width=width, violations=violations)
        page.goto(f"{base}/c/demo/kasarmi/NOR/")
        _shot(page, f"roster-{width}")
        page.emulate_media(media="print")
        _shot(page, f"roster-print-{width}")
        page.emulate_media(media="screen")
        page.close()

    page = log_in(browser, base, "gm", width=1280, violations=violations)
    page.goto(f"{base}/c/demo/kasarmi/NOR/")
    edit = page.locator(f"#gm-unit-{unit.number}")
    edit.locator("summary").click()
    edit.locator(f"input[name=edit-{unit.number}-tk]").fill("0")
    edit.locator(f"input[name=edit-{unit.number}-xp]").fill("31")
    edit.locator(f"input[name=edit-{unit.number}-reason]").fill("the sheet of turn 0")
    edit.locator("button", has_text="Save the edit").click()
    page.wait_for_selector("text=an active unit has 1 TK or more")
    assert page.input_value(f"input[name=edit-{unit.number}-xp]") == "31", "what the GM typed is kept"
    assert models.Unit.objects.get(pk=unit.pk).xp == 23
    _shot(page, "edit-refused-1280")
    page.fill(f"input[name=edit-{unit.number}-tk]", "7")
    page.locator(f"#gm-unit-{unit.number} button", has_text="Save the edit").click()
    page.wait_for_selector("text=Saved. The audit trail below")
    row = models.Unit.objects.get(pk=unit.pk)
    assert (row.tk, row.xp) == (7, 31)
    assert "the sheet of turn 0" in page.locator("#audit").inner_text()
    page.fill("input[name=tp-delta]", "+5")
    page.fill("input[name=tp-reason]", "prize for the raid")
    page.click("button:text-is('Adjust the balance')")
    page.wait_for_selector("text=prize for the raid")
    assert models.Balance.objects.get(nation=company.nor).tp == 35
    _shot(page, "edit-saved-1280")

    phone = log_in(browser, base, "gm", width=390, violations=violations)
    phone.goto(f"{base}/c/demo/kasarmi/NOR/")
    phone.locator(f"#gm-unit-{unit.number} summary").click()
    phone.locator(f"#gm-unit-{unit.number}").scroll_into_view_if_needed()
    _shot(phone, "edit-form-390")
    assert violations == []


def test_the_dice_panel_logs_a_roll_on_the_battle_page(browser, live_server, company, battle):  # noqa: F811
    from rules.company import models

    base, violations = live_server.url, []
    for width in (1280, 390):
        page = log_in(browser, base, "rival", width=width, violations=violations)
        page.goto(f"{base}/c/demo/{at(battle)}/")
        if width == 1280:
            page.click("#dice-morale summary")
            page.select_option("select[name=morale-unit]", str(company.units["MG"].number))
            page.select_option("select[name=morale-reason]", "first_damage")
            page.click("#dice-morale button:text-is('Roll')")
            page.wait_for_selector("td:text-is('morale')")
            page.click("#dice-attack summary")
            assert models.DiceRoll.objects.filter(battle=battle, requested_by__username="rival").count() == 1
        _shot(page, f"dice-{width}")
        page.close()
    assert violations == []


def test_the_gm_sets_a_nations_company_size_in_the_browser(browser, live_server, company):  # noqa: F811
    base, violations = live_server.url, []
    page = log_in(browser, base, "gm", width=1280, violations=violations)
    page.goto(f"{base}/c/demo/kasarmi/NOR/")
    assert "4 of 10 units" in page.content()
    form = page.locator("#gm-size")
    form.locator("input[name=size-size]").fill("3")
    form.locator("input[name=size-reason]").fill("lost the depot")
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()
    assert "4 of 3 units" in page.content() and "buying is refused until fewer are" in page.content()
    _shot(page, "company-size")
    assert not violations
