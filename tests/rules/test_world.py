"""rules.engine.world: the turn's input refused by the entry at fault."""

from __future__ import annotations

import pytest

from rules.engine import Region, TurnInput, TurnInputError, ruleset_build
from rules.engine.world import world_build


def _turn(*borders: tuple[str, str]) -> TurnInput:
    return TurnInput(
        nations=("N1",), regions=(Region("A", owner="N1"), Region("B")), borders=borders, stacks=()
    )


@pytest.mark.parametrize(
    ("border", "message"),
    [
        (("A", "Q"), "borders: [A, Q] names the unknown region 'Q'"),
        (("Q", "B"), "borders: [Q, B] names the unknown region 'Q'"),
        (("Q", "Q"), "borders: [Q, Q] names the unknown region 'Q'"),
        (("A", "A"), "borders: [A, A] joins a region to itself"),
    ],
)
def test_a_border_to_an_unknown_region_or_to_itself_is_refused_by_name(border, message) -> None:
    with pytest.raises(TurnInputError) as raised:
        world_build(_turn(("A", "B"), border), ruleset_build())
    assert str(raised.value) == message


def test_each_region_has_its_neighbours_once_in_code_order() -> None:
    world = world_build(_turn(("B", "A"), ("A", "B")), ruleset_build())
    assert world.adjacency == {"A": ("B",), "B": ("A",)}
