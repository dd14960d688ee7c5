"""Order entry's hand-written SQL: the statements every submission runs, and the locks they take.

Entering an order is the one write every player makes many times a turn. On the benchmark machine the
ORM spends about 1 ms building each query, four times what the query itself costs, so the statements
every submission runs are written here by hand (`manage.py bench_api` measures the whole request: an
order within 2x the p99 of a minimal DRF write). Each reads rows by primary or unique key; none grows
with the map. Tables and columns are named from the models' `_meta` (campaign.sql.sql_format). What only
some orders need (the relations of an attack, the rings a rebase crosses) stays with the ORM.

The lock protocol of order entry, the one place it is written
--------------------------------------------------------------
1. The turn, shared (`turn_hold`): the turn's row FOR KEY SHARE, first, and its status and deadline
   checked in the same statement. Other orders' key-share locks do not conflict with it; turn
   processing's claim (`rules.services.turn_process`: SELECT ... FOR UPDATE, then open -> processing)
   waits for every order being judged, so the turn cannot close under one.
2. The nation (`nation_player_lock`): the nation's row FOR NO KEY UPDATE. Judging an order is the slow
   part and depends only on the nation's own orders, so one nation's orders are judged one at a time while
   other nations' are judged side by side. It does not block the key-share locks that writing rows which
   refer to the nation takes (processing writes every nation's stacks); processing's update of every
   nation's row (missed turns) waits for it, and cannot deadlock with it, because the order took the turn
   (1) before the nation and processing claims the turn before it touches a nation.
3. The place (`order_insert`): a new order takes the next place in the turn's submission order, and is
   written in the same statement, only while the turn is open and before its deadline. On PostgreSQL the
   place is the next value of a sequence (`PLACES`): it takes no lock, so the nations' orders are written
   side by side. The turn's counter it replaced held the turn's row from the place to COMMIT, and under
   load every order of the turn queued there (a third of order entry's throughput). Places therefore
   rise in the order they were taken but skip numbers (an order rolled back, another campaign's); what a
   player reads is the number of the order in its own nation's list. SQLite, which lets one writer in
   at a time anyway, moves the turn's counter (`Turn.orders_placed`). Either way the place is never below
   the turn's last, so orders written with places of their own (orders.services.orders_place: an
   import, a benchmark) are not given one twice.
On SQLite there are no row locks (campaign.sql.row_lock_sql is empty): it lets one writer in at a time.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import connection

from campaign.models import Border, Campaign, Membership, Nation, Region, Stack, Turn
from campaign.sql import columns_sql, instance_from_row, row_lock_sql, sql_format, sql_in, sql_rows
from orders.models import Order

# The columns a Region is read with; the rest (its name, its map drawing) load only if asked for.
REGION_COLUMNS = ("id", "campaign_id", "code", "terrain", "fort", "home_id", "owner_id")
NATION_COLUMNS = ("id", "campaign_id", "code", "name", "civil_disorder")
MODELS = (Border, Campaign, Membership, Nation, Order, Region, Stack, Turn)


def _sql(template: str) -> str:
    return sql_format(template, *MODELS)


# --- (1) The turn, shared -------------------------------------------------------------------------------


def turn_hold(*, turn_id: int, moment: Any, lock: bool = True) -> tuple[str, bool]:
    """The turn's status, and whether its deadline has passed (not frozen by a pause), as stored; with
    `lock` its row is held FOR KEY SHARE till the transaction ends. `moment`: now, as a deadline is stored
    (`db_moment`), so that the database compares the two and the row needs no converting."""
    ((status, overdue),) = sql_rows(
        _sql(
            f"""
            SELECT t.{{Turn.status}}, t.{{Turn.deadline}} <= %s AND c.{{Campaign.paused_at}} IS NULL
            FROM {{Turn}} t JOIN {{Campaign}} c ON c.{{Campaign.id}} = t.{{Turn.campaign}}
            WHERE t.{{Turn.id}} = %s {row_lock_sql(of="t", share=True) if lock else ""}
            """
        ),
        [moment, turn_id],
    )
    return status, bool(overdue)


def db_moment(moment: Any) -> Any:
    """A moment as the database stores a deadline, so that the database can compare the two."""
    return Turn._meta.get_field("deadline").get_db_prep_value(moment, connection)


# --- (2) The nation -------------------------------------------------------------------------------------


def nation_player_lock(*, user_id: int, campaign_id: int) -> Nation | None:
    """The nation `user_id` plays in the campaign, its row locked FOR NO KEY UPDATE till the end."""
    rows = sql_rows(
        _sql(
            f"""
            SELECT {columns_sql(Nation, "n", NATION_COLUMNS)}
            FROM {{Membership}} m JOIN {{Nation}} n ON n.{{Nation.id}} = m.{{Membership.nation}}
            WHERE m.{{Membership.user}} = %s AND m.{{Membership.campaign}} = %s
              AND m.{{Membership.role}} = %s {row_lock_sql(of="n")}
            """
        ),
        [user_id, campaign_id, Membership.Role.PLAYER],
    )
    return instance_from_row(Nation, rows[0], NATION_COLUMNS) if rows else None


# --- What judging an order reads ------------------------------------------------------------------------


def spot_rows(*, nation: Nation, origin: str, codes: Iterable[str]) -> list[tuple]:
    """The campaign's regions named by `codes`, one row per stack of the nation's in each (or one row
    without): the region's REGION_COLUMNS, then its home's and owner's codes, whether it borders `origin`,
    and the stack's unit type and count (None, None without one). Unknown codes are simply missing."""
    marks, params = sql_in(sorted(set(codes)))
    return sql_rows(
        _sql(
            f"""
            SELECT {columns_sql(Region, "r", REGION_COLUMNS)}, h.{{Nation.code}}, o.{{Nation.code}},
                EXISTS (
                    SELECT 1 FROM {{Border}} b
                    WHERE (b.{{Border.region_a}} = r.{{Region.id}}
                           AND b.{{Border.region_b}} = g.{{Region.id}})
                       OR (b.{{Border.region_b}} = r.{{Region.id}}
                           AND b.{{Border.region_a}} = g.{{Region.id}})
                ),
                s.{{Stack.unit_type}}, s.{{Stack.count}}
            FROM {{Region}} r
            LEFT JOIN {{Region}} g
                ON g.{{Region.campaign}} = r.{{Region.campaign}} AND g.{{Region.code}} = %s
            LEFT JOIN {{Nation}} h ON h.{{Nation.id}} = r.{{Region.home}}
            LEFT JOIN {{Nation}} o ON o.{{Nation.id}} = r.{{Region.owner}}
            LEFT JOIN {{Stack}} s ON s.{{Stack.region}} = r.{{Region.id}}
                AND s.{{Stack.nation}} = %s AND s.{{Stack.count}} > 0
            WHERE r.{{Region.campaign}} = %s AND r.{{Region.code}} IN ({marks})
            """
        ),
        [origin, nation.pk, nation.campaign_id, *params],
    )


