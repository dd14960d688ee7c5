"""After the battle (SODANKAYNTI.md §11): each die's and unit's fate, losses, survivors and veterans."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..seam import DiceSource
from .board import DESERTED, DESTROYED, LOST, Die, Side
from .ruleset import Ruleset

Counts = dict[str, int]


@dataclass
class Fates:
    lost: dict[tuple[str, str], Counts] = field(
        default_factory=dict
    )  # (nation, origin) -> type -> units lost
    destroyed: dict[str, Counts] = field(default_factory=dict)  # nation -> type -> units destroyed (losses)
    deserted: dict[str, Counts] = field(default_factory=dict)  # nation -> type -> lost, but not destroyed
    added: dict[tuple[str, str], Counts] = field(
        default_factory=dict
    )  # (nation, origin) -> new veteran units


def _add(counts: dict, key: Any, unit_type: str, n: int = 1) -> None:
    here = counts.setdefault(key, {})
    here[unit_type] = here.get(unit_type, 0) + n


def unit_fate(dice: list[Die], ruleset: Ruleset) -> str | None:
    """None when the unit survives, else destroyed or deserted (§11.1; a war machine by machine_lost_when)."""
    lost = [d for d in dice if d.fate in LOST]
    if not lost or (ruleset.machine_lost_when == "all_dice" and len(lost) < len(dice)):
        return None
    return DESTROYED if any(d.fate == DESTROYED for d in dice) else DESERTED


def fates_settle(
    sides: list[Side],
    report: dict[str, Any],
    ruleset: Ruleset,
    dice: DiceSource,
    nation_index: Mapping[str, int],
) -> Fates:
    fates = Fates()
    destroyed_units: dict[str, list[list[Die]]] = {}
    survivors: dict[str, dict[str, Counts]] = {}
    for side in sides:
        for nation in side.nations:
            fates.destroyed[nation] = {}
        for unit_dice in side.units.values():
            first = unit_dice[0]
            fate = unit_fate(unit_dice, ruleset)
            if fate is None:
                _add(survivors.setdefault(first.nation, {}), first.origin, first.type)
                continue
            _add(fates.lost, (first.nation, first.origin), first.type)
            if fate == DESTROYED:
                _add(fates.destroyed, first.nation, first.type)
                destroyed_units.setdefault(first.nation, []).append(unit_dice)
            else:
                _add(fates.deserted, first.nation, first.type)
    report["fates"] = {d.id: d.fate for side in sides for d in side.dice}
    report["veterans"] = _veterans(destroyed_units, ruleset, dice, nation_index, fates)
    report["losses"] = {n: dict(c) for n, c in fates.destroyed.items()}
    report["deserted"] = fates.deserted  # lost to the army, not destroyed: no veterans (§7 step 4)
    report["survivors"] = survivors
    new_units: dict[str, dict[str, Counts]] = {}
    for (nation, origin), counts in fates.added.items():
        new_units.setdefault(nation, {})[origin] = dict(counts)
    report["new_units"] = new_units
    return fates


def _veterans(
    destroyed: dict[str, list[list[Die]]],
    ruleset: Ruleset,
    dice: DiceSource,
    nation_index: Mapping[str, int],
    fates: Fates,
) -> dict[str, list[dict[str, Any]]]:
    """§11.2-11.3: per nation, its destroyed units paired largest die first; one die of the second's size."""
    veterans: dict[str, list[dict[str, Any]]] = {}
    if not ruleset.veterans_enabled:
        return veterans
    for nation in sorted(destroyed, key=nation_index.__getitem__):
        units = sorted(destroyed[nation], key=lambda u: (-u[0].size, u[0].pos))
        entries = []
        for i in range(0, len(units) - 1, 2):
            first, second = units[i][0], units[i + 1][0]
            entry: dict[str, Any] = {"pair": [first.unit, second.unit], "die": f"d{second.size}"}
            if second.size <= ruleset.veterans_above:
                entry |= {"roll": "impossible", "new": None}  # no die of this size can exceed `above`
            else:
                roll = dice.randint(1, second.size)
                entry["roll"] = roll
                entry["new"] = None
                if roll > ruleset.veterans_above:
                    entry["new"] = {"type": second.type, "origin": second.origin}
                    _add(fates.added, (nation, second.origin), second.type)
            entries.append(entry)
        if len(units) % 2:
            entries.append({"unpaired": units[-1][0].unit})
        veterans[nation] = entries
    return veterans
