"""A dice expression, `NdM+K`: how many dice, of how many sides, and a whole number added to their sum.

Each system reads its own notation into it: Iron Fist's `kta_die` (IRON_FIST.md §4, ruleset), company_d20's
roll expressions (COMPANY.md §8.3, company_d20.expressions)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DiceExpression:
    count: int
    sides: int
    constant: int = 0

    def __str__(self) -> str:
        constant = f"{self.constant:+d}" if self.constant else ""
        return f"{self.count}d{self.sides}{constant}"
