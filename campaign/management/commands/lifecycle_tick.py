"""One tick of what Celery beat does every minute, for a machine without beat (`make run`, cron).

Safe beside a running beat: every step claims its turn first, so a turn is queued or reminded once.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from campaign.queue import tick_record, turns_due_queue, turns_early_queue, turns_remind, turns_stale_requeue
from rules.system_shells import systems_tick


class Command(BaseCommand):
    help = (
        "Queue the turns past their deadline, ready early or stale, the reminders due, and each battle "
        "system's own steps (a table battle's reminders and deadline): what beat does."
    )

    def handle(self, *args, **options) -> None:
        tick_record()
        due = turns_due_queue()
        early = turns_early_queue()
        reminded = turns_remind()
        requeued = turns_stale_requeue()
        systems = "".join(f", {count} {what}" for what, count in systems_tick())
        self.stdout.write(
            f"{due} turn(s) due, {early} ready early, {reminded} reminder(s) queued, "
            f"{requeued} stale turn(s) queued again{systems}"
        )
