"""Ground losses (IRON_FIST.md §5.1, §5.2) in exact integer arithmetic: loss percentages and caps."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from ..messages import message_data
from .ruleset import IronFistRuleset


class SideLosses(NamedTuple):
    percent: int
    losses: dict[str, int]  # type -> units lost
    notes: dict[str, dict[str, Any]]  # type -> how it was rounded, a stored message (iron_fist.loss.*)


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def side_losses(
    *,
    ruleset: IronFistRuleset,
    percent: int,
    counts: Mapping[str, int],
    enemy: Mapping[str, int],
    larger: int,
    superior: bool,
) -> SideLosses:
    """Losses per type: ceil(p/100 × count × L / T), capped at the count; down on superiority (§5.2).

    `larger` is L, the ground units of the side with more of them; `superior` says the side won, so that
    superiority may round its losses down.
    """
    types = ruleset.ground_types
    total = sum([counts.get(t, 0) for t in types])
    losses, notes = {}, {}
    if total == 0:
        return SideLosses(percent, losses, notes)
    denominator = 100 * total
    for unit_type in types:
        count = counts.get(unit_type, 0)
        if count == 0:
            continue
        numerator = percent * count * larger
        superiority = superior and count >= ruleset.superiority_ratio * enemy.get(unit_type, 0)
        loss = numerator // denominator if superiority else ceil_div(numerator, denominator)
        # The exact value to two places, for the reader (the loss itself is computed in whole numbers).
        exact = f"{numerator * 100 // denominator / 100:g}"
        note = message_data(
            "iron_fist.loss.down_to" if superiority else "iron_fist.loss.up_to",
            {
                "percent": percent,
                "count": count,
                "larger": larger,
                "total": total,
                "exact": exact,
                "loss": loss,
            },
        )
        if loss > count:
            loss = count
            note = message_data("iron_fist.loss.all", {"note": note, "count": count})
        losses[unit_type] = loss
        notes[unit_type] = note
    return SideLosses(percent, losses, notes)


def winners_cap(losses: dict[str, int], limit: int, type_order: Sequence[str]) -> dict[str, int]:
    """Reduce losses to `limit` in total, one unit at a time from the type with the largest loss (§5.2)."""
    capped = dict(losses)
    excess = sum(capped.values()) - limit
    while excess > 0:
        largest = max(type_order, key=lambda t: (capped.get(t, 0), -type_order.index(t)))
        capped[largest] -= 1
        excess -= 1
    return capped
