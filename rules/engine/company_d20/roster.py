"""The roster (COMPANY.md §3): a unit's record, and the values derived from it (§3.3), computed, never
stored."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .expressions import expression_parse
from .problems import whole
from .ruleset import ROLES, CompanyRuleset

ACTIVE, DESTROYED = "active", "destroyed"
STATES = ("pinned", "retreating", "hidden")  # §3.4: what a result may record; damaged is derived
UNIT_FIELDS = (
    "id",
    "nation",
    "name",
    "type",
    "group",
    "role",
    "tk_max",
    "tk",
    "m",
    "k",
    "xp",
    "l",
    "s",
    "h",
    "ti",
    "type_abilities",
    "abilities",
    "region",
    "status",
)


@dataclass(frozen=True)
class Unit:
    id: int
    type: str
    name: str
    nation: str | None
    group: int
    role: str | None  # company_commander | platoon_leader | None
    tk_max: int
    tk: int
    m: int
    k: int
    xp: int
    l: int  # noqa: E741 - the game's own letter for movement
    s: int
    h: int
    ti: str
    type_abilities: tuple[str, ...]
    abilities: tuple[str, ...]  # veteran abilities, in the order chosen
    region: str | None
    status: str = ACTIVE
    fell: Mapping[str, Any] | None = None  # {"turn", "battle" or "cause"} once destroyed

    @property
    def active(self) -> bool:
        return self.status == ACTIVE

    def to_dict(self) -> dict[str, Any]:
        data = {name: getattr(self, name) for name in UNIT_FIELDS}
        data["type_abilities"], data["abilities"] = list(self.type_abilities), list(self.abilities)
        if self.fell is not None:
            data["fell"] = dict(self.fell)
        return data


def unit_create(
    ruleset: CompanyRuleset,
    *,
    id: int,
    type: str,
    name: str,
    nation: str | None = None,
    group: int = 0,
    region: str | None = None,
    battle_groups: bool = False,
) -> Unit:
    """A new unit with its type's stats, copied now (§3.1): a later catalogue change affects only new
    units."""
    kind = ruleset.catalogue[type]
    return Unit(
        id=id,
        type=type,
        name=name,
        nation=nation,
        group=group,
        role=None if battle_groups else kind.role,  # §3.5: a battle-groups nation uses no roles
        tk_max=kind.stats["tk_max"],
        tk=kind.stats["tk_max"],
        m=kind.stats["m"],
        k=kind.stats["k"],
        xp=0,
        l=kind.stats["l"],
        s=kind.stats["s"],
        h=kind.stats["h"],
        ti=kind.ti,
        type_abilities=kind.type_abilities,
        abilities=(),
        region=region,
    )


class UnitDataError(ValueError):
    """A unit record that cannot be read; the message names the field."""


def unit_from_data(data: Mapping[str, Any], ruleset: CompanyRuleset, *, battle_groups: bool = False) -> Unit:
    """A unit from a stored or written record; a stat left out comes from its type
    (cases/company_d20/README.md)."""
    if not isinstance(data, Mapping):
        raise UnitDataError(f"a unit must be a mapping, got {data!r}")
    unit_id, unit_type = data.get("id"), data.get("type")
    if not whole(unit_id):
        raise UnitDataError(f"unit id: expected a whole number, got {unit_id!r}")
    if unit_type not in ruleset.catalogue:
        raise UnitDataError(f"unit {unit_id}: type {unit_type!r} is not in the catalogue")
    base = unit_create(
        ruleset,
        id=unit_id,
        type=unit_type,
        name=str(data.get("name", f"{unit_type} {unit_id}")),
        battle_groups=battle_groups,
    )
    values: dict[str, Any] = {}
    for name in UNIT_FIELDS:
        if name in data and name not in ("id", "name", "type"):
            values[name] = data[name]
    if "tk_max" in values and "tk" not in values:
        values["tk"] = values["tk_max"]
    for name in ("type_abilities", "abilities"):
        if name in values:
            values[name] = tuple(values[name] or ())
    if battle_groups:
        values["role"] = None
    unit = replace(base, **values, fell=data.get("fell"))
    if unit.status == DESTROYED and "tk" not in data:
        unit = replace(unit, tk=0)
    return unit


NAME_LIMIT = 40


def record_fault(unit: Unit, ruleset: CompanyRuleset) -> tuple[str, str] | None:
    """The first field of the record outside §3.1, with why (a code of `problems.EDIT_WHY`); None when the
    record is sound. The nation-level constraints (owned region, unique name, one role holder, §3.5) are the
    Kasarmi's."""
    for key in ("id", "group", "tk_max", "tk", "m", "k", "xp", "l", "s", "h"):
        if not whole(getattr(unit, key)):
            return key, "whole"
    if unit.type not in ruleset.catalogue:
        return "type", "type"
    if unit.status not in (ACTIVE, DESTROYED):
        return "status", "status"
    low = 1 if unit.active else 0
    if unit.tk_max < 1 or not low <= unit.tk <= unit.tk_max:
        return "tk", "tk"
    if unit.xp < 0 or unit.group < 0:
        return ("xp" if unit.xp < 0 else "group"), "negative"
    if expression_parse(unit.ti) is None:
        return "ti", "ti"
    if not all(a in ruleset.abilities for a in unit.abilities) or len(set(unit.abilities)) != len(
        unit.abilities
    ):
        return "abilities", "abilities"
    if not isinstance(unit.name, str) or not 1 <= len(unit.name.strip()) <= NAME_LIMIT:
        return "name", "name"
    if unit.role not in (None, *ROLES):
        return "role", "role"
    return None


