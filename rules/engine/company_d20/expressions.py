"""Dice notation (COMPANY.md §8.3): `[N]dM[+K|-K]`, N 1 to 20, M a die size, K a whole number."""

from __future__ import annotations

import re

from ..dice_expression import DiceExpression

DIE_SIZES = (2, 3, 4, 6, 8, 10, 12, 20, 100)
PATTERN = re.compile(r"^(\d+)?d(\d+)([+-]\d+)?$")


def expression_parse(text: object) -> DiceExpression | None:
    """The expression, or None when the text is not one."""
    match = PATTERN.match(text) if isinstance(text, str) else None
    if match is None:
        return None
    count = int(match.group(1)) if match.group(1) else 1
    sides = int(match.group(2))
    if not 1 <= count <= 20 or sides not in DIE_SIZES:
        return None
    return DiceExpression(count, sides, int(match.group(3) or 0))
