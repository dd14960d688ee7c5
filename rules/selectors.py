"""Reads for turn processing: a whole campaign's state in a fixed number of queries, whatever its size."""

from __future__ import annotations

from campaign.models import Border, GMModifier, Nation, Region, Relation, Stack, Turn
from orders.models import Order
from rules.mapping import Rows


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
