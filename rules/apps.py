from django.apps import AppConfig


class RulesConfig(AppConfig):
    name = "rules"

    def ready(self) -> None:
        import rules.tasks  # noqa: F401  registers the tasks that campaign.queue queues by name
