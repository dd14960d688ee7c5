"""The optional command-point ledger of one battle (COMPANY.md §9): pools per table turn, spending,
transfers, eliminations and the field promotion. It keeps the arithmetic and the limits; what the points
buy happens at the table.

Each operation is `op(ledger, ruleset, ...) -> Ledger | Problem`; a refused operation changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .problems import Problem, whole
from .roster import Unit
from .ruleset import CompanyRuleset


@dataclass(frozen=True)
class Side:
    nation: str
    style: str  # company | battle_groups
    units: Mapping[int, Unit]  # the side's snapshot units
    eliminated: frozenset[int] = frozenset()
    pools: Mapping[str, int] = field(default_factory=dict)
    out_of_link: frozenset[int] = frozenset()  # platoon leaders declared out of link this table turn
    promoted: int | None = None  # the unit promoted to company commander in this battle
    commander_lost: bool = False
    tactic_used: bool = False  # a company tactic this table turn (¶64)
    used_once: frozenset[str] = frozenset()  # once-per-battle actions spent (¶65)
    spent: Mapping[str, int] = field(default_factory=dict)  # action -> times this table turn
    transfers: Mapping[str, int] = field(default_factory=dict)  # pool -> transfers received this table turn

    def standing(self, unit_id: int) -> bool:
        return unit_id in self.units and unit_id not in self.eliminated

    def leaders(self) -> list[Unit]:
        """The surviving platoon leaders (the promoted one is no longer one, §9.2)."""
        return [
            u
            for u in self._sorted()
            if u.role == "platoon_leader" and self.standing(u.id) and u.id != self.promoted
        ]

    def commander(self) -> Unit | None:
        return next(
            (u for u in self._sorted() if u.role == "company_commander" and self.standing(u.id)), None
        )

    def _sorted(self) -> list[Unit]:
        return [self.units[u] for u in sorted(self.units)]


@dataclass(frozen=True)
class Ledger:
    sides: Mapping[str, Side]  # nation-id order
    table_turn: int = 0
    log: tuple[Mapping[str, Any], ...] = ()  # every operation, with what it discarded

    def view(self) -> dict[str, Any]:
        return {
            "table_turn": self.table_turn,
            "pools": {n: dict(s.pools) for n, s in self.sides.items()},
            "pool_names": {n: sorted(s.pools) for n, s in self.sides.items()},
            "commander_lost": {n: s.commander_lost for n, s in self.sides.items()},
        }


def ledger_open(sides: Mapping[str, tuple[str, Sequence[Unit]]]) -> Ledger:
    """A battle's ledger before its first table turn: nation -> (style, units), in nation-id order."""
    return Ledger({n: Side(n, style, {u.id: u for u in units}) for n, (style, units) in sides.items()})


def _pools(side: Side, ruleset: CompanyRuleset) -> dict[str, int]:
    """The side's pools at the start of a table turn (§9.1)."""
    if side.style == "battle_groups":
        groups = sorted({u.group for u in side.units.values() if side.standing(u.id)})
        return {f"group-{g}": ruleset.get("kp.battle_group") for g in groups}
    pools = {}
    if side.promoted is not None and side.standing(side.promoted):
        pools["company"] = ruleset.get("kp.promoted_company")
        pools[f"platoon-{side.units[side.promoted].group}"] = ruleset.get("kp.promoted_platoon")
    elif side.commander() is not None:
        pools["company"] = ruleset.get("kp.company_commander")
    for leader in side.leaders():
        out = leader.id in side.out_of_link
        pools[f"platoon-{leader.group}"] = ruleset.get(
            "kp.platoon_leader_out_of_link" if out else "kp.platoon_leader"
        )
    return pools


def turn_start(ledger: Ledger, ruleset: CompanyRuleset, declarations: Mapping[str, Any]) -> Ledger | Problem:
    """§9.2: the next table turn; every pool's remainder is discarded and the pools refill."""
    declarations = declarations or {}
    for nation in declarations:
        if nation not in ledger.sides:
            return Problem("side_unknown", nation)
    sides, discarded = {}, {}
    for nation, side in ledger.sides.items():
        declared = declarations.get(nation) or {}
        promote, out = declared.get("promote"), declared.get("out_of_link") or []
        lost = side.commander_lost and side.style == "company"
        if promote is not None and not lost:
            return Problem("promotion_without_loss", nation)
        if promote is not None and promote not in [u.id for u in side.leaders()]:
            return Problem("promotion_invalid_unit", nation, {"unit": promote})
        if promote is None and lost and side.leaders():
            return Problem("promotion_required", nation)
        for unit_id in out:
            if unit_id == promote or unit_id not in [u.id for u in side.leaders()]:
                return Problem("not_a_platoon_leader", unit_id)
        left = {pool: kp for pool, kp in side.pools.items() if kp}
        if left:
            discarded[nation] = left
        side = replace(side, out_of_link=frozenset(out), tactic_used=False, spent={}, transfers={})
        if promote is not None:
            side = replace(side, promoted=promote, commander_lost=False)
        sides[nation] = replace(side, pools=_pools(side, ruleset))
    entry = {"op": "turn_start", "table_turn": ledger.table_turn + 1, "discarded": discarded}
    return replace(ledger, sides=sides, table_turn=ledger.table_turn + 1, log=ledger.log + (entry,))


