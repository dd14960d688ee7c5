"""Scenario files: read one, check every entry, and return it clean or refuse it whole.

The format (YAML or JSON; see docs in README "Scenario files"):

    name: The Baltic Crisis
    seed: 1939                       # optional; every turn's seed derives from it
    ruleset: {kta_die: 1d6}          # optional overrides of the Iron Fist defaults
    nations:                         # in nation-id order
      - {code: RED, name: Red Empire, color: "#c0392b"}   # optional: attributes: {politics: 4}
    regions:
      - {code: A1, name: Tallinn, terrain: city, fort: 2, home: RED, owner: RED,
         shape: [[0, 0], [10, 0], [10, 10]], label: [5, 4]}
    borders: [[A1, A2], ...]         # unordered pairs, each once
    relations:                       # pairs not listed are at war
      - {nations: [RED, BLUE], kind: peace}
    units:                           # region -> nation -> unit type -> count
      A1: {RED: {JV: 4, TY: 1}}

Every problem is reported, each naming its field and entry, so a GM can fix a file in one go.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from campaign.borders import adjacency
from campaign.models import INT_COLUMN_MAX, MAX_FORT_LEVEL
from campaign.scenario_file import LISTS_MAX, POINTS_MAX, ScenarioFileError, scenario_file_read
from rules.engine.graph import within
from rules.engine.messages import Message, gettext_noop, messages_register
from rules.engine.ruleset import Ruleset, RulesetError, ruleset_build
from rules.engine.state import RelationKind, Terrain
from rules.engine.systems import system_get

TERRAINS = tuple(t.value for t in Terrain)
RELATION_KINDS = tuple(k.value for k in RelationKind)
CODE_MAX = 16
NAME_MAX = 100  # a nation's and a region's name (the columns)
SCENARIO_NAME_MAX = 200  # the campaign's name
SEED_MAX = 2**63 - 1  # the campaign's seed column
COORDINATE_MAX = 1e6  # the map is drawn in an SVG: any real map is far smaller
COLOR = re.compile(r"#[0-9a-fA-F]{6}")  # drawn into the SVG's style: nothing but a colour
# How many entries a scenario may have of each kind, counted before a single entry is checked, so that a
# 5 MiB file of entries is refused at once (campaign/scenario_file.py bounds the file itself).
SIZES_MAX = {
    **{name: limit for name, limit in LISTS_MAX.items() if name != "shape"},
    "units": 200_000,  # (region, nation, unit type) stacks: a few per region
}
PROBLEMS_MAX = 100  # a GM fixes the first hundred first; the rest are counted


# Why a scenario is refused: each problem names its field and entry (`where`: "regions[2] (C).fort").
messages_register(
    {
        "scenario.unreadable": gettext_noop("{where}: {error}"),
        "scenario.not_mapping": gettext_noop(
            "the file must hold a mapping with name, nations, regions, borders and units"
        ),
        "scenario.unknown_field": gettext_noop("{where}: unknown field"),
        "scenario.no_name": gettext_noop("{where}: expected the scenario's name, at most {limit} characters"),
        "scenario.seed": gettext_noop("{where}: expected a whole number of at most 18 digits, got {value}"),
        "scenario.ruleset_mapping": gettext_noop("{where}: expected a mapping of rule -> value"),
        "scenario.ruleset": gettext_noop("{where}: {error}"),
        "scenario.empty_list": gettext_noop("{where}: expected a non-empty list"),
        "scenario.not_entry": gettext_noop("{where}: expected a mapping with {fields}"),
        "scenario.bad_code": gettext_noop(
            "{where}.code: expected a code like {example} (≤ {limit} characters), got {value}"
        ),
        "scenario.duplicate_nation_code": gettext_noop("{where}.code: duplicate nation code {value}"),
        "scenario.duplicate_region_code": gettext_noop("{where}.code: duplicate region code {value}"),
        "scenario.color": gettext_noop("{where}.color: expected a colour like #c0392b, got {value}"),
        "scenario.attributes": gettext_noop("{where}.attributes: expected a mapping, got {value}"),
        "scenario.attributes_unused": gettext_noop(
            "{where}.attributes: the {name} battle system takes no nation attributes"
        ),
        "scenario.attribute": gettext_noop("{where}.attributes.{error}"),
        "scenario.terrain": gettext_noop("{where}.terrain: expected one of {allowed}, got {value}"),
        "scenario.fort": gettext_noop("{where}.fort: expected a whole number from 0 to {limit}, got {value}"),
        "scenario.unknown_nation": gettext_noop("{where}: unknown nation {value}"),
        "scenario.name": gettext_noop(
            "{where}.name: expected a name of at most {limit} characters, got {value}"
        ),
        "scenario.shape": gettext_noop(
            "{where}.shape: expected a polygon, a list of 3 to {points} [x, y] points "
            "with coordinates within ±{limit}"
        ),
        "scenario.label": gettext_noop("{where}.label: expected an [x, y] point within ±{limit}"),
        "scenario.border_pair": gettext_noop(
            "{where}: expected a pair of region codes like [A1, A2], got {value}"
        ),
        "scenario.duplicate_border": gettext_noop("{where}: duplicate border {a}–{b}"),
        "scenario.unknown_region": gettext_noop("{where}: unknown region {value}"),
        "scenario.self_border": gettext_noop("{where}: a region cannot border itself ({value})"),
        "scenario.self_relation": gettext_noop("{where}: a nation has no relation with itself ({value})"),
        "scenario.unreachable": gettext_noop(
            "{where}: no one can reach it; it has no path of borders to {start}"
        ),
        "scenario.relations_list": gettext_noop("{where}: expected a list"),
        "scenario.relation_pair": gettext_noop(
            "{where}.nations: expected a pair of nation codes like [RED, BLUE]"
        ),
        "scenario.relation_kind": gettext_noop("{where}.kind: expected one of {allowed}, got {value}"),
        "scenario.duplicate_relation": gettext_noop("{where}: duplicate relation {a}–{b}"),
        "scenario.units_mapping": gettext_noop(
            "{where}: expected a mapping of region -> nation -> unit type -> count"
        ),
        "scenario.units_by_nation": gettext_noop(
            "{where}: expected a mapping of nation -> unit type -> count"
        ),
        "scenario.units_not_owner": gettext_noop("{where}: {nation} does not own {region} (owner: {owner})"),
        "scenario.units_by_type": gettext_noop("{where}: expected a mapping of unit type -> count"),
        "scenario.unknown_unit_type": gettext_noop("{where}: unknown unit type; the ruleset has {types}"),
        "scenario.count": gettext_noop("{where}: expected a count of 0 or more, got {value}"),
        "scenario.count_max": gettext_noop("{where}: expected a count of at most {limit}"),
        "scenario.too_many": gettext_noop("{where}: at most {limit} entries, got {count}"),
        "scenario.more_problems": gettext_noop("and {count} more problems"),
    }
)


class ScenarioError(ValueError):
    """A scenario file was refused; `problems` lists every reason (messages), each naming its field and
    entry; the exception's text lists them in English, for the import command."""

    def __init__(self, problems: list[Message]):
        self.problems = problems
        super().__init__("scenario refused:\n" + "\n".join(f"  - {p}" for p in problems))


