"""The play-by-mail life cycle: deadlines, reminders, processing early, pausing, missed turns.

Deadlines are stored in UTC and every computation here is in UTC; only what a user reads is in their own
time zone (`time_zone_of`). Work that Celery beat does (queueing a due turn, sending its reminders) is
claimed with a conditional update first, so two beats running at once do it once.

Services (writes)
  turn_queue_claim(turn_id=, now=)                  the once-only claim before a turn is queued
  turns_remind(now=)                                beat: queue the reminders of turns near their deadline
  turns_early_queue(now=)                           beat: process now when every nation is in
  turn_resolved(turn=)                              turn processing: count missed turns, queue the results
  campaign_pause / campaign_resume(campaign=, by=)  the GM stops and restarts the clock
  deadline_extend(turn=, by=, extra=)               the GM gives more time
  lifecycle_settings_set(campaign=, by=, ...)       process early, reminder time, civil disorder after
  nation_assign(campaign=, nation=, user=, by=)     the GM gives a nation a (new) player
  time_zone_set(user=, time_zone=)                  a user's own time zone
Selectors (reads)
  nations_missed(campaign=, turn=)                  the GM's table: players, submitted, missed, disorder
  campaign_clock(campaign=, turn=, now=)            deadline, time left, paused, reminder, process early
  time_zone_of(user=)                               the user's ZoneInfo (UTC by default)
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Case, Exists, F, OuterRef, Value, When
from django.utils import timezone
from django.utils.translation import ngettext, ngettext_lazy

from campaign.gm_services import audit_write, gm_check
from campaign.messages import duration, parts, status_word
from campaign.models import Campaign, Membership, Nation, Profile, Turn
from orders.models import Order
from rules.engine.messages import InputError, Message

logger = logging.getLogger(__name__)

Clock = Callable[[], datetime]
User = AbstractBaseUser | AnonymousUser
UTC = ZoneInfo("UTC")


# --- Queueing, once -------------------------------------------------------------------------------------


def turn_queue_claim(*, turn_id: int, now: datetime) -> bool:
    """Claim an open turn for queueing; False when another beat (or an earlier check) got there first.

    A reopened turn has its claim cleared (rules.services.turn_reopen), so the deadline can queue it again.
    """
    return (
        Turn.objects.filter(pk=turn_id, status=Turn.Status.OPEN, queued_at__isnull=True).update(queued_at=now)
        == 1
    )


def _turn_queue(turn_id: int) -> None:
    # Imported here: rules.services calls this module from turn processing.
    from rules.services import turn_queue

    turn_queue(turn_id=turn_id)


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
    has_orders = Order.objects.filter(turn_id=OuterRef(OuterRef("pk")), nation_id=OuterRef("pk"))
    # Ready: the campaign has active nations, and none of them is without orders.
    ready = list(
        candidates.filter(Exists(active))
        .exclude(Exists(active.exclude(Exists(has_orders))))
        .values_list("pk", flat=True)
    )
    queued = 0
    with transaction.atomic():
        for turn_id in ready:
            if turn_queue_claim(turn_id=turn_id, now=moment):
                logger.info("turn %s: every nation is in, processing early", turn_id)
                _turn_queue(turn_id)
                queued += 1
    return queued


def _active_nations():
    """Nations with a player that are not in civil disorder: the ones whose orders a turn waits for."""
    players = Membership.objects.filter(nation=OuterRef("pk"), role=Membership.Role.PLAYER)
    return Nation.objects.filter(civil_disorder=False).filter(Exists(players))


# --- Reminders (Celery beat) ----------------------------------------------------------------------------


def turns_remind(*, now: Clock = timezone.now) -> int:
    """Queue the reminders of every open turn within its campaign's reminder time of the deadline, once.

    Run every minute by Celery beat. "12 hours before" is 12 real hours, computed in UTC, whatever the
    players' clocks do in between (a daylight-saving change makes it 11 or 13 hours on the wall clock).
    """
    from campaign.tasks import send_turn_reminders  # the tasks module imports this one

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
                transaction.on_commit(partial(send_turn_reminders.delay, turn_id), robust=True)
                queued += 1
    return queued


# --- After a turn is resolved (called by rules.services, in its transaction) ------------------------------


def turn_resolved(*, turn: Turn) -> None:
    """Count the turn's missed orders and queue each player's results mail once the turn commits.

    A failed send never undoes a turn: the mail is another task, queued after the commit, and an error in
    queueing it is logged, not raised (robust).
    """
    from campaign.tasks import send_turn_results  # the tasks module imports this one

    nations_missed_count(turn=turn)
    if turn.campaign.paused_at is not None:
        # Processed by hand while paused: the next turn starts with its whole length when resumed.
        Campaign.objects.filter(pk=turn.campaign_id).update(paused_remaining=F("turn_length"))
    transaction.on_commit(partial(send_turn_results.delay, turn.pk), robust=True)


def nations_missed_count(*, turn: Turn) -> None:
    """A nation with a player and no orders this turn missed it (its units held); one with orders did not.

    Two statements for any number of nations. After `civil_disorder_after` misses in a row the nation
    falls into civil disorder: it holds and defends, and takes no orders until the GM assigns a player.
    """
    campaign = turn.campaign
    submitted = Exists(Order.objects.filter(turn=turn, nation=OuterRef("pk")))
    players = Exists(Membership.objects.filter(nation=OuterRef("pk"), role=Membership.Role.PLAYER))
    nations = Nation.objects.filter(campaign_id=campaign.pk).filter(players)
    nations.update(
        turns_missed=F("turns_missed") + Case(When(submitted, then=Value(0)), default=Value(1)),
        turns_missed_in_row=Case(When(submitted, then=Value(0)), default=F("turns_missed_in_row") + 1),
    )
    if campaign.civil_disorder_after:
        nations.filter(civil_disorder=False, turns_missed_in_row__gte=campaign.civil_disorder_after).update(
            civil_disorder=True
        )


# --- The GM's clock -------------------------------------------------------------------------------------


def campaign_pause(*, campaign: Campaign, by: User, reason: str = "", now: Clock = timezone.now) -> Campaign:
    """Stop the clock: the open turn's time left is kept, and the deadline neither reminds nor processes."""
    gm_check(user=by, campaign=campaign)
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if campaign.paused_at is not None:
            raise InputError.of("paused", "already_paused")
        moment = now()
        turn = _turn_open(campaign)
        remaining = max(turn.deadline - moment, timedelta(0)) if turn is not None else None
        campaign.paused_at, campaign.paused_remaining = moment, remaining
        campaign.save(update_fields=["paused_at", "paused_remaining"])
        summary = (
            Message("audit.paused", {"left": duration(remaining)})
            if remaining is not None
            else Message("audit.paused_no_turn")
        )
        _audit(by, campaign, "pause", summary, reason, moment)
    return campaign


