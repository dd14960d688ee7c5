"""The KP ledger on the battle page (COMPANY.md §9, §11.2) when the campaign keeps one: each side operates
its own pools from the page, every operation is stored with who asked and listed, a refusal says why and
stores nothing; without `kp.tracking` the page has no ledger."""

from __future__ import annotations

from django.test import Client

from rules.company import models
from tests.company.conftest import at


def login(user, language=None) -> Client:
    client = Client()
    client.force_login(user)
    if language:
        client.cookies["django_language"] = language
    return client


def test_without_tracking_the_battle_page_has_no_ledger(battle, rival):
    assert 'id="kp"' not in login(rival).get(f"/c/demo/{at(battle)}/").content.decode()


def test_a_side_starts_a_table_turn_and_spends_from_its_own_pool(tracked, battle, rival, player):
    url = f"/c/demo/{at(battle)}/"
    page = login(rival).post(url, {"kp": "turn_start"}, follow=True).content.decode()
    assert "Recorded in the KP ledger: table turn 1." in page and "company 5" in page
    page = (
        login(rival)
        .post(url, {"kp": "spend", "pool": "company", "action": "fire_support_request"}, follow=True)
        .content.decode()
    )
    assert "company 3" in page
    refused = login(player).post(url, {"kp": "spend", "pool": "company", "action": "motti"}, follow=True)
    assert "Not recorded: There is no KP pool company." in refused.content.decode()
    battle.refresh_from_db()
    assert [(o["op"], o["by"], o["side"]) for o in battle.kp] == [
        ("turn_start", "rival", "EST"),
        ("spend", "rival", "EST"),
    ], "a refused operation stores nothing"
    assert "spend · EST · rival · company · fire_support_request" in refused.content.decode()
    finnish = login(player, "fi").post(url, {"kp": "transfer", "to": "company"}, follow=True)
    assert "There is no KP pool" not in finnish.content.decode()


def test_the_gm_acts_for_a_side_and_an_outsider_cannot(tracked, battle, gm, outsider):
    url = f"/c/demo/{at(battle)}/"
    assert login(outsider).post(url, {"kp": "turn_start"}).status_code == 404
    page = login(gm).post(url, {"kp": "turn_start", "side": "EST"}, follow=True).content.decode()
    assert "table turn 1" in page
    battle.refresh_from_db()
    assert battle.kp[0]["side"] is None and battle.kp[0]["by"] == "gm"
    assert models.Battle.objects.get(pk=battle.pk).table_turn == 1
