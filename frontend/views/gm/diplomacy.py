"""The GM's diplomacy: war, peace, alliance between two nations (campaign.gm.diplomacy)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from campaign.gm import diplomacy
from campaign.models import Turn
from campaign.selectors import Viewer
from frontend.terms import word
from frontend.views.gm.dashboard import gm_form_view, nation_of


@gm_form_view("relation")
def relation_post(request: HttpRequest, viewer: Viewer, turn: Turn | None, data: dict[str, Any]) -> str:
    a, b = nation_of(viewer, data["nation_a"]), nation_of(viewer, data["nation_b"])
    diplomacy.relation_set(by=request.user, nation_a=a, nation_b=b, kind=data["kind"], reason=data["reason"])
    return _("Relation set: %(a)s and %(b)s are at %(kind)s.") % {
        "a": a.code,
        "b": b.code,
        "kind": word("relation", data["kind"]),
    }
