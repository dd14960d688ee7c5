"""The world of the demo campaign as rows, to compare before and after a preview or a rollback."""

from __future__ import annotations

import pytest

from campaign.models import Nation, Region, Stack, Turn
from orders.models import Order
from rules.models import Report, ReportNation

# A busy first turn on the demo map (the same as tests/campaign): a meeting engagement, an attack on a
# home region, a joint occupation, an unopposed occupation, a stand-down and an order the engine rejects.
ORDERS = [
    ("KAR", "attack", "K4", "E2", {"JV": 4, "PA": 2}),
    ("EST", "attack", "E2", "K4", {"JV": 3, "PA": 3}),
    ("SUD", "attack", "S1", "E4", {"JV": 3, "PA": 2}),
    ("WES", "attack", "W4", "M4", {"JV": 3, "PA": 1}),
    ("SUD", "attack", "S2", "M4", {"JV": 2, "PA": 1}),
    ("NOR", "attack", "N5", "M1", {"JV": 3, "PA": 2}),
    ("KAR", "stand_down", "K2", None, {"IV": 1}),
    ("NOR", "attack", "N1", "K3", {"JV": 2}),
]


def world_rows(campaign) -> dict:
    """Every row turn processing may touch, without the ids that a rewrite may renumber."""
    return {
        "stacks": sorted(
            Stack.objects.filter(region__campaign=campaign).values_list(
                "nation_id", "region_id", "unit_type", "count"
            )
        ),
        "owners": sorted(Region.objects.filter(campaign=campaign).values_list("id", "owner_id")),
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
        "orders": sorted(
            Order.objects.filter(turn__campaign=campaign).values_list(
                "id", "turn_id", "nation_id", "kind", "origin_id", "target_id", "units", "sequence"
            )
        ),
        "nations": sorted(
            Nation.objects.filter(campaign=campaign).values_list(
                "id", "turns_missed", "turns_missed_in_row", "civil_disorder"
            )
        ),
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
