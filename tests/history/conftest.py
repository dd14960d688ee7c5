"""The world of the demo campaign as rows, to compare before and after a preview or a rollback."""

from __future__ import annotations

import pytest

from campaign.models import Nation, Region, Stack, Turn
from orders.models import Order
from rules.models import Report, ReportNation
from tests.campaign.test_turn_processing import ORDERS  # a busy first turn on the demo map
from tests.history.test_replay import rows


def world_rows(campaign) -> dict:
    """Every row turn processing may touch, without the ids that a rewrite may renumber."""
    stacks = Stack.objects.filter(region__campaign=campaign)
    orders = Order.objects.filter(turn__campaign=campaign)
    nations = Nation.objects.filter(campaign=campaign)
    return {
        "stacks": rows(stacks, "nation_id", "region_id", "unit_type", "count"),
        "owners": rows(Region.objects.filter(campaign=campaign), "id", "owner_id"),
        "turns": list(
            Turn.objects.filter(campaign=campaign)
            .order_by("number")
            .values_list(
                "id",
                "number",
                "status",
                "seed",
                "weather",
                "region_weather",
                "error",
                "result",
                "processed_at",
            )
        ),
        "orders": rows(
            orders, "id", "turn_id", "nation_id", "kind", "origin_id", "target_id", "units", "sequence"
        ),
        "nations": rows(nations, "id", "turns_missed", "turns_missed_in_row", "civil_disorder"),
        "reports": Report.objects.filter(turn__campaign=campaign).count(),
        "report_nations": ReportNation.objects.filter(report__turn__campaign=campaign).count(),
    }


@pytest.fixture
def turn1(demo):
    return demo.turns.get(number=1)


@pytest.fixture
def busy_turn1(turn1, place_orders):
    place_orders(turn1, ORDERS)
    return turn1
