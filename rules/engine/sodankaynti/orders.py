"""Sodankäynti's orders (SODANKAYNTI.md §4): roles by `orders_by_role`, no stand_down, ambush and doctrine.

`order_check` runs before the pipeline's common checks (IRON_FIST.md §2.1, §13): it rejects what this system
forbids, checks its own kinds completely (they name no units and consume none), and leaves the rest of an
ordinary order to the common checks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..state import Order
from ..validation import Invalid
from .ruleset import DoctrineError, Ruleset

OWN_KINDS = frozenset(("ambush", "doctrine"))


def doctrine_params(region: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """A doctrine order's fields as stored (§4.1): its name, its parameters and its region (none: every
    battle of the nation). It has no target."""
    params = dict(given.get("params") or {})
    return {"doctrine": given.get("doctrine"), "params": params, "region": region or None}


PARAMS = {"doctrine": doctrine_params}


def _invalid(field: str, code: str, **params: Any) -> Invalid:
    return Invalid.of(field, f"sodankaynti.order.{code}", **params)


def order_check(world: Any, ruleset: Ruleset) -> Callable[[Order], Invalid | None]:
    """The check of one order of the turn, in submission order (it remembers the valid ambushes)."""
    ambushes: set[tuple[str, str]] = set()  # (nation, region) with a valid ambush (§4.2: the first counts)

    def check(order: Order) -> Invalid | None:
        """Why the order is invalid here, or None (an own kind: valid; another: on to the common checks)."""
        if order.kind == "stand_down":
            return _invalid("kind", "stand_down")
        if order.kind == "doctrine":
            return _doctrine_reason(world, ruleset, order)
        if order.kind == "ambush":
            invalid = _ambush_reason(world, order, ambushes)
            if invalid is None:
                ambushes.add((order.nation, order.origin))
            return invalid
        for unit_type in order.units:
            unit = ruleset.unit_types.get(unit_type)
            if unit is None:
                continue  # the common checks name the unknown type
            allowed = ruleset.orders_by_role.get(unit.role, ())
            if order.kind not in allowed:
                params = {"unit_type": unit_type, "kind": str(order.kind), "role": unit.role}
                return _invalid("units", "role", **params, allowed=list(allowed))
        return None

    return check


def _doctrine_reason(world: Any, ruleset: Ruleset, order: Order) -> Invalid | None:
    if order.nation not in world.nation_index:
        return _invalid("nation", "nation", nation=order.nation)
    region = order.params.get("region")
    if region is not None and region not in world.regions:
        return _invalid("target", "region", region=region)
    try:
        ruleset.doctrine(order.params.get("doctrine"), order.params.get("params"), "order")
    except DoctrineError as error:
        return _invalid("params", "doctrine", part=error.field, reason=error.reason)
    return None


def _ambush_reason(world: Any, order: Order, ambushes: set[tuple[str, str]]) -> Invalid | None:
    if order.nation not in world.nation_index:
        return _invalid("nation", "nation", nation=order.nation)
    region, facing = order.origin, order.target
    if region not in world.regions or world.owner[region] != order.nation:
        return _invalid("origin", "ambush_owner", region=region, nation=order.nation)
    if facing not in world.adjacency[region]:
        return _invalid("target", "ambush_adjacent", facing=facing, region=region)
    if (order.nation, region) in ambushes:
        return _invalid("origin", "ambush_twice", nation=order.nation, region=region)
    return None
