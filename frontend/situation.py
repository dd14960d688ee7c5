"""What the campaign page says about the situation: the legend of nations (colours, the reader's relations
with each, civil disorder), the turn's weather, and after a turn a banner that says it in one sentence, the
battle markers that open each battle's card and the regions that changed hands."""

from __future__ import annotations

from typing import Any

from django.db.models import JSONField, Value
from django.db.models.fields.json import KeyTransform
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaign.models import Turn
from campaign.selectors import Viewer, regions_changed_hands, reports_visible
from frontend.reports import card_anchor
from frontend.summary import turn_summary
from frontend.terms import word

BANNER_LOSSES = 5  # losses named in the banner; the rest are counted


def legend_rows(
    *, nations: dict[int, dict[str, Any]], own: str | None, not_at_war: dict[frozenset[str], str]
) -> list[dict[str, Any]]:
    """Each nation with its colour and, for a player, how the player's nation stands with it (§2.2)."""
    rows = []
    for n in nations.values():
        if own is None:
            relation = None
        elif n["code"] == own:
            relation = "you"
        else:
            relation = not_at_war.get(frozenset((own, n["code"])), "war")
        rows.append(
            {
                "code": n["code"],
                "name": n["name"],
                "color": n["color"],
                "relation": relation,
                "relation_words": _("you") if relation == "you" else word("relation", relation),
            }
        )
    return rows


def weather_words(turn: Turn | None) -> str:
    """ "rain; snow in M1, N5" """
    if turn is None:
        return ""
    said = str(word("weather", turn.weather))
    by_weather: dict[str, list[str]] = {}
    for code, weather in sorted((turn.region_weather or {}).items()):
        by_weather.setdefault(weather, []).append(code)
    for weather, codes in by_weather.items():
        said += "; " + _("%(weather)s in %(regions)s") % {
            "weather": word("weather", weather),
            "regions": ", ".join(codes),
        }
    return said


def after_turn(*, viewer: Viewer, last: Turn | None) -> dict[str, Any] | None:
    """After a turn: the banner ("Turn 4: 3 battles, you took M1; you lost 2 JV at N3"), the battles the
    reader may read with a link to each card, and the regions that changed hands. Two queries."""
    if last is None:
        return None
    slug = viewer.campaign.slug
    page = reverse("frontend:turn", args=[slug, last.number])
    own = viewer.nation.code if viewer.nation else None
    battles: dict[str, str] = {}
    lost: list[str] = []
    count = 0
    # Only what the banner and the markers read, not the whole reports: the region and the kind are the
    # report row's own columns, the losses of the reader's nation a key of the report.
    losses = KeyTransform(own, KeyTransform("losses", "data")) if own else Value(None, JSONField())
    for region, kind, units in reports_visible(viewer=viewer, turn=last).values_list(
        "region", "kind", losses
    ):
        count += 1
        for code in region.split("|"):
            battles.setdefault(code, f"{page}#{card_anchor(kind, region)}")
        if units:
            # A meeting engagement's key names both regions ("N3|N4"): the reader sees "N3–N4".
            place = "–".join(region.split("|"))
            lost.append(
                _("%(units)s at %(region)s")
                % {"units": ", ".join(f"{c} {t}" for t, c in units.items() if c), "region": place}
            )
    changes = regions_changed_hands(turn=last)
    banner = turn_summary(number=last.number, battles=count, changes=changes, own=own)
    if lost:
        banner += "; " + _("you lost %(losses)s") % {"losses": "; ".join(lost[:BANNER_LOSSES])}
        if len(lost) > BANNER_LOSSES:
            more = len(lost) - BANNER_LOSSES
            # The banner stays one sentence; the report it links to lists every loss.
            banner += " " + ngettext(
                "and in %(count)s more battle", "and in %(count)s more battles", more
            ) % {"count": more}
    return {
        "number": last.number,
        "banner": banner,
        "url": page,
        "battles": battles,
        "changed": frozenset(c["region"] for c in changes),
    }
