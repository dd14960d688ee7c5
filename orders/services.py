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
from django.db import connection, transaction
from django.utils import timezone

from campaign.messages import status_word
from campaign.models import Nation, Turn
from campaign.sql import row_lock_sql
from orders.models import Order
from orders.selectors import Spot, nation_player_locked, order_world_load, orders_consuming, spots_by_code
from rules.engine import Order as EngineOrder
from rules.engine import OrderKind, TurnInputError, orders_check
from rules.engine.messages import InputError, Message
from rules.engine.order_words import kind_word, order_description

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


def order_submit(
    *, user: AbstractBaseUser, turn: Turn, draft: OrderDraft, now: Callable[[], datetime] = timezone.now
) -> Order:
    """Add an order at the end of the nation's list; raises OrderError saying what is wrong and where."""
    with transaction.atomic():
        _turn_held(turn, now)
        nation = _nation_locked(user, turn)
        _kind_check(draft)
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
        _kind_check(draft)
        # Only the orders out of the new origin can suffer: the old origin just has more units left.
        before = orders_consuming(turn_id=turn.pk, nation=nation, origin=draft.origin, leaving_out=order.pk)
        origin, target, units, named = _parsed(nation, draft, before)
        order.kind, order.units = draft.kind, units
        order.origin, order.target = origin.region, target.region if target is not None else None
        after = sorted([*before, _engine_order(nation, order)], key=lambda o: o.ref)
        _judge(turn, nation, origin, named, before=before, after=after, subject=order.sequence)
        order.save(update_fields=["kind", "origin", "target", "units"])
        return order


def order_delete(*, user: AbstractBaseUser, order: Order, now: Callable[[], datetime] = timezone.now) -> None:
    with transaction.atomic():
        _turn_held(order.turn, now)
        nation = _nation_locked(user, order.turn)
        if order.nation_id != nation.pk:
            raise InputError.of("order", "order_not_yours")
        order.delete()


def order_describe(order: Order) -> Message:
    """One line a player reads back: "6 JV, 2 PA attack K7 from V3"."""
    target = order.target.code if order.target_id is not None else None
    return order_description(kind=order.kind, origin=order.origin.code, target=target, units=order.units)


# Locking. Judging an order is the slow part (the map around it, the rules), and it only depends on the
# nation's own orders: so a nation's orders are judged one at a time under a lock on the nation's row,
# while other nations' orders are judged side by side. Before that, the turn's row is held with a key-share
# lock, which other orders' share and which turn processing's claim (FOR UPDATE) waits for: the turn cannot
# close while an order is judged, and processing, which updates every nation's row (missed turns), never
# waits for a nation an order holds while that order waits for the turn. A new order then takes its place
# in the submission order by updating the turn's row (_order_insert), a lock the key-share locks allow.


def _turn_held(turn: Turn, now: Callable[[], datetime]) -> None:
    """Hold the turn's row till the end of the transaction (FOR KEY SHARE), and check that it is open.

    The database compares the deadline, so the row needs no converting: a plain statement, kept cheap.
    """
    _open_refuse(turn.number, *_turn_overdue(turn, _db_moment(now), lock=row_lock_sql(of="t", share=True)))


def _turn_overdue(turn: Turn, moment: Any, *, lock: str = "") -> tuple[str, bool]:
    """The turn's status and whether its deadline has passed (and is not frozen by a pause), as stored."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT t.status, t.deadline <= %s AND c.paused_at IS NULL
            FROM campaign_turn t JOIN campaign_campaign c ON c.id = t.campaign_id
            WHERE t.id = %s {lock}
            """,
            [moment, turn.pk],
        )
        status, overdue = cursor.fetchone()
    return status, bool(overdue)


def _db_moment(now: Callable[[], datetime]) -> Any:
    """The time now as the database stores a deadline, so that the database can compare the two."""
    return Turn._meta.get_field("deadline").get_db_prep_value(now(), connection)


