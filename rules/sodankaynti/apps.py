from django.apps import AppConfig


class SodankayntiConfig(AppConfig):
    """Sodankäynti's shell and pages: an app of its own so that its templates live in its package."""

    name = "rules.sodankaynti"
    label = "sodankaynti"
