"""The campaign map as SVG, drawn on the server from each region's geometry.

Built as a string rather than in a template: a 2,000-region map is some 10,000 elements, and a template
loop would spend most of the page's time there. Every text that comes from data is escaped.
"""

from __future__ import annotations

import math
from functools import lru_cache
from html import escape
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from campaign.models import MAX_FORT_LEVEL
from frontend.outline import Outline
from frontend.selectors import UNOWNED_COLOR, MapData
from frontend.terms import WORDS

DEFS = """<defs>
<pattern id="hatch" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
<line x1="0" y1="0" x2="0" y2="4" stroke="#000" stroke-opacity="0.28" stroke-width="1.1"/></pattern>
<marker id="head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5"
 orient="auto-start-reverse">
<path d="M0,0 L10,5 L0,10 z" fill="#111"/></marker>
</defs>"""

# The three kinds of movement, told apart without colour (UX.md): solid, dashed, dotted.
ARROW_DASH = {"attack": "", "move": "6 3", "rebase": "1.5 3"}


def map_svg(
    *,
    data: MapData,
    link: bool = False,
    title: str = "",
    marked: frozenset[str] = frozenset(),
    focus: str | None = None,
    color: str = "#111",
    battles: dict[str, str] | None = None,
    own: str = "",
) -> SafeString:
    """The SVG of the map; with `link`, each region links to ?origin=CODE (choose it as an order's origin);
    regions in `marked` (those that changed hands) get a heavy outline."""
    bounds = _bounds(data.regions)
    if bounds is None:
        return mark_safe(f'<p class="muted">{escape(_("This map has no drawing; see the table below."))}</p>')
    x0, y0, x1, y1 = bounds
    pad = 4
    view = f"{x0 - pad:g} {y0 - pad:g} {x1 - x0 + 2 * pad:g} {y1 - y0 + 2 * pad:g}"
    out = [
        f'<div class="map-frame"><svg class="map" viewBox="{view}" role="img" aria-labelledby="map-title" '
        f'xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="xMidYMid meet" data-own="{escape(own)}"'
        f"{_zoom(data, focus)}>"
        f'<title id="map-title">{escape(title or _("Campaign map"))}</title>',
        DEFS,
        # The arrowhead of the viewer's own orders, in the nation's colour (the map script draws with it too).
        f'<defs><marker id="head-own" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" '
        f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{escape(color)}"/></marker></defs>',
        '<g class="regions">',
    ]
    centres: dict[str, tuple[float, float, float]] = {}
    # Translated once per map, not once per region: a big map has thousands.
    # Escaped once per map too: a nation's code, name and colour recur on hundreds of regions.
    words = {
        "terrain": {t: escape(str(w)) for t, w in WORDS["terrain"].items()},
        "fort": [escape(_("fort %(level)s") % {"level": level}) for level in range(MAX_FORT_LEVEL + 1)],
        "pick": _("Give orders from %(region)s"),
        "owners": {
            pk: (escape(n["code"]), escape(n["name"]), escape(n["color"])) for pk, n in data.nations.items()
        },
        "unowned": ("", escape(_("unowned")), UNOWNED_COLOR),
    }
    for region in data.regions:
        outline = region["outline"]
        if outline is None:
            continue
        lx, ly = outline.label
        centres[region["code"]] = (lx, ly, outline.size)
        out.append(_region(region, data, outline, link, region["code"] in marked, words))
    out.append("</g>")
    if data.orders:
        out.append('<g class="arrows">')
        for order in data.orders:
            out.append(_arrow(order, centres, escape(color)))
        out.append("</g>")
    if battles:
        out.append('<g class="battles">')
        label = _("Battle of %(region)s: open its report")
        for code, url in sorted(battles.items()):
            if code in centres:
                out.append(_battle_marker(code, url, centres[code], label))
        out.append("</g>")
    out.append("</svg></div>")
    return mark_safe("".join(out))


def _battle_marker(code: str, url: str, centre: tuple[float, float, float], label: str) -> str:
    """Crossed swords at the top right of the region's label, linking to the battle's card."""
    x, y, size = centre
    r = max(1.6, size / 9)
    cx, cy = x + size * 0.3, y - size * 0.32
    said = escape(label % {"region": code})
    return (
        f'<a class="battle-marker" href="{escape(url)}" aria-label="{said}" data-battle="{escape(code)}">'
        f"<title>{said}</title>"
        f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="{r:.2f}"/>'
        f'<text x="{cx:.2f}" y="{cy + r * 0.4:.2f}" font-size="{r * 1.3:.2f}">⚔</text></a>'
    )


