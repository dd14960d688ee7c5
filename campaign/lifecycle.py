"""The play-by-mail life cycle around a turn: missed turns and civil disorder, the GM's view of the clock
and the players, and each user's own time zone and language.

Deadlines are stored in UTC and every computation here is in UTC; only what a user reads is in their own
time zone (`time_zone_of`). What Celery beat does (queueing a due turn, sending its reminders) is claimed
and queued in campaign.queue; the GM's powers over the clock and the players are in campaign.gm.

Services (writes)
  turn_resolved(turn=)                              turn processing: count missed turns (if the turn says so),
                                                    queue the results
  time_zone_set(user=, time_zone=)                  a user's own time zone
  language_set(user=, language=)                    the language of a user's mails
Selectors (reads)
  nations_missed(campaign=, turn=)                  the GM's table: players, submitted, missed, disorder
  campaign_clock(campaign=, turn=, now=)            deadline, time left, paused, reminder, process early
  turn_failure(turn=)                               why a failed turn failed, in words, and whether a
                                                    setting is at fault (the GM's failure box)
  time_zone_of(user=)                               the user's ZoneInfo (UTC by default)
  language_of(user=)                                the language to write to the user in
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError
from django.db.models import Case, Exists, F, OuterRef, Value, When
from django.utils import timezone

from campaign import queue
from campaign.durations import duration_words
from campaign.models import Campaign, Membership, Nation, Profile, Turn
from campaign.selectors import orders_given
from rules.engine.messages import InputError, Message, gettext_noop, messages_register

Clock = Callable[[], datetime]
UTC = ZoneInfo("UTC")

messages_register(
    {
        # Why a turn failed, for the GM's dashboard (turn_failure), with what to do about it.
        "turn_failed.setting": gettext_noop(
            "a setting of the campaign does not fit its battle system: {error}. "
            "Change the setting, then retry the turn."
        ),
        "turn_failed.database": gettext_noop(
            "the database refused the turn's writes ({error}). "
            "Retry the turn; if it fails again, tell the server's administrator."
        ),
        "turn_failed.program": gettext_noop(
            "an error in the server's program ({kind}), not in the campaign's settings. "
            "Retry the turn; if it fails again, tell the server's administrator."
        ),
    }
)

# The errors a GM's setting causes (the ruleset's overrides, the battle system, a nation's ratings, the
# turn's inputs of a system), and the database's; anything else is the program's.
SETTING_ERRORS = frozenset(
    {"RulesetError", "SystemUnavailable", "TurnInputError", "DoctrineError", "UnitDataError", "InputError"}
)
DATABASE_ERRORS = frozenset({"DatabaseError", "DataError", "IntegrityError", "OperationalError"})


# --- After a turn is resolved (called by rules.services, in its transaction) ------------------------------


def turn_resolved(*, turn: Turn) -> None:
    """Count the turn's missed orders and queue each player's results mail once the turn commits.

    A failed send never undoes a turn: the mail is another task, queued after the commit, and an error in
    queueing it is logged, not raised (robust).
    """
    nations_missed_count(turn=turn)
    pause_renew(turn=turn)
    queue.turn_results_queue(turn_id=turn.pk)


def pause_renew(*, turn: Turn) -> None:
    """Processed by hand while paused: the next turn starts with its whole length when resumed."""
    if turn.campaign.paused_at is not None:
        Campaign.objects.filter(pk=turn.campaign_id).update(paused_remaining=F("turn_length"))


def nations_missed_count(*, turn: Turn) -> None:
    """A nation with a player and no orders this turn missed it (its units held); one with orders did not.

    Two statements for any number of nations. After `civil_disorder_after` misses in a row the nation
    falls into civil disorder: it holds and defends, and takes no orders until the GM assigns a player.
    A turn the GM processed early without counting them (`Turn.missed_counted` false) is no miss: a nation
    without orders keeps its count, one with orders ends its run as always.
    """
    campaign = turn.campaign
    submitted = orders_given(turn=turn, nation=OuterRef("pk"))
    players = Exists(Membership.objects.filter(nation=OuterRef("pk"), role=Membership.Role.PLAYER))
    nations = Nation.objects.filter(campaign_id=campaign.pk).filter(players)
    if not turn.missed_counted:
        nations.filter(submitted).update(turns_missed_in_row=0)
        return
    nations.update(
        turns_missed=F("turns_missed") + Case(When(submitted, then=Value(0)), default=Value(1)),
        turns_missed_in_row=Case(When(submitted, then=Value(0)), default=F("turns_missed_in_row") + 1),
    )
    if campaign.civil_disorder_after:
        nations.filter(civil_disorder=False, turns_missed_in_row__gte=campaign.civil_disorder_after).update(
            civil_disorder=True
        )


# --- A user's own settings ------------------------------------------------------------------------------


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
    """The language to write to a user in: their profile's, the site's default when they have none.

    A user loaded with their profile (`select_related("user__profile")`, as the turn mails load every
    reader) costs no query; otherwise one. A profile never read is not read through `user.profile`, which
    would keep "none" on the user even after the profile is made.
    """
    if type(user).profile.is_cached(user):
        profile = getattr(user, "profile", None)  # a cached "none" raises RelatedObjectDoesNotExist
        name = profile.language if profile is not None else ""
    else:
        name = Profile.objects.filter(user=user).values_list("language", flat=True).first()
    return name if name in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def nations_missed(*, campaign: Campaign, turn: Turn | None) -> list[dict[str, Any]]:
    """For the GM's dashboard, one row per nation: players, submitted this turn, missed turns, disorder.

    Three queries for any number of nations.
    """
    submitted = set()
    if turn is not None:
        given = orders_given(turn=turn, nation=OuterRef("pk"))
        submitted = set(Nation.objects.filter(campaign=campaign).filter(given).values_list("pk", flat=True))
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
        "time_left_words": duration_words(left) if left is not None else "",
        "paused": paused,
        "paused_at": campaign.paused_at,
        "reminder_before": campaign.reminder_before,
        "reminded": turn is not None and turn.reminded_at is not None,
        "process_early": campaign.process_early,
        "civil_disorder_after": campaign.civil_disorder_after,
    }


def turn_failure(*, turn: Turn | None) -> dict[str, Any] | None:
    """Why the turn failed, for the GM's dashboard: {"reason": a Message, "setting": whether changing a
    setting is the fix}; None when it has not failed.

    Processing keeps the error's traceback (rules.services, for the administrator); its last line names
    the exception's class, which says whose fault it is. The GM reads that in words, never the traceback.
    """
    if turn is None or turn.status != Turn.Status.FAILED:
        return None
    last = (turn.error or "").strip().splitlines()[-1:] or [""]
    kind, _, text = last[0].partition(": ")
    kind = kind.rpartition(".")[2] if kind.replace(".", "_").isidentifier() else "?"
    text = text.strip()[:200] or kind
    if kind in SETTING_ERRORS:
        return {"reason": Message("turn_failed.setting", {"error": text}), "setting": True}
    if kind in DATABASE_ERRORS:
        return {"reason": Message("turn_failed.database", {"error": text}), "setting": False}
    return {"reason": Message("turn_failed.program", {"kind": kind or "?"}), "setting": False}
