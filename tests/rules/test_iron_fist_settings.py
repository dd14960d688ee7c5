"""Iron Fist's scalar settings (IRON_FIST.md) are declared once, in its registry entry: every scalar of
ruleset.yaml has one declaration, with its value as the default. The rules every system's settings keep are
tests/seam/test_settings.py's; these are Iron Fist's own."""

from __future__ import annotations

import pytest
import yaml

from rules.engine.iron_fist.ruleset import DEFAULTS_FILE, SETTINGS
from rules.engine.ruleset import RulesetError, ruleset_build
from rules.engine.systems import system_get
from tests.settings_leaves import scalar_leaves

NAME = "iron_fist"
DEFAULTS = yaml.safe_load(DEFAULTS_FILE.read_text(encoding="utf-8"))

# The leaves of ruleset.yaml that are no scalar setting: the tables, which the builder checks whole.
# support_loss is a mapping too, but of two scalars, each a setting of its own (§8).
NOT_SETTINGS = {
    "unit_types": "the unit types, keyed by code (§1)",
    "unit_values": "combat values keyed by unit type and terrain (§4)",
    "weather_modifiers": "modifiers keyed by weather and unit type (§4)",
    "pincer_bonus": "bonuses keyed by a number of origin regions (§4)",
    "ranges": "support ranges keyed by unit type (§3)",
    "loss_table": "rows that must run on without gaps (§5.1)",
}


def test_every_scalar_of_the_defaults_is_one_setting_with_its_value_as_default() -> None:
    assert scalar_leaves(DEFAULTS, NOT_SETTINGS) == {setting.key: setting.default for setting in SETTINGS}


def test_support_loss_is_a_section_of_two_settings_refused_whole_naming_it() -> None:
    """§8: the chances of a supporting unit's loss, won or drawn and lost; a number for both is refused."""
    assert [s.key for s in SETTINGS if s.key.startswith("support_loss.")] == [
        "support_loss.won_or_draw",
        "support_loss.lost",
    ]
    with pytest.raises(RulesetError, match=r"^support_loss: expected a mapping"):
        ruleset_build({"battle_system": NAME, "support_loss": 10})


def test_the_registry_entry_declares_the_system() -> None:
    system = system_get(NAME)

    assert system.title == "Iron Fist"
    assert system.rules.name == "IRON_FIST.md" and system.rules.is_file()
    # §2.1: every kind of order names its units.
    assert system.kinds == ("hold", "move", "rebase", "attack", "stand_down")
    assert system.unitless_kinds == frozenset()
    assert system.settings == SETTINGS
    assert system.fight is not None
    assert [s.key for s in SETTINGS if not s.section.startswith("§")] == []
