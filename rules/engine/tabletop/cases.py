"""The runner of tabletop cases (shared/rules/cases/tabletop/README.md): the calculator's (`kind:
close_combat`) here, turns (`kind: turn`) in turn_cases.py.

`case_check(data, path)` runs one parsed case file: None when it passes, else its first mismatch as one line,
"where: expected X, got Y". A malformed file raises `CaseError`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from rules.engine.ruleset import RulesetError
from rules.engine.systems import CaseError

from .close_combat import TERMS, close_combat_round
from .close_combat_settings import close_combat_settings_build
from .turn_cases import turn_case_check

# The keys an `expect` may give; each is checked only when given.
EXPECT_KEYS = (
    "totals",
    "terms",
    "ranks_from",
    "overkill_raw",
    "winners",
    "losers",
    "tie",
    "difference",
    "units",
    "break_tests",
    "no_test",
    "ignored_relations",
    "dice_used",
    "errors",
)


def case_check(data: Mapping[str, Any], path: Path) -> str | None:
    """Run one tabletop case; the first mismatch, or None when everything expected is so."""
    if data.get("kind") == "turn":
        return turn_case_check(data)
    if data.get("kind") != "close_combat":
        raise CaseError(f"kind: expected close_combat or turn, got {data.get('kind')!r}")
    expect = data.get("expect")
    if not isinstance(expect, Mapping):
        raise CaseError("expect: expected a mapping")
    unknown = [key for key in expect if key not in EXPECT_KEYS]
    if unknown:
        raise CaseError(f"expect.{unknown[0]}: not a key of close_combat cases")
    if "input" not in data:
        raise CaseError("missing key 'input'")
    try:
        settings = close_combat_settings_build(data.get("settings") or {})
    except RulesetError as error:
        raise CaseError(f"settings: {error}") from None
    round_input = data["input"]
    if "dice" in data and isinstance(round_input, Mapping):
        round_input = {**round_input, "dice": data["dice"]}
    outcome = close_combat_round(round_input, settings)
    errors = [str(error) for error in outcome.errors]
    if "errors" in expect:
        wanted = list(expect["errors"] or [])
        if wanted != errors:
            return f"errors: expected {wanted}, got {errors or 'none: the round was accepted'}"
        return None
    if outcome.output is None:
        return f"errors: expected none, got {errors}"
    return next(_mismatches(expect, outcome.output), None)


def _mismatches(expect: Mapping[str, Any], output: Mapping[str, Any]) -> Iterator[str]:
    sides = {side["name"]: side for side in output["sides"]}
    for key in ("totals", "ranks_from", "overkill_raw"):
        field = "total" if key == "totals" else key
        for name, wanted in _mapping(expect.get(key), f"expect.{key}").items():
            got = sides[name][field] if name in sides else "no such side"
            if got != wanted:
                yield f"{key}.{name}: expected {wanted}, got {got}"
    for name, wanted in _mapping(expect.get("terms"), "expect.terms").items():
        if name not in sides:
            yield f"terms.{name}: expected a side, got none"
            continue
        wanted = _mapping(wanted, f"expect.terms.{name}")
        unknown = [term for term in wanted if term not in TERMS]
        if unknown:
            raise CaseError(f"expect.terms.{name}.{unknown[0]}: not a term")
        for term in TERMS:
            want, got = wanted.get(term, 0), sides[name]["terms"][term]
            if want != got:
                yield f"terms.{name}.{term}: expected {want}, got {got}"
    for key in ("winners", "losers", "tie", "difference"):
        if key in expect and expect[key] != output["result"][key]:
            yield f"{key}: expected {expect[key]}, got {output['result'][key]}"
    units = {unit["id"]: unit for unit in output["units"]}
    for uid, wanted in _mapping(expect.get("units"), "expect.units").items():
        for key, want in _mapping(wanted, f"expect.units.{uid}").items():
            got = units[uid].get(key, "no such key") if uid in units else "no such unit"
            if want != got:
                yield f"units.{uid}.{key}: expected {want}, got {got}"
    if "break_tests" in expect:
        wanted, tests = expect["break_tests"] or [], output["break_tests"]
        if not isinstance(wanted, list):
            raise CaseError("expect.break_tests: expected a list")
        got_units = [test["unit"] for test in tests]
        if len(wanted) != len(tests) or any(
            _mapping(w, "expect.break_tests[]").get("unit", u) != u
            for w, u in zip(wanted, got_units, strict=False)
        ):
            yield f"break_tests: expected {[t.get('unit') for t in wanted]}, got {[t['unit'] for t in tests]}"
            return
        for index, (want, got) in enumerate(zip(wanted, tests, strict=True)):
            for key, value in _mapping(want, f"expect.break_tests[{index}]").items():
                if value != got.get(key, "no such key"):
                    yield f"break_tests[{index}] ({got['unit']}).{key}: expected {value}, got {got.get(key)}"
    for key, empty in (("no_test", {}), ("ignored_relations", []), ("dice_used", [])):
        if key in expect:
            want = empty if expect[key] is None else expect[key]
            got = output["dice"]["used"] if key == "dice_used" else output[key]
            if want != got:
                yield f"{key}: expected {want}, got {got}"


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    """`value` as a mapping (absent or null: empty); a case that gives anything else is malformed."""
    value = {} if value is None else value
    if not isinstance(value, Mapping):
        raise CaseError(f"{where}: expected a mapping")
    return value
