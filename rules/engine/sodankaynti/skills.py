"""Skill rolls (SODANKAYNTI.md §6): politics (§7) and tactics (§8), opposed pools of d6 counting successes."""

from __future__ import annotations

from typing import Any

from ..messages import Message
from ..seam import DiceSource
from .board import BOARD, Side
from .ruleset import Ruleset


def opposed_roll(
    sides: list[Side], roll: str, ruleset: Ruleset, dice: DiceSource, count_rule: str
) -> tuple[dict[str, Any], Side | None, int]:
    """Both pools rolled, first side in side order first (§13): (report, winner or None, count)."""
    pools = {}
    successes = []
    for side in sides:
        rating, rating_of = side.rating(roll, ruleset)
        advantages = [a for a in side.setup.advantages.get(roll, ()) if a.dice > 0]
        size = rating + sum(a.dice for a in advantages)
        drawn = [dice.randint(1, 6) for _ in range(size)]
        hits = sum(1 for v in drawn if v >= ruleset.success_on)
        successes.append(hits)
        pools[side.name] = {
            "rating": rating,
            "rating_of": rating_of,
            "advantages": [a.report() for a in advantages],
            "dice": drawn,
            "successes": hits,
        }
    report: dict[str, Any] = {"pools": pools}
    if successes[0] == successes[1]:
        return report | {"winner": None, "count_rule": count_rule, "count": 0}, None, 0
    w = 0 if successes[0] > successes[1] else 1
    count = successes[w] - (successes[1 - w] if count_rule == "net" else 0)
    return report | {"winner": sides[w].name, "count_rule": count_rule, "count": count}, sides[w], count


def politics_roll(sides: list[Side], ruleset: Ruleset, dice: DiceSource) -> dict[str, Any]:
    """§7 steps 2-4: the winner removes dice from the loser, by size in `removal_order`, nation by nation."""
    report, winner, count = opposed_roll(sides, "politics", ruleset, dice, ruleset.politics_count)
    removed: list[str] = []
    if winner is not None:
        loser = sides[1 - sides.index(winner)]
        for size in ruleset.removal_order:
            while count > 0:
                left = [d for d in loser.dice if d.size == size and d.fate == BOARD]
                if not left:
                    break
                per_nation: dict[str, int] = {}
                for d in left:
                    per_nation[d.nation] = per_nation.get(d.nation, 0) + 1
                # Recounted before each die, so the removal spreads over a side of several nations.
                nation = min(per_nation, key=lambda n: (-per_nation[n], loser.nations.index(n)))
                die = next(d for d in left if d.nation == nation)
                die.fate = ruleset.removed_fate  # absent, deserted or destroyed (§7 step 4)
                removed.append(die.id)
                count -= 1
    return report | {"skipped": False, "removed": removed, "unused": count}


def tactics_roll(
    sides: list[Side], ruleset: Ruleset, dice: DiceSource
) -> tuple[dict[str, Any], Side, Side | None, int]:
    """§8: who acts first and the winner's bonus actions; (report, first side, winner or None, bonus)."""
    report, winner, count = opposed_roll(sides, "tactics", ruleset, dice, ruleset.tactics_count)
    if winner is not None:
        bonus = count if ruleset.max_bonus is None else min(count, ruleset.max_bonus)
        reason = Message("sodankaynti.first.winner", {"side": winner.name, "bonus": bonus})
        return report | _first(winner, bonus, reason), winner, winner, bonus
    first, reason = _tie_first(sides, ruleset)
    return report | _first(first, 0, reason), first, None, 0


def _first(side: Side, bonus: int, reason: Message) -> dict[str, Any]:
    return {"bonus": bonus, "first": side.name, "first_reason": reason.to_dict()}


def _tie_first(sides: list[Side], ruleset: Ruleset) -> tuple[Side, Message]:
    """§8 step 3: a tie goes to the side with fewer dice, then the defender, then side order."""
    defender = next((s for s in sides if s.role == "defender"), None)
    counts = [len(s.to_roll()) for s in sides]
    if ruleset.tie_first == "fewer_dice":
        params = {"dice": counts[0], "other": counts[1]}
        if counts[0] != counts[1]:
            fewer = sides[0 if counts[0] < counts[1] else 1]
            return fewer, Message("sodankaynti.first.fewer_dice", params | {"side": fewer.name})
        if defender is not None:
            return defender, Message(
                "sodankaynti.first.equal_dice_defender", params | {"side": defender.name}
            )
        return sides[0], Message("sodankaynti.first.equal_dice_side_order", params | {"side": sides[0].name})
    if defender is not None:
        return defender, Message("sodankaynti.first.defender", {"side": defender.name})
    return sides[0], Message("sodankaynti.first.side_order", {"side": sides[0].name})
