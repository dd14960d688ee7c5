"""Large random scenarios for benchmarks and load tests, in the scenario file format: the one random map
generator, for the database benchmarks (bench_turn, bench_api, bench_pages) and the engine's own
(`python -m rules bench`, rules/bench/turn.py).

The map is a grid of square regions with borders to the four neighbours and some diagonals; nations grow
outward from scattered capitals so each holds one connected block. Deterministic for a given seed.

Pure Python, no Django: the engine's benchmark runs without it. Writing generated orders to the database
is orders.services.orders_place.
"""

from __future__ import annotations

import argparse
import math
import random
from typing import Any

from campaign.borders import adjacency
from rules.engine.ruleset import Ruleset, ruleset_build
from rules.engine.state import Terrain

TERRAIN_WEIGHTS = {Terrain.OPEN.value: 6, Terrain.ROUGH.value: 3, Terrain.CITY.value: 1}
CELL = 20


def scenario_arguments_add(parser: argparse.ArgumentParser, *, nations: int, seed: int | None) -> None:
    """A management command's arguments for scenario_generate: --regions, --nations and --seed, the last
    left out (seed None) where the command seeds each of its scenarios itself."""
    parser.add_argument("--regions", type=int, default=2000)
    parser.add_argument("--nations", type=int, default=nations)
    if seed is not None:
        parser.add_argument("--seed", type=int, default=seed)


def scenario_generate(*, regions: int, nations: int, seed: int = 0) -> dict[str, Any]:
    if regions < 2 or nations < 1 or nations > regions:
        raise ValueError("need at least 2 regions and between 1 and as many nations as regions")
    rng = random.Random(seed)
    ruleset = ruleset_build()
    columns = math.ceil(math.sqrt(regions))
    cells = [(i // columns, i % columns) for i in range(regions)]
    code = {cell: f"R{i:05d}" for i, cell in enumerate(cells)}
    borders = []
    for (row, col), name in code.items():
        for other in ((row, col + 1), (row + 1, col)) + (((row + 1, col + 1),) if rng.random() < 0.2 else ()):
            if other in code:
                borders.append([name, code[other]])
    nation_codes = [f"N{i:03d}" for i in range(nations)]
    owner = _nations_grow(cells, code, borders, nation_codes, rng)
    region_list = []
    units: dict[str, dict[str, dict[str, int]]] = {}
    for (row, col), name in code.items():
        terrain = rng.choices(list(TERRAIN_WEIGHTS), weights=list(TERRAIN_WEIGHTS.values()))[0]
        x, y = col * CELL, row * CELL
        region_list.append(
            {
                "code": name,
                "name": f"Region {name[1:]}",
                "terrain": terrain,
                "fort": rng.choice([0, 0, 0, 1, 2, 3]),
                "home": owner[name],
                "owner": owner[name],
                "shape": [[x, y], [x + CELL, y], [x + CELL, y + CELL], [x, y + CELL]],
                "label": [x + CELL / 2, y + CELL / 2],
            }
        )
        units[name] = {owner[name]: _stack(ruleset, rng)}
    relations = [
        {"nations": [a, b], "kind": "peace"}
        for i, a in enumerate(nation_codes)
        for b in nation_codes[i + 1 :]
        if rng.random() < 0.2
    ]
    return {
        "name": f"Generated: {regions} regions, {nations} nations (seed {seed})",
        "seed": seed,
        "nations": [{"code": n, "name": f"Nation {n[1:]}", "color": _color(rng)} for n in nation_codes],
        "relations": relations,
        "regions": region_list,
        "borders": borders,
        "units": units,
    }


def _nations_grow(cells, code, borders, nation_codes, rng) -> dict[str, str]:
    """Breadth-first growth from random capitals, one region per nation per round: connected blocks."""
    neighbours = adjacency(code.values(), borders)
    capitals = rng.sample(list(code.values()), len(nation_codes))
    owner = dict(zip(capitals, nation_codes, strict=True))
    frontiers = {n: [c] for n, c in zip(nation_codes, capitals, strict=True)}
    while len(owner) < len(code):
        grew = False
        for nation in nation_codes:
            frontier = frontiers[nation]
            while frontier:
                region = frontier[0]
                free = [n for n in neighbours[region] if n not in owner]
                if not free:
                    frontier.pop(0)
                    continue
                taken = rng.choice(free)
                owner[taken] = nation
                frontier.append(taken)
                grew = True
                break
        if not grew:
            break
    return owner


def _stack(ruleset: Ruleset, rng: random.Random) -> dict[str, int]:
    """Every region garrisoned by ground units; artillery in about a third, air in about a fifth."""
    stack = {}
    for code, unit_type in ruleset.unit_types.items():
        if unit_type.role == "ground":
            count = rng.randint(2, 8) if not stack else rng.randint(0, 4)
        else:
            count = rng.randint(1, 2) if rng.random() < (0.3 if unit_type.role == "artillery" else 0.2) else 0
        if count:
            stack[code] = count
    return stack


def _color(rng: random.Random) -> str:
    return "#" + "".join(f"{rng.randint(40, 220):02x}" for _ in range(3))


def orders_generate(*, scenario: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    """A busy turn: from about half the frontier regions, an attack with most ground units on a neighbour."""
    rng = random.Random(seed)
    attackers = ruleset_build(scenario.get("ruleset") or {}).types_with_role("ground")
    regions, borders, units = scenario["regions"], scenario["borders"], scenario["units"]
    at_peace = {frozenset(r["nations"]) for r in scenario.get("relations", ())}
    owner = {r["code"]: r["owner"] for r in regions}
    neighbours = adjacency(owner, borders)
    orders = []
    for region in sorted(owner):
        nation = owner[region]
        targets = [
            n
            for n in neighbours[region]
            if owner[n] != nation and (owner[n] is None or frozenset((nation, owner[n])) not in at_peace)
        ]
        ground = {t: c for t, c in units.get(region, {}).get(nation, {}).items() if t in attackers and c > 1}
        if not targets or not ground or rng.random() < 0.5:
            continue
        orders.append(
            {
                "nation": nation,
                "kind": "attack",
                "origin": region,
                "target": rng.choice(targets),
                "units": {t: c - 1 for t, c in ground.items()},
            }
        )
    return orders
