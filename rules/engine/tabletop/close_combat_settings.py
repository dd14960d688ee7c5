"""The close-combat calculator's settings: `ruleset.tabletop.close_combat` (TABLETOP.md Part C).

`close_combat_settings_build(overrides)` merges a campaign's overrides key by key into the defaults and checks
every value; an unknown key or a value of the wrong kind raises `RulesetError` naming the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import Field, asdict, dataclass, field, fields
from typing import Any

from rules.engine.ruleset import RulesetError

PREFIX = "tabletop.close_combat."
# The terms a destroyed or cleared_contacts unit may still give (B3); flank and rear never: they count only
# between two engaged units.
UNIT_TERMS = ("wounds", "overkill", "charge", "ranks", "standards", "battle_standard")


def one_of(*choices: str) -> Any:
    """A setting that is one of `choices`, the first by default (shared by the `tabletop` blocks)."""
    return field(default=choices[0], metadata={"choices": choices})


def at_least(minimum: int, *, default: int) -> Any:
    """A whole-number setting whose lowest value is `minimum`; any other's is 0 (a bonus of 0 switches its
    term off)."""
    return field(default=default, metadata={"minimum": minimum})


@dataclass(frozen=True)
class CloseCombatSettings:
    overkill_cap: int = 3
    charge_bonus: int = 1
    rank_bonus_per_rank: int = 1
    rank_bonus_cap: int = 3
    rank_bonus_counts: str = one_of("full_ranks", "ranks")
    standard_bonus: int = 1
    battle_standard_bonus: int = 1
    battle_standard_counts: str = one_of("once_per_side", "per_bearer")
    flank_bonus: int = 1
    flank_bonus_with_full_rank: int = 2
    rear_bonus: int = 2
    rear_bonus_with_full_rank: int = 3
    full_ranks_for_flank_rear_extra: int = 1
    flank_and_rear_count: str = one_of("engaged", "charged_this_round")
    steadfast: bool = True
    disrupting_full_ranks: int = 2
    destroyed_unit_counts: tuple[str, ...] = ("wounds", "overkill")
    cleared_unit_counts: tuple[str, ...] = ("wounds", "overkill")
    discipline_dice: int = at_least(1, default=2)
    discipline_range: tuple[int, int] = (0, 10)
    full_rank_models: int = at_least(1, default=5)

    def counts(self, state: str) -> frozenset[str]:
        """The terms a unit in `state` contributes to its side's result (B3)."""
        if state == "destroyed":
            return frozenset(self.destroyed_unit_counts)
        if state == "cleared_contacts":
            return frozenset(self.cleared_unit_counts)
        return frozenset(UNIT_TERMS)

    def to_dict(self) -> dict[str, Any]:
        """JSON: the settings a round used, stored with its output (B8)."""
        data = asdict(self)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in data.items()}


DEFAULTS = CloseCombatSettings()
SETTINGS = {f.name: f for f in fields(CloseCombatSettings)}


def close_combat_settings_build(overrides: Mapping[str, Any] | None = None) -> CloseCombatSettings:
    """The defaults with `overrides` (the `tabletop.close_combat` block) merged in, every value checked."""
    if overrides is None:
        return DEFAULTS
    if not isinstance(overrides, Mapping):
        raise RulesetError(f"{PREFIX[:-1]}: expected a mapping of settings")
    values: dict[str, Any] = {}
    for key, value in overrides.items():
        if key not in SETTINGS:
            raise RulesetError(f"{PREFIX}{key}: not a setting")
        values[key] = _checked(str(key), value, SETTINGS[key])
    return CloseCombatSettings(**{**asdict(DEFAULTS), **values})


def setting_checked(prefix: str, key: str, value: Any, setting: Field) -> tuple[bool, Any]:
    """A choice (`one_of`), a yes-or-no or a whole-number setting (`at_least`) of the block `prefix` checked
    against its declaration and its default's kind; (False, None) for a setting of another kind, which its
    block checks itself. Shared by the `tabletop` blocks."""
    name = prefix + key
    choices = setting.metadata.get("choices")
    if choices:
        if value not in choices:
            raise RulesetError(f"{name}: expected one of {', '.join(choices)}, got {value!r}")
        return True, value
    if isinstance(setting.default, bool):
        if not isinstance(value, bool):
            raise RulesetError(f"{name}: expected true or false, got {value!r}")
        return True, value
    if isinstance(setting.default, int):
        return True, _whole(name, value, setting.metadata.get("minimum", 0))
    return False, None


def _checked(key: str, value: Any, setting: Field) -> Any:
    done, checked = setting_checked(PREFIX, key, value, setting)
    if done:
        return checked
    name = PREFIX + key
    if key == "discipline_range":
        if not isinstance(value, list | tuple) or len(value) != 2:
            raise RulesetError(f"{name}: expected [lowest, highest], got {value!r}")
        low, high = (_whole(name, v, None) for v in value)
        if low > high:
            raise RulesetError(f"{name}: the lowest is above the highest, got {value!r}")
        return (low, high)
    if not isinstance(value, list | tuple) or any(t not in UNIT_TERMS for t in value):
        raise RulesetError(f"{name}: expected a list of terms from {', '.join(UNIT_TERMS)}, got {value!r}")
    return tuple(dict.fromkeys(value))


def _whole(name: str, value: Any, minimum: int | None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesetError(f"{name}: expected a whole number, got {value!r}")
    if minimum is not None and value < minimum:
        raise RulesetError(f"{name}: must be at least {minimum}, got {value}")
    return value
