"""Air and artillery support losses (IRON_FIST.md §8, §9 method B, §13), rolled as the combat phase ends."""

from __future__ import annotations

from typing import Any

from .phase import Phase
from .state import SupportRoll


def support_losses_roll(phase: Phase) -> tuple[list[dict[str, Any]], list[SupportRoll]]:
    """Each unit that supported at least one battle rolls d100 once: destroyed when roll ≤ its chance."""
    if not phase.system.policies.support_losses:
        return [], []
    ruleset, world = phase.ruleset, phase.world
    types = ruleset.support_types
    chances, rolls = [], []
    for key in sorted(phase.supporting, key=lambda k: (world.nation_index[k[0]], k[1], types.index(k[2]))):
        nation, region, unit_type = key
        outcomes = phase.support_outcomes.get(key, [])
        chance = min(
            100,
            sum(
                ruleset.support_loss_lost if outcome == "lost" else ruleset.support_loss_won_or_draw
                for _, outcome in outcomes
            ),
        )
        here = phase.units_at(region, nation)
        # §13: a stack that also fought on the ground rolls for no more units than survived that.
        rolling = min(phase.supporting[key], here.get(unit_type, 0)) if outcomes else 0
        chances.append(
            {
                "nation": nation,
                "region": region,
                "unit_type": unit_type,
                "supporting": phase.supporting[key],
                "rolling": rolling,
                "chance": chance,
                "battles": [{"battle": label, "outcome": outcome} for label, outcome in outcomes],
            }
        )
        for unit in range(1, rolling + 1):
            roll = phase.dice.randint(1, 100)
            rolls.append(SupportRoll(nation, region, unit_type, unit, chance, roll, roll <= chance))
            if roll <= chance:
                here[unit_type] -= 1
    return chances, rolls
