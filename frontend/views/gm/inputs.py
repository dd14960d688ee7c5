"""The GM's inputs to a turn: the weather, KTA modifiers (campaign.gm.inputs)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from campaign.gm import inputs
from campaign.models import Turn
from campaign.selectors import Viewer
from frontend.terms import word
from frontend.views.gm.dashboard import gm_form_view, nation_of, region_of
from rules.engine.messages import InputError


@gm_form_view("weather")
def weather_post(request: HttpRequest, viewer: Viewer, turn: Turn | None, data: dict[str, Any]) -> str:
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


@gm_form_view("modifier")
def modifier_post(request: HttpRequest, viewer: Viewer, turn: Turn | None, data: dict[str, Any]) -> str:
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