def eliminate(ledger: Ledger, ruleset: CompanyRuleset, unit: Any) -> Ledger | Problem:
    """§9.2: the unit is out for the rest of the battle; a leader's pool goes with it, remainder discarded."""
    side = next((s for s in ledger.sides.values() if whole(unit) and unit in s.units), None)
    if side is None:
        return Problem("unit_unknown", unit)
    if unit in side.eliminated:
        return Problem("unit_eliminated", unit)
    was_commander = side.commander() is not None and side.commander().id == unit and side.promoted is None
    was_promoted = side.promoted == unit
    after = replace(side, eliminated=side.eliminated | {unit})
    if was_promoted:
        after = replace(after, promoted=None)
    if (was_commander or was_promoted) and side.style == "company":
        after = replace(after, commander_lost=True)
    kept = _pools(after, ruleset)
    pools = {name: kp for name, kp in side.pools.items() if name in kept}
    if was_promoted:  # a promoted commander takes both his pools with him (§9.2)
        pools.pop(f"platoon-{side.units[unit].group}", None)
    gone = {name: kp for name, kp in side.pools.items() if name not in pools}
    after = replace(after, pools=pools)
    entry = {"op": "eliminate", "unit": unit, "discarded": {side.nation: gone} if gone else {}}
    return replace(ledger, sides={**ledger.sides, side.nation: after}, log=ledger.log + (entry,))


def _kind(pool: str) -> str:
    return pool.split("-", 1)[0]


def spend(
    ledger: Ledger, ruleset: CompanyRuleset, *, side: Any, pool: Any, action: Any, unit: Any = None
) -> Ledger | Problem:
    """§9.2 spend: checks in the spec's order, ending with `kp_insufficient`."""
    found = ledger.sides.get(side)
    if found is None:
        return Problem("side_unknown", side)
    if pool not in found.pools:
        return Problem("pool_unknown", pool)
    actions = ruleset.get("kp.actions")
    spec = actions.get(action) if isinstance(action, str) else None
    if spec is None:
        return Problem("action_unknown", action)
    if _kind(pool) not in spec["pools"]:
        return Problem("action_not_from_pool", action, {"pool": pool})
    if spec.get("unit", False):
        if unit is None:
            return Problem("unit_required", action)
        member = found.units.get(unit) if whole(unit) else None
        if pool == "company":
            allowed = member is not None and (member.group == 0 or spec.get("any_unit_from_company", False))
        else:
            allowed = member is not None and member.group == int(pool.split("-", 1)[1])
        if not allowed:
            return Problem("unit_not_in_pool_group", unit, {"pool": pool})
    if spec.get("company_tactic", False) and found.tactic_used:
        return Problem("company_tactic_used", action)
    if spec.get("once_per_battle", False) and action in found.used_once:
        return Problem("once_per_battle", action)
    per = spec.get("per")
    if per is not None and found.spent.get(per, 0) <= found.spent.get(action, 0):
        return Problem("boost_without_request", action)
    cost = spec["kp"]
    if cost > found.pools[pool]:
        return Problem("kp_insufficient", pool, {"cost": cost, "pool": pool, "left": found.pools[pool]})
    after = replace(
        found,
        pools={**found.pools, pool: found.pools[pool] - cost},
        tactic_used=found.tactic_used or spec.get("company_tactic", False),
        used_once=found.used_once | ({action} if spec.get("once_per_battle", False) else set()),
        spent={**found.spent, action: found.spent.get(action, 0) + 1},
    )
    entry = {"op": "spend", "side": side, "pool": pool, "action": action, "unit": unit, "kp": cost}
    return replace(ledger, sides={**ledger.sides, side: after}, log=ledger.log + (entry,))


def transfer(ledger: Ledger, ruleset: CompanyRuleset, *, side: Any, to: Any) -> Ledger | Problem:
    """§9.2: the company pool pays 1 and a platoon pool gains 1 for this table turn (¶24)."""
    found = ledger.sides.get(side)
    if found is None:
        return Problem("side_unknown", side)
    if found.style != "company":
        return Problem("not_company_style", side)
    if (
        not isinstance(to, str)
        or _kind(to) != "platoon"
        or to not in found.pools
        or "company" not in found.pools
    ):
        return Problem("pool_unknown", to)
    if found.promoted is not None and to == f"platoon-{found.units[found.promoted].group}":
        return Problem("pools_separate", to)
    if any(f"platoon-{u.group}" == to for u in found.leaders() if u.id in found.out_of_link):
        return Problem("recipient_out_of_link", to)
    limit = ruleset.get("kp.transfer_limit")
    if limit is not None and found.transfers.get(to, 0) >= limit:
        return Problem("transfer_limit", to, {"limit": limit})
    if found.pools["company"] < 1:
        return Problem("kp_insufficient", "company", {"cost": 1, "pool": "company", "left": 0})
    after = replace(
        found,
        pools={**found.pools, "company": found.pools["company"] - 1, to: found.pools[to] + 1},
        transfers={**found.transfers, to: found.transfers.get(to, 0) + 1},
    )
    entry = {"op": "transfer", "side": side, "to": to}
    return replace(ledger, sides={**ledger.sides, side: after}, log=ledger.log + (entry,))
