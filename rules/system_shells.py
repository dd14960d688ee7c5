"""What turn processing does for a battle system beyond the engine's `resolve_turn`, by the system's name.

The engine's registry (rules.engine.systems) holds what a system decides and stays free of Django; a system
whose turn also reads or keeps rows of its own registers a `SystemShell` here, from a module beside its code
(tabletop: rules.tabletop.shell; company_d20: rules.company.shell), which its app's `ready()` imports, as
godip's variants are registered by name. This module names no system: turn processing, loading, rollback
and export ask it by the campaign's `battle_system`. A system without a shell (Iron Fist, Sodankäynti, the
toy system of tests/seam) needs nothing but the engine's registry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from campaign.models import Turn


@dataclass(frozen=True)
class Deadlines:
    """A table system's result deadlines (rules.table_deadlines), each set by the system as its battle opens:
    `reminder_hours(campaign)` before it that its players are reminded (0: never); `remind(battle_id)`
    queues the reminder; `overdue(battle, moment)`, inside the claim's transaction, does what the deadline
    does (tells its players and the GM; decides it where the system says so)."""

    reminder_hours: Callable[[Any], int]
    remind: Callable[[int], None]
    overdue: Callable[[Any, Any], None]


@dataclass(frozen=True)
class SystemShell:
    # The system's own turn in the database, run in processing's transaction instead of the engine's:
    # (turn=, was=, now=), `was` the status the turn was claimed from (company_d20, COMPANY.md §4.3).
    turn_advance: Callable[..., None] | None = None
    # What the turn is resolved from besides its rows, merged into `TurnInput.system_inputs` wherever the
    # turn is loaded (processing, the GM's preview, replay, export): (turn) -> inputs (tabletop's
    # confirmed entries, TABLETOP.md A4.3).
    turn_inputs: Callable[[Turn], dict[str, Any]] | None = None
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
    # A replayed turn that waits for its battles gets them decided as the export's turn entry says:
    # (turn=, entry=) -> the turn (tabletop: its confirmed entries and rounds, TABLETOP.md A4.3).
    battles_replay: Callable[..., Turn | None] | None = None
    # The system's steps of the minute tick (beat's `rules.tasks.tick_systems`, `lifecycle_tick`): what each
    # does, as words for the command's line, and the step, () -> how many it did (tabletop: battles past
    # their deadline, A8.1-A8.3, and their reminders).
    tick: tuple[tuple[str, Callable[[], int]], ...] = ()
    # Its battles fought at the table have result deadlines (Deadlines).
    deadlines: Deadlines | None = None


_SHELLS: dict[str, SystemShell] = {}
_ENGINE_ONLY = SystemShell()


def shell_register(name: str, shell: SystemShell) -> None:
    _SHELLS[name] = shell


def shell_unregister(name: str) -> None:
    _SHELLS.pop(name, None)


def system_shell(name: str) -> SystemShell:
    return _SHELLS.get(name, _ENGINE_ONLY)


def systems_tick() -> list[tuple[str, int]]:
    """The minute steps of every table battle (its deadline's reminder and its passing,
    rules.table_deadlines) and every registered system's own, run: (what, how many) each."""
    from rules.table_deadlines import TICK  # it asks this registry for each system's deadlines

    steps = [*TICK, *(step for shell in list(_SHELLS.values()) for step in shell.tick)]
    return [(what, step()) for what, step in steps]
