"""Ground losses (IRON_FIST.md §5.1, §5.2) in exact integer arithmetic: loss percentages and caps."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..messages import Message
from .ruleset import IronFistRuleset


@dataclass(frozen=True)
class SideLosses:
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
    total = sum(counts.get(t, 0) for t in ruleset.ground_types)
    losses, notes = {}, {}
    if total == 0:
        return SideLosses(percent, losses, notes)
    for unit_type in ruleset.ground_types:
        count = counts.get(unit_type, 0)
        if count == 0:
            continue
        numerator, denominator = percent * count * larger, 100 * total
        enemy_count = enemy.get(unit_type, 0)
        # The exact value to two places, for the reader (the loss itself is computed in whole numbers).
        exact = f"{numerator * 100 // denominator / 100:g}"
        arithmetic = {"percent": percent, "count": count, "larger": larger, "total": total, "exact": exact}
        if superior and count >= ruleset.superiority_ratio * enemy_count:
            loss = numerator // denominator
            note = Message("iron_fist.loss.down_to", {**arithmetic, "loss": loss})
        else:
            loss = ceil_div(numerator, denominator)
            note = Message("iron_fist.loss.up_to", {**arithmetic, "loss": loss})
        if loss > count:
            loss = count
            note = Message("iron_fist.loss.all", {"note": note.to_dict(), "count": count})
        losses[unit_type] = loss
        notes[unit_type] = note.to_dict()
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
