"""No turn is lost: a turn queued long ago that no one is processing is queued again by the minute tick;
what happened is on the turn for the GM's dashboard; /health/ says whether the database, the broker and the
tick are alive. (tests/faults/ kill and restart the real servers.)"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection, connections
from django.utils import timezone

from campaign.models import Heartbeat, Turn
from campaign.queue import tick_record, turn_fault_record, turn_queue, turns_stale_requeue
from rules.engine.messages import Message
from rules.models import TurnSnapshot


def test_queueing_by_the_gm_says_since_when(demo, django_capture_on_commit_callbacks):
    turn = demo.turns.get(number=1)

    with django_capture_on_commit_callbacks(execute=False):
        turn_queue(turn_id=turn.pk)

    turn.refresh_from_db()
    assert turn.queued_at is not None and turn.status == "open"


def test_a_turn_queued_long_ago_and_not_done_is_queued_again_and_resolved_once(
    demo, django_capture_on_commit_callbacks
):
    turn = demo.turns.get(number=1)
    lost_at = timezone.now() - timedelta(minutes=10)
    Turn.objects.filter(pk=turn.pk).update(queued_at=lost_at)  # its job went with a dead worker

    with django_capture_on_commit_callbacks(execute=True):
        assert turns_stale_requeue(after=timedelta(minutes=5)) == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert turns_stale_requeue(after=timedelta(minutes=5)) == 0

    turn.refresh_from_db()
    assert turn.status == "resolved"
    assert TurnSnapshot.objects.filter(turn=turn).count() == 1
    assert turn.requeues == 1
    assert str(turn.fault_message) == f"queued again: no progress since {lost_at:%Y-%m-%d %H:%M:%S} UTC"


def test_a_turn_queued_lately_is_left_to_its_job(demo):
    turn = demo.turns.get(number=1)
    Turn.objects.filter(pk=turn.pk).update(queued_at=timezone.now() - timedelta(minutes=2))

    assert turns_stale_requeue(after=timedelta(minutes=5)) == 0
    assert Turn.objects.get(pk=turn.pk).requeues == 0


@pytest.mark.django_db(transaction=True)
def test_a_turn_being_processed_is_not_queued_again(demo):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (set DATABASE_URL)")
    turn = demo.turns.get(number=1)
    Turn.objects.filter(pk=turn.pk).update(queued_at=timezone.now() - timedelta(minutes=10))
    locked, release = threading.Event(), threading.Event()

    def worker():  # a worker mid-turn: it holds the turn's row in its transaction
        from django.db import transaction

        with transaction.atomic():
            Turn.objects.select_for_update().get(pk=turn.pk)
            locked.set()
            release.wait(10)
        connections.close_all()

    thread = threading.Thread(target=worker)
    thread.start()
    try:
        assert locked.wait(10)
        assert turns_stale_requeue(after=timedelta(minutes=5)) == 0
    finally:
        release.set()
        thread.join()
    assert Turn.objects.get(pk=turn.pk).requeues == 0


def test_a_fault_is_recorded_on_a_fresh_connection(demo):
    turn = demo.turns.get(number=1)

    reason = Message("queue.database_away", {"retry": 1, "error": "server closed"})

    assert turn_fault_record(turn_id=turn.pk, reason=reason)

    turn.refresh_from_db()
    assert (turn.requeues, str(turn.fault_message)) == (1, "database unavailable, retry 1: server closed")


def test_the_dashboard_says_what_happened(client, demo, gm):
    turn = demo.turns.get(number=1)
    since = timezone.now() - timedelta(minutes=7)
    Turn.objects.filter(pk=turn.pk).update(
        queued_at=since,
        requeues=2,
        fault=Message("queue.database_away", {"retry": 2, "error": "terminating connection"}).to_dict(),
    )
    client.force_login(gm)

    for url in ("/c/demo/gm/", "/c/demo/gm/turns/1/"):
        page = client.get(url).content.decode()
        assert "Queued for processing since" in page and f"{since:%H:%M:%S} UTC" in page
        assert "Queued again 2 times; last: database unavailable, retry 2: terminating connection" in page
    status = client.get("/c/demo/gm/turns/1/status.json").json()
    assert status["requeues"] == 2 and status["fault"].startswith("database unavailable")


def test_a_finnish_gm_reads_what_happened_in_finnish(client, demo, gm):
    fault = Message("queue.requeued", {"since": "2026-12-01 09:00:00"}).to_dict()
    Turn.objects.filter(number=1).update(queued_at=timezone.now(), requeues=1, fault=fault)
    client.force_login(gm)
    client.cookies["django_language"] = "fi"

    page = client.get("/c/demo/gm/").content.decode()

    assert "jonoon uudelleen: ei edistystä 2026-12-01 09:00:00 UTC jälkeen" in page


def test_the_dashboard_says_why_a_turn_failed(client, demo, gm):
    Turn.objects.filter(number=1).update(status="failed", error="Traceback ...\nValueError: no such stack\n")
    client.force_login(gm)

    page = client.get("/c/demo/gm/").content.decode()

    # In words on the dashboard; the technical line on the turn's page, for the administrator.
    assert "an error in the server&#x27;s program (ValueError)" in page
    assert "Failed: ValueError: no such stack" in client.get("/c/demo/gm/turns/1/").content.decode()


def test_the_minute_tick_records_itself_and_sweeps(db, capsys):
    call_command("lifecycle_tick")

    assert Heartbeat.objects.get(name="tick").at > timezone.now() - timedelta(minutes=1)
    assert "0 stale turn(s) queued again" in capsys.readouterr().out


def test_health_is_200_when_the_database_answers(client, db, settings):
    settings.REDIS_URL = None

    response = client.get("/health/?format=json")

    assert response.status_code == 200, response.content
    assert "Database" in response.content.decode()


# The health checks run in threads of their own: what they read must be committed.
@pytest.mark.django_db(transaction=True)
def test_health_is_503_naming_a_dead_broker_and_a_silent_tick(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:9/0"  # nothing listens there

    response = client.get("/health/?format=json")

    assert response.status_code == 503
    body = response.content.decode()
    assert "Redis" in body and "the minute tick has never run" in body


@pytest.mark.django_db(transaction=True)
def test_health_is_503_when_the_tick_is_late(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:9/0"
    tick_record(now=lambda: timezone.now() - timedelta(minutes=10))

    assert "the minute tick last ran 6" in client.get("/health/?format=json").content.decode()
