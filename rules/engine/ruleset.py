"""A campaign's ruleset: its battle system's keys, merged over that system's defaults and checked.

`ruleset_build(overrides)` reads `battle_system` (Iron Fist when absent), hands the other keys to that
system's own builder and returns its frozen ruleset. Every system's ruleset is a `Ruleset`: the unit types
(ruleset data, with their roles) and support ranges the turn pipeline reads, plus the system's own fields. A
bad value raises `RulesetError` naming the key, so a GM's typo never reaches a turn.

Whatever the system, a ruleset is bounded (issue 24: no value a GM can save stops a later turn): no text of
it holds a NUL character (no database column takes one), a unit type's code fits the roster's column and its
names are short texts, and a whole number of a table without bounds of its own stays within ±WHOLE_LIMIT.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import yaml

ROLES = ("ground", "artillery", "air")
# A whole number of a table (a unit's value, a bonus, a range, a price, a stat) without bounds of its own is
# within ±WHOLE_LIMIT: the smallest column a ruleset's number is written to (a company unit's stats), far
# above any table's value, and low enough that no sum of them overflows a turn.
WHOLE_LIMIT = 2**15 - 1
UNIT_CODE_MAX = 8  # a unit type's code: the roster's column (campaign.models.UNIT_TYPE_MAX)
UNIT_NAME_MAX = 100  # a unit type's name in one language: a nation's or a region's, at most


class RulesetError(ValueError):
    """A ruleset value is missing or invalid; the message names the key."""


@dataclass(frozen=True)
class UnitType:
    code: str
    role: str  # ground | artillery | air
    names: Mapping[str, str]
    values: Mapping[str, Any]  # the system's values for the type (Iron Fist: terrain -> combat value)


@dataclass(frozen=True, kw_only=True)
class Ruleset:
    battle_system: str
    unit_types: Mapping[str, UnitType]  # in declaration order: the order of losses and rolls by type
    ranges: Mapping[str, int]  # support and rebase ranges by type
    fighting_roles: tuple[str, ...] = ("ground", "artillery")  # the roles that fight as "ground units"
    # Order kind -> the roles that may take it, when the system's table differs from IRON_FIST §2.1's.
    kind_roles: Mapping[str, tuple[str, ...]] | None = None
    # Any terrain key is a terrain, not only open, rough and city (Sodankäynti §6.4: a map's own terrain).
    any_terrain: bool = False

    def types_with_role(self, *roles: str) -> tuple[str, ...]:
        return tuple(code for code, t in self.unit_types.items() if t.role in roles)

    # Computed once per ruleset (it is frozen): a turn on 20,000 regions read them 69,000 times.
    @cached_property
    def ground_types(self) -> tuple[str, ...]:
        """Types that count as ground units in a battle (Iron Fist: ground and artillery, JV, PA, TY)."""
        return self.types_with_role(*self.fighting_roles)

    @cached_property
    def support_types(self) -> tuple[str, ...]:
        """Types that support battles in range: artillery then air (TY, IV)."""
        return self.types_with_role("artillery") + self.types_with_role("air")

    @cached_property
    def support_rank(self) -> Mapping[str, int]:
        """Each support type's place in `support_types`: the order supporters are listed and roll in."""
        return {code: rank for rank, code in enumerate(self.support_types)}


@cache
def defaults_read(path: Path) -> dict[str, Any]:
    """A system's defaults file (YAML), read once per process; its builder merges overrides into a copy."""
    with path.open(encoding="utf-8") as f:
        return yaml.safe_load(f)


