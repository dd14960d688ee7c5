"""Reads for order entry: a nation's orders, and the small piece of the world that judges a new one."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from campaign.models import Border, Nation, Region, Relation, Stack, Turn
from orders.models import Order
from rules.engine.ruleset import Ruleset
from rules.engine.state import TurnInput
from rules.mapping import Rows, turn_input_from_rows, world_ids


def orders_of(*, turn: Turn, nation: Nation) -> QuerySet[Order]:
    """The nation's orders for the turn in submission order (never another nation's)."""
    return (
        Order.objects.filter(turn=turn, nation=nation).select_related("origin", "target").order_by("sequence")
    )


def order_world_load(
    *,
    turn: Turn,
    nation: Nation,
    origin: Region,
    target: Region | None,
    ruleset: Ruleset,
    reach: int | None = None,
) -> TurnInput:
    """The world around `origin` that the rules need to judge the nation's orders from it (§2.1).

    Validation only looks at the origin, its units, the regions within the longest support range (for
    adjacency and rebasing) and the target; loading just that keeps order entry fast on any map size.
    A fixed number of queries: one per border ring, then regions, nations, stacks and relations.
    `reach` is how many rings to load: by default the longest range, which only a rebase needs; the
    other orders only look at the origin's neighbours.
    """
    reach = reach or max([1, *ruleset.ranges.values()])
    ball, frontier, borders = {origin.pk}, {origin.pk}, set()
    for _ in range(reach):
        ring = set(
            Border.objects.filter(Q(region_a_id__in=frontier) | Q(region_b_id__in=frontier)).values_list(
                "region_a_id", "region_b_id"
            )
        )
        borders |= ring
        frontier = {r for pair in ring for r in pair} - ball
        ball |= frontier
    if target is not None:
        ball.add(target.pk)
    rows = Rows(
        nations=list(
            Nation.objects.filter(campaign_id=turn.campaign_id).order_by("position").values_list("id", "code")
        ),
        regions=list(
            Region.objects.filter(pk__in=ball).values_list(
                "id", "code", "terrain", "fort", "home_id", "owner_id"
            )
        ),
        borders=sorted((a, b) for a, b in borders if a in ball and b in ball),
        stacks=list(
            Stack.objects.filter(nation=nation, region=origin, count__gt=0).values_list(
                "nation_id", "region_id", "unit_type", "count"
            )
        ),
        relations=list(
            Relation.objects.filter(Q(nation_a=nation) | Q(nation_b=nation)).values_list(
                "nation_a_id", "nation_b_id", "kind"
            )
        ),
        orders=[],
        gm_modifiers=[],
        weather=turn.weather,
        region_weather={},
    )
    return turn_input_from_rows(rows, world_ids(rows))
