"""What changed between two results of the same turn: battles, owners, stacks. Pure, no Django.

Used when the GM publishes after a preview, re-processes a rolled-back turn, or replays a campaign:
`result_diff(before, after)` takes two `TurnResult.to_dict()` values and says what differs, as lines a GM
reads ("E2: won by KAR, now by EST") and as data a page can lay out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Result = Mapping[str, Any]


@dataclass(frozen=True)
class ResultDiff:
    lines: list[str] = field(default_factory=list)
    # {"battle": "E2 (normal)", "before": outcome or None, "after": outcome or None}
    battles: list[dict[str, Any]] = field(default_factory=list)
    # {"region": "M4", "before": "SUD", "after": None}
    owners: list[dict[str, Any]] = field(default_factory=list)
    # {"region": "M4", "nation": "SUD", "unit_type": "JV", "before": 3, "after": 0}
    stacks: list[dict[str, Any]] = field(default_factory=list)
    # True when the results differ in nothing, support rolls, movements and rejected orders included.
    same: bool = True


def result_diff(before: Result, after: Result) -> ResultDiff:
    battles = _battles_diff(before.get("battles") or [], after.get("battles") or [])
    owners_before, owners_after = before.get("owners") or {}, after.get("owners") or {}
    owners = [
        {"region": code, "before": was, "after": now}
        for code in sorted(set(owners_before) | set(owners_after))
        if (was := owners_before.get(code)) != (now := owners_after.get(code))
    ]
    stacks_before, stacks_after = _stacks(before), _stacks(after)
    stacks = [
        {"region": r, "nation": n, "unit_type": t, "before": was, "after": now}
        for r, n, t in sorted(set(stacks_before) | set(stacks_after))
        if (was := stacks_before.get((r, n, t), 0)) != (now := stacks_after.get((r, n, t), 0))
    ]
    lines = [_battle_line(b) for b in battles]
    lines += [f"{o['region']}: owner {o['before'] or 'nobody'} → {o['after'] or 'nobody'}" for o in owners]
    lines += [
        f"{s['region']}: {s['unit_type']} of {s['nation']} {s['before']} → {s['after']}" for s in stacks
    ]
    same = _normal(before) == _normal(after)
    if not same and not lines:
        lines.append(
            "the battles, owners and stacks agree; other details differ (support rolls, movements, "
            "rejected orders)"
        )
    return ResultDiff(lines=lines, battles=battles, owners=owners, stacks=stacks, same=same)


def _normal(result: Result) -> Any:
    # Tuples and lists alike, as the result reads back from a JSON column.
    return json.loads(json.dumps(result))


def _stacks(result: Result) -> dict[tuple[str, str, str], int]:
    return {(s["region"], s["nation"], s["unit_type"]): s["count"] for s in result.get("stacks") or ()}


def _outcome(battle: Mapping[str, Any]) -> dict[str, Any]:
    """What a player reads first in a battle report: who won, whether the region fell, who lost what."""
    return {
        "winner": battle.get("winner"),
        "conquest": bool(battle.get("conquest")),
        "losses": {n: dict(c) for n, c in (battle.get("losses") or {}).items() if c},
    }


def _battle_names(battles: list[Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    # A region can see two battles of one kind in a turn (two meetings): number the later ones.
    named: dict[str, Mapping[str, Any]] = {}
    for battle in battles:
        base = f"{battle['region']} ({battle['kind']})"
        name, n = base, 1
        while name in named:
            n += 1
            name = f"{base} #{n}"
        named[name] = battle
    return named


def _battles_diff(before: list[Mapping[str, Any]], after: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    was, now = _battle_names(before), _battle_names(after)
    changes = []
    for name in [*was, *(n for n in now if n not in was)]:
        old = _outcome(was[name]) if name in was else None
        new = _outcome(now[name]) if name in now else None
        if old != new:
            changes.append({"battle": name, "before": old, "after": new})
    return changes


def _battle_line(change: Mapping[str, Any]) -> str:
    name, old, new = change["battle"], change["before"], change["after"]
    if old is None:
        return f"{name}: a new battle, {_said(new)}"
    if new is None:
        return f"{name}: no longer fought (was {_said(old)})"
    parts = []
    if old["winner"] != new["winner"]:
        parts.append(f"won by {old['winner'] or 'nobody'}, now by {new['winner'] or 'nobody'}")
    if old["conquest"] != new["conquest"]:
        parts.append("now a conquest" if new["conquest"] else "no longer a conquest")
    if old["losses"] != new["losses"]:
        parts.append(f"losses {_losses(old['losses'])} → {_losses(new['losses'])}")
    return f"{name}: {'; '.join(parts)}"


def _said(outcome: Mapping[str, Any]) -> str:
    winner = f"won by {outcome['winner']}" if outcome["winner"] else "no winner"
    conquest = ", a conquest" if outcome["conquest"] else ""
    return f"{winner}{conquest}, losses {_losses(outcome['losses'])}"


def _losses(losses: Mapping[str, Mapping[str, int]]) -> str:
    if not losses:
        return "none"
    return ", ".join(
        f"{nation} " + " ".join(f"{c} {t}" for t, c in sorted(counts.items()))
        for nation, counts in sorted(losses.items())
    )
