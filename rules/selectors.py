"""Reads for turn processing: a whole campaign's state in a fixed number of queries, whatever its size."""

from __future__ import annotations

from dataclasses import replace

from campaign.models import Border, GMModifier, Nation, Region, Relation, Stack, Turn
from orders.models import Order
from rules.engine.state import TurnInput
from rules.mapping import Rows
from rules.models import ResultVersion


def turn_rows_load(*, turn: Turn) -> Rows:
    """Seven queries: nations, regions, borders, stacks, relations, orders, GM modifiers."""
    campaign_id = turn.campaign_id
    return Rows(
        nations=list(
            Nation.objects.filter(campaign_id=campaign_id).order_by("position").values_list("id", "code")
        ),
        regions=list(
            Region.objects.filter(campaign_id=campaign_id)
            .order_by()
            .values_list("id", "code", "terrain", "fort", "home_id", "owner_id")
        ),
        borders=list(
            Border.objects.filter(region_a__campaign_id=campaign_id).values_list("region_a_id", "region_b_id")
        ),
        stacks=list(
            Stack.objects.filter(region__campaign_id=campaign_id, count__gt=0).values_list(
                "nation_id", "region_id", "unit_type", "count"
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
            .values_list("id", "nation_id", "kind", "origin_id", "target_id", "units")
        ),
        gm_modifiers=list(
            GMModifier.objects.filter(turn=turn)
            .order_by("id")
            .values_list("region_id", "nation_id", "value", "reason")
        ),
        weather=turn.weather,
        region_weather=dict(turn.region_weather or {}),
    )


def tabletop_entries(*, turn: Turn) -> dict[str, dict]:
    """The entries of a tabletop turn (TABLETOP.md A4.3): each battle's confirmed version, with the
    fingerprint of the sheet it was entered against. One query."""
    confirmed = ResultVersion.objects.filter(
        battle__turn=turn, state=ResultVersion.State.CONFIRMED
    ).values_list("battle__key", "payload", "fingerprint")
    return {key: {**payload, "fingerprint": fingerprint} for key, payload, fingerprint in confirmed}


def turn_input_with_entries(*, turn: Turn, turn_input: TurnInput) -> TurnInput:
    """A tabletop turn's input carries its entries: they are part of what the turn is resolved from, so
    processing, the GM's preview, replay and export all see them."""
    if turn.campaign.battle_system != "tabletop":
        return turn_input
    entries = tabletop_entries(turn=turn)
    return replace(turn_input, system_inputs={**turn_input.system_inputs, "entries": entries})
