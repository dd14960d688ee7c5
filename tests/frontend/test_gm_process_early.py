"""The GM's "process now" before the deadline: a nation without orders had time left, so it is no missed
turn for it unless the GM says so; past the deadline, or by the deadline itself, it counts as before."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign.models import AuditEntry, Nation, Turn
from tests.frontend.conftest import demo_url


@pytest.fixture
def norland_ordered(turn1, player, rival, place_orders):
    """NOR gave orders; EST (the rival's nation) gave none."""
    place_orders(turn1, [("NOR", "hold", "N2", None, {"JV": 4})])
    return turn1


def _missed(nations, code):
    nation = Nation.objects.get(pk=nations[code].pk)
    return nation.turns_missed, nation.turns_missed_in_row


def _process(client, data, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return client.post(demo_url("gm_process"), {"confirm": "yes", **data}, follow=True)


def test_the_confirm_page_offers_to_count_the_missed_turn_off_by_default(as_gm, norland_ordered):
    page = as_gm.post(demo_url("gm_process")).content.decode()
    assert "Count nations without orders as having missed this turn" in page
    assert '<input type="checkbox" name="count_missed" aria-describedby' in page, "not checked"
    assert "Ostland Federation" in page and "Their units will hold:" in page


def test_it_does_not_count_a_missed_turn_when_the_gm_processes_early_without_saying_so(
    as_gm, demo, nations, norland_ordered, django_capture_on_commit_callbacks
):
    Nation.objects.filter(pk=nations["EST"].pk).update(turns_missed=2, turns_missed_in_row=2)
    response = _process(as_gm, {}, django_capture_on_commit_callbacks)
    assert Turn.objects.get(pk=norland_ordered.pk).status == "resolved"
    assert [str(m) for m in response.context["messages"]] == [
        "Turn 1 queued for processing; its status is below. "
        "Nations without orders (Ostland Federation) do not count it as a missed turn."
    ]
    assert _missed(nations, "EST") == (2, 2), "neither counted nor forgiven: civil disorder no nearer"
    assert not Nation.objects.get(pk=nations["EST"].pk).civil_disorder
    assert _missed(nations, "NOR") == (0, 0)
    assert not Turn.objects.get(pk=norland_ordered.pk).missed_counted
    assert "nations without orders do not count it as missed" in AuditEntry.objects.first().summary


def test_it_counts_the_missed_turn_when_the_gm_says_so(
    as_gm, demo, nations, norland_ordered, django_capture_on_commit_callbacks
):
    Nation.objects.filter(pk=nations["EST"].pk).update(turns_missed=2, turns_missed_in_row=2)
    response = _process(as_gm, {"count_missed": "on"}, django_capture_on_commit_callbacks)
    assert [str(m) for m in response.context["messages"]] == [
        "Turn 1 queued for processing; its status is below. "
        "Nations without orders (Ostland Federation) count it as a missed turn."
    ]
    assert _missed(nations, "EST") == (3, 3)
    assert Nation.objects.get(pk=nations["EST"].pk).civil_disorder, "the third in a row"
    assert AuditEntry.objects.first().summary == "turn 1 queued for processing"


def test_past_the_deadline_the_gm_processing_counts_as_the_deadline_would(
    as_gm, demo, nations, norland_ordered, django_capture_on_commit_callbacks
):
    Turn.objects.filter(pk=norland_ordered.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    page = as_gm.post(demo_url("gm_process")).content.decode()
    assert "count_missed" not in page
    assert "the deadline has passed: the turn counts as missed for them" in page
    _process(as_gm, {}, django_capture_on_commit_callbacks)
    assert _missed(nations, "EST") == (1, 1)


def test_the_deadline_counts_missed_turns_as_before(demo, nations, norland_ordered):
    from rules.services import turn_process

    assert turn_process(turn_id=norland_ordered.pk).status == "resolved"
    assert _missed(nations, "EST") == (1, 1)


def test_a_rollback_makes_the_turn_count_missed_turns_again(
    as_gm, gm, demo, nations, norland_ordered, django_capture_on_commit_callbacks
):
    from rules.history import turn_rollback

    _process(as_gm, {}, django_capture_on_commit_callbacks)
    turn_rollback(turn_id=norland_ordered.pk, by=gm, reason="again", force=True)
    assert Turn.objects.get(pk=norland_ordered.pk).missed_counted


@pytest.mark.parametrize("who", ["player", "rival"])
def test_a_player_cannot_process_the_turn_early_either_way(
    request, client, demo, nations, norland_ordered, who
):
    client.force_login(request.getfixturevalue(who))
    for data in ({}, {"confirm": "yes"}, {"confirm": "yes", "count_missed": "on"}):
        assert client.post(demo_url("gm_process"), data).status_code == 403
    turn = Turn.objects.get(pk=norland_ordered.pk)
    assert (turn.status, turn.missed_counted, turn.queued_at) == ("open", True, None)
    assert _missed(nations, "EST") == (0, 0)


def test_publishing_a_preview_early_is_no_missed_turn_unless_the_gm_says_so(as_gm, nations, norland_ordered):
    as_gm.post(demo_url("gm_preview", 1))
    page = as_gm.get(demo_url("gm_preview", 1)).content.decode()
    assert "Count nations without orders as having missed this turn" in page
    response = as_gm.post(demo_url("gm_publish", 1))
    assert [str(m) for m in response.context["messages"]][-1] == (
        "Turn 1 published exactly the previewed result. "
        "Nations without orders (Ostland Federation) do not count it as a missed turn."
    )
    assert _missed(nations, "EST") == (0, 0)


def test_publishing_counts_the_missed_turn_when_the_gm_says_so(as_gm, nations, norland_ordered):
    response = as_gm.post(demo_url("gm_publish", 1), {"count_missed": "on"})
    assert [str(m) for m in response.context["messages"]][-1].endswith(
        "Nations without orders (Ostland Federation) count it as a missed turn."
    )
    assert _missed(nations, "EST") == (1, 1)


def test_the_confirm_page_and_its_flash_speak_finnish_to_a_finnish_gm(
    as_gm, norland_ordered, django_capture_on_commit_callbacks
):
    from django.utils import translation

    try:
        as_gm.post(reverse("frontend:language"), {"language": "fi", "next": demo_url("gm")})
        page = as_gm.post(demo_url("gm_process")).content.decode()
        assert "Laske vuoro väliin jääneeksi valtioille, jotka eivät antaneet käskyjä" in page
        response = _process(as_gm, {}, django_capture_on_commit_callbacks)
        said = [str(m) for m in response.context["messages"]][-1]
        assert said.endswith("(Ostland Federation), vuoroa ei lasketa väliin jääneeksi.")
    finally:
        translation.deactivate()
