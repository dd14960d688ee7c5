"""The GM's roster: units by hand, who plays a nation (campaign.gm.roster)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from campaign.gm import roster
from campaign.models import Turn
from campaign.selectors import Viewer
from frontend.gm_selectors import user_by_name
from frontend.views.gm.dashboard import gm_form_view, nation_of, region_of
from rules.engine.messages import InputError


@gm_form_view("roster")
def roster_post(request: HttpRequest, viewer: Viewer, turn: Turn | None, data: dict[str, Any]) -> str:
    region, nation = region_of(viewer, data["region"]), nation_of(viewer, data["nation"])
    roster.roster_change(
        by=request.user,
        region=region,
        nation=nation,
        unit_type=data["unit_type"],
        count=data["count"],
        reason=data["reason"],
    )
    return _("Roster changed: %(count)s %(unit_type)s of %(nation)s in %(region)s.") % {
        "count": data["count"],
        "unit_type": data["unit_type"],
        "nation": nation.code,
        "region": region.code,
    }


@gm_form_view("assign")
def assign_post(request: HttpRequest, viewer: Viewer, turn: Turn | None, data: dict[str, Any]) -> str:
    nation = nation_of(viewer, data["nation"])
    user = user_by_name(username=data["user"].strip())
    if user is None:
        raise InputError.of("user", "no_such_user", name=data["user"].strip())
    roster.nation_assign(campaign=viewer.campaign, nation=nation, user=user, by=request.user)
    return _("%(user)s now plays %(nation)s; it takes orders again.") % {
        "user": user.get_username(),
        "nation": f"{nation.code} {nation.name}",
    }
