"""The GM's diplomacy: war, peace, alliance between two nations (campaign.gm.diplomacy)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign.gm import diplomacy
from frontend.terms import word
from frontend.views.gm.dashboard import gm_post, nation_of


@login_required
@require_POST
def relation_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        a, b = nation_of(viewer, data["nation_a"]), nation_of(viewer, data["nation_b"])
        diplomacy.relation_set(
            by=request.user, nation_a=a, nation_b=b, kind=data["kind"], reason=data["reason"]
        )
        return _("Relation set: %(a)s and %(b)s are at %(kind)s.") % {
            "a": a.code,
            "b": b.code,
            "kind": word("relation", data["kind"]),
        }

    return gm_post(request, slug, "relation", apply)
