"""A real browser plays a turn: a player gives an order that conquers, the GM processes the turn, the
player reads the battle report and sees the new owner on the map.

Debian's chromium driven by Playwright against pytest-django's live server, turns processed in process
(eager Celery). Screenshots of the main pages go to tests/e2e/screenshots/ (git-ignored) for a human eye.
"""

from __future__ import annotations

import re

from tests.e2e.conftest import BROWSER_TEST, CSP_VIOLATIONS, SCREENSHOTS, log_in, shot

pytestmark = BROWSER_TEST


def _fill(page, code):
    """The colour a region is painted in: its owner's, from the group of the owner's regions."""
    return page.eval_on_selector(
        f'[data-region="{code}"]', "e => e.closest('[data-owner]').getAttribute('fill')"
    )


def test_it_plays_a_turn_in_the_browser_from_order_to_report(browser, live_server, demo, player, gm, nations):
    base = live_server.url
    nor_color = nations["NOR"].color

    # The player finds the campaign, chooses N5 on the map and orders an attack on the empty M2.
    page = log_in(browser, base, "player")
    page.wait_for_selector("svg.map")
    assert _fill(page, "M2") == "#e3e3e3"
    shot(page, "01-campaign-player")
    # Orders by clicking only: an own region, then a target; the kind and the counts follow.
    page.click('[data-region="N4"]')
    assert page.input_value("#id_origin") == "N4"
    # Westmark is Nordmark's ally: W2 is not a target, and the map says why.
    assert "illegal" in page.get_attribute('[data-region="W2"]', "class")
    page.click('[data-region="W2"]')
    assert page.inner_text("[data-map-status]") == "NOR is allied with WES"
    page.click('[data-region="N5"]')  # N4 → N5 would be a move: choose N5 as the origin instead
    page.click('[data-region="N4"]')
    assert page.input_value("#id_kind") == "move"
    page.click('[data-region="N5"]')  # the origin again: the small menu (hold, stand down)
    page.click("[data-menu-kind=cancel]")
    page.click('[data-region="N5"]')
    page.click('[data-region="M2"]')
    assert (page.input_value("#id_kind"), page.input_value("#id_target")) == ("attack", "M2")
    # Everything that is left and may attack: the JV and the PA, not the TY (artillery does not attack).
    assert (page.input_value("#id_units_JV"), page.input_value("#id_units_PA")) == ("4", "3")
    assert page.locator("svg.map line.arrow.pending").count() == 1
    assert page.inner_text("[data-order-preview]") == "N5 → M2: attack with 4 JV, 3 PA"
    shot(page, "02-order-by-click")
    page.click("#order-form button[type=submit]")
    page.wait_for_selector(".messages")
    assert "Order saved: N5 → M2: attack with 4 JV, 3 PA." in page.inner_text(".messages")
    # A second attack, on Karelia's defended K1: a real battle, for a report with every term in it.
    page.click('[data-region="N3"]')
    page.click('[data-region="K1"]')
    assert page.input_value("#id_units_JV") == "2"
    page.click("#order-form button[type=submit]")
    assert "Order saved: N3 → K1: attack with 2 JV." in page.inner_text(".messages")
    assert page.locator("svg.map line.arrow-attack").count() == 2
    shot(page, "03-order-saved")
    phone = log_in(browser, base, "player", width=390)
    phone.goto(f"{base}/c/demo/")
    shot(phone, "04-campaign-phone")
    phone.close()

    # The GM sees who has submitted and processes the turn; the status page shows the result.
    gm_page = log_in(browser, base, "gm")
    gm_page.goto(f"{base}/c/demo/gm/")
    assert "submitted" in gm_page.inner_text("#process")
    shot(gm_page, "05-gm-dashboard")
    gm_page.click("#process button[type=submit]")
    # "Process now" asks first, naming the nations without orders.
    assert "Every nation with a player has given orders." in gm_page.inner_text("#confirm")
    shot(gm_page, "05b-gm-process-confirm")
    gm_page.click("#confirm button[type=submit]")
    gm_page.wait_for_selector(".status-resolved", timeout=20_000)
    assert "2 battles, 1 conquest" in gm_page.inner_text("#status")
    shot(gm_page, "06-gm-turn-processed")
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
    shot(page, "07-turn-report")
    page.click("#battle-K1 .report tr:has-text('fortune of war') .rule a")
    page.wait_for_url(re.compile(r"/rules/#s4$"))
    assert page.inner_text("#s4") == "4. Combat value (KTA)"
    page.screenshot(path=str(SCREENSHOTS / "09-rules.png"))
    page.goto(f"{base}/c/demo/")
    assert _fill(page, "M2") == nor_color
    page.click("#map-table a")
    assert "Kingdom of Nordmark" in page.inner_text("#row-M2")
    shot(page, "08-campaign-after-turn")
    page.goto(f"{base}/api/schema/swagger-ui/")
    page.wait_for_selector(".swagger-ui .information-container", timeout=20_000)
    assert CSP_VIOLATIONS == []


def _both(browser, base, path, name, username="player"):
    """A page at 1280 and at 390 px, for a human eye (tests/e2e/screenshots/NAME-1280.png, NAME-390.png)."""
    for width in (1280, 390):
        page = log_in(browser, base, username, width=width)
        page.goto(f"{base}{path}")
        shot(page, f"{name}-{width}")
        page.close()


