"""Celery tasks of turn processing: thin shells around rules.services and campaign.queue.

The services queue them by name (campaign.queue), so nothing below imports this module."""

from __future__ import annotations

from celery import shared_task

from campaign.queue import turns_due_queue
from rules.battles import battles_overdue
from rules.services import turn_process


# acks_late + reject_on_worker_lost: a worker that dies mid-turn leaves the message for another worker;
# turn_process is safe to run again (it only claims an open turn, in one transaction).
@shared_task(acks_late=True, reject_on_worker_lost=True)
def process_turn(turn_id: int) -> str | None:
    turn = turn_process(turn_id=turn_id)
    return turn.status if turn is not None else None


@shared_task
def process_due_turns() -> int:
    """Run by Celery beat: the deadline processes a turn the GM has not processed by hand."""
    return turns_due_queue()


@shared_task
def resolve_overdue_battles() -> int:
    """Run by Celery beat: tabletop battles past their result deadline (TABLETOP.md A8)."""
    return battles_overdue()
