"""rules.engine.graph: breadth-first reach over borders, the one copy everything counts borders with."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rules.engine.graph import rings, within
from tests.rules.test_properties import _distances

maps = st.integers(1, 12).flatmap(
    lambda n: st.tuples(
        st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n)
    )
)


@given(maps, st.integers(0, 11), st.one_of(st.none(), st.integers(0, 5)))
def test_it_reaches_exactly_the_nodes_within_the_radius_at_their_distance(drawn, start, radius) -> None:
    n, pairs = drawn
    start %= n
    adjacency = {i: set() for i in range(n)}
    for a, b in pairs:
        adjacency[a].add(b)
        adjacency[b].add(a)
    everywhere = _distances(start, adjacency)
    expected = {node: d for node, d in everywhere.items() if radius is None or d <= radius}
    assert within(adjacency, start, radius) == expected


def test_it_asks_for_the_neighbours_of_a_whole_ring_at_once() -> None:
    line = {0: [1], 1: [0, 2], 2: [1, 3], 3: [2]}
    asked = []

    def neighbours(ring):
        asked.append(sorted(ring))
        return [n for here in ring for n in line[here]]

    assert rings(0, neighbours, 2) == {0: 0, 1: 1, 2: 2}
    assert asked == [[0], [1]], "one call a ring, none past the radius"
