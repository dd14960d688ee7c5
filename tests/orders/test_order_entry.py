"""Order entry through orders.services: the engine's validation, at once, with the field at fault."""

from __future__ import annotations

from datetime import timedelta

import pytest

from orders.models import Order
from orders.selectors import orders_consuming
from orders.services import (
    OrderDraft,
    OrderError,
    order_change,
    order_delete,
    order_describe,
    order_submit,
    orders_place,
)


def draft(kind="attack", origin="N5", target="M2", **units) -> OrderDraft:
    return OrderDraft(kind=kind, origin=origin, target=target, units=units or {"JV": 2})


@pytest.fixture
def turn(demo):
    return demo.turns.get(number=1)


def test_it_saves_a_valid_order_and_describes_it(player, turn) -> None:
    order = order_submit(user=player, turn=turn, draft=draft(JV=4, PA=3))

    assert order.nation.code == "NOR" and Order.objects.get().sequence == order.sequence
    assert str(order_describe(order)) == "N5 → M2: attack with 4 JV, 3 PA"


@pytest.mark.parametrize(
    ("bad", "field", "message"),
    [
        (draft(target="K1"), "target", "K1 is not adjacent to N5"),
        (draft(target="W2", origin="N4"), "target", "NOR is allied with WES"),
        (draft(JV=5), "units", "only 4 JV left in N5, not 5"),
        (draft(TY=1), "units", "TY cannot attack: only ground units can"),
        (draft(origin="K1"), "origin", "K1 is not held by NOR"),
        (draft(origin="ZZ9"), "origin", "unknown region 'ZZ9'"),
        (
            draft(kind="retreat"),
            "kind",
            "unknown kind of order 'retreat': one of hold, move, rebase, attack, stand_down",
        ),
        (draft(target=None), "target", "choose a target region"),
        (draft(JV="many"), "units", "the count of JV must be a whole number, got 'many'"),
        (
            draft(kind="rebase", origin="N1", target="M1", IV=2),
            "target",
            "M1 is more than 2 borders from N1",
        ),
    ],
)
def test_it_rejects_an_invalid_order_naming_the_field(player, turn, bad, field, message) -> None:
    with pytest.raises(OrderError) as error:
        order_submit(user=player, turn=turn, draft=bad)

    assert (error.value.field, str(error.value.message)) == (field, message)
    assert not Order.objects.exists()


def test_it_judges_a_rebase_two_borders_away_on_the_map_around_the_origin(player, turn) -> None:
    order = order_submit(user=player, turn=turn, draft=draft(kind="rebase", origin="N1", target="N5", IV=2))

    assert str(order_describe(order)) == "N1 → N5: rebase 2 IV"


def test_it_counts_the_units_the_nations_earlier_orders_took(player, turn) -> None:
    order_submit(user=player, turn=turn, draft=draft(JV=3))

    with pytest.raises(OrderError) as error:
        order_submit(user=player, turn=turn, draft=draft(kind="move", target="N3", JV=2))

    assert str(error.value.message) == "only 1 JV left in N5 after your other orders, not 2"


def test_a_change_that_would_starve_a_later_order_is_refused(player, rival, turn) -> None:
    first = order_submit(user=player, turn=turn, draft=draft(JV=2))
    # The rival's orders come between: the player reads the number of its own list, not the turn's place.
    order_submit(user=rival, turn=turn, draft=draft(kind="hold", origin="E1", target=None, JV=1))
    order_submit(user=player, turn=turn, draft=draft(kind="move", target="N3", JV=2))

    with pytest.raises(OrderError) as error:
        order_change(user=player, order=first, draft=draft(JV=3))

    assert str(error.value.message).startswith("this would leave your order #2 invalid: only 1 JV left")
    first.refresh_from_db()
    assert first.units == {"JV": 2}


def test_a_change_keeps_the_orders_place(player, turn) -> None:
    first = order_submit(user=player, turn=turn, draft=draft(JV=2))
    order_submit(user=player, turn=turn, draft=draft(kind="move", target="N3", PA=1))

    changed = order_change(user=player, order=first, draft=draft(kind="move", target="N2", JV=4))

    assert (changed.sequence, str(order_describe(changed))) == (first.sequence, "N5 → N2: move 4 JV")


