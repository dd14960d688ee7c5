"""Order entry: submit, change and delete a nation's orders, judged by the engine's own validation.

The same checks the engine makes at processing time (IRON_FIST.md §2.1) run here at once, so a player
learns what is wrong while there is still time to fix it: "B7 is not adjacent to A3", "only 2 PA left in
A3 after your other orders, not 3", "NOR is at peace with WES".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from campaign.messages import status_word
from campaign.models import Nation, Turn
from orders.models import Order
from orders.selectors import Spot, order_number, order_world_load, orders_consuming, spots_by_code
from orders.sql import db_moment, nation_player_lock, order_insert, turn_hold
from rules.engine import Order as EngineOrder
from rules.engine import OrderKind, TurnInputError, orders_check
from rules.engine.messages import InputError, Message
from rules.engine.order_words import kind_word, order_description
from rules.engine.state import TurnInput
from rules.engine.systems import order_kinds_all, system_get

TARGETLESS = frozenset((OrderKind.HOLD, OrderKind.STAND_DOWN))


# The one error class of the services (a GM's input raises it too): a field and a Message.
OrderError = InputError


@dataclass(frozen=True)
class OrderDraft:
    """An order as a player entered it: region codes and counts per unit type, not yet checked."""

    kind: str
    origin: str
    target: str | None
    units: Mapping[str, Any]
    # A doctrine's fields: {"doctrine": "bold", "params": {"retreat_below": 75}}; its region is `origin`
    # (empty: all the nation's other battles).
    params: Mapping[str, Any] = field(default_factory=dict)


def order_submit(
    *, user: AbstractBaseUser, turn: Turn, draft: OrderDraft, now: Callable[[], datetime] = timezone.now
) -> Order:
    """Add an order at the end of the nation's list; raises OrderError saying what is wrong and where."""
    with transaction.atomic():
        _turn_held(turn, now)
        nation = _nation_locked(user, turn)
        if _kind_check(draft, turn):
            new = _unitless_judged(turn, nation, draft, Order(turn=turn, nation=nation))
            new.submitted_at = now()
            new.pk, new.sequence = _order_insert(new, now)
            return new
        earlier = orders_consuming(turn_id=turn.pk, nation=nation, origin=draft.origin)
        origin, target, units, named = _parsed(nation, draft, earlier)
        # A provisional place after the nation's earlier orders: the real one is taken under the turn lock.
        subject = max((o.ref for o in earlier), default=0) + 1
        new = Order(
            turn=turn,
            nation=nation,
            kind=draft.kind,
            origin=origin.region,
            target=target.region if target is not None else None,
            units=units,
            sequence=subject,
        )
        # The new order comes last, so it cannot spoil an earlier one: only its own judgement counts.
        after = [*earlier, _engine_order(nation, new)]
        _judge(turn, nation, origin, named, before=None, after=after, subject=subject)
        new.submitted_at = now()
        new.pk, new.sequence = _order_insert(new, now)
        return new


def order_change(
    *, user: AbstractBaseUser, order: Order, draft: OrderDraft, now: Callable[[], datetime] = timezone.now
) -> Order:
    """Change an order in place: it keeps its place in the submission order."""
    with transaction.atomic():
        turn = order.turn
        _turn_held(turn, now)
        nation = _nation_locked(user, turn)
        if order.nation_id != nation.pk:
            raise InputError.of("order", "order_not_yours")
        if _kind_check(draft, turn):
            _unitless_judged(turn, nation, draft, order)
            order.save(update_fields=["kind", "origin", "target", "units", "params"])
            return order
        # Only the orders out of the new origin can suffer: the old origin just has more units left.
        before = orders_consuming(turn_id=turn.pk, nation=nation, origin=draft.origin, leaving_out=order.pk)
        origin, target, units, named = _parsed(nation, draft, before)
        order.kind, order.units, order.params = draft.kind, units, {}
        order.origin, order.target = origin.region, target.region if target is not None else None
        after = sorted([*before, _engine_order(nation, order)], key=lambda o: o.ref)
        _judge(turn, nation, origin, named, before=before, after=after, subject=order.sequence)
        order.save(update_fields=["kind", "origin", "target", "units", "params"])
        return order


def order_delete(*, user: AbstractBaseUser, order: Order, now: Callable[[], datetime] = timezone.now) -> None:
    with transaction.atomic():
        _turn_held(order.turn, now)
        nation = _nation_locked(user, order.turn)
        if order.nation_id != nation.pk:
            raise InputError.of("order", "order_not_yours")
        order.delete()


