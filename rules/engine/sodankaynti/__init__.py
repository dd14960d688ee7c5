"""Sodankäynti, the dice-pool battle system (shared/rules/SODANKAYNTI.md): each unit a die on one board."""

from . import messages  # noqa: F401  (registers the system's message templates)
from .ruleset import Ruleset, ruleset_build

__all__ = ["Ruleset", "ruleset_build"]
