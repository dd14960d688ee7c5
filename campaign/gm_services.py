"""The game master's writes: the deadline, the turn's inputs, diplomacy, the roster, and processing.

Every function checks that the user is the campaign's GM (PermissionDenied otherwise), so no page or
endpoint can forget it, and records what it changed in the campaign's audit log: who, when and why.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from campaign.messages import said_in, status_word
from campaign.models import (
    AuditEntry,
    Campaign,
    GMModifier,
    Membership,
    Nation,
    Region,
    Relation,
    Stack,
    Turn,
)
from rules import services as turn_services
from rules.engine.messages import InputError, Message
from rules.engine.state import RelationKind, Weather

User = AbstractBaseUser | AnonymousUser
Clock = Callable[[], datetime]


# The one error class of the services (order entry raises it too): the field at fault and a Message.
GMInputError = InputError


def gm_check(*, user: User, campaign: Campaign) -> None:
    """Raise PermissionDenied unless the user runs this campaign."""
    if (
        not user.is_authenticated
        or not Membership.objects.filter(user=user, campaign=campaign, role=Membership.Role.GM).exists()
    ):
        raise PermissionDenied("only the campaign's game master may do this")


def deadline_set(*, user: User, turn: Turn, deadline: datetime, now: Clock = timezone.now) -> Turn:
    gm_check(user=user, campaign=turn.campaign)
    if timezone.is_naive(deadline):
        raise InputError.of("deadline", "deadline_naive")
    _open_check(turn)
    if deadline <= now():
        raise InputError.of("deadline", "deadline_not_future")
    with transaction.atomic():
        before = turn.deadline
        turn.deadline = deadline
        turn.save(update_fields=["deadline"])
        audit_write(
            user,
            turn.campaign,
            "deadline",
            Message(
                "audit.deadline",
                {
                    "number": turn.number,
                    "before": f"{before:%Y-%m-%d %H:%M}",
                    "after": f"{deadline.astimezone(UTC):%Y-%m-%d %H:%M}",
                },
            ),
            "",
            now,
        )
    return turn


def weather_set(
    *,
    user: User,
    turn: Turn,
    weather: str,
    region_weather: Mapping[str, str],
    reason: str = "",
    now: Clock = timezone.now,
) -> Turn:
    """The turn's weather everywhere, and the regions where it differs (IRON_FIST.md weather rules)."""
    gm_check(user=user, campaign=turn.campaign)
    _open_check(turn)
    kinds = {w.value for w in Weather}
    if weather not in kinds:
        raise InputError.of("weather", "unknown_weather", weather=weather, kinds=", ".join(kinds))
    known = set(
        Region.objects.filter(campaign=turn.campaign, code__in=list(region_weather)).values_list(
            "code", flat=True
        )
    )
    for code, value in region_weather.items():
        if code not in known:
            raise InputError.of("region_weather", "unknown_region", region=code)
        if value not in kinds:
            raise InputError.of("region_weather", "region_unknown_weather", region=code, weather=value)
    with transaction.atomic():
        turn.weather = weather
        turn.region_weather = {code: value for code, value in sorted(region_weather.items())}
        turn.save(update_fields=["weather", "region_weather"])
        local = [
            Message("audit.region_weather", {"region": c, "weather": Message(f"weather.{v}")})
            for c, v in turn.region_weather.items()
        ] or Message("none")
        summary = Message(
            "audit.weather", {"number": turn.number, "weather": Message(f"weather.{weather}"), "local": local}
        )
        audit_write(user, turn.campaign, "weather", summary, reason, now)
    return turn


def gm_modifier_set(
    *,
    user: User,
    turn: Turn,
    region: Region,
    nation: Nation,
    value: int,
    reason: str,
    now: Clock = timezone.now,
) -> GMModifier | None:
    """Set the KTA modifier of a nation in a region for this turn; a value of 0 removes it."""
    gm_check(user=user, campaign=turn.campaign)
    _open_check(turn)
    _same_campaign(turn.campaign, region=region, nation=nation)
    with transaction.atomic():
        if value == 0:
            GMModifier.objects.filter(turn=turn, region=region, nation=nation).delete()
            modifier = None
        else:
            modifier, _ = GMModifier.objects.update_or_create(
                turn=turn, region=region, nation=nation, defaults={"value": value, "reason": reason}
            )
        audit_write(
            user,
            turn.campaign,
            "gm_modifier",
            Message(
                "audit.gm_modifier",
                {"number": turn.number, "nation": nation.code, "region": region.code, "value": f"{value:+d}"},
            ),
            reason,
            now,
        )
    return modifier


