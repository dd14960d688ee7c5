"""Work handed to Celery, each piece once: the claims that make it once, and the queueing by task name.

Every piece of background work is claimed first with a conditional update ("if num_updated != 1,
another process got there first"), so two beats, a beat and the GM, or a redelivered message do it once:

  turn_queue_claim(turn_id=, now=)     queued_at set from empty: the turn is queued for processing once
  turns_due_queue(now=)                beat: every open turn past its deadline
  turns_early_queue(now=)              beat: the turns of campaigns that process early, once all are in
  turns_remind(now=)                   beat: reminded_at set from empty, then the reminder mails
  turn_reopen(turn_id=)                failed -> open, the claim cleared so the deadline can queue it again
  turn_retry(turn_id=)                 reopen and queue: the GM's retry of a failed turn
  turn_queue(turn_id=)                 processing, once the caller's transaction commits (queued_at set);
                                       BrokerAway, at once, when the broker does not answer
  turns_stale_requeue(now=, after=)    beat: queue again the open turns queued long ago that no one holds
  turn_fault_record(turn_id=, reason=) the task: the database went away mid-turn; it will try again
  tick_record(now=)                    beat: the minute tick ran (the health check reads it)
  turn_results_queue(turn_id=)         the results mails, once the resolved turn commits

A broker (Redis) that does not answer is given about a second (config/settings.py, the publish's
connect timeout and retry policy), then the turn is not left marked as queued: its claim is cleared and
the fault said on the turn, so the deadline's tick queues it again as soon as the broker is back, and the
GM who asked hears it at once (BrokerAway: the page's message, the API's 503), instead of a 500 after
twenty seconds and a turn that only the sweeper would find, minutes later.

Nothing is lost when something dies (a worker killed mid-turn, the broker restarted with jobs in it, the
database restarted under a running turn): a turn's work is one transaction, so it is either done or not at
all, and an open turn whose `queued_at` is older than IRONFIST_REQUEUE_AFTER_SECONDS while no transaction
holds its row is queued again by the sweeper, as often as needed. A duplicate job finds the turn resolved
and exits; the turn is resolved once.

(The claim of the turn itself, open -> processing, is the first step of `rules.services.turn_process`,
under the turn's row lock.)

The world's services queue a task by its name and never import it: the tasks live in the shells above
them (`rules.tasks`, `campaign.tasks`, `frontend.tasks`: the mails are rendered and sent by the
interface layer), so imports point one way (the import-linter contract in .importlinter). Each app's
`AppConfig.ready` imports its tasks module, so a name is known in every process, and a name that is not
fails here, in the caller's transaction, rather than on a worker.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from celery import current_app
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from campaign.models import Campaign, Heartbeat, Membership, Nation, Turn
from campaign.selectors import orders_given
from rules.engine.messages import (
    ErrorKind,
    Fault,
    Message,
    Refusal,
    gettext_noop,
    kinds_register,
    messages_register,
)

logger = logging.getLogger(__name__)
Clock = Callable[[], datetime]

messages_register(
    {
        # What happened to a turn on its way, for the GM's dashboard (Turn.fault).
        "queue.requeued": gettext_noop("queued again: no progress since {since} UTC"),
        "queue.database_away": gettext_noop("database unavailable, retry {retry}: {error}"),
        "queue.broker_away": gettext_noop(
            "not queued: the task queue did not answer at {at} UTC; the deadline queues it once it is back"
        ),
        # What the GM who asked hears at once (the page's message, the API's 503).
        "queue.broker_unavailable": gettext_noop(
            "The turn was not queued: the task queue (Redis) does not answer. Try again in a minute."
        ),
    }
)
kinds_register(ErrorKind.UNAVAILABLE, ["queue.broker_unavailable"])

PROCESS_TURN = "rules.tasks.process_turn"
SEND_TURN_RESULTS = "frontend.tasks.send_turn_results"
SEND_TURN_REMINDERS = "frontend.tasks.send_turn_reminders"


class BrokerAway(Refusal):
    """The broker did not answer: the turn was not queued. The GM's page says so; the API answers 503 in
    the one error envelope (campaign.api_errors), with a Retry-After of a tick."""

    def __init__(self) -> None:
        self.message = Message("queue.broker_unavailable", {})
        super().__init__([Fault("broker_unavailable", self.message)])


def task_queue(name: str, *args: object, robust: bool = False) -> None:
    """Queue the task called `name` once the current transaction commits, so the worker sees what the
    caller wrote. `robust`: an error in queueing is logged, not raised (a mail must not undo a turn)."""
    task = current_app.tasks[name]  # KeyError: no app registered a task of that name
    transaction.on_commit(lambda: _send(task, args), robust=robust)


def _send(task, args: tuple) -> None:
    """Send the task; BrokerError when Redis does not answer, within about a second (the connect timeouts
    and retry policies in config/settings.py)."""
    if task.app.conf.task_always_eager:
        task.delay(*args)  # in process (`make run`, the tests): no broker, and the task's errors are its own
        return
    try:
        task.delay(*args)
    except RuntimeError as error:
        # The result store (the same Redis) is asked first, to follow the task's result, and says that it
        # gave up on Redis with a RuntimeError; a send runs none of the task's code, so it means only that.
        raise BrokerError(str(error).strip()) from error


def turn_queue(*, turn_id: int, now: Clock = timezone.now) -> None:
    """Queue the turn's processing once the current transaction commits. `queued_at` says since when
    (the deadline's claim has set it already), so that the sweeper sees a job that never got done.

    When the broker does not answer, the claim is cleared and BrokerAway raised (turn_send)."""
    Turn.objects.filter(pk=turn_id, status=Turn.Status.OPEN, queued_at__isnull=True).update(queued_at=now())
    current_app.tasks[PROCESS_TURN]  # noqa: B018 -- a name no app registered fails here, in the transaction
    transaction.on_commit(lambda: turn_send(turn_id=turn_id))


def turn_send(*, turn_id: int, tell: bool = True, now: Clock = timezone.now) -> bool:
    """Send the turn's job to the broker (after the commit). When the broker does not answer, the turn is
    left unqueued, with the fault on it for the GM's dashboard, and the deadline's tick claims it again
    once the broker is back; then BrokerAway, for the GM who asked (`tell`), or False, for a beat."""
    try:
        _send(current_app.tasks[PROCESS_TURN], (turn_id,))
        return True
    except BrokerError as error:
        moment = now()
        fault = Message("queue.broker_away", {"at": f"{moment.astimezone(UTC):%Y-%m-%d %H:%M:%S}"})
        Turn.objects.filter(pk=turn_id, status=Turn.Status.OPEN).update(
            queued_at=None, fault=fault.to_dict(), fault_at=moment
        )
        logger.warning("turn %s: not queued, the broker does not answer: %s", turn_id, error)
        if tell:
            raise BrokerAway() from error
        return False


def turns_stale_requeue(*, now: Clock = timezone.now, after: timedelta | None = None) -> int:
    """Queue again every open turn queued more than `after` ago that no transaction is processing.

    Its job was lost: the worker died with it, the broker restarted without it, or the task gave up while
    the database was away. A turn being processed holds its row lock, so `skip_locked` leaves it to its
    worker; a turn merely waiting behind others in the queue gets a second job, which finds it resolved
    and exits. Run every minute by beat (and `manage.py lifecycle_tick`).
    """
    moment = now()
    after = after if after is not None else timedelta(seconds=settings.IRONFIST_REQUEUE_AFTER_SECONDS)
    requeued = 0
    with transaction.atomic():
        stale = (
            Turn.objects.select_for_update(skip_locked=True)
            .filter(status=Turn.Status.OPEN, queued_at__lte=moment - after)
            .values_list("pk", "queued_at")
        )
        for turn_id, queued_at in list(stale):
            since = f"{queued_at.astimezone(UTC):%Y-%m-%d %H:%M:%S}"
            Turn.objects.filter(pk=turn_id).update(
                queued_at=moment,
                requeues=F("requeues") + 1,
                fault=Message("queue.requeued", {"since": since}).to_dict(),
                fault_at=moment,
            )
            logger.warning("turn %s: queued at %s and not done; queued again", turn_id, queued_at)
            transaction.on_commit(lambda turn_id=turn_id: turn_send(turn_id=turn_id, tell=False))
            requeued += 1
    return requeued


def turn_fault_record(*, turn_id: int, reason: Message, now: Clock = timezone.now) -> bool:
    """Say on the turn what went wrong on the way (the GM's dashboard shows it), in a transaction of its
    own on a fresh connection: the one the turn ran on may be what broke. False when even that fails."""
    try:
        if not connection.in_atomic_block:
            # A connection broken with the database is dropped; the next query opens a new one.
            connection.close_if_unusable_or_obsolete()
        with transaction.atomic():
            Turn.objects.filter(pk=turn_id, status=Turn.Status.OPEN).update(
                requeues=F("requeues") + 1, fault=reason.to_dict(), fault_at=now()
            )
        return True
    except DatabaseError:
        logger.warning("turn %s: could not record %r: the database is still away", turn_id, str(reason))
        return False


def tick_record(*, name: str = "tick", now: Clock = timezone.now) -> None:
    """The minute tick ran (beat or cron): the health check says when it last did."""
    Heartbeat.objects.update_or_create(name=name, defaults={"at": now()})


def turn_results_queue(*, turn_id: int) -> None:
    """Queue every member's results mail once the resolved turn commits; a failure to queue is logged."""
    task_queue(SEND_TURN_RESULTS, turn_id, robust=True)


def turn_queue_claim(*, turn_id: int, now: datetime) -> bool:
    """Claim an open turn for queueing; False when another beat (or an earlier check) got there first.

    A reopened turn has its claim cleared (turn_reopen), so the deadline can queue it again.
    """
    return (
        Turn.objects.filter(pk=turn_id, status=Turn.Status.OPEN, queued_at__isnull=True).update(queued_at=now)
        == 1
    )


def turns_due_queue(*, now: Clock = timezone.now) -> int:
    """Queue every open turn whose deadline has passed, once; Celery beat runs this every minute.

    Each turn is claimed first (turn_queue_claim), so two beats running at once queue it once. A paused
    campaign's deadline is frozen: its turn waits for the GM to resume.
    """
    moment = now()
    due = list(
        Turn.objects.filter(
            status=Turn.Status.OPEN,
            deadline__lte=moment,
            queued_at__isnull=True,
            campaign__paused_at__isnull=True,
        )
        .order_by("deadline")
        .values_list("pk", flat=True)
    )
    return _claimed_queue(due, moment)


def turns_early_queue(*, now: Clock = timezone.now) -> int:
    """Queue, once, the open turns of campaigns that process early and whose active nations all have
    orders in. Run every minute by Celery beat, so a player entering several orders one after another has
    a minute's grace; a paused campaign waits. One query finds them, one claim per turn queues each.
    """
    moment = now()
    candidates = Turn.objects.filter(
        status=Turn.Status.OPEN,
        queued_at__isnull=True,
        campaign__process_early=True,
        campaign__status=Campaign.Status.ACTIVE,
        campaign__paused_at__isnull=True,
    )
    active = _active_nations().filter(campaign_id=OuterRef("campaign_id"))
    has_orders = orders_given(turn=OuterRef(OuterRef("pk")), nation=OuterRef("pk"))
    # Ready: the campaign has active nations, and none of them is without orders.
    ready = list(
        candidates.filter(Exists(active))
        .exclude(Exists(active.exclude(has_orders)))
        .values_list("pk", flat=True)
    )
    return _claimed_queue(ready, moment, "every nation is in, processing early")


def _claimed_queue(turn_ids: list[int], moment: datetime, why: str = "") -> int:
    """Claim and queue each turn, each sent as its claim commits; those another beat claimed first are
    left to it. A broker that does not answer stops the round: the turns not sent stay unclaimed, for
    the next tick."""
    queued = 0
    for turn_id in turn_ids:
        try:
            with transaction.atomic():
                # Looked up by name at each call, so that a test can stand in for the claim or the queueing.
                if not turn_queue_claim(turn_id=turn_id, now=moment):
                    continue
                if why:
                    logger.info("turn %s: %s", turn_id, why)
                turn_queue(turn_id=turn_id)
        except BrokerAway:
            break
        queued += 1
    return queued


def _active_nations():
    """Nations with a player that are not in civil disorder: the ones whose orders a turn waits for."""
    players = Membership.objects.filter(nation=OuterRef("pk"), role=Membership.Role.PLAYER)
    return Nation.objects.filter(civil_disorder=False).filter(Exists(players))


def turns_remind(*, now: Clock = timezone.now) -> int:
    """Queue the reminders of every open turn within its campaign's reminder time of the deadline, once.

    Run every minute by Celery beat. "12 hours before" is 12 real hours, computed in UTC, whatever the
    players' clocks do in between (a daylight-saving change makes it 11 or 13 hours on the wall clock).
    """
    moment = now()
    candidates = (
        Turn.objects.filter(
            status=Turn.Status.OPEN,
            reminded_at__isnull=True,
            deadline__gt=moment,
            campaign__status=Campaign.Status.ACTIVE,
            campaign__paused_at__isnull=True,
        )
        .select_related("campaign")
        .only("pk", "deadline", "campaign__reminder_before")
    )
    due = [
        t.pk
        for t in candidates
        if t.campaign.reminder_before and moment >= t.deadline - t.campaign.reminder_before
    ]
    queued = 0
    with transaction.atomic():
        for turn_id in due:
            claimed = Turn.objects.filter(pk=turn_id, reminded_at__isnull=True).update(reminded_at=moment)
            if claimed == 1:
                task_queue(SEND_TURN_REMINDERS, turn_id, robust=True)
                queued += 1
    return queued


def turn_reopen(*, turn_id: int) -> bool:
    """Reopen a failed turn (the GM has read the error). False when the turn was not failed."""
    return (
        Turn.objects.filter(pk=turn_id, status=Turn.Status.FAILED).update(
            status=Turn.Status.OPEN, error="", queued_at=None, fault={}, fault_at=None, requeues=0
        )
        == 1
    )


def turn_retry(*, turn_id: int) -> bool:
    """Reopen a failed turn and queue it again. False when the turn was not failed."""
    with transaction.atomic():
        reopened = turn_reopen(turn_id=turn_id)
        if reopened:
            turn_queue(turn_id=turn_id)
    return reopened
