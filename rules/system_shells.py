"""What turn processing does for a battle system beyond the engine's `resolve_turn`, by the system's name.

The engine's registry (rules.engine.systems) holds what a system decides and stays free of Django; a system
whose turn also keeps rows of its own names here the shell's functions that write them. A system without an
entry here (Iron Fist, Sodankäynti, the toy system of tests/seam) needs nothing but the engine's registry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules.battles import battles_record
from rules.company.turn import company_turn_advance


@dataclass(frozen=True)
class SystemShell:
    # The system's own turn in the database, run in processing's transaction instead of the engine's:
    # (turn=, was=, now=), `was` the status the turn was claimed from (company_d20, COMPANY.md §4.3).
    turn_advance: Callable[..., None] | None = None
    # The battles of the result as rows, once the result is written or the turn waits for them:
    # (turn=, state=, ruleset=, now=), `state` the result's plan (tabletop, TABLETOP.md A4, A12).
    battles_record: Callable[..., None] | None = None


SHELLS: dict[str, SystemShell] = {
    "tabletop": SystemShell(battles_record=battles_record),
    "company_d20": SystemShell(turn_advance=company_turn_advance),
}
_ENGINE_ONLY = SystemShell()


def system_shell(name: str) -> SystemShell:
    return SHELLS.get(name, _ENGINE_ONLY)
