"""rules.engine.world: the turn's input refused by the entry at fault."""

from __future__ import annotations

import dataclasses

import pytest

from rules.engine import Region, Stack, TurnInput, TurnInputError, ruleset_build
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


@pytest.mark.parametrize(
    ("stack", "fault"),
    [
        (Stack("N1", "Q", "JV", 1), "unknown region"),
        (Stack("N1", "A", "XX", 1), "unknown unit type"),
        (Stack("N1", "A", "JV", -1), "a count must be a whole number of 0 or more"),
        (Stack("N1", "A", "JV", 1.5), "a count must be a whole number of 0 or more"),
        (Stack("N1", "B", "JV", 1), "units stand only in regions their nation owns"),
        (Stack("N2", "A", "JV", 1), "units stand only in regions their nation owns"),
    ],
)
def test_a_stack_is_refused_by_its_first_fault_after_good_ones(stack, fault) -> None:
    good = (Stack("N1", "A", "JV", 2), Stack("N1", "A", "PA", 1))
    turn = dataclasses.replace(_turn(("A", "B")), stacks=(*good, stack))
    with pytest.raises(TurnInputError) as raised:
        world_build(turn, ruleset_build())
    assert (
        str(raised.value)
        == f"stacks: {stack.count} {stack.unit_type} of {stack.nation} in {stack.region}: {fault}"
    )


def test_a_regions_stacks_add_up_type_by_type_wherever_they_come_in_the_input() -> None:
    stacks = (Stack("N1", "A", "JV", 2), Stack("N1", "C", "PA", 1), Stack("N1", "A", "JV", 3))
    stacks += (Stack("N1", "A", "TY", 1),)
    turn = TurnInput(
        nations=("N1",), regions=(Region("A", owner="N1"), Region("C", owner="N1")), borders=(), stacks=stacks
    )
    world = world_build(turn, ruleset_build())
    assert world.units == {"A": {"N1": {"JV": 5, "TY": 1}}, "C": {"N1": {"PA": 1}}}
    assert world.given == {"A": [stacks[0], stacks[2], stacks[3]], "C": [stacks[1]]}
