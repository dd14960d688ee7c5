"""The engine's inputs and outputs: frozen dataclasses, no Django.

A turn goes in as a `TurnInput` and comes out as a `TurnResult`. Everything is keyed by plain
strings (nation ids, region codes, unit-type codes) so that the shell can map database rows onto
these objects and back without the engine knowing anything about the database.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .messages import Message


class Terrain(StrEnum):
    OPEN = "open"
    ROUGH = "rough"
    CITY = "city"


class Weather(StrEnum):
    # Declared from best to worst: a meeting engagement fights in the worse of its two regions' weather.
    CLEAR = "clear"
    RAIN = "rain"
    SNOW = "snow"
    STORM = "storm"


class RelationKind(StrEnum):
    WAR = "war"
    PEACE = "peace"
    ALLIANCE = "alliance"


class OrderKind(StrEnum):
    HOLD = "hold"
    MOVE = "move"
    REBASE = "rebase"
    ATTACK = "attack"
    STAND_DOWN = "stand_down"


# The kinds of order that take their units out of the origin (§2.1); hold and stand_down take none. A set of
# the members' values: testing a kind against it is one lookup, where naming each member is one apiece.
CONSUMING = frozenset((OrderKind.MOVE, OrderKind.REBASE, OrderKind.ATTACK))


@dataclass(frozen=True)
class Region:
    code: str
    terrain: str = Terrain.OPEN
    owner: str | None = None
    fort: int = 0
    home: str | list[str] | None = None  # the nation whose home region it is, or several (world.homes_of)
    weather: str | None = None  # replaces the turn's global weather in this region


@dataclass(frozen=True)
class Stack:
    nation: str
    region: str
    unit_type: str
    count: int


@dataclass(frozen=True)
class Relation:
    a: str
    b: str
    kind: str = RelationKind.WAR


@dataclass(frozen=True)
class Order:
    nation: str
    kind: str
    origin: str
    target: str | None = None
    units: Mapping[str, int] = field(default_factory=dict)
    ref: Any = None  # the shell's own id for the order; the engine only carries it into the result
    params: Mapping[str, Any] = field(default_factory=dict)  # a system's own order fields (a doctrine's)


@dataclass(frozen=True)
class GMModifier:
    region: str
    nation: str
    value: int
    reason: str = ""


@dataclass(frozen=True)
class TurnInput:
    nations: tuple[str, ...]  # in nation-id order (IRON_FIST.md §1)
    regions: tuple[Region, ...]
    borders: tuple[tuple[str, str], ...]
    stacks: tuple[Stack, ...]
    orders: tuple[Order, ...] = ()  # in submission order
    relations: tuple[Relation, ...] = ()
    weather: str = Weather.CLEAR
    gm_modifiers: tuple[GMModifier, ...] = ()
    system_inputs: Mapping[str, Any] = field(default_factory=dict)  # the battle system's own turn inputs


@dataclass(frozen=True)
class RejectedOrder:
    index: int  # position in TurnInput.orders
    order: Order
    message: Message  # why, as a code with parameters (validation.py registers the texts)
    field: str = ""  # the part of the order at fault: nation, kind, origin, target or units

    @property
    def reason(self) -> str:
        """Why, in English: for logs and the case runner."""
        return str(self.message)


@dataclass(frozen=True)
class Movement:
    """Units that changed place in the aftermath, or were destroyed because they had nowhere to go."""

    nation: str
    unit_type: str
    count: int
    origin: str
    destination: str | None  # None: destroyed
    reason: str  # "moved in", "returned", "retreated", "rebased", "no retreat"


@dataclass(frozen=True)
class SupportRoll:
    nation: str
    region: str
    unit_type: str
    unit: int  # 1-based number of the unit within its stack
    chance: int
    roll: int
    destroyed: bool


@dataclass(frozen=True)
class TurnResult:
    owners: Mapping[str, str | None]  # every region's owner after the turn
    stacks: tuple[Stack, ...]  # every non-zero stack after the turn
    battles: tuple[Mapping[str, Any], ...]  # battle reports, JSON-serializable, in resolution order
    support_chances: tuple[
        Mapping[str, Any], ...
    ]  # per supporting stack: its chance and the battles behind it
    support_rolls: tuple[SupportRoll, ...]
    settlements: tuple[Mapping[str, Any], ...]  # peaceful settlements of jointly conquered regions
    movements: tuple[Movement, ...]
    rejected_orders: tuple[RejectedOrder, ...]
    seed: int
    pending: tuple[str, ...] = ()  # keys of the battles fought elsewhere and still without a result
    # The system's own account of the turn, for the shell and not stored: tabletop's battle plan, which
    # processing writes as Battle rows (rules.tabletop.battles) without planning the turn a second time.
    plan: Any = field(default=None, compare=False, repr=False)

    def to_dict(self, *, battles: bool = True) -> dict[str, Any]:
        """The whole result as plain JSON-serializable data (but the plan); without `battles`, all but the
        reports."""
        return json_data(self.stored_fields(battles=battles))

    def stored_fields(self, *, battles: bool = True) -> dict[str, Any]:
        """What `to_dict` gives, its values as they are (dataclasses, tuples) for an encoder that writes
        them itself (rules.json_fast); the rejected orders, few, are JSON data already."""
        left_out = ("plan",) if battles else ("plan", "battles")
        data = {name: v for name, v in vars(self).items() if name not in left_out}
        # The English reason too, for readers of the stored result that do not render messages.
        data["rejected_orders"] = [{**json_data(r), "reason": r.reason} for r in self.rejected_orders]
        return data


_LEAVES = (str, int, float, bool, type(None))


def json_data(value: Any) -> Any:
    """`value` as JSON data: a dataclass as a dict of its fields, a tuple as a list, a mapping as a dict.

    Hand-rolled rather than `dataclasses.asdict`, which deep-copies every leaf: a result at 10,000 regions
    has 600,000 of them, and this runs on every turn (the result, and the input's snapshot)."""
    if isinstance(value, _LEAVES):
        return value
    if hasattr(value, "__dataclass_fields__"):
        return {name: json_data(v) for name, v in vars(value).items()}
    if isinstance(value, (tuple, list)):
        return [json_data(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): json_data(v) for k, v in value.items()}
    return value
