"""The company_d20 ruleset (COMPANY.md §12): the defaults of `defaults.yaml` with a campaign's overrides
merged in.

`company_ruleset_build(overrides)` checks every value and returns a frozen `CompanyRuleset`. A bad value
raises `RulesetError` whose message starts with the key (`ruleset_invalid`, ref the key, §12): every code it
refers to must exist, dice sizes must be die sizes, band and level tables strictly decreasing, `company_size`
at least 1. The scalar settings are checked through their declarations (`SETTINGS`, the registry entry's),
the tables by the functions below.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from rules.engine.ruleset import (
    Ruleset,
    RulesetError,
    check_int,
    check_mapping,
    check_unknown_keys,
    ruleset_merge,
)
from rules.engine.ruleset import UnitType as PipelineUnitType
from rules.engine.settings import settings_check

from .expressions import expression_parse
from .settings import SETTINGS, company_defaults

ROLES = ("company_commander", "platoon_leader")
STATS = ("tk_max", "m", "k", "l", "s", "h")
EFFECTS = (
    "morale_auto_success",
    "morale_no_critical",
    "attack_bonus",
    "stealth_bonus",
    "recon_bonus",
    "scatter_reroll",
    "table_note",
)
VALUED_EFFECTS = ("attack_bonus", "stealth_bonus", "recon_bonus")
FUNCTIONS = ("roll", "test", "opposed", "attack", "damage", "morale", "recon", "fire_request", "scatter")
POOL_KINDS = ("company", "platoon", "group")
TERRAINS = ("open", "rough", "city")
DIE_SIZES = (2, 3, 4, 6, 8, 10, 12, 20, 100)
# Mappings whose keys a GM may add to (new types, abilities, codes); every other mapping has fixed keys.
OPEN = frozenset(
    (
        "catalogue",
        "veteran.abilities",
        "dice.modifiers",
        "dice.terrain_cover",
        "dice.tests",
        "fire_support.types",
        "kp.actions",
        # §12: keyed by the reasons of morale.dc, any of which an override may name (checked in _tables)
        "morale.fail_state",
    )
)


@dataclass(frozen=True)
class UnitType:
    code: str
    names: Mapping[str, str]
    role: str | None
    stats: Mapping[str, int]  # tk_max, m, k, l, s, h
    ti: str
    type_abilities: tuple[str, ...]
    price: int
    purchasable: bool


@dataclass(frozen=True)
class Ability:
    code: str
    names: Mapping[str, str]
    effect: str
    value: int
    types: tuple[str, ...] | None  # None: any type


@dataclass(frozen=True)
class SupportType:
    code: str
    names: Mapping[str, str]
    callers: tuple[str, ...]
    delay: str | None
    scatter: int
    attack_bonus: int
    damage: str


@dataclass(frozen=True, kw_only=True)
class CompanyRuleset(Ruleset):
    """A `Ruleset` like every system's (its unit types are the catalogue's, all on the ground, with no
    support ranges), plus the company settings. The turn pipeline never runs it: company_d20 has its own
    turn."""

    settings: Mapping[str, Any]  # every value, merged and checked; read with `get("xp.tt_step")`
    catalogue: Mapping[str, UnitType]
    abilities: Mapping[str, Ability]
    support: Mapping[str, SupportType]

    def get(self, dotted: str) -> Any:
        value: Any = self.settings
        for part in dotted.split("."):
            value = value[part]
        return value

    def ability_total(self, abilities: tuple[str, ...], effect: str) -> int:
        """The sum of the values of the unit's veteran abilities with this effect (Tarkka tuli +1, ...)."""
        return sum(
            self.abilities[a].value
            for a in abilities
            if a in self.abilities and self.abilities[a].effect == effect
        )

    def has_effect(self, abilities: tuple[str, ...], effect: str) -> bool:
        return any(a in self.abilities and self.abilities[a].effect == effect for a in abilities)