def _problem(code: str, **params: Any) -> Message:
    return Message(f"scenario.{code}", params)


@dataclass(frozen=True)
class ScenarioNation:
    code: str
    name: str
    color: str
    # A battle system's nation attributes (Sodankäynti §5: politics, tactics, doctrine), judged by its
    # registry entry's `attributes_check` on import, by the GM's form when changed, by the engine at a turn.
    attributes: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ScenarioRegion:
    code: str
    name: str
    terrain: str
    fort: int
    home: str | None
    owner: str | None
    geometry: Mapping[str, Any]


@dataclass(frozen=True)
class Scenario:
    name: str
    seed: int | None
    ruleset_overrides: Mapping[str, Any]
    nations: tuple[ScenarioNation, ...]
    regions: tuple[ScenarioRegion, ...]
    borders: tuple[tuple[str, str], ...]
    relations: tuple[tuple[str, str, str], ...]
    units: tuple[tuple[str, str, str, int], ...]  # (region, nation, unit type, count)
    ruleset: Ruleset = field(repr=False, compare=False, default=None)  # type: ignore[assignment]


def scenario_read(path: str | Path) -> Scenario:
    """Read and check a scenario file; raises ScenarioError listing every problem."""
    try:
        data = scenario_file_read(path)  # bounded in size, nesting and anchors: campaign/scenario_file.py
    except ScenarioFileError as error:
        raise ScenarioError([_problem("unreadable", where=str(path), error=str(error))]) from error
    return scenario_parse(data)


