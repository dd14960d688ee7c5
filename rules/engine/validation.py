"""Order validation (IRON_FIST.md §2.1, §13): one piece of code for order entry and for the engine.

Orders are checked in submission order; a rejected order consumes nothing. `move`, `rebase` and `attack`
orders of one nation out of one region together may not exceed, type by type, the units there at the
start of the turn. `hold` and `stand_down` consume nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from .ruleset import Ruleset
from .state import Order, OrderKind, RejectedOrder, TurnInput
from .world import World, world_build

# Which unit roles each kind of order may name (§2.1).
KIND_ROLES = {
    OrderKind.HOLD: ("ground", "artillery", "air"),
    OrderKind.MOVE: ("ground", "artillery"),
    OrderKind.REBASE: ("air",),
    OrderKind.ATTACK: ("ground",),
    OrderKind.STAND_DOWN: ("artillery", "air"),
}


class Invalid(NamedTuple):
    field: str  # the part of the order at fault: nation, kind, origin, target or units
    reason: str


CONSUMING = frozenset((OrderKind.MOVE, OrderKind.REBASE, OrderKind.ATTACK))
ROLE_NAMES = {"ground": "ground units", "artillery": "artillery", "air": "air units"}


def orders_validate(
    world: World, ruleset: Ruleset, orders: Sequence[Order]
) -> tuple[list[tuple[int, Order]], list[RejectedOrder]]:
    """Split orders into the accepted ones (with their index) and the rejected ones with a reason."""
    used: dict[tuple[str, str, str], int] = {}  # (nation, origin, type) -> units already ordered out
    accepted, rejected = [], []
    for index, order in enumerate(orders):
        invalid = order_reason(world, ruleset, order, used)
        if invalid is None:
            accepted.append((index, order))
            if order.kind in CONSUMING:
                for unit_type, count in order.units.items():
                    key = (order.nation, order.origin, unit_type)
                    used[key] = used.get(key, 0) + count
        else:
            rejected.append(RejectedOrder(index, order, invalid.reason, invalid.field))
    return accepted, rejected


def order_reason(
    world: World, ruleset: Ruleset, order: Order, used: dict[tuple[str, str, str], int]
) -> Invalid | None:
    """Why `order` is invalid, given the units `used` by the nation's earlier accepted orders, or None."""
    if order.nation not in world.nation_index:
        return Invalid("nation", f"unknown nation {order.nation!r}")
    if order.kind not in KIND_ROLES:
        return Invalid("kind", f"unknown kind of order {order.kind!r}")
    if order.origin not in world.regions:
        return Invalid("origin", f"unknown region {order.origin!r}")
    if world.owner[order.origin] != order.nation:
        return Invalid("origin", f"{order.origin} is not held by {order.nation}")
    if not order.units:
        return Invalid("units", "the order names no units")
    allowed = KIND_ROLES[order.kind]
    here = world.units.get(order.origin, {}).get(order.nation, {})
    for unit_type, count in order.units.items():
        unit = ruleset.unit_types.get(unit_type)
        if unit is None:
            return Invalid("units", f"unknown unit type {unit_type!r}")
        if unit.role not in allowed:
            return Invalid("units", f"{unit_type} cannot {_verb(order.kind)}: only {_roles(allowed)} can")
        if not isinstance(count, int) or isinstance(count, bool) or count <= 0:
            return Invalid("units", f"the count of {unit_type} must be a whole number above 0, got {count!r}")
        already = used.get((order.nation, order.origin, unit_type), 0) if order.kind in CONSUMING else 0
        left = here.get(unit_type, 0) - already
        if count > left:
            after = " after your other orders" if already else ""
            return Invalid("units", f"only {left} {unit_type} left in {order.origin}{after}, not {count}")
    if order.kind in (OrderKind.HOLD, OrderKind.STAND_DOWN):
        return None
    return _target_reason(world, ruleset, order)


def _target_reason(world: World, ruleset: Ruleset, order: Order) -> Invalid | None:
    target = order.target
    if target is None:
        return Invalid("target", f"an order to {_verb(order.kind)} needs a target region")
    if target not in world.regions:
        return Invalid("target", f"unknown region {target!r}")
    if order.kind == OrderKind.REBASE:
        reach = min(ruleset.ranges[t] for t in order.units)
        if target not in world.within(order.origin, reach):
            return Invalid("target", f"{target} is more than {reach} borders from {order.origin}")
    elif target not in world.adjacency[order.origin]:
        return Invalid("target", f"{target} is not adjacent to {order.origin}")
    owner = world.owner[target]
    if order.kind in (OrderKind.MOVE, OrderKind.REBASE):
        if owner != order.nation:
            return Invalid(
                "target", f"{target} is not held by {order.nation}: units move only within their own regions"
            )
        return None
    if owner == order.nation:
        return Invalid("target", f"{target} is {order.nation}'s own region: move there instead of attacking")
    if owner is not None and not world.at_war(order.nation, owner):
        relation = "allied with" if world.relation(order.nation, owner) == "alliance" else "at peace with"
        return Invalid("target", f"{order.nation} is {relation} {owner}")
    return None


def _verb(kind: str) -> str:
    return {"stand_down": "stand down"}.get(kind, kind)


def _roles(roles: Iterable[str]) -> str:
    return " and ".join(ROLE_NAMES[r] for r in roles)


def orders_check(turn_input: TurnInput, ruleset: Ruleset, orders: Sequence[Order]) -> list[RejectedOrder]:
    """The orders that would be rejected, with their reasons: for order entry, before processing."""
    return orders_validate(world_build(turn_input, ruleset), ruleset, orders)[1]


def target_reason(
    world: World, ruleset: Ruleset, *, nation: str, kind: str, origin: str, target: str, units: Iterable[str]
) -> Invalid | None:
    """Why `nation` may not send units of the types `units` from `origin` to `target` with an order of
    `kind`, or None: the target half of order_reason, for pages that offer only the legal targets."""
    order = Order(nation=nation, kind=kind, origin=origin, target=target, units=dict.fromkeys(units, 1))
    return _target_reason(world, ruleset, order)
