"""The GM's two rollbacks of a tabletop turn (TABLETOP.md A10.4), and completing it again (A9.4).

tabletop_rollback(turn_id=, by=, to="battles" | "orders", ...)
    battles: resolved -> battles_pending. The completion undone exactly: the world from the snapshot taken
             before it, the turn's row as its battles left it, every entry and saved round kept; the result
             archived, the next turn deleted. The GM reopens or corrects battles; the turn completes again.
    orders:  resolved or battles_pending -> open. The state before processing: orders kept, every battle
             with its versions and rounds archived (rules.tabletop.archive). Processed again, a battle equal
             to an archived one carries its confirmed result over (`carry_results_on_rollback`).
tabletop_turn_complete(turn_id=, by=)   the GM completes a pending turn whose every battle has an entry

GM only (PermissionDenied otherwise), audit-logged; a refusal is an InputError with a code.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from campaign.gm.access import User, audit_write, gm_check
from campaign.messages import status_word
from campaign.models import Turn
from campaign.queue import turn_queue
from rules import history
from rules.engine.messages import InputError, Message, gettext_noop, messages_register
from rules.models import TurnArchive, TurnSnapshot
from rules.tabletop.archive import battles_archive
from rules.tabletop.battles import turn_state

Clock = Callable[[], datetime]
KINDS = ("battles", "orders")

messages_register(
    {
        "tabletop_rollback.kind_unknown": gettext_noop(
            "'{kind}' is no kind of rollback: back to the battles, or back to the orders"
        ),
        "tabletop_rollback.not_resolved": gettext_noop(
            "turn {number} is {status}: only a resolved turn rolls back to its battles"
        ),
        "tabletop_rollback.not_processed": gettext_noop(
            "turn {number} is {status}: only a resolved turn or one waiting for its battles rolls back "
            "to its orders"
        ),
        "tabletop_rollback.no_battles": gettext_noop(
            "turn {number} never waited for its battles: roll it back to its orders"
        ),
        "tabletop_rollback.not_pending": gettext_noop(
            "turn {number} is {status}: only a turn waiting for its battles completes"
        ),
        "tabletop_rollback.battles_left": gettext_noop(
            "turn {number} still waits for the results of {battles}"
        ),
        "audit.rolled_back_to_battles": gettext_noop(
            "turn {number} rolled back to its battles; its result archived, its entries kept"
        ),
        "audit.rolled_back_to_orders": gettext_noop(
            "turn {number} rolled back to its orders; its result and battles archived"
        ),
        "audit.completed": gettext_noop("turn {number} completed by the GM"),
    }
)


def tabletop_rollback(
    *,
    turn_id: int,
    by: User,
    to: str,
    force: bool = False,
    reason: str = "",
    deadline: datetime | None = None,
    now: Clock = timezone.now,
) -> history.RollbackOutcome:
    """Roll a tabletop turn back to its battles or to its orders (A10.4); see the module's docstring."""
    turn = Turn.objects.select_related("campaign").get(pk=turn_id)
    gm_check(by=by, campaign=turn.campaign)
    if to not in KINDS:
        raise InputError.of("kind", "tabletop_rollback.kind_unknown", kind=to)
    if to == "battles":
        return _to_battles(turn_id=turn_id, by=by, force=force, reason=reason, now=now)
    if turn.status == Turn.Status.RESOLVED:
        # The shared rollback, which archives a tabletop turn's battles with its result.
        return history.turn_rollback(
            turn_id=turn_id, by=by, force=force, reason=reason, deadline=deadline, now=now
        )
    return _pending_to_orders(turn_id=turn_id, by=by, reason=reason, deadline=deadline, now=now)


def _locked(turn_id: int) -> Turn:
    return Turn.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=turn_id)


def _to_battles(*, turn_id: int, by: User, force: bool, reason: str, now: Clock) -> history.RollbackOutcome:
    with transaction.atomic():
        turn = _locked(turn_id)
        if turn.status != Turn.Status.RESOLVED:
            raise InputError.of(
                "turn", "tabletop_rollback.not_resolved", number=turn.number, status=status_word(turn.status)
            )
        snapshot = TurnSnapshot.objects.filter(turn=turn).first()
        if snapshot is not None and snapshot.turn_before is None:
            raise InputError.of("kind", "tabletop_rollback.no_battles", number=turn.number)
        before = snapshot.turn_before if snapshot is not None else {}
        archive, removed = history.turn_result_undo(turn=turn, by=by, force=force, reason=reason, now=now)
        archive.kind = "battles"
        archive.save(update_fields=["kind"])
        # The row as its battles left it; its deadline and claims are those it had then (completion
        # changes neither). Its battles, entries and rounds were never touched by the completion.
        turn.status = Turn.Status.BATTLES_PENDING
        turn.result = before["result"]
        turn.error = ""
        turn.processed_at = None
        turn.save(update_fields=["status", "result", "error", "processed_at"])
        audit_write(
            by,
            turn.campaign,
            "rollback",
            Message("audit.rolled_back_to_battles", {"number": turn.number}),
            reason,
            now,
        )
    return history.RollbackOutcome(turn=turn, archive=archive, removed=removed)


def _pending_to_orders(
    *, turn_id: int, by: User, reason: str, deadline: datetime | None, now: Clock
) -> history.RollbackOutcome:
    """A turn waiting for its battles has changed nothing in the world yet: its plan and battles are
    archived, and it is open as before processing."""
    with transaction.atomic():
        turn = _locked(turn_id)
        if turn.status != Turn.Status.BATTLES_PENDING:
            raise InputError.of(
                "turn", "tabletop_rollback.not_processed", number=turn.number, status=status_word(turn.status)
            )
        archive = TurnArchive.objects.create(
            turn=turn,
            result=turn.result or {},
            processed_at=turn.processed_at,
            archived_at=now(),
            archived_by=by if by.is_authenticated else None,
            reason=reason[:300],
        )
        battles_archive(turn=turn, archive=archive)
        history.turn_reopen(turn=turn, deadline=deadline, now=now)
        audit_write(
            by,
            turn.campaign,
            "rollback",
            Message("audit.rolled_back_to_orders", {"number": turn.number}),
            reason,
            now,
        )
    return history.RollbackOutcome(turn=turn, archive=archive, removed={})


def tabletop_turn_complete(*, turn_id: int, by: User, now: Clock = timezone.now) -> None:
    """The GM completes a turn waiting in battles_pending whose plan is complete (A9.4): after a rollback
    to its battles, or with `complete_automatically: false`. Queued, as the last entry queues it."""
    with transaction.atomic():
        turn = _locked(turn_id)
        gm_check(by=by, campaign=turn.campaign)
        if turn.status != Turn.Status.BATTLES_PENDING:
            raise InputError.of(
                "turn", "tabletop_rollback.not_pending", number=turn.number, status=status_word(turn.status)
            )
        state, _ = turn_state(turn=turn)
        if state.status != "complete":
            left = [*state.open, *state.waiting]
            raise InputError.of(
                "turn", "tabletop_rollback.battles_left", number=turn.number, battles=", ".join(left)
            )
        audit_write(
            by, turn.campaign, "process", Message("audit.completed", {"number": turn.number}), "", now
        )
        turn_queue(turn_id=turn.pk)
