"""One tick of what Celery beat does every minute, for a machine without beat (`make run`, cron).

Safe beside a running beat: every step claims its turn first, so a turn is queued or reminded once.
`--every SECONDS` ticks until stopped, as beat does: `make run` runs it beside the server, so that a
deadline processes its turn by itself with nothing else to start (tests/lifecycle/test_make_run_ticks.py).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime

from django.core.management.base import BaseCommand
from django.db import close_old_connections
from django.utils import timezone

from campaign.queue import tick_record, turns_due_queue, turns_early_queue, turns_remind, turns_stale_requeue
from rules.system_shells import systems_tick

logger = logging.getLogger(__name__)


def tick(*, now: Callable[[], datetime] = timezone.now) -> tuple[str, bool]:
    """One tick, each step at `now`: what it did, in a line, and whether it did anything."""
    tick_record(now=now)
    due = turns_due_queue(now=now)
    early = turns_early_queue(now=now)
    reminded = turns_remind(now=now)
    requeued = turns_stale_requeue(now=now)
    steps = systems_tick()
    systems = "".join(f", {count} {what}" for what, count in steps)
    said = (
        f"{due} turn(s) due, {early} ready early, {reminded} reminder(s) queued, "
        f"{requeued} stale turn(s) queued again{systems}"
    )
    return said, any((due, early, reminded, requeued, *(count for _, count in steps)))


class Command(BaseCommand):
    help = (
        "Queue the turns past their deadline, ready early or stale, the reminders due, and each battle "
        "system's own steps (a table battle's reminders and deadline): what beat does."
    )
    # What the loop waits with and reads the time from; a test injects its own.
    sleep: Callable[[float], None] = staticmethod(time.sleep)
    clock: Callable[[], datetime] = staticmethod(timezone.now)

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--every",
            type=float,
            default=0,
            metavar="SECONDS",
            help="tick again every SECONDS until stopped, as beat does (make run: 60); 0, once",
        )
        parser.add_argument("--ticks", type=int, default=0, help="with --every: stop after this many")

    def handle(self, *args, every: float = 0, ticks: int = 0, **options) -> None:
        if every <= 0:
            self.stdout.write(tick(now=self.clock)[0])
            return
        done = 0
        while not ticks or done < ticks:
            close_old_connections()  # a connection the database dropped since the last tick is not reused
            done += 1
            try:
                said, busy = tick(now=self.clock)
            except Exception:  # as beat goes on after a task's error: the next tick tries again
                logger.exception("the tick failed; the next one tries again")
                busy = False
            if busy:  # the console of `make run` hears of a tick only when it did something
                self.stdout.write(f"{self.clock():%Y-%m-%d %H:%M:%S} UTC tick: {said}")
            if not ticks or done < ticks:
                self.sleep(every)
