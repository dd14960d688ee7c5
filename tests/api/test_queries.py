"""List endpoints read a fixed number of queries, whatever the size of the map: no N+1.

The same requests on the demo (25 regions) and on a generated map of 400 regions, after a busy turn
with battle reports and with orders for the next, must cost the same number of queries.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.generate import orders_generate, scenario_generate
from campaign.models import Campaign, Turn
from campaign.scenario import scenario_parse, scenario_read
from campaign.services import membership_set, scenario_import
from orders.models import Order
from orders.services import orders_place
from rules.services import turn_process
from tests.api.conftest import client_for
from tests.conftest import DEMO

LISTS = [
    "",
    "regions/",
    "borders/",
    "stacks/",
    "turns/",
    "turns/1/",
    "turns/1/reports/",
    "orders/",
    "orders/?turn=1",
]
MOST = 10


def campaign_played(data: dict | None, slug: str) -> tuple[Campaign, dict]:
    """A campaign after turn 1 (every generated order processed) with orders placed for turn 2."""
    scenario = scenario_parse(data) if data else scenario_read(DEMO)
    campaign = scenario_import(scenario=scenario, slug=slug)
    nations = {n.code: n for n in campaign.nations.all()}
    orders = (
        orders_generate(scenario=data, seed=1)
        if data
        else [
            {"nation": "NOR", "kind": "attack", "origin": "N5", "target": "M1", "units": {"JV": 3}},
            {"nation": "EST", "kind": "attack", "origin": "E2", "target": "K4", "units": {"JV": 3}},
        ]
    )
    first = campaign.turns.get(number=1)
    orders_place(turn=first, orders=orders)
    assert turn_process(turn_id=first.pk).status == Turn.Status.RESOLVED
    player_nation = next(iter(nations.values()))
    second = campaign.turns.get(number=2)
    held = list(campaign.regions.filter(owner=player_nation))
    Order.objects.bulk_create(
        Order(turn=second, nation=player_nation, kind="hold", origin=r, units={"JV": 1}, sequence=i)
        for i, r in enumerate(held, start=1)
    )
    users = {
        "gm": membership_set(campaign=campaign, username=f"{slug}-gm", password="pw-gm-1", nation=None).user,
        "player": membership_set(
            campaign=campaign, username=f"{slug}-player", password="pw-player-1", nation=player_nation
        ).user,
    }
    return campaign, users


def queries_and_size(user, url) -> tuple[int, int]:
    api = client_for(user)
    api.get(url)  # warm: the token row and content types are cached per process, not per request
    with CaptureQueriesContext(connection) as queries:
        response = api.get(url)
    assert response.status_code == 200, (url, response.content[:300])
    body = response.json()
    return len(queries), len(body) if isinstance(body, list) else 1


@pytest.mark.parametrize("role", ["gm", "player"])
def test_list_endpoints_cost_the_same_queries_on_a_small_and_a_large_map(db, role) -> None:
    small, small_users = campaign_played(None, "small")
    large, large_users = campaign_played(scenario_generate(regions=400, nations=8, seed=3), "large")

    for path in LISTS:
        small_queries, small_size = queries_and_size(small_users[role], f"/api/campaigns/small/{path}")
        large_queries, large_size = queries_and_size(large_users[role], f"/api/campaigns/large/{path}")
        assert large_queries == small_queries <= MOST, (path, small_queries, large_queries)
        if path in ("regions/", "borders/", "stacks/", "orders/"):
            assert large_size > 4 * small_size, (path, small_size, large_size)


def test_the_campaign_list_costs_the_same_queries_for_one_campaign_or_many(
    db, django_assert_max_num_queries
) -> None:
    campaign, users = campaign_played(None, "first")
    api = client_for(users["gm"])
    api.get("/api/campaigns/")
    with CaptureQueriesContext(connection) as one:
        api.get("/api/campaigns/")
    for i in range(5):
        more = scenario_import(scenario=scenario_read(DEMO), slug=f"more-{i}")
        membership_set(campaign=more, username=users["gm"].username, password="pw-gm-1", nation=None)

    with django_assert_max_num_queries(len(one)):
        assert len(api.get("/api/campaigns/").json()) == 6


def test_a_token_and_its_viewer_are_read_in_one_statement_when_an_order_is_submitted(
    db, demo, player
) -> None:
    api = client_for(player)
    body = {"kind": "hold", "origin": "N2", "units": {"JV": 1}}
    with CaptureQueriesContext(connection) as queries:
        assert api.post("/api/campaigns/demo/orders/", body, format="json").status_code == 201

    reading_tokens = [q["sql"] for q in queries if "authtoken_token" in q["sql"]]
    assert len(reading_tokens) == 1 and "campaign_membership" in reading_tokens[0]
