"""Tabletop's shell (TABLETOP.md), registered under the system's name (rules.system_shells) when the rules
app is ready: a turn's confirmed entries are part of what it is resolved from (A4.3), its plan's battles
become rows (A4, A12), a rollback to the orders keeps them (A10.4), an export carries their rounds, and
a replay decides them again."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaign.models import Turn
from rules.engine.tabletop import SYSTEM
from rules.models import ResultVersion
from rules.system_shells import Deadlines, SystemShell, shell_register
from rules.tabletop.archive import battle_rounds_export, battles_archive
from rules.tabletop.battles import battle_overdue, battles_record
from rules.tabletop.mail import battle_reminder_queue
from rules.tabletop.replay import battles_replay


def tabletop_entries(*, turn: Turn) -> dict[str, dict]:
    """The entries of a tabletop turn (A4.3): each battle's confirmed version, with the fingerprint of the
    sheet it was entered against. One query."""
    confirmed = ResultVersion.objects.filter(
        battle__turn=turn, state=ResultVersion.State.CONFIRMED
    ).values_list("battle__key", "payload", "fingerprint")
    return {key: {**payload, "fingerprint": fingerprint} for key, payload, fingerprint in confirmed}


def _turn_inputs(turn: Turn) -> dict[str, Any]:
    return {"entries": tabletop_entries(turn=turn)}


def _export_fields(turn: Turn) -> dict[str, Any]:
    return {"battle_rounds": battle_rounds_export(turn=turn)}


def _battles_replay(*, turn: Turn, entry: Mapping[str, Any]) -> Turn | None:
    """The battles of a replayed turn, decided by the entries it was completed from and their rounds."""
    entries = (entry.get("system_inputs") or {}).get("entries") or {}
    return battles_replay(turn=turn, entries=entries, rounds=entry.get("battle_rounds") or {})


shell_register(
    SYSTEM.name,
    SystemShell(
        turn_inputs=_turn_inputs,
        battles_record=battles_record,
        rollback_keep=battles_archive,
        export_fields=_export_fields,
        battles_replay=_battles_replay,
        # A8.1: due `result_deadline_hours` after it opens (set by battles_record), reminded
        # `reminder_hours_before` it.
        deadlines=Deadlines(
            reminder_hours=lambda campaign: campaign.ruleset().tabletop.reminder_hours_before,
            remind=battle_reminder_queue,
            overdue=battle_overdue,
        ),
    ),
)
