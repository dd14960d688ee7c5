"""Celery tasks of the play-by-mail life cycle: thin shells around campaign.lifecycle and campaign.mail."""

from __future__ import annotations

from celery import shared_task

from campaign.mail import turn_reminders_send, turn_results_send
from campaign.queue import turns_early_queue, turns_remind


@shared_task
def remind_due_turns() -> int:
    """Run by Celery beat every minute: queue the reminders of turns near their deadline, once."""
    return turns_remind()


@shared_task
def process_ready_turns() -> int:
    """Run by Celery beat every minute: queue the turns of campaigns that process early, once."""
    return turns_early_queue()


@shared_task
def send_turn_reminders(turn_id: int) -> int:
    return turn_reminders_send(turn_id=turn_id)


@shared_task
def send_turn_results(turn_id: int) -> int:
    """Queued once a resolved turn commits; a failure here leaves the turn resolved."""
    return turn_results_send(turn_id=turn_id)
