"""The roster's cells as markup (frontend.roster) against the plain cells they stand for: each count and
what of it is free, in the order of the unit types, read back as a browser reads them."""

from __future__ import annotations

from html.parser import HTMLParser

from django.utils import translation

from frontend.roster import roster_rows
from frontend.selectors import MapData


class _Cells(HTMLParser):
    """[(count, free)] of a row's <td> cells: the cell's own text, and its "free" span's."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[list[str]] = []
        self.into = 0

    def handle_starttag(self, tag, attrs):
        if tag == "td":
            self.cells.append(["", ""])
            self.into = 0
        elif tag == "span" and dict(attrs).get("class") == "free":
            self.into = 1

    def handle_endtag(self, tag):
        if tag == "span":
            self.into = 0

    def handle_data(self, data):
        self.cells[-1][self.into] += data


def test_each_rows_markup_says_its_cells_counts_and_what_is_free() -> None:
    data = MapData(
        regions=[{"id": 1, "code": "N5", "name": "Oulu"}, {"id": 2, "code": "K1", "name": "Kemi"}],
        nations={},
        stacks={
            1: [{"nation": "NOR", "units": [("JV", 4), ("IV", 2)]}],
            2: [{"nation": "SWE", "units": [("JV", 1)]}, {"nation": "NOR", "units": [("PA", 3)]}],
        },
    )
    with translation.override("fi"):
        roster = roster_rows(data, "NOR", ["JV", "PA", "IV"], {"N5": {"JV": 1, "IV": 2}, "K1": {"PA": 0}})
    assert [r["code"] for r in roster["rows"]] == ["N5", "K1"]
    assert roster["totals"] == [4, 3, 2]
    for row in roster["rows"]:
        parser = _Cells()
        parser.feed(row["tds"])
        assert [tuple(c) for c in parser.cells] == [(c["count"], c["free"]) for c in row["cells"]]
    assert roster["rows"][0]["cells"][0]["free"] and not roster["rows"][0]["cells"][2]["free"]


def test_a_free_word_with_markup_in_it_is_escaped(monkeypatch) -> None:
    monkeypatch.setattr("frontend.roster._", lambda words: "<b>%(count)s</b> free")
    data = MapData(
        regions=[{"id": 1, "code": "N5", "name": "Oulu"}],
        nations={},
        stacks={1: [{"nation": "NOR", "units": [("JV", 4)]}]},
    )
    [row] = roster_rows(data, "NOR", ["JV"], {"N5": {"JV": 1}})["rows"]
    assert "<b>" not in row["tds"] and "&lt;b&gt;1&lt;/b&gt; free" in row["tds"]
