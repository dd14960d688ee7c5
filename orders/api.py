"""Order entry through the API: the same service as the order form, its refusals in the API's error envelope.

A player lists, submits, changes and deletes its own nation's orders; the GM reads every nation's. Another
nation's order is not in the viewer's queryset, so by id it is a 404, for reading and for writing.
"""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import generics, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from campaign.api import SLUG, CampaignScoped, IsPlayerToWrite
from campaign.bounds import INT_MAX, Shape, WholeField, query
from campaign.selectors import orders_visible, turns_of
from orders.models import Order
from orders.serializers import OrderInputSerializer, OrderSerializer
from orders.services import OrderDraft, order_change, order_delete, order_submit
from rules.engine.messages import InputError
from rules.engine.systems import system_get


class TurnQuery(Shape):
    """The orders list's query: which turn."""

    turn = WholeField(
        required=False,
        min_value=1,
        max_value=INT_MAX,
        help_text="A turn's number; the current turn when left out.",
    )


# The path's <pk> is `id` in the schema (drf-spectacular's SCHEMA_COERCE_PATH_PK): described by that name,
# or the schema would list a second, phantom `pk` parameter.
ORDER_ID = OpenApiParameter("id", int, OpenApiParameter.PATH, description="The order's id.")


class OrderEntry(CampaignScoped):
    @property
    def entry_context(self) -> dict:
        """What the input serializer needs of the campaign: its battle system's registry entry."""
        return {"system": system_get(self.viewer.campaign.battle_system)}


@extend_schema_view(
    get=extend_schema(parameters=[SLUG, TurnQuery]),
    post=extend_schema(parameters=[SLUG], request=OrderInputSerializer, responses={201: OrderSerializer}),
)
class OrderList(OrderEntry, generics.ListCreateAPIView):
    """Your nation's orders for a turn in submission order (the GM: every nation's); POST adds one."""

    serializer_class = OrderSerializer
    permission_classes = [IsAuthenticated, IsPlayerToWrite]
    queryset = Order.objects.none()

    def get_queryset(self):
        number = query(self.request, TurnQuery).get("turn")
        if number is None:
            turn = self.turn_current
        else:
            turn = turns_of(campaign=self.viewer.campaign).filter(number=number).first()
        if turn is None:
            return Order.objects.none()
        return orders_visible(viewer=self.viewer, turn=turn)

    def create(self, request: Request, *args, **kwargs) -> Response:
        entered = OrderInputSerializer(data=request.data, context=self.entry_context)
        entered.is_valid(raise_exception=True)
        turn = self.turn_current
        if turn is None:
            raise InputError.of("turn", "no_turn_open")
        order = order_submit(user=request.user, turn=turn, draft=entered.draft())
        data = self.get_serializer(order).data
        return Response(data, status=status.HTTP_201_CREATED, headers={"Location": data["url"]})


@extend_schema_view(
    get=extend_schema(parameters=[SLUG, ORDER_ID]),
    put=extend_schema(parameters=[SLUG, ORDER_ID], request=OrderInputSerializer, responses=OrderSerializer),
    patch=extend_schema(parameters=[SLUG, ORDER_ID], request=OrderInputSerializer, responses=OrderSerializer),
    delete=extend_schema(parameters=[SLUG, ORDER_ID]),
)
class OrderDetail(OrderEntry, generics.RetrieveUpdateDestroyAPIView):
    """One order: change it in place (it keeps its place in the submission order) or delete it."""

    serializer_class = OrderSerializer
    permission_classes = [IsAuthenticated, IsPlayerToWrite]
    queryset = Order.objects.none()

    def get_queryset(self):
        return orders_visible(viewer=self.viewer)

    def get_object(self) -> Order:
        pk = self.kwargs["pk"]
        order = self.get_queryset().filter(pk=pk).first()
        if order is None:
            raise Http404("no such order")
        return order

    def update(self, request: Request, *args, partial: bool = False, **kwargs) -> Response:
        order = self.get_object()
        current = {
            "kind": order.kind,
            "origin": order.origin.code if order.origin_id else "",
            "target": order.target.code if order.target_id else None,
            "units": order.units,
            "params": order.params,
        }
        context = {**self.entry_context, "current": current}
        entered = OrderInputSerializer(data=request.data, partial=partial, context=context)
        entered.is_valid(raise_exception=True)
        draft: OrderDraft = entered.draft()
        order = order_change(user=request.user, order=order, draft=draft)
        return Response(self.get_serializer(order).data)

    def destroy(self, request: Request, *args, **kwargs) -> Response:
        order = self.get_object()
        order_delete(user=request.user, order=order)
        return Response(status=status.HTTP_204_NO_CONTENT)
