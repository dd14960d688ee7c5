from django.core.management.base import BaseCommand, CommandError

from campaign.models import Turn
from campaign.queue import turn_reopen
from rules.services import turn_process


class Command(BaseCommand):
    help = "Process the campaign's open turn now, in this process (what the Celery task does)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--retry", action="store_true", help="reopen and process a failed turn")

    def handle(self, *args, slug, retry, **options):
        turn = Turn.objects.filter(campaign__slug=slug).exclude(status=Turn.Status.RESOLVED).first()
        if turn is None:
            raise CommandError(f"{slug}: no campaign with this slug, or no turn in play")
        if turn.status == Turn.Status.FAILED:
            if not retry:
                raise CommandError(f"{slug}: turn {turn.number} failed; see the error, then use --retry")
            turn_reopen(turn_id=turn.pk)
        processed = turn_process(turn_id=turn.pk)
        if processed is None:
            raise CommandError(f"{slug}: turn {turn.number} is being processed by another process")
        if processed.status == Turn.Status.FAILED:
            raise CommandError(f"{slug}: turn {processed.number} failed:\n{processed.error}")
        battles = processed.reports.count()
        self.stdout.write(
            f"{slug}: turn {processed.number} resolved, {battles} battles; turn {processed.number + 1} open."
        )
