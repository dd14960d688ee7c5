"""The GM's power over the clock: the deadline, pausing and resuming, more time, the life-cycle settings.

Deadlines are stored in UTC and computed in UTC; the audit log gives them in UTC too.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.db import transaction
from django.utils import timezone

from campaign.gm.access import Clock, User, audit_write, gm_check, open_check
from campaign.messages import duration, parts, status_word
from campaign.models import DEADLINE_HORIZON, Campaign, Turn
from rules.engine.messages import InputError, Message


def deadline_horizon_check(*, field: str, deadline: datetime, moment: datetime) -> None:
    """A deadline every reader can be shown: within DEADLINE_HORIZON of now."""
    if deadline - moment > DEADLINE_HORIZON:
        raise InputError.of(field, "deadline_too_far", years=DEADLINE_HORIZON.days // 365)


def deadline_set(*, by: User, turn: Turn, deadline: datetime, now: Clock = timezone.now) -> Turn:
    gm_check(by=by, campaign=turn.campaign)
    if timezone.is_naive(deadline):
        raise InputError.of("deadline", "deadline_naive")
    open_check(turn)
    moment = now()
    if deadline <= moment:
        raise InputError.of("deadline", "deadline_not_future")
    deadline_horizon_check(field="deadline", deadline=deadline, moment=moment)
    with transaction.atomic():
        before = turn.deadline
        turn.deadline = deadline
        turn.save(update_fields=["deadline"])
        audit_write(
            by,
            turn.campaign,
            "deadline",
            Message(
                "audit.deadline",
                {"number": turn.number, "before": f"{before:%Y-%m-%d %H:%M}", "after": _utc(deadline)},
            ),
            "",
            now,
        )
    return turn


def deadline_extend(
    *, turn: Turn, by: User, extra: timedelta, reason: str = "", now: Clock = timezone.now
) -> Turn:
    """Give the open turn `extra` more time; while paused, the time left when the clock restarts."""
    gm_check(by=by, campaign=turn.campaign)
    if extra <= timedelta(0):
        raise InputError.of("extra", "extend_positive")
    with transaction.atomic():
        turn = Turn.objects.select_for_update().select_related("campaign").get(pk=turn.pk)
        if turn.status != Turn.Status.OPEN:
            raise InputError.of(
                "turn", "deadline_past_use", number=turn.number, status=status_word(turn.status)
            )
        campaign, moment = turn.campaign, now()
        if campaign.paused_at is not None:
            campaign.paused_remaining = (campaign.paused_remaining or timedelta(0)) + extra
            deadline_horizon_check(field="extra", deadline=moment + campaign.paused_remaining, moment=moment)
            campaign.save(update_fields=["paused_remaining"])
            summary = Message(
                "audit.extended_paused",
                {
                    "number": turn.number,
                    "extra": duration(extra),
                    "left": duration(campaign.paused_remaining),
                },
            )
        else:
            turn.deadline += extra
            if turn.deadline <= moment:
                raise InputError.of("extra", "extended_still_past")
            deadline_horizon_check(field="extra", deadline=turn.deadline, moment=moment)
            turn.save(update_fields=["deadline"])
            summary = Message(
                "audit.extended",
                {"number": turn.number, "extra": duration(extra), "due": _utc(turn.deadline)},
            )
        audit_write(by, campaign, "deadline", summary, reason, lambda: moment)
    return turn


def campaign_pause(*, campaign: Campaign, by: User, reason: str = "", now: Clock = timezone.now) -> Campaign:
    """Stop the clock: the open turn's time left is kept, and the deadline neither reminds nor processes."""
    with transaction.atomic():
        campaign, turn, moment = _clock_locked(campaign, by=by, paused=False, now=now)
        if turn is None:
            remaining, summary = None, Message("audit.paused_no_turn")
        else:
            remaining = max(turn.deadline - moment, timedelta(0))
            summary = Message("audit.paused", {"left": duration(remaining)})
        _clock_save(campaign, paused_at=moment, remaining=remaining)
        audit_write(by, campaign, "pause", summary, reason, lambda: moment)
    return campaign


def campaign_resume(*, campaign: Campaign, by: User, reason: str = "", now: Clock = timezone.now) -> Campaign:
    """Restart the clock: the open turn's deadline is now plus the time it had left when paused."""
    with transaction.atomic():
        campaign, turn, moment = _clock_locked(campaign, by=by, paused=True, now=now)
        summary = Message("audit.resumed")
        if turn is not None and campaign.paused_remaining is not None:
            turn.deadline = moment + campaign.paused_remaining
            turn.save(update_fields=["deadline"])
            summary = Message("audit.resumed_due", {"number": turn.number, "due": _utc(turn.deadline)})
        _clock_save(campaign, paused_at=None, remaining=None)
        audit_write(by, campaign, "resume", summary, reason, lambda: moment)
    return campaign


def _clock_locked(
    campaign: Campaign, *, by: User, paused: bool, now: Clock
) -> tuple[Campaign, Turn | None, datetime]:
    """Where pausing and resuming start: the GM's check, then the campaign's row, locked till the
    transaction ends and checked to be paused (or not), with its open turn and the moment."""
    gm_check(by=by, campaign=campaign)
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if (campaign.paused_at is not None) != paused:
        raise InputError.of("paused", "not_paused" if paused else "already_paused")
    return campaign, _turn_open(campaign), now()


def _clock_save(campaign: Campaign, *, paused_at: datetime | None, remaining: timedelta | None) -> None:
    """The clock stopped at `paused_at` with `remaining` left on the open turn; running again with None."""
    campaign.paused_at, campaign.paused_remaining = paused_at, remaining
    campaign.save(update_fields=["paused_at", "paused_remaining"])


def lifecycle_settings_set(
    *,
    campaign: Campaign,
    by: User,
    process_early: bool | None = None,
    reminder_before: timedelta | None = None,
    civil_disorder_after: int | None = None,
    now: Clock = timezone.now,
) -> Campaign:
    """The GM's settings of the life cycle; None leaves a setting as it is."""
    gm_check(by=by, campaign=campaign)
    if reminder_before is not None and reminder_before < timedelta(0):
        raise InputError.of("reminder_before", "reminder_negative")
    if civil_disorder_after is not None and civil_disorder_after < 0:
        raise InputError.of("civil_disorder_after", "disorder_negative")
    changes = {
        name: value
        for name, value in (
            ("process_early", process_early),
            ("reminder_before", reminder_before),
            ("civil_disorder_after", civil_disorder_after),
        )
        if value is not None and getattr(campaign, name) != value
    }
    if not changes:
        return campaign
    with transaction.atomic():
        for name, value in changes.items():
            setattr(campaign, name, value)
        campaign.save(update_fields=list(changes))
        words = {
            "process_early": lambda v: Message("audit.process_early_on" if v else "audit.process_early_off"),
            "reminder_before": lambda v: (
                Message("audit.reminder", {"before": duration(v)}) if v else Message("audit.no_reminder")
            ),
            "civil_disorder_after": lambda v: (
                Message("audit.disorder_after", {"count": v}) if v else Message("audit.no_disorder")
            ),
        }
        summary = parts([words[n](v) for n, v in changes.items()])
        audit_write(by, campaign, "lifecycle", summary, "", now)
    return campaign


def _utc(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M}"


def _turn_open(campaign: Campaign) -> Turn | None:
    return Turn.objects.filter(campaign=campaign, status=Turn.Status.OPEN).first()
