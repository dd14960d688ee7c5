"""Celery tasks that write to people: the mails of a turn, rendered and sent here, in the interface layer.

The world's services queue them by name (campaign.queue), so nothing below imports this module.
"""

from __future__ import annotations

from celery import shared_task

from frontend.mail.battle_events import battle_event_send
from frontend.mail.company import company_battles_send, company_results_send
from frontend.mail.tabletop import battle_overdue_send, battle_reminder_send, battle_sheet_send
from frontend.mail.turns import turn_reminders_send, turn_results_send


@shared_task
def send_turn_reminders(turn_id: int) -> int:
    return turn_reminders_send(turn_id=turn_id)


@shared_task
def send_turn_results(turn_id: int) -> int:
    """Queued once a resolved turn commits; a failure here leaves the turn resolved."""
    return turn_results_send(turn_id=turn_id)


@shared_task
def send_company_battles(turn_id: int) -> int:
    """A company turn's new battles to their nations and the GM, queued once its processing commits."""
    return company_battles_send(turn_id=turn_id)


@shared_task
def send_company_results(turn_id: int) -> int:
    """A company turn's post-battle mail, queued once its completion commits."""
    return company_results_send(turn_id=turn_id)


@shared_task
def send_battle_sheet(battle_id: int, fingerprint: str, changed: bool = False) -> int:
    """A tabletop battle's sheet to its players, queued once per sheet (rules.tabletop.mail)."""
    return battle_sheet_send(battle_id=battle_id, fingerprint=fingerprint, changed=changed)


@shared_task
def send_battle_reminder(battle_id: int) -> int:
    """A tabletop battle's reminder before its result is due, queued once per deadline
    (rules.tabletop.mail)."""
    return battle_reminder_send(battle_id=battle_id)


@shared_task
def send_battle_overdue(battle_id: int) -> int:
    """A tabletop battle past its deadline: its players and the GM are told, once (rules.tabletop.battles)."""
    return battle_overdue_send(battle_id=battle_id)


@shared_task
def send_battle_event(battle_id: int, event: str, version_id: int | None = None, old_sheet=None) -> int:
    """A change in a tabletop battle's results (A11.3), queued once by the change (rules.tabletop.mail)."""
    return battle_event_send(battle_id=battle_id, event=event, version_id=version_id, old_sheet=old_sheet)
