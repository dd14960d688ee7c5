"""The home page of a signed-in user, "My campaigns" (issue 27): each campaign with the user's seat in it, its
battle system, its turn and deadline, and what waits on the user there.

What waits, where the selectors know it: a player's orders for the open turn (campaign.selectors.orders_given:
an order row, or what a battle system registered as its orders, company's sets), a turn's table battles
(the system's `battles_pending` rows, frontend.systems, each with the reader's next step in the system's
words), and for the GM a failed turn. Three queries for any number of campaigns, and one more per campaign
whose turn waits for table battles.
"""

from __future__ import annotations

from typing import Any

from django.db.models import OuterRef, Q
from django.urls import reverse
from django.utils import timezone

from campaign.durations import time_left_words
from campaign.models import Membership, Turn
from campaign.selectors import Viewer, orders_given
from frontend.selectors import color_safe
from frontend.systems import pages_of


def home_rows(*, user: Any) -> list[dict[str, Any]]:
    """A row per campaign the user plays in or runs, by the campaign's name:

    campaign, membership, nation (with a safe colour) or None for the GM, turn (the one in play) or None,
    plays (a nation), orders_in (the nation's orders are in for the open turn), orders_due (the open turn
    waits for them), time_left (to the deadline, in words), battles (the turn's table battles that are still
    open: battle, url, next), failed (the GM's turn failed), url (the campaign's page)."""
    memberships = list(
        Membership.objects.filter(user=user)
        .select_related("campaign", "nation")
        .order_by("campaign__name", "campaign__slug")
    )
    turns = {
        t.campaign_id: t
        for t in Turn.objects.filter(campaign_id__in=[m.campaign_id for m in memberships])
        .exclude(status=Turn.Status.RESOLVED)
        .defer("result", "system_inputs", "region_weather")
    }
    given = _orders_given(memberships, turns)
    now = timezone.now()
    rows = []
    for membership in memberships:
        campaign, nation = membership.campaign, membership.nation
        turn = turns.get(campaign.pk)
        if turn is not None:
            turn.campaign = campaign
        is_gm = membership.role == Membership.Role.GM
        orders_in = turn is not None and turn.pk in given
        rows.append(
            {
                "campaign": campaign,
                "membership": membership,
                "is_gm": is_gm,
                "nation": {"code": nation.code, "name": nation.name, "color": color_safe(nation.color)}
                if nation is not None
                else None,
                "turn": turn,
                "plays": nation is not None,
                "orders_in": orders_in,
                "orders_due": nation is not None
                and turn is not None
                and turn.status == Turn.Status.OPEN
                and not orders_in
                and not nation.civil_disorder
                and campaign.paused_at is None,
                "time_left": time_left_words(turn.deadline - now) if turn is not None else "",
                "battles": _battles_open(Viewer(campaign=campaign, user=user, membership=membership), turn),
                "failed": is_gm and turn is not None and turn.status == Turn.Status.FAILED,
                "url": reverse("frontend:campaign", args=[campaign.slug]),
            }
        )
    return rows


def _orders_given(memberships: list[Membership], turns: dict[int, Turn]) -> set[int]:
    """The open turns for which the user's nation has its orders in: one query, whatever the systems."""
    wanted = Q()
    for membership in memberships:
        turn = turns.get(membership.campaign_id)
        if membership.nation_id is not None and turn is not None and turn.status == Turn.Status.OPEN:
            wanted |= Q(pk=turn.pk) & orders_given(turn=OuterRef("pk"), nation=membership.nation_id)
    if not wanted:
        return set()
    return set(Turn.objects.filter(wanted).values_list("pk", flat=True))


def _battles_open(viewer: Viewer, turn: Turn | None) -> list[dict[str, Any]]:
    """The turn's table battles still to be decided, as the campaign page lists them (the system's rows)."""
    if turn is None or turn.status != Turn.Status.BATTLES_PENDING:
        return []
    pending = pages_of(viewer.campaign.battle_system).battles_pending
    if pending is None:
        return []
    return [row for row in pending(viewer=viewer, turn=turn) if row["battle"].state == "open"]
