"""Reads for order entry: a nation's orders, and the small piece of the world that judges a new one.

Entering an order is the one write every player makes many times a turn, so its reads are a few plain
SQL statements rather than ORM querysets: on the benchmark machine the ORM spends about 1 ms building
each query, four times what the query itself costs (`manage.py bench_api` measures the whole request).
Each statement reads rows by primary or unique key; none grows with the map.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection
from django.db.models import QuerySet

from campaign.models import Nation, Region, Turn
from campaign.sql import columns_sql, instance_from_row, row_lock_sql, sql_in, sql_rows
from orders.models import Order
from rules.engine import Order as EngineOrder
from rules.engine.graph import rings
from rules.engine.ruleset import Ruleset
from rules.engine.state import Region as EngineRegion
from rules.engine.state import Relation, Stack, TurnInput
from rules.engine.validation import CONSUMING

# The columns a Region is read with; the rest (its name, its map drawing) load only if asked for.
REGION_COLUMNS = ("id", "campaign_id", "code", "terrain", "fort", "home_id", "owner_id")
NATION_COLUMNS = ("id", "campaign_id", "code", "name", "civil_disorder")


@dataclass(frozen=True)
class Spot:
    """A region as order entry judges it: the row, the codes of its home nation and owner, the entering
    nation's units there, and whether it borders the orders' origin."""

    region: Region
    home: str | None
    owner: str | None
    units: dict[str, int]
    next_to_origin: bool

    def engine_region(self, weather: str | None) -> EngineRegion:
        r = self.region
        return EngineRegion(
            code=r.code, terrain=r.terrain, owner=self.owner, fort=r.fort, home=self.home, weather=weather
        )


def orders_of(*, turn: Turn, nation: Nation) -> QuerySet[Order]:
    """The nation's orders for the turn in submission order (never another nation's)."""
    return (
        Order.objects.filter(turn=turn, nation=nation).select_related("origin", "target").order_by("sequence")
    )


def spots_by_code(*, nation: Nation, origin: str, codes: Iterable[str]) -> dict[str, Spot]:
    """The campaign's regions named by `codes` (unknown codes are simply missing), in one statement.

    Each comes with the nation's units in it and whether it borders `origin`: all that judging an order
    that goes no further than next door needs of the map.
    """
    marks, params = sql_in(sorted(set(codes)))
    rows = sql_rows(
        f"""
        SELECT {columns_sql(Region, "r", REGION_COLUMNS)}, h.code, o.code,
            EXISTS (
                SELECT 1 FROM campaign_border b
                WHERE (b.region_a_id = r.id AND b.region_b_id = g.id)
                   OR (b.region_b_id = r.id AND b.region_a_id = g.id)
            ),
            s.unit_type, s.count
        FROM campaign_region r
        LEFT JOIN campaign_region g ON g.campaign_id = r.campaign_id AND g.code = %s
        LEFT JOIN campaign_nation h ON h.id = r.home_id
        LEFT JOIN campaign_nation o ON o.id = r.owner_id
        LEFT JOIN campaign_stack s ON s.region_id = r.id AND s.nation_id = %s AND s.count > 0
        WHERE r.campaign_id = %s AND r.code IN ({marks})
        """,
        [origin, nation.pk, nation.campaign_id, *params],
    )
    # A row a stack (or one without): the region's columns repeat on each.
    first: dict[str, tuple] = {}
    units: dict[str, dict[str, int]] = {}
    for row in rows:
        first.setdefault(row[2], row)
        found = units.setdefault(row[2], {})
        if row[10] is not None:
            found[row[10]] = row[11]
    return {
        code: Spot(
            region=instance_from_row(Region, row[:7], REGION_COLUMNS),
            home=row[7],
            owner=row[8],
            units=units[code],
            next_to_origin=bool(row[9]),
        )
        for code, row in first.items()
    }


def nation_player_locked(*, user_id: int, campaign_id: int) -> Nation | None:
    """The nation `user_id` plays in the campaign, its row locked until the transaction ends.

    FOR NO KEY UPDATE: it does not block the key-share locks that writing rows which refer to the nation
    takes (turn processing writes every nation's stacks). Processing also updates the nation's row; that
    waits, and cannot deadlock, because order entry holds the turn first (orders.services).
    """
    rows = sql_rows(
        f"""
        SELECT {columns_sql(Nation, "n", NATION_COLUMNS)}
        FROM campaign_membership m JOIN campaign_nation n ON n.id = m.nation_id
        WHERE m.user_id = %s AND m.campaign_id = %s AND m.role = %s {row_lock_sql(of="n")}
        """,
        [user_id, campaign_id, "player"],
    )
    if not rows:
        return None
    return instance_from_row(Nation, rows[0], NATION_COLUMNS)


def orders_consuming(
    *, turn_id: int, nation: Nation, origin: str, leaving_out: int | None = None
) -> list[EngineOrder]:
    """The nation's orders out of region `origin` that take units from it (§2.1), as the engine reads them.

    Holds and stand-downs take nothing, so they cannot make another order too big: left out, a nation
    with many orders is judged as fast as one with few.
    """
    kinds, kind_params = sql_in(sorted(CONSUMING))
    rows = sql_rows(
        f"""
        SELECT o.id, o.sequence, o.kind, t.code, o.units
        FROM orders_order o LEFT JOIN campaign_region t ON t.id = o.target_id
        WHERE o.turn_id = %s AND o.nation_id = %s AND o.kind IN ({kinds})
          AND o.origin_id = (SELECT g.id FROM campaign_region g WHERE g.campaign_id = %s AND g.code = %s)
        ORDER BY o.sequence
        """,
        [turn_id, nation.pk, *kind_params, nation.campaign_id, origin],
    )
    units_field = Order._meta.get_field("units")
    return [
        EngineOrder(
            nation=nation.code,
            kind=kind,
            origin=origin,
            target=target,
            units=dict(units_field.from_db_value(units, None, connection)),
            ref=sequence,
        )
        for pk, sequence, kind, target, units in rows
        if pk != leaving_out
    ]


def order_world_load(
    *,
    turn: Turn,
    nation: Nation,
    origin: Spot,
    named: dict[str, Spot],
    ruleset: Ruleset,
    reach: int | None = None,
) -> TurnInput:
    """The world around `origin` that the rules need to judge the nation's orders from it (§2.1).

    `named` holds the regions the orders name (spots_by_code: the origin, the targets, the nation's
    units in them and which border the origin). An order that goes next door needs nothing more, save the
    relations with the owners of the targets for an attack. A rebase looks further, at every region
    within `reach` rings of the origin (by default the ruleset's longest range). A fixed number of
    statements, whatever the size of the map.
    """
    reach = reach or max([1, *ruleset.ranges.values()])
    spots = {spot.region.pk: spot for spot in named.values()}
    code = {pk: spot.region.code for pk, spot in spots.items()}
    if reach == 1:
        borders = [(origin.region.code, s.region.code) for s in named.values() if s.next_to_origin]
    else:
        ball = _ball_borders(origin.region.pk, reach)
        wanted = {r for pair in ball for r in pair} - spots.keys()
        if wanted:
            marks, params = sql_in(sorted(wanted))
            code |= dict(sql_rows(f"SELECT id, code FROM campaign_region WHERE id IN ({marks})", params))
        borders = [(code[a], code[b]) for a, b in ball]
    foreign = any(spot.owner not in (None, nation.code) for spot in spots.values())
    relations = _relations_of(nation) if foreign else ()
    nations = dict.fromkeys(
        [
            nation.code,
            *(n for s in spots.values() for n in (s.owner, s.home) if n is not None),
            *(n for r in relations for n in (r.a, r.b)),
        ]
    )
    region_weather = turn.region_weather or {}
    regions = [spot.engine_region(region_weather.get(spot.region.code)) for spot in spots.values()]
    # The regions a rebase passes through: only their place on the map counts, not what they are.
    regions += [EngineRegion(code=c, owner=None) for c in sorted(set(code.values()) - named.keys())]
    return TurnInput(
        nations=tuple(nations),
        regions=tuple(sorted(regions, key=lambda r: r.code)),
        borders=tuple(sorted(tuple(sorted(pair)) for pair in borders)),
        stacks=tuple(
            Stack(nation.code, spot.region.code, unit_type, count)
            for spot in sorted(spots.values(), key=lambda s: s.region.code)
            for unit_type, count in sorted(spot.units.items())
        ),
        relations=relations,
        weather=turn.weather,
    )


def _ball_borders(origin: int, reach: int) -> list[tuple[int, int]]:
    """The borders within `reach` rings of `origin`, one statement a ring."""
    borders: set[tuple[int, int]] = set()

    def borders_of(ring: set[int]) -> list[int]:
        marks, params = sql_in(sorted(ring))
        found = sql_rows(
            "SELECT region_a_id, region_b_id FROM campaign_border "
            f"WHERE region_a_id IN ({marks}) OR region_b_id IN ({marks})",
            params + params,
        )
        borders.update(found)
        return [r for pair in found for r in pair]

    rings(origin, borders_of, reach)
    return sorted(borders)


def _relations_of(nation: Nation) -> tuple[Relation, ...]:
    """The nation's relations as stored, with codes (a pair without a row is at war, §2.2)."""
    rows = sql_rows(
        """
        SELECT a.code, b.code, r.kind
        FROM campaign_relation r
        JOIN campaign_nation a ON a.id = r.nation_a_id JOIN campaign_nation b ON b.id = r.nation_b_id
        WHERE r.nation_a_id = %s OR r.nation_b_id = %s
        """,
        [nation.pk, nation.pk],
    )
    return tuple(Relation(a=a, b=b, kind=kind) for a, b, kind in sorted(rows))
