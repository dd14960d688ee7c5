"""Celery tasks that write to a company campaign's people: its turn's mails (rules.company.mails), in the
interface layer. rules.company.turn queues them by name, so nothing below imports this module.

Each keeps the name it had when the mails were the frontend's (`frontend.tasks.<name>`): jobs already in
the queue carry it.
"""

from __future__ import annotations

from celery import shared_task

from rules.company.mails import company_battle_due_send, company_battles_send, company_results_send


@shared_task(name="frontend.tasks.send_company_battles")
def send_company_battles(turn_id: int) -> int:
    """A company turn's new battles to their nations and the GM, queued once its processing commits."""
    return company_battles_send(turn_id=turn_id)


@shared_task(name="frontend.tasks.send_company_results")
def send_company_results(turn_id: int) -> int:
    """A company turn's post-battle mail, queued once its completion commits."""
    return company_results_send(turn_id=turn_id)


@shared_task(name="rules.company.tasks.send_company_battle_due")
def send_company_battle_due(battle_id: int, overdue: bool) -> int:
    """A battle's result due soon, or overdue (COMPANY.md §5.2), once its deadline's claim commits."""
    return company_battle_due_send(battle_id=battle_id, overdue=overdue)
