"""From the pipeline's battle call to a Sodankäynti battle: doctrines, ratings and advantages per side (§6.4).

The call follows the seam's contract (SEAM.md `BattleCall`); only its plain fields are read here.
"""

from __future__ import annotations

from typing import Any

from .board import Advantage, BattleSetup, SideSetup
from .inputs import Inputs
from .ruleset import Ruleset

DEFENDED = ("normal", "joint")  # battles with a defender: fort, terrain, home, ambush, surprise, pincer


def battle_region(kind: str, label: str, regions: tuple[str, ...], origin: str) -> str:
    """The region a nation fights *towards*: the battle's region, or for a meeting the one it crosses into."""
    if kind == "meeting":
        return next(r for r in regions if r != origin)
    return label


def setup_build(call: Any, ruleset: Ruleset, inputs: Inputs) -> BattleSetup:
    kind, label, regions = call.kind, call.label, tuple(call.regions)
    attackers = [s for s in call.sides if s.role == "attacker"]
    origins = {f.origin for s in attackers for f in s.forces}
    sides = []
    for side in call.sides:
        towards = {f.nation: battle_region(kind, label, regions, f.origin) for f in side.forces}
        advantages: dict[str, list[Advantage]] = {"politics": [], "tactics": []}
        for nation in sorted(towards, key=call.nation_index.__getitem__):
            for roll in ("politics", "tactics"):
                advantages[roll] += inputs.gm_advantages(towards[nation], nation, roll)
        if kind in DEFENDED:
            advantages["tactics"] = _defended(side, call, ruleset, inputs, origins) + advantages["tactics"]
        sides.append(
            SideSetup(
                role=side.role,
                forces=tuple(side.forces),
                doctrines={n: inputs.doctrine(n, r) for n, r in towards.items()},
                ratings={n: inputs.ratings[n] for n in towards},
                advantages={roll: tuple(a) for roll, a in advantages.items()},
            )
        )
    terrain = [inputs.terrains.get(r, call.terrain) for r in regions] if kind == "meeting" else call.terrain
    return BattleSetup(
        kind=kind,
        label=label,
        terrain=terrain,
        fort=call.fort if kind in DEFENDED else 0,
        sides=(sides[0], sides[1]),
        nation_index=call.nation_index,
        skip_politics=inputs.skips(kind, label, regions),
    )


def _defended(side: Any, call: Any, ruleset: Ruleset, inputs: Inputs, origins: set[str]) -> list[Advantage]:
    """The tactics advantages of a normal or joint battle (§6.4, §4.2)."""
    found = []
    if side.role == "defender":
        found.append(Advantage("fort", ruleset.fort.get(call.fort, 0)) if call.fort else None)
        found.append(Advantage("terrain", ruleset.terrain.get(call.terrain, 0)))
        found.append(Advantage("home", ruleset.home) if side.home else None)
        if _ambush_facing(side, call, inputs) in origins:
            found.append(Advantage("ambush", ruleset.ambush))
    else:
        defender = next(s for s in call.sides if s.role == "defender")
        facing = _ambush_facing(defender, call, inputs)
        if facing is not None and facing not in origins:
            found.append(Advantage("surprise", ruleset.surprise))
        if len(origins) >= 2:
            found.append(Advantage("pincer", ruleset.pincer))
    return [a for a in found if a is not None and a.dice > 0]


def _ambush_facing(defender: Any, call: Any, inputs: Inputs) -> str | None:
    for nation in defender.nations:
        facing = inputs.ambushes.get((nation, call.label))
        if facing is not None:
            return facing
    return None
