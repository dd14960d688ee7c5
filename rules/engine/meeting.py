"""Meeting engagements (IRON_FIST.md §6): two nations attack each other across the same border."""

from __future__ import annotations

from .battle import Field, Side, battle_fight
from .forces import groups_take_losses, modifiers_for
from .phase import Phase
from .world import WEATHERS


def meetings_resolve(phase: Phase) -> None:
    """Fight every meeting engagement, before all other battles, in (lower, higher) region-id order."""
    by_route = {(g.origin, g.target): g for g in phase.all_groups()}
    borders = sorted({tuple(sorted(route)) for route in by_route if route[::-1] in by_route})
    world, ruleset = phase.world, phase.ruleset
    for low, high in borders:
        groups = sorted(
            (by_route[(low, high)], by_route[(high, low)]), key=lambda g: world.nation_index[g.nation]
        )
        regions = (low, high)
        sides = tuple(
            Side(
                nations=(g.nation,),
                role="attacker",
                ground={g.nation: dict(g.units)},
                support=phase.supporters((g.nation,), regions, exclude=None),
                modifiers=modifiers_for(phase, g.target, (g.nation,)),
            )
            for g in groups
        )
        ground_field = Field(
            "meeting", f"{low}|{high}", regions, _terrain(phase, regions), _weather(phase, regions)
        )
        battle = battle_fight(
            ground_field, sides, ruleset=ruleset, rng=phase.rng, nation_index=world.nation_index
        )
        groups_take_losses(groups, battle)
        phase.record_support(battle)
        continuing = None
        if battle.winner is not None and battle.difference > ruleset.conquest_threshold:
            winner = groups[battle.winner]
            if winner.total() > 0:
                continuing = winner
        # The loser's survivors (and a winner that does not continue) go home at once and defend it.
        for group in groups:
            if group is not continuing:
                phase.add_units(group.origin, group.nation, group.units)
                phase.groups[group.target].remove(group)
        battle.report["conquest"] = False
        battle.report["continues"] = (
            {"nation": continuing.nation, "into": continuing.target, "units": dict(continuing.units)}
            if continuing
            else None
        )
        battle.report["returned"] = {g.nation: g.origin for g in groups if g is not continuing}
        phase.battles.append(battle.report)


def _terrain(phase: Phase, regions: tuple[str, ...]) -> str:
    """Rough or city anywhere makes the meeting rough or city; rough against city fights as city (§6)."""
    terrains = {phase.world.regions[r].terrain for r in regions}
    for terrain in ("city", "rough"):
        if terrain in terrains:
            return terrain
    return "open"


def _weather(phase: Phase, regions: tuple[str, ...]) -> str:
    return max((phase.world.region_weather(r) for r in regions), key=WEATHERS.index)
