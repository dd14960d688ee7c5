"""A real browser plays a tabletop battle: the attacker's player works out a close-combat round in the
calculator and saves it to the battle, proposes a result on the sheet's form, the defender's player agrees,
the GM confirms, the turn completes and the player reads the battle's report, told round by round; the GM
sees the two rollbacks of the turn. Screenshots of the sheet (screen and print), the form, the calculator,
the GM's queue, the report and the rollback go to tests/e2e/screenshots/."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import BROWSER_TEST, SCREENSHOTS, fill_in, log_in, shot

pytestmark = BROWSER_TEST


@pytest.fixture
def pending(tabletop_turn):
    return tabletop_turn


def _side(page, index, name, unit, **fields):
    """The calculator's side `index`: its name and its first unit's id and fields (True: a box ticked)."""
    page.fill(f"input[name=side-{index}-name]", name)
    page.fill(f"input[name=side-{index}-unit-0-id]", unit)
    for field, value in fields.items():
        if value is True:
            page.check(f"input[name=side-{index}-unit-0-{field}]")
        else:
            page.fill(f"input[name=side-{index}-unit-0-{field}]", str(value))


def test_two_players_agree_a_result_the_gm_confirms_and_the_turn_completes(browser, live_server, pending):
    from campaign.models import Turn

    base = live_server.url
    sheet = f"{base}/c/demo/turns/1/battles/region:K1/"

    page = log_in(browser, base, "player")
    page.goto(f"{base}/c/demo/turns/1/battles/")
    page.click("text=region:K1")
    page.wait_for_selector("h1:has-text('Battle of Kaarnala')")
    shot(page, "20-battle-sheet")
    page.emulate_media(media="print")
    shot(page, "21-battle-sheet-print")
    assert not page.is_visible("form.result-form"), "the form does not print"
    page.emulate_media(media="screen")
    page.click("text=Work out a round and save it to this battle")
    _side(page, 0, "Vikings", "Axes", wounds=4, full_ranks=2, charged=True)
    _side(page, 1, "Karelians", "Spears", wounds=1, full_ranks=3, discipline=7)
    fill_in(
        page,
        {
            "input[name=dice_mode][value=seeded]": True,
            "input[name=label]": "Axes at the ford",
            "input[name=game_turn]": "2",
            "select[name=battle_side-0]": "NOR",
            "select[name=battle_side-1]": "KAR",
        },
    )
    page.click("button[value=preview]")
    page.wait_for_selector("text=Vikings wins the round by")
    shot(page, "25-battle-round-calculator")
    page.click("button[value=save]")
    page.wait_for_selector("#rounds >> text=Axes at the ford")
    assert page.is_visible("#rounds >> text=Steadfast"), "the break test says why"
    page.locator("#rounds").screenshot(path=str(SCREENSHOTS / "26-battle-rounds.png"))
    losses = {"NOR-JV": "1", "KAR-JV": "3", "KAR-PA": "1"}
    result = {"input[name=winner][value=NOR]": True, "input[name=decisive]": True}
    fill_in(page, result | {f"input[name=loss-{key}]": count for key, count in losses.items()})
    page.fill("input[name=score]", "1450 – 820")
    shot(page, "22-result-form")
    page.click("button[value=save]")
    page.wait_for_selector("text=Version 1: proposed")

    other = log_in(browser, base, "karelian")
    other.goto(sheet)
    other.click("button[value=agree]")
    other.wait_for_selector("text=Version 1: agreed")

    gm = log_in(browser, base, "gm")
    gm.goto(f"{base}/c/demo/turns/1/battles/")
    shot(gm, "23-gm-battle-queue")
    gm.goto(sheet)
    gm.click("button[value=confirm]")
    gm.wait_for_selector("text=Version 1: confirmed")
    assert Turn.objects.get(pk=pending.pk).status == Turn.Status.RESOLVED

    page.goto(f"{base}/c/demo/turns/1/")
    page.wait_for_selector("text=K1")
    assert page.is_visible("#battle-K1-rounds >> text=Axes at the ford"), "the report tells the saved round"
    assert page.is_visible("#battle-K1-rounds >> text=Game turn 2")
    shot(page, "24-tabletop-report")

    gm.goto(f"{base}/c/demo/gm/turns/1/")
    gm.wait_for_selector("#rollback")
    assert gm.is_visible("input[name=rollback-kind][value=battles]")
    gm.locator(".danger-zone").screenshot(path=str(SCREENSHOTS / "27-tabletop-rollback.png"))
    gm.check("input[name=rollback-kind][value=battles]")
    gm.fill("input[name=rollback-reason]", "KAR lost fewer spears")
    gm.click(".danger-zone button.danger")
    gm.wait_for_selector("text=rolled back to its battles")
    assert Turn.objects.get(pk=pending.pk).status == Turn.Status.BATTLES_PENDING
    shot(gm, "28-tabletop-rolled-back-to-battles")
