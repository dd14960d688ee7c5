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
from tests.rules.test_properties import FAST, _resolve, turns


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


@settings(FAST, max_examples=40)
@given(turns())
def test_a_result_as_data_is_what_dataclasses_asdict_gives(case: tuple[TurnInput, str, int]) -> None:
    turn, ruleset_name, seed = case
    result = _resolve(turn, ruleset_name, seed)
    assert _json(result.to_dict()) == _json(dataclasses.asdict(result))


@settings(FAST, max_examples=20)
@given(turns())
def test_an_input_as_data_is_what_dataclasses_asdict_gives(case: tuple[TurnInput, str, int]) -> None:
    turn, _, _ = case
    assert _json(json_data(turn)) == _json(dataclasses.asdict(turn))