def company_ruleset_build(overrides: Mapping[str, Any] | None = None) -> CompanyRuleset:
    """The default ruleset with `overrides` merged in, checked; raises RulesetError naming the bad key."""
    overrides = {} if overrides is None else overrides
    if not isinstance(overrides, Mapping):
        raise RulesetError("ruleset: expected a mapping of overrides")
    defaults = company_defaults()
    check_unknown_keys(overrides, defaults, "company_d20")
    _known_keys(overrides, defaults, "")
    data = ruleset_merge(defaults, overrides)
    _sections(data, defaults, "")
    if data["battle_system"] != "company_d20":
        raise RulesetError(f"battle_system: this ruleset is for company_d20, not {data['battle_system']!r}")
    catalogue = _catalogue(data["catalogue"])
    abilities = _abilities(data["veteran"]["abilities"], catalogue)
    support = _support(data["fire_support"]["types"])
    settings_check(data, SETTINGS)
    _tables(data)
    return CompanyRuleset(
        battle_system="company_d20",
        unit_types={
            code: PipelineUnitType(code, "ground", kind.names, dict(kind.stats))
            for code, kind in catalogue.items()
        },
        ranges={},
        settings=_frozen(data),
        catalogue=MappingProxyType(catalogue),
        abilities=MappingProxyType(abilities),
        support=MappingProxyType(support),
    )


def _known_keys(overrides: Mapping[str, Any], defaults: Mapping[str, Any], where: str) -> None:
    for key, value in overrides.items():
        name = f"{where}{key}"
        if where.rstrip(".") in OPEN:
            continue
        if key not in defaults:
            raise RulesetError(f"{name}: not a ruleset key")
        if isinstance(value, Mapping) and isinstance(defaults[key], Mapping):
            _known_keys(value, defaults[key], f"{name}.")


def _sections(data: Mapping[str, Any], defaults: Mapping[str, Any], where: str) -> None:
    """Every mapping of the defaults is still one (`xp: 5` is refused naming `xp`), so that the settings
    and tables below read their keys; an open mapping's entries are its own function's to check."""
    for key, default in defaults.items():
        if isinstance(default, Mapping):
            name = f"{where}{key}"
            value = _mapping(data.get(key), name)
            if name not in OPEN:
                _sections(value, default, f"{name}.")


