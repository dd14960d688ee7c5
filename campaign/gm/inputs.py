"""The GM's power over a turn's inputs: the weather, and KTA modifiers of a nation in a region."""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.utils import timezone

from campaign.gm.access import Clock, User, audit_write, gm_check, open_check, same_campaign
from campaign.models import GMModifier, Nation, Region, Turn
from rules.engine.messages import InputError, Message
from rules.engine.state import Weather


def weather_set(
    *,
    by: User,
    turn: Turn,
    weather: str,
    region_weather: Mapping[str, str],
    reason: str = "",
    now: Clock = timezone.now,
) -> Turn:
    """The turn's weather everywhere, and the regions where it differs (IRON_FIST.md weather rules)."""
    gm_check(by=by, campaign=turn.campaign)
    open_check(turn)
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
        audit_write(by, turn.campaign, "weather", summary, reason, now)
    return turn


def gm_modifier_set(
    *,
    by: User,
    turn: Turn,
    region: Region,
    nation: Nation,
    value: int,
    reason: str,
    now: Clock = timezone.now,
) -> GMModifier | None:
    """Set the KTA modifier of a nation in a region for this turn; a value of 0 removes it."""
    gm_check(by=by, campaign=turn.campaign)
    open_check(turn)
    same_campaign(turn.campaign, region=region, nation=nation)
    with transaction.atomic():
        if value == 0:
            GMModifier.objects.filter(turn=turn, region=region, nation=nation).delete()
            modifier = None
        else:
            modifier, _ = GMModifier.objects.update_or_create(
                turn=turn, region=region, nation=nation, defaults={"value": value, "reason": reason}
            )
        audit_write(
            by,
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
