"""Reading a turn from an adjudication case file and comparing a result with what it expects.

Shared by every system's case runner whose cases are turns (shared/rules/cases/README.md: Iron Fist's, and
tabletop's `kind: turn`): `turn_input_parse(data)` builds the `TurnInput`, `turn_mismatches` yields the
first differences of a `TurnResult` from the `expect` keys the formats share. Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .state import GMModifier, Order, Region, Relation, Stack, TurnInput, TurnResult
from .systems import CaseError


def turn_input_parse(data: Mapping[str, Any]) -> TurnInput:
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
            for code, attrs in case_mapping(data["regions"], "regions").items()
        )
        stacks = tuple(
            Stack(nation, str(region), unit_type, count)
            for region, by_nation in case_mapping(data.get("units") or {}, "units").items()
            for nation, by_type in case_mapping(by_nation, f"units.{region}").items()
            for unit_type, count in case_mapping(by_type, f"units.{region}.{nation}").items()
        )
        orders = tuple(
            Order(
                nation=o["nation"],
                kind=o["kind"],
                origin=str(o["from"]),
                target=None if o.get("to") is None else str(o["to"]),
                units=dict(case_mapping(o.get("units") or {}, f"orders[{i}].units")),
                ref=i,
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
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise CaseError(f"malformed turn: {type(error).__name__}: {error}") from None


def case_mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise CaseError(f"{where}: expected a mapping, got {value!r}")
    return value


def turn_mismatches(
    expect: Mapping[str, Any], result: TurnResult, battle_keys: Sequence[str]
) -> Iterable[str]:
    if "battles" in expect:
        wanted, battles = expect["battles"] or [], result.battles
        if len(wanted) != len(battles):
            got = [f"{b['kind']} {b['region']}" for b in battles]
            yield f"battles: expected {len(wanted)} battles, got {len(battles)} {got}"
            return
        for i, (want, got) in enumerate(zip(wanted, battles, strict=True)):
            for key in battle_keys:
                if key not in want:
                    continue
                expected, actual = want[key], got.get(key)
                if key == "losses":
                    expected, actual = _nonzero(expected), _nonzero(actual or {})
                elif key == "row" and expected is not None:
                    expected = list(expected)
                if expected != actual:
                    where = f"battles[{i}] ({want.get('kind')} {want.get('region')}).{key}"
                    yield f"{where}: expected {expected}, got {actual}"
    for region, owner in (expect.get("owners") or {}).items():
        if result.owners.get(str(region)) != owner:
            yield f"owners.{region}: expected {owner}, got {result.owners.get(str(region))}"
    ignored = set(expect.get("ignore_types") or [])
    for region, by_nation in (expect.get("units") or {}).items():
        wanted = _nonzero(by_nation or {}, ignored)
        got = _nonzero(units_in(result, str(region)), ignored)
        if wanted != got:
            yield f"units.{region}: expected {wanted}, got {got}"
    chances = {(c["nation"], c["region"], c["unit_type"]): c["chance"] for c in result.support_chances}
    for nation, by_region in (expect.get("support_chance") or {}).items():
        for region, by_type in by_region.items():
            for unit_type, chance in by_type.items():
                got = chances.get((nation, str(region), unit_type), 0)
                if got != chance:
                    yield f"support_chance.{nation}.{region}.{unit_type}: expected {chance}, got {got}"
    if "rejected_orders" in expect and expect["rejected_orders"] != len(result.rejected_orders):
        reasons = [r.reason for r in result.rejected_orders]
        yield f"rejected_orders: expected {expect['rejected_orders']}, got {len(reasons)} {reasons}"


def units_in(result: TurnResult, region: str) -> dict[str, dict[str, int]]:
    units: dict[str, dict[str, int]] = {}
    for stack in result.stacks:
        if stack.region == region:
            units.setdefault(stack.nation, {})[stack.unit_type] = stack.count
    return units


def _nonzero(by_nation: Mapping[str, Any], ignored: set[str] = frozenset()) -> dict[str, dict[str, int]]:
    cleaned = {}
    for nation, by_type in by_nation.items():
        kept = {t: c for t, c in (by_type or {}).items() if c and t not in ignored}
        if kept:
            cleaned[nation] = kept
    return cleaned
