"""company_d20's scalar settings (COMPANY.md §12) are declared once, in its registry entry: every scalar of
defaults.yaml has one declaration, with its value as the default. The rules every system's settings keep are
tests/seam/test_settings.py's; these are company_d20's own."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rules.engine import company_d20
from rules.engine.company_d20.orders import KINDS
from rules.engine.ruleset import RulesetError, ruleset_build
from rules.engine.systems import system_get
from tests.settings_leaves import nested, scalar_leaves

NAME = "company_d20"
DEFAULTS = yaml.safe_load(Path(company_d20.__file__).with_name("defaults.yaml").read_text(encoding="utf-8"))
SETTINGS = system_get(NAME).settings

# The leaves of defaults.yaml that are no scalar setting: the system's name and the tables, which the
# builder checks whole (their keys are names the GM may add to, or their rows must agree with each other).
NOT_SETTINGS = {
    "battle_system": "selects the system itself (§2.1), it is no setting of it",
    "catalogue": "the unit types, keyed by code (§3.2)",
    "veteran.abilities": "the ability catalogue, keyed by code (§7.4)",
    "dice.advantage_sources": "a list of source names (§8.3)",
    "dice.disadvantage_sources": "a list of source names (§8.3)",
    "dice.modifiers": "the modifier table, keyed by code (§8.4)",
    "dice.terrain_cover": "cover bonuses keyed by cover (§8.5.4)",
    "dice.tests": "named tests, keyed by code (§8.5.2)",
    "attack.bands": "minimum margins, strictly decreasing as a whole (§8.5.4)",
    "morale.dc": "DCs keyed by reason (§8.5.6)",
    "morale.fail_state": "states keyed by a reason of morale.dc (§8.5.6)",
    "recon.levels": "minimum margins, strictly decreasing as a whole (§8.5.7)",
    "recon.region_cover": "cover bonuses keyed by terrain (§10.2)",
    "fire_support.types": "the fire support types, keyed by code (§8.5.8)",
    "fire_support.compass": "a list of compass points, as many as a die has sides (§8.5.9)",
    "kp.actions": "the KP actions, keyed by code (§9.3)",
}


def test_every_scalar_of_the_defaults_is_one_setting_with_its_value_as_default() -> None:
    assert scalar_leaves(DEFAULTS, NOT_SETTINGS) == {setting.key: setting.default for setting in SETTINGS}


def test_the_1d6_thresholds_stay_on_the_die_and_reroll_min_tt_takes_a_negative_minimum() -> None:
    """§8.5.9: damaged_direction_min and danger_close_max are read on 1d6; reroll_min_tt had no minimum, and
    keeps room below zero (-100) now that every setting has a bound."""
    setting = {s.key: s for s in SETTINGS}
    reroll = ruleset_build({"battle_system": NAME, **nested("fire_support.reroll_min_tt", -5)})

    assert setting["fire_support.damaged_direction_min"].maximum == 6
    assert setting["fire_support.danger_close_max"].maximum == 6
    assert setting["fire_support.reroll_min_tt"].minimum == -100
    assert reroll.get("fire_support.reroll_min_tt") == -5
    assert setting["company_size"].minimum == 1  # §12


def test_a_section_that_is_not_a_mapping_is_refused_naming_it() -> None:
    with pytest.raises(RulesetError, match=r"^xp: expected a mapping"):
        ruleset_build({"battle_system": NAME, "xp": 5})


def test_the_registry_entry_declares_the_system() -> None:
    system = system_get(NAME)

    assert system.title == "Company d20"
    assert system.rules.name == "COMPANY.md" and system.rules.is_file()
    assert system.kinds == ("hold", "move", "attack", "recon") and set(system.kinds) == set(KINDS)
    assert system.fight is None and system.case_check is not None
    assert [s.key for s in SETTINGS if not s.section.startswith("§")] == []
