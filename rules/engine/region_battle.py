"""Region battles (IRON_FIST.md §5, §7, §7.1): normal and joint attacks, and unopposed occupation."""

from __future__ import annotations

from .battle import Field, Side, battle_fight
from .forces import attacking_side, groups_take_losses, modifiers_for, nation_units, units_of
from .phase import Phase


def region_battles_resolve(phase: Phase) -> None:
    """Fight the battle of every attacked region, in region-id order."""
    world, ruleset = phase.world, phase.ruleset
    for region in sorted(phase.groups):
        groups = phase.groups_into(region)
        if not groups:
            continue
        defender = world.owner[region]
        defending = phase.ground(region, defender) if defender else {}
        attackers = world.nation_order({g.nation for g in groups})
        if not defending:
            # §7.1: no defending ground units, no combat: the attackers occupy it.
            phase.battles.append(
                {
                    "kind": "unopposed",
                    "region": region,
                    "regions": [region],
                    "nations": attackers,
                    "defender": defender,
                    "units": {n: nation_units(groups, n) for n in attackers},
                    "winner": "+".join(sorted(attackers)),
                    "conquest": True,
                    "decided_by": "no defending ground units (§7.1)",
                }
            )
            _conquer(phase, region, attackers)
            continue

        spot = world.regions[region]
        attack = attacking_side(phase, groups, region, pincer=True)
        defence = Side(
            nations=(defender,),
            role="defender",
            ground={defender: defending},
            support=phase.supporters((defender,), (region,), exclude=(defender, region)),
            fort=spot.fort,
            home=spot.home == defender,
            modifiers=modifiers_for(phase, region, (defender,)),
        )
        kind = "joint" if len(attackers) > 1 else "normal"
        ground_field = Field(kind, region, (region,), spot.terrain, world.region_weather(region))
        battle = battle_fight(
            ground_field, (attack, defence), ruleset=ruleset, rng=phase.rng, nation_index=world.nation_index
        )
        groups_take_losses(groups, battle)
        here = phase.units_at(region, defender)
        for unit_type, lost in battle.losses[defender].items():
            here[unit_type] -= lost
        phase.record_support(battle)

        attackers_left = units_of(groups)
        defenders_left = battle.survivors(1, ruleset.ground_types)
        conquest, why = _outcome(
            battle.winner, battle.difference, ruleset.conquest_threshold, attackers_left, defenders_left
        )
        battle.report["conquest"] = conquest
        battle.report["decided_by"] = why
        phase.battles.append(battle.report)
        if conquest:
            _conquer(phase, region, [n for n in attackers if nation_units(groups, n)])


def _outcome(
    winner: int | None, difference: int, threshold: int, attackers_left: int, defenders_left: int
) -> tuple[bool, str]:
    """Does the attacker conquer, and why (§5 and its three exceptions)."""
    if attackers_left == 0 and defenders_left == 0:
        return (
            False,
            "neither side has ground units left: the region stays with the defender (§5 exception 3)",
        )
    if attackers_left == 0 and winner == 0:
        return False, "the attacker has no ground units left and conquers nothing (§5 exception 1)"
    if defenders_left == 0:
        return True, "the defender has no ground units left and loses the region (§5 exception 2)"
    if winner is None:
        return False, "a draw: the region stays with the defender (§5)"
    if winner == 1:
        return False, "the defender won and holds the region (§5)"
    if difference > threshold:
        return True, f"the attacker won by {difference}, past the conquest threshold of {threshold} (§5)"
    return False, f"the attacker won by {difference}, not past the conquest threshold of {threshold} (§5)"


def _conquer(phase: Phase, region: str, nations: list[str]) -> None:
    """One conqueror holds the region; several settle it after all region battles (§7.2)."""
    if len(nations) == 1:
        phase.holders[region] = nations[0]
    elif nations:
        phase.conquered[region] = nations
