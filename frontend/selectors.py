"""Reads for the pages, built on campaign.selectors (fog of war) and orders.selectors (own orders only).

Each function loads what a page needs in a fixed number of queries, whatever the size of the map, and
returns plain dicts and lists, so templates never query.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q, QuerySet, TextField
from django.db.models.functions import Cast

from campaign.lifecycle import nations_missed
from campaign.models import (
    AuditEntry,
    Border,
    Campaign,
    GMModifier,
    Membership,
    Nation,
    Region,
    Relation,
    Stack,
    Turn,
)
from campaign.selectors import Viewer, stacks_visible
from frontend.outline import outline_of
from frontend.terms import said, unit_heading, word
from orders.models import Order
from rules.engine.graph import within
from rules.engine.order_words import order_description
from rules.models import ResultVersion, TableBattle

UNOWNED_COLOR = "#e3e3e3"
COLOR = re.compile(r"#[0-9a-fA-F]{3,8}")


@dataclass
class MapData:
    """What the map and the table of the map show: regions, owners, the stacks in sight, arrows."""

    regions: list[dict[str, Any]]
    nations: dict[int, dict[str, Any]]
    # region id -> [{"nation": code, "color": ..., "units": [(type, count), ...], "label": "JV 7 · PA 3"}]
    stacks: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    orders: list[dict[str, Any]] = field(default_factory=list)


def color_safe(color: str) -> str:
    """A nation's colour as it goes into SVG and style attributes: a hex colour or the default grey."""
    return color if COLOR.fullmatch(color or "") else "#888888"


def nations_of(*, campaign_id: int) -> dict[int, dict[str, Any]]:
    nations = Nation.objects.filter(campaign_id=campaign_id).order_by("position")
    return {
        n["id"]: {**n, "color": color_safe(n["color"])} for n in nations.values("id", "code", "name", "color")
    }


def map_load(
    *, viewer: Viewer, turn: Turn | None, unit_order: list[str], dice: Mapping[str, str] | None = None
) -> MapData:
    """The current map as the viewer may see it; the viewer's own orders for `turn` as arrows. With
    `dice` (frontend.terms.unit_dice), each counter says its units' die: "CAV d8 3"."""
    campaign = viewer.campaign
    nations = nations_of(campaign_id=campaign.pk)
    regions = _drawn(
        Region.objects.filter(campaign=campaign).values("id", "code", "name", "terrain", "fort", "owner_id")
    )
    data = MapData(regions=regions, nations=nations)
    grouped: dict[int, dict[int, dict[str, int]]] = defaultdict(lambda: defaultdict(dict))
    for region_id, nation_id, unit_type, count in stacks_visible(viewer=viewer).values_list(
        "region_id", "nation_id", "unit_type", "count"
    ):
        grouped[region_id][nation_id][unit_type] = count
    rank = {code: i for i, code in enumerate(unit_order)}
    own = viewer.nation.pk if viewer.nation is not None else None
    for region_id, by_nation in grouped.items():
        # The viewer's own units first, then the others in nation order.
        ids = sorted(by_nation, key=lambda n: (n != own, nations[n]["code"]))
        data.stacks[region_id] = [_counter(nations[n], by_nation[n], rank, dice or {}) for n in ids]
    if turn is not None and viewer.nation is not None:
        data.orders = order_rows(turn=turn, nation=viewer.nation)
    return data


def _drawn(regions: QuerySet[Region]) -> list[dict[str, Any]]:
    """Region rows in code order, each with its `outline` for the map: the drawing
    is read as text, and parsed only the first time this process meets it (frontend.outline)."""
    rows = list(regions.annotate(drawing=Cast("geometry", TextField())).order_by("code"))
    for row in rows:
        row["outline"] = outline_of(row.pop("drawing"))
    return rows


def _counter(
    nation: dict[str, Any], units: dict[str, int], rank: dict[str, int], dice: Mapping[str, str]
) -> dict[str, Any]:
    ordered = sorted(units.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0]))
    return {
        "nation": nation["code"],
        "color": nation["color"],
        "units": ordered,
        "label": " · ".join(f"{unit_heading(t, dice)} {c}" for t, c in ordered),
    }


def order_rows(*, turn: Turn, nation: Nation) -> list[dict[str, Any]]:
    """The nation's orders for the turn in submission order, as the pages show them; read as plain values
    (a busy nation has a hundred orders, and model instances of each order and its regions cost)."""
    rows = (
        Order.objects.filter(turn=turn, nation=nation)
        .order_by("sequence")
        .values_list("id", "sequence", "kind", "origin__code", "target__code", "units", "params")
    )
    return [
        {
            "id": pk,
            "sequence": sequence,
            "kind": kind,
            "origin": origin,
            "target": target,
            "units": dict(units),
            "describe": said(
                order_description(kind=kind, origin=origin, target=target, units=units, params=params)
            ),
        }
        for pk, sequence, kind, origin, target, units, params in rows
    ]


