"""Invariants of whole Sodankäynti turns, on the random small turns of the Iron Fist property tests with
Sodankäynti's inputs added (ratings, doctrines, doctrine and ambush orders, GM advantages):

- conservation: per nation and type, units before + new veteran units = units after + battle losses
  (destroyed and deserted) + units destroyed in the aftermath for want of a retreat; stacks stand in their
  nation's regions;
- every battle ends within D + b + 2 actions (SODANKAYNTI.md §9.4);
- the same input and seed give the same result; other nations' orders listed in another order change nothing;
- no side acts with a die it no longer has (replayed from each report).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import Order, TurnInput, TurnResult, resolve_turn, ruleset_build
from tests.conftest import examples
from tests.rules.test_properties import FAST, _interleaved, _totals, turns

from .test_battle_properties import replay_actions

RULESETS = {
    "default": ruleset_build({"battle_system": "sodankaynti"}),
    "variants": ruleset_build(
        {
            "battle_system": "sodankaynti",
            "politics": {"count": "net", "removed_fate": "deserted"},
            "standoff": "board_value",
            "machine_lost_when": "any_die",
            "meeting_winner_continues": False,
            "veterans": {"above": 3},
        }
    ),
}
DOCTRINES = ("steady", "bold", "cautious")


@st.composite
def sodankaynti_turns(draw: st.DrawFn) -> tuple[TurnInput, str, int]:
    turn, _, seed = draw(turns())
    codes = [r.code for r in turn.regions]
    owned = [r for r in turn.regions if r.owner]
    neighbours: dict[str, list[str]] = {c: [] for c in codes}
    for a, b in turn.borders:
        neighbours[a].append(b)
        neighbours[b].append(a)
    extra = []
    for nation in turn.nations:
        if draw(st.booleans()):
            region = draw(st.sampled_from(codes)) if draw(st.booleans()) else None
            params = {"doctrine": draw(st.sampled_from(DOCTRINES)), "region": region}
            extra.append(Order(nation, "doctrine", "", None, {}, params=params))
    for region in owned:
        if neighbours[region.code] and draw(st.integers(0, 3)) == 0:
            facing = draw(st.sampled_from(sorted(neighbours[region.code])))
            extra.append(Order(region.owner, "ambush", region.code, facing))
    attributes = {
        n: {"politics": draw(st.integers(0, 4)), "tactics": draw(st.integers(0, 4)), "doctrine": d}
        for n in turn.nations
        if (d := draw(st.sampled_from(DOCTRINES)))
    }
    gm = [
        {
            "region": draw(st.sampled_from(codes)),
            "nation": draw(st.sampled_from(turn.nations)),
            "roll": draw(st.sampled_from(("politics", "tactics"))),
            "dice": draw(st.integers(1, 3)),
        }
        for _ in range(draw(st.integers(0, 2)))
    ]
    orders = tuple(replace(o, ref=i) for i, o in enumerate(turn.orders + tuple(extra)))
    inputs = {
        "nation_attributes": attributes,
        "gm_advantages": gm,
        "skip_politics": draw(st.lists(st.sampled_from(codes), max_size=2)),
    }
    turn = replace(turn, orders=orders, system_inputs=inputs, gm_modifiers=())
    return turn, draw(st.sampled_from(sorted(RULESETS))), seed


def _resolve(turn: TurnInput, name: str, seed: int) -> TurnResult:
    return resolve_turn(turn, RULESETS[name], seed)


def _per_type(battles, key: str) -> Counter:
    counts: Counter = Counter()
    for battle in battles:
        for nation, by_type in (battle.get(key) or {}).items():
            for unit_type, count in by_type.items():
                counts[(nation, unit_type)] += count
    return counts


@FAST
@given(sodankaynti_turns())
def test_units_are_conserved_and_only_veterans_are_new(case) -> None:
    turn, name, seed = case
    result = _resolve(turn, name, seed)
    new: Counter = Counter()
    for battle in result.battles:
        for nation, by_origin in (battle.get("new_units") or {}).items():
            for counts in by_origin.values():
                for unit_type, count in counts.items():
                    new[(nation, unit_type)] += count
    lost = _per_type(result.battles, "losses") + _per_type(result.battles, "deserted")
    nowhere: Counter = Counter()
    for movement in result.movements:
        if movement.destination is None:
            nowhere[(movement.nation, movement.unit_type)] += movement.count
    before, after = _totals(turn.stacks), _totals(result.stacks)
    for key in set(before) | set(after) | set(lost) | set(new) | set(nowhere):
        assert before[key] + new[key] == after[key] + lost[key] + nowhere[key], key
    assert not result.support_rolls
    for stack in result.stacks:
        assert stack.count > 0 and result.owners[stack.region] == stack.nation, stack


@FAST
@given(sodankaynti_turns())
def test_every_battle_ends_within_its_bound_and_acts_only_with_dice_it_has(case) -> None:
    turn, name, seed = case
    for report in _resolve(turn, name, seed).battles:
        if report["kind"] == "unopposed":
            continue
        bonus = report.get("tactics", {}).get("bonus", 0)
        assert report["end"]["actions"] <= len(report.get("roll", {})) + bonus + 2
        replay_actions(report)


@settings(FAST, max_examples=examples(30))
@given(sodankaynti_turns())
def test_the_same_input_and_seed_give_the_same_result(case) -> None:
    turn, name, seed = case
    assert _resolve(turn, name, seed).to_dict() == _resolve(turn, name, seed).to_dict()


def _rejected(result: TurnResult) -> Counter:
    return Counter((r.order.ref, str(r.reason)) for r in result.rejected_orders)


@settings(FAST, max_examples=examples(50))
@given(sodankaynti_turns(), st.integers(0, 2**16))
def test_the_order_of_different_nations_orders_does_not_matter(case, shuffle_seed: int) -> None:
    turn, name, seed = case
    shuffled = replace(turn, orders=_interleaved(turn.orders, random.Random(shuffle_seed)))
    first, second = _resolve(turn, name, seed), _resolve(shuffled, name, seed)
    assert dict(first.owners) == dict(second.owners)
    assert sorted(first.stacks, key=repr) == sorted(second.stacks, key=repr)
    assert list(first.battles) == list(second.battles)
    assert _rejected(first) == _rejected(second)
