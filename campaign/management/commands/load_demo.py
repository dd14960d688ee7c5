from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaign.models import Campaign
from campaign.scenario import scenario_read
from campaign.services import membership_set, scenario_import

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
DEMO_FILE = SCENARIOS / "demo.yaml"
DEMO_SLUG = "demo"
# The dice-pool battle system's demo (SODANKAYNTI.md), with the same GM.
DEMOS = ((DEMO_FILE, DEMO_SLUG), (SCENARIOS / "sodankaynti.yaml", "sampo"))
# Demo accounts only: printed on the console by `make run`, never used outside a local demo.
GM = ("gm", "ironfist-gm")
PLAYER_PASSWORD = "ironfist-player"


class Command(BaseCommand):
    help = "Load the demo campaign and its demo accounts (once; later runs only print the logins)."

    @transaction.atomic
    def handle(self, *args, **options):
        for path, slug in DEMOS:
            self.demo_load(path, slug)

    def demo_load(self, path: Path, slug: str) -> None:
        campaign = Campaign.objects.filter(slug=slug).first()
        if campaign is None:
            campaign = scenario_import(scenario=scenario_read(path), slug=slug)
            membership_set(campaign=campaign, username=GM[0], password=GM[1], nation=None)
            get_user_model().objects.filter(username=GM[0]).update(is_staff=True, is_superuser=True)
            for nation in campaign.nations.all():
                membership_set(
                    campaign=campaign, username=nation.code.lower(), password=PLAYER_PASSWORD, nation=nation
                )
        self.stdout.write(f"Demo campaign {campaign.name!r} (slug {campaign.slug}). Logins:")
        self.stdout.write(f"  game master: {GM[0]} / {GM[1]}   (also admin at /admin/)")
        for nation in campaign.nations.all():
            self.stdout.write(f"  {nation.name}: {nation.code.lower()} / {PLAYER_PASSWORD}")
