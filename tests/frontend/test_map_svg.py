"""The map's compact SVG (frontend.map_svg) against the plain drawing it stands for: every region's
polygon where its outline says, its terrain and fort marks, its code, its owner's colour; links only where
the viewer can give orders from; and small enough for a 2,000-region map to make a light page."""

from __future__ import annotations

import json

from campaign.generate import scenario_generate
from frontend.map_svg import map_svg
from frontend.outline import outline_of
from frontend.selectors import UNOWNED_COLOR, MapData
from tests.frontend.svg_map import map_labels, map_regions

ODD = [  # shapes unlike the generated squares: a triangle with its own label point, a small square
    {
        "code": "T1",
        "shape": [[0, -30], [25, -5], [-10, -8]],
        "label": [3.3, -14.25],
        "terrain": "city",
        "fort": 3,
    },
    {"code": "S1", "shape": [[-20, -20], [-17, -20], [-17, -17], [-20, -17]], "terrain": "rough", "fort": 1},
]


def _map(regions: int = 120, nations: int = 6) -> MapData:
    scenario = scenario_generate(regions=regions, nations=nations, seed=3)
    ids = {n["code"]: i for i, n in enumerate(scenario["nations"], start=1)}
    rows = []
    for i, region in enumerate(scenario["regions"] + ODD):
        drawn = {"shape": region["shape"], **({"label": region["label"]} if "label" in region else {})}
        owner = ids.get(region.get("owner"))
        rows.append(
            {
                "id": i,
                "code": region["code"],
                "name": f"Region {region['code']}",
                "terrain": region["terrain"],
                "fort": region["fort"],
                "owner_id": None if i % 7 == 0 else owner,  # some unowned
                "outline": outline_of(json.dumps(drawn)),
            }
        )
    return MapData(
        regions=rows,
        nations={
            ids[n["code"]]: {"code": n["code"], "name": n["name"], "color": n["color"]}
            for n in scenario["nations"]
        },
        stacks={0: [{"nation": "N000", "color": "#123456", "units": [("JV", 3)], "label": "JV 3"}]},
    )


def test_it_draws_every_region_where_its_outline_says_with_its_terrain_fort_owner_and_code() -> None:
    data = _map()
    page = str(map_svg(data=data, links={"R00001"}, marked=frozenset({"R00002"})))
    drawn = map_regions(page)
    assert set(drawn) == {r["code"] for r in data.regions}
    assert sorted(map_labels(page, "codes")) == sorted(drawn), "each region's code once"
    for region in data.regions:
        shown, outline = drawn[region["code"]], region["outline"]
        (tag, polygon), *marks = shown["drawing"]
        assert tag == "polygon"
        assert polygon["points"] == [
            (round(x, 2), round(y, 2)) for x, y in zip(outline.xs, outline.ys, strict=True)
        ], region["code"]
        assert (shown["x"], shown["y"]) == outline.label
        hatched = [a for t, a in marks if t == "polygon" and a["fill"] == "url(#hatch)"]
        assert len(hatched) == (region["terrain"] == "rough")
        assert sum(t == "path" for t, _ in marks) == (region["terrain"] == "city")
        assert sum(t == "circle" for t, _ in marks) == region["fort"]
        nation = data.nations.get(region["owner_id"])
        assert (shown["owner"], shown["fill"]) == (
            (nation["code"], nation["color"]) if nation else ("", UNOWNED_COLOR)
        )
        assert shown["classes"] == ({"changed"} if region["code"] == "R00002" else set())
        assert shown["link"] == ("?origin=R00001#order" if region["code"] == "R00001" else None)
    assert map_labels(page, "stacks") == ["■ JV 3"]


def test_regions_of_one_shape_terrain_and_fort_share_one_drawing() -> None:
    data = _map()
    page = str(map_svg(data=data))
    squares = {(r["terrain"], r["fort"]) for r in data.regions if r["code"] not in {"T1", "S1"}}
    # The generated squares: one drawing per terrain and fort; each odd shape its own.
    assert page.count('<g id="d') == len(squares) + 2


def test_a_region_of_another_size_says_its_own_font_size() -> None:
    page = str(map_svg(data=_map()))
    assert '<g class="codes" font-size="2.86">' in page  # the squares' 20 / 7
    assert ">S1</text>" in page and 'font-size="1.5">S1</text>' in page


def test_a_2000_region_map_costs_under_80_bytes_a_region() -> None:
    # 95 while each area said its code in a data-region of its own.
    data = _map(regions=2000, nations=50)
    assert len(str(map_svg(data=data, links={"R00001"}))) < 80 * 2000


def test_a_counter_too_wide_for_its_region_goes_on_lines_of_its_own_and_the_next_counter_below_them() -> None:
    import re

    data = _map()
    long = "LEVY d6 4 · GREN d10 1 · CAV d8 3 · ELITE d8 2"
    data.stacks[0] = [
        {"nation": "N000", "color": "#123456", "units": [], "label": long},
        {"nation": "N001", "color": "#654321", "units": [], "label": "JV 3"},
    ]
    page = str(map_svg(data=data))
    lines = re.findall(
        r'<text x="([^"]+)" y="([^"]+)">(?:<tspan fill="(#\w+)">■</tspan> )?([^<]+)</text>', page
    )
    region = [line for line in lines if line[3] in long or line[3] == "JV 3"]
    texts = [line[3] for line in region]
    assert " · ".join(texts[:-1]) == long and len(texts) > 2, "every part, in order, on several lines"
    width = data.regions[0]["outline"].box[2] - data.regions[0]["outline"].box[0]
    size = 20 / 7 * 0.64  # the squares' counter font
    assert all(len(t) * 0.5 * size <= width for t in texts), "each line fits its region"
    marks = [line[2] for line in region]
    assert marks[0] == "#123456" and set(marks[1:-1]) == {""} and marks[-1] == "#654321", "one mark a counter"
    ys = [float(line[1]) for line in region]
    assert ys == sorted(ys) and len(set(ys)) == len(ys), "each line below the one before, none on another"
    assert texts[-1] == "JV 3", "the next counter comes after the long one's lines"
