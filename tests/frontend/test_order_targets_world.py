"""The targets the order form offers (frontend.order_targets.targets_judged), judged in a world of only the
borders near the origins and once per process for the same inputs, against the engine's target rules in a
world of the whole map, before and after each change of what the rules read."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.generate import scenario_generate
from frontend.order_targets import TARGETED, targets_judged
from rules.engine.ruleset import ruleset_build
from rules.engine.validation import KIND_ROLES, target_reason
from rules.engine.world import World


def _whole_world(scenario, owner, not_at_war=None):
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
        not_at_war=not_at_war or {},
        weather="",
        gm_modifiers={},
    )


def _plain(world, ruleset, nation, left):
    """Every target within reach of every origin, judged by the engine's target rules in `world`."""
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
    return plain


def _board(seed, nation_index):
    """A generated map as targets_judged takes it, with the units of one of its nations."""
    scenario = scenario_generate(regions=80, nations=3, seed=seed)
    ids = {r["code"]: i for i, r in enumerate(scenario["regions"])}
    nation_ids = {n["code"]: 100 + i for i, n in enumerate(scenario["nations"])}
    owner = {r["code"]: r.get("owner") for r in scenario["regions"]}
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
    args = {
        "regions": [{"id": ids[c], "code": c, "owner_id": nation_ids.get(o)} for c, o in owner.items()],
        "nations": {i: {"code": c} for c, i in nation_ids.items()},
        "neighbours": neighbours,
        "not_at_war": {},
        "nation": nation,
        "left": left,
        "ruleset": ruleset_build(),
    }
    return scenario, owner, args


def test_a_nation_judged_again_is_judged_anew_after_any_change_of_what_the_rules_read() -> None:
    scenario, owner, args = _board(seed=5, nation_index=0)
    nation, ruleset = args["nation"], args["ruleset"]
    first = targets_judged(**args)
    assert targets_judged(**{**args, "left": dict(args["left"])}) is first, "the same inputs: judged once"
    origin = next(o for o, units in args["left"].items() if units.get("IV"))
    world = _whole_world(scenario, owner)
    other = next(t for t in world.adjacency[origin] if owner[t] not in (None, nation))  # an enemy next door
    taken = {**owner, other: nation}
    own_id = next(i for i, n in args["nations"].items() if n["code"] == nation)
    regions = [{**r, "owner_id": own_id} if r["code"] == other else r for r in args["regions"]]
    peace = {frozenset((nation, owner[other])): "peace"}
    no_air = {**args["left"], origin: {**args["left"][origin], "IV": 0}}
    for changed, world_after in (
        ({"regions": regions}, _whole_world(scenario, taken)),
        ({"not_at_war": peace}, _whole_world(scenario, owner, peace)),
        ({"left": no_air}, world),
    ):
        after = {**args, **changed}
        judged = targets_judged(**after)
        assert judged == _plain(world_after, ruleset, nation, after["left"]), changed
        assert judged != first, changed


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 2))
def test_it_judges_every_target_as_the_engine_does_on_the_whole_map(seed, nation_index) -> None:
    scenario, owner, args = _board(seed, nation_index)
    judged = targets_judged(**args)
    plain = _plain(_whole_world(scenario, owner), args["ruleset"], args["nation"], args["left"])
    left = args["left"]
    assert left and judged == plain
