"""Battle results (COMPANY.md §5): the entry's validation (§5.3), the outcome (§5.4), and what the server
computes from a final result (§5.5): VP, XP shares, TP gains and the units after the battle.

Everything here is a preview until turn completion applies it (§6); the same functions serve both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .problems import Problem, whole
from .roster import DESTROYED, STATES, Unit, tk_damaged, unit_tt, veteran_slots
from .ruleset import CompanyRuleset

NOTES_LIMIT = 2000
CONQUERING = ("normal", "joint", "contested")  # a meeting decides no region (§4.4)


@dataclass(frozen=True)
class Battle:
    """A battle as created at processing (§4.3 step 5): its sides and the snapshot of every unit in it."""

    key: str
    kind: str  # meeting | normal | joint | contested | unopposed
    defender: str | None
    sides: tuple[str, ...]  # nation-id order
    units: Mapping[int, Unit]  # the snapshot, by unit id
    origins: Mapping[int, str] = field(default_factory=dict)  # unit id -> origin region
    region: str | None = None  # the region fought over; None for a meeting
    occupier: str | None = None  # unopposed only
    settlement: str | None = None  # unopposed only: "peaceful" with two or more attacking nations

    def side_units(self, nation: str) -> list[Unit]:
        return sorted((u for u in self.units.values() if u.nation == nation), key=lambda u: u.id)

    def snapshot_order(self) -> list[Unit]:
        """Sides in nation-id order, units by id (§5.3)."""
        return [u for nation in self.sides for u in self.side_units(nation)]

    def to_dict(self) -> dict[str, Any]:
        data = {
            "key": self.key,
            "kind": self.kind,
            "defender": self.defender,
            "sides": {n: [u.id for u in self.side_units(n)] for n in self.sides},
        }
        if self.kind == "unopposed":
            data["occupier"], data["settlement"] = self.occupier, self.settlement
        return data


@dataclass(frozen=True)
class Row:
    unit: int
    tk_lost: int
    destroyed: bool
    states: tuple[str, ...]
    vp: int


def _name(battle: Battle, unit_id: Any) -> Any:
    unit = battle.units.get(unit_id) if whole(unit_id) else None
    return unit.name if unit else unit_id


def result_validate(battle: Battle, entry: Any) -> list[Problem]:
    """Every error of the entry, in the order of §5.3; [] when it is valid."""
    if not isinstance(entry, Mapping):
        return [
            Problem("unit_missing", u.id, {"name": u.name, "nation": u.nation})
            for u in battle.snapshot_order()
        ]
    problems: list[Problem] = []
    seen: dict[int, Mapping[str, Any]] = {}
    rows = entry.get("units") or []
    for row in rows if isinstance(rows, list) else []:
        unit_id = row.get("unit") if isinstance(row, Mapping) else None
        if not whole(unit_id) or unit_id not in battle.units:
            problems.append(Problem("unit_not_in_battle", unit_id))
            continue
        if unit_id in seen:
            problems.append(Problem("unit_listed_twice", unit_id, {"name": _name(battle, unit_id)}))
            continue
        seen[unit_id] = row
        problems.extend(_row_problems(battle.units[unit_id], row))
    for unit in battle.snapshot_order():
        if unit.id not in seen:
            problems.append(Problem("unit_missing", unit.id, {"name": unit.name, "nation": unit.nation}))
    sides = entry.get("sides") or {}
    for nation, side in sides.items() if isinstance(sides, Mapping) else ():
        if nation not in battle.sides:
            problems.append(Problem("side_not_in_battle", nation))
            continue
        problems.extend(_side_problems(battle, nation, side, seen))
    notes = entry.get("notes")
    if notes is not None and len(str(notes)) > NOTES_LIMIT:
        problems.append(Problem("notes_too_long", None, {"length": len(str(notes)), "limit": NOTES_LIMIT}))
    return problems


def _row_problems(unit: Unit, row: Mapping[str, Any]) -> list[Problem]:
    problems = []
    params = {"name": unit.name}
    tk_lost, vp, destroyed = row.get("tk_lost", 0), row.get("vp", 0), row.get("destroyed", False)
    for name, value in (("tk_lost", tk_lost), ("vp", vp)):
        if not whole(value):
            problems.append(Problem("not_an_integer", unit.id, {**params, "field": name, "value": value}))
    tk_ok = whole(tk_lost)
    if tk_ok and tk_lost < 0:
        problems.append(
            Problem("tk_lost_negative", unit.id, {**params, "value": tk_lost, "tk_start": unit.tk})
        )
        tk_ok = False
    elif tk_ok and tk_lost > unit.tk:
        problems.append(
            Problem("tk_lost_too_high", unit.id, {**params, "value": tk_lost, "tk_start": unit.tk})
        )
        tk_ok = False
    if not isinstance(destroyed, bool):
        problems.append(Problem("not_a_boolean", unit.id, {**params, "field": "destroyed"}))
    elif tk_ok and destroyed != (unit.tk - tk_lost == 0):
        problems.append(Problem("destroyed_mismatch", unit.id, {**params, "tk_end": unit.tk - tk_lost}))
    states = row.get("states") or []
    if not isinstance(states, list):
        problems.append(Problem("state_unknown", unit.id, {**params, "state": states}))
        states = []
    given = _unique(states)
    for state in given:
        if state not in STATES and state != "damaged":
            problems.append(Problem("state_unknown", unit.id, {**params, "state": state}))
    if "damaged" in given:
        problems.append(Problem("state_derived", unit.id, params))
    if "retreating" in given:
        for other in ("pinned", "hidden"):
            if other in given:
                problems.append(Problem("states_conflict", unit.id, {**params, "state": other}))
                break
    if destroyed is True and given:
        problems.append(Problem("destroyed_with_states", unit.id, params))
    if whole(vp) and vp < 0:
        problems.append(Problem("vp_negative", unit.id, params))
    return problems


def _unique(items: Sequence[Any]) -> list[Any]:
    """A state given twice counts once (§5.1); unhashable junk is kept to be reported."""
    unique: list[Any] = []
    for item in items:
        if item not in unique:
            unique.append(item)
    return unique


def _destroyed_in_entry(seen: Mapping[int, Mapping[str, Any]], unit_id: int) -> bool:
    """The `destroyed` flag of the unit's first row; no row counts as not destroyed (§5.3)."""
    return seen.get(unit_id, {}).get("destroyed") is True