def region_from_row(values: tuple) -> Region:
    """A Region from the REGION_COLUMNS of a spot row (the other fields deferred)."""
    return instance_from_row(Region, values, REGION_COLUMNS)


def consuming_rows(
    *, turn_id: int, nation: Nation, origin: str, kinds: Iterable[str]
) -> list[tuple[int, int, str, str | None, dict]]:
    """The nation's orders of `kinds` out of region `origin`, in submission order: (id, sequence, kind,
    target code, units)."""
    marks, kind_params = sql_in(sorted(kinds))
    rows = sql_rows(
        _sql(
            f"""
            SELECT o.{{Order.id}}, o.{{Order.sequence}}, o.{{Order.kind}}, t.{{Region.code}},
                o.{{Order.units}}
            FROM {{Order}} o LEFT JOIN {{Region}} t ON t.{{Region.id}} = o.{{Order.target}}
            WHERE o.{{Order.turn}} = %s AND o.{{Order.nation}} = %s AND o.{{Order.kind}} IN ({marks})
              AND o.{{Order.origin}} = (
                SELECT g.{{Region.id}} FROM {{Region}} g
                WHERE g.{{Region.campaign}} = %s AND g.{{Region.code}} = %s
              )
            """
        ),
        [turn_id, nation.pk, *kind_params, nation.campaign_id, origin],
    )
    units_field = Order._meta.get_field("units")
    # Sorted here, not by ORDER BY: asked for the order of the turn's places, PostgreSQL read the whole
    # turn's orders in that index whenever its statistics did not know the turn yet (they learn of a turn's
    # orders only when autovacuum analyzes the table), instead of the few out of this origin.
    return [
        (pk, sequence, kind, target, dict(units_field.from_db_value(units, None, connection)))
        for pk, sequence, kind, target, units in sorted(rows, key=lambda row: row[1])
    ]


