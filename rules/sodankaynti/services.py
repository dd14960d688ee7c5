"""The GM's power over a dice-pool campaign's own inputs (SODANKAYNTI.md §5, §6.4, §7 step 1, §16).

A nation's ratings and standing doctrine live on the nation (`Nation.attributes`) and last from turn to
turn; the GM's advantages and the skipped politics rolls belong to one turn (`Turn.system_inputs`). Both
are judged by the engine's own checks (`rules.engine.sodankaynti.inputs.inputs_build`), so what the GM
saves is what a turn accepts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from campaign.gm.access import Clock, User, audit_write, fixable_check, gm_check
from campaign.models import Border, Nation, Region, Turn
from rules.engine.messages import InputError, Message
from rules.engine.sodankaynti.inputs import inputs_build
from rules.engine.world import TurnInputError


def nation_attributes_set(
    *,
    by: User,
    nation: Nation,
    politics: int,
    tactics: int,
    doctrine: str,
    params: Mapping[str, Any] | None = None,
    reason: str = "",
    now: Clock = timezone.now,
) -> Nation:
    """A nation's politics and tactics ratings (whole numbers >= 0) and its standing doctrine (§5)."""
    campaign = nation.campaign
    gm_check(by=by, campaign=campaign)
    spec: Any = {"name": doctrine, **params} if params else doctrine
    attributes = {"politics": politics, "tactics": tactics, "doctrine": spec}
    _judged(campaign, {"nation_attributes": {nation.code: attributes}}, "attributes")
    with transaction.atomic():
        nation.attributes = attributes
        nation.save(update_fields=["attributes"])
        summary = Message(
            "audit.nation_attributes",
            {"nation": nation.code, "politics": politics, "tactics": tactics, "doctrine": doctrine},
        )
        audit_write(by, campaign, "nation_attributes", summary, reason, now)
    return nation


def turn_system_inputs_set(
    *,
    by: User,
    turn: Turn,
    gm_advantages: Sequence[Mapping[str, Any]],
    skip_politics: Sequence[str],
    reason: str = "",
    now: Clock = timezone.now,
) -> Turn:
    """The turn's GM advantages ({region, nation, roll, dice, reason}) and the regions or borders "A|B"
    whose battles skip the politics roll (§6.4, §7 step 1). Replaces what the turn had."""
    gm_check(by=by, campaign=turn.campaign)
    fixable_check(turn)
    inputs = {"gm_advantages": [dict(a) for a in gm_advantages], "skip_politics": list(skip_politics)}
    _judged(turn.campaign, inputs, "system_inputs")
    with transaction.atomic():
        turn.system_inputs = {k: v for k, v in inputs.items() if v}
        turn.save(update_fields=["system_inputs"])
        summary = Message(
            "audit.system_inputs",
            {
                "number": turn.number,
                "advantages": len(gm_advantages),
                "skipped": ", ".join(skip_politics) or "-",
            },
        )
        audit_write(by, turn.campaign, "system_inputs", summary, reason, now)
    return turn


def _judged(campaign: Any, inputs: Mapping[str, Any], field: str) -> None:
    """Refuse what the engine would refuse at processing time, with its words (§16)."""
    ruleset = campaign.ruleset()
    if ruleset.battle_system != "sodankaynti":
        raise InputError.of(field, "system_inputs_unused", name=ruleset.battle_system)
    nations = tuple(
        Nation.objects.filter(campaign=campaign).order_by("position").values_list("code", flat=True)
    )
    adjacency: dict[str, list[str]] = {
        code: [] for code in Region.objects.filter(campaign=campaign).values_list("code", flat=True)
    }
    for a, b in Border.objects.filter(region_a__campaign=campaign).values_list(
        "region_a__code", "region_b__code"
    ):
        adjacency[a].append(b)
        adjacency[b].append(a)
    try:
        inputs_build(inputs, ruleset, nations, adjacency)
    except TurnInputError as error:
        raise InputError.of(field, "system_inputs_invalid", error=str(error)) from None
