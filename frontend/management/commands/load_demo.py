from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaign.models import Campaign
from campaign.scenario import scenario_read
from campaign.services import membership_set, scenario_import

SCENARIOS = Path(__file__).resolve().parents[3] / "campaign" / "scenarios"
DEMO_FILE = SCENARIOS / "demo.yaml"
DEMO_SLUG = "demo"
# Demo accounts only: printed on the console by `make run`, never used outside a local demo.
GM = ("gm", "ironfist-gm")
PLAYER_PASSWORD = "ironfist-player"
# Orders already given in the demo's first turn, so that a newcomer playing Nordmark meets a battle at once:
# Westmark, Nordmark's ally, goes for the empty M2 (as many ground units as Nordmark has next to it: a
# joint attack whose holder §7.2 draws by lot), and Ostland attacks Karelia's K4.
FIRST_ORDERS = (
    ("WES", "attack", "W2", "M2", {"JV": 5, "PA": 2}),
    ("EST", "attack", "E2", "K4", {"JV": 4, "PA": 3}),
)
# The Sodankäynti demo (SODANKAYNTI.md), with the same GM: Kalevala lies in ambush in V2 for an attack
# from P2, so that Pohjola's obvious first attack meets the ambush and its report shows the +3 dice.
SAMPO = (SCENARIOS / "sodankaynti.yaml", "sampo", (("KAL", "ambush", "V2", "P2", {}),))
DEMOS = ((DEMO_FILE, DEMO_SLUG, FIRST_ORDERS), SAMPO)


def demo_logins() -> list[tuple[str, str, str]]:
    """(who, user name, password) of the demo accounts; empty when the demo is not loaded."""
    campaign = Campaign.objects.filter(slug=DEMO_SLUG).first()
    if campaign is None:
        return []
    logins = [("game master", *GM)]
    logins += [(n.name, n.code.lower(), PLAYER_PASSWORD) for n in campaign.nations.order_by("position")]
    return logins


class Command(BaseCommand):
    help = "Load the demo campaign and its demo accounts (once; later runs only print the logins)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--reset", action="store_true", help="delete the demo campaign and its accounts, and load it anew"
        )

    @transaction.atomic
    def handle(self, *args, **options):
        for path, slug, first in DEMOS:
            if options["reset"]:
                self._delete(slug)
            campaign = Campaign.objects.filter(slug=slug).first()
            if campaign is None:
                campaign = self._load(path, slug, first)
            self._logins(campaign)

    def _logins(self, campaign: Campaign) -> None:
        self.stdout.write(f"Demo campaign {campaign.name!r} (slug {campaign.slug}). Logins:")
        self.stdout.write(f"  game master: {GM[0]} / {GM[1]}   (also admin at /admin/)")
        for nation in campaign.nations.all():
            self.stdout.write(f"  {nation.name}: {nation.code.lower()} / {PLAYER_PASSWORD}")

    def _delete(self, slug: str) -> None:
        campaign = Campaign.objects.filter(slug=slug).first()
        if campaign is None:
            return
        names = [GM[0], *(n.code.lower() for n in campaign.nations.all())]
        campaign.delete()
        get_user_model().objects.filter(username__in=names, memberships__isnull=True).delete()
        self.stdout.write("The demo campaign was deleted.")

    def _load(self, path: Path, slug: str, first: tuple) -> Campaign:
        from orders.services import OrderDraft, order_submit

        campaign = scenario_import(scenario=scenario_read(path), slug=slug)
        membership_set(campaign=campaign, username=GM[0], password=GM[1], nation=None)
        get_user_model().objects.filter(username=GM[0]).update(is_staff=True, is_superuser=True)
        users = {}
        for nation in campaign.nations.all():
            users[nation.code] = membership_set(
                campaign=campaign, username=nation.code.lower(), password=PLAYER_PASSWORD, nation=nation
            ).user
        turn = campaign.turns.get(number=1)
        for nation, kind, origin, target, units in first:
            draft = OrderDraft(kind=kind, origin=origin, target=target, units=units)
            order_submit(user=users[nation], turn=turn, draft=draft)
        return campaign