def test_it_gives_orders_by_clicking_only_on_a_desktop_and_a_phone_and_reads_the_joint_attack(
    browser, live_server, demo, player, rival, gm, place_orders
):
    base = live_server.url
    # Westmark, Nordmark's ally, goes for the empty M2 with 7 ground units: as many as Nordmark will send.
    place_orders(demo.turns.get(number=1), [("WES", "attack", "W2", "M2", {"JV": 5, "PA": 2})])
    _both(browser, base, "/c/demo/", "10-campaign-before")

    # Two orders on the desktop, by clicking only: N5 → M2 (attack), N3 → K1 (attack).
    page = log_in(browser, base, "player")
    page.goto(f"{base}/c/demo/")
    for origin, target in (("N5", "M2"), ("N3", "K1")):
        page.click(f'[data-region="{origin}"]')
        page.click(f'[data-region="{target}"]')
        assert page.input_value("#id_kind") == "attack"
        page.click("#order-form button[type=submit]")
        page.wait_for_selector(".messages li.success")
    assert page.locator("svg.map g.order-arrow").count() == 2
    shot(page, "11-two-orders-by-click-1280")

    # The third on a phone: N2's units move to N4 (an own region: a move), counts at everything left.
    phone = log_in(browser, base, "player", width=390)
    phone.goto(f"{base}/c/demo/")
    phone.click('[data-region="N2"]')
    phone.click('[data-region="N4"]')
    assert phone.input_value("#id_kind") == "move"
    assert (phone.input_value("#id_units_JV"), phone.input_value("#id_units_TY")) == ("4", "2")
    shot(phone, "12-order-by-click-390")
    phone.click("#order-form button[type=submit]")
    message = phone.wait_for_selector(".messages li.success")
    assert message.inner_text() == "Order saved: N2 → N4: move 4 JV, 2 TY."
    # The saved order's message is in view on the phone, not above the fold.
    box = message.bounding_box()
    assert box is not None and 0 <= box["y"] < 844
    shot(phone, "13-order-saved-390")
    phone.close()

    # The GM processes the turn early (asked first): Ostland has given no orders, and unless the GM ticks
    # the box that is no missed turn for it.
    for width in (390, 1280):
        gm_page = log_in(browser, base, "gm", width=width)
        if width == 390:
            # A dry run first: its page offers the same choice beside "Publish".
            gm_page.goto(f"{base}/c/demo/gm/")
            gm_page.click("#result form[action$='/preview/'] button[type=submit]")
            gm_page.wait_for_selector("#preview .summary")
            assert not gm_page.is_checked("#preview input[name=count_missed]")
        else:
            gm_page.goto(f"{base}/c/demo/gm/turns/1/preview/")
        shot(gm_page, f"23-gm-preview-{width}")
        gm_page.goto(f"{base}/c/demo/gm/")
        gm_page.click("#process button[type=submit]")
        gm_page.wait_for_selector("#confirm")
        assert "Ostland Federation" in gm_page.inner_text("#confirm")
        assert not gm_page.is_checked("#confirm input[name=count_missed]")
        shot(gm_page, f"21-gm-process-confirm-{width}")
        if width == 390:
            gm_page.close()
    gm_page.click("#confirm button[type=submit]")
    gm_page.wait_for_selector(".status-resolved", timeout=20_000)
    assert "(Ostland Federation) do not count it as a missed turn" in gm_page.inner_text(".messages")
    shot(gm_page, "22-gm-processed-early-1280")
    gm_page.close()

    # The player's campaign page opens with the banner; it links to the report, where the joint attack's
    # card says who holds M2 and why.
    page.goto(f"{base}/c/demo/")
    banner = page.inner_text("#turn-banner")
    assert banner.startswith("Turn 1: 2 battles") and "you lost" in banner and "JV at K1" in banner
    assert page.locator("svg.map a.battle-marker").count() == 2
    shot(page, "14-campaign-after-turn-1280")
    page.click("#turn-banner a")
    page.wait_for_selector("#battle-M2")
    card = page.inner_text("#battle-M2")
    assert "Kingdom of Nordmark: JV 4, PA 3" in card and "Westmark: JV 5, PA 2" in card
    assert "Kingdom of Nordmark 7, Westmark 7" in card
    # The lot as the engine drew it: 1d2, the roll-th of the tied in nation order.
    drawn = re.search(r"by lot among 1 = Kingdom of Nordmark, 2 = Westmark: 1d2 rolled ([12]), so ", card)
    assert drawn is not None, card
    holder = ("Kingdom of Nordmark", "Westmark")[int(drawn[1]) - 1]
    assert f"so {holder} holds M2 (§7.2)" in card
    page.close()
    _both(browser, base, "/c/demo/", "15-campaign-after-turn")
    _both(browser, base, "/c/demo/turns/1/", "16-turn-report")
    phone = log_in(browser, base, "player", width=390)
    phone.goto(f"{base}/c/demo/turns/1/")
    phone.locator("#battle-M2").screenshot(path=str(SCREENSHOTS / "16-joint-attack-card-390.png"))
    phone.close()
    _both(browser, base, "/c/demo/gm/", "17-gm-dashboard", "gm")
    _both(browser, base, "/c/demo/gm/turns/1/", "18-gm-turn", "gm")
    _both(browser, base, "/c/demo/gm/", "19-403")
    _both(browser, base, "/c/nowhere/", "20-404")
    # The map's script is a static file and its data a JSON block: the pages keep to the CSP.
    assert CSP_VIOLATIONS == []
