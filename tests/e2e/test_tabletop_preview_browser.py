"""A real browser: the GM previews a tabletop turn with a hypothetical result (TABLETOP.md A10.1 (b)), a
player reads the sheet's deadline once in UTC, and the sheet mail (A11.3) is looked at as a mail reader
shows it. Screenshots go to tests/e2e/screenshots/ (tabletop-preview-*, tabletop-mail-*)."""

from __future__ import annotations

from tests.e2e.conftest import BROWSER_TEST, fill_in, log_in, shot

pytestmark = BROWSER_TEST


def test_the_gm_previews_the_turn_with_a_typed_result(browser, live_server, tabletop_turn):
    from rules.models import ResultVersion

    base = live_server.url
    gm = log_in(browser, base, "gm")
    gm.goto(f"{base}/c/demo/turns/1/battles/")
    gm.click("text=Preview the turn with hypothetical results")
    gm.wait_for_selector("text=The turn completes: 1 battle.")
    shot(gm, "tabletop-preview-auto")
    result = {
        "input[name='mode-region:K1'][value=result]": True,
        "input[name='winner-region:K1'][value=NOR]": True,
        "input[name='decisive-region:K1']": True,
    }
    losses = {"NOR-JV": "1", "KAR-JV": "3", "KAR-PA": "1"}
    fill_in(gm, result | {f"input[name='loss-region:K1-{key}']": count for key, count in losses.items()})
    gm.click("text=Preview with these results")
    gm.wait_for_selector("text=Kaarnala: Karelian Republic → Kingdom of Nordmark")
    shot(gm, "tabletop-preview-result")
    assert ResultVersion.objects.count() == 0, "a preview stores nothing"

    phone = log_in(browser, base, "gm", width=390)
    phone.goto(gm.url)
    shot(phone, "tabletop-preview-390")


def test_a_reader_in_utc_sees_the_deadline_once(browser, live_server, tabletop_turn, player):
    base = live_server.url
    page = log_in(browser, base, "player")
    page.goto(f"{base}/c/demo/turns/1/battles/region:K1/")
    header = page.inner_text("article.battle-sheet header")
    assert header.count("UTC") == 1, header
    shot(page, "tabletop-sheet-utc")


def test_the_sheet_mail_as_a_mail_reader_shows_it(browser, live_server, tabletop_turn, player, karelian):
    from django.core import mail

    from campaign.lifecycle import language_set, time_zone_set
    from rules.models import TableBattle
    from rules.tabletop.mails import battle_sheet_send

    for user in (player, karelian):
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
    language_set(user=karelian, language="fi")
    time_zone_set(user=karelian, time_zone="Europe/Helsinki")
    battle = TableBattle.objects.get(turn=tabletop_turn, key="region:K1")
    assert battle_sheet_send(battle_id=battle.pk, fingerprint=battle.fingerprint) == 2
    page = browser.new_page(viewport={"width": 800, "height": 900})
    for message in mail.outbox:
        name = message.to[0].partition("@")[0]
        page.set_content(message.alternatives[0][0])
        shot(page, f"tabletop-mail-{name}")
        page.set_content(f"<pre style='white-space: pre-wrap'>{message.subject}\n\n{message.body}</pre>")
        shot(page, f"tabletop-mail-{name}-text")
