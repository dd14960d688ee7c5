"""Celery tasks: thin shells around rules.services."""

from __future__ import annotations

from celery import shared_task

from rules.services import turn_process


# acks_late + reject_on_worker_lost: a worker that dies mid-turn leaves the message for another worker;
# turn_process is safe to run again (it only claims an open turn, in one transaction).
@shared_task(acks_late=True, reject_on_worker_lost=True)
def process_turn(turn_id: int) -> str | None:
    turn = turn_process(turn_id=turn_id)
    return turn.status if turn is not None else None