def relation_set(
    *, user: User, nation_a: Nation, nation_b: Nation, kind: str, reason: str = "", now: Clock = timezone.now
) -> Relation | None:
    """Set the relation of two nations; war is the absence of a row (IRON_FIST.md §2.2)."""
    campaign = nation_a.campaign
    gm_check(user=user, campaign=campaign)
    if nation_b.campaign_id != campaign.pk:
        raise InputError.of("nation_b", "not_in_campaign", code=nation_b.code)
    if nation_a.pk == nation_b.pk:
        raise InputError.of("nation_b", "same_nations")
    if kind not in {k.value for k in RelationKind}:
        raise InputError.of("kind", "unknown_relation", kind=kind)
    low, high = sorted((nation_a, nation_b), key=lambda n: n.pk)
    with transaction.atomic():
        if kind == RelationKind.WAR:
            Relation.objects.filter(nation_a=low, nation_b=high).delete()
            relation = None
        else:
            relation, _ = Relation.objects.update_or_create(
                nation_a=low, nation_b=high, defaults={"kind": kind}
            )
        audit_write(
            user,
            campaign,
            "relation",
            Message("audit.relation", {"a": low.code, "b": high.code, "kind": Message(f"relation.{kind}")}),
            reason,
            now,
        )
    return relation


def roster_change(
    *,
    user: User,
    region: Region,
    nation: Nation,
    unit_type: str,
    count: int,
    reason: str,
    now: Clock = timezone.now,
) -> Stack:
    """Set a stack's count by hand (a correction, reinforcements); the reason is required."""
    campaign = region.campaign
    gm_check(user=user, campaign=campaign)
    _same_campaign(campaign, region=region, nation=nation)
    if unit_type not in campaign.ruleset().unit_types:
        raise InputError.of("unit_type", "unknown_unit_type", unit_type=unit_type)
    if count < 0:
        raise InputError.of("count", "count_negative")
    if not reason.strip():
        raise InputError.of("reason", "reason_required")
    with transaction.atomic():
        stack, created = Stack.objects.select_for_update().get_or_create(
            region=region, nation=nation, unit_type=unit_type, defaults={"count": count}
        )
        before = 0 if created else stack.count
        if not created:
            stack.count = count
            stack.save(update_fields=["count"])
        audit_write(
            user,
            campaign,
            "roster",
            Message(
                "audit.roster",
                {
                    "unit_type": unit_type,
                    "nation": nation.code,
                    "region": region.code,
                    "before": before,
                    "count": count,
                },
            ),
            reason,
            now,
        )
    return stack


def turn_process_request(*, user: User, turn: Turn, now: Clock = timezone.now) -> None:
    """Queue the turn for processing now, before its deadline if need be."""
    gm_check(user=user, campaign=turn.campaign)
    _open_check(turn)
    with transaction.atomic():
        audit_write(user, turn.campaign, "process", Message("audit.queued", {"number": turn.number}), "", now)
        turn_services.turn_queue(turn_id=turn.pk)


def turn_retry_request(*, user: User, turn: Turn, now: Clock = timezone.now) -> bool:
    """Reopen a failed turn and queue it again; False when it was not failed."""
    gm_check(user=user, campaign=turn.campaign)
    with transaction.atomic():
        retried = turn_services.turn_retry(turn_id=turn.pk)
        if retried:
            audit_write(
                user, turn.campaign, "process", Message("audit.retried", {"number": turn.number}), "", now
            )
    return retried


def _open_check(turn: Turn) -> None:
    if turn.status != Turn.Status.OPEN:
        raise InputError.of("turn", "inputs_closed", number=turn.number, status=status_word(turn.status))


def _same_campaign(campaign: Campaign, *, region: Region, nation: Nation) -> None:
    if region.campaign_id != campaign.pk:
        raise InputError.of("region", "not_in_campaign", code=region.code)
    if nation.campaign_id != campaign.pk:
        raise InputError.of("nation", "not_in_campaign", code=nation.code)


def audit_write(
    user: User, campaign: Campaign, action: str, summary: Message, reason: str, now: Clock
) -> None:
    """One line of the campaign's audit log; every GM-side change (pages, life cycle, history) writes here.

    The summary is kept as its code and parameters, rendered in the reader's language; `summary` holds it
    in English too, for the admin and for exports."""
    AuditEntry.objects.create(
        campaign=campaign,
        user=user if user.is_authenticated else None,
        created_at=now(),
        action=action,
        summary=said_in("en", summary)[:300],
        code=summary.code,
        params=summary.to_dict()["params"],
        reason=reason[:300],
    )