def _region(
    region: dict[str, Any],
    data: MapData,
    outline: Outline,
    link: bool,
    marked: bool,
    words: dict[str, Any],
) -> str:
    code = escape(region["code"])
    owner_code, owner_name, fill = words["owners"].get(region["owner_id"], words["unowned"])
    terrain = words["terrain"].get(region["terrain"]) or escape(region["terrain"])
    fort = words["fort"][region["fort"]]  # a level beyond MAX_FORT_LEVEL is refused by the database
    lx, ly = outline.label
    font = max(1.5, outline.size / 7)
    area, marks = _drawing(outline, code, region["terrain"], region["fort"])
    parts = [
        f'<g class="{"region changed" if marked else "region"}" id="region-{code}" data-region="{code}" '
        f'data-owner="{owner_code}">',
        f"<title>{code} {escape(region['name'])}: {owner_name}, {terrain}, {fort}</title>",
        f'{area}{fill}"/>{marks}',
    ]
    for i, counter in enumerate(data.stacks.get(region["id"], ())):
        y = ly + font * (0.85 + i * 0.8)
        parts.append(
            f'<text class="stack" x="{lx:g}" y="{y:.2f}" font-size="{font * 0.64:.2f}">'
            f'<tspan class="swatch" fill="{escape(counter["color"])}">■</tspan> '
            f"{escape(counter['label'])}</text>"
        )
    parts.append("</g>")
    body = "".join(parts)
    if link:
        label = escape(words["pick"] % {"region": region["code"]})
        return f'<a href="?origin={code}#order" class="pick" aria-label="{label}">{body}</a>'
    return body


@lru_cache(maxsize=100_000)
def _drawing(outline: Outline, code: str, terrain: str, fort: int) -> tuple[str, str]:
    """What of a region's drawing changes only with the map, made once per process: its polygon up to
    the fill (the owner's colour, which the caller adds), and the marks after it: rough terrain's hatching,
    the code, a city's tower, the fort's rings. `code` comes escaped."""
    points, (lx, ly) = outline.points, outline.label
    font = max(1.5, outline.size / 7)
    marks = []
    if terrain == "rough":
        marks.append(f'<polygon class="rough" points="{points}" fill="url(#hatch)"/>')
    marks.append(
        f'<text class="code" x="{lx:g}" y="{ly - font * 0.9:g}" font-size="{font:.2f}">{code}</text>'
    )
    if terrain == "city":
        # A small tower above the code: a square keep with two crenels.
        s = font * 0.9
        tx, ty = lx - s / 2, ly - font * 2.9
        marks.append(
            f'<path class="city" d="M{tx:.2f},{ty + s:.2f}v{-s * 0.8:.2f}h{s * 0.3:.2f}v{s * 0.25:.2f}'
            f'h{s * 0.4:.2f}v{-s * 0.25:.2f}h{s * 0.3:.2f}v{s * 0.8:.2f}z"/>'
        )
    if fort:
        r = font * 0.22
        start = lx - (fort - 1) * r * 1.5
        marks.extend(
            f'<circle class="fort" cx="{start + i * r * 3:.2f}" cy="{ly - font * 0.1:.2f}" r="{r:.2f}"/>'
            for i in range(fort)
        )
    return f'<polygon class="area" points="{points}" fill="', "".join(marks)


def _arrow(order: dict[str, Any], centres: dict[str, tuple[float, float, float]], color: str) -> str:
    """An order's arrow in the nation's colour, with its counts beside its middle: it starts and stops
    short of the region labels and its counts sit off the line, so neither hides a stack's counter."""
    if order["target"] is None or order["origin"] not in centres or order["target"] not in centres:
        return ""
    x0, y0, size = centres[order["origin"]]
    x1, y1, _ = centres[order["target"]]
    length = math.hypot(x1 - x0, y1 - y0) or 1
    trim = min(size * 0.3, length / 3)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    ax, ay, bx, by = x0 + ux * trim, y0 + uy * trim, x1 - ux * trim, y1 - uy * trim
    dash = ARROW_DASH.get(order["kind"], "")
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    width = max(0.4, size / 30)
    font = max(1.2, size / 11)
    # The counts a little to the left of the line's middle, seen from the origin.
    mx, my = (ax + bx) / 2 - uy * font * 0.9, (ay + by) / 2 + ux * font * 0.9
    counts = " ".join(f"{count}{unit_type}" for unit_type, count in order["units"].items())
    return (
        f'<g class="order-arrow"><line class="arrow arrow-{escape(order["kind"])}" x1="{ax:.2f}" '
        f'y1="{ay:.2f}" x2="{bx:.2f}" y2="{by:.2f}" stroke="{color}" stroke-width="{width:.2f}"{dash_attr} '
        f'marker-end="url(#head-own)"><title>{escape(order["describe"])}</title></line>'
        f'<text class="arrow-count" x="{mx:.2f}" y="{my:.2f}" font-size="{font:.2f}">{escape(counts)}</text>'
        "</g>"
    )


def _zoom(data: MapData, focus: str | None) -> str:
    """A large map is drawn big enough to read (about 72 px a region across) inside a scrolling frame,
    scrolled by the page's script to `focus`, a region of the viewer's; a small one fits the page."""
    across = math.sqrt(len(data.regions))
    if across <= 12:
        return ""
    attrs = f' style="min-width: {across * 72:.0f}px; max-height: none"'
    return attrs + (f' data-focus="{escape(focus)}"' if focus else "")


def _bounds(regions: list[dict[str, Any]]) -> tuple[float, float, float, float] | None:
    outlines = [r["outline"] for r in regions if r["outline"] is not None]
    if not outlines:
        return None
    return (
        min(min(o.xs) for o in outlines),
        min(min(o.ys) for o in outlines),
        max(max(o.xs) for o in outlines),
        max(max(o.ys) for o in outlines),
    )
