"""The GM's battle system (campaign.gm.system): which system decides the battles, set between turns."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from campaign.gm import system
from campaign.models import Turn
from campaign.selectors import Viewer
from frontend.views.gm.dashboard import gm_form_view


@gm_form_view("system")
def system_post(request: HttpRequest, viewer: Viewer, turn: Turn | None, data: dict[str, Any]) -> str:
    system.battle_system_set(
        by=request.user, campaign=viewer.campaign, name=data["battle_system"], reason=data["reason"]
    )
    return _("Battle system: %(name)s.") % {"name": data["battle_system"]}
