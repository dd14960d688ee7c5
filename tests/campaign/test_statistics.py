"""A new campaign is known to PostgreSQL's planner as soon as it is imported (campaign.sql.tables_analyze):
without statistics that count its rows, PostgreSQL took a campaign of thousands of regions for a handful,
re-planned order entry's statements on every order and walked a nation's every stack."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from campaign.generate import scenario_generate
from campaign.scenario import scenario_parse
from campaign.services import scenario_import

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="PostgreSQL's planner statistics (set DATABASE_URL)"
)


def estimated_rows(sql: str, params: list) -> float:
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}", params)
        (plan,) = cursor.fetchone()
    return (json.loads(plan) if isinstance(plan, str) else plan)[0]["Plan"]["Plan Rows"]


def test_the_planner_counts_a_new_campaigns_regions_once_it_is_imported(
    db, django_capture_on_commit_callbacks
) -> None:
    data = scenario_generate(regions=400, nations=8, seed=3)
    with django_capture_on_commit_callbacks(execute=True):
        campaign = scenario_import(scenario=scenario_parse(data), slug="counted")

    regions = estimated_rows("SELECT id FROM campaign_region WHERE campaign_id = %s", [campaign.pk])
    stacks = estimated_rows(
        "SELECT s.id FROM campaign_stack s JOIN campaign_region r ON r.id = s.region_id "
        "WHERE r.campaign_id = %s",
        [campaign.pk],
    )

    assert regions >= 200, f"the planner expects {regions} of the campaign's 400 regions"
    assert stacks >= campaign.regions.count() / 2
