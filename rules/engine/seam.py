"""The one seam between the turn pipeline and a battle system: `fight(call) -> BattleOutcome | Pending`.

The pipeline knows *where* battles happen and *what they mean for the map*; a battle system knows *how* a
battle is decided (shared/rules/BATTLE_SYSTEMS.md). The pipeline builds a `BattleCall`, the system answers
with the winner, whether the win is decisive, the losses and its report; conquest, continuations, control,
returns and retreats are then decided once, by the pipeline, from those.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from .messages import Message, gettext_noop, messages_register
from .state import GMModifier

T = TypeVar("T")
Counts = Mapping[str, int]  # unit type -> count

REPORT_FORMAT = 1  # raised when the layout of a battle report changes

messages_register(
    {
        "dice.out_of_range": gettext_noop("scripted roll {roll} is outside {low}..{high} (draw {draw})"),
        "dice.ran_out": gettext_noop("the scripted rolls ran out at draw {draw}"),
        "dice.left_over": gettext_noop("{count} scripted rolls were not used"),
    }
)


class DiceError(ValueError):
    """Scripted dice that do not fit the draws (a roll out of range, too few, too many)."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


class DiceSource(Protocol):
    """Where every draw of a turn comes from, in the order the system's spec writes down."""

    def randint(self, low: int, high: int) -> int: ...

    def choice(self, items: Sequence[T]) -> T: ...


class SeededDice:
    """The turn's one seeded generator (IRON_FIST.md §11)."""

    def __init__(self, seed: int | random.Random) -> None:
        self.generator = seed if isinstance(seed, random.Random) else random.Random(seed)

    def randint(self, low: int, high: int) -> int:
        # random.Random.randint(a, b) is randrange(a, b + 1), spelled out: the same draws, one call fewer.
        return self.generator.randrange(low, high + 1)

    def choice(self, items: Sequence[T]) -> T:
        return self.generator.choice(items)


class ScriptedDice:
    """Dice given in advance (a case's `rolls`); a choice among n items reads a roll of 1..n."""

    def __init__(self, rolls: Iterable[Any]) -> None:
        self.rolls = list(_flatten(rolls))
        self.used = 0

    def randint(self, low: int, high: int) -> int:
        if self.used >= len(self.rolls):
            raise DiceError(Message("dice.ran_out", {"draw": self.used + 1}))
        roll = self.rolls[self.used]
        self.used += 1
        if not isinstance(roll, int) or isinstance(roll, bool) or not low <= roll <= high:
            raise DiceError(
                Message("dice.out_of_range", {"roll": roll, "low": low, "high": high, "draw": self.used})
            )
        return roll

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randint(1, len(items)) - 1]

    def left(self) -> int:
        return len(self.rolls) - self.used

    def finish(self) -> None:
        """Every scripted roll must have been used."""
        if self.left():
            raise DiceError(Message("dice.left_over", {"count": self.left()}))


def _flatten(rolls: Iterable[Any]) -> Iterable[Any]:
    for roll in rolls:
        if isinstance(roll, list | tuple):
            yield from _flatten(roll)
        else:
            yield roll


@dataclass(frozen=True)
class Supporter:
    """Artillery or air supporting a battle from range (IRON_FIST.md §3)."""

    nation: str
    region: str
    unit_type: str
    count: int


@dataclass(frozen=True)
class Force:
    """One nation's units in a battle from one origin region (a defender's origin is the region itself)."""

    nation: str
    origin: str
    units: Counts


@dataclass(frozen=True)
class BattleSide:
    nations: tuple[str, ...]  # in nation-id order
    role: str  # attacker | defender
    forces: tuple[Force, ...]
    support: tuple[Supporter, ...] = ()
    origins: int = 0  # distinct regions the attacking units came from (pincer); 0 for a defender
    fort: int = 0  # fort level, defender only
    home: bool = False  # defending one of its home regions
    modifiers: tuple[GMModifier, ...] = ()
    # Made with the side, from the fields above: a battle and its report read both many times over.
    name: str = field(init=False, repr=False, compare=False)  # its nations, sorted, joined by "+"
    # nation -> type -> units in the battle, summed over origins (types with none left out)
    ground: dict[str, dict[str, int]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        units: dict[str, dict[str, int]] = {n: {} for n in self.nations}
        for force in self.forces:
            mine = units.setdefault(force.nation, {})
            for unit_type, count in force.units.items():
                if count:
                    mine[unit_type] = mine.get(unit_type, 0) + count
        # A frozen dataclass sets its own derived fields through object.__setattr__ (the dataclasses docs).
        object.__setattr__(self, "name", "+".join(sorted(self.nations)))
        object.__setattr__(self, "ground", units)

    def counts(self, types: Sequence[str]) -> dict[str, int]:
        """type -> the side's units of it, for each of `types` (0 where it has none), in their order."""
        totals = dict.fromkeys(types, 0)
        for units in self.ground.values():
            for unit_type, count in units.items():
                if unit_type in totals:
                    totals[unit_type] += count
        return totals


@dataclass(frozen=True)
class BattleCall:
    key: str  # "region:B", "meeting:A|B", "control:B:1"
    kind: str  # normal | meeting | joint | control
    label: str  # the region, or "A|B" for a meeting engagement
    regions: tuple[str, ...]
    terrain: str
    weather: str
    sides: tuple[BattleSide, BattleSide]
    ruleset: Any  # the battle system's own ruleset
    dice: DiceSource
    nation_index: Mapping[str, int]
    fort: int = 0
    home: str | None = None
    inputs: Mapping[str, Any] = field(default_factory=dict)  # the system's own turn inputs (TurnInput)
    seed: int = 0  # the turn seed, for a system that derives a battle's own dice from it (TABLETOP A9.1)

    def report_place(self) -> dict[str, Any]:
        """Where and in what the battle was fought, as a decided battle's report begins."""
        return {
            "kind": self.kind,
            "region": self.label,
            "regions": list(self.regions),
            "terrain": self.terrain,
            "weather": self.weather,
        }


@dataclass(frozen=True)
class BattleOutcome:
    winner: int | None  # index into the call's sides; None: a draw (a standoff)
    decisive: bool  # a win that takes what it fought for (Iron Fist: past the conquest threshold)
    losses: Mapping[str, Counts]  # nation -> type -> units destroyed
    report: dict[str, Any]
    # (nation, origin) -> type -> lost, when the system knows whose units from where were lost; else the
    # pipeline shares a nation's losses among its origins (IRON_FIST.md §10).
    force_losses: Mapping[tuple[str, str], Counts] | None = None
    added: Mapping[tuple[str, str], Counts] = field(
        default_factory=dict
    )  # new units; they count as survivors
    why: Message | None = None  # the system's words for whether a win is decisive ("past the threshold")

    def outcome_for(self, index: int) -> str:
        if self.winner is None:
            return "draw"
        return "won" if self.winner == index else "lost"


@dataclass(frozen=True)
class Pending:
    """The battle is fought elsewhere (at the table); the turn waits for its result.

    The pipeline carries on with everything that does not depend on it (TABLETOP A4.2): a pending meeting
    engagement holds both its armies and makes every battle at either end wait for it (`Phase.blocked`).
    """

    key: str
    report: dict[str, Any] = field(default_factory=dict)
