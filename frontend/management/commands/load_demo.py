from dataclasses import replace
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand
from django.db import transaction
from django.db.models import Prefetch

from campaign.models import Campaign, Nation
from campaign.scenario import scenario_read
from campaign.services import membership_set, scenario_import
from rules.company.demo import SLUG as COMPANY_SLUG
from rules.company.demo import company_demo_create

DEMO_FILE = Path(__file__).resolve().parents[3] / "campaign" / "scenarios" / "demo.yaml"
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
# The same map fought at the table (TABLETOP.md): turn 1's orders are in and processed, so its battles wait
# for results: a meeting engagement, two region battles, and an unopposed occupation settled peacefully.
# The Sodankäynti demo (SODANKAYNTI.md), its own map and players poh and kal, the same GM: Kalevala lies in
# ambush in V2 for an attack from P2, so that Pohjola's obvious first attack meets it (+3 tactics dice).
SAMPO_FILE = DEMO_FILE.parent / "sodankaynti.yaml"
SAMPO_SLUG = "sampo"
SAMPO_ORDERS = (("KAL", "ambush", "V2", "P2", {}),)
TABLETOP_SLUG = "tabletop"
TABLETOP_NAME = "The Grenzwald Crisis at the table"
# The demo campaigns, in the order the login page lists them.
DEMO_SLUGS = (DEMO_SLUG, TABLETOP_SLUG, SAMPO_SLUG, COMPANY_SLUG)
TABLETOP_ORDERS = [
    ("KAR", "attack", "K4", "E2", {"JV": 4, "PA": 2}),
    ("EST", "attack", "E2", "K4", {"JV": 3, "PA": 3}),
    ("SUD", "attack", "S1", "E4", {"JV": 3, "PA": 2}),
    ("NOR", "attack", "N3", "K1", {"JV": 2}),
    ("WES", "attack", "W4", "M4", {"JV": 3, "PA": 1}),
    ("SUD", "attack", "S2", "M4", {"JV": 2, "PA": 1}),
]


def demo_logins() -> list[dict[str, Any]]:
    """Each demo campaign loaded, in DEMO_SLUGS' order: {"campaign", "logins"}, the logins as
    (who, user name, password), who being None for the game master; empty when no demo is loaded."""
    order = {slug: place for place, slug in enumerate(DEMO_SLUGS)}
    nations = Prefetch("nations", queryset=Nation.objects.order_by("position"))
    campaigns = sorted(
        Campaign.objects.filter(slug__in=DEMO_SLUGS).prefetch_related(nations), key=lambda c: order[c.slug]
    )
    return [
        {
            "campaign": campaign,
            "logins": [(None, *GM)]
            + [(n.name, n.code.lower(), PLAYER_PASSWORD) for n in campaign.nations.all()],
        }
        for campaign in campaigns
    ]


