"""Read the campaign map's SVG back as the browser would: each region's owner, colour, classes and drawing,
the code labels and the stack counters, with every <use> resolved to the <defs> entry it places."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def map_svg_of(page: str) -> ET.Element:
    """The map of a page, parsed as XML (it must be well-formed to be parsed at all)."""
    match = re.search(r'<svg class="map".*?</svg>', page, re.S)
    assert match, "the page has no map"
    return ET.fromstring(match.group(0))


def map_regions(page: str) -> dict[str, dict]:
    """{code: {"owner", "fill", "classes", "x", "y", "drawing", "link"}} for every region on the map; the
    drawing is the <defs> entry's elements, moved to where the region's <use> places them. Each area's
    code is the nth label of the codes layer's, as the page's script reads it (site.js); that label must
    stand where the region's code goes, at its label point's x and above it, within the region."""
    svg = map_svg_of(page)
    defs = {g.get("id"): g for g in svg.iter(f"{SVG}g") if g.get("id")}
    labels = list(svg.find(f"{SVG}g[@class='codes']"))
    areas = [(group, child) for group in svg.find(f"{SVG}g[@class='regions']") for child in group]
    assert len(areas) == len(labels), "one code label for each area"
    regions = {}
    for (group, child), label in zip(areas, labels, strict=True):
        link = child.get("href") if child.tag == f"{SVG}a" else None
        use = child.find(f"{SVG}use") if link else child
        assert use.get("data-region") is None, "the areas do not say their codes: the labels do"
        x, y = float(use.get("x")), float(use.get("y"))
        drawing = defs[use.get("href").lstrip("#")]
        # The polygon's points are relative to the label point: the label is in the region's upper half.
        above = -min(float(p.split(",")[1]) for p in drawing[0].get("points").split())
        assert float(label.get("x")) == x and 0 < y - float(label.get("y")) < above, (label.text, x, y)
        regions[label.text] = {
            "owner": group.get("data-owner"),
            "fill": group.get("fill"),
            "classes": set((use.get("class") or "").split()),
            "x": x,
            "y": y,
            "drawing": [_moved(element, x, y) for element in drawing],
            "link": link,
        }
    return regions


def map_labels(page: str, layer: str) -> list[str]:
    """The texts of a layer of the map ("codes" or "stacks"), in order."""
    group = map_svg_of(page).find(f"{SVG}g[@class='{layer}']")
    return [] if group is None else ["".join(text.itertext()) for text in group]


def _moved(element: ET.Element, x: float, y: float) -> tuple[str, dict]:
    attrs = dict(element.attrib)
    tag = element.tag.removeprefix(SVG)
    if "points" in attrs:
        attrs["points"] = [
            (round(float(px) + x, 2), round(float(py) + y, 2))
            for px, py in (p.split(",") for p in attrs["points"].split())
        ]
    if tag == "circle":
        attrs["cx"], attrs["cy"] = float(attrs["cx"]) + x, float(attrs["cy"]) + y
    return tag, attrs
