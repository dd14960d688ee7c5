"""The roster events of a turn (COMPANY.md §7.7): what the server appends to its audit trail, in order.

Each event is a mapping {kind, nation, unit, battle, before, after, tp_delta, cause}; the shell adds the
sequence number, campaign, turn, actor (`engine`) and time. Replaying a nation's events from an empty
roster gives its roster and balance (the Kasarmi actions return their own events, `kasarmi.Done.events`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from .results import Battle, Final
from .roster import ACTIVE, DESTROYED, Unit, unit_from_data, unit_tt, veteran_slots
from .ruleset import CompanyRuleset


def event(
    kind: str,
    nation: str | None,
    unit: int | None = None,
    *,
    battle: str | None = None,
    before: Any = None,
    after: Any = None,
    tp_delta: int = 0,
    cause: str | None = None,
    reason: str | None = None,
) -> dict[str, Any]:
    return {
        "kind": kind,
        "nation": nation,
        "unit": unit,
        "battle": battle,
        "before": before,
        "after": after,
        "tp_delta": tp_delta,
        "cause": cause,
        "reason": reason,
    }


def final_events(
    battle: Battle,
    final: Final,
    ruleset: CompanyRuleset,
    before: Mapping[int, Unit],
    after: Mapping[int, Unit],
) -> list[dict[str, Any]]:
    """§5.5 steps 5-7 for one battle, as applied to the records (`before` and `after` completion's step 1):
    TK lost, XP, TT raised, slots opened, destroyed, promotions, states, TP."""
    events = []
    for unit in battle.snapshot_order():
        for kind, old, new, cause in _unit_changes(before[unit.id], after[unit.id], final, ruleset):
            events.append(
                event(kind, unit.nation, unit.id, battle=battle.key, before=old, after=new, cause=cause)
            )
    for nation, gain in final.tp.items():
        events.append(event("tp_awarded", nation, battle=battle.key, tp_delta=gain))
    return events


def _unit_changes(
    unit: Unit, after: Unit, final: Final, ruleset: CompanyRuleset
) -> list[tuple[str, Any, Any, str | None]]:
    changes: list[tuple[str, Any, Any, str | None]] = []
    if unit.tk != after.tk:
        changes.append(("tk_lost", unit.tk, after.tk, None))
    if after.status != unit.status:
        return [*changes, ("destroyed", unit.status, after.status, "battle")]
    if final.xp[unit.id]:
        changes.append(("xp_awarded", unit.xp, after.xp, None))
    tt_before, tt_after = unit_tt(unit, ruleset), unit_tt(after, ruleset)
    if tt_after > tt_before:
        changes.append(("tt_raised", tt_before, tt_after, None))
    slots_before, slots_after = veteran_slots(unit.xp, ruleset), veteran_slots(after.xp, ruleset)
    if slots_after > slots_before:
        changes.append(("veteran_slot_opened", slots_before, slots_after, None))
    if (after.role, after.group) != (unit.role, unit.group):
        before_role, after_role = (
            {"role": unit.role, "group": unit.group},
            {"role": after.role, "group": after.group},
        )
        changes.append(("role_changed", before_role, after_role, "field_promotion"))
    if unit.id in final.states:
        changes.append(("state_recorded", None, list(final.states[unit.id]), None))
    return changes


def position_events(
    before: Mapping[int, Unit], after: Mapping[int, Unit], retreats: Mapping[int, tuple[str, str | None]]
) -> list[dict[str, Any]]:
    """§6 steps 3-4: conquerors moving in, retreats, and units destroyed when cut off."""
    events = []
    for unit_id in sorted(after):
        old, new = before[unit_id], after[unit_id]
        if unit_id in retreats:
            origin, to = retreats[unit_id]
            if to is None:
                events.append(
                    event("destroyed", new.nation, unit_id, before=origin, after=None, cause="cut_off")
                )
            else:
                events.append(event("retreated", new.nation, unit_id, before=origin, after=to))
        elif old.region != new.region and new.active:
            events.append(event("moved", new.nation, unit_id, before=old.region, after=new.region))
    return events


def roster_replay(
    events: Sequence[Mapping[str, Any]], ruleset: CompanyRuleset
) -> tuple[dict[int, Unit], int]:
    """A nation's roster and TP balance rebuilt from its events alone, from an empty roster (§7.7).

    `unit_created` and `unit_purchased` carry the whole record; every other event the values it changed."""
    units: dict[int, Unit] = {}
    tp = 0
    for item in events:
        kind, unit_id, after = item["kind"], item["unit"], item["after"]
        tp += item.get("tp_delta") or 0
        if kind in ("unit_created", "unit_purchased"):
            units[unit_id] = unit_from_data(after, ruleset)
        elif kind in ("tk_lost", "tk_repaired"):
            units[unit_id] = replace(units[unit_id], tk=after)
        elif kind == "xp_awarded":
            units[unit_id] = replace(units[unit_id], xp=after)
        elif kind == "destroyed":
            units[unit_id] = replace(units[unit_id], tk=0, status=DESTROYED)
        elif kind in ("moved", "retreated"):
            units[unit_id] = replace(units[unit_id], region=after)
        elif kind == "ability_chosen":
            units[unit_id] = replace(units[unit_id], abilities=tuple(after))
        elif kind in ("role_changed", "gm_edit"):
            changes = {k: tuple(v) if k == "abilities" else v for k, v in after.items()}
            units[unit_id] = replace(units[unit_id], **changes)
            if changes.get("status") == ACTIVE:
                units[unit_id] = replace(units[unit_id], fell=None)
    return units, tp
