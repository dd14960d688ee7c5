"""Units as dice (SODANKAYNTI.md §3): ids, the canonical order, and a side's dice on the board."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .ruleset import Doctrine, Ruleset

# Die fates (§11.1); the first five survive.
BOARD, SPENT, WITHDRAWN, ABSENT, REMOVED, DESTROYED, DESERTED = (
    "board",
    "spent",
    "withdrawn",
    "absent",
    "removed",
    "destroyed",
    "deserted",
)
LOST = frozenset((DESTROYED, DESERTED))


class ForceLike(Protocol):
    nation: str
    origin: str
    units: Mapping[str, int]


@dataclass(frozen=True)
class Advantage:
    """Extra pool dice for one roll (§6.4): a named advantage, or a GM's with its nation and reason."""

    name: str
    dice: int
    nation: str | None = None
    reason: str = ""

    def report(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"name": self.name, "dice": self.dice}
        if self.name == "gm":
            entry |= {"nation": self.nation, "reason": self.reason}
        return entry


@dataclass(frozen=True)
class SideSetup:
    """One side as the battle step receives it: its forces and what the campaign gives it for this battle."""

    role: str  # attacker | defender
    forces: tuple[ForceLike, ...]
    doctrines: Mapping[str, Doctrine]  # nation -> the doctrine it would follow here (§10.3)
    ratings: Mapping[str, Mapping[str, int]]  # nation -> {politics: n, tactics: n}
    advantages: Mapping[str, tuple[Advantage, ...]] = field(default_factory=dict)  # roll -> advantages


@dataclass(frozen=True)
class BattleSetup:
    kind: str  # normal | meeting | joint | control
    label: str  # the region, or "A|B"
    terrain: Any  # a terrain key, or a meeting's two keys
    fort: int
    sides: tuple[SideSetup, SideSetup]
    nation_index: Mapping[str, int]
    skip_politics: bool = False


class Die:
    """One die of one unit; a unit of NdM has N of them (§3.2)."""

    __slots__ = ("id", "unit", "nation", "origin", "type", "size", "pos", "value", "fate")

    def __init__(self, die_id: str, unit: str, nation: str, origin: str, unit_type: str, size: int, pos: int):
        self.id = die_id
        self.unit = unit
        self.nation = nation
        self.origin = origin
        self.type = unit_type
        self.size = size
        self.pos = pos  # canonical position within its side
        self.value = 0
        self.fate = BOARD

    def report(self) -> dict[str, Any]:
        return {"id": self.id, "value": self.value}


class Side:
    """A side in battle: its dice in canonical order, those on the board, its commander and doctrine."""

    def __init__(self, setup: SideSetup, index: int, ruleset: Ruleset, nation_index: Mapping[str, int]):
        self.index = index  # position in BattleSetup.sides
        self.setup = setup
        self.role = setup.role
        self.nations = tuple(sorted({f.nation for f in setup.forces}, key=nation_index.__getitem__))
        self.name = "+".join(sorted(self.nations))
        self.dice = side_dice(setup.forces, ruleset, nation_index)
        self.units: dict[str, list[Die]] = {}
        for die in self.dice:
            self.units.setdefault(die.unit, []).append(die)
        self.commander = commander_of(self.nations, self.units, nation_index)
        self.doctrine = setup.doctrines[self.commander]
        self.board: list[Die] = []

    def to_roll(self) -> list[Die]:
        return [d for d in self.dice if d.fate == BOARD]

    def board_value(self) -> int:
        return sum(d.value for d in self.board)

    def rating(self, roll: str, ruleset: Ruleset) -> tuple[int, str]:
        """The side's rating for a roll and whose it is (§6.5)."""
        ratings = self.setup.ratings
        if ruleset.joint_ratings == "commander":
            return ratings[self.commander][roll], self.commander
        best = max(self.nations, key=lambda n: (ratings[n][roll], -self.nations.index(n)))
        return ratings[best][roll], best


def side_dice(forces: Sequence[ForceLike], ruleset: Ruleset, nation_index: Mapping[str, int]) -> list[Die]:
    """Every die of the forces, numbered and in canonical order (§3.3)."""
    counts: dict[tuple[str, str, str], int] = {}
    for force in forces:
        for unit_type, count in force.units.items():
            if count:
                key = (force.nation, force.origin, unit_type)
                counts[key] = counts.get(key, 0) + count
    dice = []
    for nation, origin, unit_type in sorted(counts, key=lambda k: (nation_index[k[0]], k[1], k[2])):
        kind = ruleset.unit_types[unit_type]
        for index in range(1, counts[(nation, origin, unit_type)] + 1):
            unit = f"{nation}/{origin}/{unit_type}/{index}"
            for k in range(1, kind.dice + 1):
                die_id = f"{unit}:{k}" if kind.dice > 1 else unit
                dice.append(Die(die_id, unit, nation, origin, unit_type, kind.size, len(dice)))
    return dice


def commander_of(
    nations: Sequence[str], units: Mapping[str, list[Die]], nation_index: Mapping[str, int]
) -> str:
    """The nation with the most units; ties: the larger sum of die sizes, then the lower nation id (§10.6)."""
    count = dict.fromkeys(nations, 0)
    sizes = dict.fromkeys(nations, 0)
    for dice in units.values():
        count[dice[0].nation] += 1
        sizes[dice[0].nation] += sum(d.size for d in dice)
    return min(nations, key=lambda n: (-count[n], -sizes[n], nation_index[n]))
