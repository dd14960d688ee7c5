"""Reads for order entry: a nation's orders, and the small piece of the world that judges a new one.

What every submission reads is hand-written SQL, in orders/sql.py (why, and the locks it takes, are
written there); what only some orders need (an attack's relations, the rings a rebase crosses) is read
with the ORM. Each read is by primary or unique key; none grows with the map.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q, QuerySet

from campaign.models import Border, Nation, Region, Turn
from campaign.models import Relation as StoredRelation
from orders.models import Order
from orders.sql import REGION_COLUMNS, consuming_rows, region_from_row, spot_rows
from rules.engine import Order as EngineOrder
from rules.engine.graph import rings
from rules.engine.ruleset import Ruleset
from rules.engine.state import Region as EngineRegion
from rules.engine.state import Relation, Stack, TurnInput
from rules.engine.validation import CONSUMING


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


def order_number(*, turn_id: int, nation_id: int, sequence: int) -> int:
    """The number a player reads for the order in place `sequence`: its place in its own nation's list for
    the turn, 1 for the first. Places in the turn's submission order skip numbers and count every
    nation's orders, which are not the player's to know."""
    return Order.objects.filter(turn_id=turn_id, nation_id=nation_id, sequence__lte=sequence).count()


def spots_by_code(*, nation: Nation, origin: str, codes: Iterable[str]) -> dict[str, Spot]:
    """The campaign's regions named by `codes` (unknown codes are simply missing), in one statement.

    Each comes with the nation's units in it and whether it borders `origin`: all that judging an order
    that goes no further than next door needs of the map.
    """
    # A row a stack (or one without): the region's columns repeat on each.
    first: dict[str, tuple] = {}
    units: dict[str, dict[str, int]] = {}
    for row in spot_rows(nation=nation, origin=origin, codes=codes):
        *region, home, owner, bordering, unit_type, count = row
        code = region[REGION_COLUMNS.index("code")]
        first.setdefault(code, (region, home, owner, bordering))
        found = units.setdefault(code, {})
        if unit_type is not None:
            found[unit_type] = count
    return {
        code: Spot(
            region=region_from_row(region),
            home=home,
            owner=owner,
            units=units[code],
            next_to_origin=bool(bordering),
        )
        for code, (region, home, owner, bordering) in first.items()
    }


def orders_consuming(
    *, turn_id: int, nation: Nation, origin: str, leaving_out: int | None = None
) -> list[EngineOrder]:
    """The nation's orders out of region `origin` that take units from it (§2.1), as the engine reads them.

    Holds and stand-downs take nothing, so they cannot make another order too big: left out, a nation
    with many orders is judged as fast as one with few.
    """
    return [
        EngineOrder(nation=nation.code, kind=kind, origin=origin, target=target, units=units, ref=sequence)
        for pk, sequence, kind, target, units in consuming_rows(
            turn_id=turn_id, nation=nation, origin=origin, kinds=CONSUMING
        )
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
            code |= dict(Region.objects.filter(pk__in=sorted(wanted)).values_list("id", "code"))
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

    def borders_of(ring: list[int]) -> list[int]:
        found = list(
            Border.objects.filter(Q(region_a_id__in=ring) | Q(region_b_id__in=ring)).values_list(
                "region_a_id", "region_b_id"
            )
        )
        borders.update(found)
        return [r for pair in found for r in pair]

    rings(origin, borders_of, reach)
    return sorted(borders)


def _relations_of(nation: Nation) -> tuple[Relation, ...]:
    """The nation's relations as stored, with codes (a pair without a row is at war, §2.2)."""
    rows = StoredRelation.objects.filter(Q(nation_a=nation) | Q(nation_b=nation)).values_list(
        "nation_a__code", "nation_b__code", "kind"
    )
    return tuple(Relation(a=a, b=b, kind=kind) for a, b, kind in sorted(rows))
