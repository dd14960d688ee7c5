"""Order validation (IRON_FIST.md §2.1, §13): each invalid order is rejected with a reason saying where."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cases import case_parse
from rules.engine import Order, orders_check
from rules.engine.validation import CONSUMING, units_left

MAP = {
    "nations": ["RED", "BLUE", "GREEN"],
    "relations": [["RED", "GREEN", "alliance"]],
    "regions": {
        "A": {"owner": "RED"},
        "B": {"owner": "BLUE"},
        "C": {"owner": "GREEN"},
        "D": {"owner": "RED"},
        "E": {"owner": "RED"},
        "F": {"owner": "RED"},
        "U": {"owner": None},
    },
    "borders": [["A", "B"], ["A", "C"], ["A", "D"], ["D", "E"], ["E", "F"], ["A", "U"]],
    "units": {"A": {"RED": {"JV": 4, "PA": 2, "TY": 1, "IV": 2}}, "B": {"BLUE": {"JV": 1}}},
    "expect": {},
}


def reasons(*orders: Order) -> list[str | None]:
    case = case_parse(MAP)
    rejected = {r.index: r.reason for r in orders_check(case.turn, case.ruleset, orders)}
    return [rejected.get(i) for i in range(len(orders))]


def order(kind: str, units: dict, target: str | None = "B", origin: str = "A", nation: str = "RED") -> Order:
    return Order(nation=nation, kind=kind, origin=origin, target=target, units=units)


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        (order("attack", {"JV": 1}, origin="B"), "B is not held by RED"),
        (order("attack", {"JV": 1}, nation="PURPLE"), "unknown nation 'PURPLE'"),
        (order("charge", {"JV": 1}), "unknown kind of order 'charge'"),
        (order("attack", {"JV": 1}, origin="Q"), "unknown region 'Q'"),
        (order("attack", {}), "the order names no units"),
        (order("attack", {"XX": 1}), "unknown unit type 'XX'"),
        (order("attack", {"TY": 1}), "TY cannot attack: only ground units can"),
        (order("attack", {"IV": 1}), "IV cannot attack: only ground units can"),
        (order("move", {"IV": 1}, target="D"), "IV cannot move: only ground units and artillery can"),
        (order("rebase", {"JV": 1}, target="D"), "JV cannot rebase: only air units can"),
        (
            order("stand_down", {"PA": 1}, target=None),
            "PA cannot stand down: only artillery and air units can",
        ),
        (order("attack", {"JV": 0}), "the count of JV must be a whole number above 0, got 0"),
        (order("attack", {"JV": -2}), "the count of JV must be a whole number above 0, got -2"),
        (order("attack", {"JV": 5}), "only 4 JV left in A, not 5"),
        (order("stand_down", {"IV": 3}, target=None), "only 2 IV left in A, not 3"),
        (order("hold", {"PA": 3}, target=None), "only 2 PA left in A, not 3"),
        (order("attack", {"JV": 1}, target="E"), "E is not adjacent to A"),
        (order("attack", {"JV": 1}, target=None), "an order to attack needs a target region"),
        (order("attack", {"JV": 1}, target="D"), "D is RED's own region: move there instead of attacking"),
        (order("attack", {"JV": 1}, target="C"), "RED is allied with GREEN"),
        (
            order("move", {"JV": 1}, target="B"),
            "B is not held by RED: units move only within their own regions",
        ),
        (order("rebase", {"IV": 1}, target="F"), "F is more than 2 borders from A"),
        (
            order("rebase", {"IV": 1}, target="B"),
            "B is not held by RED: units move only within their own regions",
        ),
    ],
)
def test_it_rejects_an_invalid_order_with_its_reason(bad: Order, reason: str) -> None:
    assert reasons(bad) == [reason]


@pytest.mark.parametrize(
    "good",
    [
        order("attack", {"JV": 4, "PA": 2}),
        order("attack", {"JV": 1}, target="U"),  # unowned: attacked like an undefended region
        order("move", {"JV": 1, "TY": 1}, target="D"),
        order("rebase", {"IV": 2}, target="E"),  # 2 borders away
        order("rebase", {"IV": 1}, target="A"),  # distance 0: valid, moves nothing
        order("stand_down", {"TY": 1, "IV": 2}, target=None),
        order("hold", {"JV": 4, "IV": 2}, target=None),
    ],
)
def test_it_accepts_a_valid_order(good: Order) -> None:
    assert reasons(good) == [None]


def test_orders_out_of_one_region_together_may_not_exceed_its_units() -> None:
    found = reasons(
        order("attack", {"JV": 3}),
        order("move", {"JV": 2}, target="D"),  # 3 + 2 > 4
        order("move", {"JV": 1}, target="D"),  # 3 + 1 = 4
    )

    assert found == [None, "only 1 JV left in A after your other orders, not 2", None]


def test_a_rejected_order_consumes_nothing() -> None:
    assert reasons(order("attack", {"JV": 4}, target="C"), order("attack", {"JV": 4})) == [
        "RED is allied with GREEN",
        None,
    ]


def test_hold_and_stand_down_consume_nothing_and_add_up_against_the_start_of_turn() -> None:
    found = reasons(
        order("stand_down", {"IV": 2}, target=None),
        order("stand_down", {"IV": 2}, target=None),  # each is checked against the stack at the start
        order("hold", {"JV": 4}, target=None),
        order("rebase", {"IV": 2}, target="D"),
        order("attack", {"JV": 4}),
    )

    assert found == [None, None, None, None, None]


def test_each_rejection_names_the_part_of_the_order_at_fault() -> None:
    case = case_parse(MAP)
    orders = [
        order("attack", {"JV": 1}, origin="B"),
        order("charge", {"JV": 1}),
        order("attack", {"JV": 9}),
        order("attack", {"JV": 1}, target="E"),
        order("attack", {"JV": 1}, nation="PURPLE"),
    ]

    fields = [r.field for r in orders_check(case.turn, case.ruleset, orders)]

    assert fields == ["origin", "kind", "units", "target", "nation"]


# Orders of RED out of A that the rules allow but for their counts: kind, unit type, target.
COUNTED = [
    ("attack", "JV", "B"),
    ("move", "JV", "D"),
    ("move", "PA", "D"),
    ("rebase", "IV", "E"),
    ("hold", "JV", None),
    ("hold", "IV", None),
    ("stand_down", "TY", None),
    ("stand_down", "IV", None),
]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(COUNTED), st.integers(1, 5)), max_size=8))
def test_an_order_is_accepted_exactly_when_units_left_has_its_units(drawn) -> None:
    """The one count of "units left after the nation's other orders" (units_left, which the order form and
    the roster show) is the count validation judges by: holds and stand-downs take nothing."""
    orders = [order(kind, {unit_type: n}, target=target) for (kind, unit_type, target), n in drawn]
    start = MAP["units"]["A"]["RED"]
    found = reasons(*orders)

    accepted: list[tuple[str, dict]] = []
    for o, reason in zip(orders, found, strict=True):
        [(unit_type, count)] = o.units.items()
        left = units_left(start, accepted) if o.kind in CONSUMING else start
        assert (reason is None) == (count <= left[unit_type]), (o, reason, left)
        if reason is None:
            accepted.append((o.kind, o.units))
    assert min(units_left(start, accepted).values()) >= 0


def test_units_left_takes_what_moves_rebases_and_attacks_name_and_nothing_for_holds() -> None:
    here = {"JV": 4, "IV": 2}
    orders = [("hold", {"JV": 4}), ("attack", {"JV": 3}), ("stand_down", {"IV": 2}), ("rebase", {"IV": 1})]
    assert units_left(here, orders) == {"JV": 1, "IV": 1}
    assert units_left(here, [("attack", {"PA": 1})]) == {"JV": 4, "IV": 2, "PA": -1}, "more than there is"
