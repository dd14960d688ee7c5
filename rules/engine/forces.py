"""Helpers shared by the steps that put attack groups into a battle and apply its outcome to them."""

from __future__ import annotations

from collections.abc import Sequence

from .phase import AttackGroup, Phase
from .seam import BattleOutcome, BattleSide, Force
from .sharing import share
from .world import Counts


def attacking_side(phase: Phase, groups: Sequence[AttackGroup], region: str, *, pincer: bool) -> BattleSide:
    """The groups' nations as one attacking side in `region` (§7: a joint attack is one side)."""
    nations = tuple(phase.world.nation_order({g.nation for g in groups}))
    return BattleSide(
        nations=nations,
        role="attacker",
        forces=tuple([Force(g.nation, g.origin, dict(g.units)) for g in groups]),
        support=phase.supporters(nations, (region,), exclude=None),
        origins=len({g.origin for g in groups}) if pincer else 0,
        modifiers=modifiers_for(phase, region, nations),
    )


def nation_units(groups: Sequence[AttackGroup], nation: str) -> Counts:
    """The nation's ground units in these groups, summed over its origins (types with none left out)."""
    units: Counts = {}
    for group in groups:
        if group.nation == nation:
            for unit_type, count in group.units.items():
                if count:
                    units[unit_type] = units.get(unit_type, 0) + count
    return units


def modifiers_for(phase: Phase, region: str, nations: Sequence[str]) -> tuple:
    return tuple([m for n in nations for m in phase.world.gm_modifiers.get((region, n), ())])


def groups_take_losses(groups: Sequence[AttackGroup], outcome: BattleOutcome) -> None:
    """Apply the battle's losses and new units to the attack groups.

    A system that knows whose units from where were lost says so (`force_losses`); otherwise each nation's
    losses are shared among its groups by origin, in proportion to their units (§10).
    """
    if outcome.force_losses is not None:
        for group in groups:
            for unit_type, lost in outcome.force_losses.get((group.nation, group.origin), {}).items():
                group.units[unit_type] = group.units.get(unit_type, 0) - lost
    else:
        by_nation: dict[str, list[AttackGroup]] = {}
        for group in groups:
            by_nation.setdefault(group.nation, []).append(group)
        for nation, own in by_nation.items():
            for unit_type, lost in outcome.losses.get(nation, {}).items():
                weights = [(g.origin, g.units.get(unit_type, 0)) for g in own]
                shares = share(lost, weights, _by_origin)
                for group in own:
                    group.units[unit_type] = group.units.get(unit_type, 0) - shares[group.origin]
    for group in groups:
        for unit_type, count in outcome.added.get((group.nation, group.origin), {}).items():
            group.units[unit_type] = group.units.get(unit_type, 0) + count


def _by_origin(origin: str, _units: int) -> str:
    return origin


def defender_takes_losses(phase: Phase, region: str, side: BattleSide, outcome: BattleOutcome) -> None:
    """The defending nations' losses and new units in the region they defend."""
    for nation in side.nations:
        here = phase.units_at(region, nation)
        for unit_type, lost in outcome.losses.get(nation, {}).items():
            here[unit_type] -= lost
        for unit_type, count in outcome.added.get((nation, region), {}).items():
            here[unit_type] = here.get(unit_type, 0) + count


def units_of(groups: Sequence[AttackGroup]) -> int:
    return sum([g.total() for g in groups])
