"""The result deadline of a battle fought at the table, whatever the table system (TABLETOP.md A8.1,
COMPANY.md §5.2 "Deadlines"): set when the battle opens, reminded once before it, overdue once when it
passes, moved by the GM while the turn waits for its battles. What a system does at each step is its
`Deadlines` (rules.system_shells): how early it reminds, which mail it sends, and what else the deadline
decides (tabletop may auto-resolve, A8.3; a company battle is never resolved by itself). Names no system.

battles_remind(now=)      the minute tick: each open battle within its system's reminder time of its deadline,
                          once per deadline
battles_overdue(now=)     the minute tick: each open battle past its deadline, once per deadline
battle_deadline_move(...) the GM: a new deadline for an open battle, with a reason in the audit log

Each step is claimed first with a conditional update ("if num_updated != 1, another process got there
first"), so two beats act once; a moved deadline clears both claims, so the new one is met anew.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from django.db import transaction
from django.utils import timezone

from campaign.gm.access import audit_write
from campaign.models import Campaign, Turn
from campaign.selectors import Viewer
from rules import results_flow as flow
from rules.engine.messages import Message
from rules.models import TableBattle
from rules.system_shells import Deadlines, system_shell

logger = logging.getLogger(__name__)
Clock = Callable[[], datetime]


def _deadlines(campaign: Campaign) -> Deadlines | None:
    return system_shell(campaign.battle_system).deadlines


def _open() -> dict:
    """The battles whose deadline still counts: open, of a turn that waits for its battles."""
    return {
        "state": TableBattle.State.OPEN,
        "archived": False,
        "deadline__isnull": False,
        "turn__status": Turn.Status.BATTLES_PENDING,
    }


def battles_remind(*, now: Clock = timezone.now) -> int:
    """Queue the reminder of every open battle within its campaign's reminder time of its deadline, once.

    "24 hours before" is 24 real hours, computed in UTC; a campaign whose reminder time is 0 sends none.
    A battle with a confirmed result is resolved, not open."""
    moment = now()
    candidates = TableBattle.objects.filter(**_open(), reminded_at__isnull=True, deadline__gt=moment)
    before: dict[int, tuple[Deadlines | None, int]] = {}
    due = []
    for battle in candidates.select_related("turn__campaign"):
        campaign = battle.turn.campaign
        if campaign.pk not in before:
            deadlines = _deadlines(campaign)
            before[campaign.pk] = (deadlines, deadlines.reminder_hours(campaign) if deadlines else 0)
        deadlines, hours = before[campaign.pk]
        if hours and moment >= battle.deadline - timedelta(hours=hours):
            due.append((battle.pk, battle.deadline, deadlines))
    queued = 0
    with transaction.atomic():
        for pk, deadline, deadlines in due:
            claimed = TableBattle.objects.filter(pk=pk, deadline=deadline, reminded_at__isnull=True).update(
                reminded_at=moment
            )
            if claimed == 1:
                deadlines.remind(pk)
                queued += 1
    return queued


def battles_overdue(*, now: Clock = timezone.now) -> int:
    """Each open battle whose deadline has passed becomes overdue exactly once per deadline, however many
    beats run; its system then acts (tells its players and the GM; tabletop may decide it, A8.3)."""
    moment = now()
    due = TableBattle.objects.filter(**_open(), deadline__lte=moment, overdue_at__isnull=True)
    claimed = 0
    for pk, deadline in list(due.values_list("pk", "deadline")):
        try:
            claimed += _overdue_claim(pk, deadline, moment)
        except Exception:
            # The claim went with the decision: the next beat tries this battle again; the others go on.
            logger.exception("battle %s: its deadline's decision failed; the next beat tries again", pk)
    return claimed


def _overdue_claim(pk: int, deadline: datetime, moment: datetime) -> bool:
    """Claim one battle's deadline and act on it in one transaction, so that a claim is never left without
    its act: False when another beat got there first."""
    with transaction.atomic():
        won = TableBattle.objects.filter(pk=pk, deadline=deadline, overdue_at__isnull=True).update(
            overdue_at=moment
        )
        if won != 1:
            return False
        battle = TableBattle.objects.select_related("turn__campaign").get(pk=pk)
        deadlines = _deadlines(battle.turn.campaign)
        if deadlines is not None:
            deadlines.overdue(battle, moment)
    return True


def battle_deadline_move(
    *, viewer: Viewer, battle: TableBattle, deadline: datetime, reason: str, now: Clock = timezone.now
) -> None:
    """The GM moves an open battle's deadline (TABLETOP A8.1, A8.2 "extend the deadline"; COMPANY §5.2),
    logged with who, when and why in the campaign's audit log. It is met, or missed, and reminded anew."""
    if not viewer.is_gm:
        raise flow.refuse("gm_only")
    reason = (reason or "").strip()
    if not reason:
        raise flow.refuse("reason_missing")
    moment = now()
    if timezone.is_naive(deadline) or deadline <= moment:
        raise flow.refuse("deadline_not_future")
    with transaction.atomic():
        turn = Turn.objects.select_for_update().select_related("campaign").get(pk=battle.turn_id)
        battle.refresh_from_db()
        open_ = battle.state == TableBattle.State.OPEN and not battle.archived
        if not open_ or turn.status != Turn.Status.BATTLES_PENDING:
            raise flow.refuse("deadline_not_open", place=battle.key.partition(":")[2] or battle.key)
        before = battle.deadline
        battle.deadline, battle.overdue_at, battle.reminded_at = deadline, None, None
        battle.save(update_fields=["deadline", "overdue_at", "reminded_at"])
        summary = Message(
            "audit.battle_deadline",
            {
                "number": turn.number,
                "key": battle.key,
                "before": f"{before.astimezone(UTC):%Y-%m-%d %H:%M}" if before else "—",
                "after": f"{deadline.astimezone(UTC):%Y-%m-%d %H:%M}",
            },
        )
        audit_write(viewer.user, turn.campaign, "battle_deadline", summary, reason, lambda: moment)


# The minute tick's steps for every table system's battles (rules.system_shells.systems_tick).
TICK = (("battle reminder(s) queued", battles_remind), ("battle(s) overdue", battles_overdue))
