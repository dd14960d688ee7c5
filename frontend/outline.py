"""A region's drawing, parsed once per process: the map's shapes do not change once imported."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Outline:
    """A region's drawing, ready for the SVG: its polygon's points, where its label goes, its size."""

    points: str  # "x,y x,y ...", as the polygon's attribute
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    label: tuple[float, float]
    size: float
    box: tuple[float, float, float, float]  # the smallest x and y, the largest x and y


@lru_cache(maxsize=100_000)
def outline_of(geometry: str | None) -> Outline | None:
    """The outline of a region from its geometry as stored (JSON text); None when it has no shape.

    Parsed and formatted once per process: a drawing does not change once imported, and on a 2,000-region
    map the parsing was a fifth of the campaign page's time.
    """
    if not geometry:
        return None
    drawn = json.loads(geometry)
    shape = drawn.get("shape") if isinstance(drawn, dict) else None
    if not shape:
        return None
    xs, ys = tuple(p[0] for p in shape), tuple(p[1] for p in shape)
    label = drawn.get("label") or (sum(xs) / len(xs), sum(ys) / len(ys))
    box = (min(xs), min(ys), max(xs), max(ys))
    return Outline(
        points=" ".join(f"{x:g},{y:g}" for x, y in shape),
        xs=xs,
        ys=ys,
        label=(label[0], label[1]),
        size=min(box[2] - box[0], box[3] - box[1]) or 1.0,
        box=box,
    )
