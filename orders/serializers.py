"""Orders in and out of the API. Input is only checked for shape here; the rules judge it in the service."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.reverse import reverse

from campaign.bounds import BoundedDictField, BoundedJSONField, Shape
from campaign.models import INT_COLUMN_MAX, UNIT_TYPE_MAX, Region
from orders.models import Order
from orders.services import OrderDraft, order_describe
from rules.engine.systems import order_kinds_all

# A doctrine's fields written out (SODANKAYNTI §9: a name and a few numbers): far below this.
PARAMS_MAX_CHARS = 2000
_CODE_MAX = Region._meta.get_field("code").max_length


class OrderInputSerializer(Shape):
    """An order as a player enters it: region codes and counts per unit type, like the order form. Its
    context's `system` is the campaign's battle system."""

    kind = serializers.CharField(
        max_length=Order._meta.get_field("kind").max_length,
        help_text="hold, move, rebase, attack or stand_down; in Sodankäynti also doctrine and ambush",
    )
    origin = serializers.CharField(
        allow_blank=True,
        max_length=_CODE_MAX,
        help_text="The region code the units leave from (or hold in); an ambush's region; a doctrine's "
        "region, or empty for all the nation's battles.",
    )
    target = serializers.CharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        default=None,
        max_length=_CODE_MAX,
        help_text="A region code.",
    )
    units = BoundedDictField(
        # A ruleset's unit types: a few of them (a key longer than a unit type's code is no unit type).
        max_length=50,
        key_max_length=UNIT_TYPE_MAX,
        # Bounded as the stacks' count column is: a larger number would not fit (nor exist).
        child=serializers.IntegerField(min_value=-INT_COLUMN_MAX, max_value=INT_COLUMN_MAX),
        allow_empty=True,
        help_text='Counts per unit type: {"JV": 3}; {} for a doctrine or an ambush.',
    )
    params = BoundedJSONField(
        max_chars=PARAMS_MAX_CHARS,
        required=False,
        default=dict,
        help_text='A doctrine\'s fields: {"doctrine": "steady", "params": {"retreat_below": 75}}.',
    )

    def validate_units(self, units: dict[str, int]) -> dict[str, int]:
        for unit_type in units:
            # Stored in the order's JSON as given: PostgreSQL's jsonb refuses a NUL, the column a long one.
            if not unit_type or len(unit_type) > UNIT_TYPE_MAX or not unit_type.isprintable():
                raise serializers.ValidationError(f"{unit_type!r} is not a unit type")
        return units

    def validate_params(self, params: object) -> object:
        if not isinstance(params, dict):
            raise serializers.ValidationError("a JSON object of the order's fields", code="not_a_dict")
        return params

    def validate(self, data: dict) -> dict:
        if self.partial:  # a PATCH names only what changes; the rest is the order as it stands
            data = {**self.context["current"], **data}
        # The kinds naming no units are the campaign's battle system's (its registry entry's).
        unitless = self.context["system"].unitless_kinds
        if not data["units"] and data["kind"] not in unitless:
            raise serializers.ValidationError({"units": "name at least one unit type with a count"})
        return data

    def draft(self) -> OrderDraft:
        data = self.validated_data
        return OrderDraft(
            kind=data["kind"],
            origin=data["origin"],
            target=data["target"] or None,
            units=data["units"],
            params=data["params"],
        )


class OrderSerializer(serializers.Serializer):
    """An order as the API gives it back. The fields document it (the schema); `order_json` writes it."""

    id = serializers.IntegerField(read_only=True)
    turn = serializers.IntegerField(source="turn.number")
    nation = serializers.CharField(source="nation.code")
    sequence = serializers.IntegerField(
        help_text="The order's place in the turn's submission order: places rise in the order orders were "
        "given, and skip numbers."
    )
    kind = serializers.ChoiceField(
        choices=order_kinds_all(), help_text="One of the kinds the campaign's battle system offers."
    )
    origin = serializers.CharField(source="origin.code", allow_null=True, default=None)
    target = serializers.CharField(source="target.code", allow_null=True, default=None)
    units = serializers.DictField(
        child=serializers.IntegerField(), help_text='Counts per unit type: {"JV": 3}.'
    )
    params = serializers.DictField(help_text="A doctrine's fields (Sodankäynti); empty otherwise.")
    description = serializers.SerializerMethodField(help_text='"V3 → K7: attack with 6 JV, 2 PA"')
    submitted_at = serializers.DateTimeField()
    url = serializers.SerializerMethodField()

    def to_representation(self, order: Order) -> dict:
        return order_json(order, slug=self.context["slug"], request=self.context["request"])

    # The fields' own way, DRF's Serializer.to_representation, needs these two: the plain path that
    # tests/api/test_order_json.py holds order_json to.
    def get_description(self, order: Order) -> str:
        return str(order_describe(order))  # English, as the API writes its messages

    def get_url(self, order: Order) -> str:
        return reverse(
            "api:order-detail",
            kwargs={"slug": self.context["slug"], "pk": order.pk},
            request=self.context["request"],
        )


# How DRF writes a moment (ISO 8601 in the current time zone): one field, made once.
_MOMENT = serializers.DateTimeField()


def order_json(order: Order, *, slug: str, request) -> dict:
    """An order as OrderSerializer's fields write it, built directly: the fields, deep-copied for every
    serializer made, cost more than the rest of the answer (an order written, on the benchmark machine)."""
    return {
        "id": order.pk,
        "turn": order.turn.number,
        "nation": order.nation.code,
        "sequence": order.sequence,
        "kind": order.kind,
        "origin": order.origin.code if order.origin_id is not None else None,
        "target": order.target.code if order.target_id is not None else None,
        "units": {str(unit_type): int(count) for unit_type, count in order.units.items()},
        "params": dict(order.params),
        "description": str(order_describe(order)),
        "submitted_at": _MOMENT.to_representation(order.submitted_at),
        "url": reverse("api:order-detail", kwargs={"slug": slug, "pk": order.pk}, request=request),
    }