def _side_problems(
    battle: Battle, nation: str, side: Any, seen: Mapping[int, Mapping[str, Any]]
) -> list[Problem]:
    if side is None:
        return []
    if not isinstance(side, Mapping):  # a side must be a mapping of its two fields; read as a bad number
        return [Problem("not_an_integer", nation, {"field": "sides", "value": side})]
    problems = []
    objective = side.get("objective_vp", 0)
    if not whole(objective):
        problems.append(Problem("not_an_integer", nation, {"field": "objective_vp", "value": objective}))
    elif objective < 0:
        problems.append(Problem("objective_vp_negative", nation))
    promoted = side.get("field_promotion")
    if promoted is not None:
        units = battle.side_units(nation)
        if not any(u.role == "company_commander" and _destroyed_in_entry(seen, u.id) for u in units):
            problems.append(Problem("promotion_without_loss", nation))
        elif not any(
            u.id == promoted and u.role == "platoon_leader" and not _destroyed_in_entry(seen, u.id)
            for u in units
            if whole(promoted)
        ):
            problems.append(Problem("promotion_invalid_unit", nation, {"unit": promoted}))
    return problems


def result_rows(battle: Battle, entry: Mapping[str, Any]) -> dict[int, Row]:
    """The rows of a valid entry, with their defaults (§5.1); one per snapshot unit."""
    rows = {}
    for raw in entry.get("units") or []:
        unit_id = raw["unit"]
        rows[unit_id] = Row(
            unit=unit_id,
            tk_lost=raw.get("tk_lost", 0),
            destroyed=raw.get("destroyed", False),
            states=tuple(_unique(raw.get("states") or [])),
            vp=raw.get("vp", 0),
        )
    return rows


def _side(entry: Mapping[str, Any], nation: str) -> Mapping[str, Any]:
    return (entry.get("sides") or {}).get(nation) or {}


@dataclass(frozen=True)
class Outcome:
    vp: Mapping[str, int]  # nation -> VP, in nation-id order
    winner: str | None
    conquest: bool
    holder: str | None


def battle_outcome(
    battle: Battle, rows: Mapping[int, Row], entry: Mapping[str, Any], ruleset: CompanyRuleset
) -> Outcome:
    """§5.4: the most VP wins; the defender wins ties it is part of (tie_winner); conquest needs a
    survivor."""
    vp = {
        n: sum(rows[u.id].vp for u in battle.side_units(n)) + _side(entry, n).get("objective_vp", 0)
        for n in battle.sides
    }
    best = max(vp.values(), default=0)
    tied = [n for n in battle.sides if vp[n] == best]
    winner = tied[0] if len(tied) == 1 else None
    if winner is None and ruleset.get("result.tie_winner") == "defender" and battle.defender in tied:
        winner = battle.defender

    def survives(nation: str) -> bool:
        return any(not rows[u.id].destroyed for u in battle.side_units(nation))

    attackers = [n for n in battle.sides if n != battle.defender]
    holder = None
    if battle.kind in CONQUERING:
        if winner in attackers and survives(winner):
            holder = winner
        elif (
            ruleset.get("result.wiped_out_defender_loses")
            and battle.defender is not None
            and not survives(battle.defender)
        ):
            standing = [n for n in attackers if survives(n)]
            top = max((vp[n] for n in standing), default=None)
            leaders = [n for n in standing if vp[n] == top]
            holder = leaders[0] if len(leaders) == 1 else None
    return Outcome(vp, winner, holder is not None, holder)


