"""Time the pages of a generated campaign over one HTTP connection, as a browser would fetch them.

    DJANGO_DEBUG=true python manage.py bench_pages --regions 2000 --nations 50

Creates a throwaway campaign (deleted afterwards unless --keep), with the generated orders of one busy
turn, a player of the nation with the most orders and a GM; serves the project's WSGI application from a
thread on 127.0.0.1 and fetches each page --repeat times over one keep-alive connection.
"""

from __future__ import annotations

import http.client
import statistics
import threading
import time
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.core.servers.basehttp import WSGIRequestHandler, WSGIServer, get_internal_wsgi_application
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.test import Client, override_settings

from campaign.generate import orders_generate, scenario_arguments_add, scenario_generate
from campaign.models import Campaign
from campaign.scenario import scenario_parse
from campaign.services import membership_set, scenario_import
from orders.services import orders_place
from rules.services import turn_process


@dataclass(frozen=True)
class Goal:
    """What a page must take at most: its median time in this process, and its size."""

    ms: float
    kb: float | None = None

    def verdict(self, median_ms: float, size_kb: float) -> str:
        said = f"goal {self.ms:g} ms" + (f" / {self.kb:g} KB" if self.kb is not None else "")
        missed = [f"{median_ms:.1f} ms"] if median_ms >= self.ms else []
        if self.kb is not None and size_kb >= self.kb:
            missed.append(f"{size_kb:.0f} KB")
        return f"{said}: MISSED ({', '.join(missed)})" if missed else f"{said}: MET"


# Every page in under 300 ms; the player's campaign page of a big map (the page a player opens most, the
# table view on demand) in under 50 ms and 300 KB (issue 15).
PAGE = Goal(300)
KEPT_SECONDS = 600
CAMPAIGN_PAGE = Goal(50, 300)


# What the pages read. A server's tables have their statistics (autovacuum analyzes them between turns); a
# campaign made a moment ago has none, and PostgreSQL's planner then guessed some 80 regions in a campaign of
# 2,000 and walked the stacks and borders of every campaign.
PAGE_TABLES = (
    "campaign_region",
    "campaign_border",
    "campaign_stack",
    "campaign_nation",
    "campaign_relation",
    "campaign_turn",
    "orders_order",
    "rules_report",
    "rules_reportnation",
)


