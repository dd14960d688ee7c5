"""Every fast path of the engine against the plain code it replaces, on the property tests' random turns.

The plain versions live here, written the obvious way; the engine's must give the same answer on any turn.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import random
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import Stack, TurnInput
from rules.engine.phase import Phase, phase_start
from rules.engine.seam import BattleSide, Force, SeededDice, Supporter
from rules.engine.sharing import share
from rules.engine.state import json_data
from rules.engine.systems import system_get
from rules.engine.turn import combat_phase, turn_complete
from rules.engine.validation import orders_validate
from rules.engine.world import world_build
from tests.conftest import examples
from tests.rules.test_properties import FAST, RULESETS, TYPES, _resolve, turns


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


@settings(FAST, max_examples=examples(40))
@given(turns())
def test_a_result_as_data_is_what_dataclasses_asdict_gives(case: tuple[TurnInput, str, int]) -> None:
    turn, ruleset_name, seed = case
    result = _resolve(turn, ruleset_name, seed)
    plain = dataclasses.asdict(result)
    del plain["plan"]  # a system's plan is for the shell, not part of the stored result
    for data, rejected in zip(plain["rejected_orders"], result.rejected_orders, strict=True):
        data["reason"] = rejected.reason
    assert _json(result.to_dict()) == _json(plain)


@settings(FAST, max_examples=examples(20))
@given(turns())
def test_an_input_as_data_is_what_dataclasses_asdict_gives(case: tuple[TurnInput, str, int]) -> None:
    turn, _, _ = case
    assert _json(json_data(turn)) == _json(dataclasses.asdict(turn))


@settings(FAST, max_examples=examples(40))
@given(turns())
def test_the_stacks_after_come_in_region_nation_and_declared_type_order(
    case: tuple[TurnInput, str, int],
) -> None:
    turn, ruleset_name, seed = case
    stacks = _resolve(turn, ruleset_name, seed).stacks
    types, nations = list(RULESETS[ruleset_name].unit_types), list(turn.nations)

    def plain_order(s):
        return (s.region, nations.index(s.nation), types.index(s.unit_type))

    assert list(stacks) == sorted(stacks, key=plain_order)
    assert all(s.count > 0 for s in stacks)
    assert len({(s.region, s.nation, s.unit_type) for s in stacks}) == len(stacks)


def test_the_ruleset_remembers_its_types_by_role_and_rank():
    ruleset = RULESETS["default"]

    assert ruleset.ground_types == ruleset.types_with_role(*ruleset.fighting_roles)
    assert ruleset.support_types == ruleset.types_with_role("artillery") + ruleset.types_with_role("air")
    assert [ruleset.support_rank[t] for t in ruleset.support_types] == list(range(len(ruleset.support_types)))


def test_a_remembered_loss_row_is_the_first_row_that_covers_the_difference():
    ruleset = RULESETS["default"]
    for _ in range(2):  # the second time from memory
        for difference in range(0, 60):
            plain = next(row for row in ruleset.loss_table if row.covers(difference))
            assert ruleset.loss_row(difference) is plain


def _phase(turn: TurnInput, ruleset_name: str, seed: int) -> Phase:
    """The combat phase of `turn` just after movement, before any battle."""
    ruleset = RULESETS[ruleset_name]
    world = world_build(turn, ruleset)
    accepted, _ = orders_validate(world, ruleset, turn.orders)
    system = system_get(ruleset.battle_system)
    return phase_start(world, ruleset, system, [o for _, o in accepted], SeededDice(seed), {}, seed)


def _plain_supporters(phase: Phase, nations, regions, exclude) -> tuple[Supporter, ...]:
    """§3 read straight: every supporting stack of the nations whose type's range covers every region."""
    ranges, ruleset = phase.ruleset.ranges, phase.ruleset
    found = []
    for (nation, region, unit_type), count in phase.supporting.items():
        if nation not in nations:
            continue
        if any(region not in phase.world.within(r, ranges[unit_type]) for r in regions):
            continue
        if (nation, region) == exclude and ruleset.unit_types[unit_type].role == "artillery":
            continue
        found.append(Supporter(nation, region, unit_type, count))
    order = list(phase.world.nations)
    types = list(ruleset.support_types)
    return tuple(sorted(found, key=lambda s: (order.index(s.nation), s.region, types.index(s.unit_type))))


@settings(FAST, max_examples=examples(40))
@given(turns())
def test_the_supporters_of_a_battle_are_every_stack_in_range_in_nation_region_type_order(
    case: tuple[TurnInput, str, int],
) -> None:
    phase = _phase(*case)
    world = phase.world
    places = [(r,) for r in sorted(world.regions)]
    places += [(a, b) for a in sorted(world.adjacency) for b in world.adjacency[a]]
    for regions in places:
        for nations in [(n,) for n in world.nations] + [tuple(world.nations)]:
            owner = world.owner[regions[0]]
            for exclude in (None, (owner, regions[0])):
                expected = _plain_supporters(phase, nations, regions, exclude)
                assert phase.supporters(nations, regions, exclude) == expected


