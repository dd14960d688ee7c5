"""A region's drawing as the map draws it (frontend.outline): parsed once, from the stored JSON text."""

from __future__ import annotations

import pytest

from frontend.outline import outline_of


def test_it_formats_the_polygon_and_puts_the_label_at_the_centre_unless_given() -> None:
    square = outline_of('{"shape": [[0, 0], [4, 0], [4, 2.5], [0, 2.5]]}')

    assert square.points == "0,0 4,0 4,2.5 0,2.5"
    assert (square.label, square.size) == ((2.0, 1.25), 2.5)
    assert outline_of('{"shape": [[0, 0], [4, 0], [4, 4]], "label": [1, 3]}').label == (1, 3)


@pytest.mark.parametrize("stored", [None, "", "{}", '{"shape": []}', "[]", '{"label": [1, 1]}'])
def test_a_region_without_a_shape_has_no_outline(stored) -> None:
    assert outline_of(stored) is None
