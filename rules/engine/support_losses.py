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
    order = world.nation_index
    rank = ruleset.support_rank
    chances, rolls = [], []

    def stack_order(item: tuple[tuple[str, str, str], int]) -> tuple[int, str, int]:
        (nation, region, unit_type), _ = item  # nation-id order, then region, then artillery before air
        return order[nation], region, rank[unit_type]

    for key, supporting in sorted(phase.supporting.items(), key=stack_order):
        nation, region, unit_type = key
        outcomes = phase.support_outcomes.get(key, ())
        chance, rolling = 0, 0
        if outcomes:  # a stack that supported no battle rolls for nothing, at a chance of 0
            lost, kept = ruleset.support_loss_lost, ruleset.support_loss_won_or_draw
            chance = min(100, sum([lost if outcome == "lost" else kept for _, outcome in outcomes]))
            here = phase.units_at(region, nation)
            # §13: a stack that also fought on the ground rolls for no more units than survived that.
            rolling = min(supporting, here.get(unit_type, 0))
        chances.append(
            {
                "nation": nation,
                "region": region,
                "unit_type": unit_type,
                "supporting": supporting,
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
