"""Sodankäynti, the dice-pool battle system (shared/rules/SODANKAYNTI.md): each unit a die on one board."""

from ..systems import BattleSystem, Policies, system_register
from . import messages  # noqa: F401  (registers the system's message templates)
from .cases import case_check
from .fight import sodankaynti_fight
from .inputs import inputs_prepare
from .orders import OWN_KINDS, order_check
from .ruleset import Ruleset, ruleset_build

SYSTEM = BattleSystem(
    name="sodankaynti",
    ruleset_build=ruleset_build,
    fight=sodankaynti_fight,
    # §2.1: no support from range and no support losses; §12.5: air retreats with the other defenders.
    policies=Policies(support_from_range=False, support_losses=False, air_rebases_after_conquest=False),
    case_check=case_check,
    order_check=order_check,
    order_kinds=OWN_KINDS,
    inputs_prepare=inputs_prepare,
)
system_register(SYSTEM)

__all__ = ["SYSTEM", "Ruleset", "ruleset_build"]
