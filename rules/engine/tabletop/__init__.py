"""The tabletop battle system (TABLETOP.md): battles fought with miniatures; the close-combat calculator.

Part A: the battle plan (`plan.py`), the sheet and its fingerprint (`sheet.py`), the seam's `fight` that reads
entries or auto-resolves (`battle.py`), the check of a result (`results.py`). Part B: the calculator
(`close_combat*.py`). A turn of a tabletop campaign goes through `plan`, registered as the system's own
`resolve_turn`, so that the shell's processing waits in `battles_pending` while a battle has no entry.
"""

from pathlib import Path

from ..messages import gettext_noop
from ..systems import BattleSystem, system_register
from .battle import derive_seed, tabletop_fight
from .cases import case_check
from .close_combat import RoundOutcome, close_combat_round
from .close_combat_settings import CloseCombatSettings, close_combat_settings_build
from .close_combat_words import steadfast_message
from .plan import BattlesPending, Complete, plan, tabletop_resolve_turn
from .settings import SETTINGS, TabletopRuleset, TabletopSettings, tabletop_ruleset_build

SYSTEM = BattleSystem(
    name="tabletop",
    title=gettext_noop("Tabletop battles"),
    summary=gettext_noop(
        "The map decides who fights whom, as in Iron Fist; the players fight each battle with miniatures and "
        "enter its result: the winner, whether the win was decisive, and every nation's losses. A decisive "
        "win takes the region; a battle without a result by its deadline is left to the GM or auto-resolved "
        "by Iron Fist's rules."
    ),
    rules=Path(__file__).with_name("TABLETOP.md"),
    settings=SETTINGS,
    ruleset_build=tabletop_ruleset_build,
    fight=tabletop_fight,
    case_check=case_check,
    case_kinds=frozenset(("close_combat", "turn")),  # TABLETOP's calculator rounds and whole turns
    extra={"resolve_turn": tabletop_resolve_turn, "plan": plan},
)
system_register(SYSTEM)

__all__ = [
    "SYSTEM",
    "BattlesPending",
    "CloseCombatSettings",
    "Complete",
    "RoundOutcome",
    "TabletopRuleset",
    "TabletopSettings",
    "close_combat_round",
    "close_combat_settings_build",
    "derive_seed",
    "plan",
    "steadfast_message",
]
