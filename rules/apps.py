from django.apps import AppConfig


class RulesConfig(AppConfig):
    name = "rules"

    def ready(self) -> None:
        # The shell of a system whose turns keep rows of their own, by name (rules.system_shells; the company
        # app registers its own), and the tasks that campaign.queue queues by name.
        import rules.tabletop_shell  # noqa: F401
        import rules.tasks  # noqa: F401

        # Every code the engine and this app emit has its English template in the catalogue before anything
        # renders one (a page, a mail, the catalogue's own test).
        from rules import diff, messages  # noqa: F401
        from rules.engine import order_words, validation  # noqa: F401
