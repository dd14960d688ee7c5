"""A company battle's result deadline (COMPANY.md §5.2 "Deadlines", as amended): due `result.deadline_hours`
after the battle is created, its players reminded `result.reminder_hours_before` it, overdue once when it
passes (its players and the GM told, the GM dashboard listing it), never resolved by itself; the GM sets or
moves it while the turn waits for its battles, through the API and the pages."""

from __future__ import annotations

from datetime import timedelta

from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign, Turn
from rules.models import TableBattle
from rules.services import turn_process
from rules.table_deadlines import battles_overdue, battles_remind
from tests.company.conftest import at, attack_and_scout, result_final

A = "/api/campaigns/demo"


def _mailed(*users) -> None:
    for user in users:
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])


def _processed(company, **result):
    """Turn 1 processed with `result` among the campaign's settings: the battle of M1 and its row."""
    from rules.company import models

    if result:
        Campaign.objects.filter(pk=company.campaign.pk).update(
            ruleset_overrides={"tp": {"starting": 30}, "result": result}
        )
    turn = attack_and_scout(company)
    before = timezone.now()
    turn_process(turn_id=turn.pk)
    battle = models.Battle.objects.select_related("table").get(turn=turn, table__archived=False)
    return battle, battle.table, before


def test_a_battle_is_due_its_settings_hours_after_it_is_created(company, gm) -> None:
    battle, table, before = _processed(company)
    assert before <= table.opened_at <= timezone.now()
    assert table.deadline == table.opened_at + timedelta(hours=168), "result.deadline_hours: 168 by default"


def test_the_setting_sets_the_deadline(company, gm) -> None:
    _, table, _ = _processed(company, deadline_hours=48)
    assert table.deadline == table.opened_at + timedelta(hours=48)


def test_its_players_are_reminded_once_before_the_deadline(
    company, gm, player, rival, django_capture_on_commit_callbacks
) -> None:
    _mailed(gm, player, rival)
    battle, table, _ = _processed(company)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert battles_remind(now=lambda: table.deadline - timedelta(hours=25)) == 0, "too early"
        assert battles_remind(now=lambda: table.deadline - timedelta(hours=23)) == 1
        assert battles_remind(now=lambda: table.deadline - timedelta(hours=22)) == 0, "once per deadline"
    assert sorted(m.to[0] for m in mail.outbox) == ["player@example.org", "rival@example.org"]
    [mine] = [m for m in mail.outbox if m.to == ["player@example.org"]]
    assert mine.subject == "[The Grenzwald Crisis] Turn 1: the result of battle M1 is due soon"
    assert "No result has been entered yet." in mine.body and f"/c/demo/{at(battle)}/" in mine.body


def test_at_the_deadline_it_is_overdue_once_and_never_resolved_by_itself(
    company, gm, player, rival, django_capture_on_commit_callbacks
) -> None:
    _mailed(gm, player, rival)
    battle, table, _ = _processed(company)
    mail.outbox.clear()
    later = table.deadline + timedelta(minutes=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert battles_overdue(now=lambda: table.deadline - timedelta(minutes=1)) == 0
        assert battles_overdue(now=lambda: later) == 1
        assert battles_overdue(now=lambda: later + timedelta(hours=1)) == 0, "once per deadline"
    table.refresh_from_db()
    assert table.overdue_at == later and table.state == "open" and not table.versions.exists()
    assert Turn.objects.get(pk=battle.turn_id).status == Turn.Status.BATTLES_PENDING
    told = {m.to[0]: m for m in mail.outbox}
    assert sorted(told) == ["gm@example.org", "player@example.org", "rival@example.org"]
    assert "never resolved by itself" in told["gm@example.org"].body
    assert "The GM now extends its deadline" in told["player@example.org"].body
    TableBattle.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    client = Client()
    client.force_login(gm)
    dashboard = client.get(reverse("frontend:gm", args=["demo"])).content.decode()
    address = f"/c/demo/{at(battle)}/"
    assert 'id="overdue"' in dashboard and f'action="{address}deadline/"' in dashboard
    assert 'value="auto_resolve"' not in dashboard, "a company battle is never auto-resolved"


def test_the_gm_moves_the_deadline_through_the_api_and_it_is_met_anew(company, gm, clients) -> None:
    battle, table, _ = _processed(company)
    url = f"{A}/{at(battle)}/deadline/"
    battles_overdue(now=lambda: table.deadline + timedelta(minutes=1))
    moved = (timezone.now() + timedelta(days=3)).replace(microsecond=0)
    body = {"deadline": moved.isoformat(), "reason": "club night moved"}
    assert clients["player"].post(url, body, format="json").status_code == 403
    assert clients["outsider"].post(url, body, format="json").status_code == 404
    bad = clients["gm"].post(url, {**body, "deadline": "next friday"}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["code"] == "deadline_format"
    answer = clients["gm"].post(url, body, format="json")
    assert answer.status_code == 200 and answer.json()["deadline"] == moved.isoformat()
    table.refresh_from_db()
    assert (table.deadline, table.overdue_at, table.reminded_at) == (moved, None, None)
    assert company.campaign.audit_entries.filter(action="battle_deadline", reason="club night moved").exists()
    result_final(battle, {"units": [{"unit": int(u)} for u in battle.data["units"]]}, gm)
    final = clients["gm"].post(url, body, format="json")
    assert final.status_code == 409 and final.json()["errors"][0]["code"] == "deadline_not_open"


def test_the_gm_moves_the_deadline_on_the_battle_page(company, gm, player) -> None:
    battle, table, _ = _processed(company)
    page = f"/c/demo/{at(battle)}/"
    client = Client()
    client.force_login(player)
    assert f'action="{page}deadline/"' not in client.get(page).content.decode(), "the form is the GM's"
    refused = client.post(f"{page}deadline/", {"deadline": "2030-01-01T10:00", "reason": "mine"})
    assert refused.status_code == 302
    table.refresh_from_db()
    assert table.deadline.year != 2030, "a player cannot"
    client.force_login(gm)
    html = client.get(page).content.decode()
    assert f'action="{page}deadline/"' in html and "Result due" in html
    moved = client.post(
        f"{page}deadline/", {"deadline": "2030-01-01T10:00", "reason": "holidays"}, follow=True
    )
    assert "The battle&#x27;s deadline is moved." in moved.content.decode()
    table.refresh_from_db()
    assert table.deadline.isoformat() == "2030-01-01T10:00:00+00:00"
