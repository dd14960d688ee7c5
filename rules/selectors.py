"""Reads for turn processing: a whole campaign's state in a fixed number of queries, whatever its size, and
the world as the engine will see it (`turn_load`); and a resolved turn's whole result, its battle reports read
back from their rows."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from campaign.models import Border, GMModifier, Nation, Region, Relation, Stack, Turn
from orders.models import Order
from rules.engine.state import TurnInput
from rules.mapping import Rows, WorldIds, turn_input_from_rows, world_ids
from rules.models import Report, TableBattle
from rules.snapshot import input_canonical, input_fingerprint
from rules.system_shells import system_shell


def turn_rows_load(*, turn: Turn) -> Rows:
    """Seven queries: nations (with their attributes), regions, borders, stacks, relations, orders and
    GM modifiers."""
    campaign_id = turn.campaign_id
    nations = list(
        Nation.objects.filter(campaign_id=campaign_id)
        .order_by("position")
        .values_list("id", "code", "attributes")
    )
    return Rows(
        nations=[(pk, code) for pk, code, _ in nations],
        regions=list(
            Region.objects.filter(campaign_id=campaign_id)
            .order_by()
            .values_list("id", "code", "terrain", "fort", "home_id", "owner_id")
        ),
        borders=list(
            Border.objects.filter(region_a__campaign_id=campaign_id).values_list("region_a_id", "region_b_id")
        ),
        stacks=list(
            Stack.objects.filter(region__campaign_id=campaign_id).values_list(
                "id", "nation_id", "region_id", "unit_type", "count"
            )
        ),
        relations=list(
            Relation.objects.filter(nation_a__campaign_id=campaign_id).values_list(
                "nation_a_id", "nation_b_id", "kind"
            )
        ),
        orders=list(
            Order.objects.filter(turn=turn)
            .order_by("sequence")
            .values_list("id", "nation_id", "kind", "origin_id", "target_id", "units", "params")
        ),
        gm_modifiers=list(
            GMModifier.objects.filter(turn=turn)
            .order_by("id")
            .values_list("region_id", "nation_id", "value", "reason")
        ),
        weather=turn.weather,
        region_weather=dict(turn.region_weather or {}),
        nation_attributes=[(pk, attributes) for pk, _, attributes in nations if attributes],
        system_inputs=dict(turn.system_inputs or {}),
    )


def turn_result(*, turn: Turn) -> dict[str, Any] | None:
    """The turn's whole result as `TurnResult.to_dict()` gave it, or None before it is resolved."""
    return turns_results(turns=[turn]).get(turn.pk)


def turns_results(*, turns: Iterable[Turn]) -> dict[int, dict[str, Any]]:
    """The whole results of the turns that have one, by turn id, in one query for all their reports.

    Turn processing keeps a result's battle reports once, as the rows of rules_report, and the rest of it
    in `Turn.result` (rules.services). A result that holds its battles (a turn waiting for battles fought
    elsewhere, which has no report rows yet) is whole already.
    """
    stored = {turn.pk: turn.result for turn in turns if turn.result is not None}
    apart = [pk for pk, result in stored.items() if "battles" not in result]
    battles: dict[int, list[Any]] = {pk: [] for pk in apart}
    if apart:
        reports = Report.objects.filter(turn_id__in=apart).order_by("turn_id", "position")
        for turn_id, data in reports.values_list("turn_id", "data"):
            battles[turn_id].append(data)
    return {
        pk: {**result, "battles": battles[pk]} if pk in battles else result for pk, result in stored.items()
    }


def turn_input_with_system_inputs(*, turn: Turn, turn_input: TurnInput) -> TurnInput:
    """The input with what the turn's system resolves it from besides its rows, asked of the system's shell
    (tabletop's entries, TABLETOP.md A4.3), so processing, the GM's preview, replay and export all see it."""
    inputs = system_shell(turn.campaign.battle_system).turn_inputs
    if inputs is None:
        return turn_input
    return replace(turn_input, system_inputs={**turn_input.system_inputs, **inputs(turn)})


@dataclass(frozen=True)
class LoadedTurn:
    """A turn's world as the engine will see it; `fingerprint` identifies the input and the seed."""

    rows: Rows
    ids: WorldIds
    turn_input: TurnInput
    canonical: str  # the input and the seed as canonical JSON (rules.snapshot)
    fingerprint: str


def turn_load(*, turn: Turn) -> LoadedTurn:
    """Load the world for the engine (seven queries); shared by processing, the GM's preview and tabletop's
    results workflow."""
    rows = turn_rows_load(turn=turn)
    ids = world_ids(rows)
    turn_input = turn_input_with_system_inputs(turn=turn, turn_input=turn_input_from_rows(rows, ids))
    canonical = input_canonical(turn_input, turn.seed_value)
    return LoadedTurn(rows, ids, turn_input, canonical, input_fingerprint(canonical))


def battles_visible(*, viewer, turn: Turn) -> list:
    """The turn's battles the viewer may see (A5.4, A11.2): the GM all; a player those of its nation, and
    those its nation supports (whose sheets show it only its own support lines)."""
    battles = list(
        TableBattle.objects.filter(turn=turn).exclude(state=TableBattle.State.GONE).order_by("position")
    )
    if viewer.is_gm:
        return battles
    if viewer.nation is None:
        return []
    return [b for b in battles if battle_sheet_for(viewer=viewer, battle=b) is not None]


def battle_sheet_for(*, viewer, battle) -> dict | None:
    """The sheet as the viewer may see it: whole for the GM and the battle's nations; for a nation that only
    supports it, the place and its own support lines; None for anyone else."""
    if viewer.is_gm:
        return dict(battle.sheet)
    code = viewer.nation.code if viewer.nation is not None else None
    if code is None:
        return None
    if code in battle.nations:
        return dict(battle.sheet)
    own = [line for line in battle.sheet.get("support", []) if line[0] == code]
    if not own:
        return None
    keep = ("key", "kind", "region", "regions", "place", "decisive_text")
    shown = {k: battle.sheet[k] for k in keep if k in battle.sheet}
    return {**shown, "support": own, "sides": [], "forces": {}}
