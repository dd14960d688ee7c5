"""The company pages' posts as forms (COMPANY.md §11.2; campaign/bounds.py): each field the page sends, within
its column or the spec's limit, so that a view reads the request only through one of them.

As in the API (rules.company.shapes), the forms bound and the rules judge: a value the page offers as a
choice goes to the service as the page sent it, and the service says why not.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from campaign.bounds import INT_MAX, ITEMS_MAX
from rules.company import models
from rules.company.dice import INPUTS_MAX_CHARS, MARK_LIMIT
from rules.company.shapes import CODE_MAX, NATION, REGION, RESULT_TEXT, SMALL_MAX, UNIT_TYPE
from rules.engine.company_d20.roster import NAME_LIMIT

# A result entry as JSON text (§5.1): every unit of a battle with every field, and the notes, fit.
ENTRY_MAX_CHARS = 20_000


def chars(max_length: int, **kwargs: Any) -> forms.CharField:
    return forms.CharField(max_length=max_length, required=False, **kwargs)


def whole(maximum: int) -> forms.IntegerField:
    """A number of a column as wide as `maximum`; its sign is the rules' to judge."""
    return forms.IntegerField(min_value=-maximum - 1, max_value=maximum, required=False)


class Numbers(forms.TypedMultipleChoiceField):
    """Unit ids ticked or listed (an order's units, the platoon leaders out of link): whole numbers, at most
    as many as a body's list, judged by the rules rather than by a list of choices."""

    default_error_messages = {"invalid_choice": _("Enter a whole number.")}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(coerce=int, required=False, **kwargs)
        self.max_length = ITEMS_MAX  # values, as a list's bound counts them; each of at most 9 digits

    def valid_value(self, value: Any) -> bool:
        return bool(re.fullmatch(r"\d{1,9}", str(value)))

    def validate(self, value: Any) -> None:
        if len(value) > self.max_length:
            raise forms.ValidationError(_("At most %(limit)s units.") % {"limit": self.max_length})
        super().validate(value)


def errors_said(form: forms.BaseForm) -> list[str]:
    """A refused form's errors, each with its field's name, for the page's messages."""
    said = []
    for name, errors in form.errors.items():
        said += [f"{name}: {error}" if name != "__all__" else error for error in errors]
    return said


def shape_errors_said(detail: Any, path: str = "") -> list[str]:
    """A shape's errors (rules.company.shapes), each with the path of its field: `units[2].vp`."""
    if isinstance(detail, dict):
        return [
            text
            for key, value in detail.items()
            for text in shape_errors_said(value, f"{path}.{key}" if path else str(key))
        ]
    if isinstance(detail, list):
        if all(isinstance(item, str) for item in detail):
            return [f"{path}: {item}" if path else str(item) for item in detail]
        return [text for i, item in enumerate(detail) for text in shape_errors_said(item, f"{path}[{i}]")]
    return [f"{path}: {detail}" if path else str(detail)]


class KasarmiForm(forms.Form):
    """A player's Kasarmi action (§7.2-7.5): the fields of repair, buy, choose an ability, appoint."""

    action = chars(24)
    unit = whole(INT_MAX)
    tp = whole(INT_MAX)
    type = chars(UNIT_TYPE)
    name = chars(NAME_LIMIT)
    group = whole(SMALL_MAX)
    region = chars(REGION)
    ability = chars(CODE_MAX)

    def params(self) -> dict[str, Any]:
        """The action's fields as sent: a field the page did not send is not the action's."""
        return {k: v for k, v in self.cleaned_data.items() if k != "action" and k in self.data}


class OrderForm(forms.Form):
    """One order from the Kasarmi's orders panel (§4.2), or `clear` to take them all back."""

    clear = forms.BooleanField(required=False)
    kind = chars(16)
    units = Numbers()

    def order(self) -> dict[str, Any]:
        data = self.cleaned_data
        order = {"kind": data["kind"] or None, "from": data["from"] or None, "units": data["units"]}
        if data["to"]:
            order["to"] = data["to"]
        return order


# The spec's names, Python's keyword: declared by name.
for _name in ("from", "to"):
    OrderForm.base_fields[_name] = OrderForm.declared_fields[_name] = chars(REGION)


class RollMarkForm(forms.Form):
    """The GM's note on a roll, or its void with a reason (§8.2)."""

    roll_mark = chars(8)
    seq = forms.IntegerField(min_value=0, max_value=INT_MAX)
    text = chars(MARK_LIMIT)


class DiceForm(forms.Form):
    """What a dice form sends besides its function's own fields (rules.company.dice_forms.dice_inputs): the
    function, the purpose (§8.2: at most 200 characters), the inputs no field has, as JSON."""

    function = chars(models.DiceRoll._meta.get_field("function").max_length)
    purpose = chars(200)
    inputs = chars(INPUTS_MAX_CHARS)
    unit = chars(12)


class ResultActionForm(forms.Form):
    """A step of the results entry by its button (§5.2): the version answered, a dispute's comment, the GM's
    reason; a save's entry as JSON text."""

    result = chars(16)
    version = forms.IntegerField(min_value=1, max_value=INT_MAX, required=False)
    comment = chars(RESULT_TEXT)
    reason = chars(RESULT_TEXT)
    entry = forms.CharField(max_length=ENTRY_MAX_CHARS, required=False, strip=False)


class KpForm(forms.Form):
    """A KP operation from the battle page's ledger forms (§9.2)."""

    kp = chars(16)
    side = chars(NATION)
    pool = chars(CODE_MAX)
    action = chars(CODE_MAX)
    unit = chars(12)
    to = chars(CODE_MAX)
    promote = chars(12)
    out_of_link = Numbers()


class GMFormChoice(forms.Form):
    """Which of the Kasarmi's GM forms was sent (rules.company.gm_forms), by its prefix."""

    form = chars(40)
