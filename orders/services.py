"""Order entry: submit, change and delete a nation's orders, judged by the engine's own validation.

The same checks the engine makes at processing time (IRON_FIST.md §2.1) run here at once, so a player
learns what is wrong while there is still time to fix it: "B7 is not adjacent to A3", "only 2 PA left in
A3 after your other orders, not 3", "NOR is at peace with WES".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from campaign.models import Campaign, Membership, Nation, Region, Turn
from orders.models import Order
from orders.selectors import order_world_load
from rules.engine import Order as EngineOrder
from rules.engine import OrderKind, TurnInputError, orders_check
from rules.engine.validation import CONSUMING

TARGETLESS = frozenset((OrderKind.HOLD, OrderKind.STAND_DOWN))


class OrderError(Exception):
    """An order that cannot be accepted; `field` names the part at fault for forms and the API."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class OrderDraft:
    """An order as a player entered it: region codes and counts per unit type, not yet checked."""

    kind: str
    origin: str
    target: str | None
    units: Mapping[str, Any]


def order_submit(
    *, user: AbstractBaseUser, turn: Turn, draft: OrderDraft, now: Callable[[], datetime] = timezone.now
) -> Order:
    """Add an order at the end of the nation's list; raises OrderError saying what is wrong and where."""
    with transaction.atomic():
        turn = _turn_open(turn, now)
        nation = _nation_locked(user, turn)
        origin, target, units = _parsed(turn, draft)
        earlier = _orders_from(turn, nation, origin)
        # A provisional place after the nation's earlier orders: the real one is taken under the turn lock.
        subject = max((o.ref for o in earlier), default=0) + 1
        new = Order(
            turn=turn,
            nation=nation,
            kind=draft.kind,
            origin=origin,
            target=target,
            units=units,
            sequence=subject,
        )
        # The new order comes last, so it cannot spoil an earlier one: only its own judgement counts.
        after = [*earlier, _engine_order(nation, new)]
        _judge(turn, nation, origin, target, before=None, after=after, subject=subject)
        new.turn = turn = _turn_locked(turn, now)
        # Read after the lock, in a statement of its own: a subquery in the locking SELECT would see the
        # snapshot from before the wait for the lock, and two orders would take the same place.
        new.sequence = (Order.objects.filter(turn=turn).aggregate(m=Max("sequence"))["m"] or 0) + 1
        new.save()
        return new


def order_change(
    *, user: AbstractBaseUser, order: Order, draft: OrderDraft, now: Callable[[], datetime] = timezone.now
) -> Order:
    """Change an order in place: it keeps its place in the submission order."""
    with transaction.atomic():
        turn = _turn_open(order.turn, now)
        nation = _nation_locked(user, turn)
        if order.nation_id != nation.pk:
            raise OrderError("order", "this order is not your nation's")
        origin, target, units = _parsed(turn, draft)
        order.kind, order.origin, order.target, order.units = draft.kind, origin, target, units
        # Only the orders out of the new origin can suffer: the old origin just has more units left.
        before = _orders_from(turn, nation, origin, leaving_out=order)
        after = sorted([*before, _engine_order(nation, order)], key=lambda o: o.ref)
        _judge(turn, nation, origin, target, before=before, after=after, subject=order.sequence)
        order.turn = _turn_locked(turn, now)
        order.save(update_fields=["kind", "origin", "target", "units"])
        return order


def order_delete(*, user: AbstractBaseUser, order: Order, now: Callable[[], datetime] = timezone.now) -> None:
    with transaction.atomic():
        turn = _turn_open(order.turn, now)
        nation = _nation_locked(user, turn)
        if order.nation_id != nation.pk:
            raise OrderError("order", "this order is not your nation's")
        _turn_locked(turn, now)
        order.delete()


def order_describe(order: Order) -> str:
    """One line a player reads back: "6 JV, 2 PA attack K7 from V3"."""
    units = ", ".join(f"{count} {unit_type}" for unit_type, count in order.units.items())
    kind = order.kind.replace("_", " ")
    if order.target_id is None:
        return f"{units} {kind} in {order.origin.code}"
    return f"{units} {kind} {order.target.code} from {order.origin.code}"


# Locking. Judging an order is the slow part (the map around it, the rules), and it only depends on the
# nation's own orders: so a nation's orders are judged one at a time under a lock on the nation's row,
# while other nations' orders are judged side by side. The turn's row is locked only at the end, briefly,
# to take the next place in the submission order and to be sure the turn is still open as the order is
# written: processing claims the turn with FOR UPDATE, which waits for these locks and they for it.
# Both are FOR NO KEY UPDATE, which does not block the key-share locks that inserting rows referring to
# the nation or the turn take (processing writes stacks of every nation), so the two cannot deadlock.


def _turn_open(turn: Turn, now: Callable[[], datetime]) -> Turn:
    """Refuse at once an order for a turn the caller saw closed; it is checked again under the lock."""
    _open_check(turn, now)
    return turn


def _turn_locked(turn: Turn, now: Callable[[], datetime]) -> Turn:
    """The turn's row, locked till the end of the transaction."""
    locked = Turn.objects.select_for_update(no_key=True).get(pk=turn.pk)
    locked.campaign = turn.campaign
    _open_check(locked, now)
    return locked