def _split(amount: int, holders: Sequence[Unit], rows: Mapping[int, Row]) -> dict[int, int]:
    """⌊amount / |H|⌋ each; the remainder one point each by (vp descending, unit id) (§5.5 step 2)."""
    if not holders:
        return {}
    each, left = divmod(amount, len(holders))
    shares = {u.id: each for u in holders}
    for unit in sorted(holders, key=lambda u: (-rows[u.id].vp, u.id))[:left]:
        shares[unit.id] += 1
    return shares


def xp_shares(
    battle: Battle,
    nation: str,
    rows: Mapping[int, Row],
    vp: int,
    entry: Mapping[str, Any],
    ruleset: CompanyRuleset,
) -> dict[int, int]:
    """§5.5 steps 2-4: each unit's XP share from the side's pool, halved when damaged, lost when destroyed."""
    per_vp = ruleset.get("xp.per_vp")
    units = battle.side_units(nation)
    forfeit = ruleset.get("xp.destroyed") == "forfeit"
    holders = units if forfeit else [u for u in units if not rows[u.id].destroyed]
    if ruleset.get("xp.sharing") == "equal":
        shares = _split(vp * per_vp, holders, rows)
    else:
        shares = _split(_side(entry, nation).get("objective_vp", 0) * per_vp, holders, rows)
        for unit in holders:
            shares[unit.id] += rows[unit.id].vp * per_vp
    up = ruleset.get("xp.damaged_rounding") == "up"
    awarded = {}
    for unit in units:
        row, share = rows[unit.id], shares.get(unit.id, 0)
        if row.destroyed:
            share = 0
        elif tk_damaged(unit.tk - row.tk_lost, unit.tk_max):
            share = (share + 1) // 2 if up else share // 2
        awarded[unit.id] = share
    return awarded


@dataclass(frozen=True)
class Final:
    """What a final result changes (§5.5), applied at completion (§6 step 1)."""

    outcome: Outcome
    xp: Mapping[int, int]  # unit -> share awarded
    tp: Mapping[str, int]  # nation -> TP gained
    units: Mapping[int, Unit]  # the snapshot units after the battle (tk, xp, status, role, group)
    destroyed: tuple[int, ...]  # snapshot order
    states: Mapping[int, tuple[str, ...]]  # end-of-battle states, for the history; cleared on the units
    promotions: Mapping[str, int]  # nation -> the unit promoted in the field
    before: Mapping[int, Unit] = field(
        default_factory=dict
    )  # the snapshot: TT and slots before (§5.5 step 5)


def result_final(
    battle: Battle, entry: Mapping[str, Any], ruleset: CompanyRuleset, turn: int | None = None
) -> Final:
    """The §5.5 computation from a valid entry (check `result_validate` first)."""
    rows = result_rows(battle, entry)
    outcome = battle_outcome(battle, rows, entry, ruleset)
    xp: dict[int, int] = {}
    tp: dict[str, int] = {}
    for nation in battle.sides:
        xp.update(xp_shares(battle, nation, rows, outcome.vp[nation], entry, ruleset))
        tp[nation] = outcome.vp[nation] * ruleset.get("tp.per_vp")
    after, destroyed, promotions = {}, [], {}
    for unit in battle.snapshot_order():
        row = rows[unit.id]
        if row.destroyed:
            fell = {"turn": turn, "battle": battle.key, "cause": "battle"}
            after[unit.id] = replace(unit, tk=0, status=DESTROYED, fell=fell)
            destroyed.append(unit.id)
        else:
            after[unit.id] = replace(unit, tk=unit.tk - row.tk_lost, xp=unit.xp + xp[unit.id])
    for nation in battle.sides:
        promoted = _side(entry, nation).get("field_promotion")
        if promoted is not None:
            after[promoted] = replace(after[promoted], role="company_commander", group=0)
            promotions[nation] = promoted
    states = {u: rows[u].states for u in rows if rows[u].states}
    return Final(outcome, xp, tp, after, tuple(destroyed), states, promotions, battle.units)


def final_view(final: Final, ruleset: CompanyRuleset) -> dict[str, Any]:
    """The preview and the final result's numbers (§5.5, §11.1): VP, winner, holder, XP, TP, each unit
    after."""
    return {
        "vp": dict(final.outcome.vp),
        "winner": final.outcome.winner,
        "conquest": final.outcome.conquest,
        "holder": final.outcome.holder,
        "xp": dict(final.xp),
        "tp": dict(final.tp),
        "units": {
            u.id: {
                "tk": u.tk,
                "xp": u.xp,
                "tt": unit_tt(u, ruleset),
                "damaged": u.active and tk_damaged(u.tk, u.tk_max),
                "status": u.status,
                "role": u.role,
                "group": u.group,
                "veteran_slots": veteran_slots(u.xp, ruleset),
                "tt_before": unit_tt(final.before[u.id], ruleset),
                "slot_opened": veteran_slots(u.xp, ruleset) > veteran_slots(final.before[u.id].xp, ruleset),
            }
            for u in final.units.values()
        },
        "destroyed": list(final.destroyed),
    }
