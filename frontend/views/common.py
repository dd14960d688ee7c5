"""What every campaign page shares: who is looking (404 for outsiders), and the top bar."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone

from campaign.durations import time_left_words
from campaign.models import Campaign, Turn
from campaign.selectors import Viewer, viewer_get, viewer_of
from frontend.selectors import color_safe
from frontend.systems import pages_of
from rules.engine.systems import system_get


def viewer_for(request: HttpRequest, slug: str) -> Viewer:
    """The viewer of campaign `slug`; a campaign the user is not in does not exist for them (404)."""
    campaign = get_object_or_404(Campaign, slug=slug)
    viewer = viewer_get(user=request.user, campaign=campaign)
    if not viewer.is_member:
        raise Http404("no such campaign")
    return viewer


def viewer_and_turn(request: HttpRequest, slug: str) -> tuple[Viewer, Turn | None]:
    """The viewer of campaign `slug` (404 as viewer_for) and the campaign's current turn (turn_current), in
    one statement (campaign.selectors.viewer_of): for the campaign page, the page a player opens most."""
    found = viewer_of(user=request.user, slug=slug)
    if found is None:
        raise Http404("no such campaign")
    return found


def gm_for(request: HttpRequest, slug: str) -> Viewer:
    """The campaign's GM; a player of it gets 403, anyone else 404."""
    viewer = viewer_for(request, slug)
    if not viewer.is_gm:
        raise PermissionDenied("only the campaign's game master may see this page")
    return viewer


def _no_links(viewer: Viewer, turn: Turn | None) -> list[tuple[str, str]]:
    return []


def topbar(viewer: Viewer, turn: Turn | None, *, battle: Any = None) -> dict[str, Any]:
    """Campaign name, turn, time left to the deadline, the viewer's nation and colour. On a battle's page
    (`battle`, a table battle open for its result), the deadline is its result's, not the turn's."""
    nation = viewer.nation
    system = system_get(viewer.campaign.battle_system)
    bar: dict[str, Any] = {
        "campaign": viewer.campaign,
        "turn": turn,
        "is_gm": viewer.is_gm,
        "nation": {"code": nation.code, "name": nation.name, "color": color_safe(nation.color)}
        if nation
        else None,
        "links": (pages_of(viewer.campaign.battle_system).links or _no_links)(viewer, turn),
        # The campaign's own system's rules, where it has them.
        "rules_url": reverse("frontend:system_rules", args=[system.name]) if system.rules else "",
    }
    due = battle.deadline if battle is not None and battle.state == "open" else None
    if due is not None:
        bar["battle_due"] = True
    if turn is not None:
        deadline = due or turn.deadline
        left = deadline - timezone.now()
        bar["deadline"] = deadline
        bar["deadline_passed"] = left.total_seconds() <= 0
        bar["time_left"] = time_left_words(left)
    return bar
