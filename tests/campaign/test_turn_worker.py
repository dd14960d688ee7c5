"""Turn processing through a real Celery worker on the real broker (REDIS_URL), against the test database."""

from __future__ import annotations

import time

import pytest
from django.db import transaction

from campaign.models import Turn
from campaign.queue import turn_queue, turn_retry
from rules.models import Report
from rules.selectors import turn_result
from rules.tasks import process_turn
from tests.campaign.test_turn_processing import ORDERS, assert_world_matches, engine_result_for_demo

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


def wait_for(turn: Turn, *statuses: str, timeout: float = 60) -> Turn:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        turn.refresh_from_db()
        if turn.status in statuses:
            return turn
        time.sleep(0.1)
    raise AssertionError(f"turn {turn.number} still {turn.status} after {timeout} s")


def test_it_resolves_a_queued_turn_in_the_worker_exactly_as_the_engine_does(
    celery_worker, demo, place_orders
):
    turn = demo.turns.get(number=1)
    orders = place_orders(turn, ORDERS)
    expected = engine_result_for_demo(orders)

    with transaction.atomic():
        turn_queue(turn_id=turn.pk)

    turn = wait_for(turn, Turn.Status.RESOLVED, Turn.Status.FAILED)
    assert turn.status == Turn.Status.RESOLVED, turn.error
    assert turn_result(turn=turn) == expected
    assert_world_matches(demo, expected)
    assert demo.turns.get(number=2).status == Turn.Status.OPEN


def test_it_resolves_once_when_the_turn_is_queued_twice(celery_worker, demo, place_orders):
    turn = demo.turns.get(number=1)
    place_orders(turn, ORDERS)
    jobs = [process_turn.delay(turn.pk), process_turn.delay(turn.pk)]

    assert sorted(str(job.get(timeout=60)) for job in jobs) == ["None", "resolved"]
    turn.refresh_from_db()
    assert list(demo.turns.values_list("number", "status")) == [(1, "resolved"), (2, "open")]
    assert Report.objects.filter(turn=turn).count() == len(turn_result(turn=turn)["battles"])


def test_it_retries_a_failed_turn_in_the_worker(celery_worker, demo, place_orders):
    turn = demo.turns.get(number=1)
    place_orders(turn, ORDERS)
    Turn.objects.filter(pk=turn.pk).update(status=Turn.Status.FAILED, error="an earlier failure")

    assert turn_retry(turn_id=turn.pk)

    turn = wait_for(turn, Turn.Status.RESOLVED)
    assert turn.error == ""
