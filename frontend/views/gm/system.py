"""The GM's battle system (campaign.gm.system): which system decides the battles, set between turns."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign.gm import system
from frontend.views.gm.dashboard import gm_post


@login_required
@require_POST
def system_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        system.battle_system_set(
            by=request.user, campaign=viewer.campaign, name=data["battle_system"], reason=data["reason"]
        )
        return _("Battle system: %(name)s.") % {"name": data["battle_system"]}

    return gm_post(request, slug, "system", apply)
