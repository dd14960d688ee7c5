"""The API writes an order with one plain function (orders.serializers.order_json), which must give what
the fields of OrderSerializer, which document it in the schema, would give."""

from __future__ import annotations

from django.utils import timezone
from rest_framework import serializers
from rest_framework.test import APIRequestFactory

from orders.models import Order
from orders.serializers import OrderSerializer, order_json
from tests.api.conftest import client_for


def as_the_fields_write_it(order: Order, context: dict) -> dict:
    """The plain path: DRF's own Serializer.to_representation over the declared fields."""
    return serializers.Serializer.to_representation(OrderSerializer(context=context), order)


def test_order_json_is_what_the_serializers_fields_write(world) -> None:
    request = APIRequestFactory().get("/api/campaigns/demo/orders/")
    context = {"request": request, "slug": "demo"}
    attack = world.other_order
    doctrine = Order.objects.get(pk=world.own_order.pk)
    doctrine.kind, doctrine.target, doctrine.params = (
        "doctrine",
        None,
        {"doctrine": "bold", "params": {"x": 1}},
    )
    for order in (Order.objects.get(pk=attack.pk), Order.objects.get(pk=world.own_order.pk), doctrine):
        for zone in ("UTC", "Europe/Helsinki"):
            with timezone.override(zone):
                written = order_json(order, slug="demo", request=request)
                assert written == as_the_fields_write_it(order, context), (order.kind, zone)
                assert list(written) == list(OrderSerializer().fields)
    assert order_json(attack, slug="demo", request=request)["target"] == "M2"


def test_the_api_answers_an_order_with_it(world, player) -> None:
    api = client_for(player)
    created = api.post(
        "/api/campaigns/demo/orders/", {"kind": "hold", "origin": "N2", "units": {"JV": 1}}, format="json"
    )
    listed = api.get("/api/campaigns/demo/orders/").json()

    assert created.status_code == 201 and created.json() in listed
    assert created["Location"] == created.json()["url"]
