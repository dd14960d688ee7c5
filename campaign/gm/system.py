"""The GM's power over the campaign's battle system (BATTLE_SYSTEMS.md): changed only between turns."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from campaign.gm.access import Clock, User, audit_write, fixable_check, gm_check
from campaign.models import Campaign, Stack, Turn
from rules.engine.messages import InputError, Message
from rules.engine.ruleset import RulesetError, ruleset_build
from rules.engine.systems import systems_playable


def battle_systems_offered(*, campaign: Campaign) -> list[str]:
    """The systems the GM may switch the campaign to: playable ones whose ruleset fits its overrides."""
    offered = []
    for name in systems_playable():
        try:
            ruleset_build({**(campaign.ruleset_overrides or {}), "battle_system": name})
        except RulesetError:
            continue
        offered.append(name)
    return offered


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
        fixable_check(turn)
    if name not in systems_playable():
        raise InputError.of("battle_system", "system.unavailable", name=name)
    try:
        ruleset = ruleset_build({**(campaign.ruleset_overrides or {}), "battle_system": name})
    except RulesetError as error:
        raise InputError.of("battle_system", "system_ruleset_misfit", name=name, error=str(error)) from None
    on_map = set(Stack.objects.filter(nation__campaign=campaign).values_list("unit_type", flat=True))
    unknown = sorted(on_map - set(ruleset.unit_types))
    if unknown:
        raise InputError.of("battle_system", "system_unit_types_missing", name=name, types=", ".join(unknown))
    if name == campaign.battle_system:
        return campaign
    with transaction.atomic():
        before = campaign.battle_system
        campaign.battle_system = name
        campaign.save(update_fields=["battle_system"])
        summary = Message("audit.battle_system", {"before": before, "name": name})
        audit_write(by, campaign, "battle_system", summary, reason, now)
    return campaign