def campaign_resume(*, campaign: Campaign, by: User, reason: str = "", now: Clock = timezone.now) -> Campaign:
    """Restart the clock: the open turn's deadline is now plus the time it had left when paused."""
    gm_check(user=by, campaign=campaign)
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if campaign.paused_at is None:
            raise InputError.of("paused", "not_paused")
        moment = now()
        turn = _turn_open(campaign)
        summary = Message("audit.resumed")
        if turn is not None and campaign.paused_remaining is not None:
            turn.deadline = moment + campaign.paused_remaining
            turn.save(update_fields=["deadline"])
            summary = Message("audit.resumed_due", {"number": turn.number, "due": _utc(turn.deadline)})
        campaign.paused_at, campaign.paused_remaining = None, None
        campaign.save(update_fields=["paused_at", "paused_remaining"])
        _audit(by, campaign, "resume", summary, reason, moment)
    return campaign


def deadline_extend(
    *, turn: Turn, by: User, extra: timedelta, reason: str = "", now: Clock = timezone.now
) -> Turn:
    """Give the open turn `extra` more time; while paused, the time left when the clock restarts."""
    gm_check(user=by, campaign=turn.campaign)
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
            turn.save(update_fields=["deadline"])
            summary = Message(
                "audit.extended",
                {"number": turn.number, "extra": duration(extra), "due": _utc(turn.deadline)},
            )
        _audit(by, campaign, "deadline", summary, reason, moment)
    return turn


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
    gm_check(user=by, campaign=campaign)
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
        _audit(by, campaign, "lifecycle", summary, "", now())
    return campaign


def nation_assign(
    *, campaign: Campaign, nation: Nation, user: AbstractBaseUser, by: User, now: Clock = timezone.now
) -> Membership:
    """Make `user` the player of `nation`, in place of its players; this ends its civil disorder."""
    gm_check(user=by, campaign=campaign)
    if nation.campaign_id != campaign.pk:
        raise InputError.of("nation", "not_in_campaign", code=nation.code)
    with transaction.atomic():
        other = Membership.objects.filter(campaign=campaign, user=user).exclude(nation=nation).first()
        if other is not None:
            if other.role == Membership.Role.GM:
                raise InputError.of("user", "user_runs", user=str(user))
            raise InputError.of("user", "user_plays", user=str(user), nation=other.nation.code)
        before = list(
            Membership.objects.filter(nation=nation)
            .exclude(user=user)
            .values_list("user__username", flat=True)
        )
        Membership.objects.filter(nation=nation).exclude(user=user).delete()
        membership, _ = Membership.objects.get_or_create(
            campaign=campaign, user=user, defaults={"role": Membership.Role.PLAYER, "nation": nation}
        )
        Nation.objects.filter(pk=nation.pk).update(civil_disorder=False, turns_missed_in_row=0)
        nation.civil_disorder, nation.turns_missed_in_row = False, 0
        summary = Message(
            "audit.assigned_instead" if before else "audit.assigned",
            {"nation": nation.code, "user": str(user), "before": ", ".join(before)},
        )
        _audit(by, campaign, "roster", summary, "", now())
    return membership