def order_describe(order: Order) -> Message:
    """One line a player reads back: "V3 → K7: attack with 6 JV, 2 PA"."""
    target = order.target.code if order.target_id is not None else None
    origin = order.origin.code if order.origin_id is not None else ""
    return order_description(
        kind=order.kind, origin=origin, target=target, units=order.units, params=order.params
    )


def orders_place(*, turn: Turn, orders: Iterable[Mapping[str, Any]]) -> list[Order]:
    """Write orders for `turn` without judging them, in list order, after any the turn has: one statement.

    Each is a mapping of region and nation codes: {"nation", "kind", "origin" (empty for a doctrine),
    "target" (absent or None for hold and stand down), "units", "params" (a system's own fields)}.
    For what was judged elsewhere or need not be: a replayed export (judged when it was entered),
    generated benchmark turns (campaign.generate.orders_generate), tests.
    Returns the orders with their ids.
    """
    orders = list(orders)
    nation_ids = dict(turn.campaign.nations.values_list("code", "id"))
    region_ids = dict(turn.campaign.regions.values_list("code", "id"))
    start = (turn.orders.order_by("-sequence").values_list("sequence", flat=True).first() or 0) + 1
    written = Order.objects.bulk_create(
        Order(
            turn=turn,
            nation_id=nation_ids[o["nation"]],
            kind=o["kind"],
            origin_id=region_ids[o["origin"]] if o.get("origin") else None,
            target_id=region_ids[o["target"]] if o.get("target") else None,
            units=o["units"],
            params=dict(o.get("params") or {}),
            sequence=start + i,
        )
        for i, o in enumerate(orders)
    )
    if any(order.pk is None for order in written):  # a backend without RETURNING: read them back
        written = list(Order.objects.filter(turn=turn, sequence__gte=start).order_by("sequence"))
    return written


# The locks order entry takes, and why in that order (turn shared, then nation, then the place), are
# written once, in orders/sql.py.


def _turn_held(turn: Turn, now: Callable[[], datetime]) -> None:
    """Hold the turn's row till the end of the transaction (lock 1), and check that it is open."""
    _open_refuse(turn.number, *turn_hold(turn_id=turn.pk, moment=db_moment(now())))


def _open_refuse(number: int, status: str, overdue: bool) -> None:
    if status == Turn.Status.BATTLES_PENDING:
        # The map after this turn is not known yet (TABLETOP.md A2).
        raise InputError.of("turn", "orders_wait_for_battles", number=number)
    if status != Turn.Status.OPEN:
        raise InputError.of("turn", "orders_closed", number=number, status=status_word(status))
    if overdue:
        raise InputError.of("turn", "deadline_passed", number=number)


def _nation_locked(user: AbstractBaseUser, turn: Turn) -> Nation:
    """The user's nation, its row locked until the transaction ends: its orders are judged one at a time."""
    nation = nation_player_lock(user_id=user.pk, campaign_id=turn.campaign_id)
    if nation is None:
        raise InputError.of("nation", "not_a_player")
    if nation.civil_disorder:
        raise InputError.of("nation", "civil_disorder", nation=nation.name)
    return nation


def _order_insert(order: Order, now: Callable[[], datetime]) -> tuple[int, int]:
    """Write the order in the next place of the turn's submission order (lock 3); returns its id and
    place. Refuses an order for a turn that closed while it was judged."""
    moment = db_moment(now())
    written = order_insert(order=order, moment=moment)
    if written is None:
        _open_refuse(order.turn.number, *turn_hold(turn_id=order.turn_id, moment=moment, lock=False))
        raise InputError.of("turn", "turn_not_open", number=order.turn.number)
    return written


def _kind_check(draft: OrderDraft, turn: Turn) -> bool:
    """Whether the draft's kind names no units (a system's own, Sodankäynti §4.1, §4.2); refused when the
    campaign's battle system offers no such kind, unless the system checks orders itself and says why in
    its own words (Sodankäynti §4: there is no support to stand down from)."""
    system = system_get(turn.campaign.battle_system)
    if draft.kind not in system.kinds and (system.order_check is None or draft.kind not in order_kinds_all()):
        kinds = ", ".join(system.kinds)
        raise InputError.of("kind", "unknown_order_kind_of", kind=draft.kind, kinds=kinds)
    return draft.kind in system.unitless_kinds