def _open_refuse(number: int, status: str, overdue: bool) -> None:
    if status != Turn.Status.OPEN:
        raise InputError.of("turn", "orders_closed", number=number, status=status_word(status))
    if overdue:
        raise InputError.of("turn", "deadline_passed", number=number)


def _nation_locked(user: AbstractBaseUser, turn: Turn) -> Nation:
    """The user's nation, its row locked until the transaction ends: its orders are judged one at a time."""
    nation = nation_player_locked(user_id=user.pk, campaign_id=turn.campaign_id)
    if nation is None:
        raise InputError.of("nation", "not_a_player")
    if nation.civil_disorder:
        raise InputError.of("nation", "civil_disorder", nation=nation.name)
    return nation


# Taking the next place: the turn's row is updated, which locks it till the end of the transaction (so
# turn processing, which claims the row, waits for the order or the order for it), and only while the turn
# is open. The place is the row's counter, read as the lock is granted, and never below the last place
# taken (orders written by an import or a benchmark do not count places).
_PLACE_SQL = """
    UPDATE campaign_turn SET orders_placed = {greatest}(
        orders_placed, (SELECT COALESCE(MAX(sequence), 0) FROM orders_order WHERE turn_id = %s)
    ) + 1
    WHERE id = %s AND status = %s AND (
        deadline > %s
        OR EXISTS (SELECT 1 FROM campaign_campaign c WHERE c.id = campaign_id AND c.paused_at IS NOT NULL)
    )
    RETURNING orders_placed
"""
_INSERT_SQL = """
    INSERT INTO orders_order (turn_id, nation_id, kind, origin_id, target_id, units, sequence, submitted_at)
    SELECT %s, %s, %s, %s, %s, %s, place.orders_placed, %s FROM place
    RETURNING id, sequence
"""


def _order_insert(order: Order, now: Callable[[], datetime]) -> tuple[int, int]:
    """Write the order in the next place of the turn's submission order; returns its id and place.

    On PostgreSQL one statement takes the place and writes the order; SQLite, which allows no UPDATE in
    a WITH clause, takes two (it runs one writer at a time anyway). Refuses an order for a turn that
    closed while it was judged.
    """
    turn_id = order.turn_id
    place = [turn_id, turn_id, Turn.Status.OPEN, _db_moment(now)]
    row = [
        turn_id,
        order.nation_id,
        order.kind,
        order.origin_id,
        order.target_id,
        Order._meta.get_field("units").get_db_prep_save(order.units, connection),
        Order._meta.get_field("submitted_at").get_db_prep_save(order.submitted_at, connection),
    ]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            sql = f"WITH place AS ({_PLACE_SQL.format(greatest='GREATEST')}) {_INSERT_SQL}"
            cursor.execute(sql, place + row)
            written = cursor.fetchone()
        else:
            cursor.execute(_PLACE_SQL.format(greatest="MAX"), place)
            placed = cursor.fetchone()
            written = None
            if placed is not None:
                cursor.execute(f"WITH place AS (SELECT %s AS orders_placed) {_INSERT_SQL}", [*placed, *row])
                written = cursor.fetchone()
    if written is None:
        _open_refuse(order.turn.number, *_turn_overdue(order.turn, place[-1]))
        raise InputError.of("turn", "turn_not_open", number=order.turn.number)
    return written


def _kind_check(draft: OrderDraft) -> None:
    if draft.kind not in OrderKind._value2member_map_:
        kinds = ", ".join(k.value for k in OrderKind)
        raise InputError.of("kind", "unknown_order_kind_of", kind=draft.kind, kinds=kinds)


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
            raise InputError.of("units", "spoils_order", number=problem.order.ref, reason=problem.message)


def _engine_order(nation: Nation, order: Order) -> EngineOrder:
    return EngineOrder(
        nation=nation.code,
        kind=order.kind,
        origin=order.origin.code,
        target=order.target.code if order.target is not None else None,
        units=dict(order.units),
        ref=order.sequence,
    )
