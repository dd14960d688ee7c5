"""The map as a table (region, owner, terrain, fort, visible stacks), for screen readers and table lovers.

Rows are built as a string for the same reason as the SVG: 2,000 template loop iterations would cost
more than the rest of the page. Every text that comes from data is escaped.
"""

from __future__ import annotations

from html import escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from frontend.selectors import MapData
from frontend.terms import WORDS


def map_table_rows(data: MapData) -> SafeString:
    rows = []
    unowned = f'<span class="muted">{escape(_("unowned"))}</span>'
    terrains = {t: str(w) for t, w in WORDS["terrain"].items()}
    for r in data.regions:
        code = escape(r["code"])
        owner = data.nations.get(r["owner_id"])
        if owner:
            swatch = f'<span class="swatch" style="background: {escape(owner["color"])}"></span>'
            owner_cell = swatch + escape(owner["name"])
        else:
            owner_cell = unowned
        stacks = (
            "".join(
                f'<span class="stack-line">{escape(s["nation"])}: {escape(s["label"])}</span>'
                for s in data.stacks.get(r["id"], ())
            )
            or '<span class="muted">—</span>'
        )
        rows.append(
            f'<tr id="row-{code}"><th scope="row">{code} <span class="muted">{escape(r["name"])}</span></th>'
            f"<td>{owner_cell}</td><td>{escape(terrains.get(r['terrain'], r['terrain']))}</td>"
            f'<td class="num">{r["fort"]}</td>'
            f"<td>{stacks}</td></tr>"
        )
    return mark_safe("\n".join(rows))
