"""Between the database rows of a company campaign and the engine's frozen values (rules.engine.company_d20).

Reads load a campaign in a fixed number of queries; the engine's values never reach a template, and rows
never reach the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaign.models import Border, Campaign, Nation, Region, Relation
from rules.company import models
from rules.engine.company_d20 import roster as engine_roster
from rules.engine.company_d20.campaign import CampaignState, Snapshot
from rules.engine.company_d20.campaign import Region as EngineRegion
from rules.engine.company_d20.kasarmi import Company
from rules.engine.company_d20.log import RollEntry, StreamState
from rules.engine.company_d20.results import Battle as EngineBattle
from rules.engine.company_d20.ruleset import CompanyRuleset

# The record's columns, as the engine names them (§3.1).
RECORD = [f for f in engine_roster.UNIT_FIELDS if f not in ("id", "nation", "region")]


def unit_of(row: models.Unit, nation_code: str) -> engine_roster.Unit:
    """The engine unit of a row: `unit_columns` read back (its id is the row's number)."""
    values = {name: getattr(row, name) for name in RECORD}
    values.update(
        role=row.role or None,
        region=row.region or None,
        type_abilities=tuple(row.type_abilities),
        abilities=tuple(row.abilities),
        fell=row.fell,
    )
    return engine_roster.Unit(id=row.number, nation=nation_code, **values)


def unit_columns(unit: engine_roster.Unit) -> dict[str, Any]:
    """The row's columns for an engine unit (its nation is the row's foreign key)."""
    values = {name: getattr(unit, name) for name in RECORD}
    values.update(
        role=unit.role or "",
        region=unit.region or "",
        type_abilities=list(unit.type_abilities),
        abilities=list(unit.abilities),
        fell=dict(unit.fell) if unit.fell is not None else None,
    )
    return values


def units_load(campaign: Campaign) -> dict[int, engine_roster.Unit]:
    rows = models.Unit.objects.filter(campaign=campaign).select_related("nation")
    return {row.number: unit_of(row, row.nation.code) for row in rows}


def state_load(campaign: Campaign, turn: int) -> CampaignState:
    """The whole company world as the engine sees it: six queries for any map."""
    nations = list(Nation.objects.filter(campaign=campaign).order_by("position"))
    codes = {n.pk: n.code for n in nations}
    regions = list(Region.objects.filter(campaign=campaign))
    region_codes = {r.pk: r.code for r in regions}

    borders = Border.objects.filter(region_a__campaign=campaign).values_list("region_a_id", "region_b_id")
    relations = Relation.objects.filter(nation_a__campaign=campaign).values_list(
        "nation_a_id", "nation_b_id", "kind"
    )
    balances = models.Balance.objects.filter(nation__campaign=campaign).values_list("nation_id", "tp")
    snapshots = models.ReconSnapshot.objects.filter(campaign=campaign)
    return CampaignState(
        nations=tuple(codes[n.pk] for n in nations),
        regions={
            r.code: EngineRegion(
                r.code, r.terrain, codes.get(r.owner_id), codes.get(r.home_id) if r.home_id else None
            )
            for r in regions
        },
        borders=tuple(sorted((region_codes[a], region_codes[b]) for a, b in borders)),
        units=units_load(campaign),
        turn=turn,
        relations={frozenset((codes[a], codes[b])): kind for a, b, kind in relations},
        tp={codes[n]: tp for n, tp in balances},
        snapshots=tuple(snapshot_of(s) for s in snapshots),
        command_styles={n.code: command_style(n) for n in nations},
    )


def command_style(nation: Nation) -> str:
    """§3.5: `company` unless the GM gave the nation the attribute `command_style: battle_groups` (the
    source's Red side)."""
    style = (nation.attributes or {}).get("command_style")
    return "battle_groups" if style == "battle_groups" else "company"


def snapshot_of(row: models.ReconSnapshot) -> Snapshot:
    return Snapshot(
        row.viewer,
        row.region,
        row.turn,
        {int(u): level for u, level in row.levels.items()},
        {int(u): card for u, card in row.units.items()},
    )


def snapshot_columns(snapshot: Snapshot) -> dict[str, Any]:
    return {
        "viewer": snapshot.viewer,
        "region": snapshot.region,
        "turn": snapshot.turn,
        "levels": {str(u): level for u, level in snapshot.levels.items()},
        "units": {str(u): dict(card) for u, card in snapshot.units.items()},
    }


def company_of(
    state: CampaignState,
    nation: str,
    ruleset: CompanyRuleset,
    *,
    orders_phase: bool,
    company_size: int | None = None,
) -> Company:
    """One nation's Kasarmi from the campaign state; unit ids are campaign-wide, so the next is the
    campaign's. `company_size` is the GM's override for the nation (§7.3); none: the ruleset's."""
    return Company(
        nation=nation,
        tp=state.tp.get(nation, 0),
        units={u.id: u for u in state.units.values() if u.nation == nation},
        owned=tuple(sorted(r.id for r in state.regions.values() if r.owner == nation)),
        home=tuple(sorted(r.id for r in state.regions.values() if r.home == nation)),
        company_size=ruleset.get("company_size") if company_size is None else company_size,
        next_id=max(state.units, default=0) + 1,
        style=state.style(nation),
        orders_phase=orders_phase,
    )


def battle_data(battle: EngineBattle) -> dict[str, Any]:
    """A battle as stored: enough to rebuild it exactly for results, completion and the dice service."""
    return {
        "key": battle.key,
        "kind": battle.kind,
        "defender": battle.defender,
        "sides": list(battle.sides),
        "units": {str(u): unit.to_dict() for u, unit in battle.units.items()},
        "origins": {str(u): origin for u, origin in battle.origins.items()},
        "region": battle.region,
        "occupier": battle.occupier,
        "settlement": battle.settlement,
    }


def battle_of(data: Mapping[str, Any], ruleset: CompanyRuleset) -> EngineBattle:
    return EngineBattle(
        data["key"],
        data["kind"],
        data["defender"],
        tuple(data["sides"]),
        {int(u): engine_roster.unit_from_data(d, ruleset) for u, d in data["units"].items()},
        {int(u): origin for u, origin in data["origins"].items()},
        region=data["region"],
        occupier=data["occupier"],
        settlement=data["settlement"],
    )


def stream_of(text: str, stored: Any, next_seq: int) -> StreamState:
    """The generator state is stored as JSON lists; `random.Random.setstate` wants tuples back."""
    state = None if stored is None else (stored[0], tuple(stored[1]), stored[2])
    return StreamState(text, state, next_seq)


def stream_columns(stream: StreamState) -> dict[str, Any]:
    state = stream.state
    stored = None if state is None else [state[0], list(state[1]), state[2]]
    return {"stream_state": stored, "next_seq": stream.next_seq}


def roll_of(row: models.DiceRoll) -> RollEntry:
    return RollEntry(
        seq=row.seq,
        function=row.function,
        inputs=row.inputs,
        side=row.side or None,
        dice=tuple(tuple(d) for d in row.dice),
        output=row.output,
        secret=row.secret,
        purpose=row.purpose or None,
        table_turn=row.table_turn,
    )


def roll_columns(entry: RollEntry) -> dict[str, Any]:
    return {
        "seq": entry.seq,
        "function": entry.function,
        "inputs": _json(entry.inputs),
        "side": entry.side or "",
        "dice": [list(d) for d in entry.dice],
        "output": _json(entry.output),
        "secret": entry.secret,
        "purpose": entry.purpose or "",
        "table_turn": entry.table_turn,
    }


def _json(value: Any) -> Any:
    """Tuples and mappings as JSON stores them, so a replay compares what was stored with what it makes."""
    if isinstance(value, Mapping):
        return {k: _json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    return value