class Command(BaseCommand):
    help = "Load the demo campaign and its demo accounts (once; later runs only print the logins)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--reset", action="store_true", help="delete the demo campaign and its accounts, and load it anew"
        )

    @transaction.atomic
    def handle(self, *args, **options):
        if options["reset"]:
            self._delete()
        loaded = []  # the campaigns loaded now, whose accounts get the demo's passwords
        campaign = Campaign.objects.filter(slug=DEMO_SLUG).first()
        if campaign is None:
            campaign = self._load()
            loaded.append(campaign)
        company = Campaign.objects.filter(slug=COMPANY_SLUG).first()
        if company is None:
            company = self._company_load()
            loaded.append(company)
        self.stdout.write(f"Demo company campaign {company.name!r} (slug {company.slug}), same logins.")
        if not Campaign.objects.filter(slug=TABLETOP_SLUG).exists():
            loaded.append(_tabletop_load())
        sampo = Campaign.objects.filter(slug=SAMPO_SLUG).first()
        if sampo is None:
            sampo = _sampo_load()
            loaded.append(sampo)
        _passwords_set(loaded)
        self.stdout.write(f"Demo campaign {campaign.name!r} (slug {campaign.slug}). Logins:")
        self.stdout.write(f"  game master: {GM[0]} / {GM[1]}   (also admin at /admin/)")
        for nation in campaign.nations.all():
            self.stdout.write(f"  {nation.name}: {nation.code.lower()} / {PLAYER_PASSWORD}")
        self.stdout.write(f"Tabletop campaign {TABLETOP_NAME!r} (slug {TABLETOP_SLUG}): the same logins.")
        self.stdout.write(f"Sodankäynti campaign {sampo.name!r} (slug {sampo.slug}), the same game master:")
        for nation in sampo.nations.all():
            self.stdout.write(f"  {nation.name}: {nation.code.lower()} / {PLAYER_PASSWORD}")

    def _company_load(self) -> Campaign:
        """The company campaign (COMPANY.md) on the same map, played by the same accounts."""
        company = company_demo_create(scenario=scenario_read(DEMO_FILE))
        membership_set(campaign=company, username=GM[0], password=None, nation=None)
        for nation in company.nations.all():
            membership_set(campaign=company, username=nation.code.lower(), password=None, nation=nation)
        return company

    def _delete(self) -> None:
        Campaign.objects.filter(slug=COMPANY_SLUG).delete()
        Campaign.objects.filter(slug=TABLETOP_SLUG).delete()
        sampo = Campaign.objects.filter(slug=SAMPO_SLUG).first()
        if sampo is not None:
            players = [n.code.lower() for n in sampo.nations.all()]
            sampo.delete()
            get_user_model().objects.filter(username__in=players, memberships__isnull=True).delete()
        campaign = Campaign.objects.filter(slug=DEMO_SLUG).first()
        if campaign is None:
            return
        names = [GM[0], *(n.code.lower() for n in campaign.nations.all())]
        campaign.delete()
        get_user_model().objects.filter(username__in=names, memberships__isnull=True).delete()
        self.stdout.write("The demo campaign was deleted.")

    def _load(self) -> Campaign:
        from orders.services import OrderDraft, order_submit

        campaign = scenario_import(scenario=scenario_read(DEMO_FILE), slug=DEMO_SLUG)
        membership_set(campaign=campaign, username=GM[0], password=None, nation=None)
        get_user_model().objects.filter(username=GM[0]).update(is_staff=True, is_superuser=True)
        users = {}
        for nation in campaign.nations.all():
            users[nation.code] = membership_set(
                campaign=campaign, username=nation.code.lower(), password=None, nation=nation
            ).user
        turn = campaign.turns.get(number=1)
        for nation, kind, origin, target, units in FIRST_ORDERS:
            draft = OrderDraft(kind=kind, origin=origin, target=target, units=units)
            order_submit(user=users[nation], turn=turn, draft=draft)
        return campaign


def _passwords_set(campaigns: list[Campaign]) -> None:
    """The demo's passwords on the accounts of the campaigns just loaded (their memberships were made with
    None: the user's password as it was), each password hashed once. PBKDF2 is slow on purpose, and
    hashing per account and campaign (21 times) was most of the demo's load under `make run`; the accounts
    share one salt, harmless for passwords printed on the console."""
    if not campaigns:
        return
    users = get_user_model().objects
    users.filter(username=GM[0]).update(password=make_password(GM[1]))
    players = {nation.code.lower() for campaign in campaigns for nation in campaign.nations.all()}
    users.filter(username__in=players).update(password=make_password(PLAYER_PASSWORD))


def _tabletop_load() -> Campaign:
    """The demo map as a tabletop campaign with the same accounts, turn 1 processed: its battles are open."""
    from orders.services import orders_place
    from rules.services import turn_process

    scenario = scenario_read(DEMO_FILE)
    scenario = replace(
        scenario, ruleset_overrides={**scenario.ruleset_overrides, "battle_system": "tabletop"}
    )
    campaign = scenario_import(scenario=scenario, slug=TABLETOP_SLUG, name=TABLETOP_NAME)
    membership_set(campaign=campaign, username=GM[0], password=None, nation=None)
    for nation in campaign.nations.all():
        membership_set(campaign=campaign, username=nation.code.lower(), password=None, nation=nation)
    turn = campaign.turns.get(number=1)
    orders = [
        {"nation": nation, "kind": kind, "origin": origin, "target": target, "units": units}
        for nation, kind, origin, target, units in TABLETOP_ORDERS
    ]
    orders_place(turn=turn, orders=orders)
    turn_process(turn_id=turn.pk)
    return campaign


def _sampo_load() -> Campaign:
    """The Sodankäynti demo with its players and the demo's GM, Kalevala's ambush already given."""
    from orders.services import OrderDraft, order_submit

    campaign = scenario_import(scenario=scenario_read(SAMPO_FILE), slug=SAMPO_SLUG)
    membership_set(campaign=campaign, username=GM[0], password=None, nation=None)
    users = {
        n.code: membership_set(campaign=campaign, username=n.code.lower(), password=None, nation=n).user
        for n in campaign.nations.all()
    }
    turn = campaign.turns.get(number=1)
    for nation, kind, origin, target, units in SAMPO_ORDERS:
        order_submit(user=users[nation], turn=turn, draft=OrderDraft(kind, origin, target, units))
    return campaign
