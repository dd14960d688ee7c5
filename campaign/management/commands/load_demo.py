from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaign.models import Campaign
from campaign.scenario import scenario_read
from campaign.services import membership_set, scenario_import
from company.demo import SLUG as COMPANY_SLUG
from company.demo import company_demo_create

DEMO_FILE = Path(__file__).resolve().parents[2] / "scenarios" / "demo.yaml"
DEMO_SLUG = "demo"
# Demo accounts only: printed on the console by `make run`, never used outside a local demo.
GM = ("gm", "ironfist-gm")
PLAYER_PASSWORD = "ironfist-player"


class Command(BaseCommand):
    help = "Load the demo campaign and its demo accounts (once; later runs only print the logins)."

    @transaction.atomic
    def handle(self, *args, **options):
        campaign = Campaign.objects.filter(slug=DEMO_SLUG).first()
        if campaign is None:
            campaign = scenario_import(scenario=scenario_read(DEMO_FILE), slug=DEMO_SLUG)
            membership_set(campaign=campaign, username=GM[0], password=GM[1], nation=None)
            get_user_model().objects.filter(username=GM[0]).update(is_staff=True, is_superuser=True)
            for nation in campaign.nations.all():
                membership_set(
                    campaign=campaign, username=nation.code.lower(), password=PLAYER_PASSWORD, nation=nation
                )
        company = Campaign.objects.filter(slug=COMPANY_SLUG).first()
        if company is None:
            # The same accounts play the company campaign too (COMPANY.md): the same nations on the same map.
            company = company_demo_create(scenario=scenario_read(DEMO_FILE))
            membership_set(campaign=company, username=GM[0], password=GM[1], nation=None)
            for nation in company.nations.all():
                membership_set(
                    campaign=company, username=nation.code.lower(), password=PLAYER_PASSWORD, nation=nation
                )
        self.stdout.write(f"Demo company campaign {company.name!r} (slug {company.slug}), same logins.")
        self.stdout.write(f"Demo campaign {campaign.name!r} (slug {campaign.slug}). Logins:")
        self.stdout.write(f"  game master: {GM[0]} / {GM[1]}   (also admin at /admin/)")
        for nation in campaign.nations.all():
            self.stdout.write(f"  {nation.name}: {nation.code.lower()} / {PLAYER_PASSWORD}")
