"""Between battles: the Kasarmi (COMPANY.md §7). Each action is a pure function of one nation's `Company`
and returns `Done` (the new company, the unit acted on, the roster events to log) or the `Problem` that
refuses it.

Checks run in the order of the spec; §7.2-7.5 are refused with `not_orders_phase` outside the orders phase,
before anything else, the GM's too. GM edits (§7.6) are not bound by the phase and each needs a reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from math import ceil
from typing import Any

from .events import event
from .problems import Problem, edit_invalid, whole
from .roster import (
    ACTIVE,
    DESTROYED,
    NAME_LIMIT,
    UNIT_FIELDS,
    Unit,
    record_fault,
    unit_create,
    unit_free_slots,
    veteran_slots,
)
from .ruleset import CompanyRuleset
from .settings import SETTINGS

# A nation's own size is bounded as the ruleset's is (§12).
COMPANY_SIZE = next(s for s in SETTINGS if s.key == "company_size")


@dataclass(frozen=True)
class Company:
    nation: str
    tp: int
    units: Mapping[int, Unit]  # the nation's units, active and fallen
    owned: tuple[str, ...]  # regions the nation owns
    home: tuple[str, ...]  # its home regions
    company_size: int
    next_id: int  # unit ids are campaign-wide: the caller gives the next free one
    style: str = "company"  # company | battle_groups (§3.5)
    orders_phase: bool = True

    def active(self) -> list[Unit]:
        return sorted((u for u in self.units.values() if u.active), key=lambda u: u.id)


@dataclass(frozen=True)
class Done:
    company: Company
    unit: int | None
    events: tuple[Mapping[str, Any], ...] = field(
        default_factory=tuple
    )  # RosterEvent rows (§7.7), without actor/time


def _own_active(company: Company, unit_id: Any) -> Unit | Problem:
    unit = company.units.get(unit_id) if whole(unit_id) else None
    if unit is None or unit.nation not in (None, company.nation):
        return Problem("not_your_unit", unit_id)
    if not unit.active:
        return Problem("unit_not_active", unit_id, {"name": unit.name, "fell": dict(unit.fell or {})})
    return unit


def _phase(company: Company) -> Problem | None:
    return None if company.orders_phase else Problem("not_orders_phase")


def repair(company: Company, ruleset: CompanyRuleset, *, unit: Any = None, tp: Any = None) -> Done | Problem:
    """§7.2: 1 TP restores `tp.tk_per_tp` lost TK; only whole TP, and none that would restore nothing."""
    problem = _phase(company)
    found = problem or _own_active(company, unit)
    if isinstance(found, Problem):
        return found
    if not whole(tp) or tp < 1:
        return Problem("tp_not_positive", found.id, {"tp": tp})
    missing = found.tk_max - found.tk
    if missing == 0:
        return Problem("nothing_to_repair", found.id, {"name": found.name})
    per_tp = ruleset.get("tp.tk_per_tp")
    needed = ceil(missing / per_tp)
    if tp > needed:
        return Problem(
            "repair_wasted", found.id, {"name": found.name, "missing": missing, "needed": needed, "tp": tp}
        )
    if tp > company.tp:
        return Problem("tp_insufficient", found.id, {"cost": tp, "balance": company.tp})
    repaired = replace(found, tk=found.tk + min(tp * per_tp, missing))
    events = (
        event("tk_repaired", company.nation, found.id, before=found.tk, after=repaired.tk),
        event("tp_spent", company.nation, found.id, tp_delta=-tp),
    )
    return Done(_with(company, repaired, tp=company.tp - tp), found.id, events)


def _with(company: Company, unit: Unit, **changes: Any) -> Company:
    return replace(company, units={**company.units, unit.id: unit}, **changes)


def _name_problem(company: Company, name: Any, *, except_id: int | None = None) -> Problem | None:
    name = name.strip() if isinstance(name, str) else ""
    if not name:
        return Problem("name_required", "name")
    if len(name) > NAME_LIMIT:
        return Problem("name_too_long", "name", {"limit": NAME_LIMIT})
    if any(u.name.casefold() == name.casefold() for u in company.active() if u.id != except_id):
        return Problem("name_taken", "name", {"name": name})
    return None


def _placement_allowed(company: Company, region: Any, ruleset: CompanyRuleset) -> bool:
    if region not in company.owned:
        return False
    if ruleset.get("purchase_placement") == "any_owned":
        return True
    held_homes = [r for r in company.home if r in company.owned]
    return region in held_homes or not held_homes


def buy(
    company: Company,
    ruleset: CompanyRuleset,
    *,
    type: Any = None,
    name: Any = None,
    group: Any = None,
    region: Any = None,
) -> Done | Problem:
    """§7.3: a new unit of the type, at full TK, XP 0, in the group; within `company_size`, paid in TP."""
    problem = _phase(company)
    if problem:
        return problem
    kind = ruleset.catalogue.get(type) if isinstance(type, str) else None
    if kind is None:
        return Problem("type_unknown", type)
    if not kind.purchasable:
        return Problem("type_not_purchasable", type)
    company_style = company.style == "company"
    role = kind.role if company_style else None
    if (
        not whole(group)
        or group < 0
        or (role == "company_commander" and group != 0)
        or (role == "platoon_leader" and group == 0)
    ):
        return Problem("group_invalid", "group", {"type": type, "group": group})
    if role is not None and any(
        u.role == role and (role == "company_commander" or u.group == group) for u in company.active()
    ):
        return Problem("role_taken", "role", {"role": role, "group": group})
    problem = _name_problem(company, name)
    if problem:
        return problem
    if not _placement_allowed(company, region, ruleset):
        return Problem("region_not_allowed", region)
    if len(company.active()) >= company.company_size:
        return Problem("company_full", None, {"size": company.company_size})
    if kind.price > company.tp:
        return Problem("tp_insufficient", None, {"cost": kind.price, "balance": company.tp})
    unit = unit_create(
        ruleset,
        id=company.next_id,
        type=type,
        name=name.strip(),
        nation=company.nation,
        group=group,
        region=region,
        battle_groups=not company_style,
    )
    events = (
        event("unit_purchased", company.nation, unit.id, after=unit.to_dict()),
        event("tp_spent", company.nation, unit.id, tp_delta=-kind.price),
    )
    return Done(
        _with(company, unit, tp=company.tp - kind.price, next_id=company.next_id + 1), unit.id, events
    )


def choose_ability(
    company: Company, ruleset: CompanyRuleset, *, unit: Any = None, ability: Any = None
) -> Done | Problem:
    """§7.4: free and permanent; one per free veteran slot (one per full `veteran.xp_step` XP)."""
    problem = _phase(company)
    found = problem or _own_active(company, unit)
    if isinstance(found, Problem):
        return found
    spec = ruleset.abilities.get(ability) if isinstance(ability, str) else None
    params = {"name": found.name, "ability": ability, "type": found.type}
    if spec is None:
        return Problem("ability_unknown", ability)
    if ability in found.abilities:
        return Problem("ability_held", found.id, params)
    if spec.types is not None and found.type not in spec.types:
        return Problem("ability_not_for_type", found.id, params)
    if unit_free_slots(found, ruleset) < 1:
        step = ruleset.get("veteran.xp_step")
        next_xp = (len(found.abilities) + 1) * step
        return Problem(
            "no_free_slot",
            found.id,
            {**params, "xp": found.xp, "next_xp": next_xp, "slots": veteran_slots(found.xp, ruleset)},
        )
    chosen = replace(found, abilities=found.abilities + (ability,))
    return Done(
        _with(company, chosen),
        found.id,
        (
            event(
                "ability_chosen",
                company.nation,
                found.id,
                before=list(found.abilities),
                after=list(chosen.abilities),
            ),
        ),
    )


def appoint_commander(company: Company, ruleset: CompanyRuleset, *, unit: Any = None) -> Done | Problem:
    """§7.5: with no active commander, a platoon leader becomes company commander in group 0 (¶18)."""
    problem = _phase(company)
    if problem:
        return problem
    if company.style != "company":
        return Problem("not_company_style", company.nation)
    found = _own_active(company, unit)
    if isinstance(found, Problem):
        return found
    if any(u.role == "company_commander" for u in company.active()):
        return Problem("commander_exists", found.id)
    if found.role != "platoon_leader":
        return Problem("not_a_platoon_leader", found.id)
    appointed = replace(found, role="company_commander", group=0)
    changed = event(
        "role_changed",
        company.nation,
        found.id,
        before={"role": found.role, "group": found.group},
        after={"role": appointed.role, "group": 0},
    )
    return Done(_with(company, appointed), found.id, (changed,))


def _reason(reason: Any) -> Problem | None:
    return None if isinstance(reason, str) and reason.strip() else Problem("reason_required", "reason")


def adjust_tp(
    company: Company, ruleset: CompanyRuleset, *, delta: Any = None, reason: Any = None, seen: Any = None
) -> Done | Problem:
    """§7.6: the GM's balance adjustment; never below 0. `seen`, when given, is the balance the GM's form
    showed: a balance changed since is refused (`tp_stale`), so the GM decides again on what is there."""
    problem = _reason(reason)
    if problem:
        return problem
    if seen is not None and seen != company.tp:
        return Problem("tp_stale", "delta", {"seen": seen, "now": company.tp})
    if not whole(delta):
        return Problem("not_an_integer", "delta", {"field": "delta", "value": delta})
    if company.tp + delta < 0:
        return Problem("tp_negative", "delta", {"balance": company.tp + delta})
    adjusted = event(
        "tp_adjusted",
        company.nation,
        before=company.tp,
        after=company.tp + delta,
        tp_delta=delta,
        reason=reason,
    )
    return Done(replace(company, tp=company.tp + delta), None, (adjusted,))


def gm_company_size(
    company: Company, ruleset: CompanyRuleset, *, size: Any = None, reason: Any = None
) -> Done | Problem:
    """§7.3, §12: the GM sets the nation's `company_size` (a whole number within the setting's range), or
    clears it with no size: the ruleset's again. A size below the active units is allowed; buying is refused
    (`company_full`) until fewer are active, and the entry's cause says so (`over_size`)."""
    problem = _reason(reason)
    if problem:
        return problem
    if size is not None and (not whole(size) or not COMPANY_SIZE.minimum <= size <= COMPANY_SIZE.maximum):
        return Problem("company_size_invalid", "size", {"value": size})
    after = ruleset.get("company_size") if size is None else size
    active = len(company.active())
    changed = event(
        "company_size_set",
        company.nation,
        before=company.company_size,
        after=after,
        cause="over_size" if active > after else ("ruleset" if size is None else None),
        reason=reason,
    )
    return Done(replace(company, company_size=after), None, (changed,))