def test_it_refuses_orders_of_another_nation_and_from_the_gm_or_an_outsider(
    player, rival, gm, outsider, turn
):
    order = order_submit(user=player, turn=turn, draft=draft())

    for user in (rival, gm, outsider):
        with pytest.raises(OrderError):
            order_change(user=user, order=order, draft=draft())
        with pytest.raises(OrderError):
            order_delete(user=user, order=order)
    with pytest.raises(OrderError) as error:
        order_submit(user=gm, turn=turn, draft=draft())
    assert error.value.field == "nation"
    assert Order.objects.get().units == {"JV": 2}


def test_it_rejects_orders_after_the_deadline(player, turn) -> None:
    with pytest.raises(OrderError) as error:
        order_submit(user=player, turn=turn, draft=draft(), now=lambda: turn.deadline + timedelta(seconds=1))

    assert str(error.value.message) == "the deadline of turn 1 has passed"


def test_it_rejects_orders_for_a_turn_that_is_not_open(player, turn) -> None:
    turn.status = turn.Status.PROCESSING
    turn.save()

    with pytest.raises(OrderError) as error:
        order_submit(user=player, turn=turn, draft=draft())

    assert str(error.value.message) == "turn 1 is processing: orders are closed"


def test_a_player_deletes_its_own_order(player, turn) -> None:
    order = order_submit(user=player, turn=turn, draft=draft())

    order_delete(user=player, order=order)

    assert not Order.objects.exists()


def test_an_order_judged_before_the_deadline_but_written_after_it_is_refused(player, turn) -> None:
    # The first look at the clock is before the deadline; by the time the order is written it has passed.
    times = iter([turn.deadline - timedelta(seconds=1)] + [turn.deadline + timedelta(seconds=1)] * 5)

    with pytest.raises(OrderError) as error:
        order_submit(user=player, turn=turn, draft=draft(), now=lambda: next(times))

    assert (error.value.field, str(error.value.message)) == ("turn", "the deadline of turn 1 has passed")
    assert not Order.objects.exists()


def test_orders_written_without_order_entry_keep_their_places(player, turn) -> None:
    hold = {"nation": "NOR", "kind": "hold", "origin": "N2", "units": {"JV": 1}}
    orders_place(turn=turn, orders=[hold] * 3)  # as an import or a benchmark writes them

    first = order_submit(user=player, turn=turn, draft=draft())
    second = order_submit(user=player, turn=turn, draft=draft(kind="hold", target=None))

    assert 3 < first.sequence < second.sequence
    assert list(Order.objects.order_by("sequence").values_list("sequence", flat=True)) == [
        1,
        2,
        3,
        first.sequence,
        second.sequence,
    ]


def test_a_deleted_orders_place_is_not_given_again(player, turn) -> None:
    first = order_submit(user=player, turn=turn, draft=draft(JV=1))
    last = order_submit(user=player, turn=turn, draft=draft(JV=1))
    order_delete(user=player, order=last)

    again = order_submit(user=player, turn=turn, draft=draft(JV=1))

    assert first.sequence < last.sequence < again.sequence


def test_a_nations_orders_out_of_a_region_are_judged_in_their_places_order(player, turn, nations) -> None:
    # Written out of order, as an order changed in place is rewritten after the ones placed after it.
    origin = turn.campaign.regions.get(code="N5")
    targets = {code: turn.campaign.regions.get(code=code) for code in ("M2", "N2", "N4")}
    for place, code in ((3, "M2"), (1, "N2"), (2, "N4")):
        Order.objects.create(
            turn=turn,
            nation=nations["NOR"],
            kind="move",
            origin=origin,
            target=targets[code],
            units={"JV": 1},
            sequence=place,
        )

    earlier = orders_consuming(turn_id=turn.pk, nation=nations["NOR"], origin="N5")

    assert [(o.ref, o.target) for o in earlier] == [(1, "N2"), (2, "N4"), (3, "M2")]
