from django.apps import AppConfig


class CompanyConfig(AppConfig):
    """Company campaigns (COMPANY.md): rosters, the Kasarmi, table battles, dice logs, recon."""

    name = "rules.company"
    label = "company"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # What company_d20's turns do in the database, under the system's name (rules.system_shells).
        import rules.company.shell  # noqa: F401
        import rules.company.tasks  # noqa: F401  (its mails' tasks, queued by name: known in every process)
        from campaign.selectors import orders_given_register
        from rules.company.selectors import orders_given_in_sets

        orders_given_register(orders_given_in_sets)