@given(st.integers(0, 50), st.lists(st.integers(0, 20), min_size=1, max_size=4))
def test_sharing_among_one_key_or_many_is_largest_remainder(total: int, weights: list[int]) -> None:
    keyed = [(f"K{i}", w) for i, w in enumerate(weights)]
    whole = sum(weights)
    plain = {k: 0 for k, _ in keyed}
    if whole:
        exact = {k: Fraction(total * w, whole) for k, w in keyed}
        plain = {k: math.floor(v) for k, v in exact.items()}
        by_remainder = sorted(keyed, key=lambda kw: (plain[kw[0]] - exact[kw[0]], kw[0]))
        for k, _ in by_remainder[: total - sum(plain.values())]:
            plain[k] += 1
    assert share(total, keyed, lambda k, _: k) == plain


@settings(FAST, max_examples=examples(40))
@given(turns())
def test_a_sides_counts_units_and_name_are_its_forces_summed(case: tuple[TurnInput, str, int]) -> None:
    turn, ruleset_name, seed = case
    types = RULESETS[ruleset_name].ground_types
    result = _resolve(turn, ruleset_name, seed)
    for report in result.battles:
        for data in report.get("sides", ()):
            # Each nation's units in two forces from two origins, the second with a zero count.
            forces = tuple(Force(n, "A", units) for n, units in data["units"].items())
            forces += tuple(Force(n, "B", {t: 0 for t in units}) for n, units in data["units"].items())
            side = BattleSide(nations=tuple(data["nations"]), role=data["role"], forces=forces)
            plain = {t: sum(units.get(t, 0) for units in data["units"].values()) for t in types}
            assert side.counts(types) == plain
            assert list(side.counts(types)) == list(types)
            assert side.ground == data["units"] and side.name == data["name"] == "+".join(
                sorted(data["nations"])
            )


def test_a_remembered_unit_value_is_the_terrain_value_with_the_weather_never_below_zero():
    ruleset = RULESETS["default"]
    for _ in range(2):  # the second time from memory
        for unit_type, spec in ruleset.unit_types.items():
            for terrain in spec.values:
                for weather, modifiers in ruleset.weather_modifiers.items():
                    plain = max(0, spec.values[terrain] + modifiers.get(unit_type, 0))
                    assert ruleset.unit_value(unit_type, terrain, weather) == plain


@given(st.integers(0, 2**32), st.lists(st.tuples(st.integers(-3, 3), st.integers(0, 100)), max_size=30))
def test_the_seeded_dice_draw_what_random_randint_draws(seed: int, ranges: list[tuple[int, int]]) -> None:
    dice, plain = SeededDice(seed), random.Random(seed)
    for low, width in ranges:
        assert dice.randint(low, low + width) == plain.randint(low, low + width)


def _given_otherwise(turn: TurnInput) -> TurnInput:
    """The same units given otherwise: in reverse order, a stack split in two, an empty stack added."""
    stacks = list(reversed(turn.stacks))
    if stacks:
        first = stacks.pop(0)
        half = first.count // 2
        stacks += [
            dataclasses.replace(first, count=half),
            dataclasses.replace(first, count=first.count - half),
        ]
        stacks.append(
            dataclasses.replace(first, unit_type=next(t for t in TYPES if t != first.unit_type), count=0)
        )
    return dataclasses.replace(turn, stacks=tuple(stacks))


@settings(FAST, max_examples=examples(40))
@given(turns())
def test_the_stacks_after_are_the_garrisons_after_and_a_region_left_alone_keeps_the_inputs_stacks(
    case: tuple[TurnInput, str, int],
) -> None:
    turn, ruleset_name, seed = case
    ruleset = RULESETS[ruleset_name]
    for variant in (turn, _given_otherwise(turn)):
        world_units = copy.deepcopy(world_build(variant, ruleset).units)
        phase, rejected = combat_phase(variant, ruleset, seed, SeededDice(seed))
        stacks = turn_complete(phase, rejected).stacks
        nations, types = list(variant.nations), list(ruleset.unit_types)
        plain = sorted(
            (
                Stack(nation, region, unit_type, count)
                for region, by_nation in phase.garrison.items()
                for nation, units in by_nation.items()
                for unit_type, count in units.items()
                if count > 0
            ),
            key=lambda s: (s.region, nations.index(s.nation), types.index(s.unit_type)),
        )
        assert list(stacks) == plain
        assert phase.world.units == world_units, "the phase changes copies of the world's units, never them"
        if variant is turn:  # given as they come out: those of a region the phase left alone are the input's
            left_alone = {s.region for s in turn.stacks} - phase.garrison.copied
            assert [s for s in turn.stacks if s.region in left_alone] == [
                s for s in stacks if s.region in left_alone
            ]
            # and any stack that is as the input gave it is the input's object, wherever it stands
            inputs = {(s.nation, s.region, s.unit_type, s.count): s for s in turn.stacks}
            assert all(inputs.get((s.nation, s.region, s.unit_type, s.count), s) is s for s in stacks)
