"""The tabletop ruleset (TABLETOP.md Part C): Iron Fist's keys plus the `tabletop` block.

Iron Fist's settings keep their meaning: support ranges and support losses always, the rest for
auto-resolution (A8.4). The `tabletop` block merges key by key over its defaults; an unknown key or a value of
the wrong kind raises `RulesetError` naming the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import Field, dataclass, field, fields
from typing import Any

from ..iron_fist.ruleset import IronFistRuleset, iron_fist_ruleset_build
from ..ruleset import RulesetError
from .close_combat_settings import (
    CloseCombatSettings,
    _whole,  # one check of a whole-number setting for the whole block
    at_least,
    close_combat_settings_build,
    one_of,
    setting_checked,
)

PREFIX = "tabletop."
DECISIVE_TEXT = "Decisive: the enemy army was destroyed or routed from the field, or conceded the battle."


@dataclass(frozen=True)
class SheetPoints:
    """Suggested table points (A5.3): per unit type, the larger side's points, the rounding step."""

    per_unit: Mapping[str, int]
    larger_side_points: int
    step: int = 50


@dataclass(frozen=True)
class TabletopSettings:
    conquest_needs_decisive: bool = True
    decisive_text: str = DECISIVE_TEXT
    sheet_notes_text: str = ""
    sheet_points: SheetPoints | None = None
    result_entry: str = one_of("players_then_gm", "gm_only")
    gm_confirms_agreed: bool = True
    players_may_enter_after_deadline: bool = True
    result_deadline_hours: int = at_least(1, default=168)
    reminder_hours_before: int = 24
    on_missing_result: str = one_of("gm_decides", "auto_resolve")
    control_battles: str = one_of("table", "auto")
    complete_automatically: bool = True
    carry_results_on_rollback: bool = True
    close_combat: CloseCombatSettings = field(default_factory=CloseCombatSettings)


SETTINGS = {f.name: f for f in fields(TabletopSettings)}


@dataclass(frozen=True, kw_only=True)
class TabletopRuleset(IronFistRuleset):
    tabletop: TabletopSettings


def tabletop_ruleset_build(overrides: Mapping[str, Any]) -> TabletopRuleset:
    """Iron Fist's ruleset from every key but `tabletop`, and the `tabletop` block checked key by key."""
    block = overrides.get("tabletop")
    base = iron_fist_ruleset_build({k: v for k, v in overrides.items() if k != "tabletop"})
    values = {f.name: getattr(base, f.name) for f in fields(base)}
    values["battle_system"] = "tabletop"
    return TabletopRuleset(**values, tabletop=tabletop_settings_build(block, base))


def tabletop_settings_build(block: Any, base: IronFistRuleset) -> TabletopSettings:
    if block is None:
        return TabletopSettings()
    if not isinstance(block, Mapping):
        raise RulesetError(f"tabletop: expected a mapping of settings, got {block!r}")
    defaults = TabletopSettings()
    values: dict[str, Any] = {}
    for key, value in block.items():
        key = str(key)
        if key not in SETTINGS:
            raise RulesetError(f"{PREFIX}{key}: not a setting")
        if key == "close_combat":
            values[key] = close_combat_settings_build(value)
        elif key == "sheet_points":
            values[key] = _sheet_points(value, base)
        else:
            values[key] = _checked(key, value, SETTINGS[key])
    return TabletopSettings(**{**{f.name: getattr(defaults, f.name) for f in fields(defaults)}, **values})


def _checked(key: str, value: Any, setting: Field) -> Any:
    done, checked = setting_checked(PREFIX, key, value, setting)
    if done:
        return checked
    if not isinstance(value, str):
        raise RulesetError(f"{PREFIX}{key}: expected a text, got {value!r}")
    return value


def _sheet_points(value: Any, base: IronFistRuleset) -> SheetPoints | None:
    name = PREFIX + "sheet_points"
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise RulesetError(f"{name}: expected null or {{per_unit, larger_side_points, step}}, got {value!r}")
    unknown = sorted(set(map(str, value)) - {"per_unit", "larger_side_points", "step"})
    if unknown:
        raise RulesetError(f"{name}.{unknown[0]}: not a setting")
    per_unit = value.get("per_unit") or {}
    if not isinstance(per_unit, Mapping):
        raise RulesetError(f"{name}.per_unit: expected a mapping of unit type to points, got {per_unit!r}")
    for code, points in per_unit.items():
        if code not in base.unit_types:
            raise RulesetError(f"{name}.per_unit.{code}: not a unit type of the ruleset")
        _whole(f"{name}.per_unit.{code}", points, 0)
    return SheetPoints(
        per_unit=dict(per_unit),
        larger_side_points=_whole(f"{name}.larger_side_points", value.get("larger_side_points"), 1),
        step=_whole(f"{name}.step", value.get("step", 50), 1),
    )
