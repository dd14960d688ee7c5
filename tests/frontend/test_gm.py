"""The GM dashboard and campaign.gm: inputs for the turn, diplomacy, roster edits with an audit
log, and processing with a live status, its summary, or its error and a retry."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from campaign.gm import clock, diplomacy, inputs, processing, roster
from campaign.gm.access import GMInputError
from campaign.models import AuditEntry, GMModifier, Relation, Stack, Turn
from tests.frontend.conftest import demo_url


@pytest.mark.parametrize("who", ["player", "rival", "outsider"])
def test_it_refuses_every_gm_service_to_anyone_but_the_gm(request, demo, turn1, nations, regions, who):
    user = request.getfixturevalue(who)
    calls = [
        lambda: clock.deadline_set(by=user, turn=turn1, deadline=timezone.now() + timedelta(days=1)),
        lambda: inputs.weather_set(by=user, turn=turn1, weather="rain", region_weather={}),
        lambda: inputs.gm_modifier_set(
            by=user, turn=turn1, region=regions["M1"], nation=nations["NOR"], value=1, reason=""
        ),
        lambda: diplomacy.relation_set(
            by=user, nation_a=nations["NOR"], nation_b=nations["EST"], kind="peace"
        ),
        lambda: roster.roster_change(
            by=user, region=regions["N5"], nation=nations["NOR"], unit_type="JV", count=9, reason="x"
        ),
        lambda: processing.turn_process_request(by=user, turn=turn1),
    ]
    for call in calls:
        with pytest.raises(PermissionDenied):
            call()
    assert not AuditEntry.objects.exists()


def test_it_keeps_who_when_and_why_of_a_roster_change(as_gm, gm, demo):
    response = as_gm.post(
        demo_url("gm_roster"),
        {"region": "n5", "nation": "NOR", "unit_type": "JV", "count": "6", "reason": "reinforcements arrive"},
        follow=True,
    )
    assert [str(m) for m in response.context["messages"]] == ["Roster changed: 6 JV of NOR in N5."]
    assert Stack.objects.get(region__code="N5", nation__code="NOR", unit_type="JV").count == 6
    entry = AuditEntry.objects.get()
    assert (entry.user, entry.action, entry.summary, entry.reason) == (
        gm,
        "roster",
        "JV of NOR in N5: 4 → 6",
        "reinforcements arrive",
    )
    assert "reinforcements arrive" in response.content.decode()


def test_it_requires_a_reason_for_a_roster_change(gm, demo, nations, regions):
    with pytest.raises(GMInputError, match="say why"):
        roster.roster_change(
            by=gm, region=regions["N5"], nation=nations["NOR"], unit_type="JV", count=6, reason=" "
        )


def test_it_stores_a_relation_with_the_lower_nation_first_and_war_as_no_row(gm, nations):
    low, high = sorted((nations["NOR"], nations["EST"]), key=lambda n: n.pk)
    diplomacy.relation_set(by=gm, nation_a=high, nation_b=low, kind="peace")
    assert Relation.objects.get(nation_a=low, nation_b=high).kind == "peace"
    diplomacy.relation_set(by=gm, nation_a=low, nation_b=high, kind="war")
    assert not Relation.objects.filter(nation_a=low, nation_b=high).exists()


def test_it_sets_weather_modifiers_and_deadline_for_the_open_turn(as_gm, turn1):
    as_gm.post(
        demo_url("gm_weather"), {"weather": "rain", "region_weather": "M1 snow, n5 storm", "reason": ""}
    )
    as_gm.post(demo_url("gm_modifier"), {"region": "M1", "nation": "NOR", "value": "-2", "reason": "supply"})
    response = as_gm.post(demo_url("gm_deadline"), {"deadline": "2099-01-02T03:04"}, follow=True)
    turn1.refresh_from_db()
    assert (turn1.weather, turn1.region_weather) == ("rain", {"M1": "snow", "N5": "storm"})
    assert turn1.deadline == datetime(2099, 1, 2, 3, 4, tzinfo=UTC)
    assert GMModifier.objects.get(turn=turn1).value == -2
    assert [str(m) for m in response.context["messages"]] == [
        "Weather of turn 1: rain; M1 snow, N5 storm.",
        "GM modifier set: NOR in M1 -2 KTA this turn.",
        "Deadline of turn 1 set to 2099-01-02 03:04 UTC.",
    ]
    assert AuditEntry.objects.count() == 3


def test_it_says_what_is_wrong_with_a_gm_input(as_gm, turn1):
    response = as_gm.post(demo_url("gm_weather"), {"weather": "rain", "region_weather": "ZZ9 snow"})
    assert response.status_code == 400
    assert "unknown region &#x27;ZZ9&#x27;" in response.content.decode()
    response = as_gm.post(demo_url("gm_deadline"), {"deadline": "2001-01-01T00:00"})
    assert "the deadline must be in the future" in response.content.decode()


def test_it_shows_which_nations_have_submitted_and_how_many_turns_they_missed(
    as_gm, demo, turn1, player, rival, place_orders
):
    from rules.services import turn_process

    place_orders(turn1, [("NOR", "attack", "N5", "M2", {"JV": 1})])
    turn_process(turn_id=turn1.pk)
    place_orders(demo.turns.get(number=2), [("EST", "hold", "E1", None, {"JV": 1})])
    nations = {n["code"]: n for n in as_gm.get(demo_url("gm")).context["nations"]}
    # Counted by turn processing (campaign.lifecycle): a nation without a player misses none.
    assert (nations["NOR"]["submitted"], nations["NOR"]["turns_missed"]) == (False, 0)
    assert (nations["EST"]["submitted"], nations["EST"]["turns_missed"]) == (True, 1)
    assert nations["EST"]["turns_missed_in_row"] == 1
    assert [p["username"] for p in nations["NOR"]["players"]] == ["player"]


def test_it_processes_the_turn_and_shows_the_summary_with_every_report(
    as_gm, turn1, player, place_orders, django_capture_on_commit_callbacks
):
    place_orders(turn1, [("NOR", "attack", "N5", "M2", {"JV": 4, "PA": 3})])
    with django_capture_on_commit_callbacks(execute=True):
        response = as_gm.post(demo_url("gm_process"), {"confirm": "yes"})
    assert response["Location"] == demo_url("gm_turn", 1)
    status = as_gm.get(demo_url("gm_turn_status", 1)).json()
    assert status == {
        "turn": 1,
        "status": "resolved",
        "words": "done",
        "done": True,
        "battles": 1,
        "conquests": 1,
        "report_url": demo_url("turn", 1),
    }
    page = as_gm.get(demo_url("gm_turn", 1)).content.decode()
    assert "1 battle, 1 conquest" in page
    assert f'href="{demo_url("turn", 1)}?page=1#battle-M2"' in page


def test_it_shows_the_error_of_a_failed_turn_and_retries_it(
    as_gm, turn1, monkeypatch, django_capture_on_commit_callbacks
):
    from rules import services

    def broken(**kwargs):
        raise RuntimeError("the map is on fire")

    monkeypatch.setattr(services, "_turn_resolve", broken)
    with django_capture_on_commit_callbacks(execute=True):
        as_gm.post(demo_url("gm_process"), {"confirm": "yes"})
    page = as_gm.get(demo_url("gm_turn", 1)).content.decode()
    assert "the map is on fire" in page and "Retry turn 1" in page
    monkeypatch.undo()
    with django_capture_on_commit_callbacks(execute=True):
        response = as_gm.post(demo_url("gm_process"), {"confirm": "yes"}, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["Turn 1 queued again."]
    assert Turn.objects.get(pk=turn1.pk).status == "resolved"


def test_process_now_asks_first_naming_the_nations_without_orders(as_gm, turn1, player, place_orders):
    place_orders(turn1, [("NOR", "attack", "N5", "M2", {"JV": 4})])
    response = as_gm.post(demo_url("gm_process"))
    assert response.status_code == 200
    missing = [n["code"] for n in response.context["missing"]]
    # Only NOR has a player in this cast, and it has given orders: nobody misses the turn.
    assert missing == []
    assert Turn.objects.get(pk=turn1.pk).status == "open"
    assert "Yes, process turn 1 now" in response.content.decode()


def test_process_now_names_a_player_nation_that_gave_no_orders(as_gm, turn1, player, rival):
    response = as_gm.post(demo_url("gm_process"))
    assert [n["code"] for n in response.context["missing"]] == ["NOR", "EST"]
    assert "Count nations without orders as having missed this turn" in response.content.decode()
    assert Turn.objects.get(pk=turn1.pk).status == "open"


@pytest.mark.django_db(transaction=True)
def test_the_flash_says_processed_when_the_turn_is_done_at_once(as_gm, turn1):
    # In process (make run), the task runs when the request's transaction commits: the turn is done.
    response = as_gm.post(demo_url("gm_process"), {"confirm": "yes"}, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["Turn 1 processed; the summary is below."]
