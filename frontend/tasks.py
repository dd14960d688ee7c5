"""Celery tasks that write to people: the mails of every turn (frontend.mail.turns), rendered and sent here,
in the interface layer.

The world's services queue them by name (campaign.queue), so nothing below imports this module. A battle
system's own mails have their tasks in its package (`rules/<system>/tasks.py`, under the names they had
here, `frontend.tasks.send_...`, which queued jobs carry), imported by its app's ready(), so that a name
queued in any process is known there.
"""

from __future__ import annotations

from celery import shared_task

from frontend.mail.accounts import invitation_mail_send
from frontend.mail.turns import turn_reminders_send, turn_results_send


@shared_task
def send_turn_reminders(turn_id: int) -> int:
    return turn_reminders_send(turn_id=turn_id)


@shared_task
def send_turn_results(turn_id: int) -> int:
    """Queued once a resolved turn commits; a failure here leaves the turn resolved."""
    return turn_results_send(turn_id=turn_id)


@shared_task
def send_invitation(invitation_id: int) -> int:
    """An invitation link to the address the GM gave, queued once the link is made (campaign.invitations)."""
    return invitation_mail_send(invitation_id=invitation_id)
