"""A minimal dice source until the seam's lands (SEAM.md `DiceSource`, `SeededDice`, `ScriptedDice`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")


class DiceError(ValueError):
    """A scripted roll that does not fit its draw, or a script that ran out."""


class DiceSource(Protocol):
    def randint(self, low: int, high: int) -> int: ...

    def choice(self, items: Sequence[T]) -> T: ...


class SeededDice:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def randint(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def choice(self, items: Sequence[T]) -> T:
        return self.rng.choice(items)


class ScriptedDice:
    def __init__(self, rolls: Sequence) -> None:
        self.rolls = list(_flat(rolls))
        self.used = 0

    def randint(self, low: int, high: int) -> int:
        if self.used >= len(self.rolls):
            raise DiceError(f"draw {self.used + 1}: the script ran out ({low}..{high})")
        value = self.rolls[self.used]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise DiceError(f"draw {self.used + 1}: {value!r} is not in {low}..{high}")
        self.used += 1
        return value

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randint(1, len(items)) - 1]

    def left(self) -> list:
        return self.rolls[self.used :]


def _flat(rolls):
    for roll in rolls:
        if isinstance(roll, list | tuple):
            yield from _flat(roll)
        else:
            yield roll
