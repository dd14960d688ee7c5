"""Meeting engagements (IRON_FIST.md §6): two nations attack each other across the same border."""

from __future__ import annotations

from .forces import groups_take_losses, modifiers_for
from .phase import Phase
from .seam import BattleSide, Force, Pending
from .world import WEATHERS


def meetings_resolve(phase: Phase) -> None:
    """Fight every meeting engagement, before all other battles, in (lower, higher) region-id order."""
    by_route = {(g.origin, g.target): g for g in phase.all_groups()}
    borders = sorted({tuple(sorted(route)) for route in by_route if route[::-1] in by_route})
    world = phase.world
    for low, high in borders:
        groups = sorted(
            (by_route[(low, high)], by_route[(high, low)]), key=lambda g: world.nation_index[g.nation]
        )
        regions = (low, high)
        sides = tuple(
            [
                BattleSide(
                    nations=(g.nation,),
                    role="attacker",
                    forces=(Force(g.nation, g.origin, dict(g.units)),),
                    support=phase.supporters((g.nation,), regions, exclude=None),
                    modifiers=modifiers_for(phase, g.target, (g.nation,)),
                )
                for g in groups
            ]
        )
        label = f"{low}|{high}"
        outcome = phase.fight(
            "meeting",
            f"meeting:{label}",
            label,
            regions,
            _terrain(phase, regions),
            _weather(phase, regions),
            sides,
        )
        if isinstance(outcome, Pending):
            # Fought elsewhere, no result yet: both armies stay in the meeting, and every battle at either
            # end waits for it (TABLETOP A4.2): who defends there, and who attacks, depends on its result.
            for group in groups:
                phase.groups[group.target].remove(group)
            for region in regions:
                phase.blocked.setdefault(region, []).append(outcome.key)
            phase.battles.append(outcome.report)
            continue
        continuing = None
        groups_take_losses(groups, outcome)
        # §6: a decisive winner (Iron Fist: past the threshold) with units left continues.
        if outcome.winner is not None and outcome.decisive and groups[outcome.winner].total() > 0:
            continuing = groups[outcome.winner]
        # The loser's survivors (and a winner that does not continue) go home at once and defend it.
        for group in groups:
            if group is not continuing:
                phase.add_units(group.origin, group.nation, group.units)
                phase.groups[group.target].remove(group)
        outcome.report["conquest"] = False
        outcome.report["continues"] = (
            {"nation": continuing.nation, "into": continuing.target, "units": dict(continuing.units)}
            if continuing
            else None
        )
        outcome.report["returned"] = {g.nation: g.origin for g in groups if g is not continuing}
        phase.battles.append(outcome.report)


def _terrain(phase: Phase, regions: tuple[str, ...]) -> str:
    """Rough or city anywhere makes the meeting rough or city; rough against city fights as city (§6)."""
    terrains = {phase.world.regions[r].terrain for r in regions}
    for terrain in ("city", "rough"):
        if terrain in terrains:
            return terrain
    return "open"


def _weather(phase: Phase, regions: tuple[str, ...]) -> str:
    return max((phase.world.region_weather(r) for r in regions), key=WEATHERS.index)
