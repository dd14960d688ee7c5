from dataclasses import replace
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaign.models import Campaign
from campaign.scenario import scenario_read
from campaign.services import membership_set, scenario_import
from orders.services import orders_place
from rules.services import turn_process

DEMO_FILE = Path(__file__).resolve().parents[2] / "scenarios" / "demo.yaml"
DEMO_SLUG = "demo"
# Demo accounts only: printed on the console by `make run`, never used outside a local demo.
GM = ("gm", "ironfist-gm")
PLAYER_PASSWORD = "ironfist-player"
# The same map fought at the table (TABLETOP.md): turn 1's orders are in and processed, so its battles wait
# for results: a meeting engagement, two region battles, and an unopposed occupation settled peacefully.
TABLETOP_SLUG = "tabletop"
TABLETOP_NAME = "The Grenzwald Crisis at the table"
TABLETOP_ORDERS = [
    ("KAR", "attack", "K4", "E2", {"JV": 4, "PA": 2}),
    ("EST", "attack", "E2", "K4", {"JV": 3, "PA": 3}),
    ("SUD", "attack", "S1", "E4", {"JV": 3, "PA": 2}),
    ("NOR", "attack", "N3", "K1", {"JV": 2}),
    ("WES", "attack", "W4", "M4", {"JV": 3, "PA": 1}),
    ("SUD", "attack", "S2", "M4", {"JV": 2, "PA": 1}),
]


class Command(BaseCommand):
    help = "Load the demo campaign and its demo accounts (once; later runs only print the logins)."

    @transaction.atomic
    def handle(self, *args, **options):
        campaign = Campaign.objects.filter(slug=DEMO_SLUG).first()
        if campaign is None:
            campaign = scenario_import(scenario=scenario_read(DEMO_FILE), slug=DEMO_SLUG)
            _members(campaign)
            get_user_model().objects.filter(username=GM[0]).update(is_staff=True, is_superuser=True)
        if not Campaign.objects.filter(slug=TABLETOP_SLUG).exists():
            _tabletop_demo()
        self.stdout.write(f"Demo campaign {campaign.name!r} (slug {campaign.slug}). Logins:")
        self.stdout.write(f"  game master: {GM[0]} / {GM[1]}   (also admin at /admin/)")
        for nation in campaign.nations.all():
            self.stdout.write(f"  {nation.name}: {nation.code.lower()} / {PLAYER_PASSWORD}")
        self.stdout.write(
            f"Tabletop campaign {TABLETOP_NAME!r} (slug {TABLETOP_SLUG}): turn 1 waits for its battles."
        )


def _members(campaign: Campaign) -> None:
    membership_set(campaign=campaign, username=GM[0], password=GM[1], nation=None)
    for nation in campaign.nations.all():
        membership_set(
            campaign=campaign, username=nation.code.lower(), password=PLAYER_PASSWORD, nation=nation
        )


def _tabletop_demo() -> Campaign:
    """The demo map as a tabletop campaign, turn 1 processed: its battles are open for results."""
    scenario = scenario_read(DEMO_FILE)
    scenario = replace(
        scenario, ruleset_overrides={**scenario.ruleset_overrides, "battle_system": "tabletop"}
    )
    campaign = scenario_import(scenario=scenario, slug=TABLETOP_SLUG, name=TABLETOP_NAME)
    _members(campaign)
    turn = campaign.turns.get(number=1)
    orders_place(
        turn=turn,
        orders=[
            {"nation": nation, "kind": kind, "origin": origin, "target": target, "units": units}
            for nation, kind, origin, target, units in TABLETOP_ORDERS
        ],
    )
    turn_process(turn_id=turn.pk)
    return campaign
