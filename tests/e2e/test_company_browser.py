"""A real browser plays a company turn (issue 12): the player buys a unit and repairs another, orders a
recon and an attack, the turn is processed into a table battle, the player proposes the result, the rival
agrees and the GM confirms it, and the player reads the report and sees the XP on the roster. Screenshots
to tests/e2e/screenshots/."""

from __future__ import annotations

from pathlib import Path

from tests.company.conftest import at, company  # noqa: F401 - the fixture
from tests.e2e.conftest import BROWSER_TEST, log_in, shot

pytestmark = BROWSER_TEST


def _shots_at_widths(page, name):
    """The result form as a desktop and a phone show it, into /tmp/shots/co-form/ to be looked at."""
    folder = Path("/tmp/shots/co-form")
    folder.mkdir(parents=True, exist_ok=True)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.locator("#result").screenshot(path=str(folder / f"{name}_{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})


def test_a_company_turn_in_the_browser_from_the_kasarmi_to_the_report(browser, live_server, company):  # noqa: F811
    from rules.company import models
    from rules.services import turn_process

    base = live_server.url
    u = company.units
    models.Unit.objects.filter(pk=u["Ryhmä 2"].pk).update(tk=6)

    violations: list[str] = []
    page = log_in(browser, base, "player", violations=violations)
    page.goto(f"{base}/c/demo/kasarmi/")
    page.wait_for_url(f"{base}/c/demo/kasarmi/NOR/")
    shot(page, "company_kasarmi_before")
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
    shot(page, "company_kasarmi_orders")

    # The GM's dry run shows the battle processing will assign, and stores nothing.
    gm = log_in(browser, base, "gm", violations=violations)
    gm.goto(f"{base}/c/demo/gm/turns/1/preview/")
    assert "Battle M1 (normal)" in gm.locator("main").inner_text()
    shot(gm, "company_turn_preview")
    assert not models.Battle.objects.exists()

    turn = company.campaign.turns.get(number=1)
    turn_process(turn_id=turn.pk)
    battle = models.Battle.objects.get(turn=turn, table__archived=False)

    # The shared results entry: the player proposes, the rival agrees, the GM confirms (COMPANY.md §5.2).
    page.goto(f"{base}/c/demo/{at(battle)}/")
    r1, r2 = u["Ryhmä 1"].number, u["Ryhmä 2"].number
    # The form (no JavaScript needed): a unit both pinned and retreating is refused beside its row (§5.3).
    page.check(f"#unit-{r1} input[value=pinned]")
    page.check(f"#unit-{r1} input[value=retreating]")
    page.fill(f"#unit-{r1} input[name=u-{r1}-vp]", "4")
    page.click("#entry-form button[type=submit]")
    page.wait_for_selector("text=Ryhmä 1 cannot be both retreating and pinned.")
    assert page.input_value(f"input[name=u-{r1}-vp]") == "4", "what was typed is kept"
    shot(page, "company_battle_errors")
    _shots_at_widths(page, "battle_form_refused")
    page.uncheck(f"#unit-{r1} input[value=retreating]")
    page.fill(f"input[name=u-{r2}-vp]", "2")
    page.click("#entry-form button[type=submit]")
    page.wait_for_selector("text=Version 1: Proposed")
    [version] = battle.versions.all()
    assert [r["vp"] for r in version.payload["units"] if r["unit"] in (r1, r2)] == [4, 2]
    _shots_at_widths(page, "battle_form_saved")
    shot(page, "company_battle_proposed")

    rival = log_in(browser, base, "rival", violations=violations)
    rival.goto(f"{base}/c/demo/{at(battle)}/")
    rival.click("text=Agree with version 1")
    rival.wait_for_selector("text=Version 1: Agreed")
    shot(rival, "company_battle_agreed")

    gm.goto(f"{base}/c/demo/{at(battle)}/")
    shot(gm, "company_battle_gm")
    gm.click("text=Confirm version 1")
    gm.wait_for_selector("#report")
    shot(gm, "company_battle_confirmed")

    page.goto(f"{base}/c/demo/{at(battle)}/")
    report = page.locator("#report").inner_text()
    assert "NOR" in report and "6 × 1 = 6" in report
    shot(page, "company_battle_report")
    page.goto(f"{base}/c/demo/kasarmi/NOR/")
    xp = {row.name: row.xp for row in models.Unit.objects.filter(nation=company.nor)}
    assert xp["Ryhmä 1"] + xp["Ryhmä 2"] == 6
    card = page.locator(f"#unit-{u['Ryhmä 1'].number}").inner_text()
    assert f"XP {xp['Ryhmä 1']}" in card
    shot(page, "company_kasarmi_after")
    page.goto(f"{base}/c/demo/{at(battle)}/verify/")
    assert "every die and every result matches" in page.content()
    assert violations == []
