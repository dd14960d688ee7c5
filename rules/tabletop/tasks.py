"""Celery tasks that write to a tabletop battle's people: its mails (rules.tabletop.mails,
rules.tabletop.mails_results), in the interface layer. rules.tabletop.mail and rules.tabletop.battles queue
them by name, so nothing below imports this module.

Each keeps the name it had when the mails were the frontend's (`frontend.tasks.<name>`): jobs already in
the queue carry it.
"""

from __future__ import annotations

from celery import shared_task

from rules.tabletop.mails import battle_overdue_send, battle_reminder_send, battle_sheet_send
from rules.tabletop.mails_results import battle_event_send


@shared_task(name="frontend.tasks.send_battle_sheet")
def send_battle_sheet(battle_id: int, fingerprint: str, changed: bool = False) -> int:
    """A tabletop battle's sheet to its players, queued once per sheet (rules.tabletop.mail)."""
    return battle_sheet_send(battle_id=battle_id, fingerprint=fingerprint, changed=changed)


@shared_task(name="frontend.tasks.send_battle_reminder")
def send_battle_reminder(battle_id: int) -> int:
    """A tabletop battle's reminder before its result is due, queued once per deadline
    (rules.tabletop.mail)."""
    return battle_reminder_send(battle_id=battle_id)


@shared_task(name="frontend.tasks.send_battle_overdue")
def send_battle_overdue(battle_id: int) -> int:
    """A tabletop battle past its deadline: its players and the GM are told, once (rules.tabletop.battles)."""
    return battle_overdue_send(battle_id=battle_id)


@shared_task(name="frontend.tasks.send_battle_event")
def send_battle_event(battle_id: int, event: str, version_id: int | None = None, old_sheet=None) -> int:
    """A change in a tabletop battle's results (A11.3), queued once by the change (rules.tabletop.mail)."""
    return battle_event_send(battle_id=battle_id, event=event, version_id=version_id, old_sheet=old_sheet)
