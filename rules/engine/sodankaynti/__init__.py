"""Sodankäynti, the dice-pool battle system (shared/rules/SODANKAYNTI.md): each unit a die on one board."""

from pathlib import Path

from ..messages import gettext_noop
from ..systems import BattleSystem, Policies, system_register
from . import messages  # noqa: F401  (registers the system's message templates)
from .cases import case_check
from .fight import sodankaynti_fight
from .inputs import ATTRIBUTES, attributes_check, inputs_prepare
from .orders import OWN_KINDS, PARAMS, order_check
from .ruleset import SETTINGS, Ruleset, ruleset_build

SYSTEM = BattleSystem(
    name="sodankaynti",
    title=gettext_noop("Sodankäynti"),
    summary=gettext_noop(
        "Every unit is a die, from a levy's d6 to an archangel's d20, and a battle is played on one "
        "board. A politics roll takes dice off the loser's side and a tactics roll gives the winner the "
        "first actions; then the sides take turns by their doctrines, a die destroying smaller enemy dice, a "
        "1 sacrificing itself, or the side retreating. A side that retreats or has no dice left loses; an "
        "attacker that wins takes the region."
    ),
    rules=Path(__file__).with_name("SODANKAYNTI.md"),
    # §4: every kind a player may give; stand_down is not one of them here.
    kinds=("hold", "move", "rebase", "attack", "ambush", "doctrine"),
    settings=SETTINGS,
    ruleset_build=ruleset_build,
    fight=sodankaynti_fight,
    # §2.1: no support from range and no support losses; §12.5: air retreats with the other defenders.
    policies=Policies(support_from_range=False, support_losses=False, air_rebases_after_conquest=False),
    case_check=case_check,
    order_check=order_check,
    unitless_kinds=OWN_KINDS,
    unitless_params=PARAMS,
    inputs_prepare=inputs_prepare,
    nation_attributes=ATTRIBUTES,
    attributes_check=attributes_check,
)
system_register(SYSTEM)

__all__ = ["SYSTEM", "Ruleset", "ruleset_build"]