# --- (3) The place --------------------------------------------------------------------------------------

# The sequence places are drawn from on PostgreSQL (orders/migrations/0006_order_place_sequence.py).
PLACES = f"{Order._meta.db_table}_place"

# Only while the turn is open and its deadline not past (or frozen by a pause).
_OPEN_SQL = """
    {Turn}.{Turn.id} = %s AND {Turn}.{Turn.status} = %s AND (
        {Turn}.{Turn.deadline} > %s
        OR EXISTS (
            SELECT 1 FROM {Campaign} c
            WHERE c.{Campaign.id} = {Turn}.{Turn.campaign} AND c.{Campaign.paused_at} IS NOT NULL
        )
    )
"""
# Never below the turn's last place: a place written by hand (orders_place, a test) is not taken again.
# The last place as the first of the turn's places from the top, not MAX(): asked for a MAX, PostgreSQL
# counted through the turn's every order whenever its statistics did not know the turn's orders yet.
_AFTER_LAST_SQL = """COALESCE((
    SELECT {Order.sequence} FROM {Order} WHERE {Order.turn} = %s ORDER BY {Order.sequence} DESC LIMIT 1
), 0) + 1"""
_COLUMNS_SQL = """
    {Order.turn}, {Order.nation}, {Order.kind}, {Order.origin}, {Order.target}, {Order.units},
    {Order.params}, {Order.submitted_at}, {Order.sequence}
"""
# PostgreSQL: the next value of the sequence, which takes no lock and is never handed out twice.
_INSERT_DRAWN_SQL = f"""
    INSERT INTO {{Order}} ({_COLUMNS_SQL})
    SELECT %s, %s, %s, %s, %s, %s, %s, %s, GREATEST(nextval('{PLACES}'), {_AFTER_LAST_SQL})
    FROM {{Turn}} WHERE {_OPEN_SQL}
    RETURNING {{Order.id}}, {{Order.sequence}}
"""
# SQLite: the turn's counter, which one writer at a time moves on.
_COUNTER_SQL = f"""
    UPDATE {{Turn}} SET {{Turn.orders_placed}} = MAX({{Turn.orders_placed}} + 1, {_AFTER_LAST_SQL})
    WHERE {_OPEN_SQL}
    RETURNING {{Turn.orders_placed}}
"""
_INSERT_COUNTED_SQL = f"""
    INSERT INTO {{Order}} ({_COLUMNS_SQL}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)
    RETURNING {{Order.id}}, {{Order.sequence}}
"""


def order_insert(*, order: Order, moment: Any) -> tuple[int, int] | None:
    """Write the order in the next place of its turn's submission order: its id and place; None when the
    turn is not open for orders any more (it closed while the order was judged). `moment`: db_moment."""
    turn_id = order.turn_id
    row = [
        turn_id,
        order.nation_id,
        order.kind,
        order.origin_id,
        order.target_id,
        Order._meta.get_field("units").get_db_prep_save(order.units, connection),
        Order._meta.get_field("params").get_db_prep_save(order.params, connection),
        Order._meta.get_field("submitted_at").get_db_prep_save(order.submitted_at, connection),
    ]
    is_open = [turn_id, Turn.Status.OPEN, moment]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(_sql(_INSERT_DRAWN_SQL), [*row, turn_id, *is_open])
            return cursor.fetchone()
        cursor.execute(_sql(_COUNTER_SQL), [turn_id, *is_open])
        placed = cursor.fetchone()
        if placed is None:
            return None
        cursor.execute(_sql(_INSERT_COUNTED_SQL), [*row, *placed])
        return cursor.fetchone()
