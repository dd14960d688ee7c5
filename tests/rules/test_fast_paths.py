"""Every fast path of the engine against the plain code it replaces, on the property tests' random turns.

The plain versions live here, written the obvious way; the engine's must give the same answer on any turn.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from hypothesis import given, settings

from rules.engine import TurnInput
from rules.engine.state import json_data
from tests.rules.test_properties import FAST, RULESETS, _resolve, turns


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


@settings(FAST, max_examples=40)
@given(turns())
def test_a_result_as_data_is_what_dataclasses_asdict_gives(case: tuple[TurnInput, str, int]) -> None:
    turn, ruleset_name, seed = case
    result = _resolve(turn, ruleset_name, seed)
    plain = dataclasses.asdict(result)
    del plain["plan"]  # a system's plan is for the shell, not part of the stored result
    for data, rejected in zip(plain["rejected_orders"], result.rejected_orders, strict=True):
        data["reason"] = rejected.reason
    assert _json(result.to_dict()) == _json(plain)


@settings(FAST, max_examples=20)
@given(turns())
def test_an_input_as_data_is_what_dataclasses_asdict_gives(case: tuple[TurnInput, str, int]) -> None:
    turn, _, _ = case
    assert _json(json_data(turn)) == _json(dataclasses.asdict(turn))


@settings(FAST, max_examples=40)
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
    assert list(ruleset.type_rank) == list(ruleset.unit_types)
    assert [ruleset.type_rank[t] for t in ruleset.unit_types] == list(range(len(ruleset.unit_types)))
