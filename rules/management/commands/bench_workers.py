"""Turns of many campaigns on two Celery workers against one: real workers, broker and database.

    DATABASE_URL=postgres://... REDIS_URL=redis://127.0.0.1:6379/0 DJANGO_DEBUG=true \
        python manage.py bench_workers --campaigns 20 --regions 2000 --nations 20

Creates --campaigns generated campaigns with the generated orders of a busy turn 1 (deleted afterwards),
then, --rounds times and interleaved, starts `celery worker` with 1 and with 2 worker processes on a queue
of its own, queues every campaign's turn 1 at once and waits for all of them; between runs each turn is
rolled back (rules.history.turn_rollback), so every run processes the same turns. It prints the seconds of
the best run of each, their ratio, and the CPU each turn took in PostgreSQL's backends and in the worker
processes (from /proc: both run on this machine; the workers keep their connections for the run, with
DB_CONN_MAX_AGE and CELERY_DB_REUSE_MAX, so that their backends can be read before they exit).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from campaign.generate import orders_generate, scenario_arguments_add, scenario_generate
from campaign.models import Campaign, Turn
from campaign.scenario import scenario_parse
from campaign.services import membership_set, scenario_import
from orders.services import orders_place
from rules.history import turn_rollback
from rules.tasks import process_turn

TICKS = os.sysconf("SC_CLK_TCK")


class Command(BaseCommand):
    help = "Time the turns of many campaigns on 2 Celery workers against 1 (real workers, Redis, PostgreSQL)."

    def add_arguments(self, parser):
        parser.add_argument("--campaigns", type=int, default=20)
        scenario_arguments_add(parser, nations=20, seed=None)
        parser.add_argument("--rounds", type=int, default=2, help="runs of each worker count; best of them")
        parser.add_argument("--timeout", type=int, default=900, help="seconds to wait for one run's turns")

    def handle(self, *args, campaigns, regions, nations, rounds, timeout, **options):
        if connection.vendor != "postgresql" or not getattr(settings, "REDIS_URL", None):
            raise CommandError("needs PostgreSQL and Redis on this machine: set DATABASE_URL and REDIS_URL")
        if process_turn.app.conf.task_always_eager:
            raise CommandError("tasks run in process here (task_always_eager): no worker to time")
        tag = f"bench-workers-{uuid.uuid4().hex[:6]}"
        started = time.perf_counter()
        gm, turns = self._setup(tag, campaigns, regions, nations)
        _vacuum()
        self.stdout.write(
            f"{campaigns} campaigns of {regions} regions, {nations} nations "
            f"(set up in {time.perf_counter() - started:.0f} s); queue {tag}"
        )
        runs: dict[int, list[tuple[float, float, float, int]]] = {1: [], 2: []}
        try:
            for number in range(1, rounds + 1):
                for workers in (1, 2):
                    run = self._run(tag, workers, turns, timeout)
                    runs[workers].append(run)
                    self.stdout.write(
                        f"  round {number}, {workers} worker{'s' if workers > 1 else ''}: {run[0]:6.2f} s; "
                        f"CPU per turn: PostgreSQL {run[1]:.3f} s, workers {run[2]:.3f} s; "
                        f"backends read: {run[3]}"
                    )
                    self._roll_back(gm, turns)
                    _vacuum()
        finally:
            # One campaign at a time: all of them at once name more rows in one statement than PostgreSQL
            # takes parameters (65,535) with server-side binding.
            for campaign in Campaign.objects.filter(slug__startswith=tag):
                campaign.delete()
            gm.delete()
        one, two = (min(runs[w]) for w in (1, 2))
        self.stdout.write(
            f"best of {rounds}: 1 worker {one[0]:.2f} s, 2 workers {two[0]:.2f} s: {one[0] / two[0]:.2f}× "
            f"as fast (goal 1.8×: {'MET' if one[0] / two[0] >= 1.8 else 'MISSED'}); "
            f"PostgreSQL CPU per turn {one[1]:.3f} s with 1, {two[1]:.3f} s with 2; "
            f"worker CPU per turn {one[2]:.3f} s, {two[2]:.3f} s"
        )

    def _setup(self, tag: str, campaigns: int, regions: int, nations: int):
        turns, password = [], uuid.uuid4().hex
        for seed in range(1, campaigns + 1):
            data = scenario_generate(regions=regions, nations=nations, seed=seed)
            with transaction.atomic():
                campaign = scenario_import(scenario=scenario_parse(data), slug=f"{tag}-{seed}")
                gm = membership_set(campaign=campaign, username=tag, password=password, nation=None).user
                turn = campaign.turns.get(number=1)
                orders_place(turn=turn, orders=orders_generate(scenario=data, seed=seed))
            turns.append(turn.pk)
        return gm, turns

    def _run(self, tag: str, workers: int, turns: list[int], timeout: int) -> tuple[float, float, float, int]:
        """One run: (seconds for every turn, PostgreSQL CPU per turn, worker CPU per turn, the backends read:
        their CPU is counted in clock ticks, so a tiny turn may take none that shows)."""
        name = f"{tag}-{workers}@localhost"
        env = {
            **os.environ,
            # This command's database, whatever its URL said (under pytest: the test database).
            "DATABASE_URL": urlunsplit(
                urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{connection.settings_dict['NAME']}")
            ),
            "CELERY_QUEUE": tag,  # what the turns queue (the results mail) stays on this queue too
            # One backend per worker process for the whole run, read before it exits (config.settings).
            "DB_CONN_MAX_AGE": "3600",
            "CELERY_DB_REUSE_MAX": "1000",
        }
        command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=prefork"]
        command += [f"--concurrency={workers}", "-Q", tag, "-n", name, "--without-gossip", "--without-mingle"]
        command += ["--loglevel=WARNING"]
        log = Path(f"/tmp/{tag}-{workers}.log")
        with log.open("w") as out:
            worker = subprocess.Popen(command, cwd=settings.BASE_DIR, env=env, stdout=out, stderr=out)
        try:
            deadline = time.monotonic() + 60
            while not process_turn.app.control.ping(destination=[name], timeout=0.5):
                if worker.poll() is not None or time.monotonic() > deadline:
                    raise CommandError(f"the worker did not start: {log.read_text()[-2000:]}")
            # The backends of this database but this command's: the workers' (they may connect at start).
            before = {pid: _cpu(pid) for pid in _backends()}
            children = _children(worker.pid)
            cpu_before = sum(_cpu(pid) for pid in children)
            begun = time.perf_counter()
            results = [process_turn.apply_async(args=[pk], queue=tag) for pk in turns]
            for result in results:
                result.get(timeout=timeout)
            seconds = time.perf_counter() - begun
            done = Turn.objects.filter(pk__in=turns, status=Turn.Status.RESOLVED).count()
            if done != len(turns):
                raise CommandError(f"{len(turns) - done} of the turns did not resolve; see {log}")
            backends = _backends()
            postgres = sum(_cpu(pid) - before.get(pid, 0.0) for pid in backends)
            python = sum(_cpu(pid) for pid in _children(worker.pid)) - cpu_before
        finally:
            worker.terminate()
            worker.wait(timeout=60)
        return seconds, postgres / len(turns), python / len(turns), len(backends)

    def _roll_back(self, gm, turns: list[int]) -> None:
        for pk in turns:
            turn_rollback(turn_id=pk, by=gm, force=True, reason="bench_workers")


# What a turn and its roll back rewrite. The runs follow one another within seconds, faster than autovacuum
# comes round: without a VACUUM between them each run would read the dead rows of the runs before it
# (a turn's load scans the stacks), and the later runs, the two workers', would pay for the earlier ones.
TURN_TABLES = (
    "campaign_stack",
    "campaign_region",
    "campaign_nation",
    "campaign_turn",
    "rules_report",
    "rules_reportnation",
    "rules_turnsnapshot",
)


def _vacuum() -> None:
    """VACUUM ANALYZE the tables the turns write, as autovacuum would between turns of a real server."""
    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM ANALYZE {', '.join(TURN_TABLES)}")


def _backends() -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return [pid for (pid,) in cursor.fetchall()]


def _children(pid: int) -> list[int]:
    """The worker's pool processes (its children)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
            except (OSError, IndexError):
                continue
    return found


def _cpu(pid: int) -> float:
    """Seconds of CPU (user and system) the process has used; 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS
