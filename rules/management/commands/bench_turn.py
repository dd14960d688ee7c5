import time
from contextlib import contextmanager

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from campaign.generate import orders_generate, scenario_generate
from campaign.models import Campaign, Turn
from campaign.scenario import scenario_parse
from campaign.services import scenario_import
from orders.services import orders_place
from rules.services import turn_process


class Command(BaseCommand):
    help = (
        "Time one busy turn on a generated map: seconds and queries for load, resolve and write. "
        "Creates a throwaway campaign and deletes it afterwards. Run it on PostgreSQL (DATABASE_URL)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--regions", type=int, default=2000)
        parser.add_argument("--nations", type=int, default=50)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--keep", action="store_true", help="keep the campaign instead of deleting it")

    def handle(self, *args, regions, nations, seed, keep, **options):
        slug = f"bench-{regions}-{nations}-{seed}"
        if Campaign.objects.filter(slug=slug).exists():
            raise CommandError(f"campaign {slug!r} exists already; delete it or pass another --seed")
        started = time.perf_counter()
        data = scenario_generate(regions=regions, nations=nations, seed=seed)
        with transaction.atomic():
            campaign = scenario_import(scenario=scenario_parse(data), slug=slug)
            turn = campaign.turns.get(number=1)
            orders = len(orders_place(turn=turn, orders=orders_generate(scenario=data, seed=seed)))
        self.stdout.write(
            f"{connection.vendor}: {regions} regions, {nations} nations, {orders} orders "
            f"(set up in {time.perf_counter() - started:.1f} s)"
        )

        stages = {}

        @contextmanager
        def stage(name):
            with CaptureQueriesContext(connection) as queries:
                begun = time.perf_counter()
                yield
                stages[name] = (time.perf_counter() - begun, len(queries))

        try:
            with CaptureQueriesContext(connection) as everything:
                begun = time.perf_counter()
                processed = turn_process(turn_id=turn.pk, stage=stage)
                total = time.perf_counter() - begun
            if processed is None or processed.status != Turn.Status.RESOLVED:
                raise CommandError(f"the turn did not resolve: {processed and processed.error}")
            for name in ("load", "resolve", "write"):
                seconds, queries = stages[name]
                self.stdout.write(f"  {name:<8} {seconds:7.3f} s  {queries:3d} queries")
            self.stdout.write(
                f"  {'total':<8} {total:7.3f} s  {len(everything):3d} queries "
                f"(with claim and commit); {processed.reports.count()} battles"
            )
        finally:
            if not keep:
                campaign.delete()
