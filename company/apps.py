from django.apps import AppConfig


class CompanyConfig(AppConfig):
    """Company campaigns (COMPANY.md): rosters, the Kasarmi, table battles, dice logs, recon."""

    name = "company"
    default_auto_field = "django.db.models.BigAutoField"
