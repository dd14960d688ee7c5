"""The GM's power over processing: queue the open turn now, retry a failed one (campaign.queue).

Previewing, publishing and rolling back a turn's result are the turn job's (rules.history).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from campaign import queue
from campaign.gm.access import Clock, User, audit_write, gm_check, open_check
from campaign.models import Turn
from rules.engine.messages import Message


def turn_process_request(*, by: User, turn: Turn, now: Clock = timezone.now) -> None:
    """Queue the turn for processing now, before its deadline if need be."""
    gm_check(by=by, campaign=turn.campaign)
    open_check(turn)
    with transaction.atomic():
        audit_write(by, turn.campaign, "process", Message("audit.queued", {"number": turn.number}), "", now)
        queue.turn_queue(turn_id=turn.pk)


def turn_retry_request(*, by: User, turn: Turn, now: Clock = timezone.now) -> bool:
    """Reopen a failed turn and queue it again; False when it was not failed."""
    gm_check(by=by, campaign=turn.campaign)
    with transaction.atomic():
        retried = queue.turn_retry(turn_id=turn.pk)
        if retried:
            audit_write(
                by, turn.campaign, "process", Message("audit.retried", {"number": turn.number}), "", now
            )
    return retried
