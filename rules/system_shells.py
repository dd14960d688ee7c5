"""What turn processing does for a battle system beyond the engine's `resolve_turn`, by the system's name.

The engine's registry (rules.engine.systems) holds what a system decides and stays free of Django; a system
whose turn also keeps rows of its own names here the shell's functions that write them. A system without an
entry here (Iron Fist, Sodankäynti, the toy system of tests/seam) needs nothing but the engine's registry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from campaign.models import Turn
from rules.battle_archive import battle_rounds_export, battles_archive
from rules.battles import battles_record
from rules.company.turn import company_snapshot_exists, company_turn_advance, company_world_restore


@dataclass(frozen=True)
class SystemShell:
    # The system's own turn in the database, run in processing's transaction instead of the engine's:
    # (turn=, was=, now=), `was` the status the turn was claimed from (company_d20, COMPANY.md §4.3).
    turn_advance: Callable[..., None] | None = None
    # The battles of the result as rows, once the result is written or the turn waits for them:
    # (turn=, state=, ruleset=, now=), `state` the result's plan (tabletop, TABLETOP.md A4, A12).
    battles_record: Callable[..., None] | None = None
    # A rollback to the orders keeps what the turn's own rows hold: (turn=, archive=) (tabletop's battles,
    # their entries carried over when it is processed again, TABLETOP.md A10.4).
    rollback_keep: Callable[..., None] | None = None
    # The system keeps its own snapshot of the world before a turn, instead of the engine's input
    # (company_d20's rosters, balances and owners): whether a turn has one, and putting it back, (turn=).
    snapshot_exists: Callable[..., bool] | None = None
    world_restore: Callable[..., None] | None = None
    # What a turn's entry in an export holds besides the engine's input and result: (turn) -> fields.
    export_fields: Callable[[Turn], dict[str, Any]] | None = None


def _tabletop_export(turn: Turn) -> dict[str, Any]:
    return {"battle_rounds": battle_rounds_export(turn=turn)}


SHELLS: dict[str, SystemShell] = {
    "tabletop": SystemShell(
        battles_record=battles_record, rollback_keep=battles_archive, export_fields=_tabletop_export
    ),
    "company_d20": SystemShell(
        turn_advance=company_turn_advance,
        snapshot_exists=company_snapshot_exists,
        world_restore=company_world_restore,
    ),
}
_ENGINE_ONLY = SystemShell()


def system_shell(name: str) -> SystemShell:
    return SHELLS.get(name, _ENGINE_ONLY)
