"""Sodankäynti's adjudication cases (shared/rules/cases/sodankaynti/README.md): run one, compare its view.

`case_check(data, path)` takes a parsed case file: None when it passes, else the first mismatch as one
line; CaseError for a malformed file. A case may expect the turn to be refused: `error: input` (§16) or
`error: rolls` (§13: a scripted roll out of range, the script running out or rolls left over).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..casefile import case_turn, mapping, turn_mismatches
from ..ruleset import RulesetError, ruleset_build
from ..seam import DiceError, ScriptedDice, SeededDice
from ..systems import CaseError
from ..turn import resolve_turn
from ..world import TurnInputError
from .view import battle_mismatches

SYSTEM_INPUTS = ("nation_attributes", "gm_advantages", "skip_politics")
ERRORS = ("input", "rolls")


def case_check(data: Mapping[str, Any], path: Path) -> str | None:
    if not isinstance(data, Mapping):
        raise CaseError("the file must hold a mapping")
    for key in ("nations", "regions", "expect"):
        if key not in data:
            raise CaseError(f"missing key {key!r}")
    expect = mapping(data["expect"], "expect")
    seed, rolls = data.get("seed", 0), data.get("rolls")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise CaseError(f"seed: expected a whole number, got {seed!r}")
    if rolls is not None and not isinstance(rolls, list):
        raise CaseError(f"rolls: expected a list of numbers, got {rolls!r}")
    if expect.get("error", "input") not in ERRORS:
        raise CaseError(f"expect.error: expected one of {', '.join(ERRORS)}, got {expect['error']!r}")
    turn = case_turn(data, {key: data[key] for key in SYSTEM_INPUTS if key in data})
    error, result = None, None
    try:
        ruleset = ruleset_build(data.get("ruleset") or {})
        dice = SeededDice(seed) if rolls is None else ScriptedDice(rolls)
        result = resolve_turn(turn, ruleset, seed, dice=dice)
        if isinstance(dice, ScriptedDice):
            dice.finish()
    except (RulesetError, TurnInputError) as refused:
        error = ("input", refused)
    except DiceError as refused:
        error = ("rolls", refused)
    if "error" in expect:
        if error is None:
            return f"error: expected the turn to be refused ({expect['error']}), but it was resolved"
        if error[0] != expect["error"]:
            return f"error: expected {expect['error']}, got {error[0]}: {error[1]}"
        return None
    if error is not None:
        return f"{error[0]}: {error[1]}"
    assert result is not None
    return next(iter(turn_mismatches(expect, result, battle_mismatches)), None)
