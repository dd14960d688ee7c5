"""Iron Fist (IRON_FIST.md): KTA, the loss table, support from range and its losses. The default system."""

from pathlib import Path

from ..messages import gettext_noop
from ..systems import BattleSystem, system_register
from .battle import iron_fist_fight
from .ruleset import SETTINGS, IronFistRuleset, iron_fist_ruleset_build

SYSTEM = BattleSystem(
    name="iron_fist",
    title=gettext_noop("Iron Fist"),
    summary=gettext_noop(
        "The engine decides every battle: each side's KTA, its units' combat values with terrain, forts, "
        "home defence, pincers, support from range and a fortune-of-war roll, then the loss table. A win by "
        "more than the conquest threshold takes the region."
    ),
    rules=Path(__file__).with_name("IRON_FIST.md"),
    rules_hidden=("11", "12"),  # determinism and the report's format
    settings=SETTINGS,
    ruleset_build=iron_fist_ruleset_build,
    fight=iron_fist_fight,
)
system_register(SYSTEM)

__all__ = ["SYSTEM", "IronFistRuleset"]
