"""Adjudication case files (shared/rules/cases/README.md): load one, run the engine, compare.

A file is routed to its battle system (BATTLE_SYSTEMS.md, "The case runner"): by its top-level `kind`
(`close_combat` or `turn`: tabletop), else `system`, else `ruleset.battle_system`, else Iron Fist. A system
with a case runner of its own (`BattleSystem.case_check`) runs it; the others are run here, in the Iron Fist
format. A case that cannot be read, or whose turn the engine refuses, is a failed case with a message; the
runner never stops on a traceback.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from rules.engine import TurnInput, TurnResult, resolve_turn, ruleset_build
from rules.engine.casefile import battle_keys_mismatches, case_turn, mapping, turn_mismatches, units_in
from rules.engine.ruleset import Ruleset
from rules.engine.seam import DiceError, ScriptedDice
from rules.engine.systems import DEFAULT_SYSTEM, CaseError, SystemUnavailable, system_get, system_of_case_kind

__all__ = ["CaseError", "case_check", "case_load", "case_parse", "cases_run", "units_in"]

BATTLE_KEYS = ("kind", "region", "kta", "difference", "winner", "row", "losses", "conquest")


@dataclass(frozen=True)
class Case:
    path: Path
    name: str
    turn: TurnInput
    ruleset: Ruleset
    seed: int
    expect: Mapping[str, Any]
    rolls: tuple[Any, ...] | None = None  # scripted dice instead of the seed


def case_read(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise CaseError(f"cannot read the file: {' '.join(str(error).split())}") from None


def case_load(path: Path) -> Case:
    return case_parse(case_read(path), path=path)


def case_system(data: Any) -> str:
    """Which battle system a case file is for (BATTLE_SYSTEMS.md, "The case runner")."""
    if not isinstance(data, Mapping):
        return DEFAULT_SYSTEM
    by_kind = system_of_case_kind(data.get("kind"))
    if by_kind is not None:
        return by_kind
    if isinstance(data.get("system"), str):
        return data["system"]
    ruleset = data.get("ruleset")
    if isinstance(ruleset, Mapping) and isinstance(ruleset.get("battle_system"), str):
        return ruleset["battle_system"]
    return DEFAULT_SYSTEM


def case_run(path: Path) -> str | None:
    """Run one case file with its battle system: None when it passes, else the first mismatch."""
    data = case_read(path)
    try:
        system = system_get(case_system(data))
    except SystemUnavailable as error:
        return str(error)
    if system.case_check is not None:
        return system.case_check(data, path)
    return case_check(case_parse(data, path=path))


def case_parse(data: Any, *, path: Path = Path("<case>")) -> Case:
    """A case from its parsed YAML (a mapping in the format of shared/rules/cases/README.md)."""
    if not isinstance(data, Mapping):
        raise CaseError("the file must hold a mapping")
    for key in ("nations", "regions", "expect"):
        if key not in data:
            raise CaseError(f"missing key {key!r}")
    turn = case_turn(data)
    ruleset = ruleset_build(data.get("ruleset") or {})
    seed = data.get("seed", 0)
    if not isinstance(seed, int):
        raise CaseError(f"seed: expected a whole number, got {seed!r}")
    rolls = data.get("rolls")
    if rolls is not None and not isinstance(rolls, list):
        raise CaseError(f"rolls: expected a list of numbers, got {rolls!r}")
    return Case(
        path,
        str(data.get("name", path.stem)),
        turn,
        ruleset,
        seed,
        mapping(data["expect"], "expect"),
        None if rolls is None else tuple(rolls),
    )


def case_check(case: Case) -> str | None:
    """Run the case; the first mismatch as "where: expected X, got Y", or None when all is as expected."""
    dice = None if case.rolls is None else ScriptedDice(case.rolls)
    try:
        result = resolve_turn(case.turn, case.ruleset, case.seed, dice=dice)
        if dice is not None:
            dice.finish()
    except DiceError as error:
        return f"rolls: {error}"
    for mismatch in _mismatches(case.expect, result):
        return mismatch
    return None


def _mismatches(expect: Mapping[str, Any], result: TurnResult) -> Iterable[str]:
    yield from turn_mismatches(expect, result, _battle_mismatches)
    chances = {(c["nation"], c["region"], c["unit_type"]): c["chance"] for c in result.support_chances}
    for nation, by_region in (expect.get("support_chance") or {}).items():
        for region, by_type in by_region.items():
            for unit_type, chance in by_type.items():
                got = chances.get((nation, str(region), unit_type), 0)
                if got != chance:
                    yield f"support_chance.{nation}.{region}.{unit_type}: expected {chance}, got {got}"


_battle_mismatches = battle_keys_mismatches(BATTLE_KEYS)


def cases_run(directories: Iterable[str | Path]) -> tuple[int, list[str]]:
    """Run every *.yaml case under the directories; (passed, failure lines)."""
    passed, failures = 0, []
    for directory in directories:
        directory = Path(directory)
        if not directory.is_dir():
            failures.append(f"{directory}: not a directory")
            continue
        for path in sorted(directory.glob("*.yaml")):
            try:
                mismatch = case_run(path)
            except CaseError as error:
                mismatch = str(error)
            except Exception as error:  # a turn the engine refused, or a bug: a failed case, not a traceback
                mismatch = f"{type(error).__name__}: {error}"
            if mismatch is None:
                passed += 1
            else:
                failures.append(f"{path.name}: {mismatch}")
    return passed, failures