def _open_check(turn: Turn, now: Callable[[], datetime]) -> None:
    if turn.status != Turn.Status.OPEN:
        raise OrderError("turn", f"turn {turn.number} is {turn.status}: orders are closed")
    # While the GM has paused the campaign its deadline is frozen: orders stay open past it.
    if (
        now() >= turn.deadline
        and not Campaign.objects.filter(pk=turn.campaign_id, paused_at__isnull=False).exists()
    ):
        raise OrderError("turn", f"the deadline of turn {turn.number} has passed")


def _nation_locked(user: AbstractBaseUser, turn: Turn) -> Nation:
    """The user's nation, its row locked until the transaction ends: its orders are judged one at a time."""
    membership = (
        Membership.objects.select_related("nation")
        .select_for_update(of=("nation",), no_key=True)
        # nation__isnull=False makes the join an inner one: PostgreSQL locks no row of an outer join.
        .filter(user=user, campaign_id=turn.campaign_id, role=Membership.Role.PLAYER, nation__isnull=False)
        .first()
    )
    if membership is None:
        raise OrderError("nation", "only a player of a nation in this campaign can give orders")
    if membership.nation.civil_disorder:
        raise OrderError(
            "nation",
            f"{membership.nation.name} is in civil disorder: it takes orders again once the GM "
            "assigns it a player",
        )
    return membership.nation


def _parsed(turn: Turn, draft: OrderDraft) -> tuple[Region, Region | None, dict[str, int]]:
    if draft.kind not in OrderKind._value2member_map_:
        kinds = ", ".join(k.value for k in OrderKind)
        raise OrderError("kind", f"unknown kind of order {draft.kind!r}: one of {kinds}")
    codes = [draft.origin] + ([draft.target] if draft.target else [])
    # Without the map drawing: order entry never needs it, and it is the bulk of a region's row.
    found = Region.objects.filter(campaign_id=turn.campaign_id, code__in=codes).defer("geometry")
    regions = {r.code: r for r in found}
    origin = regions.get(draft.origin)
    if origin is None:
        raise OrderError("origin", f"unknown region {draft.origin!r}")
    target = None
    if draft.kind in TARGETLESS:
        if draft.target:
            raise OrderError("target", f"a {draft.kind.replace('_', ' ')} order has no target")
    elif not draft.target:
        raise OrderError("target", "choose a target region")
    else:
        target = regions.get(draft.target)
        if target is None:
            raise OrderError("target", f"unknown region {draft.target!r}")
    if not isinstance(draft.units, Mapping):
        raise OrderError("units", 'expected counts per unit type, like {"JV": 3}')
    units = {}
    for unit_type, count in draft.units.items():
        if isinstance(count, str) and count.strip().lstrip("-").isdigit():
            count = int(count)
        if not isinstance(count, int) or isinstance(count, bool):
            raise OrderError("units", f"the count of {unit_type} must be a whole number, got {count!r}")
        if count:
            units[str(unit_type)] = count
    return origin, target, units


def _orders_from(
    turn: Turn, nation: Nation, origin: Region, leaving_out: Order | None = None
) -> list[EngineOrder]:
    """The nation's earlier orders out of `origin` that take units from it (§2.1), as the engine reads them.

    Holds and stand-downs take nothing, so they cannot make another order too big: left out, a nation
    with many orders is judged as fast as one with few. Read as plain values, not model instances.
    """
    rows = Order.objects.filter(turn=turn, nation=nation, origin=origin, kind__in=sorted(CONSUMING))
    if leaving_out is not None:
        rows = rows.exclude(pk=leaving_out.pk)
    rows = rows.order_by("sequence").values_list("sequence", "kind", "target__code", "units")
    return [
        EngineOrder(
            nation=nation.code, kind=kind, origin=origin.code, target=target, units=dict(units), ref=sequence
        )
        for sequence, kind, target, units in rows
    ]


def _judge(
    turn: Turn,
    nation: Nation,
    origin: Region,
    target: Region | None,
    *,
    before: list[EngineOrder] | None,
    after: list[EngineOrder],
    subject: int,
) -> None:
    """Judge the nation's orders out of `origin` in submission order, as the engine will (§2.1).

    Raises OrderError for the order being entered (`subject`, by sequence) when the rules reject it, or
    when it would make a later order invalid that was valid `before` it changed (None: nothing to spoil).
    """
    ruleset = turn.campaign.ruleset()
    rebase = any(o.kind == OrderKind.REBASE for o in after)
    world = order_world_load(
        turn=turn, nation=nation, origin=origin, target=target, ruleset=ruleset, reach=None if rebase else 1
    )
    try:
        already = {r.order.ref for r in orders_check(world, ruleset, before)} if before is not None else set()
        rejected = orders_check(world, ruleset, after)
    except TurnInputError as error:
        raise OrderError(
            "non_field_errors", f"the map around {origin.code} is inconsistent: {error}"
        ) from error
    for problem in rejected:
        if problem.order.ref == subject:
            raise OrderError(problem.field or "non_field_errors", problem.reason)
        if problem.order.ref not in already:
            raise OrderError(
                "units", f"this would leave your order #{problem.order.ref} invalid: {problem.reason}"
            )


def _engine_order(nation: Nation, order: Order) -> EngineOrder:
    return EngineOrder(
        nation=nation.code,
        kind=order.kind,
        origin=order.origin.code,
        target=order.target.code if order.target is not None else None,
        units=dict(order.units),
        ref=order.sequence,
    )