def _frozen(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def _int(value: Any, name: str, *, minimum: int | None = None, null: bool = False) -> int | None:
    if value is None and null:
        return None
    return check_int({name: value}, name, minimum=minimum)


_mapping = check_mapping


def _choice(value: Any, name: str, choices: tuple[Any, ...]) -> Any:
    if value not in choices:
        raise RulesetError(f"{name}: expected one of {', '.join(map(str, choices))}, got {value!r}")
    return value


def _bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise RulesetError(f"{name}: expected true or false, got {value!r}")
    return value


def _names(value: Any, name: str, code: str) -> dict[str, str]:
    return {str(k): str(v) for k, v in _mapping(value if value is not None else {"en": code}, name).items()}


def _expression(value: Any, name: str) -> str:
    if not isinstance(value, str) or expression_parse(value) is None:
        raise RulesetError(f"{name}: expected a dice expression like 2d6+1, got {value!r}")
    return value


def _codes(value: Any, name: str, known: Mapping[str, Any] | tuple[str, ...]) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        raise RulesetError(f"{name}: expected a list, got {value!r}")
    for item in value:
        if item not in known:
            raise RulesetError(f"{name}: {item!r} does not exist")
    return tuple(value)


def _entries(value: Any, name: str) -> Iterator[tuple[str, str, Mapping[str, Any]]]:
    """The entries of the mapping `name`: each one's code, its place for errors, and its own mapping."""
    for code, spec in _mapping(value, name).items():
        where = f"{name}.{code}"
        yield str(code), where, _mapping(spec, where)


def _catalogue(value: Any) -> dict[str, UnitType]:
    types = {}
    for code, where, spec in _entries(value, "catalogue"):
        role = spec.get("role")
        if role is not None:
            _choice(role, f"{where}.role", ROLES)
        stats = {
            stat: _int(spec.get(stat), f"{where}.{stat}", minimum=1 if stat == "tk_max" else 0)
            for stat in STATS
        }
        abilities = spec.get("type_abilities") or []
        if not isinstance(abilities, list | tuple) or not all(isinstance(a, str) for a in abilities):
            raise RulesetError(f"{where}.type_abilities: expected a list of ability names")
        types[code] = UnitType(
            code=code,
            names=_names(spec.get("name"), f"{where}.name", code),
            role=role,
            stats=stats,
            ti=_expression(spec.get("ti"), f"{where}.ti"),
            type_abilities=tuple(abilities),
            price=_int(spec.get("price"), f"{where}.price", minimum=0),
            purchasable=_bool(spec.get("purchasable", True), f"{where}.purchasable"),
        )
    if not types:
        raise RulesetError("catalogue: at least one unit type")
    return types


def _abilities(value: Any, catalogue: Mapping[str, UnitType]) -> dict[str, Ability]:
    abilities = {}
    for code, where, spec in _entries(value, "veteran.abilities"):
        effect = _choice(spec.get("effect"), f"{where}.effect", EFFECTS)
        amount = _int(spec.get("value"), f"{where}.value") if effect in VALUED_EFFECTS else 0
        types = spec.get("types")
        abilities[code] = Ability(
            code=code,
            names=_names(spec.get("name"), f"{where}.name", code),
            effect=effect,
            value=amount,
            types=None if types is None else _codes(types, f"{where}.types", catalogue),
        )
    return abilities


def _support(value: Any) -> dict[str, SupportType]:
    types = {}
    for code, where, spec in _entries(value, "fire_support.types"):
        delay = spec.get("delay")
        types[code] = SupportType(
            code=code,
            names=_names(spec.get("name"), f"{where}.name", code),
            callers=_codes(spec.get("callers"), f"{where}.callers", ROLES),
            delay=None if delay is None else _expression(delay, f"{where}.delay"),
            scatter=_choice(spec.get("scatter"), f"{where}.scatter", DIE_SIZES),
            attack_bonus=_int(spec.get("attack_bonus"), f"{where}.attack_bonus"),
            damage=_expression(spec.get("damage"), f"{where}.damage"),
        )
    return types


def _decreasing(value: Any, name: str) -> None:
    table = _mapping(value, name)
    numbers = [_int(v, f"{name}.{k}") for k, v in table.items()]
    if any(a <= b for a, b in zip(numbers, numbers[1:], strict=False)):
        raise RulesetError(f"{name}: the minimum margins must be strictly decreasing, got {dict(table)}")


def _tables(data: Mapping[str, Any]) -> None:
    """The small tables; the scalars are checked through `SETTINGS`, the catalogues by their own functions."""
    dice = data["dice"]
    for key in ("advantage_sources", "disadvantage_sources"):
        sources = dice[key]
        if not isinstance(sources, list) or not all(isinstance(s, str) for s in sources):
            raise RulesetError(f"dice.{key}: expected a list of source names")
    for _code, where, spec in _entries(dice["modifiers"], "dice.modifiers"):
        _int(spec.get("value"), f"{where}.value")
        _codes(spec.get("applies"), f"{where}.applies", FUNCTIONS)
    for code, bonus in _mapping(dice["terrain_cover"], "dice.terrain_cover").items():
        _int(bonus, f"dice.terrain_cover.{code}")
    for _code, where, spec in _entries(dice["tests"], "dice.tests"):
        _choice(spec.get("stat"), f"{where}.stat", ("TT", "M", None))
        _int(spec.get("dc"), f"{where}.dc", null=True)
        _int(spec.get("min_tt"), f"{where}.min_tt", null=True)
    _decreasing(data["attack"]["bands"], "attack.bands")
    morale = data["morale"]
    for reason, dc in _mapping(morale["dc"], "morale.dc").items():
        _int(dc, f"morale.dc.{reason}")
    for reason, state in _mapping(morale["fail_state"], "morale.fail_state").items():
        if reason not in morale["dc"]:
            raise RulesetError(f"morale.fail_state.{reason}: not a reason of morale.dc")
        _choice(state, f"morale.fail_state.{reason}", ("pinned", "retreating"))
    recon = data["recon"]
    _decreasing(recon["levels"], "recon.levels")
    for terrain in TERRAINS:
        _int(recon["region_cover"].get(terrain), f"recon.region_cover.{terrain}")
    compass = data["fire_support"]["compass"]
    if not isinstance(compass, list) or len(compass) not in DIE_SIZES:
        raise RulesetError(
            f"fire_support.compass: expected a list of {', '.join(map(str, DIE_SIZES))} points"
        )
    kp = data["kp"]
    for _code, where, spec in _entries(kp["actions"], "kp.actions"):
        _int(spec.get("kp"), f"{where}.kp", minimum=0)
        _codes(spec.get("pools"), f"{where}.pools", POOL_KINDS)
        for flag_name in ("unit", "company_tactic", "once_per_battle", "any_unit_from_company"):
            _bool(spec.get(flag_name, False), f"{where}.{flag_name}")
        if spec.get("per") is not None and spec["per"] not in kp["actions"]:
            raise RulesetError(f"{where}.per: {spec['per']!r} is not a KP action")
