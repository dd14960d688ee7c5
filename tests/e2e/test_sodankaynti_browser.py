"""A real browser plays a Sodankäynti turn: the player sees units as dice, sets a doctrine from the order
panel and attacks; the defender lies in ambush; the GM sets a rating and processes; the player reads the
battle action by action, in English and in Finnish. Screenshots go to tests/e2e/screenshots/sodankaynti-*."""

from __future__ import annotations

from tests.e2e.conftest import BROWSER_TEST, CSP_VIOLATIONS, fill_in, log_in, shot
from tests.sodankaynti.conftest import kal, poh, sampo, sampo_gm  # noqa: F401

pytestmark = BROWSER_TEST


def test_it_plays_a_sodankaynti_turn_from_doctrine_to_report(
    browser,
    live_server,
    sampo,  # noqa: F811  (the fixtures of tests/sodankaynti/conftest.py)
    poh,  # noqa: F811
    kal,  # noqa: F811
    sampo_gm,  # noqa: F811
):
    base = live_server.url

    page = log_in(browser, base, "poh", lands="sampo")
    page.wait_for_selector("svg.map")
    assert "CAV d8" in page.inner_text("#roster")
    assert "never retreats while it can act" in page.inner_text("#sodankaynti")
    shot(page, "sodankaynti-01-campaign")
    fill_in(page, {"#id_doctrine-doctrine": "bold", "#id_doctrine-region": "V2"})
    page.click("#sodankaynti form:first-of-type button[type=submit]")
    page.wait_for_selector(".messages")
    assert "Order saved: doctrine bold in battles in V2." in page.inner_text(".messages")
    page.click('[data-region="P2"]')
    fill_in(page, {"#id_kind": "attack", "#id_target": "V2", "#id_units_CAV": "3", "#id_units_LEVY": "2"})
    page.click("#order-form button[type=submit]")
    assert "Order saved: P2 → V2: attack with 2 LEVY, 3 CAV." in page.inner_text(".messages")
    shot(page, "sodankaynti-02-orders")

    defender = log_in(browser, base, "kal", lands="sampo")
    defender.goto(f"{base}/c/sampo/")
    fill_in(defender, {"#id_ambush-origin": "V2", "#id_ambush-target": "P2"})
    defender.click("#sodankaynti form:nth-of-type(2) button[type=submit]")
    assert "Order saved: ambush in V2 facing P2." in defender.inner_text(".messages")
    defender.close()

    gm_page = log_in(browser, base, "gm", lands="sampo")
    gm_page.goto(f"{base}/c/sampo/gm/")
    ratings = {"nation": "POH", "politics": "5", "tactics": "4", "doctrine": "steady"}
    fill_in(gm_page, {f"#id_ratings-{field}": value for field, value in ratings.items()})
    gm_page.click("#ratings button[type=submit]")
    assert "Pohjola: politics 5, tactics 4, doctrine steady." in gm_page.inner_text(".messages")
    shot(gm_page, "sodankaynti-03-gm-dashboard")
    gm_page.click("#process button[type=submit]")
    gm_page.click("#confirm button[type=submit]")  # "Process now" asks first
    gm_page.wait_for_selector(".status-resolved", timeout=20_000)

    page.goto(f"{base}/c/sampo/turns/1/")
    page.wait_for_selector("#battle-V2")
    report = page.inner_text("#battle-V2")
    assert "Politics roll" in report and "Tactics roll" in report
    assert "ambush 3" in report, "the defender's ambush faced the right way"
    assert "The battle, action by action" in report and "Result:" in report
    shot(page, "sodankaynti-04-report")
    page.click("form.language button[value=fi]")
    page.goto(f"{base}/c/sampo/turns/1/")
    finnish = page.inner_text("#battle-V2")
    assert "Politiikkaheitto" in finnish and "Taistelu toiminto toiminnolta" in finnish
    assert "successes" not in finnish
    shot(page, "sodankaynti-05-report-fi")
    assert CSP_VIOLATIONS == []
