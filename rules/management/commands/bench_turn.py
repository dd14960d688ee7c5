import json
import time
from contextlib import contextmanager, nullcontext

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from campaign.generate import orders_generate, scenario_generate
from campaign.models import Campaign, Stack, Turn
from campaign.scenario import scenario_parse
from campaign.services import scenario_import
from orders.services import orders_place
from rules.services import turn_process

# Issue 15's goals, set for 10,000 regions and 100 nations: the whole turn as committed (the rounds before
# the last are rolled back, so only the last one pays for the commit), and its write stage against a COPY of
# the rows it writes, measured in the same run (best of the rounds: the stage ends before the commit).
TOTAL_GOAL = 0.8
WRITE_GOAL = 2.0


class Command(BaseCommand):
    help = (
        "Time one busy turn on a generated map: seconds and queries for load, resolve and write; on "
        "PostgreSQL, the write stage against a COPY of the rows it wrote into the same tables. "
        "Creates a throwaway campaign and deletes it afterwards. Run it on PostgreSQL (DATABASE_URL)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--regions", type=int, default=2000)
        parser.add_argument("--nations", type=int, default=50)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--keep", action="store_true", help="keep the campaign instead of deleting it")
        parser.add_argument("--repeat", type=int, default=3, help="rounds of the same turn; best of them")

    def handle(self, *args, regions, nations, seed, keep, repeat, **options):
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

        stacks_before = set(
            Stack.objects.filter(region__campaign=campaign).values_list(
                "nation", "region", "unit_type", "count"
            )
        )
        rounds = []  # (write, copy) of each round
        try:
            # The same turn processed `repeat` times: the first ones rolled back, the last one committed
            # (its figures are printed in full); best of all, since other work on the machine only slows.
            for number in range(1, repeat + 1):
                last = number == repeat
                with nullcontext() if last else transaction.atomic():
                    processed, total, everything = self._process(turn, stage)
                    copy = (
                        _copy_seconds(processed, stacks_before) if connection.vendor == "postgresql" else None
                    )
                    if not last:
                        transaction.set_rollback(True)
                rounds.append((stages["write"][0], copy))
                if not last:
                    self.stdout.write(
                        f"  round {number}: "
                        + ", ".join(
                            f"{name} {stages[name][0]:.3f} s" for name in ("load", "resolve", "write")
                        )
                        + f", total {total:.3f} s"
                        + (f"; COPY {copy:.3f} s" if copy else "")
                    )
            for name in ("load", "resolve", "write"):
                seconds, queries = stages[name]
                self.stdout.write(f"  {name:<8} {seconds:7.3f} s  {queries:3d} queries")
            self.stdout.write(
                f"  {'total':<8} {total:7.3f} s  {everything:3d} queries "
                f"(with claim and commit); {processed.reports.count()} battles; "
                f"goal < {TOTAL_GOAL} s: {_verdict(total < TOTAL_GOAL)}"
            )
            if copy is not None:
                self.stdout.write(
                    f"  {'COPY':<8} {copy:7.3f} s  of the same rows into the same tables: "
                    f"the write stage takes {stages['write'][0] / copy:.1f}×"
                )
            if repeat > 1:
                best_write = min(r[0] for r in rounds)
                line = f"  best of {repeat}: write {best_write:.3f} s"
                if copy is not None:
                    best_copy = min(r[1] for r in rounds)
                    ratio = best_write / best_copy
                    line += (
                        f", COPY {best_copy:.3f} s: the write stage takes {ratio:.1f}× "
                        f"(goal ≤ {WRITE_GOAL:.0f}×: {_verdict(ratio <= WRITE_GOAL)})"
                    )
                self.stdout.write(line)
        finally:
            if not keep:
                campaign.delete()

    def _process(self, turn: Turn, stage) -> tuple[Turn, float, int]:
        """Process the turn: the turn, the seconds it took and its queries, claim and commit included."""
        with CaptureQueriesContext(connection) as everything:
            begun = time.perf_counter()
            processed = turn_process(turn_id=turn.pk, stage=stage)
            total = time.perf_counter() - begun
        if processed is None or processed.status != Turn.Status.RESOLVED:
            raise CommandError(f"the turn did not resolve: {processed and processed.error}")
        return processed, total, len(everything)


def _verdict(met: bool) -> str:
    return "MET" if met else "MISSED"


def _copy_seconds(turn: Turn, stacks_before: set[tuple[int, int, str, int]]) -> float:
    """Seconds to COPY the rows the write stage wrote, into the same tables: the floor for that stage.

    The rows are the turn's snapshot, its reports and their readers, the stacks it changed or added, the
    turn itself with its result and the next turn (as new rows). The owners' update has no COPY form and
    is left out. Everything happens in a transaction that is rolled back."""
    next_turn = Turn.objects.get(campaign_id=turn.campaign_id, number=turn.number + 1)
    changed = [
        pk
        for pk, *stack in Stack.objects.filter(region__campaign_id=turn.campaign_id).values_list(
            "id", "nation", "region", "unit_type", "count"
        )
        if tuple(stack) not in stacks_before
    ]
    tables = [
        ("rules_turnsnapshot", "turn_id = %s", [turn.pk]),
        ("rules_reportnation", "report_id IN (SELECT id FROM rules_report WHERE turn_id = %s)", [turn.pk]),
        ("rules_report", "turn_id = %s", [turn.pk]),
        ("campaign_stack", "id = ANY(%s)", [changed]),
        ("campaign_turn", "id IN (%s, %s)", [turn.pk, next_turn.pk]),
    ]
    with transaction.atomic(), connection.cursor() as cursor:
        rows = {}
        for table, where, params in tables:
            cursor.execute(f"SELECT * FROM {table} WHERE {where}", params)
            columns = [c.name for c in cursor.description]
            rows[table] = (columns, [[_text(v) for v in row] for row in cursor.fetchall()])
        # Out of the way first (their unique keys), children before parents; the turns are copied as
        # new rows, numbered after every real one.
        for table, where, params in tables[:-1]:
            cursor.execute(f"DELETE FROM {table} WHERE {where}", params)
        columns, turns = rows["campaign_turn"]
        rows["campaign_turn"] = (columns, [_renumbered(columns, row) for row in turns])
        begun = time.perf_counter()
        for table in (
            "rules_turnsnapshot",
            "rules_report",
            "rules_reportnation",
            "campaign_stack",
            "campaign_turn",
        ):
            columns, values = rows[table]
            if table == "campaign_turn":
                columns, values = columns[1:], [row[1:] for row in values]  # new ids
            with cursor.cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                for row in values:
                    copy.write_row(row)
        seconds = time.perf_counter() - begun
        transaction.set_rollback(True)
    return seconds


def _text(value: object) -> object:
    # jsonb comes back parsed: COPY takes it as the JSON text.
    return json.dumps(value) if isinstance(value, (dict, list)) else value


def _renumbered(columns: list[str], row: list[object]) -> list[object]:
    row = list(row)
    row[columns.index("number")] = int(row[columns.index("number")]) + 1_000_000
    row[columns.index("status")] = Turn.Status.RESOLVED
    return row
