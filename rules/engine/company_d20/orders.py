"""The turn's orders (COMPANY.md §4.2): one check for order entry and for processing, in submission order.

An order that fails takes up no unit. The first failing check is the reason, in the order of the §4.2
table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .campaign import CampaignState, distances
from .problems import Problem, whole
from .ruleset import CompanyRuleset

KINDS = ("hold", "move", "attack", "recon")


@dataclass(frozen=True)
class Order:
    nation: str
    kind: str
    origin: str | None
    target: str | None
    units: tuple[Any, ...]

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Order:
        units = data.get("units")
        return cls(
            nation=data.get("nation"),
            kind=data.get("kind"),
            origin=data.get("from"),
            target=data.get("to"),
            units=tuple(units) if isinstance(units, list | tuple) else (),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "nation": self.nation,
            "kind": self.kind,
            "from": self.origin,
            "to": self.target,
            "units": list(self.units),
        }


def order_problem(
    state: CampaignState,
    order: Order,
    taken: Mapping[int, Order],
    ruleset: CompanyRuleset,
    adjacency: Mapping[str, set[str]] | None = None,
) -> Problem | None:
    """Why the order fails, given the units `taken` by the nation's earlier accepted orders; None when
    valid."""
    if order.kind not in KINDS:
        return Problem("kind_unknown", order.kind, {"kind": order.kind})
    if not order.units:
        return Problem("no_units")
    if order.origin not in state.regions or state.owner(order.origin) != order.nation:
        return Problem("origin_not_owned", order.origin, {"region": order.origin})
    named: set[int] = set()
    for unit_id in order.units:
        problem = _unit_problem(state, order, unit_id, taken, named)
        if problem is not None:
            return problem
        named.add(unit_id)
    if order.kind == "hold":
        return None
    if order.kind == "recon" and len(order.units) > 1:
        return Problem("recon_one_unit")
    adjacency = state.adjacency() if adjacency is None else adjacency
    target = order.target
    params = {"origin": order.origin, "target": target}
    if order.kind == "recon":
        reach = ruleset.get("recon.range")
        far = distances(adjacency, order.origin).get(target) if target in state.regions else None
        if far is None or far > reach:
            return Problem("out_of_range", target, {**params, "range": reach})
    elif target not in state.regions or target not in adjacency[order.origin]:
        return Problem("not_adjacent", target, params)
    owner = state.owner(target)
    if order.kind == "move":
        return None if owner == order.nation else Problem("target_not_owned", target, params)
    if owner == order.nation:
        return Problem("target_own_region", target, params)
    if order.kind == "attack" and owner is not None and not state.at_war(order.nation, owner):
        return Problem(
            "not_at_war", owner, {**params, "owner": owner, "relation": state.relation(order.nation, owner)}
        )
    return None


def _unit_problem(
    state: CampaignState, order: Order, unit_id: Any, taken: Mapping[int, Order], named: set[int]
) -> Problem | None:
    """Check 3 of §4.2, for one unit: in the roster, active, standing in `from`, not yet ordered."""
    if not whole(unit_id):
        return Problem("not_an_integer", unit_id, {"field": "units", "value": unit_id})
    unit = state.units.get(unit_id)
    if unit is None or unit.nation != order.nation:
        return Problem("not_your_unit", unit_id)
    params = {"name": unit.name}
    if not unit.active:
        return Problem("unit_not_active", unit_id, {**params, "fell": dict(unit.fell or {})})
    if unit.region != order.origin:
        return Problem("wrong_origin", unit_id, {**params, "region": unit.region, "origin": order.origin})
    if unit_id in taken or unit_id in named:
        earlier = taken.get(unit_id)
        return Problem("unit_has_order", unit_id, {**params, "order": earlier.to_dict() if earlier else None})
    return None


def orders_check(
    state: CampaignState, orders: Sequence[Order], ruleset: CompanyRuleset
) -> tuple[list[tuple[int, Order]], list[tuple[int, Problem]]]:
    """The accepted orders (with their index) and the rejected ones with their problem, in submission
    order."""
    adjacency = state.adjacency()
    taken: dict[int, Order] = {}
    accepted, rejected = [], []
    for index, order in enumerate(orders):
        problem = order_problem(state, order, taken, ruleset, adjacency)
        if problem is None:
            accepted.append((index, order))
            taken.update((unit_id, order) for unit_id in order.units)
        else:
            rejected.append((index, problem))
    return accepted, rejected
