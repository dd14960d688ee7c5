"""The view of a battle report that a case's `expect.battles` entry checks (cases/sodankaynti/README.md)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

ACTION_KEYS = ("n", "side", "nation", "bonus", "kind", "rule", "by", "targets", "destroyed", "withdrawn")


def _nonzero(counts: Mapping[str, Any] | None) -> dict[str, dict[str, int]]:
    return {
        n: kept
        for n, by_type in (counts or {}).items()
        if (kept := {t: c for t, c in (by_type or {}).items() if c})
    }


def _per_type(ids: Iterable[str]) -> dict[str, dict[str, int]]:
    """Die ids counted per nation and type (a war machine die counts 1)."""
    counts: dict[str, dict[str, int]] = {}
    for die_id in ids:
        nation, _, unit_type = die_id.split("/")[:3]
        counts.setdefault(nation, {})[unit_type] = counts.setdefault(nation, {}).get(unit_type, 0) + 1
    return counts


def _ids(dice: Iterable[Mapping[str, Any]]) -> list[str]:
    return [d["id"] for d in dice]


def _roll_view(report: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    view: dict[str, Any] = {}
    if "pools" in report:
        view["successes"] = {name: pool["successes"] for name, pool in report["pools"].items()}
    for key in ("winner", "bonus", "first", "unused", "skipped"):
        if key in report:
            view[key] = report[key]
    if "removed" in report:
        view["removed"] = _per_type(report["removed"])
    return view


def _action_view(action: Mapping[str, Any]) -> dict[str, Any]:
    view = {k: action[k] for k in ("n", "side", "nation", "bonus", "kind", "rule") if k in action}
    if "by" in action:
        view["by"] = action["by"]["id"]
        view["targets"] = _ids(action["targets"])
    for key in ("destroyed", "withdrawn"):
        if key in action:
            view[key] = _ids(action[key])
    return view


def battle_mismatches(want: Mapping[str, Any], got: Mapping[str, Any], where: str) -> Iterable[str]:
    """Every expected key of one battle against its report; each mismatch as one line."""
    for key, expected in want.items():
        name = f"{where}.{key}"
        if key in ("kind", "region", "conquest"):
            actual = got.get(key)
        elif key == "winner":
            actual = got["end"]["winner"] if "end" in got else got.get("winner")
        elif key == "end":
            actual = got.get("end", {}).get("cause")
        elif key in ("politics", "tactics"):
            yield from _dict_mismatches(
                expected or {}, _roll_view(got.get(key) or {}), name, exact=("removed",)
            )
            continue
        elif key == "roll":
            actual = _side_values(got)
            expected = {str(k): v for k, v in (expected or {}).items()}
        elif key == "actions":
            actions = [_action_view(a) for a in got.get("actions", [])]
            expected = expected or []
            if len(expected) != len(actions):
                yield f"{name}: expected {len(expected)} actions, got {len(actions)} {actions}"
                continue
            for i, (w, a) in enumerate(zip(expected, actions, strict=True)):
                yield from _dict_mismatches(w, a, f"{name}[{i}]")
            continue
        elif key == "losses":
            given = {n: c for n, c in (expected or {}).items()}
            actual = {n: c for n, c in _nonzero(got.get("losses")).items() if n in given}
            expected = _nonzero(given)
        elif key == "veterans":
            view = _veterans_view(got)
            for nation, wanted in (expected or {}).items():
                mine = view.get(nation, {"rolls": [], "new": {}})
                if "rolls" in wanted and list(wanted["rolls"] or []) != mine["rolls"]:
                    yield f"{name}.{nation}.rolls: expected {wanted['rolls']}, got {mine['rolls']}"
                if "new" in wanted and _nonzero({"n": wanted["new"]}) != _nonzero({"n": mine["new"]}):
                    yield f"{name}.{nation}.new: expected {wanted['new']}, got {mine['new']}"
            continue
        else:
            actual = got.get(key)
        if expected != actual:
            yield f"{name}: expected {expected}, got {actual}"


def _dict_mismatches(
    want: Mapping[str, Any], got: Mapping[str, Any], where: str, exact: tuple[str, ...] = ()
) -> Iterable[str]:
    for key, expected in want.items():
        actual = got.get(key)
        if key in exact:
            expected, actual = _nonzero(expected), _nonzero(actual)
        elif isinstance(expected, Mapping) and isinstance(actual, Mapping):
            expected = {str(k): v for k, v in expected.items()}
        if expected != actual:
            yield f"{where}.{key}: expected {expected}, got {actual}"


def _side_values(report: Mapping[str, Any]) -> dict[str, list[int]]:
    rolled = report.get("roll") or {}
    values: dict[str, list[int]] = {}
    for side in report.get("sides", []):
        nations = set(side["nations"])
        values[side["name"]] = [v for die_id, v in rolled.items() if die_id.split("/")[0] in nations]
    return values


def _veterans_view(report: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    view = {}
    for nation, entries in (report.get("veterans") or {}).items():
        rolls = [e["roll"] for e in entries if isinstance(e.get("roll"), int)]
        new: dict[str, int] = {}
        for e in entries:
            if e.get("new"):
                new[e["new"]["type"]] = new.get(e["new"]["type"], 0) + 1
        view[nation] = {"rolls": rolls, "new": new}
    return view
