"""The campaign map as SVG, drawn on the server from each region's geometry.

Built as a string rather than in a template: a 2,000-region map is some 10,000 elements, and a template
loop would spend most of the page's time there. Every text that comes from data is escaped.

Compact, because the map is most of the campaign page (a 2,000-region map was 900 KB):
- what of a region's drawing changes only with the map (its polygon, rough terrain's hatching, a city's
  tower, the fort's rings) is drawn once, relative to the region's label point, in `<defs>`, and every
  region with the same drawing places it with `<use x y>`: a generated map's squares share a handful;
- the regions are grouped by owner, and the group carries the owner's code and colour;
- the region codes and the stack counters are layers of their own above all the regions (so that no
  neighbour hides a counter), with the map's usual font size set once on the layer;
- a region's area does not say its code: the areas of the regions layer and the labels of the codes layer
  come in the same order (owner by owner), so the nth area is the region of the nth label, and the page's
  script gives each area its data-region from there (site.js): on a 2,000-region map the attribute was a
  sixth of the page;
- only the regions the viewer can give orders from are links (?origin=CODE, which works without script);
  the page's script handles a click on any region by its data-region.
The table view (?view=table) says the same in words: names, owners, terrain, forts, stacks.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from frontend.outline import Outline
from frontend.selectors import UNOWNED_COLOR, MapData

DEFS = (
    '<pattern id="hatch" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
    '<line x1="0" y1="0" x2="0" y2="4" stroke="#000" stroke-opacity="0.28" stroke-width="1.1"/></pattern>'
    '<marker id="head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" '
    'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#111"/></marker>'
)

# The three kinds of movement, told apart without colour (UX.md): solid, dashed, dotted.
ARROW_DASH = {"attack": "", "move": "6 3", "rebase": "1.5 3"}


def map_svg(
    *,
    data: MapData,
    links: Collection[str] = (),
    title: str = "",
    marked: frozenset[str] = frozenset(),
    focus: str | None = None,
    color: str = "#111",
    battles: dict[str, str] | None = None,
    own: str = "",
    battle_label: str = "",
) -> SafeString:
    """The SVG of the map; each region in `links` links to ?origin=CODE (choose it as an order's origin);
    regions in `marked` (those that changed hands) get a heavy outline."""
    drawn = [r for r in data.regions if r["outline"] is not None]
    if not drawn:
        return mark_safe(f'<p class="muted">{escape(_("This map has no drawing; see the table below."))}</p>')
    x0, y0, x1, y1 = _bounds([r["outline"] for r in drawn])
    pad = 4
    view = f"{x0 - pad:g} {y0 - pad:g} {x1 - x0 + 2 * pad:g} {y1 - y0 + 2 * pad:g}"
    placed = [_placed(r["outline"], r["terrain"], r["fort"]) for r in drawn]
    # The font of most regions, set once on the layers; a region of another size says its own.
    font = Counter(p.font for p in placed).most_common(1)[0][0]
    drawings: dict[str, str] = {}  # a drawing's markup -> its id in <defs>
    # Owner by owner, each region's area and its code label, in the same order (the script pairs them).
    by_owner: dict[int | None, tuple[list[str], list[str]]] = defaultdict(lambda: ([], []))
    stacks = []
    pick = _("Give orders from %(region)s")
    for region, place in zip(drawn, placed, strict=True):
        outline = region["outline"]
        code = escape(region["code"])
        ref = drawings.get(place.drawing)
        if ref is None:
            ref = drawings[place.drawing] = f"d{len(drawings)}"
        lx, ly = place.x, place.y
        changed = ' class="changed"' if region["code"] in marked else ""
        area = f'<use href="#{ref}" x="{lx}" y="{ly}"{changed}/>'
        if region["code"] in links:
            label = escape(pick % {"region": region["code"]})
            area = f'<a href="?origin={code}#order" class="pick" aria-label="{label}">{area}</a>'
        owner = region["owner_id"] if region["owner_id"] in data.nations else None
        areas, codes = by_owner[owner]
        areas.append(area)
        own_font = place.font
        size = "" if own_font == font else f' font-size="{_num(own_font)}"'
        codes.append(f'<text x="{lx}" y="{place.code_y}"{size}>{code}</text>')
        region_stacks = data.stacks.get(region["id"])
        if not region_stacks:
            continue
        size = "" if own_font == font else f' font-size="{_num(own_font * 0.64)}"'
        line = 0
        for counter in region_stacks:
            mark = f'<tspan fill="{escape(counter["color"])}">■</tspan> '
            for text in _lines(counter["label"], outline, own_font * 0.64):
                y = _num(outline.label[1] + own_font * (0.85 + line * 0.8))
                stacks.append(f'<text x="{lx}" y="{y}"{size}>{mark}{escape(text)}</text>')
                mark, line = "", line + 1
    out = [
        f'<div class="map-frame"><svg class="map" viewBox="{view}" role="img" aria-labelledby="map-title" '
        f'xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="xMidYMid meet" data-own="{escape(own)}"'
        f"{_zoom(data, focus)}>"
        f'<title id="map-title">{escape(title or _("Campaign map"))}</title><defs>{DEFS}',
        # The arrowhead of the viewer's own orders, in the nation's colour (the map script draws with it too).
        '<marker id="head-own" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" '
        f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{escape(color)}"/></marker>',
        *(f'<g id="{ref}">{body}</g>' for body, ref in drawings.items()),
        '</defs><g class="regions">',
    ]
    for owner, (areas, _codes) in by_owner.items():
        nation = data.nations.get(owner)
        owner_code, fill = (
            ("", UNOWNED_COLOR) if nation is None else (escape(nation["code"]), escape(nation["color"]))
        )
        out.append(f'<g data-owner="{owner_code}" fill="{fill}">{"".join(areas)}</g>')
    codes = "".join(label for _areas, labels in by_owner.values() for label in labels)
    out.append(f'</g><g class="codes" font-size="{_num(font)}">{codes}</g>')
    if stacks:
        out.append(f'<g class="stacks" font-size="{_num(font * 0.64)}">{"".join(stacks)}</g>')
    centres = {r["code"]: (*r["outline"].label, r["outline"].size) for r in drawn}
    if data.orders:
        out.append('<g class="arrows">')
        out.extend(_arrow(order, centres, escape(color)) for order in data.orders)
        out.append("</g>")
    if battles:
        out.append('<g class="battles">')
        label = battle_label or _("Battle of %(region)s: open its report")
        for code, url in sorted(battles.items()):
            if code in centres:
                out.append(_battle_marker(code, url, centres[code], label))
        out.append("</g>")
    out.append("</svg></div>")
    return mark_safe("".join(out))


# A counter's characters are about half as wide as its font is high (capitals, digits, the narrow spaces
# and dots between them).
CHAR_WIDTH = 0.5


def _lines(label: str, outline: Outline, font: float) -> list[str]:
    """A counter's label ("LEVY d6 4 · GREN d10 1") in lines as wide as the region: its parts put together
    while they fit, so that a long counter does not run over its neighbours; a part too long for a line of
    its own stays whole."""
    room = (outline.box[2] - outline.box[0]) * 0.95
    parts = label.split(" · ")
    lines = [parts[0]]
    for part in parts[1:]:
        joined = f"{lines[-1]} · {part}"
        # The first line also holds the nation's mark and a space.
        if (len(joined) + (2 if len(lines) == 1 else 0)) * CHAR_WIDTH * font <= room:
            lines[-1] = joined
        else:
            lines.append(part)
    return lines


def _num(value: float) -> str:
    """A coordinate as the SVG says it: to a hundredth of a map unit, without trailing zeros."""
    return f"{round(value, 2) + 0:g}"  # + 0: -0.0 becomes 0


@dataclass(frozen=True)
class Placed:
    """What of a region's drawing changes only with the map, as the SVG says it: its drawing (_drawing),
    its label point where the drawing is placed, its code's size and the code's baseline a little above."""

    drawing: str
    x: str
    y: str
    code_y: str
    font: float


@lru_cache(maxsize=100_000)
def _placed(outline: Outline, terrain: str, fort: int) -> Placed:
    """A region's Placed, made once per process: a region's shape, terrain and fort change only with the
    map, and on a 2,000-region map making these for every region was a third of the map's time."""
    lx, ly = outline.label
    font = _font(outline)
    return Placed(_drawing(outline, terrain, fort), _num(lx), _num(ly), _num(ly - font * 0.9), font)


def _font(outline: Outline) -> float:
    """The size of a region's code: a seventh of the region, at least 1.5 map units."""
    return max(1.5, outline.size / 7)


def _drawing(outline: Outline, terrain: str, fort: int) -> str:
    """What of a region's drawing changes only with the map, relative to its label point: the polygon
    (filled with the owner's colour from the region's group), rough terrain's hatching, a city's tower,
    the fort's rings (made once per process, in _placed); regions with the same drawing share one <defs>
    entry.
    The marks carry their own paint, so that the region's outline and opacity stay on the polygon."""
    lx, ly = outline.label
    points = " ".join(f"{_num(x - lx)},{_num(y - ly)}" for x, y in zip(outline.xs, outline.ys, strict=True))
    font = _font(outline)
    marks = [f'<polygon points="{points}"/>']
    if terrain == "rough":
        marks.append(f'<polygon points="{points}" fill="url(#hatch)" fill-opacity="1" stroke="none"/>')
    if terrain == "city":
        # A small tower above the code: a square keep with two crenels.
        s = font * 0.9
        tx, ty = -s / 2, -font * 2.9
        marks.append(
            f'<path d="M{_num(tx)},{_num(ty + s)}v{_num(-s * 0.8)}h{_num(s * 0.3)}v{_num(s * 0.25)}'
            f'h{_num(s * 0.4)}v{_num(-s * 0.25)}h{_num(s * 0.3)}v{_num(s * 0.8)}z" fill="#333" '
            'fill-opacity="1" stroke="none"/>'
        )
    if fort:
        r = font * 0.22
        start = -(fort - 1) * r * 1.5
        marks.extend(
            f'<circle cx="{_num(start + i * r * 3)}" cy="{_num(-font * 0.1)}" r="{_num(r)}" fill="#111" '
            'fill-opacity="1" stroke="none"/>'
            for i in range(fort)
        )
    return "".join(marks)


def _battle_marker(code: str, url: str, centre: tuple[float, float, float], label: str) -> str:
    """Crossed swords at the top right of the region's label, linking to the battle's card."""
    x, y, size = centre
    r = max(1.6, size / 9)
    cx, cy = x + size * 0.3, y - size * 0.32
    said = escape(label % {"region": code})
    return (
        f'<a class="battle-marker" href="{escape(url)}" aria-label="{said}" data-battle="{escape(code)}">'
        f"<title>{said}</title>"
        f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r)}"/>'
        f'<text x="{_num(cx)}" y="{_num(cy + r * 0.4)}" font-size="{_num(r * 1.3)}">⚔</text></a>'
    )


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


def _bounds(outlines: list[Outline]) -> tuple[float, float, float, float]:
    # From each outline's box, made once per process: the points of every region were a fifth of the map.
    x0s, y0s, x1s, y1s = zip(*(o.box for o in outlines), strict=True)
    return min(x0s), min(y0s), max(x1s), max(y1s)
