"""No value a GM can save stops a later turn (issue 24): every registered system's settings and nation
attributes are bounded in their registry entry, and every number and text of its tables is bounded by its
builder, so that a scenario's ruleset, the GM's forms and the API refuse what a turn could not take.

Walks the registry: a new system, or a new setting of one, is tested by being registered (its defaults by
being named in DEFAULTS below).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from rules.engine.company_d20.settings import company_defaults
from rules.engine.iron_fist.ruleset import DEFAULTS_FILE as IRON_FIST_DEFAULTS
from rules.engine.ruleset import RulesetError, defaults_read, ruleset_build
from rules.engine.settings import Setting, SettingKind
from rules.engine.sodankaynti.ruleset import DEFAULTS_FILE as SODANKAYNTI_DEFAULTS
from rules.engine.systems import BattleSystem, system_get, system_names
from rules.engine.tabletop.settings import DEFAULT_BLOCK as TABLETOP_BLOCK

SYSTEMS = [system_get(name) for name in system_names()]
HOURS_MAX = 365 * 24  # a deadline or a reminder at most a year away: no date a turn computes overflows

# Each system's defaults as ruleset data: the tables a campaign's overrides merge into.
DEFAULTS = {
    "iron_fist": lambda: defaults_read(IRON_FIST_DEFAULTS),
    "sodankaynti": lambda: defaults_read(SODANKAYNTI_DEFAULTS),
    "tabletop": lambda: {**defaults_read(IRON_FIST_DEFAULTS), "tabletop": TABLETOP_BLOCK},
    "company_d20": company_defaults,
}


def _declared() -> Iterator[Any]:
    for system in SYSTEMS:
        for kind, settings in (("setting", system.settings), ("attribute", system.nation_attributes)):
            for setting in settings:
                yield pytest.param(system, setting, id=f"{system.name}:{kind}:{setting.key}")


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """(path, value) of every number and text in ruleset data, mappings and lists walked."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _leaves(item, (*path, i))
    elif isinstance(value, int | str) and not isinstance(value, bool) and path != ("battle_system",):
        yield path, value


