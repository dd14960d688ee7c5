from django.apps import AppConfig


class RulesConfig(AppConfig):
    name = "rules"

    def ready(self) -> None:
        # The tasks that campaign.queue queues by name (each system's app registers its own shell).
        import rules.tasks  # noqa: F401

        # Every code the engine and this app emit has its English template in the catalogue before anything
        # renders one (a page, a mail, the catalogue's own test).
        from rules import diff, messages  # noqa: F401
        from rules.engine import order_words, validation  # noqa: F401
