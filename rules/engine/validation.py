"""Order validation (IRON_FIST.md §2.1, §13): one piece of code for order entry and for the engine.

Orders are checked in submission order; a rejected order consumes nothing. `move`, `rebase` and `attack`
orders of one nation out of one region together may not exceed, type by type, the units there at the
start of the turn. `hold` and `stand_down` consume nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from .messages import Message, gettext_noop, messages_register
from .order_words import kind_word
from .ruleset import Ruleset
from .state import CONSUMING, Order, OrderKind, RejectedOrder, TurnInput
from .systems import system_get
from .world import World, world_build

# Why an order is refused. A parameter named `kind` is an order kind, shown in the reader's words.
messages_register(
    {
        "unknown_nation": gettext_noop("unknown nation {nation!r}"),
        "unknown_order_kind": gettext_noop("unknown kind of order {kind!r}"),
        "unknown_region": gettext_noop("unknown region {region!r}"),
        "origin_not_held": gettext_noop("{region} is not held by {nation}"),
        "no_units": gettext_noop("the order names no units"),
        "unknown_unit_type": gettext_noop("unknown unit type {unit_type!r}"),
        "cannot_move": gettext_noop("{unit_type} cannot move: only ground units and artillery can"),
        "cannot_rebase": gettext_noop("{unit_type} cannot rebase: only air units can"),
        "cannot_attack": gettext_noop("{unit_type} cannot attack: only ground units can"),
        "cannot_hold": gettext_noop("{unit_type} cannot hold"),
        "cannot_stand_down": gettext_noop("{unit_type} cannot stand down: only artillery and air units can"),
        "count_not_positive": gettext_noop(
            "the count of {unit_type} must be a whole number above 0, got {count}"
        ),
        "units_short": gettext_noop("only {left} {unit_type} left in {origin}, not {count}"),
        "units_short_after_orders": gettext_noop(
            "only {left} {unit_type} left in {origin} after your other orders, not {count}"
        ),
        "needs_target": gettext_noop("an order to {kind} needs a target region"),
        "out_of_reach": gettext_noop("{target} is more than {reach} borders from {origin}"),
        "not_adjacent": gettext_noop("{target} is not adjacent to {origin}"),
        "move_not_own": gettext_noop(
            "{region} is not held by {nation}: units move only within their own regions"
        ),
        "attack_own": gettext_noop("{region} is {nation}'s own region: move there instead of attacking"),
        "at_peace": gettext_noop("{nation} is at peace with {owner}"),
        "allied": gettext_noop("{nation} is allied with {owner}"),
    }
)

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
    message: Message

    @classmethod
    def of(cls, field: str, code: str, **params: object) -> Invalid:
        return cls(field, Message(code, params))


Counts = Mapping[str, int]
TAKES_NOTHING = frozenset((OrderKind.HOLD, OrderKind.STAND_DOWN))  # no target, no units taken
STAYS_OWN = frozenset((OrderKind.MOVE, OrderKind.REBASE))  # within the nation's own regions


def units_left(here: Counts, orders: Iterable[tuple[str, Counts]]) -> dict[str, int]:
    """The units of a nation's stack left after its orders out of it, given as (kind, units) (§2.1):
    move, rebase and attack take their units, hold and stand down take none. Order entry, the order
    form and the roster all count with this; below 0 where orders ask for more than there is."""
    left = dict(here)
    for kind, units in orders:
        if kind in CONSUMING:
            for unit_type, count in units.items():
                left[unit_type] = left.get(unit_type, 0) - count
    return left


def orders_validate(
    world: World, ruleset: Ruleset, orders: Sequence[Order]
) -> tuple[list[tuple[int, Order]], list[RejectedOrder]]:
    """Split orders into the accepted ones (with their index) and the rejected ones with a reason."""
    left: dict[tuple[str, str], dict[str, int]] = {}  # (nation, origin) -> units left by accepted orders
    accepted, rejected = [], []
    system = system_get(ruleset.battle_system)
    own_check = system.order_check(world, ruleset) if system.order_check else None
    for index, order in enumerate(orders):
        key = (order.nation, order.origin)
        # A system's own checks come first; its own kinds of order skip the common ones.
        invalid = own_check(order) if own_check else None
        if invalid is None and order.kind not in system.unitless_kinds:
            invalid = order_reason(world, ruleset, order, left.get(key))
        if invalid is None:
            accepted.append((index, order))
            if order.kind in CONSUMING:
                start = left[key] if key in left else world.units.get(order.origin, {}).get(order.nation, {})
                left[key] = units_left(start, [(order.kind, order.units)])
        else:
            rejected.append(RejectedOrder(index, order, invalid.message, invalid.field))
    return accepted, rejected


def order_reason(world: World, ruleset: Ruleset, order: Order, left: Counts | None) -> Invalid | None:
    """Why `order` is invalid, given the units `left` by the nation's earlier accepted orders out of its
    origin (None: no such orders), or None."""
    if order.nation not in world.nation_index:
        return Invalid.of("nation", "unknown_nation", nation=order.nation)
    kind_roles = ruleset.kind_roles or KIND_ROLES
    if order.kind not in kind_roles:
        return Invalid.of("kind", "unknown_order_kind", kind=str(order.kind))
    if order.origin not in world.regions:
        return Invalid.of("origin", "unknown_region", region=order.origin)
    if world.owner[order.origin] != order.nation:
        return Invalid.of("origin", "origin_not_held", region=order.origin, nation=order.nation)
    if not order.units:
        return Invalid.of("units", "no_units")
    allowed = kind_roles[order.kind]
    here = world.units.get(order.origin, {}).get(order.nation, {})
    for unit_type, count in order.units.items():
        unit = ruleset.unit_types.get(unit_type)
        if unit is None:
            return Invalid.of("units", "unknown_unit_type", unit_type=unit_type)
        if unit.role not in allowed:
            return Invalid.of("units", f"cannot_{order.kind}", unit_type=unit_type)
        if not isinstance(count, int) or isinstance(count, bool) or count <= 0:
            return Invalid.of("units", "count_not_positive", unit_type=unit_type, count=repr(count))
        # Holds and stand-downs take nothing, so only what is there limits them.
        now = (left if left is not None and order.kind in CONSUMING else here).get(unit_type, 0)
        if count > now:
            code = "units_short_after_orders" if now < here.get(unit_type, 0) else "units_short"
            return Invalid.of("units", code, left=now, unit_type=unit_type, origin=order.origin, count=count)
    if order.kind in TAKES_NOTHING:
        return None
    return _target_reason(world, ruleset, order)


def _target_reason(world: World, ruleset: Ruleset, order: Order) -> Invalid | None:
    target = order.target
    if target is None:
        return Invalid.of("target", "needs_target", kind=kind_word(order.kind))
    if target not in world.regions:
        return Invalid.of("target", "unknown_region", region=target)
    if order.kind == OrderKind.REBASE:
        reach = min(ruleset.ranges[t] for t in order.units)
        if target not in world.within(order.origin, reach):
            return Invalid.of("target", "out_of_reach", target=target, reach=reach, origin=order.origin)
    elif target not in world.adjacency[order.origin]:
        return Invalid.of("target", "not_adjacent", target=target, origin=order.origin)
    owner = world.owner[target]
    if order.kind in STAYS_OWN:
        if owner != order.nation:
            return Invalid.of("target", "move_not_own", region=target, nation=order.nation)
        return None
    if owner == order.nation:
        return Invalid.of("target", "attack_own", region=target, nation=order.nation)
    if owner is not None and not world.at_war(order.nation, owner):
        code = "allied" if world.relation(order.nation, owner) == "alliance" else "at_peace"
        return Invalid.of("target", code, nation=order.nation, owner=owner)
    return None


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
