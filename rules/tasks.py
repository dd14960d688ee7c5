"""Celery tasks of turn processing: thin shells around rules.services and campaign.queue.

The services queue them by name (campaign.queue), so nothing below imports this module."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from campaign.queue import tick_record, turn_fault_record, turns_due_queue, turns_stale_requeue
from rules.engine.messages import Message
from rules.services import turn_process
from rules.system_shells import systems_tick

RETRY_MAX = 30  # then the sweeper's minute tick takes over (campaign.queue.turns_stale_requeue)


# acks_late + reject_on_worker_lost: a worker that dies mid-turn leaves the message for another worker;
# turn_process is safe to run again (it only claims an open turn, in one transaction).
@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=RETRY_MAX)
def process_turn(self, turn_id: int, fault: dict | None = None) -> str | None:
    if fault:  # the last run's fault, not recorded then because the database was still away
        turn_fault_record(turn_id=turn_id, reason=Message.from_dict(fault))
    try:
        turn = turn_process(turn_id=turn_id)
    except (OperationalError, InterfaceError) as error:
        # The database went away under the turn (a restart, a lost connection): its transaction is gone
        # whole and the turn is still open. Not the turn's fault: say so on the turn, and try again soon.
        retry, words = self.request.retries + 1, str(error).strip()[:200]
        reason = Message("queue.database_away", {"retry": retry, "error": words})
        recorded = turn_fault_record(turn_id=turn_id, reason=reason)
        countdown = min(2**self.request.retries, 30)
        kwargs = {"turn_id": turn_id, "fault": None if recorded else reason.to_dict()}
        raise self.retry(exc=error, countdown=countdown, args=(), kwargs=kwargs) from error
    return turn.status if turn is not None else None


@shared_task
def requeue_stale_turns() -> int:
    """Run by Celery beat every minute: the sweeper, and the tick the health check looks for."""
    tick_record()
    return turns_stale_requeue()


@shared_task
def process_due_turns() -> int:
    """Run by Celery beat: the deadline processes a turn the GM has not processed by hand."""
    return turns_due_queue()


@shared_task
def tick_systems() -> int:
    """Run by Celery beat every minute: each battle system's own steps (rules.system_shells, `tick`), such
    as tabletop's battles past their result deadline and their reminders (TABLETOP.md A8)."""
    return sum(count for _, count in systems_tick())
