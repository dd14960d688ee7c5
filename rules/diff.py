"""What changed between two results of the same turn: battles, owners, stacks. Pure, no Django.

Used when the GM publishes after a preview, re-processes a rolled-back turn, or replays a campaign:
`result_diff(before, after)` takes two `TurnResult.to_dict()` values and says what differs, as lines a GM
reads ("E2: won by KAR, now by EST", as messages) and as data a page can lay out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.engine.messages import CATALOGUE, Message, gettext_noop, messages_register

Result = Mapping[str, Any]

messages_register(
    {
        "diff.battle": gettext_noop("{region} ({kind})"),
        "diff.battle_nth": gettext_noop("{region} ({kind}) #{n}"),
        "battle_kind.normal": gettext_noop("normal"),
        "battle_kind.meeting": gettext_noop("meeting"),
        "battle_kind.joint": gettext_noop("joint"),
        "battle_kind.control": gettext_noop("control"),
        "battle_kind.unopposed": gettext_noop("unopposed"),
        "diff.new_battle": gettext_noop("{battle}: a new battle, {outcome}"),
        "diff.battle_gone": gettext_noop("{battle}: no longer fought (was {outcome})"),
        "diff.battle_changed": gettext_noop("{battle}: {changes}"),
        "diff.and": gettext_noop("{first}; {second}"),
        "diff.winner_changed": gettext_noop("won by {before}, now by {after}"),
        "diff.now_conquest": gettext_noop("now a conquest"),
        "diff.no_longer_conquest": gettext_noop("no longer a conquest"),
        "diff.losses_changed": gettext_noop("losses {before} → {after}"),
        "diff.won": gettext_noop("won by {winner}, losses {losses}"),
        "diff.won_conquest": gettext_noop("won by {winner}, a conquest, losses {losses}"),
        "diff.no_winner": gettext_noop("no winner, losses {losses}"),
        "diff.no_winner_conquest": gettext_noop("no winner, a conquest, losses {losses}"),
        "diff.nobody": gettext_noop("nobody"),
        "diff.no_losses": gettext_noop("none"),
        "diff.owner": gettext_noop("{region}: owner {before} → {after}"),
        "diff.stack": gettext_noop("{region}: {unit_type} of {nation} {before} → {after}"),
        "diff.details_only": gettext_noop(
            "the battles, owners and stacks agree; other details differ (support rolls, movements, "
            "rejected orders)"
        ),
    }
)
NOBODY = Message("diff.nobody")


@dataclass(frozen=True)
class ResultDiff:
    lines: list[Message] = field(default_factory=list)
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
    named = {**_battle_names(before.get("battles") or []), **_battle_names(after.get("battles") or [])}
    lines = [_battle_line(b, named[b["battle"]][1]) for b in battles]
    lines += [
        Message(
            "diff.owner",
            {"region": o["region"], "before": o["before"] or NOBODY, "after": o["after"] or NOBODY},
        )
        for o in owners
    ]
    lines += [Message("diff.stack", dict(s)) for s in stacks]
    same = _normal(before) == _normal(after)
    if not same and not lines:
        lines.append(Message("diff.details_only"))
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


def _battle_names(battles: list[Mapping[str, Any]]) -> dict[str, tuple[Mapping[str, Any], Message]]:
    """Each battle by its name ("E2 (normal)"), with the name as a message for the lines."""
    # A region can see two battles of one kind in a turn (two meetings): number the later ones.
    named: dict[str, tuple[Mapping[str, Any], Message]] = {}
    for battle in battles:
        region, kind = battle["region"], battle["kind"]
        base = f"{region} ({kind})"
        kind_word = Message(f"battle_kind.{kind}") if f"battle_kind.{kind}" in CATALOGUE else kind
        name, n, said = base, 1, Message("diff.battle", {"region": region, "kind": kind_word})
        while name in named:
            n += 1
            name = f"{base} #{n}"
            said = Message("diff.battle_nth", {"region": region, "kind": kind_word, "n": n})
        named[name] = (battle, said)
    return named


def _battles_diff(before: list[Mapping[str, Any]], after: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    was, now = _battle_names(before), _battle_names(after)
    changes = []
    for name in [*was, *(n for n in now if n not in was)]:
        old = _outcome(was[name][0]) if name in was else None
        new = _outcome(now[name][0]) if name in now else None
        if old != new:
            changes.append({"battle": name, "before": old, "after": new})
    return changes


def _battle_line(change: Mapping[str, Any], name: Message) -> Message:
    old, new = change["before"], change["after"]
    if old is None:
        return Message("diff.new_battle", {"battle": name, "outcome": _said(new)})
    if new is None:
        return Message("diff.battle_gone", {"battle": name, "outcome": _said(old)})
    parts = []
    if old["winner"] != new["winner"]:
        parts.append(
            Message(
                "diff.winner_changed", {"before": old["winner"] or NOBODY, "after": new["winner"] or NOBODY}
            )
        )
    if old["conquest"] != new["conquest"]:
        parts.append(Message("diff.now_conquest" if new["conquest"] else "diff.no_longer_conquest"))
    if old["losses"] != new["losses"]:
        parts.append(
            Message(
                "diff.losses_changed", {"before": _losses(old["losses"]), "after": _losses(new["losses"])}
            )
        )
    changes = parts[0]
    for more in parts[1:]:
        changes = Message("diff.and", {"first": changes, "second": more})
    return Message("diff.battle_changed", {"battle": name, "changes": changes})


def _said(outcome: Mapping[str, Any]) -> Message:
    code = "diff.won" if outcome["winner"] else "diff.no_winner"
    code += "_conquest" if outcome["conquest"] else ""
    return Message(code, {"winner": outcome["winner"], "losses": _losses(outcome["losses"])})


def _losses(losses: Mapping[str, Mapping[str, int]]) -> Message | str:
    if not losses:
        return Message("diff.no_losses")
    return ", ".join(
        f"{nation} " + " ".join(f"{c} {t}" for t, c in sorted(counts.items()))
        for nation, counts in sorted(losses.items())
    )
