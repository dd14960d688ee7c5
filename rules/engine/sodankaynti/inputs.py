"""The system's own turn inputs (SODANKAYNTI.md §5, §6.4, §7 step 1, §16) and its orders (§4.1-4.2).

`inputs_build` checks everything before the first draw: a bad nation attribute, GM advantage or skip_politics
entry is invalid input and the turn is not resolved (TurnInputError naming the entry).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..messages import gettext_noop
from ..ruleset import RulesetError, defaults_read
from ..settings import settings_declare, whole
from ..world import TurnInputError
from .board import Advantage
from .ruleset import DEFAULTS_FILE, Doctrine, DoctrineError, Ruleset

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


# §5: the ratings the GM sets per nation, in dice; the maximum is ours (the spec names none), as
# default_rating's is, so that no rating a GM can save makes a turn roll without end.
ATTRIBUTES = settings_declare(
    {roll: defaults_read(DEFAULTS_FILE)["default_rating"] for roll in ROLLS},
    whole("politics", gettext_noop("The nation's politics skill, in dice."), 0, 100, section="§5"),
    whole(
        "tactics", gettext_noop("The nation's battle skill (taistelutaito), in dice."), 0, 100, section="§5"
    ),
)
ADVANTAGE_DICE_MAX = 100  # §6.4: a GM advantage's dice, at most as many as a rating may have


def attributes_check(given: Mapping[str, Any], ruleset: Ruleset) -> None:
    """A nation's attributes against §5: its ratings within their declarations, its doctrine as a doctrine
    order's is checked (§4.1); raises RulesetError naming the attribute."""
    for key in given:
        if key not in (*ROLLS, "doctrine"):
            raise RulesetError(f"{key}: unknown attribute")
    for attribute in ATTRIBUTES:
        if attribute.key in given:
            attribute.check(given[attribute.key])
    if "doctrine" in given:
        try:
            ruleset.doctrine_of(given["doctrine"], "nation attribute")
        except DoctrineError as error:
            raise RulesetError(f"doctrine.{error}") from None


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
        try:
            attributes_check(given, ruleset)
        except RulesetError as error:
            raise TurnInputError(f"nation_attributes.{nation}.{error}") from None
        ratings[nation] = {roll: given.get(roll, ruleset.default_rating) for roll in ROLLS}
        if "doctrine" in given:
            doctrines[nation] = ruleset.doctrine_of(given["doctrine"], "nation attribute")
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
        if not _whole(dice, 1) or dice > ADVANTAGE_DICE_MAX:
            raise TurnInputError(
                f"{where}.dice: expected a whole number from 1 to {ADVANTAGE_DICE_MAX}, got {dice!r}"
            )
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
