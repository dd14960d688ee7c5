"""The targets the order form offers (frontend.order_targets.targets_judged), judged in a world of only the
borders near the origins, against the engine's target rules in a world of the whole map."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.generate import scenario_generate
from frontend.order_targets import TARGETED, targets_judged
from rules.engine.ruleset import ruleset_build
from rules.engine.validation import KIND_ROLES, target_reason
from rules.engine.world import World


def _whole_world(scenario, owner):
    adjacency: dict[str, set[str]] = {r["code"]: set() for r in scenario["regions"]}
    for a, b in scenario["borders"]:
        adjacency[a].add(b)
        adjacency[b].add(a)
    codes = [n["code"] for n in scenario["nations"]]
    return World(
        nations=tuple(codes),
        nation_index={c: i for i, c in enumerate(codes)},
        regions=dict.fromkeys(owner),
        adjacency={code: tuple(sorted(bs)) for code, bs in adjacency.items()},
        owner=owner,
        units={},
        not_at_war={},
        weather="",
        gm_modifiers={},
    )


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 2))
def test_it_judges_every_target_as_the_engine_does_on_the_whole_map(seed, nation_index) -> None:
    scenario = scenario_generate(regions=80, nations=3, seed=seed)
    ruleset = ruleset_build()
    ids = {r["code"]: i for i, r in enumerate(scenario["regions"])}
    nation_ids = {n["code"]: 100 + i for i, n in enumerate(scenario["nations"])}
    owner = {r["code"]: r.get("owner") for r in scenario["regions"]}
    regions = [{"id": ids[c], "code": c, "owner_id": nation_ids.get(o)} for c, o in owner.items()]
    neighbours: dict[int, set[int]] = {}
    for a, b in scenario["borders"]:
        neighbours.setdefault(ids[a], set()).add(ids[b])
        neighbours.setdefault(ids[b], set()).add(ids[a])
    nation = scenario["nations"][nation_index]["code"]
    left = {
        region: dict(by_nation[nation])
        for region, by_nation in scenario["units"].items()
        if nation in by_nation
    }
    judged = targets_judged(
        regions=regions,
        nations={i: {"code": c} for c, i in nation_ids.items()},
        neighbours=neighbours,
        not_at_war={},
        nation=nation,
        left=left,
        ruleset=ruleset,
    )
    world = _whole_world(scenario, owner)
    steps = max([1, *ruleset.ranges.values()])
    plain = {}
    for origin, units in left.items():
        plain[origin] = {}
        for kind in TARGETED:
            types = [t for t in ruleset.types_with_role(*KIND_ROLES[kind]) if units.get(t, 0) > 0]
            if types:
                plain[origin][kind] = {
                    target: (None if why is None else why.message)
                    for target in sorted(world.within(origin, steps))
                    if target != origin
                    for why in [
                        target_reason(
                            world,
                            ruleset,
                            nation=nation,
                            kind=kind,
                            origin=origin,
                            target=target,
                            units=types,
                        )
                    ]
                }
    assert left and judged == plain
