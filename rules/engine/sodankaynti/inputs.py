"""The system's own turn inputs (SODANKAYNTI.md §5, §6.4, §7 step 1, §16) and its orders (§4.1-4.2).

`inputs_build` checks everything before the first draw: a bad nation attribute, GM advantage or skip_politics
entry is invalid input and the turn is not resolved (TurnInputError naming the entry).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..world import TurnInputError
from .board import Advantage
from .ruleset import Doctrine, DoctrineError, Ruleset

ROLLS = ("politics", "tactics")


@dataclass
class Inputs:
    """Everything a battle needs from the turn beyond its forces, indexed for lookup."""

    ratings: dict[str, dict[str, int]]  # nation -> roll -> rating
    doctrines: dict[str, Doctrine]  # nation -> its attribute doctrine, or the ruleset default
    gm: dict[tuple[str, str, str], list[Advantage]]  # (region, nation, roll) -> advantages
    skip_regions: frozenset[str]
    skip_borders: frozenset[frozenset[str]]
    terrains: dict[str, str] = field(default_factory=dict)  # region -> terrain key (a meeting reports both)
    doctrine_orders: dict[tuple[str, str | None], Doctrine] = field(default_factory=dict)  # (nation, region)
    ambushes: dict[tuple[str, str], str] = field(default_factory=dict)  # (nation, region B) -> facing A

    @classmethod
    def empty(cls, ruleset: Ruleset, nations: Sequence[str]) -> Inputs:
        """No system inputs at all: every nation with the default ratings and doctrine."""
        return inputs_build({}, ruleset, tuple(nations), {})

    def orders_apply(self, orders: Sequence[Any], ruleset: Ruleset) -> None:
        """The accepted `doctrine` and `ambush` orders, in submission order (§4.1, §4.2)."""
        for order in orders:
            if order.kind == "doctrine":
                params = order.params
                doctrine = ruleset.doctrine(params.get("doctrine"), params.get("params"), "order")
                self.doctrine_orders[(order.nation, params.get("region"))] = doctrine
            elif order.kind == "ambush":
                self.ambushes.setdefault((order.nation, order.origin), order.target)

    def doctrine(self, nation: str, region: str) -> Doctrine:
        """§10.3: the order for the region, the order without one, the attribute, the default."""
        return (
            self.doctrine_orders.get((nation, region))
            or self.doctrine_orders.get((nation, None))
            or self.doctrines[nation]
        )

    def gm_advantages(self, region: str, nation: str, roll: str) -> list[Advantage]:
        return self.gm.get((region, nation, roll), [])

    def skips(self, kind: str, label: str, regions: Sequence[str]) -> bool:
        if kind == "meeting":
            return frozenset(regions) in self.skip_borders
        return label in self.skip_regions


def _whole(value: Any, minimum: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= minimum


def inputs_build(
    raw: Mapping[str, Any],
    ruleset: Ruleset,
    nations: Sequence[str],
    adjacency: Mapping[str, Sequence[str]],
) -> Inputs:
    """The turn's `nation_attributes`, `gm_advantages` and `skip_politics`, checked (§16)."""
    attributes = raw.get("nation_attributes") or {}
    if not isinstance(attributes, Mapping):
        raise TurnInputError("nation_attributes: expected a mapping of nation -> attributes")
    for nation in attributes:
        if nation not in nations:
            raise TurnInputError(f"nation_attributes.{nation}: unknown nation")
    ratings, doctrines = {}, {}
    for nation in nations:
        given = attributes.get(nation) or {}
        if not isinstance(given, Mapping):
            raise TurnInputError(f"nation_attributes.{nation}: expected a mapping, got {given!r}")
        for key in given:
            if key not in (*ROLLS, "doctrine"):
                raise TurnInputError(f"nation_attributes.{nation}.{key}: unknown attribute")
        ratings[nation] = {}
        for roll in ROLLS:
            value = given.get(roll, ruleset.default_rating)
            if not _whole(value, 0):
                raise TurnInputError(
                    f"nation_attributes.{nation}.{roll}: expected a whole number >= 0, got {value!r}"
                )
            ratings[nation][roll] = value
        if "doctrine" in given:
            try:
                doctrines[nation] = ruleset.doctrine_of(given["doctrine"], "nation attribute")
            except DoctrineError as error:
                raise TurnInputError(f"nation_attributes.{nation}.doctrine.{error}") from None
        else:
            doctrines[nation] = ruleset.doctrines[ruleset.default_doctrine]

    for key in ("gm_advantages", "skip_politics"):
        if not isinstance(raw.get(key) or [], list | tuple):
            raise TurnInputError(f"{key}: expected a list, got {raw[key]!r}")
    gm: dict[tuple[str, str, str], list[Advantage]] = {}
    for i, entry in enumerate(raw.get("gm_advantages") or []):
        where = f"gm_advantages[{i}]"
        if not isinstance(entry, Mapping):
            raise TurnInputError(f"{where}: expected a mapping, got {entry!r}")
        region, nation, roll, dice = (entry.get(k) for k in ("region", "nation", "roll", "dice"))
        if region not in adjacency:
            raise TurnInputError(f"{where}.region: unknown region {region!r}")
        if nation not in nations:
            raise TurnInputError(f"{where}.nation: unknown nation {nation!r}")
        if roll not in ROLLS:
            raise TurnInputError(f"{where}.roll: expected politics or tactics, got {roll!r}")
        if not _whole(dice, 1):
            raise TurnInputError(f"{where}.dice: expected a whole number >= 1, got {dice!r}")
        advantage = Advantage("gm", dice, nation, str(entry.get("reason") or ""))
        gm.setdefault((region, nation, roll), []).append(advantage)

    regions, borders = set(), set()
    for i, entry in enumerate(raw.get("skip_politics") or []):
        where = f"skip_politics[{i}]"
        if isinstance(entry, str) and entry in adjacency:
            regions.add(entry)
            continue
        ends = entry.split("|") if isinstance(entry, str) else []
        if len(ends) != 2 or ends[0] not in adjacency or ends[1] not in adjacency.get(ends[0], ()):
            raise TurnInputError(f"{where}: {entry!r} is neither a region nor a border A|B")
        borders.add(frozenset(ends))
    return Inputs(ratings, doctrines, gm, frozenset(regions), frozenset(borders))


def inputs_prepare(world: Any, ruleset: Ruleset, turn_input: Any, orders: Sequence[Any]) -> Inputs:
    """BattleSystem.inputs_prepare: the turn's inputs, checked, with the effects of its accepted orders."""
    inputs = inputs_build(turn_input.system_inputs, ruleset, world.nations, world.adjacency)
    inputs.terrains = {code: region.terrain for code, region in world.regions.items()}
    inputs.orders_apply(orders, ruleset)
    return inputs
