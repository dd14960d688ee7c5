from django.apps import AppConfig


class TabletopConfig(AppConfig):
    """Tabletop's shell and pages: an app of its own so that its templates live in its package. Its rows
    (Battle, ResultVersion, CombatRound) stay the rules app's models."""

    name = "rules.tabletop"
    label = "tabletop"

    def ready(self) -> None:
        # What tabletop's turns do in the database, under the system's name (rules.system_shells).
        import rules.tabletop.shell  # noqa: F401
        import rules.tabletop.tasks  # noqa: F401  (its mails' tasks, queued by name: known in every process)
