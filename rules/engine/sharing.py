"""Largest-remainder sharing of a whole number of units (IRON_FIST.md §7, §10).

The pipeline shares a nation's losses among its origins with it; Iron Fist a side's losses among its nations.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any


def share(total: int, weights: Sequence[tuple[Hashable, int]], tie_key: Callable[[Any, int], Any]) -> dict:
    """Split `total` among keys in proportion to their weights, by largest remainder.

    `tie_key(key, weight)` orders keys whose remainders are equal: the smaller key gets the unit first.
    """
    if len(weights) == 1:  # the one key takes it all, if it has any weight (most sides are one nation)
        key, weight = weights[0]
        return {key: total if weight else 0}
    whole = sum(weight for _, weight in weights)
    if whole == 0 or total == 0:
        return {key: 0 for key, _ in weights}
    shares = {key: total * weight // whole for key, weight in weights}
    left = total - sum(shares.values())
    by_remainder = sorted(weights, key=lambda kw: (-(total * kw[1] % whole), tie_key(*kw)))
    for key, _ in by_remainder[:left]:
        shares[key] += 1
    return shares
