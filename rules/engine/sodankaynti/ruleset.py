"""The Sodankäynti ruleset (SODANKAYNTI.md §15): `defaults.yaml` merged with a campaign's overrides.

`ruleset_build(overrides)` merges key by key (nested mappings too; a list or a scalar replaces; a unit type or
doctrine given as null is dropped), checks every value and returns a frozen `Ruleset`. A bad value raises
`RulesetError` naming the key, so a GM's slip never reaches a turn.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from ..ruleset import Ruleset as BaseRuleset
from ..ruleset import RulesetError, check_int, check_mapping, check_unknown_keys, ruleset_merge
from ..ruleset import UnitType as BaseUnitType

DEFAULTS_FILE = Path(__file__).with_name("defaults.yaml")
DIE = re.compile(r"^(\d*)d(\d+)$")
ORDER_KINDS = ("hold", "move", "rebase", "attack")
SACRIFICE_MODES = ("first", "when_needed", "last", "never")
PRIORITIES = ("value", "count")
DOCTRINE_PARAMS = (
    "retreat_below",
    "retreat_when_helpless",
    "sacrifice",
    "sacrifice_max_die",
    "attack_priority",
)


@dataclass(frozen=True)
class UnitType(BaseUnitType):
    dice: int = 1  # dice on the board per unit (2 for a 2d4 war machine)
    size: int = 6  # sides of each die

    @property
    def die(self) -> str:
        return f"{self.dice}d{self.size}" if self.dice > 1 else f"d{self.size}"


@dataclass(frozen=True)
class Doctrine:
    """A side's standing instructions (§10.1), with where they came from (the report's `from`)."""

    name: str
    retreat_below: int | None
    retreat_when_helpless: bool
    sacrifice: str
    sacrifice_max_die: int
    attack_priority: str
    source: str = "ruleset default"

    def report(self) -> dict[str, Any]:
        return {"name": self.name, "from": self.source} | {p: getattr(self, p) for p in DOCTRINE_PARAMS}


@dataclass(frozen=True, kw_only=True)
class Ruleset(BaseRuleset):
    """The pipeline's ruleset (unit types, roles, ranges: here the rebase range) and this system's keys."""

    orders_by_role: Mapping[str, tuple[str, ...]]
    rebase_range: int
    default_rating: int
    success_on: int
    joint_ratings: str  # best | commander
    fort: Mapping[int, int]  # fort level -> tactics dice
    terrain: Mapping[str, int]  # terrain key -> tactics dice
    home: int
    ambush: int
    surprise: int
    pincer: int
    politics_enabled: bool
    politics_count: str  # winner | net
    removal_order: tuple[int, ...]
    removed_fate: str  # absent | deserted | destroyed
    tactics_count: str
    tie_first: str  # fewer_dice | defender
    max_bonus: int | None
    sacrifice_target_fate: str  # removed | destroyed
    destroy_below: int
    safe_dice: frozenset[int]
    retreat_scope: str  # side | commander
    standoff: str  # hold | board_value
    max_actions: int
    doctrines: Mapping[str, Doctrine]
    default_doctrine: str
    machine_lost_when: str  # all_dice | any_die
    veterans_enabled: bool
    veterans_above: int
    meeting_winner_continues: bool

    def doctrine(self, name: str, params: Mapping[str, Any] | None = None, source: str = "") -> Doctrine:
        """The named preset with `params` put over it (§10.3); DoctrineError says what is wrong."""
        preset = self.doctrines.get(name) if isinstance(name, str) else None
        if preset is None:
            raise DoctrineError("doctrine", f"unknown doctrine {name!r}")
        if params is None:
            params = {}
        if not isinstance(params, Mapping):
            raise DoctrineError("params", f"expected a mapping of parameters, got {params!r}")
        values = preset.report() | dict(params)
        for key in params:
            if key not in DOCTRINE_PARAMS:
                raise DoctrineError(f"params.{key}", "unknown doctrine parameter")
        try:
            return _doctrine(name, values, source or preset.source)
        except RulesetError as error:
            raise DoctrineError("params", str(error)) from None

    def doctrine_of(self, spec: Any, source: str) -> Doctrine:
        """A doctrine given as a name or as {name: NAME, PARAM: VALUE, ...} (a nation's attribute, §5)."""
        if isinstance(spec, Mapping):
            params = {k: v for k, v in spec.items() if k != "name"}
            return self.doctrine(spec.get("name"), params, source)
        return self.doctrine(spec, None, source)


class DoctrineError(ValueError):
    """A doctrine order or attribute that fails §4.1's checks; `field` names the part at fault."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


@cache
def _defaults() -> dict[str, Any]:
    with DEFAULTS_FILE.open(encoding="utf-8") as f:
        return yaml.safe_load(f)


def ruleset_build(overrides: Mapping[str, Any] | None = None) -> Ruleset:
    """The default ruleset with `overrides` merged in, checked; raises RulesetError naming the bad key."""
    if overrides is None:
        overrides = {}
    if not isinstance(overrides, Mapping):
        raise RulesetError("ruleset: expected a mapping of overrides")
    defaults = _defaults()
    check_unknown_keys(overrides, defaults, "sodankaynti")
    data = ruleset_merge(defaults, overrides)
    orders_by_role = _orders_by_role(data)
    unit_types = _unit_types(data, orders_by_role)
    politics = _mapping(data, "politics")
    tactics = _mapping(data, "tactics")
    retreat = _mapping(data, "retreat")
    advantages = _mapping(data, "advantages")
    veterans = _mapping(data, "veterans")
    doctrines = _doctrines(data)
    default_doctrine = data.get("default_doctrine")
    if default_doctrine not in doctrines:
        raise RulesetError(f"default_doctrine: {default_doctrine!r} is not one of the ruleset's doctrines")
    max_bonus = tactics.get("max_bonus")
    if max_bonus is not None:
        max_bonus = _int(tactics, "max_bonus", "tactics.", minimum=1)
    rebase_range = _int(data, "rebase_range", minimum=0)
    return Ruleset(
        battle_system="sodankaynti",
        unit_types=unit_types,
        # §4: rebase within `rebase_range`; nothing supports from range (§2.1), so no other type has a range.
        ranges={code: rebase_range for code, t in unit_types.items() if "rebase" in orders_by_role[t.role]},
        fighting_roles=tuple(orders_by_role),  # §2: every type takes part and counts as a "ground unit"
        any_terrain=True,  # §6.4: a map may define its own terrain keys; a key without dice gives 0
        kind_roles={k: tuple(r for r, kinds in orders_by_role.items() if k in kinds) for k in ORDER_KINDS},
        orders_by_role=orders_by_role,
        rebase_range=rebase_range,
        default_rating=_int(data, "default_rating", minimum=0),
        success_on=_int(data, "success_on", minimum=1, maximum=6),
        joint_ratings=_choice(data, "joint_ratings", ("best", "commander")),
        fort=_dice_table(advantages, "fort", int),
        terrain=_dice_table(advantages, "terrain", str),
        home=_int(advantages, "home", "advantages.", minimum=0),
        ambush=_int(advantages, "ambush", "advantages.", minimum=0),
        surprise=_int(advantages, "surprise", "advantages.", minimum=0),
        pincer=_int(advantages, "pincer", "advantages.", minimum=0),
        politics_enabled=_bool(politics, "enabled", "politics."),
        politics_count=_choice(politics, "count", ("winner", "net"), "politics."),
        removal_order=_sizes(politics, "removal_order", "politics.", distinct=True),
        removed_fate=_choice(politics, "removed_fate", ("absent", "deserted", "destroyed"), "politics."),
        tactics_count=_choice(tactics, "count", ("winner", "net"), "tactics."),
        tie_first=_choice(tactics, "tie_first", ("fewer_dice", "defender"), "tactics."),
        max_bonus=max_bonus,
        sacrifice_target_fate=_choice(data, "sacrifice_target_fate", ("removed", "destroyed")),
        destroy_below=_int(retreat, "destroy_below", "retreat.", minimum=0),
        safe_dice=frozenset(_sizes(retreat, "safe_dice", "retreat.")),
        retreat_scope=_choice(retreat, "scope", ("side", "commander"), "retreat."),
        standoff=_choice(data, "standoff", ("hold", "board_value")),
        max_actions=_int(data, "max_actions", minimum=0),
        doctrines=doctrines,
        default_doctrine=default_doctrine,
        machine_lost_when=_choice(data, "machine_lost_when", ("all_dice", "any_die")),
        veterans_enabled=_bool(veterans, "enabled", "veterans."),
        veterans_above=_int(veterans, "above", "veterans.", minimum=0),
        meeting_winner_continues=_bool(data, "meeting_winner_continues"),
    )


def _mapping(data: Mapping[str, Any], key: str, where: str = "") -> Mapping[str, Any]:
    return check_mapping(data.get(key), f"{where}{key}")


def _int(
    data: Mapping[str, Any],
    key: Any,
    where: str = "",
    *,
    minimum: int | None = None,
    maximum: int | None = None,
) -> int:
    return check_int(data, key, minimum=minimum, maximum=maximum, where=where)


def _bool(data: Mapping[str, Any], key: str, where: str = "") -> bool:
    value = data.get(key)
    if not isinstance(value, bool):
        raise RulesetError(f"{where}{key}: expected true or false, got {value!r}")
    return value


def _choice(data: Mapping[str, Any], key: str, options: tuple[str, ...], where: str = "") -> str:
    value = data.get(key)
    if value not in options:
        raise RulesetError(f"{where}{key}: expected one of {', '.join(options)}, got {value!r}")
    return value


def _sizes(data: Mapping[str, Any], key: str, where: str, *, distinct: bool = False) -> tuple[int, ...]:
    value = data.get(key)
    if not isinstance(value, list):
        raise RulesetError(f"{where}{key}: expected a list of die sizes, got {value!r}")
    sizes = tuple(_int(dict(enumerate(value)), i, f"{where}{key}.", minimum=1) for i in range(len(value)))
    if distinct and len(set(sizes)) != len(sizes):
        raise RulesetError(f"{where}{key}: a die size is listed twice")
    return sizes


def _dice_table(advantages: Mapping[str, Any], key: str, kind: type) -> dict[Any, int]:
    table = _mapping(advantages, key, "advantages.")
    result = {}
    for name in table:
        if kind is int and (not isinstance(name, int) or isinstance(name, bool) or name < 1):
            raise RulesetError(f"advantages.{key}.{name}: a fort level is a whole number of 1 or more")
        result[kind(name)] = _int(table, name, f"advantages.{key}.", minimum=0)
    return result


def _orders_by_role(data: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    table = _mapping(data, "orders_by_role")
    roles = {}
    for role, kinds in table.items():
        if not isinstance(kinds, list) or any(k not in ORDER_KINDS for k in kinds):
            raise RulesetError(
                f"orders_by_role.{role}: expected a list of {', '.join(ORDER_KINDS)}, got {kinds!r}"
            )
        roles[str(role)] = tuple(kinds)
    return roles


def _unit_types(data: Mapping[str, Any], orders_by_role: Mapping[str, Any]) -> dict[str, UnitType]:
    declared = _mapping(data, "unit_types")
    unit_types = {}
    for code, spec in declared.items():
        if spec is None:  # a campaign drops a type of the defaults (§3.1)
            continue
        where = f"unit_types.{code}"
        if not isinstance(spec, Mapping):
            raise RulesetError(f"{where}: expected a mapping, got {spec!r}")
        die = spec.get("die")
        match = DIE.match(die.strip()) if isinstance(die, str) else None
        count = int(match.group(1) or 1) if match else 0
        if not match or count < 1 or int(match.group(2)) < 1:
            raise RulesetError(
                f"{where}.die: expected dM or NdM with whole numbers of 1 or more, got {die!r}"
            )
        role = spec.get("role")
        if role not in orders_by_role:
            raise RulesetError(f"{where}.role: {role!r} has no entry in orders_by_role")
        names = {lang: str(spec[lang]) for lang in ("fi", "en") if spec.get(lang) is not None}
        unit_types[str(code)] = UnitType(
            str(code), str(role), names, {"die": die.strip()}, dice=count, size=int(match.group(2))
        )
    if not unit_types:
        raise RulesetError("unit_types: the ruleset needs at least one unit type")
    return unit_types


def _doctrines(data: Mapping[str, Any]) -> dict[str, Doctrine]:
    table = _mapping(data, "doctrines")
    doctrines = {}
    for name, params in table.items():
        if params is None:
            continue
        where = f"doctrines.{name}"
        if not isinstance(params, Mapping):
            raise RulesetError(f"{where}: expected a mapping of parameters, got {params!r}")
        for key in params:
            if key not in DOCTRINE_PARAMS:
                raise RulesetError(f"{where}.{key}: unknown doctrine parameter")
        for key in DOCTRINE_PARAMS:
            if key not in params:
                raise RulesetError(f"{where}.{key}: missing")
        doctrines[str(name)] = _doctrine(str(name), params, "ruleset default", where=f"{where}.")
    if not doctrines:
        raise RulesetError("doctrines: the ruleset needs at least one doctrine")
    return doctrines


def _doctrine(name: str, params: Mapping[str, Any], source: str, where: str = "") -> Doctrine:
    """One doctrine's parameters checked against §10.1."""
    below = params.get("retreat_below")
    if below is not None:
        below = _int(params, "retreat_below", where, minimum=0, maximum=1000)
    return Doctrine(
        name=name,
        retreat_below=below,
        retreat_when_helpless=_bool(params, "retreat_when_helpless", where),
        sacrifice=_choice(params, "sacrifice", SACRIFICE_MODES, where),
        sacrifice_max_die=_int(params, "sacrifice_max_die", where, minimum=1),
        attack_priority=_choice(params, "attack_priority", PRIORITIES, where),
        source=source,
    )
