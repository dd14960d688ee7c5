"""The GM's process endpoint queues the task and points at the status; the task does the work."""

from __future__ import annotations

from unittest import mock

from campaign.models import Turn
from tests.api.conftest import client_for
from tests.errors import said

A = "/api/campaigns/demo"


def test_it_queues_the_turn_and_answers_202_with_its_status_url(
    demo, gm, django_capture_on_commit_callbacks
) -> None:
    api = client_for(gm)
    with mock.patch("rules.tasks.process_turn.delay") as delay:
        with django_capture_on_commit_callbacks(execute=True):
            response = api.post(f"{A}/turns/1/process/")

    turn = demo.turns.get(number=1)
    assert response.status_code == 202
    assert response.json()["status_url"].endswith(f"{A}/turns/1/status/")
    assert response["Location"] == response.json()["status_url"]
    delay.assert_called_once_with(turn.pk)
    assert turn.status == Turn.Status.OPEN, "the endpoint claims nothing: the task does"


def test_the_queued_task_resolves_the_turn_and_the_status_says_so(
    demo, gm, django_capture_on_commit_callbacks
) -> None:
    api = client_for(gm)
    with django_capture_on_commit_callbacks(execute=True):
        api.post(f"{A}/turns/1/process/")

    status = api.get(f"{A}/turns/1/status/").json()

    assert (status["status"], status["error"]) == ("resolved", "")
    assert api.get(f"{A}/").json()["current_turn"]["number"] == 2


def test_a_failed_turn_is_retried_and_an_open_one_is_not(
    demo, gm, django_capture_on_commit_callbacks
) -> None:
    api = client_for(gm)
    demo.turns.filter(number=1).update(status=Turn.Status.FAILED, error="boom")

    with django_capture_on_commit_callbacks(execute=True):
        retried = api.post(f"{A}/turns/1/retry/")

    assert retried.status_code == 202
    assert api.get(f"{A}/turns/1/status/").json()["status"] == "resolved"
    again = api.post(f"{A}/turns/2/retry/")
    assert (again.status_code, said(again)) == (
        409,
        [("turn", "retry_not_failed", "turn 2 is open: only a failed turn can be retried")],
    )


def test_it_will_not_process_a_turn_twice(demo, gm, django_capture_on_commit_callbacks) -> None:
    api = client_for(gm)
    with django_capture_on_commit_callbacks(execute=True):
        api.post(f"{A}/turns/1/process/")

    response = api.post(f"{A}/turns/1/process/")

    assert (response.status_code, said(response)) == (
        409,
        [("turn", "process_not_open", "turn 1 is resolved: only an open turn can be processed")],
    )
    assert api.get(f"{A}/turns/9/status/").status_code == 404
