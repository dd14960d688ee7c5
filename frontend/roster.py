"""The player's roster on the campaign page: the nation's stacks by region, what of them is free after its
orders, and totals per type."""

from __future__ import annotations

from html import escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from frontend.selectors import MapData


def roster_rows(data: MapData, own: str, unit_types: list[str], left: dict[str, dict[str, int]]) -> dict:
    """The nation's stacks by region, what is left after its orders, and totals per type. Each cell as it
    reads, made here: its count ("" for none) and what of it is free ("2 free", "" when all are). In the
    template a translation and a number's formatting for each cell were most of the roster's time."""
    free_words = _("%(count)s free")
    rows, totals = [], dict.fromkeys(unit_types, 0)
    for r in data.regions:
        for counter in data.stacks.get(r["id"], ()):
            if counter["nation"] != own:
                continue
            units = dict(counter["units"])
            for t, c in units.items():
                totals[t] = totals.get(t, 0) + c
            cells = []
            for t in unit_types:
                count = units.get(t, 0)
                free = left.get(r["code"], {}).get(t, count)
                cells.append(
                    {"count": str(count or ""), "free": "" if free == count else free_words % {"count": free}}
                )
            rows.append({"code": r["code"], "name": r["name"], "cells": cells, "tds": _tds(cells)})
    return {"rows": rows, "totals": [totals[t] for t in unit_types]}


def _tds(cells: list[dict[str, str]]) -> SafeString:
    """A roster row's cells as markup, made here: in the template a loop and a test for each cell were a
    third of the page's rendering on a busy nation's roster."""
    return mark_safe(
        "".join(
            f'<td class="num">{escape(c["count"])}'
            + (f'<span class="free">{escape(c["free"])}</span>' if c["free"] else "")
            + "</td>"
            for c in cells
        )
    )
