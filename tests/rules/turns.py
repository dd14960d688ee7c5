"""Build and play small turns in the adjudication-case format, for tests of single rules."""

from __future__ import annotations

from typing import Any

from rules.cases import case_parse, units_in
from rules.engine import TurnResult, resolve_turn

NO_DICE = {"kta_die": None}


def play(**case: Any) -> TurnResult:
    """Resolve a turn written like a case file (without `expect`); dice are off unless the ruleset says."""
    case.setdefault("ruleset", {})
    case["ruleset"] = {**NO_DICE, **case["ruleset"]}
    parsed = case_parse({**case, "expect": {}})
    return resolve_turn(parsed.turn, parsed.ruleset, parsed.seed)


def garrisoned(**garrisons: tuple[str, dict[str, int]]) -> dict:
    """The `regions` and `units` of a case whose every region is held by the one nation in it:
    `garrisoned(A=("RED", {"JV": 6}))` is A, RED's, with 6 JV of RED's in it."""
    return {
        "regions": {region: {"owner": nation} for region, (nation, _) in garrisons.items()},
        "units": {region: {nation: units} for region, (nation, units) in garrisons.items()},
    }


def duel_case(attacker: dict, defender: dict, *, attacking: dict | None = None, **extra: Any) -> dict:
    """A case where RED in A attacks BLUE in B (both open) with `attacking` (by default all of `attacker`);
    `extra` replaces whole regions and adds borders, units and orders after RED's attack, or any other key."""
    regions = {"A": {"terrain": "open", "owner": "RED"}, "B": {"terrain": "open", "owner": "BLUE"}}
    regions.update(extra.pop("regions", {}))
    attacking = dict(attacker) if attacking is None else attacking
    case = {
        "nations": ["RED", "BLUE"],
        "regions": regions,
        "borders": [["A", "B"]] + extra.pop("borders", []),
        "units": {"A": {"RED": attacker}, "B": {"BLUE": defender}, **extra.pop("units", {})},
        "orders": [{"nation": "RED", "kind": "attack", "from": "A", "to": "B", "units": attacking}]
        + extra.pop("orders", []),
    }
    case.update(extra)
    return case


def duel(attacker: dict, defender: dict, **extra: Any) -> TurnResult:
    """RED in A attacks BLUE in B with all its ground units; `extra` overrides any part of the case."""
    attacking = {t: c for t, c in attacker.items() if t in ("JV", "PA")}
    return play(**duel_case(attacker, defender, attacking=attacking, **extra))


def battle(result: TurnResult, index: int = 0) -> dict:
    return result.battles[index]


def units(result: TurnResult, region: str) -> dict[str, dict[str, int]]:
    return units_in(result, region)
