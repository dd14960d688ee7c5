"""Processing early asks one question with one default, on the GM's page and in the API: "count nations
without orders as having missed the turn?" (campaign.gm.processing.COUNT_MISSED_DEFAULT). Both come to
`turn_process_request`; past the deadline the turn counts whatever the GM says."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from campaign.gm.processing import COUNT_MISSED_DEFAULT
from campaign.models import AuditEntry, Nation, Turn
from tests.api.conftest import client_for
from tests.errors import fields
from tests.frontend.conftest import demo_url

A = "/api/campaigns/demo/turns/1/process/"


@pytest.fixture
def norland_ordered(demo, gm, player, rival, place_orders):
    """Turn 1 open, a day before its deadline: NOR (the player) gave orders; EST (the rival) gave none."""
    turn = demo.turns.get(number=1)
    Turn.objects.filter(pk=turn.pk).update(deadline=timezone.now() + timedelta(days=1))
    place_orders(turn, [("NOR", "hold", "N2", None, {"JV": 4})])
    return turn


def _missed(demo, code: str) -> tuple[int, int]:
    nation = Nation.objects.get(campaign=demo, code=code)
    return nation.turns_missed, nation.turns_missed_in_row


def _api(gm, data, capture, **kwargs):
    with capture(execute=True):
        return client_for(gm).post(A, data, format="json", **kwargs)


def _web(client, gm, data, capture):
    client.force_login(gm)
    with capture(execute=True):
        return client.post(demo_url("gm_process"), {"confirm": "yes", **data})


def test_the_default_is_not_to_count_an_early_turn_as_missed() -> None:
    assert COUNT_MISSED_DEFAULT is False


@pytest.mark.parametrize(
    "path, data, counted",
    [
        ("api", None, COUNT_MISSED_DEFAULT),
        ("api", {}, COUNT_MISSED_DEFAULT),
        ("api", {"count_missed": False}, False),
        ("api", {"count_missed": True}, True),
        ("web", {}, COUNT_MISSED_DEFAULT),
        ("web", {"count_missed": "on"}, True),
    ],
)
def test_it_counts_an_early_turn_as_missed_only_when_the_gm_says_so_on_either_path(
    client, demo, gm, norland_ordered, django_capture_on_commit_callbacks, path, data, counted
) -> None:
    Nation.objects.filter(campaign=demo, code="EST").update(turns_missed=1, turns_missed_in_row=1)
    if path == "api":
        response = _api(gm, data, django_capture_on_commit_callbacks)
        assert response.status_code == 202, response.content
    else:
        assert _web(client, gm, data, django_capture_on_commit_callbacks).status_code == 302

    turn = Turn.objects.get(pk=norland_ordered.pk)
    assert (turn.status, turn.missed_counted) == (Turn.Status.RESOLVED, counted)
    assert _missed(demo, "EST") == ((2, 2) if counted else (1, 1))
    assert _missed(demo, "NOR") == (0, 0)
    code = "audit.queued" if counted else "audit.queued_uncounted"
    assert AuditEntry.objects.filter(campaign=demo, action="process", code=code).count() == 1


@pytest.mark.parametrize("path", ["api", "web"])
@pytest.mark.parametrize("said", [False, True])
def test_past_the_deadline_the_turn_counts_whatever_the_gm_says(
    client, demo, gm, norland_ordered, django_capture_on_commit_callbacks, path, said
) -> None:
    Turn.objects.filter(pk=norland_ordered.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    if path == "api":
        assert _api(gm, {"count_missed": said}, django_capture_on_commit_callbacks).status_code == 202
    else:
        data = {"count_missed": "on"} if said else {}
        assert _web(client, gm, data, django_capture_on_commit_callbacks).status_code == 302

    assert Turn.objects.get(pk=norland_ordered.pk).missed_counted
    assert _missed(demo, "EST") == (1, 1)


def test_the_web_form_offers_the_question_with_the_apis_default(client, gm, norland_ordered) -> None:
    client.force_login(gm)
    page = client.post(demo_url("gm_process")).content.decode()
    box = page[page.index('<input type="checkbox" name="count_missed"') :].split(">", 1)[0]
    assert (" checked" in box) is COUNT_MISSED_DEFAULT


@pytest.mark.parametrize(
    "data",
    [{"count_missed": "perhaps"}, {"count_missed": [True]}, {"count_missed": True, "count": 1}],
)
def test_a_bad_body_is_refused_naming_the_field_and_nothing_is_queued(
    demo, gm, norland_ordered, django_capture_on_commit_callbacks, data
) -> None:
    response = _api(gm, data, django_capture_on_commit_callbacks)

    assert response.status_code == 400
    assert fields(response) <= {"count_missed", "count"} and fields(response)
    turn = Turn.objects.get(pk=norland_ordered.pk)
    assert (turn.status, turn.queued_at) == (Turn.Status.OPEN, None)
    assert not AuditEntry.objects.filter(campaign=demo, action="process").exists()


def test_the_schema_offers_count_missed_as_an_optional_boolean(client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    post = schema["paths"]["/api/campaigns/{slug}/turns/{number}/process/"]["post"]
    ref = post["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    shape = schema["components"]["schemas"][ref]
    assert shape["properties"]["count_missed"]["type"] == "boolean"
    assert shape["properties"]["count_missed"]["default"] is COUNT_MISSED_DEFAULT
    assert "count_missed" not in shape.get("required", [])
    assert not post["requestBody"].get("required", False)


@pytest.mark.parametrize("who", ["player", "rival", "outsider"])
def test_only_the_gm_may_process_with_or_without_the_question(
    request, demo, norland_ordered, django_capture_on_commit_callbacks, who
) -> None:
    user = request.getfixturevalue(who)
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(user).post(A, {"count_missed": True}, format="json")
    assert response.status_code in (403, 404)
    assert client_for(None).post(A, {"count_missed": True}, format="json").status_code == 401
    assert Turn.objects.get(pk=norland_ordered.pk).status == Turn.Status.OPEN
