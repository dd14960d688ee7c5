"""The aftermath (IRON_FIST.md §10): conquerors move in, failed attackers return, the defeated retreat."""

from __future__ import annotations

from .phase import Phase
from .state import Movement


def aftermath_apply(phase: Phase) -> dict[str, str | None]:
    """Apply the phase's outcome to the map and return every region's owner after the turn."""
    world, ruleset = phase.world, phase.ruleset
    owners = dict(world.owner)
    for region, holder in phase.holders.items():
        if holder is not None:
            owners[region] = holder

    for group in phase.all_groups():
        units = {t: c for t, c in group.units.items() if c}
        if not units:
            continue
        conquered = phase.holders.get(group.target) == group.nation
        destination = group.target if conquered else group.origin
        phase.add_units(destination, group.nation, units)
        for unit_type, count in units.items():
            movement = Movement(
                group.nation,
                unit_type,
                count,
                group.origin if conquered else group.target,
                destination,
                "moved in" if conquered else "returned",
            )
            phase.movements.append(movement)
            phase.moves_at.setdefault(group.target, []).append(movement)
    phase.groups = {}

    # Judge every retreat on the map as it stands now, before any retreat is applied.
    ground_types = ruleset.ground_types
    retreats = []
    # A region changed hands only where the phase named a holder (above): those, not every region.
    for region in sorted(r for r in phase.holders if owners[r] != world.owner[r]):
        loser = world.owner[region]
        if loser is None:
            continue
        units = phase.garrison.take(region, loser)
        for unit_type, count in units.items():
            if count <= 0:
                continue
            unit = ruleset.unit_types[unit_type]
            rebases = unit.role == "air" and phase.system.policies.air_rebases_after_conquest
            reach = ruleset.ranges.get(unit_type, 1) if rebases else 1
            options = [r for r, d in world.within(region, reach).items() if d > 0 and owners[r] == loser]
            options.sort()
            strength = {
                r: sum(phase.garrison.get(r, {}).get(loser, {}).get(t, 0) for t in ground_types)
                for r in options
            }
            destination = max(options, key=lambda r: strength[r], default=None)
            retreats.append(
                Movement(
                    loser,
                    unit_type,
                    count,
                    region,
                    destination,
                    ("rebased" if rebases else "retreated")
                    if destination
                    else "destroyed: no region of its own to retreat to",
                )
            )
    for movement in retreats:
        if movement.destination is not None:
            phase.add_units(movement.destination, movement.nation, {movement.unit_type: movement.count})
    phase.movements.extend(retreats)
    for movement in retreats:
        phase.moves_at.setdefault(movement.origin, []).append(movement)
    return owners