def scenario_parse(data: Any) -> Scenario:
    """Check scenario data (as read from YAML/JSON); raises ScenarioError listing every problem."""
    return _Checker(data).scenario()


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_code(value: Any) -> bool:
    return (
        isinstance(value, str)
        and 0 < len(value) <= CODE_MAX
        and value.strip() == value
        and "|" not in value
        and value.isprintable()
    )


def _is_name(value: Any, longest: int) -> bool:
    return isinstance(value, str) and bool(value.strip()) and len(value) <= longest and value.isprintable()


def _short(value: Any, *, quoted: bool = True) -> str:
    """A value as a problem quotes it (or names it in a field's path): no more than a line of it."""
    text = repr(value) if quoted else str(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


class _Checker:
    def __init__(self, data: Any):
        self.data = data
        self.problems: list[Message] = []
        self.more = 0  # problems past PROBLEMS_MAX

    def fail(self, code: str, where: str, **params: Any) -> None:
        """A problem; past the first PROBLEMS_MAX of them, only counted."""
        if len(self.problems) < PROBLEMS_MAX:
            self.problems.append(_problem(code, where=where, **params))
        else:
            self.more += 1

    def refuse(self) -> None:
        problems = self.problems
        if self.more:
            problems = [*problems, _problem("more_problems", count=f"{self.more:,}")]
        raise ScenarioError(problems)

    def sizes(self, data: Mapping[str, Any]) -> None:
        """Refuse a scenario with more entries of a kind than SIZES_MAX before looking at any of them."""
        too_many = False
        for name, limit in SIZES_MAX.items():
            value = data.get(name)
            if name == "units" and isinstance(value, Mapping):
                stacks = sum(
                    len(by_type)
                    for by_nation in value.values()
                    if isinstance(by_nation, Mapping)
                    for by_type in by_nation.values()
                    if isinstance(by_type, Mapping)
                )
                count = max(stacks, len(value))
            elif isinstance(value, list):
                count = len(value)
            else:
                continue
            if count > limit:
                self.fail("too_many", name, limit=f"{limit:,}", count=f"{count:,}")
                too_many = True
        if too_many:
            self.refuse()

    def scenario(self) -> Scenario:
        data = self.data
        if not isinstance(data, Mapping):
            raise ScenarioError([_problem("not_mapping")])
        unknown = sorted(
            set(map(str, data))
            - {
                "name",
                "seed",
                "ruleset",
                "nations",
                "regions",
                "borders",
                "relations",
                "units",
                "description",
            }
        )
        for key in unknown:
            self.fail("unknown_field", _short(key, quoted=False))
        self.sizes(data)
        name = data.get("name")
        if not _is_name(name, SCENARIO_NAME_MAX):
            self.fail("no_name", "name", limit=SCENARIO_NAME_MAX)
        seed = data.get("seed")
        if seed is not None and not (_is_int(seed) and abs(seed) <= SEED_MAX):
            self.fail("seed", "seed", value=_short(seed))
        overrides = data.get("ruleset") or {}
        if not isinstance(overrides, Mapping):
            self.fail("ruleset_mapping", "ruleset")
            overrides = {}
        ruleset = self.ruleset(overrides)
        nations = self.nations(data.get("nations"), ruleset)
        nation_codes = {n.code for n in nations}
        regions = self.regions(data.get("regions"), nation_codes)
        region_codes = {r.code for r in regions}
        borders = self.borders(data.get("borders"), region_codes)
        self.reachable(regions, borders)
        relations = self.relations(data.get("relations") or [], nation_codes)
        units = self.units(data.get("units") or {}, regions, nation_codes, ruleset)
        if self.problems:
            self.refuse()
        return Scenario(
            name=name.strip(),
            seed=seed,
            ruleset_overrides=dict(overrides),
            nations=tuple(nations),
            regions=tuple(regions),
            borders=tuple(borders),
            relations=tuple(relations),
            units=tuple(units),
            ruleset=ruleset,
        )

    def ruleset(self, overrides: Any) -> Ruleset | None:
        try:
            return ruleset_build(overrides)
        except RulesetError as error:
            self.fail("ruleset", "ruleset", error=str(error))
            return None

    def attributes(self, attributes: Mapping[str, Any], where: str, ruleset: Ruleset) -> None:
        """A nation's attributes as its battle system takes them (its registry entry), refused naming the
        attribute: a rating past its range would stop every later turn."""
        system = system_get(ruleset.battle_system)
        if system.attributes_check is None:
            self.fail("attributes_unused", where, name=ruleset.battle_system)
            return
        try:
            system.attributes_check(attributes, ruleset)
        except RulesetError as error:
            self.fail("attribute", where, error=str(error))

    def list_of(self, value: Any, name: str) -> list[Any]:
        if not isinstance(value, list) or not value:
            self.fail("empty_list", name)
            return []
        return value

    def coded(self, value: Any, name: str, example: str, fields: str) -> Iterator[tuple[str, str, Mapping]]:
        """(where, code, entry) for each entry of list `name` that is a mapping with a valid, new code."""
        seen = set()
        for i, entry in enumerate(self.list_of(value, name)):
            where = f"{name}[{i}]"
            if not isinstance(entry, Mapping):
                self.fail("not_entry", where, fields=fields)
                continue
            code = entry.get("code")
            if not _is_code(code):
                self.fail("bad_code", where, example=example, limit=CODE_MAX, value=_short(code))
                continue
            where = f"{where} ({code})"
            if code in seen:
                self.fail(f"duplicate_{name[:-1]}_code", where, value=repr(code))
                continue
            seen.add(code)
            yield where, code, entry

    def nations(self, value: Any, ruleset: Ruleset | None) -> list[ScenarioNation]:
        nations = []
        for where, code, entry in self.coded(value, "nations", "RED", "code and name"):
            color = entry.get("color", "#888888")
            if not (isinstance(color, str) and COLOR.fullmatch(color)):
                self.fail("color", where, value=_short(color))
            attributes = entry.get("attributes") or {}
            if not isinstance(attributes, Mapping):
                self.fail("attributes", where, value=_short(attributes))
                attributes = {}
            if attributes and ruleset is not None:
                self.attributes(attributes, where, ruleset)
            nations.append(ScenarioNation(code, self.name(entry, where, code), str(color), dict(attributes)))
        return nations

    def regions(self, value: Any, nations: set[str]) -> list[ScenarioRegion]:
        regions = []
        for where, code, entry in self.coded(value, "regions", "A1", "code, name and terrain"):
            terrain = entry.get("terrain", "open")
            if terrain not in TERRAINS:
                self.fail("terrain", where, allowed=", ".join(TERRAINS), value=_short(terrain))
            fort = entry.get("fort", 0)
            if not _is_int(fort) or not 0 <= fort <= MAX_FORT_LEVEL:
                self.fail("fort", where, limit=MAX_FORT_LEVEL, value=_short(fort))
            for key in ("home", "owner"):
                nation = entry.get(key)
                if nation is not None and nation not in nations:
                    self.fail("unknown_nation", f"{where}.{key}", value=_short(nation))
            geometry = self.geometry(entry, where)
            regions.append(
                ScenarioRegion(
                    code,
                    self.name(entry, where, code),
                    terrain,
                    fort if _is_int(fort) else 0,
                    entry.get("home"),
                    entry.get("owner"),
                    geometry,
                )
            )
        return regions

    def name(self, entry: Mapping[str, Any], where: str, code: str) -> str:
        """The entry's name (its code when it has none); a problem said when it is not a short text."""
        name = entry.get("name")
        if name is None:
            return code
        if not _is_name(name, NAME_MAX):
            self.fail("name", where, limit=NAME_MAX, value=_short(name))
            return code
        return name

    def geometry(self, entry: Mapping[str, Any], where: str) -> dict[str, Any]:
        geometry = {}
        shape = entry.get("shape")
        if shape is not None:
            if not (
                isinstance(shape, list)
                and 3 <= len(shape) <= POINTS_MAX
                and all(self.is_point(p) for p in shape)
            ):
                self.fail("shape", where, points=POINTS_MAX, limit=f"{COORDINATE_MAX:g}")
            else:
                geometry["shape"] = [list(p) for p in shape]
        label = entry.get("label")
        if label is not None:
            if not self.is_point(label):
                self.fail("label", where, limit=f"{COORDINATE_MAX:g}")
            else:
                geometry["label"] = list(label)
        return geometry

    @staticmethod
    def is_point(value: Any) -> bool:
        return (
            isinstance(value, list | tuple)
            and len(value) == 2
            and all(
                isinstance(c, int | float) and not isinstance(c, bool) and abs(c) <= COORDINATE_MAX
                for c in value
            )
        )

    def borders(self, value: Any, regions: set[str]) -> list[tuple[str, str]]:
        borders, seen = [], set()
        for i, entry in enumerate(self.list_of(value, "borders")):
            where = f"borders[{i}]"
            if not (isinstance(entry, list | tuple) and len(entry) == 2):
                self.fail("border_pair", where, value=_short(entry))
                continue
            pair = self.pair(where, entry, regions, "unknown_region", "self_border")
            if pair is None:
                continue
            if pair in seen:
                self.fail("duplicate_border", where, a=str(entry[0]), b=str(entry[1]))
                continue
            seen.add(pair)
            borders.append(pair)
        return borders

    def pair(
        self, where: str, pair: Sequence[Any], known: set[str], unknown: str, same: str
    ) -> tuple[str, str] | None:
        """Two known, distinct codes, lower first; None (and the problems said, as `unknown` and `same`)
        otherwise."""
        bad = [code for code in pair if code not in known]
        for code in bad:
            self.fail(unknown, where, value=_short(code))
        if bad:
            return None
        a, b = pair
        if a == b:
            self.fail(same, where, value=repr(a))
            return None
        return (a, b) if a < b else (b, a)

    def reachable(self, regions: list[ScenarioRegion], borders: list[tuple[str, str]]) -> None:
        """Every region must be reachable from every other: an island no one can reach is a map error."""
        if not regions:
            return
        neighbours = adjacency((r.code for r in regions), borders)
        start = regions[0].code
        seen = within(neighbours, start)
        for region in regions:
            if region.code not in seen:
                self.fail("unreachable", f"regions ({region.code})", start=start)

    def relations(self, value: Any, nations: set[str]) -> list[tuple[str, str, str]]:
        relations, seen = [], set()
        if not isinstance(value, list):
            self.fail("relations_list", "relations")
            return []
        for i, entry in enumerate(value):
            where = f"relations[{i}]"
            pair = entry.get("nations") if isinstance(entry, Mapping) else None
            if not (isinstance(pair, list) and len(pair) == 2):
                self.fail("relation_pair", where)
                continue
            pair = self.pair(f"{where}.nations", pair, nations, "unknown_nation", "self_relation")
            if pair is None:
                continue
            a, b = pair
            kind = entry.get("kind")
            if kind not in RELATION_KINDS:
                self.fail("relation_kind", where, allowed=", ".join(RELATION_KINDS), value=_short(kind))
                continue
            if pair in seen:
                self.fail("duplicate_relation", where, a=a, b=b)
                continue
            seen.add(pair)
            relations.append((a, b, kind))
        return relations

    def units(
        self, value: Any, regions: list[ScenarioRegion], nations: set[str], ruleset: Ruleset | None
    ) -> list[tuple[str, str, str, int]]:
        if not isinstance(value, Mapping):
            self.fail("units_mapping", "units")
            return []
        owners = {r.code: r.owner for r in regions}
        types = list(ruleset.unit_types) if ruleset else None
        units = []
        for region, by_nation in value.items():
            if region not in owners:
                self.fail("unknown_region", f"units.{_short(region, quoted=False)}", value=_short(region))
                continue
            if not isinstance(by_nation, Mapping):
                self.fail("units_by_nation", f"units.{region}")
                continue
            for nation, by_type in by_nation.items():
                if nation not in nations:
                    self.fail("unknown_nation", f"units.{region}", value=_short(nation))
                    continue
                where = f"units.{region}.{nation}"
                if owners[region] != nation:
                    # IRON_FIST.md §1: a nation's units stand only in regions it owns.
                    self.fail("units_not_owner", where, nation=nation, region=region, owner=owners[region])
                    continue
                if not isinstance(by_type, Mapping):
                    self.fail("units_by_type", where)
                    continue
                for unit_type, count in by_type.items():
                    if types is not None and unit_type not in types:
                        self.fail(
                            "unknown_unit_type",
                            f"{where}.{_short(unit_type, quoted=False)}",
                            types=", ".join(types),
                        )
                    elif not _is_int(count) or count < 0:
                        self.fail("count", f"{where}.{unit_type}", value=_short(count))
                    elif count > INT_COLUMN_MAX:
                        self.fail("count_max", f"{where}.{unit_type}", limit=f"{INT_COLUMN_MAX:,}")
                    elif count > 0:
                        units.append((region, nation, unit_type, count))
        return units
