"""The turn's JSON writes by orjson (rules.json_fast) against json, which Django's JSONField uses: what they
encode must read back the same, whatever orjson refuses included."""

from __future__ import annotations

import enum
import json
from dataclasses import replace
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings

from rules.bench.turn import random_turn
from rules.engine import TurnInput, resolve_turn, ruleset_build
from rules.json_fast import json_bytes, json_text, result_json
from tests.rules.test_properties import FAST, _resolve, turns


def _plain(value: Any) -> Any:
    """What Django's JSONField gives back of a value it stored: json's encoding, read."""
    return json.loads(json.dumps(value))


@settings(FAST, max_examples=40)
@given(turns())
def test_a_result_encoded_from_its_dataclasses_reads_back_as_its_dict(
    case: tuple[TurnInput, str, int],
) -> None:
    turn, ruleset_name, seed = case
    result = _resolve(turn, ruleset_name, seed)

    assert json.loads(result_json(result)) == _plain(result.to_dict(battles=False))


@pytest.mark.parametrize("system", ["iron_fist", "sodankaynti"])
def test_a_busy_turns_result_and_reports_read_back_as_json_gives_them(system):
    result = resolve_turn(
        random_turn(regions=400, nations=8, seed=3, system=system),
        ruleset_build({"battle_system": system}),
        3,
    )
    assert result.battles and result.movements

    assert json.loads(result_json(result)) == _plain(result.to_dict(battles=False))
    assert [json.loads(json_bytes(dict(b))) for b in result.battles] == [
        _plain(dict(b)) for b in result.battles
    ]


def test_a_result_with_what_orjson_refuses_reads_back_as_its_dict():
    result = resolve_turn(
        random_turn(regions=100, nations=4, seed=5), ruleset_build({"battle_system": "iron_fist"}), 5
    )
    odd = replace(
        result,
        owners=MappingProxyType(dict(result.owners)),  # a mapping that is not a dict
        settlements=({"by_round": {1: "A", 2: None}, "big": 2**70},),  # an integer key, a 65-bit integer
    )

    assert json.loads(result_json(odd)) == _plain(odd.to_dict(battles=False))
    assert json.loads(result_json(odd))["settlements"] == [{"by_round": {"1": "A", "2": None}, "big": 2**70}]


class Colour(enum.StrEnum):
    RED = "red"


@pytest.mark.parametrize(
    "value",
    [
        {
            "text": 'tab\there, newline\nthere, back\\slash, "quotes", Ä, \\N, —, \x00\x1f\u2028 😀',
            "n": [1, 2.5],
        },
        {1: "an integer key", "nested": {None: 1, True: 2}},
        {Colour.RED: Colour.RED},
        [2**64 - 1, -(2**63), 2**64, -(2**63) - 1],
        [1e-7, 1e16, 0.1, -0.0],
    ],
)
def test_a_value_reads_back_as_json_gives_it(value):
    assert json.loads(json_bytes(value)) == _plain(value)
    assert json.loads(json_text(value)) == _plain(value)