def order_turn_number(*, nation: Nation | None, order_id: int) -> int | None:
    """The number of the turn an order of the nation's was given for; None when it is not the nation's."""
    if nation is None:
        return None
    return Order.objects.filter(pk=order_id, nation=nation).values_list("turn__number", flat=True).first()


def map_at_turn(*, campaign_id: int, turn: Turn) -> MapData:
    """The owners after a resolved turn, from its result (owners are public; its stacks are not)."""
    nations = nations_of(campaign_id=campaign_id)
    by_code = {n["code"]: n["id"] for n in nations.values()}
    owners = Turn.objects.filter(pk=turn.pk).values_list("result__owners", flat=True).first() or {}
    regions = _drawn(
        Region.objects.filter(campaign_id=campaign_id).values("id", "code", "name", "terrain", "fort")
    )
    for region in regions:
        region["owner_id"] = by_code.get(owners.get(region["code"]))
    return MapData(regions=regions, nations=nations)


def not_at_war_of(*, campaign_id: int) -> dict[frozenset[str], str]:
    """The pairs of nations (by code) at peace or allied; any other pair is at war (IRON_FIST.md §2.2)."""
    rows = Relation.objects.filter(nation_a__campaign_id=campaign_id).exclude(kind=Relation.Kind.WAR)
    return {
        frozenset((a, b)): kind for a, b, kind in rows.values_list("nation_a__code", "nation_b__code", "kind")
    }


def adjacency_of(*, campaign_id: int) -> dict[int, set[int]]:
    neighbours: dict[int, set[int]] = defaultdict(set)
    for a, b in Border.objects.filter(region_a__campaign_id=campaign_id).values_list(
        "region_a_id", "region_b_id"
    ):
        neighbours[a].add(b)
        neighbours[b].add(a)
    return neighbours


def reach_of(*, neighbours: dict[int, set[int]], origins: set[int], steps: int) -> dict[int, set[int]]:
    """For each origin, the regions within `steps` borders of it (its possible targets)."""
    return {origin: set(within(neighbours, origin, steps)) - {origin} for origin in origins}


def own_stacks(*, nation: Nation) -> dict[int, dict[str, int]]:
    """The nation's own units by region id: {region id: {type: count}}."""
    stacks: dict[int, dict[str, int]] = defaultdict(dict)
    for region_id, unit_type, count in Stack.objects.filter(nation=nation, count__gt=0).values_list(
        "region_id", "unit_type", "count"
    ):
        stacks[region_id][unit_type] = count
    return stacks


def own_stacks_shown(*, data: MapData, nation: str) -> dict[int, dict[str, int]]:
    """own_stacks from the map the page has loaded already (a nation always sees its own stacks): one
    query fewer for the campaign page."""
    return {
        region_id: dict(counter["units"])
        for region_id, counters in data.stacks.items()
        for counter in counters
        if counter["nation"] == nation
    }


def support_of(*, turn: Turn, nation_code: str) -> dict[str, list[dict[str, Any]]]:
    """The nation's own rows of the turn's support loss chances and rolls; never the rest of the result."""
    row = (
        Turn.objects.filter(pk=turn.pk)
        .values_list("result__support_chances", "result__support_rolls")
        .first()
    )
    chances, rolls = row if row else (None, None)
    return {
        "chances": [c for c in chances or () if c.get("nation") == nation_code],
        "rolls": [r for r in rolls or () if r.get("nation") == nation_code],
    }


def settlements_of(*, turn: Turn) -> list[dict[str, Any]]:
    """Who came to hold each jointly conquered region and why (IRON_FIST §7.2); shown on the card of that
    region's battle, so only to those who may read it."""
    row = Turn.objects.filter(pk=turn.pk).values_list("result__settlements", flat=True).first()
    return list(row or ())