def unit_tt(unit: Unit, ruleset: CompanyRuleset) -> int:
    """TT = K + min(⌊XP / tt_step⌋, tt_bonus_max) (§3.3, reading of ¶28 and ¶30)."""
    bonus = unit.xp // ruleset.get("xp.tt_step")
    cap = ruleset.get("xp.tt_bonus_max")
    return unit.k + (bonus if cap is None else min(bonus, cap))


def tk_damaged(tk: int, tk_max: int) -> bool:
    """Strictly below half its maximum (§3.3, ¶31-32): 5 of 10 is not damaged, 4 of 10 is."""
    return 0 < tk and 2 * tk < tk_max


def unit_damaged(unit: Unit) -> bool:
    return unit.active and tk_damaged(unit.tk, unit.tk_max)


def veteran_slots(xp: int, ruleset: CompanyRuleset) -> int:
    slots = xp // ruleset.get("veteran.xp_step")
    cap = ruleset.get("veteran.max_abilities")
    return slots if cap is None else min(slots, cap)


def unit_free_slots(unit: Unit, ruleset: CompanyRuleset) -> int:
    """Never below 0: a unit holding more than its slots (the GM lowered the cap) keeps them all (§3.3)."""
    return max(0, veteran_slots(unit.xp, ruleset) - len(unit.abilities))


def unit_l_effective(unit: Unit) -> float | int:
    """The card's movement: halved, exactly, when damaged (¶32)."""
    return unit.l / 2 if unit_damaged(unit) else unit.l


def unit_view(unit: Unit, ruleset: CompanyRuleset) -> dict[str, Any]:
    """The unit card: the record and every derived value (§3.3, §11.2)."""
    step = ruleset.get("veteran.xp_step")
    return {
        **unit.to_dict(),
        "tt": unit_tt(unit, ruleset),
        "damaged": unit_damaged(unit),
        "veteran_slots": veteran_slots(unit.xp, ruleset),
        "free_slots": unit_free_slots(unit, ruleset),
        "l_effective": unit_l_effective(unit),
        "next_tt_xp": (unit.xp // ruleset.get("xp.tt_step") + 1) * ruleset.get("xp.tt_step"),
        "next_slot_xp": (unit.xp // step + 1) * step,
    }