def time_zone_set(*, user: AbstractBaseUser, time_zone: str) -> Profile:
    """The user's own time zone, an IANA name like Europe/Helsinki; deadlines stay stored in UTC."""
    profile, _ = Profile.objects.get_or_create(user=user)
    profile.time_zone = time_zone
    try:
        profile.full_clean()
    except ValidationError as error:
        raise InputError.of("time_zone", "unknown_time_zone", time_zone=time_zone) from error
    profile.save(update_fields=["time_zone"])
    return profile


def language_set(*, user: AbstractBaseUser, language: str) -> None:
    """The language the user's mails are written in: the one they chose on the web (one of LANGUAGES)."""
    if language not in dict(settings.LANGUAGES):
        raise InputError.of("language", "unknown_language", language=language)
    Profile.objects.update_or_create(user=user, defaults={"language": language})


def _turn_open(campaign: Campaign) -> Turn | None:
    return Turn.objects.filter(campaign=campaign, status=Turn.Status.OPEN).first()


def _audit(user: User, campaign: Campaign, action: str, summary: Message, reason: str, at: datetime) -> None:
    # The GM's audit log, written as the GM's other inputs write it.
    audit_write(user, campaign, action, summary, reason, lambda: at)


def _utc(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M}"


# --- Reads ----------------------------------------------------------------------------------------------


def time_zone_of(*, user: AbstractBaseUser | AnonymousUser) -> ZoneInfo:
    """The zone a user reads times in: their profile's, UTC when they have none (or it is unknown)."""
    if not user.is_authenticated:
        return UTC
    name = Profile.objects.filter(user=user).values_list("time_zone", flat=True).first()
    try:
        return ZoneInfo(name) if name else UTC
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def language_first_seen(*, user: AbstractBaseUser, language: str) -> None:
    """The language a user's browser asked for at login, kept for their mails unless they chose one."""
    if language == settings.LANGUAGE_CODE or language not in dict(settings.LANGUAGES):
        return  # the default needs no row
    profile, created = Profile.objects.get_or_create(user=user, defaults={"language": language})
    if not created and not profile.language:
        Profile.objects.filter(pk=profile.pk, language="").update(language=language)


def language_of(*, user: AbstractBaseUser) -> str:
    """The language to write to a user in: their profile's, the site's default when they have none."""
    name = Profile.objects.filter(user=user).values_list("language", flat=True).first()
    return name if name in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def nations_missed(*, campaign: Campaign, turn: Turn | None) -> list[dict[str, Any]]:
    """For the GM's dashboard, one row per nation: players, submitted this turn, missed turns, disorder.

    Three queries for any number of nations.
    """
    submitted = set()
    if turn is not None:
        submitted = set(Order.objects.filter(turn=turn).values_list("nation_id", flat=True).distinct())
    players: dict[int, list[str]] = {}
    for nation_id, username in Membership.objects.filter(
        campaign=campaign, role=Membership.Role.PLAYER
    ).values_list("nation_id", "user__username"):
        players.setdefault(nation_id, []).append(username)
    return [
        {
            "nation": nation,
            "players": sorted(players.get(nation.pk, [])),
            "submitted": nation.pk in submitted,
            "turns_missed": nation.turns_missed,
            "turns_missed_in_row": nation.turns_missed_in_row,
            "civil_disorder": nation.civil_disorder,
            "disorder_in": (
                max(campaign.civil_disorder_after - nation.turns_missed_in_row, 0)
                if campaign.civil_disorder_after and not nation.civil_disorder
                else None
            ),
        }
        for nation in Nation.objects.filter(campaign=campaign).order_by("position")
    ]


def campaign_clock(*, campaign: Campaign, turn: Turn | None, now: Clock = timezone.now) -> dict[str, Any]:
    """The deadline as the GM's dashboard shows it: when, how long left, paused, reminder, process early."""
    moment = now()
    paused = campaign.paused_at is not None
    left = None
    if turn is not None:
        left = campaign.paused_remaining if paused else max(turn.deadline - moment, timedelta(0))
    return {
        "deadline": turn.deadline if turn is not None and not paused else None,
        "time_left": left,
        "time_left_words": _duration_words(left) if left is not None else "",
        "paused": paused,
        "paused_at": campaign.paused_at,
        "reminder_before": campaign.reminder_before,
        "reminded": turn is not None and turn.reminded_at is not None,
        "process_early": campaign.process_early,
        "civil_disorder_after": campaign.civil_disorder_after,
    }


def _duration_words(left: timedelta | None) -> str:
    """ "2 days 3 hours", "12 hours", "45 minutes": rounded to the minute, the two largest units."""
    if left is None:
        return ""
    minutes = round(left.total_seconds() / 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    # The words of campaign.mail.due_in_words, so that one translation serves both.
    units = (
        (days, ngettext_lazy("%(count)s day", "%(count)s days", "count")),
        (hours, ngettext_lazy("%(count)s hour", "%(count)s hours", "count")),
        (minutes, ngettext_lazy("%(count)s minute", "%(count)s minutes", "count")),
    )
    parts = [words % {"count": n} for n, words in units if n]
    return " ".join(parts[:2]) or ngettext("%(count)s minute", "%(count)s minutes", 0) % {"count": 0}