EDITABLE = tuple(f for f in UNIT_FIELDS if f not in ("id", "nation", "type_abilities", "status"))


def gm_edit(
    company: Company,
    ruleset: CompanyRuleset,
    *,
    unit: Any = None,
    changes: Mapping[str, Any] | None = None,
    reason: Any = None,
    seen: Mapping[str, Any] | None = None,
) -> Done | Problem:
    """§7.6: the GM edits any field of an active unit within §3.1 and §3.5; `edit_invalid` names the field.
    `seen`, when given, holds each changed field's value as the GM's form showed it: a field changed since
    (by a battle, a repair, another edit) is refused (`edit_stale`) rather than overwritten unseen."""
    problem = _reason(reason)
    found = problem or _own_active(company, unit)
    if isinstance(found, Problem):
        return found
    if changes is not None and not isinstance(changes, Mapping):
        return edit_invalid("changes", "changes")
    if not changes:
        return Problem("edit_empty", found.id, {"name": found.name})
    edited = found
    for key, value in changes.items():
        if key not in EDITABLE:
            return edit_invalid(key, "not_editable")
        now = getattr(found, key)
        now = list(now) if isinstance(now, tuple) else now
        if seen is not None and key in seen and seen[key] != now:
            return Problem("edit_stale", key, {"name": found.name, "seen": seen[key], "now": now})
        edited = replace(
            edited, **{key: tuple(value) if key == "abilities" and isinstance(value, list) else value}
        )
    problem = _edit_problem(company, edited, ruleset)
    if problem:
        return problem
    logged = event(
        "gm_edit",
        company.nation,
        found.id,
        before={k: getattr(found, k) for k in changes},
        after=dict(changes),
        reason=reason,
    )
    return Done(_with(company, edited), found.id, (logged,))


