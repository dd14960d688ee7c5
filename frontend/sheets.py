"""A battle sheet as people read it (TABLETOP.md A5.1): its title, its sides with their support lines, who
must agree to a result. Shared by the sheet's page and its mail, so both say the same thing; the sheet
itself is the engine's, cut to what the reader may see by rules.selectors.battle_sheet_for."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from campaign.models import Campaign
from rules.engine.tabletop.settings import TabletopSettings
from rules.models import Battle


def sheet_sides(sheet: dict[str, Any], names: dict[str, str]) -> list[dict[str, Any]]:
    """Each side with its groups and, under it, the support lines of its nations (A5.1)."""
    return [
        {
            **side,
            "names": [names.get(n, n) for n in side["nations"]],
            "support": [line for line in sheet["support"] if line[0] in side["nations"]],
            "points": (sheet.get("points") or {}).get(side["id"]),
        }
        for side in sheet["sides"]
    ]


def battle_title(campaign: Campaign, battle: Battle) -> str:
    """The battle's title from the region names: "Battle of Karelia", or the meeting's border."""
    codes = battle.key.partition(":")[2]
    regions = dict(campaign.regions.values_list("code", "name"))
    if battle.kind == "meeting":
        low, _, high = codes.partition("|")
        return gettext("Meeting engagement on the %(a)s–%(b)s border") % {
            "a": regions.get(low, low),
            "b": regions.get(high, high),
        }
    region = codes.rpartition(":")[0] if battle.kind == "control" else codes
    return gettext("Battle of %(region)s") % {"region": regions.get(region, region)}


def who_agrees(settings: TabletopSettings, nations: list[str]) -> str:
    """Who must agree before a result counts (A6.2), in the reader's language."""
    if settings.result_entry == "gm_only":
        return gettext("Only the GM enters the result of this battle; it counts at once.")
    listed = ", ".join(nations)
    if settings.gm_confirms_agreed:
        return gettext(
            "A player of any nation of the battle (%(nations)s) proposes the result, each other nation "
            "agrees, and the GM confirms it."
        ) % {"nations": listed}
    return gettext(
        "A player of any nation of the battle (%(nations)s) proposes the result; it counts once each "
        "other nation agrees."
    ) % {"nations": listed}
