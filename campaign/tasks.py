"""Celery beat's tasks of the play-by-mail life cycle: thin shells around campaign.queue."""

from __future__ import annotations

from celery import shared_task

from campaign.queue import turns_early_queue, turns_remind


@shared_task
def remind_due_turns() -> int:
    """Run by Celery beat every minute: queue the reminders of turns near their deadline, once."""
    return turns_remind()


@shared_task
def process_ready_turns() -> int:
    """Run by Celery beat every minute: queue the turns of campaigns that process early, once."""
    return turns_early_queue()
