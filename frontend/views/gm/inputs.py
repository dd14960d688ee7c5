"""The GM's inputs to a turn: the weather, KTA modifiers (campaign.gm.inputs)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign.gm import inputs
from frontend.terms import word
from frontend.views.gm.dashboard import gm_post, nation_of, region_of
from rules.engine.messages import InputError


@login_required
@require_POST
def weather_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        inputs.weather_set(
            by=request.user,
            turn=turn,
            weather=data["weather"],
            region_weather=data["region_weather"],
            reason=data["reason"],
        )
        local = ", ".join(f"{c} {word('weather', w)}" for c, w in data["region_weather"].items())
        said = _("Weather of turn %(number)s: %(weather)s") % {
            "number": turn.number,
            "weather": word("weather", data["weather"]),
        }
        return said + (f"; {local}." if local else ".")

    return gm_post(request, slug, "weather", apply)


@login_required
@require_POST
def modifier_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        if turn is None:
            raise InputError.of("region", "no_open_turn")
        region, nation = region_of(viewer, data["region"]), nation_of(viewer, data["nation"])
        inputs.gm_modifier_set(
            by=request.user,
            turn=turn,
            region=region,
            nation=nation,
            value=data["value"],
            reason=data["reason"],
        )
        if data["value"] == 0:
            return _("GM modifier removed: %(nation)s in %(region)s.") % {
                "nation": nation.code,
                "region": region.code,
            }
        return _("GM modifier set: %(nation)s in %(region)s %(value)s KTA this turn.") % {
            "nation": nation.code,
            "region": region.code,
            "value": f"{data['value']:+d}",
        }

    return gm_post(request, slug, "modifier", apply)
