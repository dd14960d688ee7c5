"""The runner of tabletop turn cases (`kind: turn`, shared/rules/cases/tabletop/README.md).

A case is a turn with its entries and the state `plan` must return for them, or several `steps` of one turn,
each evaluated from scratch with its own entries; `submissions` check results against the state of the
top-level `entries`. `turn_case_check(data)` is None when everything expected is so, else the first mismatch.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..casefile import battle_keys_mismatches, case_turn, mapping, nonzero, turn_mismatches
from ..ruleset import RulesetError, ruleset_build
from ..state import TurnInput
from ..systems import CaseError
from .plan import BattlesPending, Complete, plan
from .results import Entrant, result_check
from .settings import TabletopRuleset

BATTLE_KEYS = (
    "key",
    "kind",
    "region",
    "resolution",
    "winner",
    "decisive",
    "losses",
    "conquest",
    "kta",
    "difference",
    "row",
)
STATE_KEYS = ("status", "open", "waiting", "resolved", "unopposed", "stale", "sheets")
RESULT_KEYS = ("battles", "owners", "units", "ignore_types", "support_chance", "support_rolls")
SHEET_KEYS = ("sides", "forces", "support", "points", "fingerprint")


def turn_case_check(data: Mapping[str, Any]) -> str | None:
    for key in ("nations", "regions"):
        if key not in data:
            raise CaseError(f"missing key {key!r}")
    turn = case_turn(data)
    try:
        ruleset = ruleset_build(data.get("ruleset") or {})
    except RulesetError as error:
        raise CaseError(f"ruleset: {error}") from None
    if not isinstance(ruleset, TabletopRuleset):
        raise CaseError("ruleset.battle_system: a turn case is a tabletop turn (battle_system: tabletop)")
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise CaseError(f"seed: expected a whole number, got {seed!r}")
    if "steps" in data:
        steps = data["steps"]
        if not isinstance(steps, list) or not steps:
            raise CaseError("steps: expected a list of {entries, expect}")
        for i, step in enumerate(steps):
            step = mapping(step, f"steps[{i}]")
            state = plan(turn, ruleset, seed, _entries(step.get("entries"), f"steps[{i}].entries"))
            for mismatch in _mismatches(mapping(step.get("expect"), f"steps[{i}].expect"), state):
                return f"steps[{i}].{mismatch}"
    elif "expect" in data:
        state = plan(turn, ruleset, seed, _entries(data.get("entries"), "entries"))
        for mismatch in _mismatches(mapping(data["expect"], "expect"), state):
            return mismatch
    elif "submissions" not in data:
        raise CaseError("a turn case needs expect, steps or submissions")
    return next(_submissions(data, turn, ruleset, seed), None)


def _entries(value: Any, where: str) -> dict[str, Mapping[str, Any]]:
    entries = mapping(value or {}, where)
    return {str(key): mapping(entry, f"{where}.{key}") for key, entry in entries.items()}


def _mismatches(expect: Mapping[str, Any], state: BattlesPending | Complete) -> Iterator[str]:
    unknown = [key for key in expect if key not in STATE_KEYS + RESULT_KEYS]
    if unknown:
        raise CaseError(f"expect.{unknown[0]}: not a key of tabletop turn cases")
    if "status" in expect and expect["status"] != state.status:
        yield f"status: expected {expect['status']}, got {state.status}"
        return
    lists = {
        "open": list(state.open),
        "resolved": list(state.resolved),
        "unopposed": list(getattr(state, "unopposed", ())),
        "stale": list(state.stale),
    }
    for key, got in lists.items():
        if key in expect and list(expect[key] or []) != got:
            yield f"{key}: expected {list(expect[key] or [])}, got {got}"
    if "waiting" in expect:
        wanted = {k: list(v) for k, v in mapping(expect["waiting"] or {}, "expect.waiting").items()}
        got = {k: list(v) for k, v in state.waiting.items()}
        if wanted != got:
            yield f"waiting: expected {wanted}, got {got}"
    for key, wanted in mapping(expect.get("sheets") or {}, "expect.sheets").items():
        yield from _sheet_mismatches(str(key), mapping(wanted, f"expect.sheets.{key}"), state.sheets)
    if any(key in expect for key in RESULT_KEYS):
        if not isinstance(state, Complete):
            yield f"status: expected complete (for {', '.join(RESULT_KEYS)}), got {state.status}"
            return
        yield from turn_mismatches(expect, state.turn_result, battle_keys_mismatches(BATTLE_KEYS))
        if "support_rolls" in expect:
            wanted = [list(roll) for roll in expect["support_rolls"] or []]
            got = [[roll.roll, roll.destroyed] for roll in state.turn_result.support_rolls]
            if wanted != got:
                yield f"support_rolls: expected {wanted}, got {got}"


def _sheet_mismatches(key: str, wanted: Mapping[str, Any], sheets: Mapping[str, Any]) -> Iterator[str]:
    if key not in sheets:
        yield f"sheets.{key}: expected a sheet, got none (sheets of {sorted(sheets)})"
        return
    sheet = sheets[key]
    unknown = [k for k in wanted if k not in SHEET_KEYS]
    if unknown:
        raise CaseError(f"expect.sheets.{key}.{unknown[0]}: not a key of a sheet")
    got = {
        "sides": [side["id"] for side in sheet["sides"]],
        "forces": nonzero(sheet["forces"]),
        "support": [list(line) for line in sheet["support"]],
        "points": sheet["points"],
        "fingerprint": sheet["fingerprint"],
    }
    for field, want in wanted.items():
        if field == "forces":
            want = nonzero(mapping(want, f"expect.sheets.{key}.forces"))
        elif field == "support":
            want = [[str(x) if i == 1 else x for i, x in enumerate(line)] for line in want or []]
        if want != got[field]:
            yield f"sheets.{key}.{field}: expected {want}, got {got[field]}"


def _submissions(
    data: Mapping[str, Any], turn: TurnInput, ruleset: TabletopRuleset, seed: int
) -> Iterator[str]:
    submissions = data.get("submissions") or []
    if not isinstance(submissions, list):
        raise CaseError("submissions: expected a list")
    if not submissions:
        return
    state = plan(turn, ruleset, seed, _entries(data.get("entries"), "entries"))
    for i, raw in enumerate(submissions):
        where = f"submissions[{i}]"
        submission = mapping(raw, where)
        key = str(submission.get("battle"))
        by = submission.get("by")
        if by == "gm":
            entrant = Entrant(gm=True)
        elif isinstance(by, Mapping) and isinstance(by.get("player_of"), str):
            entrant = Entrant(nation=by["player_of"])
        else:
            raise CaseError(f"{where}.by: expected gm or {{player_of: NATION}}, got {by!r}")
        result = dict(mapping(submission.get("result") or {}, f"{where}.result"))
        if "fingerprint" not in result and key in state.sheets:
            # Without one, it is checked as if it carried the current one (the README's format).
            result["fingerprint"] = state.sheets[key]["fingerprint"]
        check = result_check(
            state, key, result, by=entrant, ruleset=ruleset, turn_pending=isinstance(state, BattlesPending)
        )
        expect = mapping(submission.get("expect") or {}, f"{where}.expect")
        got = {
            "accepted": check.accepted,
            "errors": [str(e) for e in check.errors],
            "warnings": [str(w) for w in check.warnings],
        }
        for field in ("accepted", "errors", "warnings"):
            if field in expect:
                want = expect[field] if field == "accepted" else list(expect[field] or [])
                if want != got[field]:
                    yield f"{where} ({key}).{field}: expected {want}, got {got[field]}"
