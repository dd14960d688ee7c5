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

# The one default answer to "count nations without orders as having missed the turn?" when the GM processes
# the open turn early: the GM's page checks its box by it, the API's process endpoint takes it when the body
# says nothing (rules.api.ProcessShape). No: they had time left. Past the deadline it counts whatever is said.
COUNT_MISSED_DEFAULT = False


def turn_early(*, turn: Turn, now: Clock = timezone.now) -> bool:
    """Whether processing the turn now is early: before its deadline, or while the campaign is paused."""
    return turn.campaign.paused_at is not None or now() < turn.deadline


def turn_missed_counting_set(*, turn: Turn, count_missed: bool, now: Clock = timezone.now) -> bool:
    """Before the GM's hand processes the open turn (queued now, or a preview published): whether nations
    without orders count it as missed. Early, only if the GM says so; past the deadline, always."""
    counted = count_missed or not turn_early(turn=turn, now=now)
    Turn.objects.filter(pk=turn.pk, status=Turn.Status.OPEN).update(missed_counted=counted)
    return counted


def turn_process_request(
    *, by: User, turn: Turn, count_missed: bool = COUNT_MISSED_DEFAULT, now: Clock = timezone.now
) -> bool:
    """Queue the turn for processing now, before its deadline if need be; True when nations without orders
    will count it as missed. The GM's page and the API's process endpoint both come here.

    Early by the GM's hand it is no missed turn for them unless the GM says so (`count_missed`): they had
    time left. Past the deadline it is, as when the deadline queues it.
    """
    gm_check(by=by, campaign=turn.campaign)
    open_check(turn)
    with transaction.atomic():
        counted = turn_missed_counting_set(turn=turn, count_missed=count_missed, now=now)
        code = "audit.queued" if counted else "audit.queued_uncounted"
        audit_write(by, turn.campaign, "process", Message(code, {"number": turn.number}), "", now)
        queue.turn_queue(turn_id=turn.pk)
    return counted


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
