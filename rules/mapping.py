"""The thin layer between database rows and the engine's frozen dataclasses, both ways.

The engine speaks in codes (nation RED, region A1); the database in ids. `WorldIds` holds both
directions of that translation for one campaign, loaded once per turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine.state import GMModifier, Order, Region, Relation, Stack, TurnInput, TurnResult


@dataclass(frozen=True)
class WorldIds:
    nation_code: Mapping[int, str]
    nation_id: Mapping[str, int]
    region_code: Mapping[int, str]
    region_id: Mapping[str, int]


@dataclass(frozen=True)
class Rows:
    """Database rows as plain tuples, in the order the selector reads them."""

    nations: list[tuple[int, str]]  # (id, code) in nation-id order
    regions: list[tuple[int, str, str, int, int | None, int | None]]  # (id, code, terrain, fort, home, owner)
    borders: list[tuple[int, int]]
    # (id, nation, region, unit type, count): every row, empty ones too, so that the writer can tell new
    # stacks from changed ones; the engine gets only the non-empty ones.
    stacks: list[tuple[int, int, int, str, int]]
    relations: list[tuple[int, int, str]]
    orders: list[
        tuple[int, int, str, int | None, int | None, dict[str, int], dict[str, Any]]
    ]  # (id, nation, kind, origin (none for a doctrine), target, units, params)
    gm_modifiers: list[tuple[int, int, int, str]]  # (region, nation, value, reason)
    weather: str
    region_weather: Mapping[str, str]
    nation_attributes: list[tuple[int, dict[str, Any]]] = ()  # (nation, its system attributes), when set
    system_inputs: Mapping[str, Any] | None = None  # the turn's own (the GM's advantages, skipped rolls)


def world_ids(rows: Rows) -> WorldIds:
    return WorldIds(
        nation_code={pk: code for pk, code in rows.nations},
        nation_id={code: pk for pk, code in rows.nations},
        region_code={r[0]: r[1] for r in rows.regions},
        region_id={r[1]: r[0] for r in rows.regions},
    )


def turn_input_from_rows(rows: Rows, ids: WorldIds) -> TurnInput:
    nation = ids.nation_code.get
    region = ids.region_code.__getitem__
    return TurnInput(
        nations=tuple(code for _, code in rows.nations),
        # Region-id order is the string order of codes (IRON_FIST.md §1).
        regions=tuple(
            Region(
                code=code,
                terrain=terrain,
                owner=nation(owner),
                fort=fort,
                home=nation(home),
                weather=rows.region_weather.get(code),
            )
            for _, code, terrain, fort, home, owner in sorted(rows.regions, key=lambda r: r[1])
        ),
        borders=tuple(sorted(tuple(sorted((region(a), region(b)))) for a, b in rows.borders)),
        stacks=_stacks_sorted(rows, ids),
        orders=tuple(
            Order(
                nation=ids.nation_code[n],
                kind=kind,
                origin=region(origin) if origin is not None else "",
                target=region(target) if target is not None else None,
                # In code order, as the turn's snapshot (and so an export) stores them: what the engine
                # reports unit type by type (the moves) must not depend on the order a form sent them in.
                units=dict(sorted(units.items())),
                ref=pk,
                params=dict(params or {}),
            )
            for pk, n, kind, origin, target, units, params in rows.orders
        ),
        relations=tuple(
            Relation(a=ids.nation_code[a], b=ids.nation_code[b], kind=kind) for a, b, kind in rows.relations
        ),
        weather=rows.weather,
        gm_modifiers=tuple(
            GMModifier(region=region(r), nation=ids.nation_code[n], value=v, reason=reason)
            for r, n, v, reason in rows.gm_modifiers
        ),
        system_inputs=system_inputs_of(rows, ids),
    )


def system_inputs_of(rows: Rows, ids: WorldIds) -> dict[str, Any]:
    """The battle system's own turn inputs: the turn's, with the nations' attributes the GM set (§5)."""
    inputs = dict(rows.system_inputs or {})
    attributes = {ids.nation_code[n]: dict(a) for n, a in rows.nation_attributes if a}
    if attributes:
        inputs["nation_attributes"] = attributes
    return inputs


def _stacks_sorted(rows: Rows, ids: WorldIds) -> tuple[Stack, ...]:
    # A fixed order, so the same world gives the engine the same input whatever order the rows came in.
    stacks = [Stack(ids.nation_code[n], ids.region_code[r], t, c) for _, n, r, t, c in rows.stacks if c > 0]
    return tuple(sorted(stacks, key=lambda s: (s.region, ids.nation_id[s.nation], s.unit_type)))


def stack_rows(result: TurnResult, ids: WorldIds) -> list[dict[str, Any]]:
    return [
        {
            "nation": ids.nation_id[s.nation],
            "region": ids.region_id[s.region],
            "unit_type": s.unit_type,
            "count": s.count,
        }
        for s in result.stacks
        if s.count > 0
    ]


@dataclass(frozen=True)
class StackChanges:
    """What turns the stacks as they were into the stacks after a turn: rows to delete, update, insert."""

    deleted: list[dict[str, Any]]  # {"id"}
    updated: list[dict[str, Any]]  # {"id", "count"}
    inserted: list[dict[str, Any]]  # {"nation", "region", "unit_type", "count"}


def stack_changes(
    before: Iterable[tuple[int, int, int, str, int]], after: list[dict[str, Any]]
) -> StackChanges:
    """From every stack row before (Rows.stacks) and the rows after (stack_rows): only what differs.

    A stack the result does not have is deleted, empty rows included, so that afterwards the table holds
    exactly the result's stacks, as if it had been emptied and filled again."""
    was = {(n, r, t): (pk, c) for pk, n, r, t, c in before}
    now = {(s["nation"], s["region"], s["unit_type"]): s for s in after}
    return StackChanges(
        deleted=[{"id": pk} for key, (pk, _) in was.items() if key not in now],
        updated=[
            {"id": was[key][0], "count": s["count"]}
            for key, s in now.items()
            if key in was and was[key][1] != s["count"]
        ],
        inserted=[s for key, s in now.items() if key not in was],
    )


def owner_changes(
    result: TurnResult, ids: WorldIds, before: Mapping[int, int | None]
) -> list[dict[str, Any]]:
    """Only the regions whose owner changed; an unknown code raises, failing the turn before any write."""
    changes = []
    for code, owner in result.owners.items():
        pk = ids.region_id[code]
        owner_id = ids.nation_id[owner] if owner is not None else None
        if before[pk] != owner_id:
            changes.append({"id": pk, "owner": owner_id})
    return changes


def report_rows(
    battles: Iterable[Mapping[str, Any]], ids: WorldIds, turn_id: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Report rows and their (position, nation) rows, from the engine's battle reports."""
    reports, nations = [], []
    for position, battle in enumerate(battles):
        reports.append(
            {
                "turn": turn_id,
                "position": position,
                "kind": battle["kind"],
                "region": battle["region"],
                "regions": list(battle.get("regions") or [battle["region"]]),
                "conquest": bool(battle.get("conquest")),
                "data": dict(battle),
            }
        )
        for code in dict.fromkeys(battle.get("nations") or ()):
            nations.append({"position": position, "nation": ids.nation_id[code]})
    return reports, nations
