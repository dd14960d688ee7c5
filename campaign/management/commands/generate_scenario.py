import json
import sys

from django.core.management.base import BaseCommand

from campaign.generate import scenario_arguments_add, scenario_generate


class Command(BaseCommand):
    help = "Write a large random scenario (JSON, in the scenario file format) for benchmarks and load tests."

    def add_arguments(self, parser):
        scenario_arguments_add(parser, nations=50, seed=0)
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args, regions, nations, seed, output, **options):
        data = scenario_generate(regions=regions, nations=nations, seed=seed)
        if output:
            with open(output, "w", encoding="utf-8") as f:
                json.dump(data, f)
            self.stdout.write(f"Wrote {output}: {regions} regions, {nations} nations.")
        else:
            json.dump(data, sys.stdout)
