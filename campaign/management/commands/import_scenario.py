from django.core.management.base import BaseCommand, CommandError

from campaign.scenario import ScenarioError, scenario_read
from campaign.services import ScenarioImportError, scenario_import


class Command(BaseCommand):
    help = "Create a campaign from a scenario file (YAML or JSON), with turn 1 open. Refuses bad files whole."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--campaign", required=True, metavar="SLUG", help="the new campaign's slug")
        parser.add_argument("--name", help="the campaign's name (default: the scenario's)")

    def handle(self, *args, file, campaign, name, **options):
        try:
            scenario = scenario_read(file)
            created = scenario_import(scenario=scenario, slug=campaign, name=name)
        except (ScenarioError, ScenarioImportError) as error:
            raise CommandError(f"{file}: {error}") from error
        self.stdout.write(
            f"Imported {file} as campaign {created.slug!r}: {len(scenario.nations)} nations, "
            f"{len(scenario.regions)} regions, {len(scenario.borders)} borders; turn 1 is open."
        )
