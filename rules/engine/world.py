"""The map and the forces at the start of a turn, indexed for the resolver (read-only once built)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .graph import within
from .ruleset import Ruleset
from .state import Region, RelationKind, Stack, Terrain, TurnInput, Weather

Counts = dict[str, int]  # unit type -> count

TERRAINS = frozenset(t.value for t in Terrain)
WEATHERS = tuple(w.value for w in Weather)  # best to worst
RELATIONS = frozenset(r.value for r in RelationKind)


class TurnInputError(ValueError):
    """The turn's input contradicts itself (an unknown region, a stack in another nation's region...)."""


@dataclass
class World:
    nations: tuple[str, ...]
    nation_index: dict[str, int]
    regions: dict[str, object]  # code -> state.Region
    adjacency: dict[str, tuple[str, ...]]
    owner: dict[str, str | None]  # at the start of the turn
    units: dict[str, dict[str, Counts]]  # region -> nation -> type -> count, at the start of the turn
    not_at_war: dict[frozenset[str], str]  # pair -> peace or alliance; any other pair is at war (§2.2)
    weather: str
    gm_modifiers: dict[tuple[str, str], list]  # (region, nation) -> [GMModifier]
    # region -> the input's stacks in it, in the input's order: the stacks after the turn of a region the
    # turn left as it was are these objects (rules/engine/turn.py)
    given: dict[str, list[Stack]] = field(default_factory=dict)
    _within: dict[tuple[str, int], dict[str, int]] = field(default_factory=dict)

    def at_war(self, a: str, b: str) -> bool:
        # §2.2: alliance behaves as peace for every rule.
        return a != b and frozenset((a, b)) not in self.not_at_war

    def relation(self, a: str, b: str) -> str:
        return self.not_at_war.get(frozenset((a, b)), RelationKind.WAR)

    def region_weather(self, code: str) -> str:
        return self.regions[code].weather or self.weather

    def within(self, code: str, radius: int) -> dict[str, int]:
        """Regions reached by crossing at most `radius` borders, with their distance (itself: 0)."""
        key = (code, radius)
        found = self._within.get(key)
        if found is None:
            found = self._within[key] = within(self.adjacency, code, radius)
        return found

    def nation_order(self, nations: Iterable[str]) -> list[str]:
        return sorted(nations, key=self.nation_index.__getitem__)


def world_build(turn: TurnInput, ruleset: Ruleset) -> World:
    """Index the turn's input, refusing input that contradicts itself with a message naming the entry."""
    nation_index = {}
    for nation in turn.nations:
        if nation in nation_index:
            raise TurnInputError(f"nations: {nation!r} is listed twice")
        nation_index[nation] = len(nation_index)
    if turn.weather not in WEATHERS:
        raise TurnInputError(f"weather: unknown weather {turn.weather!r}")

    regions = {}
    any_terrain = ruleset.any_terrain
    # The messages are spelled out only for the entry at fault: building one per entry cost a quarter
    # of a small turn.
    for region in turn.regions:
        if region.code in regions:
            raise TurnInputError(f"regions.{region.code}: the region code is used twice")
        if region.terrain not in TERRAINS and not any_terrain:
            raise TurnInputError(f"regions.{region.code}.terrain: unknown terrain {region.terrain!r}")
        if region.weather is not None and region.weather not in WEATHERS:
            raise TurnInputError(f"regions.{region.code}.weather: unknown weather {region.weather!r}")
        if region.owner is not None and region.owner not in nation_index:
            raise TurnInputError(f"regions.{region.code}.owner: unknown nation {region.owner!r}")
        # One known nation, the common case, needs no more asking.
        if region.home is not None and not (isinstance(region.home, str) and region.home in nation_index):
            for home in homes_of(region):
                if home not in nation_index:
                    raise TurnInputError(f"regions.{region.code}.home: unknown nation {home!r}")
        if not isinstance(region.fort, int) or region.fort < 0:
            raise TurnInputError(
                f"regions.{region.code}.fort: expected a whole number of 0 or more, got {region.fort!r}"
            )
        regions[region.code] = region

    # A dict per region as the set of its neighbours: a border given twice is counted once, and storing a
    # key is cheaper than a list's append and the set made of the list to sort it after.
    neighbours: dict[str, dict[str, None]] = {code: {} for code in regions}
    for a, b in turn.borders:
        try:  # an unknown region has no entry: a lookup, where asking first would be two more
            neighbours[a][b] = None
            neighbours[b][a] = None
        except KeyError:
            end = a if a not in regions else b
            raise TurnInputError(f"borders: [{a}, {b}] names the unknown region {end!r}") from None
        if a == b:
            raise TurnInputError(f"borders: [{a}, {b}] joins a region to itself")

    owner = {code: region.owner for code, region in regions.items()}
    units: dict[str, dict[str, Counts]] = {}
    given: dict[str, list[Stack]] = {}
    unit_types = ruleset.unit_types
    here = None  # the region of the stack before, whose owner's units are `counts` and stacks `mine`
    for stack in turn.stacks:
        code, nation, unit_type, count = stack.region, stack.nation, stack.unit_type, stack.count
        if (
            owner.get(code, _NOWHERE) != nation
            or unit_type not in unit_types
            or not isinstance(count, int)
            or count < 0
        ):
            raise TurnInputError(_stack_fault(stack, regions, unit_types))
        # Units stand only in their owner's regions, so a region's units are one nation's; and a region's
        # stacks mostly come one after another, so its entries are looked up once for all of them.
        if code != here:
            here, mine = code, given.get(code)
            if mine is None:
                mine = given[code] = []
                counts = {}
                units[code] = {nation: counts}
            else:
                counts = units[code][nation]
        counts[unit_type] = counts.get(unit_type, 0) + count
        mine.append(stack)

    not_at_war: dict[frozenset[str], str] = {}
    for relation in turn.relations:
        if relation.a not in nation_index or relation.b not in nation_index:
            raise TurnInputError(f"relations: [{relation.a}, {relation.b}] names an unknown nation")
        if relation.kind not in RELATIONS:
            raise TurnInputError(
                f"relations: [{relation.a}, {relation.b}]: unknown relation {relation.kind!r}"
            )
        pair = frozenset((relation.a, relation.b))
        if relation.kind == RelationKind.WAR:
            not_at_war.pop(pair, None)
        else:
            not_at_war[pair] = relation.kind

    gm_modifiers: dict[tuple[str, str], list] = {}
    for modifier in turn.gm_modifiers:
        if modifier.region not in regions or modifier.nation not in nation_index:
            raise TurnInputError(
                f"gm_modifiers: ({modifier.region}, {modifier.nation}) names an unknown entry"
            )
        gm_modifiers.setdefault((modifier.region, modifier.nation), []).append(modifier)

    return World(
        nations=tuple(turn.nations),
        nation_index=nation_index,
        regions=regions,
        adjacency={code: tuple(sorted(found)) for code, found in neighbours.items()},
        owner=owner,
        units=units,
        not_at_war=not_at_war,
        weather=turn.weather,
        gm_modifiers=gm_modifiers,
        given=given,
    )


def homes_of(region: Region) -> tuple[str, ...]:
    """The nations whose home region this is: `home` names one nation, or several in a list."""
    if region.home is None:
        return ()
    return tuple(region.home) if isinstance(region.home, list | tuple) else (region.home,)


_NOWHERE = object()  # the owner of a region that is not on the map: no nation's


def _stack_fault(stack: Stack, regions: Mapping[str, Region], unit_types: Mapping[str, object]) -> str:
    """What is wrong with a stack that world_build refused, spelled out only then."""
    named = f"stacks: {stack.count} {stack.unit_type} of {stack.nation} in {stack.region}"
    if stack.region not in regions:
        return f"{named}: unknown region"
    if stack.unit_type not in unit_types:
        return f"{named}: unknown unit type"
    if not isinstance(stack.count, int) or stack.count < 0:
        return f"{named}: a count must be a whole number of 0 or more"
    return f"{named}: units stand only in regions their nation owns"


def counts_total(counts: Mapping[str, int], types: Iterable[str]) -> int:
    return sum(counts.get(t, 0) for t in types)
