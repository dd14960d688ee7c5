"""The tabletop battle system (TABLETOP.md): battles fought with miniatures; the close-combat calculator.

Only Part B, the calculator, is built: its cases run, and `close_combat_round` serves the calculator's page
and API. A campaign cannot choose `battle_system: tabletop` until Part A (the turn that waits for entered
results, `fight` returning `Pending`) exists, so its ruleset refuses to be built.
"""

from collections.abc import Mapping
from typing import Any

from ..ruleset import RulesetError
from ..systems import BattleSystem, SystemUnavailable, system_register
from .cases import case_check
from .close_combat import RoundOutcome, close_combat_round
from .close_combat_settings import CloseCombatSettings, close_combat_settings_build
from .close_combat_words import steadfast_message


def tabletop_ruleset_build(overrides: Mapping[str, Any]) -> Any:
    raise RulesetError(
        f"battle_system: {SystemUnavailable('tabletop')} (only its close-combat calculator is)"
    )


SYSTEM = BattleSystem(name="tabletop", ruleset_build=tabletop_ruleset_build, case_check=case_check)
system_register(SYSTEM)

__all__ = [
    "SYSTEM",
    "CloseCombatSettings",
    "RoundOutcome",
    "close_combat_round",
    "close_combat_settings_build",
    "steadfast_message",
]