def ruleset_merge(base: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Merge overrides into base key by key; nested mappings merge too, anything else replaces."""
    merged = copy.deepcopy(dict(base))
    for key, value in overrides.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = ruleset_merge(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def ruleset_build(overrides: Mapping[str, Any] | None = None) -> Ruleset:
    """The campaign's battle system's default ruleset with `overrides` merged in, checked."""
    from .systems import DEFAULT_SYSTEM, SystemUnavailable, system_get

    if overrides is None:
        overrides = {}
    if not isinstance(overrides, Mapping):
        raise RulesetError("ruleset: expected a mapping of overrides")
    name = overrides.get("battle_system", DEFAULT_SYSTEM)
    if not isinstance(name, str):
        raise RulesetError(f"battle_system: expected the name of a battle system, got {name!r}")
    try:
        system = system_get(name)
    except SystemUnavailable as error:
        raise RulesetError(f"battle_system: {error}") from None
    _texts_check(overrides)
    ruleset = system.ruleset_build({k: v for k, v in overrides.items() if k != "battle_system"})
    _unit_types_check(ruleset.unit_types)
    return ruleset


def _texts_check(overrides: Mapping[str, Any]) -> None:
    """No key or text anywhere in the overrides holds a NUL character: the campaign stores them as JSON,
    which PostgreSQL refuses with one, so that the import or the save would fail on the database instead."""
    stack: list[tuple[str, Any]] = [("", overrides)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, Mapping):
            for key, item in value.items():
                name = f"{where}.{key}" if where else str(key)
                if isinstance(key, str) and "\x00" in key:
                    raise RulesetError(f"{name!r}: a key cannot hold a NUL character")
                stack.append((name, item))
        elif isinstance(value, list | tuple):
            stack.extend((f"{where}[{i}]", item) for i, item in enumerate(value))
        elif isinstance(value, str) and "\x00" in value:
            raise RulesetError(f"{where}: a text cannot hold a NUL character")


def _unit_types_check(unit_types: Mapping[str, UnitType]) -> None:
    """Every system's unit types: a code the roster can store, names that are short texts, values (a combat
    value by terrain, a stat) within ±WHOLE_LIMIT whichever way its system read them."""
    for code, unit_type in unit_types.items():
        for key, value in unit_type.values.items():
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) > WHOLE_LIMIT:
                raise RulesetError(
                    f"unit_types.{code}: its {key} value must be within ±{WHOLE_LIMIT}, got {_number(value)}"
                )
        if not (0 < len(code) <= UNIT_CODE_MAX and code.isprintable() and code.strip() == code):
            raise RulesetError(
                f"unit_types.{code}: a unit type's code is at most {UNIT_CODE_MAX} characters, "
                "without spaces at its ends"
            )
        for language, name in unit_type.names.items():
            if not (isinstance(name, str) and len(name) <= UNIT_NAME_MAX and name.isprintable()):
                raise RulesetError(
                    f"unit_types.{code}.name.{language}: expected a name of at most {UNIT_NAME_MAX} "
                    f"characters, got {name!r:.40}"
                )


def check_int(
    data: Mapping[str, Any],
    key: Any,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    where: str = "",
) -> int:
    """The whole number at `key`, within [minimum, maximum], each ±WHOLE_LIMIT where not given."""
    value = data.get(key)
    name = f"{where}{key}"
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesetError(f"{name}: expected a whole number, got {value!r:.40}")
    minimum = -WHOLE_LIMIT if minimum is None else minimum
    maximum = WHOLE_LIMIT if maximum is None else maximum
    if value < minimum:
        raise RulesetError(f"{name}: must be at least {minimum}, got {_number(value)}")
    if value > maximum:
        raise RulesetError(f"{name}: must be at most {maximum}, got {_number(value)}")
    return value


def _number(value: int) -> str:
    """A number as a message quotes it: a number of 4,000 digits as its first ones and its length."""
    text = str(value)
    return text if len(text) <= 20 else f"{text[:12]}... ({len(text)} digits)"


def check_mapping(value: Any, name: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise RulesetError(f"{name}: expected a mapping, got {value!r}")
    return value


def check_unknown_keys(overrides: Mapping[str, Any], defaults: Mapping[str, Any], system: str) -> None:
    """A key of another system, or an unknown key, is refused with its name (BATTLE_SYSTEMS.md, Ruleset)."""
    unknown = sorted(set(map(str, overrides)) - set(defaults))
    if unknown:
        raise RulesetError(f"{unknown[0]}: not a ruleset key of the {system} battle system")
