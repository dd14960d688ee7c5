"""Iron Fist (IRON_FIST.md): KTA, the loss table, support from range and its losses. The default system."""

from ..systems import BattleSystem, system_register
from .battle import iron_fist_fight
from .ruleset import IronFistRuleset, iron_fist_ruleset_build

SYSTEM = BattleSystem(name="iron_fist", ruleset_build=iron_fist_ruleset_build, fight=iron_fist_fight)
system_register(SYSTEM)

__all__ = ["SYSTEM", "IronFistRuleset"]
