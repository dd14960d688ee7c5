"""The battle sheet (TABLETOP.md A5): what the table plays from, and its fingerprint.

`sheet_build(call)` turns the pipeline's `BattleCall` into the sheet as plain JSON data: the place, the sides
with their groups, the support lines, the suggested points and the fingerprint of its forces (A5.2). The
pages, mails and API render it; the result check (results.py) and the plan (plan.py) read it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..seam import BattleCall
from .settings import SheetPoints, TabletopRuleset

# A meeting engagement and a control battle have no fortification and no home defence (IRON_FIST §6, §7.2).
NO_FORT_KINDS = ("meeting", "control")


def sheet_build(call: BattleCall) -> dict[str, Any]:
    ruleset: TabletopRuleset = call.ruleset
    index = call.nation_index
    ground = ruleset.ground_types
    sides = []
    for side in call.sides:
        groups = []
        for force in sorted(side.forces, key=lambda f: (index[f.nation], f.origin)):
            units = {t: force.units[t] for t in ground if force.units.get(t, 0) > 0}
            if units:
                groups.append({"nation": force.nation, "origin": force.origin, "units": units})
        sides.append(
            {
                "id": side.name,
                "role": "party" if call.kind == "control" else side.role,
                "nations": list(side.nations),
                "groups": groups,
            }
        )
    types = ruleset.support_types
    support = sorted(
        ([s.nation, s.region, s.unit_type, s.count] for side in call.sides for s in side.support if s.count),
        key=lambda line: (index[line[0]], line[1], types.index(line[2])),
    )
    no_fort = call.kind in NO_FORT_KINDS
    sheet = {
        "key": call.key,
        "kind": call.kind,
        "region": call.label,
        "regions": list(call.regions),
        "place": {
            "terrain": call.terrain,
            "weather": call.weather,
            "fort": 0 if no_fort else call.fort,
            "home": None if no_fort else call.home,
            "no_fort_no_home": no_fort,
            "notes": ruleset.tabletop.sheet_notes_text,
        },
        "sides": sides,
        "nations": sorted({n for side in call.sides for n in side.nations}, key=index.__getitem__),
        "forces": sheet_forces(sides),
        "support": support,
        "decisive_text": ruleset.tabletop.decisive_text,
    }
    sheet["points"] = sheet_points(sides, support, ruleset.tabletop.sheet_points)
    sheet["fingerprint"] = sheet_fingerprint(sheet)
    return sheet


def sheet_forces(sides: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """nation -> type -> ground units on the sheet, summed over the nation's groups; every nation listed."""
    forces: dict[str, dict[str, int]] = {}
    for side in sides:
        for nation in side["nations"]:
            forces.setdefault(nation, {})
        for group in side["groups"]:
            mine = forces.setdefault(group["nation"], {})
            for unit_type, count in group["units"].items():
                mine[unit_type] = mine.get(unit_type, 0) + count
    return forces


def sheet_fingerprint(sheet: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical JSON of the sheet's forces (A5.2): sorted keys, no spaces, ASCII only."""
    body = {
        "key": sheet["key"],
        "kind": sheet["kind"],
        "sides": [{"id": side["id"], "groups": side["groups"]} for side in sheet["sides"]],
        "support": [list(line) for line in sheet["support"]],
    }
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def sheet_points(
    sides: Sequence[Mapping[str, Any]], support: Sequence[Sequence[Any]], points: SheetPoints | None
) -> dict[str, int] | None:
    """Suggested table points (A5.3): the largest side gets P, the others v / v_max × P, to a step."""
    if points is None:
        return None
    per_unit = points.per_unit
    values = {}
    for side in sides:
        v = sum(count * per_unit.get(t, 0) for g in side["groups"] for t, count in g["units"].items())
        v += sum(line[3] * per_unit.get(line[2], 0) for line in support if line[0] in side["nations"])
        values[side["id"]] = v
    most = max(values.values())
    big, step = points.larger_side_points, points.step
    if most == 0:
        return {name: big for name in values}
    # Half up to a multiple of the step, in exact integers.
    return {
        name: big if v == most else step * ((2 * big * v + most * step) // (2 * most * step))
        for name, v in values.items()
    }
