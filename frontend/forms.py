"""Plain HTML forms: they parse what the browser sent; the services judge it (orders, GM inputs)."""

from __future__ import annotations

from datetime import UTC
from typing import Any

from django import forms
from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db.models import Model
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaign.models import INT_COLUMN_MAX, AuditEntry, GMModifier, Region, Relation, Turn
from frontend.terms import WORDS, said
from orders.models import Order
from orders.services import OrderDraft
from rules.engine.messages import Refusal
from rules.engine.settings import Setting, SettingKind

NO_TARGET = ("", gettext_lazy("— none (hold, stand down) —"))


def _choices(choices: list[tuple[str, str]], kind: str) -> list[tuple[str, Any]]:
    """A model's choices with their labels in the reader's language (frontend/terms.py)."""
    return [(value, WORDS[kind].get(value, label)) for value, label in choices]


def reason_field(*, kept_in: type[Model] = AuditEntry, required: bool = False) -> forms.CharField:
    """Why the GM does something: as long as the row it is kept in lets it be (the audit log's, or a
    GM modifier's own)."""
    max_length = kept_in._meta.get_field("reason").max_length
    return forms.CharField(label=gettext_lazy("Reason"), max_length=max_length, required=required)


class JudgedField(forms.ChoiceField):
    """A region code or an order's kind, offered from a list but judged by the rules: "K1 is not adjacent
    to N4" or "there is no support to stand down from" says more than "not one of the available choices".
    At most as long as its column (a region's code, an order's kind)."""

    def __init__(self, *, max_length: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.max_length = max_length
        self.validators.append(MaxLengthValidator(max_length))

    def valid_value(self, value: str) -> bool:
        return True


_CODE_MAX = Region._meta.get_field("code").max_length
_KIND_MAX = Order._meta.get_field("kind").max_length


class TurnStamp(forms.Form):
    """The turn a form was made for (see OrderForm.turn), read before the form itself."""

    turn = forms.IntegerField(required=False, min_value=1, max_value=INT_COLUMN_MAX)


class OrderPrefill(forms.Form):
    """A link's choice of the order form's region and kind (from the map, a report)."""

    origin = forms.CharField(required=False, max_length=_CODE_MAX)
    kind = forms.CharField(required=False, max_length=_KIND_MAX)


class LanguageChoice(forms.Form):
    language = forms.ChoiceField(choices=settings.LANGUAGES)


class OrderForm(forms.Form):
    """Origin, kind, target and a count per unit type; unit types come from the campaign's ruleset."""

    origin = JudgedField(label=gettext_lazy("From"), max_length=_CODE_MAX)
    # The campaign's system's orders with units (its registry entry's); a doctrine or an ambush has a form
    # of its own (rules.sodankaynti.forms).
    kind = JudgedField(label=gettext_lazy("Order"), max_length=_KIND_MAX)
    target = JudgedField(label=gettext_lazy("To"), required=False, max_length=_CODE_MAX)
    # The turn the form was made for: a form posted after that turn was processed is refused, not saved
    # into the next turn (frontend.views.player). Absent (an older page, a script): the turn that is open.
    turn = forms.IntegerField(required=False, widget=forms.HiddenInput, min_value=1, max_value=INT_COLUMN_MAX)

    def __init__(
        self,
        *args: Any,
        origins: list[tuple[str, str]],
        targets: list[tuple[str, str]],
        unit_types: list[str],
        kinds: list[str],
        left: dict[str, int] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [(k, WORDS["order"].get(k, k.replace("_", " "))) for k in kinds]
        self.fields["origin"].choices = origins
        self.fields["target"].choices = [NO_TARGET, *targets]
        self.unit_types = unit_types
        for unit_type in unit_types:
            field = forms.IntegerField(
                label=unit_type,
                min_value=0,
                max_value=INT_COLUMN_MAX,
                required=False,
                initial=0,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )
            if left is not None:
                # The browser's limit is what the stack has; the form's own is what the column holds.
                field.widget.attrs["max"] = str(left.get(unit_type, 0))
            self.fields[f"units_{unit_type}"] = field

    @property
    def unit_fields(self) -> list[forms.BoundField]:
        return [self[f"units_{t}"] for t in self.unit_types]

    @property
    def units_errors(self) -> list[str]:
        return self.errors.get("units", [])

    def draft(self) -> OrderDraft:
        data = self.cleaned_data
        units = {t: data.get(f"units_{t}") or 0 for t in self.unit_types}
        return OrderDraft(
            kind=data["kind"], origin=data["origin"], target=data.get("target") or None, units=units
        )

    def refuse(self, refusal: Refusal) -> None:
        """`form_refuse`, with "units" beside the counts (a field per unit type, none named "units")."""
        for fault in refusal.faults():
            if fault.field == "units":
                self._errors.setdefault("units", self.error_class()).append(said(fault.message))
            else:
                self.add_error(field_at_fault(self, fault.field), said(fault.message))


def setting_field(setting: Setting, help_text: str, **more: Any) -> forms.Field:
    """A form field for a declared setting or nation attribute (rules.engine.settings): its kind, range,
    choices and length from the declaration, so that the form offers what the rules take."""
    required = not setting.nullable
    if setting.kind is SettingKind.WHOLE:
        field: forms.Field = forms.IntegerField(
            min_value=setting.minimum, max_value=setting.maximum, required=required, **more
        )
    elif setting.kind is SettingKind.FLAG:
        field = forms.BooleanField(required=False, **more)
    elif setting.kind is SettingKind.CHOICE:
        field = forms.ChoiceField(choices=[(c, c) for c in setting.choices], required=required, **more)
    else:
        field = forms.CharField(max_length=setting.max_length, required=False, **more)
    field.help_text = help_text
    return field


def field_at_fault(form: forms.Form, field: str | None) -> str | None:
    """The form's field a fault names, or None (above the form) for one it does not show."""
    if field in form.fields and not form.fields[field].widget.is_hidden:
        return field
    return None


def form_refuse(form: forms.Form, refusal: Refusal) -> None:
    """A service's refusal on the form that sent it: each fault beside the field it names, else above the
    form, in the reader's language; the same faults the API answers in its envelope."""
    for fault in refusal.faults():
        form.add_error(field_at_fault(form, fault.field), said(fault.message))


def order_initial(order: Order) -> dict[str, Any]:
    initial = {
        "origin": order.origin.code if order.origin_id else "",
        "kind": order.kind,
        "target": order.target.code if order.target_id else "",
    }
    initial.update({f"units_{t}": c for t, c in order.units.items()})
    return initial


class DeadlineForm(forms.Form):
    deadline = forms.DateTimeField(
        label=gettext_lazy("Deadline (UTC)"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
    )

    def clean_deadline(self):
        # The field says UTC: read it as UTC whatever the server's time zone.
        value = self.cleaned_data["deadline"]
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value


class BattleDeadlineForm(DeadlineForm):
    """The GM's new result deadline for a battle fought at the table, with the reason the audit log keeps."""

    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=2000)


class WeatherForm(forms.Form):
    weather = forms.ChoiceField(
        label=gettext_lazy("Weather everywhere"), choices=_choices(Turn.Weather.choices, "weather")
    )
    region_weather = forms.CharField(
        label=gettext_lazy("By region"),
        required=False,
        help_text=gettext_lazy("One per line or comma-separated, like: M1 snow, N5 rain"),
        max_length=10_000,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    reason = reason_field()

    def clean_region_weather(self) -> dict[str, str]:
        text = self.cleaned_data["region_weather"]
        pairs = {}
        for item in text.replace("\n", ",").split(","):
            words = item.split()
            if not words:
                continue
            if len(words) != 2:
                raise forms.ValidationError(
                    _("%(item)r: write a region code and a weather, like M1 snow") % {"item": item.strip()}
                )
            pairs[words[0].upper()] = words[1].lower()
        return pairs


class ModifierForm(forms.Form):
    region = forms.CharField(
        label=gettext_lazy("Region"), max_length=16, help_text=gettext_lazy("Region code")
    )
    nation = forms.ChoiceField(label=gettext_lazy("Nation"))
    value = forms.IntegerField(
        min_value=-INT_COLUMN_MAX,
        max_value=INT_COLUMN_MAX,
        label=gettext_lazy("Value"),
        help_text=gettext_lazy("Added to the nation's KTA there; 0 removes it"),
    )
    reason = reason_field(kept_in=GMModifier)

    def __init__(self, *args: Any, nations: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["nation"].choices = nations


class RelationForm(forms.Form):
    nation_a = forms.ChoiceField(label=gettext_lazy("Nation"))
    nation_b = forms.ChoiceField(label=gettext_lazy("and nation"))
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=_choices(Relation.Kind.choices, "relation"))
    reason = reason_field()

    def __init__(self, *args: Any, nations: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["nation_a"].choices = nations
        self.fields["nation_b"].choices = nations
        if len(nations) > 1:
            # Two different nations to start from: a pair with itself is refused anyway.
            self.fields["nation_b"].initial = nations[1][0]


class RosterForm(forms.Form):
    region = forms.CharField(
        label=gettext_lazy("Region"), max_length=16, help_text=gettext_lazy("Region code")
    )
    nation = forms.ChoiceField(label=gettext_lazy("Nation"))
    unit_type = forms.ChoiceField(label=gettext_lazy("Unit type"))
    count = forms.IntegerField(
        label=gettext_lazy("Count"),
        min_value=0,
        max_value=INT_COLUMN_MAX,
        help_text=gettext_lazy("The new count"),
    )
    reason = reason_field(required=True)

    def __init__(
        self, *args: Any, nations: list[tuple[str, str]], unit_types: list[str], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["nation"].choices = nations
        self.fields["unit_type"].choices = [(t, t) for t in unit_types]
