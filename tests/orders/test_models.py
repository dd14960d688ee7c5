"""Orders are kept in one submission sequence per turn."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from orders.models import Order


def test_it_refuses_two_orders_with_one_sequence_number_in_a_turn(demo, place_orders):
    turn = demo.turns.get()
    place_orders(turn, [("NOR", "hold", "N1", None, {"JV": 1})])
    with pytest.raises(IntegrityError), transaction.atomic():
        Order.objects.create(
            turn=turn,
            nation=demo.nations.get(code="EST"),
            kind="hold",
            origin=demo.regions.get(code="E1"),
            units={"JV": 1},
            sequence=1,
        )


@pytest.mark.parametrize("kind", ["retreat", "recon", "ambush"])
def test_it_refuses_a_kind_the_campaigns_system_does_not_offer_when_cleaned(demo, place_orders, kind):
    """The demo is Iron Fist's: no retreat anywhere, company's recon and Sodankäynti's ambush not here."""
    turn = demo.turns.get()
    (order,) = place_orders(turn, [("NOR", "hold", "N1", None, {"JV": 1})])
    order.kind = kind
    with pytest.raises(ValidationError, match="one of hold, move, rebase, attack, stand_down"):
        order.full_clean()


def test_it_refuses_negative_or_missing_unit_counts_when_cleaned(demo, place_orders):
    turn = demo.turns.get()
    (order,) = place_orders(turn, [("NOR", "hold", "N1", None, {"JV": 1})])
    order.units = {"JV": -1}
    with pytest.raises(ValidationError, match="JV"):
        order.full_clean()
    order.units = {}
    with pytest.raises(ValidationError, match="at least one unit type"):
        order.full_clean()
