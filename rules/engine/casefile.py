"""The parts of an adjudication case file that every engine-run battle system shares (cases/README.md).

The turn (nations, regions, borders, units, orders, relations) and the map expected after it (owners, units,
rejected orders) read the same in Iron Fist's and Sodankäynti's cases; each system's runner adds its own
inputs and battle expectations. Pure data handling: the YAML is read by the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .state import GMModifier, Order, Region, Relation, Stack, TurnInput, TurnResult
from .systems import CaseError

ORDER_FIELDS = (
    "nation",
    "kind",
    "from",
    "to",
    "units",
)  # every other key of an order is a system's own param


def mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise CaseError(f"{where}: expected a mapping, got {value!r}")
    return value


def case_turn(data: Mapping[str, Any], system_inputs: Mapping[str, Any] | None = None) -> TurnInput:
    """The case's turn input; CaseError when it is malformed."""
    try:
        regions = tuple(
            Region(
                code=str(code),
                terrain=attrs.get("terrain", "open"),
                owner=attrs.get("owner"),
                fort=attrs.get("fort", 0),
                home=attrs.get("home"),
                weather=attrs.get("weather"),
            )
            for code, attrs in mapping(data["regions"], "regions").items()
        )
        stacks = tuple(
            Stack(nation, str(region), unit_type, count)
            for region, by_nation in mapping(data.get("units") or {}, "units").items()
            for nation, by_type in mapping(by_nation, f"units.{region}").items()
            for unit_type, count in mapping(by_type, f"units.{region}.{nation}").items()
        )
        orders = tuple(
            Order(
                nation=o["nation"],
                kind=o["kind"],
                origin=str(o.get("from", "")),  # a doctrine order names no region it comes from
                target=None if o.get("to") is None else str(o["to"]),
                units=dict(mapping(o.get("units") or {}, f"orders[{i}].units")),
                ref=i,
                params={k: v for k, v in o.items() if k not in ORDER_FIELDS},
            )
            for i, o in enumerate(data.get("orders") or [])
        )
        return TurnInput(
            nations=tuple(data["nations"]),
            regions=regions,
            borders=tuple((str(a), str(b)) for a, b in data.get("borders") or []),
            stacks=stacks,
            orders=orders,
            relations=tuple(Relation(a, b, kind) for a, b, kind in data.get("relations") or []),
            weather=data.get("weather") or "clear",
            gm_modifiers=tuple(
                GMModifier(str(m["region"]), m["nation"], m["value"], m.get("reason", ""))
                for m in data.get("gm_modifiers") or []
            ),
            system_inputs=dict(system_inputs or {}),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise CaseError(f"malformed turn: {type(error).__name__}: {error}") from None


def units_in(result: TurnResult, region: str) -> dict[str, dict[str, int]]:
    units: dict[str, dict[str, int]] = {}
    for stack in result.stacks:
        if stack.region == region:
            units.setdefault(stack.nation, {})[stack.unit_type] = stack.count
    return units


def nonzero(by_nation: Mapping[str, Any], ignored: Iterable[str] = ()) -> dict[str, dict[str, int]]:
    """nation -> type -> count without zeros (a 0 equals an absent entry in every expectation)."""
    ignored = set(ignored)
    cleaned = {}
    for nation, by_type in by_nation.items():
        kept = {t: c for t, c in (by_type or {}).items() if c and t not in ignored}
        if kept:
            cleaned[nation] = kept
    return cleaned


def battle_keys_mismatches(
    keys: Iterable[str],
) -> Callable[[Mapping[str, Any], Mapping[str, Any], str], Iterable[str]]:
    """A system's `battle_mismatches` that compares the given keys of each expected battle: losses without
    their zeros, a loss-table row as a list."""
    keys = tuple(keys)

    def battle_mismatches(want: Mapping[str, Any], got: Mapping[str, Any], where: str) -> Iterable[str]:
        for key in keys:
            if key not in want:
                continue
            expected, actual = want[key], got.get(key)
            if key == "losses":
                expected, actual = nonzero(expected), nonzero(actual or {})
            elif key == "row" and expected is not None:
                expected = list(expected)
            if expected != actual:
                yield f"{where}.{key}: expected {expected}, got {actual}"

    return battle_mismatches


def turn_mismatches(
    expect: Mapping[str, Any],
    result: TurnResult,
    battle_mismatches: Callable[[Mapping[str, Any], Mapping[str, Any], str], Iterable[str]],
) -> Iterable[str]:
    """The expected battles in resolution order, each checked by the system's `battle_mismatches(want, got,
    where)`, then the map; a different number of battles is the only mismatch reported then."""
    if "battles" in expect:
        wanted, battles = expect["battles"] or [], result.battles
        if len(wanted) != len(battles):
            got = [f"{b['kind']} {b['region']}" for b in battles]
            yield f"battles: expected {len(wanted)} battles, got {len(battles)} {got}"
            return
        for i, (want, got) in enumerate(zip(wanted, battles, strict=True)):
            yield from battle_mismatches(want, got, f"battles[{i}] ({want.get('kind')} {want.get('region')})")
    yield from map_mismatches(expect, result)


def map_mismatches(expect: Mapping[str, Any], result: TurnResult) -> Iterable[str]:
    """The expected owners, units per region and number of rejected orders against the turn's result."""
    for region, owner in (expect.get("owners") or {}).items():
        if result.owners.get(str(region)) != owner:
            yield f"owners.{region}: expected {owner}, got {result.owners.get(str(region))}"
    ignored = set(expect.get("ignore_types") or [])
    for region, by_nation in (expect.get("units") or {}).items():
        wanted = nonzero(by_nation or {}, ignored)
        got = nonzero(units_in(result, str(region)), ignored)
        if wanted != got:
            yield f"units.{region}: expected {wanted}, got {got}"
    if "rejected_orders" in expect and expect["rejected_orders"] != len(result.rejected_orders):
        reasons = [str(r.reason) for r in result.rejected_orders]
        yield f"rejected_orders: expected {expect['rejected_orders']}, got {len(reasons)} {reasons}"
