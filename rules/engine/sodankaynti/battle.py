"""One Sodankäynti battle (SODANKAYNTI.md §7-§11, §13, §14): rolls, actions by doctrine, the end, fates.

`battle_fight(setup, ruleset, dice)` is pure: the same setup and the same dice give the same `BattleResult`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..seam import DiceSource
from .board import DESTROYED, REMOVED, SPENT, WITHDRAWN, BattleSetup, Die, Side
from .doctrine import Action, decide, has_available
from .fates import Fates, fates_settle
from .ruleset import Ruleset
from .skills import politics_roll, tactics_roll


@dataclass
class BattleResult:
    winner: int | None  # index into BattleSetup.sides; None: a standoff
    report: dict[str, Any]
    fates: Fates
    actions: int = 0
    sides: list[Side] = field(default_factory=list)  # in side order


def battle_fight(setup: BattleSetup, ruleset: Ruleset, dice: DiceSource) -> BattleResult:
    index = setup.nation_index
    order = sorted((0, 1), key=lambda i: min(index[f.nation] for f in setup.sides[i].forces))
    sides = [Side(setup.sides[i], i, ruleset, index) for i in order]
    report: dict[str, Any] = {
        "kind": setup.kind,
        "region": setup.label,
        "terrain": setup.terrain,
        "fort": setup.fort,
        "sides": [_side_report(side) for side in sides],
    }
    if setup.skip_politics or not ruleset.politics_enabled:
        report["politics"] = {"skipped": True}
    else:
        report["politics"] = politics_roll(sides, ruleset, dice)

    emptied = [s for s in sides if not s.to_roll()]
    if emptied:
        # §7 step 5: a side left without dice loses at once; the other's dice hold the field unrolled.
        loser = emptied[0]
        winner = sides[1 - sides.index(loser)] if len(emptied) == 1 else None
        report["end"] = _end("politics", winner, loser if winner else None, 0)
        report["actions"] = []
        result = BattleResult(winner.index if winner else None, report, {}, 0, sides)
    else:
        result = _fight(sides, report, ruleset, dice)
    result.fates = fates_settle(sides, report, ruleset, dice, index)
    return result


def _fight(sides: list[Side], report: dict[str, Any], ruleset: Ruleset, dice: DiceSource) -> BattleResult:
    tactics, first, winner, bonus = tactics_roll(sides, ruleset, dice)
    report["tactics"] = tactics
    rolled = {}
    for side in sides:  # §13: the first side's dice in canonical order, then the second's
        side.board = side.to_roll()
        for die in side.board:
            die.value = dice.randint(1, die.size)
            rolled[die.id] = die.value
    report["roll"] = rolled

    other = sides[1 - sides.index(first)]
    actions: list[dict[str, Any]] = []
    report["actions"] = actions
    n = 0
    while True:
        if winner is not None and n < bonus:
            actor, is_bonus = winner, True
        else:
            turn = n - bonus
            lead, follow = (other, first) if winner is not None else (first, other)
            actor, is_bonus = (lead if turn % 2 == 0 else follow), False
        enemy = sides[1 - sides.index(actor)]
        # §9.4: the standoff check comes before the acting side's doctrine, then the guard.
        cause = None
        if not has_available(actor, enemy) and not has_available(enemy, actor):
            cause = "standoff"
        elif n >= ruleset.max_actions:
            cause = "max_actions"
        if cause is not None:
            return _standoff(sides, report, ruleset, cause, n)
        action = decide(actor, enemy)
        n += 1
        actions.append(_apply(action, actor, enemy, n, is_bonus, sides, ruleset))
        if action.kind == "retreat":
            return _ended(report, "retreat", enemy, actor, n, sides)
        if not enemy.board:
            return _ended(report, "board_empty", actor, enemy, n, sides)
        if not actor.board:
            return _ended(report, "board_empty", enemy, actor, n, sides)


def _standoff(
    sides: list[Side], report: dict[str, Any], ruleset: Ruleset, cause: str, n: int
) -> BattleResult:
    """§9.5: no winner; or, with board_value, the lower board retreats as action n + 1."""
    values = [s.board_value() for s in sides]
    if ruleset.standoff == "board_value" and values[0] != values[1]:
        higher = sides[0 if values[0] > values[1] else 1]
        lower = sides[1 - sides.index(higher)]
        action = Action("retreat", "standoff.board_value")
        report["actions"].append(_apply(action, lower, higher, n + 1, False, sides, ruleset))
        return _ended(report, cause, higher, lower, n + 1, sides)
    report["end"] = _end(cause, None, None, n)
    return BattleResult(None, report, {}, n, sides)


def _ended(
    report: dict[str, Any], cause: str, winner: Side, loser: Side, n: int, sides: list[Side]
) -> BattleResult:
    report["end"] = _end(cause, winner, loser, n)
    return BattleResult(winner.index, report, {}, n, sides)


def _end(cause: str, winner: Side | None, loser: Side | None, n: int) -> dict[str, Any]:
    return {
        "cause": cause,
        "winner": winner.name if winner else None,
        "loser": loser.name if loser else None,
        "actions": n,
    }


def _apply(
    action: Action, actor: Side, enemy: Side, n: int, is_bonus: bool, sides: list[Side], ruleset: Ruleset
) -> dict[str, Any]:
    """Carry out one action on the boards; its report entry (§14)."""
    entry: dict[str, Any] = {
        "n": n,
        "side": actor.name,
        "nation": action.by.nation if action.by else actor.commander,
        "bonus": is_bonus,
        "kind": action.kind,
        "rule": action.rule,
    }
    if action.kind == "attack":
        _leave(actor, action.by, SPENT)
        for target in action.targets:
            _leave(enemy, target, DESTROYED)
    elif action.kind == "sacrifice":
        _leave(actor, action.by, DESTROYED)
        _leave(
            enemy, action.targets[0], DESTROYED if ruleset.sacrifice_target_fate == "destroyed" else REMOVED
        )
    elif action.kind == "retreat":
        destroyed, withdrawn = [], []
        for die in actor.board:
            harmed = ruleset.retreat_scope == "side" or die.nation == actor.commander
            if harmed and die.value < ruleset.destroy_below and die.size not in ruleset.safe_dice:
                die.fate = DESTROYED
                destroyed.append(die.report())
            else:
                die.fate = WITHDRAWN
                withdrawn.append(die.report())
        actor.board = []
        entry |= {"destroyed": destroyed, "withdrawn": withdrawn}
    if action.by is not None:
        entry |= {"by": action.by.report(), "targets": [t.report() for t in action.targets]}
    entry["board_value_after"] = {s.name: s.board_value() for s in sides}
    return entry


def _leave(side: Side, die: Die, fate: str) -> None:
    die.fate = fate
    side.board.remove(die)


def _side_report(side: Side) -> dict[str, Any]:
    return {
        "name": side.name,
        "role": side.role,
        "nations": list(side.nations),
        "commander": side.commander,
        "doctrine": side.doctrine.report(),
        "units": [
            {
                "id": unit,
                "nation": d[0].nation,
                "type": d[0].type,
                "die": f"{len(d)}d{d[0].size}" if len(d) > 1 else f"d{d[0].size}",
                "origin": d[0].origin,
            }
            for unit, d in side.units.items()
        ],
    }
