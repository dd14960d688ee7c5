"""Deadlines: the beat queues a due turn once, pausing stops the clock, the GM extends, early processing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection

from campaign.gm.access import GMInputError
from campaign.gm.clock import campaign_pause, campaign_resume, deadline_extend
from campaign.lifecycle import campaign_clock
from campaign.models import AuditEntry, Campaign, Turn
from campaign.queue import turn_reopen, turns_due_queue, turns_early_queue
from rules.services import turn_process
from tests.conftest import twice_at_once


@pytest.fixture
def turn1(demo, clock):
    turn = demo.turns.get(number=1)
    turn.deadline = datetime(2026, 10, 25, 12, 0, tzinfo=UTC)
    turn.save(update_fields=["deadline"])
    return turn


def test_it_queues_a_due_turn_once_however_often_the_beat_ticks(turn1, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        assert turns_due_queue(now=lambda: turn1.deadline - timedelta(seconds=1)) == 0
        assert turns_due_queue(now=lambda: turn1.deadline) == 1
        assert turns_due_queue(now=lambda: turn1.deadline + timedelta(minutes=1)) == 0
    assert len(callbacks) == 1
    turn1.refresh_from_db()
    assert turn1.queued_at == turn1.deadline


@pytest.mark.skipif(connection.vendor != "postgresql", reason="two connections at once need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_it_queues_once_when_two_beats_tick_at_the_same_moment(demo, monkeypatch):
    """Two beat processes, each in its own connection and transaction, both find the turn due."""
    turn = demo.turns.get(number=1)
    queued = []
    monkeypatch.setattr("campaign.queue.turn_queue", lambda *, turn_id: queued.append(turn_id))
    counts = twice_at_once(
        lambda: turns_due_queue(now=lambda: turn.deadline + timedelta(seconds=5)), timeout=30
    )
    assert sorted(counts) == [0, 1]
    assert queued == [turn.pk]


def test_it_lets_two_beats_that_both_saw_the_turn_due_queue_it_once(turn1, monkeypatch):
    """The race in slow motion: both beats list the turn as due before either claims it."""
    from campaign import queue

    queued = []
    monkeypatch.setattr("campaign.queue.turn_queue", lambda *, turn_id: queued.append(turn_id))
    real_claim = queue.turn_queue_claim
    second_beat = []

    def claim(*, turn_id, now):
        if not second_beat:  # the other beat ticks while this one is between its list and its claim
            second_beat.append(None)
            second_beat[0] = turns_due_queue(now=lambda: now)
        return real_claim(turn_id=turn_id, now=now)

    monkeypatch.setattr(queue, "turn_queue_claim", claim)
    first = turns_due_queue(now=lambda: turn1.deadline)
    assert (first, second_beat) == (0, [1]), "the second beat claimed it; the first found it taken"
    assert queued == [turn1.pk]


def test_it_queues_a_reopened_turn_again_at_its_new_deadline(turn1, gm, monkeypatch):
    queued = []
    monkeypatch.setattr("campaign.queue.turn_queue", lambda *, turn_id: queued.append(turn_id))
    assert turns_due_queue(now=lambda: turn1.deadline) == 1
    Turn.objects.filter(pk=turn1.pk).update(status=Turn.Status.FAILED)
    assert turn_reopen(turn_id=turn1.pk)
    Turn.objects.filter(pk=turn1.pk).update(deadline=turn1.deadline + timedelta(days=1))
    assert turns_due_queue(now=lambda: turn1.deadline + timedelta(hours=1)) == 0
    assert turns_due_queue(now=lambda: turn1.deadline + timedelta(days=1)) == 1
    assert queued == [turn1.pk, turn1.pk]


def test_it_stops_the_clock_while_paused_and_restores_the_time_left(turn1, gm, clock, monkeypatch):
    queued = []
    monkeypatch.setattr("campaign.queue.turn_queue", lambda *, turn_id: queued.append(turn_id))
    clock.at = turn1.deadline - timedelta(hours=30)
    campaign_pause(campaign=turn1.campaign, by=gm, reason="holiday", now=clock)

    clock.at = turn1.deadline + timedelta(days=3)  # long past the old deadline
    assert turns_due_queue(now=clock) == 0, "a paused campaign's turn is not processed"
    shown = campaign_clock(campaign=Campaign.objects.get(pk=turn1.campaign_id), turn=turn1, now=clock)
    assert shown["paused"] and shown["time_left"] == timedelta(hours=30)

    campaign_resume(campaign=turn1.campaign, by=gm, now=clock)
    turn1.refresh_from_db()
    assert turn1.deadline == clock.at + timedelta(hours=30)
    assert queued == []
    assert list(AuditEntry.objects.values_list("action", "reason")[:2]) == [
        ("resume", ""),
        ("pause", "holiday"),
    ]


def test_it_extends_a_deadline_and_while_paused_the_time_left(turn1, gm, clock):
    clock.at = turn1.deadline - timedelta(hours=2)
    deadline_extend(turn=turn1, by=gm, extra=timedelta(days=1), reason="storm", now=clock)
    turn1.refresh_from_db()
    assert turn1.deadline == datetime(2026, 10, 26, 12, 0, tzinfo=UTC)

    campaign_pause(campaign=turn1.campaign, by=gm, now=clock)
    deadline_extend(turn=turn1, by=gm, extra=timedelta(hours=6), now=clock)
    clock.at += timedelta(days=5)
    campaign_resume(campaign=turn1.campaign, by=gm, now=clock)
    turn1.refresh_from_db()
    assert turn1.deadline == clock.at + timedelta(hours=26 + 6)


def test_it_refuses_the_clock_to_anyone_but_the_gm_and_nonsense_to_the_gm(turn1, gm, player, clock):
    with pytest.raises(PermissionDenied):
        campaign_pause(campaign=turn1.campaign, by=player, now=clock)
    with pytest.raises(PermissionDenied):
        deadline_extend(turn=turn1, by=player, extra=timedelta(hours=1), now=clock)
    with pytest.raises(GMInputError, match="positive"):
        deadline_extend(turn=turn1, by=gm, extra=timedelta(0), now=clock)
    with pytest.raises(GMInputError, match="not paused"):
        campaign_resume(campaign=turn1.campaign, by=gm, now=clock)


def test_it_processes_early_once_every_active_nation_has_orders_in(
    turn1, nations, player, rival, place_orders, clock, monkeypatch
):
    queued = []
    monkeypatch.setattr("campaign.queue.turn_queue", lambda *, turn_id: queued.append(turn_id))
    Campaign.objects.filter(pk=turn1.campaign_id).update(process_early=True)
    place_orders(turn1, [("NOR", "hold", "N2", None, {"JV": 4})])
    assert turns_early_queue(now=clock) == 0, "EST has a player and no orders yet"
    place_orders(turn1, [("EST", "hold", "E1", None, {"JV": 4})])
    assert turns_early_queue(now=clock) == 1, "nations without a player are not waited for"
    assert turns_early_queue(now=clock) == 0
    assert queued == [turn1.pk]


def test_it_does_not_wait_for_a_nation_in_civil_disorder_nor_process_early_unasked(
    turn1, nations, player, rival, place_orders, clock, monkeypatch
):
    queued = []
    monkeypatch.setattr("campaign.queue.turn_queue", lambda *, turn_id: queued.append(turn_id))
    place_orders(turn1, [("NOR", "hold", "N2", None, {"JV": 4})])
    nations["EST"].civil_disorder = True
    nations["EST"].save(update_fields=["civil_disorder"])
    assert turns_early_queue(now=clock) == 0, "the campaign does not process early"
    Campaign.objects.filter(pk=turn1.campaign_id).update(process_early=True)
    assert turns_early_queue(now=clock) == 1
    assert queued == [turn1.pk]


def test_it_gives_the_next_turn_its_whole_length_when_processed_by_hand_while_paused(turn1, gm, clock):
    campaign_pause(campaign=turn1.campaign, by=gm, now=clock)
    assert turn_process(turn_id=turn1.pk, now=clock).status == Turn.Status.RESOLVED
    campaign_resume(campaign=turn1.campaign, by=gm, now=clock)
    turn2 = turn1.campaign.turns.get(number=2)
    assert turn2.deadline == clock.at + turn1.campaign.turn_length


def test_it_lets_the_gm_set_the_life_cycle_and_records_it(demo, gm, player, clock):
    from campaign.gm.clock import lifecycle_settings_set

    with pytest.raises(PermissionDenied):
        lifecycle_settings_set(campaign=demo, by=player, process_early=True, now=clock)
    lifecycle_settings_set(
        campaign=demo, by=gm, process_early=True, reminder_before=timedelta(hours=6), now=clock
    )
    demo.refresh_from_db()
    assert (demo.process_early, demo.reminder_before, demo.civil_disorder_after) == (
        True,
        timedelta(hours=6),
        3,
    )
    assert demo.audit_entries.first().summary == "process early on; reminder 6 hours before"
    with pytest.raises(GMInputError, match="0 \\(never\\) or more"):
        lifecycle_settings_set(campaign=demo, by=gm, civil_disorder_after=-1, now=clock)


def test_it_keeps_orders_open_past_the_old_deadline_while_paused(turn1, gm, player, clock):
    from orders.services import OrderDraft, OrderError, order_submit

    hold = OrderDraft(kind="hold", origin="N2", target=None, units={"JV": 4})
    clock.at = turn1.deadline - timedelta(hours=1)
    campaign_pause(campaign=turn1.campaign, by=gm, now=clock)
    clock.at = turn1.deadline + timedelta(hours=5)
    assert order_submit(user=player, turn=turn1, draft=hold, now=clock).kind == "hold"
    campaign_resume(campaign=turn1.campaign, by=gm, now=clock)
    clock.at += timedelta(hours=1, seconds=1)
    with pytest.raises(OrderError, match="the deadline of turn 1 has passed"):
        order_submit(user=player, turn=turn1, draft=hold, now=clock)


def test_it_ticks_from_the_command_line_as_beat_does(
    demo, player, capsys, django_capture_on_commit_callbacks
):
    from django.core.management import call_command

    Turn.objects.filter(campaign=demo).update(deadline=datetime(2020, 1, 1, tzinfo=UTC))
    with django_capture_on_commit_callbacks(execute=True):
        call_command("lifecycle_tick")
        call_command("lifecycle_tick")
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "1 turn(s) due, 0 ready early, 0 reminder(s) queued, 0 stale turn(s) queued again, "
        "0 battle reminder(s) queued, 0 battle(s) overdue",
        "0 turn(s) due, 0 ready early, 0 reminder(s) queued, 0 stale turn(s) queued again, "
        "0 battle reminder(s) queued, 0 battle(s) overdue",
    ]
    assert demo.turns.get(number=1).status == Turn.Status.RESOLVED