def turns_resolved(*, viewer: Viewer) -> list[Turn]:
    """The campaign's past turns with their counts of battles and conquests: all of them for the GM; for a
    player the battles its nation fought in or supported (how busy the others were is theirs to know) and
    the regions its nation took (not every conquest of a battle it fought in: the other side's too)."""
    mine = Q() if viewer.is_gm else Q(reports__reportnation__nation=viewer.nation)
    taken = Q() if viewer.is_gm else Q(reports__data__owner_after=viewer.nation.code)
    return list(
        Turn.objects.filter(campaign=viewer.campaign, status=Turn.Status.RESOLVED)
        .annotate(
            battles=Count("reports", filter=mine, distinct=True),
            conquests=Count("reports", filter=mine & taken & Q(reports__conquest=True), distinct=True),
        )
        .defer("result")
        .order_by("-number")
    )


def gm_dashboard_load(*, campaign: Campaign, turn: Turn | None) -> dict[str, Any]:
    """For the GM only: who has submitted and missed turns (campaign.lifecycle.nations_missed, with when
    each player was last seen), the turn's modifiers, the relations, the audit log."""
    campaign_id = campaign.pk
    nations = nations_of(campaign_id=campaign_id)
    modifiers = []
    if turn is not None:
        modifiers = list(
            GMModifier.objects.filter(turn=turn)
            .order_by("region__code", "nation__position")
            .values("region__code", "nation__code", "value", "reason")
        )
    relations = {
        (a, b): kind
        for a, b, kind in Relation.objects.filter(nation_a__campaign_id=campaign_id).values_list(
            "nation_a_id", "nation_b_id", "kind"
        )
    }
    last_seen = dict(
        Membership.objects.filter(campaign_id=campaign_id, role=Membership.Role.PLAYER).values_list(
            "user__username", "user__last_login"
        )
    )
    ids = list(nations)
    matrix = [
        {
            "nation": nations[a],
            "cells": [
                {
                    "other": nations[b],
                    "kind": None if a == b else relations.get((min(a, b), max(a, b)), "war"),
                }
                for b in ids
            ],
        }
        for a in ids
    ]
    # The summary in the reader's language (rows from before messages were data: as stored).
    audit = [
        {
            "created_at": e.created_at,
            "user__username": e.user.username if e.user is not None else None,
            "action": word("audit", e.action),
            "summary": said(e.message()),
            "reason": e.reason,
        }
        for e in AuditEntry.objects.filter(campaign_id=campaign_id)
        .select_related("user")
        .order_by("-created_at", "-id")[:50]
    ]
    return {
        "nations": [
            {
                **row,
                "code": row["nation"].code,
                "name": row["nation"].name,
                "color": color_safe(row["nation"].color),
                "players": [{"username": u, "last_seen": last_seen.get(u)} for u in row["players"]],
            }
            for row in nations_missed(campaign=campaign, turn=turn)
        ],
        "modifiers": modifiers,
        "matrix": matrix,
        "audit": audit,
    }


def campaign_rows(*, campaigns: list[Campaign], user: Any) -> list[dict[str, Any]]:
    """The user's campaigns with the turn in play, its deadline and whether the user's nation has orders in
    for it; three queries for any number of campaigns."""
    ids = [c.pk for c in campaigns]
    turns = {
        t.campaign_id: t
        for t in Turn.objects.filter(campaign_id__in=ids)
        .exclude(status=Turn.Status.RESOLVED)
        .defer("result")
        .order_by("campaign_id", "number")
    }
    nations = dict(
        Membership.objects.filter(user=user, campaign_id__in=ids, nation__isnull=False).values_list(
            "campaign_id", "nation_id"
        )
    )
    turn_ids = [t.pk for cid, t in turns.items() if cid in nations]
    with_orders = set(
        Order.objects.filter(turn_id__in=turn_ids, nation_id__in=nations.values())
        .values_list("turn_id", "nation_id")
        .distinct()
    )
    rows = []
    for campaign in campaigns:
        turn = turns.get(campaign.pk)
        nation = nations.get(campaign.pk)
        rows.append(
            {
                "campaign": campaign,
                "turn": turn,
                "plays": nation is not None,
                "orders_in": turn is not None and (turn.pk, nation) in with_orders,
            }
        )
    return rows


def battles_overdue_of(*, turn: Turn | None, now: Any) -> list[dict[str, Any]]:
    """The GM's overdue panel (TABLETOP.md A8.2): the turn's open battles past their deadline, in plan
    order, each with its current version (None when it has none)."""
    if turn is None or turn.status != Turn.Status.BATTLES_PENDING:
        return []
    battles = TableBattle.objects.filter(
        turn=turn, state=TableBattle.State.OPEN, deadline__lt=now
    ).prefetch_related("versions")
    return [
        {
            "battle": b,
            "current": next(
                (v for v in reversed(list(b.versions.all())) if v.state in ResultVersion.CURRENT), None
            ),
        }
        for b in battles
    ]