def _edit_problem(company: Company, unit: Unit, ruleset: CompanyRuleset) -> Problem | None:
    fault = record_fault(unit, ruleset)
    if fault:
        return edit_invalid(*fault, limit=NAME_LIMIT)
    if unit.region not in company.owned:
        return edit_invalid("region", "region")
    name = _name_problem(company, unit.name, except_id=unit.id)
    if name:
        return edit_invalid("name", name.message)
    if company.style != "company":
        return edit_invalid("role", "no_roles") if unit.role is not None else None
    if (unit.role == "company_commander") != (unit.group == 0) and unit.role is not None:
        return edit_invalid("group", "group")
    for other in company.active():
        if (
            other.id != unit.id
            and other.role == unit.role
            and unit.role is not None
            and (unit.role == "company_commander" or other.group == unit.group)
        ):
            return edit_invalid("role", "role_taken")
    return None


def gm_restore(
    company: Company,
    ruleset: CompanyRuleset,
    *,
    unit: Any = None,
    tk: Any = None,
    region: Any = None,
    reason: Any = None,
) -> Done | Problem:
    """§7.6: a destroyed unit back in the roster with `tk` TK, in `region` (by default where it fell), as it
    was when it fell otherwise; the restored record must fit §3.1 and §3.5 like any edit."""
    problem = _reason(reason)
    if problem:
        return problem
    found = company.units.get(unit) if whole(unit) else None
    if found is None or found.nation not in (None, company.nation):
        return Problem("not_your_unit", unit)
    if found.status != DESTROYED:
        return Problem("unit_not_destroyed", found.id, {"name": found.name})
    restored = replace(
        found, status=ACTIVE, tk=tk, fell=None, region=found.region if region is None else region
    )
    problem = _edit_problem(company, restored, ruleset)
    if problem:
        return problem
    return Done(
        _with(company, restored),
        found.id,
        (
            event(
                "gm_edit",
                company.nation,
                found.id,
                before={"status": DESTROYED},
                after={"status": ACTIVE, "tk": tk, "region": restored.region},
                reason=reason,
            ),
        ),
    )


def gm_remove_ability(
    company: Company, ruleset: CompanyRuleset, *, unit: Any = None, ability: Any = None, reason: Any = None
) -> Done | Problem:
    problem = _reason(reason)
    found = problem or _own_active(company, unit)
    if isinstance(found, Problem):
        return found
    if ability not in found.abilities:
        return Problem("ability_not_held", found.id, {"name": found.name, "ability": ability})
    kept = replace(found, abilities=tuple(a for a in found.abilities if a != ability))
    return Done(
        _with(company, kept),
        found.id,
        (
            event(
                "gm_edit",
                company.nation,
                found.id,
                before={"abilities": list(found.abilities)},
                after={"abilities": list(kept.abilities)},
                reason=reason,
            ),
        ),
    )


ACTIONS = {
    "repair": repair,
    "buy": buy,
    "choose_ability": choose_ability,
    "appoint_commander": appoint_commander,
    "adjust_tp": adjust_tp,
    "gm_edit": gm_edit,
    "gm_restore": gm_restore,
    "gm_remove_ability": gm_remove_ability,
    "gm_company_size": gm_company_size,
}
