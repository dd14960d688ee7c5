"""company_d20's shell (COMPANY.md §4.3), registered under the system's name (rules.system_shells) when the
company app is ready: the system runs its own turn instead of the engine's, and keeps its own snapshot of
the world before a turn (rosters, balances, owners) for a rollback."""

from __future__ import annotations

from rules.company.turn import company_snapshot_exists, company_turn_advance, company_world_restore
from rules.engine.company_d20 import SYSTEM
from rules.system_shells import SystemShell, shell_register

shell_register(
    SYSTEM.name,
    SystemShell(
        turn_advance=company_turn_advance,
        snapshot_exists=company_snapshot_exists,
        world_restore=company_world_restore,
    ),
)