def _analyze() -> None:
    """VACUUM ANALYZE what the pages read, on PostgreSQL, as autovacuum would on a real server."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"VACUUM ANALYZE {', '.join(PAGE_TABLES)}")


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


class Command(BaseCommand):
    help = "Time the campaign, turn and GM pages of a generated campaign over one HTTP connection."

    def add_arguments(self, parser):
        scenario_arguments_add(parser, nations=50, seed=1)
        parser.add_argument("--repeat", type=int, default=10)
        parser.add_argument("--keep", action="store_true", help="keep the campaign instead of deleting it")

    def handle(self, *args, regions, nations, seed, repeat, keep, **options):
        slug = f"bench-pages-{regions}-{nations}-{seed}"
        if Campaign.objects.filter(slug=slug).exists():
            raise CommandError(f"campaign {slug!r} exists already; delete it or pass another --seed")
        data = scenario_generate(regions=regions, nations=nations, seed=seed)
        campaign = scenario_import(scenario=scenario_parse(data), slug=slug)
        try:
            self._run(campaign, data, seed, repeat)
        finally:
            if not keep:
                # Its two users too: they were made for this run and belong to nothing else.
                users = get_user_model().objects.filter(memberships__campaign=campaign)
                users = list(users.values_list("pk", flat=True))
                campaign.delete()
                get_user_model().objects.filter(pk__in=users).delete()

    def _run(self, campaign: Campaign, data: dict, seed: int, repeat: int) -> None:
        turn = campaign.turns.get(number=1)
        orders = orders_generate(scenario=data, seed=seed)
        orders_place(turn=turn, orders=orders)
        nation_ids = dict(campaign.nations.values_list("code", "id"))
        busiest = max(nation_ids, key=lambda code: sum(o["nation"] == code for o in orders))
        nation = campaign.nations.get(code=busiest)
        player = membership_set(
            campaign=campaign, username=f"{campaign.slug}-p", password="x" * 12, nation=nation
        )
        gm = membership_set(campaign=campaign, username=f"{campaign.slug}-gm", password="x" * 12, nation=None)
        _analyze()
        own = sum(o["nation"] == busiest for o in orders)
        self.stdout.write(
            f"{campaign.regions.count()} regions, {len(nation_ids)} nations, {len(orders)} orders "
            f"({own} of {busiest}, the player's)"
        )
        # Served as under gunicorn in production (README: DB_CONN_MAX_AGE 600; bench_api serves so too): the
        # server keeps its database connection between requests. With Django's default of 0 each page opened
        # a connection of its own, a new PostgreSQL backend, some 15 ms that a production page does not pay.
        connections.settings[DEFAULT_DB_ALIAS]["CONN_MAX_AGE"] = KEPT_SECONDS
        self.stdout.write(
            f"(the server keeps its database connection between requests: CONN_MAX_AGE {KEPT_SECONDS})"
        )
        with override_settings(ALLOWED_HOSTS=["127.0.0.1"], SECURE_SSL_REDIRECT=False):
            server = WSGIServer(("127.0.0.1", 0), _QuietHandler)
            server.set_app(get_internal_wsgi_application())
            thread = threading.Thread(target=server.serve_forever, daemon=True)
            thread.start()
            try:
                port = server.server_address[1]
                slug = campaign.slug
                before = [
                    (player.user, f"/c/{slug}/", "campaign page, player, turn 1 with orders", CAMPAIGN_PAGE),
                    (gm.user, f"/c/{slug}/", "campaign page, GM (every stack)", PAGE),
                    (gm.user, f"/c/{slug}/gm/", "GM dashboard", PAGE),
                ]
                results = self._fetch_all(port, before, repeat)
                processed = turn_process(turn_id=turn.pk)
                _analyze()
                self.stdout.write(
                    f"(turn 1 processed: {processed.status}, {processed.reports.count()} battles)"
                )
                after = [
                    (player.user, f"/c/{slug}/", "campaign page, player, after the turn", CAMPAIGN_PAGE),
                    (player.user, f"/c/{slug}/turns/1/", "turn 1 report page, player", PAGE),
                    (gm.user, f"/c/{slug}/turns/1/", "turn 1 report page, GM (every battle)", PAGE),
                ]
                results += self._fetch_all(port, after, repeat)
            finally:
                server.shutdown()
                server.server_close()
        for label, goal, size, times, cpu in results:
            median, kb = statistics.median(times), size / 1000
            # The CPU this process spent (the server's thread, mostly): what a busy machine does not inflate.
            self.stdout.write(
                f"  {label:<45} median {median:6.1f} ms  max {max(times):6.1f} ms  "
                f"CPU {statistics.median(cpu):6.1f} ms  {kb:5.0f} KB  {goal.verdict(median, kb)}"
            )

    def _fetch_all(self, port: int, pages, repeat: int):
        results = []
        for user, url, label, goal in pages:
            client = Client()
            client.force_login(user)
            cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            times, cpu, size = [], [], 0
            for i in range(repeat + 1):
                begun, begun_cpu = time.perf_counter(), time.process_time()
                connection.request("GET", url, headers={"Cookie": cookie, "Connection": "keep-alive"})
                response = connection.getresponse()
                body = response.read()
                elapsed = (time.perf_counter() - begun) * 1000
                if response.status != 200:
                    raise CommandError(f"{url}: HTTP {response.status}")
                if i:  # the first request warms the caches (ruleset, templates)
                    times.append(elapsed)
                    cpu.append((time.process_time() - begun_cpu) * 1000)
                size = len(body)
            connection.close()
            results.append((label, goal, size, times, cpu))
        return results
