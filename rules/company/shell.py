"""company_d20's shell (COMPANY.md §4.3), registered under the system's name (rules.system_shells) when the
company app is ready: the system runs its own turn instead of the engine's, keeps its own snapshot of the
world before a turn (rosters, balances, owners) for a rollback, and its battles have result deadlines
(§5.2) that remind and tell, never decide."""

from __future__ import annotations

from rules.company.services import company_ruleset
from rules.company.turn import (
    company_battle_overdue,
    company_battle_remind,
    company_snapshot_exists,
    company_turn_advance,
    company_world_restore,
)
from rules.engine.company_d20 import SYSTEM
from rules.system_shells import Deadlines, SystemShell, shell_register

shell_register(
    SYSTEM.name,
    SystemShell(
        turn_advance=company_turn_advance,
        snapshot_exists=company_snapshot_exists,
        world_restore=company_world_restore,
        deadlines=Deadlines(
            reminder_hours=lambda campaign: company_ruleset(campaign).get("result.reminder_hours_before"),
            remind=company_battle_remind,
            overdue=company_battle_overdue,
        ),
    ),
)
