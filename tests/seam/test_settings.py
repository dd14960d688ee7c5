"""Every registered battle system's scalar settings (rules.engine.settings) keep the same rules, whichever
system declares them: the default builds the system's default ruleset; a value at an edge of what a setting
allows is accepted and reaches the ruleset; a value outside it is refused with a RulesetError naming its key
(the range the GM's form offers is the range a turn accepts); a whole number has a maximum, so that no saved
value overflows a later turn; each has a help text and a section. A new system, or a new setting, is tested
here by being registered; what is a system's own stays in its own tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from rules.engine.ruleset import RulesetError, ruleset_build
from rules.engine.settings import Setting, SettingKind
from rules.engine.systems import BattleSystem, system_get, system_names
from tests.settings_leaves import nested

SYSTEMS = [system_get(name) for name in system_names()]

# Iron Fist's fortune-of-war die, which tabletop keeps, is a dice expression as well as a text: the shortest
# and the longest expression stand for the empty and the longest text.
DICE = (("shortest", "1d1"), ("longest", "100d1000+99999999999"))
EDGES_INSTEAD = {"iron_fist:kta_die": DICE, "tabletop:kta_die": DICE}
# Edges a setting cannot take alone, by test id, with why.
DOCTRINE = (
    "must name a doctrine of the `doctrines` table (§10.3): "
    "tests/sodankaynti/test_settings_registry.py builds the longest name with a doctrine of that name"
)
SKIPPED = {
    "sodankaynti:default_doctrine-empty": DOCTRINE,
    "sodankaynti:default_doctrine-longest": DOCTRINE,
}


def _id(system: BattleSystem, setting: Setting) -> str:
    return f"{system.name}:{setting.key}"


def _edges(system: BattleSystem, setting: Setting) -> Iterator[tuple[str, Any]]:
    """(what, value) for each value at an edge of what the setting allows."""
    if _id(system, setting) in EDGES_INSTEAD:
        yield from EDGES_INSTEAD[_id(system, setting)]
    elif setting.kind is SettingKind.WHOLE:
        if setting.minimum is not None:
            yield "minimum", setting.minimum
        yield "maximum", setting.maximum
    elif setting.kind is SettingKind.FLAG:
        yield "true", True
        yield "false", False
    elif setting.kind is SettingKind.CHOICE:
        yield from ((value, value) for value in setting.choices)
    else:
        yield "empty", ""
        yield "longest", "x" * setting.max_length
    if setting.nullable:
        yield "null", None


def _refusals(setting: Setting) -> Iterator[tuple[str, Any]]:
    """(what, value) for each kind of value the setting refuses; no bound, no value past it (the bounds'
    own tests fail instead)."""
    if setting.kind is SettingKind.WHOLE:
        if setting.minimum is not None:
            yield "below-minimum", setting.minimum - 1
        if setting.maximum is not None:
            yield "above-maximum", setting.maximum + 1
        yield "fraction", 1.5
        yield "bool", True
        yield "text", "3"
    elif setting.kind is SettingKind.FLAG:
        yield "text", "yes"
        yield "one", 1
        yield "zero", 0
    elif setting.kind is SettingKind.CHOICE:
        yield "not-a-choice", "sometimes"
        yield "upper-case", setting.choices[0].upper()
        yield "number", 1
    else:
        if setting.max_length is not None:
            yield "too-long", "x" * (setting.max_length + 1)
        yield "nul", "a\x00b"
        yield "number", 1
    if not setting.nullable:
        yield "null", None


def _with_values(values: Any) -> list[Any]:
    """(system, setting, value) params, one for each (what, value) that `values(system, setting)` gives."""
    params = []
    for system in SYSTEMS:
        for setting in system.settings:
            for what, value in values(system, setting):
                ident = f"{_id(system, setting)}-{what}"
                skip = [pytest.mark.skip(reason=SKIPPED[ident])] if ident in SKIPPED else []
                params.append(pytest.param(system, setting, value, id=ident, marks=skip))
    return params


SETTINGS = [
    pytest.param(system, setting, id=_id(system, setting))
    for system in SYSTEMS
    for setting in system.settings
]
ACCEPTED = _with_values(_edges)
REFUSED = _with_values(lambda system, setting: _refusals(setting))
BY_SYSTEM = [pytest.param(system, id=system.name) for system in SYSTEMS]


def _build(system: BattleSystem, setting: Setting, value: Any) -> Any:
    return ruleset_build({"battle_system": system.name, **nested(setting.key, value)})


@pytest.mark.parametrize(("system", "setting"), SETTINGS)
def test_the_default_builds_the_system_s_default_ruleset(system: BattleSystem, setting: Setting) -> None:
    assert _build(system, setting, setting.default) == ruleset_build({"battle_system": system.name})


@pytest.mark.parametrize(("system", "setting", "value"), ACCEPTED)
def test_a_value_at_an_edge_is_accepted_and_reaches_the_ruleset(
    system: BattleSystem, setting: Setting, value: Any
) -> None:
    ruleset = _build(system, setting, value)

    if value != setting.default:
        assert ruleset != ruleset_build({"battle_system": system.name})


@pytest.mark.parametrize(("system", "setting", "value"), REFUSED)
def test_a_value_outside_the_setting_is_refused_naming_its_key(
    system: BattleSystem, setting: Setting, value: Any
) -> None:
    with pytest.raises(RulesetError) as refused:
        _build(system, setting, value)

    assert str(refused.value).startswith(f"{setting.key}: "), str(refused.value)


@pytest.mark.parametrize(("system", "setting"), SETTINGS)
def test_a_whole_number_has_a_maximum_and_a_text_a_longest_length(
    system: BattleSystem, setting: Setting
) -> None:
    if setting.kind is SettingKind.WHOLE:
        assert setting.maximum is not None
    if setting.kind is SettingKind.TEXT:
        assert setting.max_length is not None


@pytest.mark.parametrize(("system", "setting"), SETTINGS)
def test_a_whole_number_has_a_minimum(system: BattleSystem, setting: Setting) -> None:
    if setting.kind is SettingKind.WHOLE:
        assert setting.minimum is not None


@pytest.mark.parametrize(("system", "setting"), SETTINGS)
def test_it_has_a_help_text_the_system_renders_and_a_section(system: BattleSystem, setting: Setting) -> None:
    assert setting.help and setting.section
    assert str(system.setting_help(setting)) == setting.help


@pytest.mark.parametrize("system", BY_SYSTEM)
def test_no_two_settings_of_a_system_share_a_key(system: BattleSystem) -> None:
    keys = [setting.key for setting in system.settings]

    assert sorted(key for key in set(keys) if keys.count(key) > 1) == []


@pytest.mark.parametrize("system", BY_SYSTEM)
def test_the_registry_entry_describes_the_system(system: BattleSystem) -> None:
    assert system.title and system.summary
    assert system.kinds
    assert system.unitless_kinds <= set(system.kinds)


def test_every_exception_named_above_is_still_one() -> None:
    """A skip or an edge instead named above for a setting that no longer needs it is named no longer."""
    settings = {_id(system, setting): setting for system in SYSTEMS for setting in system.settings}

    assert sorted(set(SKIPPED) - {param.id for param in ACCEPTED}) == []
    assert sorted(set(EDGES_INSTEAD) - set(settings)) == []


@pytest.mark.parametrize("key", sorted(EDGES_INSTEAD))
def test_the_longest_dice_expression_is_as_long_as_the_text_may_be(key: str) -> None:
    system, setting = key.split(":")

    assert len(dict(DICE)["longest"]) == system_get(system).setting(setting).max_length
