"""The tabletop system's scalar settings (TABLETOP.md Part C, and Iron Fist's, which it keeps) are declared
once, in its registry entry: every scalar of its defaults has one declaration, with its value as the default.
The rules every system's settings keep are tests/seam/test_settings.py's; these are the tabletop system's own.
"""

from __future__ import annotations

from dataclasses import asdict

import pytest
import yaml

from rules.engine.iron_fist.ruleset import DEFAULTS_FILE
from rules.engine.ruleset import RulesetError, ruleset_build
from rules.engine.settings import SettingKind
from rules.engine.systems import IRON_FIST_KINDS, system_get
from rules.engine.tabletop.settings import SETTINGS, TabletopSettings
from tests.settings_leaves import scalar_leaves

NAME = "tabletop"
# Iron Fist's defaults file with the `tabletop` block, whose defaults are its dataclass's.
DEFAULTS = {
    **yaml.safe_load(DEFAULTS_FILE.read_text(encoding="utf-8")),
    "tabletop": asdict(TabletopSettings()),
}

# The leaves of the defaults that are no scalar setting: the tables, which the builders check whole.
NOT_SETTINGS = {
    "unit_types": "the unit types, keyed by code (IRON_FIST §1)",
    "unit_values": "combat values keyed by unit type and terrain (IRON_FIST §4)",
    "weather_modifiers": "modifiers keyed by weather and unit type (IRON_FIST §4)",
    "pincer_bonus": "bonuses keyed by a number of origin regions (IRON_FIST §4)",
    "ranges": "support ranges keyed by unit type (IRON_FIST §3)",
    "loss_table": "rows that must run on without gaps (IRON_FIST §5.1)",
    "tabletop.sheet_points": "null or points keyed by unit type, with the larger side's points (A5.3)",
    "tabletop.close_combat.destroyed_unit_counts": "a list of terms (B3)",
    "tabletop.close_combat.cleared_unit_counts": "a list of terms (B3)",
    "tabletop.close_combat.discipline_range": "a [lowest, highest] pair (B2.2, B5.4)",
}


def test_every_scalar_of_the_defaults_is_one_setting_with_its_value_as_default() -> None:
    assert scalar_leaves(DEFAULTS, NOT_SETTINGS) == {setting.key: setting.default for setting in SETTINGS}


def test_a_deadline_of_a_billion_hours_is_refused_before_it_overflows_a_date() -> None:
    """A8.1: result_deadline_hours was accepted at 10**9 and overflowed the deadline's date later."""
    with pytest.raises(RulesetError, match=r"^tabletop\.result_deadline_hours: must be at most 8760, "):
        ruleset_build({"battle_system": NAME, "tabletop": {"result_deadline_hours": 10**9}})


def test_the_minima_are_part_c_s() -> None:
    """Part C: every close-combat number is at least 0, discipline_dice and full_rank_models at least 1."""
    minima = {
        s.key.removeprefix("tabletop.close_combat."): s.minimum
        for s in SETTINGS
        if s.key.startswith("tabletop.close_combat.") and s.kind is SettingKind.WHOLE
    }

    assert {key for key, minimum in minima.items() if minimum == 1} == {"discipline_dice", "full_rank_models"}
    assert set(minima.values()) == {0, 1}


def test_the_registry_entry_declares_the_system() -> None:
    system = system_get(NAME)
    iron_fist = system_get("iron_fist").settings

    assert system.title == "Tabletop battles"
    assert system.rules.name == "TABLETOP.md" and system.rules.is_file()
    assert system.kinds == IRON_FIST_KINDS
    assert system.settings == SETTINGS
    assert system.settings[: len(iron_fist)] == iron_fist  # Iron Fist's first, then the `tabletop` block's
    assert system.fight is not None and system.case_check is not None
    assert set(system.extra) == {"resolve_turn", "plan"}