def _replaced(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A copy of `data` with the leaf at `path` replaced: the whole defaults as overrides, one value new."""
    changed = copy.deepcopy(data)
    parent = changed
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return changed


def _names(message: str, path: tuple[Any, ...]) -> bool:
    """The refusal names where the value is: its table, or the unit type it is a value of."""
    return message.startswith(str(path[0])) or message.startswith(f"unit_types.{path[-1]}: ")


def _table_leaves(kind: type) -> list[Any]:
    params = []
    for system in SYSTEMS:
        for path, value in _leaves(DEFAULTS[system.name]()):
            if isinstance(value, kind):
                ident = f"{system.name}:{'.'.join(map(str, path))}"
                params.append(pytest.param(system, path, id=ident))
    return params


@pytest.mark.parametrize(("system", "setting"), list(_declared()))
def test_every_setting_and_nation_attribute_has_a_range_or_a_set_of_values(
    system: BattleSystem, setting: Setting
) -> None:
    if setting.kind is SettingKind.WHOLE:
        assert setting.minimum is not None and setting.maximum is not None
        assert setting.default is None or setting.minimum <= setting.default <= setting.maximum
    elif setting.kind is SettingKind.TEXT:
        assert setting.max_length is not None
    elif setting.kind is SettingKind.CHOICE:
        assert setting.choices


@pytest.mark.parametrize(("system", "setting"), list(_declared()))
def test_hours_are_at_most_a_year(system: BattleSystem, setting: Setting) -> None:
    if setting.key.endswith("_hours") or setting.key.endswith("_hours_before"):
        assert setting.maximum <= HOURS_MAX


def test_a_system_takes_nation_attributes_only_with_a_check_of_them() -> None:
    for system in SYSTEMS:
        assert bool(system.nation_attributes) == (system.attributes_check is not None), system.name


ATTRIBUTES = [
    pytest.param(system, attribute, id=f"{system.name}:{attribute.key}")
    for system in SYSTEMS
    for attribute in system.nation_attributes
    if attribute.kind is SettingKind.WHOLE
]


@pytest.mark.parametrize(("system", "attribute"), ATTRIBUTES)
def test_a_nation_attribute_past_its_range_is_refused_naming_it(
    system: BattleSystem, attribute: Setting
) -> None:
    ruleset = ruleset_build({"battle_system": system.name})
    for value in (attribute.minimum, attribute.maximum):
        system.attributes_check({attribute.key: value}, ruleset)

    for value in (attribute.minimum - 1, attribute.maximum + 1, 10**12):
        with pytest.raises(RulesetError) as refused:
            system.attributes_check({attribute.key: value}, ruleset)
        assert str(refused.value).startswith(f"{attribute.key}: "), str(refused.value)


def test_every_system_names_its_defaults() -> None:
    assert sorted(DEFAULTS) == sorted(system.name for system in SYSTEMS)


@pytest.mark.parametrize(("system", "path"), _table_leaves(int))
def test_no_number_of_a_table_takes_a_huge_value(system: BattleSystem, path: tuple[Any, ...]) -> None:
    """A value past any table's, either way, is refused naming where it is (a deadline of 10**9 hours, a unit
    of 10**6 dice, a range of 10**21 borders were each saved once and stopped every later turn)."""
    for huge in (10**12, -(10**12)):
        overrides = _replaced(DEFAULTS[system.name](), path, huge)

        with pytest.raises(RulesetError) as refused:
            ruleset_build({**overrides, "battle_system": system.name})
        assert _names(str(refused.value), path), str(refused.value)


@pytest.mark.parametrize(("system", "path"), _table_leaves(str))
def test_no_text_of_a_ruleset_takes_a_nul_character(system: BattleSystem, path: tuple[Any, ...]) -> None:
    """PostgreSQL stores no NUL in a campaign's ruleset: a scenario with one crashed its import."""
    overrides = _replaced(DEFAULTS[system.name](), path, "a\x00b")

    with pytest.raises(RulesetError) as refused:
        ruleset_build({**overrides, "battle_system": system.name})
    assert _names(str(refused.value), path), str(refused.value)


@pytest.mark.parametrize("system", [pytest.param(s, id=s.name) for s in SYSTEMS])
def test_no_key_of_a_ruleset_takes_a_nul_character(system: BattleSystem) -> None:
    name = next(iter(ruleset_build({"battle_system": system.name}).unit_types))
    overrides = {"unit_types": {name: None, "A\x00B": {"role": "ground"}}}

    with pytest.raises(RulesetError, match="NUL"):
        ruleset_build({**overrides, "battle_system": system.name})


@pytest.mark.parametrize("system", [pytest.param(s, id=s.name) for s in SYSTEMS])
def test_the_defaults_still_build(system: BattleSystem) -> None:
    overrides = DEFAULTS[system.name]()

    assert ruleset_build({**overrides, "battle_system": system.name}) == ruleset_build(
        {"battle_system": system.name}
    )


@pytest.mark.parametrize(
    ("system", "overrides", "key"),
    [
        ("tabletop", {"tabletop": {"result_deadline_hours": 10**9}}, "tabletop.result_deadline_hours"),
        ("iron_fist", {"unit_types": {"JV": {"role": "ground", "name": {"en": "a\x00b"}}}}, "unit_types.JV"),
        ("sodankaynti", {"unit_types": {"JV": {"die": "1000000d6", "role": "ground"}}}, "unit_types.JV.die"),
    ],
)
def test_the_gm_s_settings_form_refuses_what_a_turn_could_not_take(
    system: str, overrides: dict[str, Any], key: str
) -> None:
    """The GM's settings are a campaign's ruleset overrides (the admin's form, `Campaign.clean`): the same
    check as a scenario's, before anything is saved."""
    from django.core.exceptions import ValidationError

    from campaign.models import Campaign

    with pytest.raises(ValidationError) as refused:
        Campaign(name="x", slug="x", battle_system=system, ruleset_overrides=overrides).clean()
    assert refused.value.message_dict["ruleset_overrides"][0].startswith(key)
