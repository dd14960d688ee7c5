"""The demo company campaign that `make run` loads beside the Iron Fist one: the same map, company_d20
rules, a few named units per nation, and NOR facing EST across N5-M1 so that the first turn has a battle."""

from __future__ import annotations

from django.db import transaction

from campaign.models import Campaign, Region, Stack
from campaign.scenario import Scenario
from campaign.services import scenario_import
from company.services import balances_ensure, roster_unit_create

SLUG = "company"
NAME = "Grenzwald Company"
# (nation, region, group, type, name): each nation's company as the GM sets it up.
UNITS = [
    ("NOR", "N5", 0, "KOMP", "Päällikkö Virta"),
    ("NOR", "N5", 1, "JOJO", "Joukkue 1"),
    ("NOR", "N5", 1, "JR", "Ryhmä Aho"),
    ("NOR", "N5", 1, "JR", "Ryhmä Berg"),
    ("NOR", "N4", 1, "SISSI", "Sissit"),
    ("EST", "M1", 0, "KOMP", "Hauptmann Lenz"),
    ("EST", "M1", 1, "JR", "Gruppe Adler"),
    ("EST", "M1", 1, "KK", "MG Falke"),
    ("KAR", "K4", 0, "KOMP", "Kapteeni Laine"),
    ("KAR", "K4", 1, "MOT", "Moto 1"),
    ("WES", "W1", 0, "KOMP", "Captain West"),
    ("WES", "W1", 1, "PST", "AT Squad"),
    ("SUD", "S1", 0, "KOMP", "Capitano Sud"),
    ("SUD", "S1", 1, "KRH", "Mortai"),
]


@transaction.atomic
def company_demo_create(*, scenario: Scenario) -> Campaign:
    """The campaign, its balances and its units; the caller adds the accounts."""
    campaign = scenario_import(scenario=scenario, slug=SLUG, name=NAME)
    Campaign.objects.filter(pk=campaign.pk).update(
        battle_system="company_d20", ruleset_overrides={"tp": {"starting": 40}}
    )
    campaign.refresh_from_db()
    Stack.objects.filter(nation__campaign=campaign).delete()
    nations = {n.code: n for n in campaign.nations.all()}
    Region.objects.filter(campaign=campaign, code="M1").update(owner=nations["EST"])
    balances_ensure(campaign=campaign)
    for code, region, group, kind, name in UNITS:
        roster_unit_create(
            campaign=campaign, nation=nations[code], type=kind, name=name, region=region, group=group
        )
    return campaign
