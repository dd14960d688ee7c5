"""Sodankäynti's registry entry declares every scalar ruleset key of §15 once (rules.engine.settings): every
scalar of defaults.yaml has one declaration, with its value as the default. The rules every system's settings
keep are tests/seam/test_settings.py's; these are Sodankäynti's own.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from rules.engine.ruleset import RulesetError, ruleset_build
from rules.engine.settings import SettingKind
from rules.engine.sodankaynti.ruleset import DEFAULTS_FILE, SETTINGS
from rules.engine.systems import system_get
from tests.settings_leaves import nested, scalar_leaves

NAME = "sodankaynti"
DEFAULTS = yaml.safe_load(DEFAULTS_FILE.read_text(encoding="utf-8"))

# The defaults that are tables, not scalar settings: the builder checks each whole.
TABLES = {
    "unit_types": "code -> die, role and names (§3.1); a campaign adds, changes or drops types",
    "orders_by_role": "role -> the list of kinds it may take (§4)",
    "advantages.fort": "fort level -> tactics dice (§6.4)",
    "advantages.terrain": "terrain key -> tactics dice; a map may add keys (§6.4)",
    "politics.removal_order": "the list of die sizes, in the order politics removes them (§7)",
    "retreat.safe_dice": "the list of die sizes a retreat never destroys (§9.2)",
    "doctrines": "name -> the parameters of §10.1; a campaign adds, changes or drops doctrines (§10.2)",
}


def _build(key: str, value: Any, **more: Any) -> Any:
    return ruleset_build({"battle_system": NAME, **nested(key, value), **more})


def test_every_scalar_of_the_defaults_is_one_setting_with_its_value_as_default() -> None:
    assert scalar_leaves(DEFAULTS, TABLES) == {setting.key: setting.default for setting in SETTINGS}


def test_a_choice_s_default_is_the_spec_s_and_comes_first() -> None:
    choices = [setting for setting in SETTINGS if setting.kind is SettingKind.CHOICE]

    assert [s.key for s in choices if s.default != s.choices[0]] == []


def test_the_default_doctrine_is_one_of_the_ruleset_s_doctrines() -> None:
    """§10.3: a text as long as the declaration allows names a doctrine the campaign added; an unknown name
    is refused, naming the key."""
    longest = "d" * system_get(NAME).setting("default_doctrine").max_length
    doctrine = dict(DEFAULTS["doctrines"]["bold"])
    ruleset = _build("default_doctrine", longest, doctrines={longest: doctrine})
    assert ruleset.default_doctrine == longest
    with pytest.raises(RulesetError, match=r"^default_doctrine: 'heroic' is not one of"):
        _build("default_doctrine", "heroic")


def test_the_registry_entry_describes_the_system() -> None:
    system = system_get(NAME)
    assert system.title == "Sodankäynti" and len(system.summary) > 100
    assert system.rules.name == "SODANKAYNTI.md" and system.rules.is_file()
    # §4: stand_down is no order here; ambush and doctrine name no units.
    assert system.kinds == ("hold", "move", "rebase", "attack", "ambush", "doctrine")
    assert system.unitless_kinds == {"ambush", "doctrine"}
    assert system.settings == SETTINGS
    assert [s.key for s in SETTINGS if not s.section.startswith("§")] == []
