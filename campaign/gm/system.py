"""The GM's power over the campaign's battle system (BATTLE_SYSTEMS.md): changed only between turns."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from campaign.gm.access import Clock, GMInputError, User, audit_write, gm_check, open_check
from campaign.models import Campaign, Stack, Turn
from rules.engine.ruleset import RulesetError, ruleset_build
from rules.engine.systems import system_names


def battle_system_set(
    *, by: User, campaign: Campaign, name: str, reason: str = "", now: Clock = timezone.now
) -> Campaign:
    """Switch the campaign to another registered battle system while its turn is open (between turns).

    The campaign's ruleset overrides must be keys of the new system and every unit type on the map one of
    its types; otherwise nothing changes and the error says what does not fit.
    """
    gm_check(by=by, campaign=campaign)
    turn = Turn.objects.filter(campaign=campaign).exclude(status=Turn.Status.RESOLVED).first()
    if turn is not None:
        open_check(turn)
    if name not in system_names():
        raise GMInputError("battle_system", f"battle system {name} is not available")
    try:
        ruleset = ruleset_build({**(campaign.ruleset_overrides or {}), "battle_system": name})
    except RulesetError as error:
        raise GMInputError("battle_system", f"the campaign's ruleset does not fit {name}: {error}") from None
    on_map = set(Stack.objects.filter(nation__campaign=campaign).values_list("unit_type", flat=True))
    unknown = sorted(on_map - set(ruleset.unit_types))
    if unknown:
        raise GMInputError(
            "battle_system", f"{name} has no unit type {', '.join(unknown)}, which the map has"
        )
    if name == campaign.battle_system:
        return campaign
    with transaction.atomic():
        before = campaign.battle_system
        campaign.battle_system = name
        campaign.save(update_fields=["battle_system"])
        audit_write(by, campaign, "battle_system", f"battle system: {before} → {name}", reason, now)
    return campaign
