from django.apps import AppConfig


class CompanyConfig(AppConfig):
    """Company campaigns (COMPANY.md): rosters, the Kasarmi, table battles, dice logs, recon."""

    name = "rules.company"
    label = "company"
    default_auto_field = "django.db.models.BigAutoField"
