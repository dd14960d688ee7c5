"""The shapes of the company API's bodies (COMPANY.md §11.3; campaign/bounds.py): the spec's field names,
each bounded, no key the shape does not know.

They bound, the rules judge. A number the spec gives a code of its own for (`company_size_invalid`,
`not_an_integer`, `group_invalid`) reaches the engine as sent, so that the same input keeps the same code and
a result entry keeps every §5.3 error in one answer; what no rule could take (a number past its column, a
text past its limit, a mapping where a region code goes) is refused here, naming its field.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from campaign.bounds import INT_MAX, ITEMS_MAX, TEXT_MAX, BoundedDictField, BoundedJSONField, Shape
from campaign.models import Nation, Region
from rules.company import models
from rules.company.dice import INPUTS_MAX_CHARS, MARK_LIMIT
from rules.engine.company_d20.results import NOTES_LIMIT
from rules.engine.company_d20.roster import NAME_LIMIT
from rules.models import ResultAnswer, ResultVersion

SMALL_MAX = 2**15 - 1  # PostgreSQL's smallint: a unit's stats, its group, a company's size, the table turn
CODE_MAX = 40  # a code of the ruleset (an ability, a KP pool or action): far below this
# A scalar sent where a number goes, handed to the engine to refuse with its code: as long as a number is.
SCALAR_TEXT_MAX = 40
NATION = Nation._meta.get_field("code").max_length
REGION = Region._meta.get_field("code").max_length
UNIT_TYPE = models.Unit._meta.get_field("type").max_length
REASON = models.RosterEvent._meta.get_field("reason").max_length  # a GM edit's reason, in the audit trail
# A void battle's or version's reason, a dispute's comment: their columns.
RESULT_TEXT = min(
    ResultVersion._meta.get_field("reason").max_length, ResultAnswer._meta.get_field("comment").max_length
)
FINGERPRINT = ResultVersion._meta.get_field("fingerprint").max_length


class AsSent(serializers.IntegerField):
    """A whole number within `min_value`..`max_value` (its column's range), or any other scalar, as sent:
    the engine refuses that with the spec's code. Lists, mappings and long texts are no number of any rule."""

    def __init__(self, *, min_value: int, max_value: int, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_null", True)
        super().__init__(min_value=min_value, max_value=max_value, **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, bool | int | float) or (isinstance(data, str) and len(data) <= SCALAR_TEXT_MAX):
            return data
        self.fail("invalid")

    def run_validators(self, value: Any) -> None:
        if isinstance(value, int) and not isinstance(value, bool):
            super().run_validators(value)


def whole(maximum: int, **kwargs: Any) -> AsSent:
    """A number of a column as wide as `maximum`, negative ones included (the rules say why not)."""
    return AsSent(min_value=-maximum - 1, max_value=maximum, **kwargs)


def chars(max_length: int, **kwargs: Any) -> serializers.CharField:
    kwargs.setdefault("required", False)
    kwargs.setdefault("allow_blank", True)
    return serializers.CharField(max_length=max_length, **kwargs)


# -- the Kasarmi (§7) -------------------------------------------------------------------------------------


class UnitChanges(Shape):
    """A GM edit's fields (§7.6, kasarmi.EDITABLE), each within its column."""

    name = chars(NAME_LIMIT, trim_whitespace=False)
    type = chars(UNIT_TYPE)
    group = whole(SMALL_MAX)
    role = chars(models.Unit._meta.get_field("role").max_length, allow_null=True)
    tk_max = whole(SMALL_MAX)
    tk = whole(SMALL_MAX)
    m = whole(SMALL_MAX)
    k = whole(SMALL_MAX)
    xp = whole(INT_MAX)
    l = whole(SMALL_MAX)  # noqa: E741 - the game's own letter
    s = whole(SMALL_MAX)
    h = whole(SMALL_MAX)
    ti = chars(models.Unit._meta.get_field("ti").max_length)
    abilities = serializers.ListField(child=chars(CODE_MAX), max_length=ITEMS_MAX, required=False)
    region = chars(REGION)


class KasarmiShape(Shape):
    """Every Kasarmi action's fields (§7.2-7.6); each action takes its own, and one it does not take is the
    engine's `params_invalid`."""

    unit = whole(INT_MAX, help_text="A unit's id.")
    tp = whole(INT_MAX, help_text="repair: the TP to spend.")
    type = chars(UNIT_TYPE, help_text="buy: a catalogue code.")
    name = chars(NAME_LIMIT, help_text="buy: the new unit's name.")
    group = whole(SMALL_MAX, help_text="buy: 0 for the HQ, else a platoon.")
    region = chars(REGION, allow_null=True, help_text="buy, restore: a region code.")
    ability = chars(CODE_MAX, help_text="abilities, remove-ability: a veteran ability's code.")
    delta = whole(INT_MAX, help_text="adjust-tp: the change of the balance.")
    size = whole(SMALL_MAX, help_text="company-size: at least 1; null: the ruleset's.")
    tk = whole(SMALL_MAX, help_text="restore: the TK it comes back with.")
    changes = UnitChanges(required=False, help_text="edit: the fields changed.")
    seen = BoundedJSONField(
        max_chars=TEXT_MAX,
        required=False,
        allow_null=True,
        help_text="adjust-tp: the balance shown; edit: each changed field's value shown.",
    )
    reason = chars(REASON, help_text="Every GM action's reason, kept in the audit trail.")


# -- orders (§4.2) ----------------------------------------------------------------------------------------


class OrderShape(Shape):
    """One order: `kind`, `from`, `to` (not for hold), `units`."""

    kind = chars(16)
    units = serializers.ListField(child=whole(INT_MAX), max_length=ITEMS_MAX, required=False)

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        # The spec's names, Python's keyword: declared by name.
        fields["from"] = chars(REGION, allow_null=True)
        fields["to"] = chars(REGION, allow_null=True)
        return fields


class OrdersShape(Shape):
    orders = OrderShape(many=True, max_length=ITEMS_MAX)


# -- the dice (§8) ----------------------------------------------------------------------------------------


class RollShape(Shape):
    """A request to the dice service: the function, its inputs as §8.5 gives them (judged by the function),
    and the optional purpose (§8.2: at most 200 characters)."""

    function = chars(models.DiceRoll._meta.get_field("function").max_length, allow_blank=False, required=True)
    inputs = BoundedJSONField(max_chars=INPUTS_MAX_CHARS, required=False, allow_null=True)
    purpose = chars(200, allow_null=True)


class RollMarkShape(Shape):
    text = chars(MARK_LIMIT, allow_null=True, help_text="The GM's note, or why the roll is void.")


class TableTurnShape(Shape):
    table_turn = whole(SMALL_MAX)


# -- the KP ledger (§9) -----------------------------------------------------------------------------------


class DeclarationShape(Shape):
    out_of_link = serializers.ListField(child=whole(INT_MAX), max_length=ITEMS_MAX, required=False)
    promote = whole(INT_MAX)


class KpShape(Shape):
    """Every KP operation's fields (§9.2): turn-start's `declarations` per side, spend's `side`, `pool`,
    `action`, `unit`, transfer's `side` and `to`, eliminate's `unit`."""

    declarations = BoundedDictField(
        max_length=ITEMS_MAX, key_max_length=NATION, child=DeclarationShape(), required=False
    )
    side = chars(NATION, allow_null=True)
    pool = chars(CODE_MAX, allow_null=True)
    action = chars(CODE_MAX, allow_null=True)
    unit = whole(INT_MAX)
    to = chars(CODE_MAX, allow_null=True)


# -- the result (§5) --------------------------------------------------------------------------------------


class ResultRowShape(Shape):
    unit = whole(INT_MAX)
    tk_lost = whole(SMALL_MAX)
    destroyed = BoundedJSONField(max_chars=SCALAR_TEXT_MAX, required=False)
    states = BoundedJSONField(max_chars=200, required=False)
    vp = whole(INT_MAX)


class ResultSideShape(Shape):
    objective_vp = whole(INT_MAX)
    field_promotion = whole(INT_MAX)


class ResultEntryShape(Shape):
    """A result entry (§5.1). §5.3 reports every error of it at once, the notes past their 2000 characters
    among them: the shape only refuses what no entry could be."""

    units = ResultRowShape(many=True, max_length=ITEMS_MAX, required=False)
    sides = BoundedDictField(
        max_length=ITEMS_MAX, key_max_length=NATION, child=ResultSideShape(), required=False
    )
    notes = chars(max(TEXT_MAX, NOTES_LIMIT), allow_null=True, trim_whitespace=False)
    fingerprint = chars(FINGERPRINT, allow_null=True)


class PreviewQuery(Shape):
    preview = serializers.BooleanField(required=False)


class ResultActionShape(Shape):
    version = serializers.IntegerField(min_value=1, max_value=INT_MAX, required=False, allow_null=True)
    comment = chars(RESULT_TEXT, allow_null=True, help_text="dispute: what is wrong.")
    reason = chars(RESULT_TEXT, allow_null=True, help_text="void, reopen: the GM's reason.")


class VoidShape(Shape):
    reason = chars(models.Battle._meta.get_field("void_reason").max_length, allow_null=True)
