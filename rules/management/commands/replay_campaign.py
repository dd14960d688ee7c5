import json
from pathlib import Path

import yaml
from django.core.management.base import BaseCommand, CommandError

from campaign.models import Campaign
from rules.export import ExportError, campaign_replay


class Command(BaseCommand):
    help = (
        "Re-simulate an exported campaign from its first turn and say whether every turn's reports and "
        "the final state are the exported ones. With --slug, keep the replay as a new campaign."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--slug", help="keep the replayed campaign under this slug")

    def handle(self, *args, file, slug, **options):
        path = Path(file)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            raise CommandError(f"{file}: cannot read the file ({error.strerror})") from error
        try:
            data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
        except (ValueError, yaml.YAMLError) as error:
            raise CommandError(f"{file}: not valid JSON or YAML: {error}") from error
        if slug and Campaign.objects.filter(slug=slug).exists():
            raise CommandError(f"--slug: a campaign with the slug {slug!r} already exists")
        try:
            replay = campaign_replay(data=data, slug=slug, keep=bool(slug))
        except (ExportError, KeyError, TypeError) as error:
            raise CommandError(f"{file}: cannot replay it: {error!r}") from error
        for turn in replay.turns:
            self.stdout.write(f"turn {turn.number}: {'same reports' if turn.matched else 'DIFFERENT'}")
            for line in turn.lines:
                self.stdout.write(f"  {line}")
        self.stdout.write(f"final state: {'the same' if replay.final_matched else 'DIFFERENT'}")
        for line in replay.final_lines:
            self.stdout.write(f"  {line}")
        if replay.kept:
            self.stdout.write(f"Kept as campaign {replay.slug}.")
        if not replay.matched:
            raise CommandError("the replay differs from the export")
        self.stdout.write("The replay matches the export: every turn's reports and the final state.")