def _parsed(
    nation: Nation, draft: OrderDraft, others: list[EngineOrder]
) -> tuple[Spot, Spot | None, dict[str, int], dict[str, Spot]]:
    """The draft's origin, target and counts, and every region the nation's orders out of the origin
    name (those `others` too) as the rules judge them, read in one statement."""
    codes = {draft.origin, *(o.target for o in others if o.target is not None)}
    if draft.target and draft.kind not in TARGETLESS:
        codes.add(draft.target)
    named = spots_by_code(nation=nation, origin=draft.origin, codes=codes)
    origin = named.get(draft.origin)
    if origin is None:
        raise InputError.of("origin", "unknown_region", region=draft.origin)
    target = None
    if draft.kind in TARGETLESS:
        if draft.target:
            raise InputError.of("target", "no_target_allowed", kind=kind_word(draft.kind))
    elif not draft.target:
        raise InputError.of("target", "choose_target")
    else:
        target = named.get(draft.target)
        if target is None:
            raise InputError.of("target", "unknown_region", region=draft.target)
    if not isinstance(draft.units, Mapping):
        raise InputError.of("units", "counts_expected")
    units = {}
    for unit_type, count in draft.units.items():
        if isinstance(count, str) and count.strip().lstrip("-").isdigit():
            count = int(count)
        if not isinstance(count, int) or isinstance(count, bool):
            raise InputError.of("units", "count_not_whole", unit_type=str(unit_type), count=repr(count))
        if count:
            units[str(unit_type)] = count
    return origin, target, units, named


def _judge(
    turn: Turn,
    nation: Nation,
    origin: Spot,
    named: dict[str, Spot],
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
        turn=turn, nation=nation, origin=origin, named=named, ruleset=ruleset, reach=None if rebase else 1
    )
    try:
        already = {r.order.ref for r in orders_check(world, ruleset, before)} if before is not None else set()
        rejected = orders_check(world, ruleset, after)
    except TurnInputError as error:
        raise InputError.of(
            "non_field_errors", "map_inconsistent", region=origin.region.code, error=str(error)
        ) from error
    for problem in rejected:
        if problem.order.ref == subject:
            raise InputError(problem.field or "non_field_errors", problem.message)
        if problem.order.ref not in already:
            number = order_number(turn_id=turn.pk, nation_id=nation.pk, sequence=problem.order.ref)
            raise InputError.of("units", "spoils_order", number=number, reason=problem.message)


def _unitless_judged(turn: Turn, nation: Nation, draft: OrderDraft, order: Order) -> Order:
    """`order` filled from a draft of a kind that names no units (the system's `unitless_kinds`: Sodankäynti's
    doctrine and ambush, §4.1, §4.2), judged by the rules on the regions it names: it consumes no units, so
    no other order can spoil it or be spoilt. A kind with fields of its own (`unitless_params`) has no
    target; the system says how its fields are kept."""
    shaped = system_get(turn.campaign.battle_system).unitless_params.get(draft.kind)
    targetless = shaped is not None
    codes = [c for c in (draft.origin, None if targetless else draft.target) if c]
    named = spots_by_code(nation=nation, origin=draft.origin, codes=codes) if codes else {}
    for code in codes:
        if code not in named:
            raise InputError.of("target" if code == draft.target else "origin", "unknown_region", region=code)
    if not targetless and not draft.target:
        raise InputError.of("target", "choose_target")
    order.kind, order.units = draft.kind, {}
    order.origin = named[draft.origin].region if draft.origin else None
    order.target = None if targetless else named[draft.target].region
    order.params = shaped(draft.origin or "", draft.params or {}) if shaped else {}
    ruleset = turn.campaign.ruleset()
    if named:
        world = order_world_load(
            turn=turn, nation=nation, origin=named[draft.origin], named=named, ruleset=ruleset, reach=1
        )
    else:
        world = TurnInput(nations=(nation.code,), regions=(), borders=(), stacks=(), weather=turn.weather)
    for problem in orders_check(world, ruleset, [_engine_order(nation, order)]):
        raise InputError(problem.field or "non_field_errors", problem.message)
    return order


def _engine_order(nation: Nation, order: Order) -> EngineOrder:
    return EngineOrder(
        nation=nation.code,
        kind=order.kind,
        origin=order.origin.code if order.origin is not None else "",
        target=order.target.code if order.target is not None else None,
        units=dict(order.units),
        ref=order.sequence,
        params=dict(order.params or {}),
    )
