"""When a tabletop battle's players get mail (TABLETOP.md A8.1, A11.3), each mail once; the interface layer
renders and sends it (rules.tabletop.mails, by the tasks of rules.tabletop.tasks), queued here by task name.

battle_sheets_queue(turn=)   each open battle whose sheet its players have not been mailed: the sheet,
                             once per sheet (a battle whose forces change is mailed its new sheet)
battle_reminder_queue(battle_id)   each open battle within `tabletop.reminder_hours_before` of its deadline,
                             while it has no confirmed result (rules.table_deadlines claims it, once per
                             deadline): a reminder
battle_overdue_queue(battle_id=)   the deadline passed (rules.table_deadlines has claimed it, once per
                             deadline): the battle's players and the GM are told (A8.2)
battle_event_queue(battle_id=, event=, ...)   a change in the battle's results (A11.3, EVENTS), queued by
                             the change's own transaction, so once per change and only if it commits

Each mail is claimed first with a conditional update ("if num_updated != 1, another process got there
first"), so two beats, or a beat and a re-plan, queue it once; the task is queued when the claim commits.
A moved deadline clears the reminder's claim (rules.table_deadlines), so the new deadline is reminded anew.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.db.models import F

from campaign.models import Turn
from campaign.queue import task_queue
from rules.models import TableBattle

Clock = Callable[[], datetime]

SEND_BATTLE_SHEET = "frontend.tasks.send_battle_sheet"
SEND_BATTLE_REMINDER = "frontend.tasks.send_battle_reminder"
SEND_BATTLE_OVERDUE = "frontend.tasks.send_battle_overdue"
SEND_BATTLE_EVENT = "frontend.tasks.send_battle_event"

# The results workflow's events that are mailed (A11.3): a new version waiting for the other nations'
# answer; a dispute (the GM told too); the battle's entry confirmed; the current version voided; the entry
# reopened; an entry or version set aside as stale because the battle's forces changed (A10.3).
EVENTS = ("version", "disputed", "confirmed", "voided", "reopened", "stale")


def battle_sheets_queue(*, turn: Turn) -> int:
    """Queue the sheet mail of each open battle of `turn` not yet mailed with the sheet it has now."""
    unsent = (
        TableBattle.objects.filter(turn=turn, state=TableBattle.State.OPEN)
        .exclude(fingerprint="")
        .exclude(sheet_mailed=F("fingerprint"))
        .values_list("pk", "fingerprint", "sheet_mailed")
    )
    queued = 0
    for pk, fingerprint, mailed in list(unsent):
        if TableBattle.objects.filter(pk=pk, sheet_mailed=mailed).update(sheet_mailed=fingerprint) == 1:
            # A sheet mailed before with other forces: the new one says so (A10.3).
            task_queue(SEND_BATTLE_SHEET, pk, fingerprint, bool(mailed), robust=True)
            queued += 1
    return queued


def battle_reminder_queue(battle_id: int) -> None:
    """Queue the reminder of a battle whose reminder's claim the caller holds (rules.table_deadlines)."""
    task_queue(SEND_BATTLE_REMINDER, battle_id, robust=True)


def battle_overdue_queue(*, battle_id: int) -> None:
    """Queue the overdue mail of a battle whose deadline's claim the caller holds (once per deadline)."""
    task_queue(SEND_BATTLE_OVERDUE, battle_id, robust=True)


def battle_event_queue(
    *, battle_id: int, event: str, version_id: int | None = None, old_sheet: dict | None = None
) -> None:
    """Queue the mail of one event of a battle's results once the caller's transaction commits."""
    if event not in EVENTS:
        raise ValueError(f"no such battle event: {event}")
    task_queue(SEND_BATTLE_EVENT, battle_id, event, version_id, old_sheet, robust=True)
