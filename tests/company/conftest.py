"""A company campaign for the tests: the demo map with company_d20 rules, NOR (the player) facing EST (the
rival) across the border N5-M1, with named units on both sides."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from campaign.models import Campaign, Nation, Region, Stack


@dataclass
class World:
    campaign: Campaign
    nor: Nation
    est: Nation
    units: dict  # name -> company.models.Unit


@pytest.fixture
def company(demo, nations, regions, gm, player, rival, outsider) -> World:
    from company.services import balances_ensure, roster_unit_create

    Campaign.objects.filter(pk=demo.pk).update(
        battle_system="company_d20", ruleset_overrides={"tp": {"starting": 30}}
    )
    demo.refresh_from_db()
    Stack.objects.filter(nation__campaign=demo).delete()
    Region.objects.filter(pk=regions["M1"].pk).update(owner=nations["EST"])
    balances_ensure(campaign=demo)
    nor, est = nations["NOR"], nations["EST"]
    units = {}
    for nation, name, kind, region, group in [
        (nor, "Päällikkö", "KOMP", "N5", 0),
        (nor, "Ryhmä 1", "JR", "N5", 1),
        (nor, "Ryhmä 2", "JR", "N5", 1),
        (nor, "Tiedustelu", "SISSI", "N5", 1),
        (est, "Chef", "KOMP", "M1", 0),
        (est, "Gruppe 1", "JR", "M1", 1),
        (est, "MG", "KK", "M1", 1),
    ]:
        units[name] = roster_unit_create(
            campaign=demo, nation=nation, type=kind, name=name, region=region, group=group, actor=gm
        )
    return World(demo, nor, est, units)
