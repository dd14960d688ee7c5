import json
import sys
from pathlib import Path

import yaml
from django.core.management.base import BaseCommand, CommandError

from campaign.models import Campaign
from rules.export import ExportError, campaign_export


class Command(BaseCommand):
    help = (
        "Write a campaign to one file: the world before turn 1, and every turn's seed, weather, GM "
        "modifiers, orders, GM corrections and result. YAML when FILE ends in .yaml or .yml, else JSON."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", help="file to write (default: JSON on standard output)")

    def handle(self, *args, slug, output, **options):
        campaign = Campaign.objects.filter(slug=slug).first()
        if campaign is None:
            raise CommandError(f"{slug}: no campaign with this slug")
        try:
            data = campaign_export(campaign=campaign, by=None)
        except ExportError as error:
            raise CommandError(f"{slug}: {error}") from error
        if not output:
            json.dump(data, sys.stdout)
            return
        path = Path(output)
        with path.open("w", encoding="utf-8") as f:
            if path.suffix in (".yaml", ".yml"):
                yaml.safe_dump(data, f, sort_keys=False, allow_unicode=True)
            else:
                json.dump(data, f)
        self.stdout.write(f"Wrote {output}: {campaign.name}, {len(data['turns'])} turns.")
