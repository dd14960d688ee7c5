"""One tick of what Celery beat does every minute, for a machine without beat (`make run`, cron).

Safe beside a running beat: every step claims its turn first, so a turn is queued or reminded once.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from campaign.queue import tick_record, turns_due_queue, turns_early_queue, turns_remind, turns_stale_requeue
from rules.tabletop.battles import battles_overdue
from rules.tabletop.mail import battles_remind


class Command(BaseCommand):
    help = (
        "Queue the turns past their deadline, ready early or stale, the reminders due, and the tabletop "
        "battles' reminders and deadlines: what beat does."
    )

    def handle(self, *args, **options) -> None:
        tick_record()
        due = turns_due_queue()
        early = turns_early_queue()
        reminded = turns_remind()
        requeued = turns_stale_requeue()
        battles = battles_remind()
        overdue = battles_overdue()
        self.stdout.write(
            f"{due} turn(s) due, {early} ready early, {reminded} reminder(s) queued, "
            f"{requeued} stale turn(s) queued again, {battles} battle reminder(s) queued, "
            f"{overdue} battle(s) overdue"
        )
