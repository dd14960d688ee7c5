"""Iron Fist's ruleset: its defaults from `ruleset.yaml` beside this file, merged with a campaign's overrides.

`iron_fist_ruleset_build(overrides)` merges key by key (nested mappings too), checks every value and returns a
frozen `IronFistRuleset`; a bad value raises `RulesetError` naming the key.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from ..dice_expression import DiceExpression
from ..messages import gettext_noop
from ..ruleset import (
    ROLES,
    Ruleset,
    RulesetError,
    UnitType,
    check_int,
    check_mapping,
    check_unknown_keys,
    defaults_read,
    ruleset_merge,
)
from ..settings import settings_check, settings_declare, text, whole
from ..state import Terrain, Weather

DEFAULTS_FILE = Path(__file__).with_name("ruleset.yaml")
DIE_PATTERN = re.compile(r"^\s*(\d+)\s*d\s*(\d+)\s*(?:\+\s*(\d+))?\s*$")


@dataclass(frozen=True)
class LossRow:
    low: int
    high: int | None
    loser: int
    winner: int

    def covers(self, difference: int) -> bool:
        return difference >= self.low and (self.high is None or difference <= self.high)


@dataclass(frozen=True, kw_only=True)
class IronFistRuleset(Ruleset):
    weather_modifiers: Mapping[str, Mapping[str, int]]
    fort_bonus_per_level: int
    home_defence_bonus: int
    pincer_bonus: tuple[tuple[int, int], ...]  # (origins, bonus), ascending
    kta_die: DiceExpression | None
    conquest_threshold: int
    loss_table: tuple[LossRow, ...]
    superiority_ratio: int
    support_loss_won_or_draw: int
    support_loss_lost: int

    def unit_value(self, unit_type: str, terrain: str, weather: str) -> int:
        """The type's combat value in the terrain, with the weather's modifier, never below 0 (§4).

        Remembered per (type, terrain, weather): every battle asks for a few, and there are few pairs."""
        key = (unit_type, terrain, weather)
        value = self._unit_values.get(key)
        if value is None:
            value = self.unit_types[unit_type].values[terrain] + self.weather_modifiers[weather].get(
                unit_type, 0
            )
            value = self._unit_values[key] = max(0, value)
        return value

    @cached_property
    def _unit_values(self) -> dict[tuple[str, str, str], int]:
        return {}

    def pincer(self, origins: int) -> int:
        bonus = 0
        for needed, value in self.pincer_bonus:
            if origins >= needed:
                bonus = value
        return bonus

    def loss_row(self, difference: int) -> LossRow:
        """The row covering `difference`, remembered per difference as `unit_value` is."""
        row = self._loss_rows.get(difference)
        if row is None:
            for candidate in self.loss_table:
                if candidate.covers(difference):
                    row = self._loss_rows[difference] = candidate
                    break
            else:
                raise RulesetError(f"loss_table: no row covers a difference of {difference}")
        return row

    @cached_property
    def _loss_rows(self) -> dict[int, LossRow]:
        return {}


def _defaults() -> dict[str, Any]:
    return defaults_read(DEFAULTS_FILE)


# The scalar settings (the tables, unit_types to loss_table, are checked whole below). The maxima are ours,
# where IRON_FIST.md names none: far above any campaign's, low enough that no value makes a turn overflow.
SETTINGS = settings_declare(
    _defaults(),
    whole(
        "conquest_threshold",
        gettext_noop("A win by more than this many KTA points takes the region."),
        0,
        1000,
        section="§5",
    ),
    whole(
        "fort_bonus_per_level",
        gettext_noop("KTA points a defender gains for each level of its region's fort."),
        0,
        100,
        section="§4",
    ),
    whole(
        "home_defence_bonus",
        gettext_noop("KTA points a nation gains defending one of its home regions."),
        0,
        100,
        section="§4",
    ),
    text(
        "kta_die",
        gettext_noop(
            "Each side's fortune-of-war roll, added to its KTA: NdM or NdM+K (like 1d6); empty for none."
        ),
        20,
        nullable=True,
        section="§4",
    ),
    whole(
        "superiority_ratio",
        gettext_noop(
            "A winner with at least this many times the enemy's units of a ground type rounds that type's "
            "loss down."
        ),
        1,
        100,
        section="§5.2",
    ),
    whole(
        "support_loss.won_or_draw",
        gettext_noop("Chance in percent that a supporting unit is lost when its side wins or draws."),
        0,
        100,
        section="§8",
    ),
    whole(
        "support_loss.lost",
        gettext_noop("Chance in percent that a supporting unit is lost when its side loses."),
        0,
        100,
        section="§8",
    ),
)


def iron_fist_ruleset_build(overrides: Mapping[str, Any]) -> IronFistRuleset:
    """The default ruleset with `overrides` merged in, checked; raises RulesetError naming the bad key."""
    defaults = _defaults()
    check_unknown_keys(overrides, defaults, "iron_fist")
    data = ruleset_merge(defaults, overrides)
    unit_types = _unit_types(data)
    check_mapping(data.get("support_loss"), "support_loss")
    value = settings_check(data, SETTINGS)
    return IronFistRuleset(
        battle_system="iron_fist",
        unit_types=unit_types,
        weather_modifiers=_weather_modifiers(data.get("weather_modifiers"), unit_types),
        fort_bonus_per_level=value["fort_bonus_per_level"],
        home_defence_bonus=value["home_defence_bonus"],
        pincer_bonus=_pincer(data.get("pincer_bonus")),
        kta_die=_die(value["kta_die"]),
        ranges=_ranges(data.get("ranges"), unit_types),
        conquest_threshold=value["conquest_threshold"],
        loss_table=_loss_table(data.get("loss_table")),
        superiority_ratio=value["superiority_ratio"],
        support_loss_won_or_draw=value["support_loss.won_or_draw"],
        support_loss_lost=value["support_loss.lost"],
    )


def _unit_types(data: Mapping[str, Any]) -> dict[str, UnitType]:
    declared = check_mapping(data.get("unit_types"), "unit_types")
    values = check_mapping(data.get("unit_values"), "unit_values")
    unit_types = {}
    for code, spec in declared.items():
        spec = check_mapping(spec, f"unit_types.{code}")
        role = spec.get("role")
        if role not in ROLES:
            raise RulesetError(f"unit_types.{code}.role: expected one of {', '.join(ROLES)}, got {role!r}")
        names = check_mapping(spec.get("name", {code: code}), f"unit_types.{code}.name")
        value = values.get(code)
        if isinstance(value, int) and not isinstance(value, bool):
            by_terrain = {terrain.value: value for terrain in Terrain}
        elif isinstance(value, Mapping):
            by_terrain = {t.value: check_int(value, t.value, where=f"unit_values.{code}.") for t in Terrain}
        else:
            raise RulesetError(f"unit_values.{code}: expected a number or one per terrain, got {value!r}")
        unit_types[str(code)] = UnitType(str(code), role, dict(names), by_terrain)
    for code in values:
        if code not in unit_types:
            raise RulesetError(f"unit_values.{code}: not a unit type of the ruleset")
    if not any(t.role == "ground" for t in unit_types.values()):
        raise RulesetError("unit_types: at least one type must have the role ground")
    return unit_types


def _weather_modifiers(value: Any, unit_types: Mapping[str, UnitType]) -> dict[str, dict[str, int]]:
    value = check_mapping(value, "weather_modifiers")
    modifiers = {}
    for weather in Weather:
        per_type = check_mapping(value.get(weather.value, {}) or {}, f"weather_modifiers.{weather.value}")
        for code in per_type:
            if code not in unit_types:
                raise RulesetError(
                    f"weather_modifiers.{weather.value}.{code}: not a unit type of the ruleset"
                )
        modifiers[weather.value] = {
            code: check_int(per_type, code, where=f"weather_modifiers.{weather.value}.") for code in per_type
        }
    for key in value:
        if key not in modifiers:
            raise RulesetError(f"weather_modifiers.{key}: unknown weather")
    return modifiers


def _pincer(value: Any) -> tuple[tuple[int, int], ...]:
    value = check_mapping(value, "pincer_bonus")
    rows = []
    for origins in value:
        try:
            needed = int(origins)
        except (TypeError, ValueError):
            raise RulesetError(
                f"pincer_bonus.{origins}: the key must be a number of origin regions"
            ) from None
        if needed < 2:
            raise RulesetError(f"pincer_bonus.{origins}: a pincer needs at least 2 origin regions")
        rows.append((needed, check_int(value, origins, where="pincer_bonus.")))
    return tuple(sorted(rows))


def _die(value: Any) -> DiceExpression | None:
    if value is None or value == "":  # an empty form field, as null: no roll
        return None
    match = DIE_PATTERN.match(value) if isinstance(value, str) else None
    # At most 100 dice of at most 1000 sides: a roll a battle report can show.
    if not match or not (1 <= int(match.group(1)) <= 100) or not (1 <= int(match.group(2)) <= 1000):
        raise RulesetError(f"kta_die: expected NdM or NdM+K (like 1d6) or null, got {value!r}")
    return DiceExpression(int(match.group(1)), int(match.group(2)), int(match.group(3) or 0))


def _ranges(value: Any, unit_types: Mapping[str, UnitType]) -> dict[str, int]:
    value = check_mapping(value, "ranges")
    ranges = {}
    for code, unit_type in unit_types.items():
        if unit_type.role == "ground":
            if code in value:
                raise RulesetError(f"ranges.{code}: only artillery and air types have a support range")
            continue
        if code not in value:
            raise RulesetError(f"ranges.{code}: missing for the {unit_type.role} type {code}")
        ranges[code] = check_int(value, code, minimum=0, where="ranges.")
    for code in value:
        if code not in unit_types:
            raise RulesetError(f"ranges.{code}: not a unit type of the ruleset")
    return ranges


def _loss_table(value: Any) -> tuple[LossRow, ...]:
    if not isinstance(value, list) or not value:
        raise RulesetError(f"loss_table: expected a list of rows, got {value!r}")
    rows = []
    expected_low = 0
    for i, raw in enumerate(value):
        name = f"loss_table[{i}]"
        if not isinstance(raw, list | tuple) or len(raw) != 4:
            raise RulesetError(f"{name}: expected [min, max or null, loser %, winner %], got {raw!r}")
        low, high, loser, winner = raw
        fields = {"min": low, "loser %": loser, "winner %": winner}
        if high is not None:
            fields["max"] = high
        for label, number in fields.items():
            if not isinstance(number, int) or isinstance(number, bool) or number < 0:
                raise RulesetError(f"{name}: {label} must be a whole number of 0 or more, got {number!r}")
        if low != expected_low:
            raise RulesetError(
                f"{name}: rows must run on without gaps; expected min {expected_low}, got {low}"
            )
        if high is not None and high < low:
            raise RulesetError(f"{name}: max {high} is below min {low}")
        if loser > 100 or winner > 100:
            raise RulesetError(f"{name}: a percentage cannot exceed 100")
        rows.append(LossRow(low, high, loser, winner))
        if high is None:
            if i != len(value) - 1:
                raise RulesetError(f"{name}: only the last row may be open-ended (max null)")
        else:
            expected_low = high + 1
    if rows[-1].high is not None:
        raise RulesetError("loss_table: the last row must be open-ended (max null)")
    return tuple(rows)
