"""With the broker (Redis) unreachable, the GM's "process" answers at once and says so, and the turn is not
left marked as queued for the sweeper to find minutes later: the deadline's tick queues it once the broker
is back. A real broker address that nobody answers, not a stand-in for Celery."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest

from campaign.models import Turn
from campaign.queue import turns_due_queue
from tests.api.conftest import client_for
from tests.frontend.conftest import demo_url

A = "/api/campaigns/demo"
AWAY = "The turn was not queued: the task queue (Redis) does not answer. Try again in a minute."

# The task is sent when the request's transaction commits: these tests commit.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def broker_down():
    """The project's Celery app, configured as in production but for its broker (and result store): a
    real Redis address that nobody answers, a closed port on this machine. Current while the test runs."""
    from celery import Celery

    from config.celery import app

    nobody = "redis://127.0.0.1:9/0"
    down = Celery("iron_fist", set_as_current=True)
    down.config_from_object("django.conf:settings", namespace="CELERY")
    down.conf.update(broker_url=nobody, result_backend=nobody, task_always_eager=False)
    yield down
    app.set_current()
    down.close()


def timed(call):
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


def test_it_answers_the_api_with_503_at_once_and_leaves_the_turn_unqueued(demo, gm, broker_down):
    response, took = timed(lambda: client_for(gm).post(f"{A}/turns/1/process/"))

    assert took < 2
    assert response.status_code == 503, response.content
    assert response.json() == {"errors": [{"code": "broker_unavailable", "ref": None, "message": AWAY}]}
    assert response["Retry-After"] == "60"
    turn = demo.turns.get(number=1)
    assert (turn.status, turn.queued_at) == ("open", None)
    assert turn.fault_message.code == "queue.broker_away"


def test_it_says_so_on_the_page_at_once(demo, gm, client, broker_down):
    client.force_login(gm)

    response, took = timed(lambda: client.post(demo_url("gm_process"), {"confirm": "yes"}, follow=True))

    assert took < 2
    assert response.status_code == 200
    assert [str(m) for m in response.context["messages"]] == [AWAY]
    page = response.content.decode()
    assert "Not queued: the task queue did not answer at" in page
    assert demo.turns.get(number=1).queued_at is None


def test_a_retry_while_the_broker_is_away_leaves_the_turn_open_for_the_deadline(demo, gm, broker_down):
    Turn.objects.filter(campaign=demo, number=1).update(status=Turn.Status.FAILED, error="boom")

    response, took = timed(lambda: client_for(gm).post(f"{A}/turns/1/retry/"))

    assert (response.status_code, took < 2) == (503, True)
    turn = demo.turns.get(number=1)
    assert (turn.status, turn.queued_at) == ("open", None)


def test_the_deadline_queues_the_turn_as_soon_as_the_broker_is_back(demo, broker_down):
    from config.celery import app

    turn = demo.turns.get(number=1)
    after_deadline = turn.deadline + timedelta(minutes=1)

    assert turns_due_queue(now=lambda: after_deadline) == 0
    assert demo.turns.get(number=1).queued_at is None, "not left for the sweeper's five minutes"

    app.set_current()  # the broker is back (tasks run in process, as in `make run`)
    assert turns_due_queue(now=lambda: after_deadline) == 1
    assert demo.turns.get(number=1).status == Turn.Status.RESOLVED
