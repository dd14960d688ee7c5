"""The GM's edit forms on a company's Kasarmi page (COMPANY.md §7.6): adjust the TP balance, edit a unit's
record, remove a veteran ability, restore a fallen unit, set the nation's company size.

The forms only parse what the browser sent into the engine's parameters; the engine's GM actions
(rules.engine.company_d20.kasarmi, through rules.company.services.kasarmi_act) judge them, so every refusal
is the engine's coded problem, said beside the field it names. Each form carries what it showed (`seen`):
the engine refuses a change to a value that has moved since, instead of overwriting it unseen.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from campaign.bounds import INT_MAX, ITEMS_MAX, TEXT_MAX
from rules.company import models
from rules.company.shapes import CODE_MAX, REASON, REGION, SMALL_MAX
from rules.engine.company_d20.kasarmi import EDITABLE, Company
from rules.engine.company_d20.problems import Problem
from rules.engine.company_d20.ruleset import CompanyRuleset

# The record's fields a GM edit may change (kasarmi.EDITABLE), in the order of the unit card; a unit's type
# is not edited on the page (another type is another unit: the GM restores or buys one).
WHOLE_FIELDS = ("group", "tk_max", "tk", "m", "k", "xp", "l", "s", "h")
EDIT_FIELDS = tuple(field for field in EDITABLE if field != "type")
# A number typed as text: a sign and as many digits as a column's number has, and a little room to spare.
NUMBER_CHARS = 12
# The width of each number's column (smallint, or integer for XP and the balance): a typed number past it is
# refused by the form, a number within it is the engine's to judge (its sign, its place in §3.1).
COLUMNS = {**dict.fromkeys(WHOLE_FIELDS, SMALL_MAX), "xp": INT_MAX, "delta": INT_MAX, "size": SMALL_MAX}


def whole_or_text(text: Any) -> Any:
    """ "12" and "-3" are whole numbers; anything else goes to the engine as typed, which says why not."""
    text = text.strip() if isinstance(text, str) else text
    return int(text) if isinstance(text, str) and re.fullmatch(r"[+-]?\d{1,9}", text) else text


class AnyChoices(forms.MultipleChoiceField):
    """Checkboxes whose values the engine judges (`edit_invalid` on an unknown ability), not the form."""

    def validate(self, value: Any) -> None:
        if len(value) > ITEMS_MAX or any(len(str(v)) > CODE_MAX for v in value):
            raise forms.ValidationError(_("At most %(limit)s abilities, each a code.") % {"limit": ITEMS_MAX})


class GMForm(forms.Form):
    """One GM action: `params()` are its inputs; `place(problem)` the field its refusal belongs beside."""

    action = ""
    reason = forms.CharField(
        label=_("Reason"), required=False, max_length=REASON, help_text=_("Required; kept in the audit trail")
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.order_fields([*(f for f in self.fields if f != "reason"), "reason"])  # the reason last

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for name, maximum in COLUMNS.items():
            value = whole_or_text(data.get(name, "").replace("\u2212", "-")) if name in data else None
            if isinstance(value, int):
                for check in (MinValueValidator(-maximum - 1), MaxValueValidator(maximum)):
                    try:
                        check(value)
                    except forms.ValidationError as error:
                        self.add_error(name, error)
        return data

    def params(self) -> dict[str, Any]:
        raise NotImplementedError

    def place(self, problem: Problem) -> str | None:
        return problem.ref if isinstance(problem.ref, str) and problem.ref in self.fields else None


class AdjustTpForm(GMForm):
    action = "adjust_tp"
    delta = forms.CharField(
        label=_("TP change"),
        required=False,
        max_length=NUMBER_CHARS,
        help_text=_("A whole number: +5 adds, −5 takes away"),
    )
    seen = forms.CharField(widget=forms.HiddenInput, required=False, max_length=NUMBER_CHARS)

    def params(self) -> dict[str, Any]:
        data = self.cleaned_data
        seen = whole_or_text(data["seen"])
        return {
            "delta": whole_or_text(data["delta"].replace("\u2212", "-")),
            "reason": data["reason"],
            "seen": seen if isinstance(seen, int) else None,
        }


class CompanySizeForm(GMForm):
    """§7.3: the nation's cap on active units; left empty, the ruleset's again."""

    action = "gm_company_size"
    size = forms.CharField(
        label=_("Company size"),
        required=False,
        max_length=NUMBER_CHARS,
        help_text=_("A whole number, at least 1; empty: the ruleset's"),
    )

    def params(self) -> dict[str, Any]:
        size = whole_or_text(self.cleaned_data["size"])
        return {"size": None if size == "" else size, "reason": self.cleaned_data["reason"]}


def _column(name: str) -> int:
    return models.Unit._meta.get_field(name).max_length


# A name is kept as typed (the engine checks it trimmed, §3.1): its column's length, spaces included.
NAME_CHARS = _column("name")


def _seen(data: str) -> dict[str, Any]:
    try:
        seen = json.loads(data)
    except ValueError:
        return {}
    return seen if isinstance(seen, dict) else {}


class UnitEditForm(GMForm):
    """Every editable field of one active unit, filled in as it stands; only the fields the GM changed are
    sent, each with the value the form showed."""

    action = "gm_edit"
    name = forms.CharField(label=_("Name"), required=False, strip=False, max_length=NAME_CHARS)
    group = forms.CharField(label=_("Group"), required=False, max_length=NUMBER_CHARS)
    role = forms.CharField(label=_("Role"), required=False, max_length=_column("role"))
    tk_max = forms.CharField(label=_("TK max"), required=False, max_length=NUMBER_CHARS)
    tk = forms.CharField(label="TK", required=False, max_length=NUMBER_CHARS)
    m = forms.CharField(label="M", required=False, max_length=NUMBER_CHARS)
    k = forms.CharField(label="K", required=False, max_length=NUMBER_CHARS)
    xp = forms.CharField(label="XP", required=False, max_length=NUMBER_CHARS)
    l = forms.CharField(label=_("L (cm)"), required=False, max_length=NUMBER_CHARS)  # noqa: E741 - the game's
    s = forms.CharField(label="S", required=False, max_length=NUMBER_CHARS)
    h = forms.CharField(label="H", required=False, max_length=NUMBER_CHARS)
    ti = forms.CharField(label="TI", required=False, max_length=_column("ti"))
    region = forms.CharField(label=_("Region"), required=False, max_length=REGION)
    abilities = AnyChoices(label=_("Veteran abilities"), required=False, widget=forms.CheckboxSelectMultiple)
    seen = forms.CharField(widget=forms.HiddenInput, required=False, max_length=TEXT_MAX)

    def __init__(self, *args: Any, unit: int, regions: list[str], abilities: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.unit = unit
        self.fields["role"].widget = forms.Select(
            choices=[
                ("", _("none")),
                ("company_commander", _("company commander")),
                ("platoon_leader", _("platoon leader")),
            ]
        )
        self.fields["region"].widget = forms.Select(choices=[(r, r) for r in regions])
        self.fields["abilities"].choices = abilities
        for name in WHOLE_FIELDS:
            self.fields[name].widget.attrs.update(inputmode="numeric", size=4)

    def params(self) -> dict[str, Any]:
        data = self.cleaned_data
        seen = _seen(data["seen"])
        changes: dict[str, Any] = {}
        for name in EDIT_FIELDS:
            if name not in seen:
                continue
            value = data[name]
            if name in WHOLE_FIELDS:
                value = whole_or_text(value)
            elif name == "role":
                value = value or None
            elif name == "abilities":
                held = list(seen["abilities"])
                if set(value) == set(held):
                    continue
                # The order chosen is kept (§3.1); a newly ticked ability comes after those held.
                value = [a for a in held if a in value] + [a for a in value if a not in held]
            if value != seen[name]:
                changes[name] = value
        return {
            "unit": self.unit,
            "changes": changes,
            "reason": data["reason"],
            "seen": {k: seen[k] for k in changes},
        }


class RemoveAbilityForm(GMForm):
    action = "gm_remove_ability"
    ability = forms.CharField(label=_("Ability"), required=False, max_length=CODE_MAX)

    def __init__(self, *args: Any, unit: int, held: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.unit = unit
        self.fields["ability"].widget = forms.Select(choices=held)

    def params(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"unit": self.unit, "ability": data["ability"], "reason": data["reason"]}


class RestoreForm(GMForm):
    action = "gm_restore"
    tk = forms.CharField(label="TK", required=False, max_length=NUMBER_CHARS)
    region = forms.CharField(label=_("Region"), required=False, max_length=REGION)

    def __init__(self, *args: Any, unit: int, regions: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.unit = unit
        self.fields["region"].widget = forms.Select(choices=[(r, r) for r in regions])

    def params(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "unit": self.unit,
            "tk": whole_or_text(data["tk"]),
            "region": data["region"] or None,
            "reason": data["reason"],
        }


def edit_seen(card: dict[str, Any]) -> dict[str, Any]:
    """What a unit's edit form shows, as it travels in its `seen` field."""
    return {name: card[name] for name in EDIT_FIELDS}


def gm_forms(
    company: Company,
    ruleset: CompanyRuleset,
    roster: dict[str, Any],
    *,
    data: Any = None,
    which: str = "",
) -> dict[str, Any]:
    """Every GM form of the nation's page, unbound, except the one named `which`, bound to `data`; the
    units' forms in roster order, as the cards are."""
    language = get_language() or "en"
    names = {
        code: spec.names.get(language) or spec.names.get("en", code)
        for code, spec in ruleset.abilities.items()
    }
    catalogue = [(code, f"{code} · {name}") for code, name in names.items()]

    def bound(prefix: str) -> Any:
        return data if which == prefix else None

    owned = list(company.owned)
    adjust = AdjustTpForm(bound("tp"), prefix="tp", initial={"seen": roster["tp"]})
    size = CompanySizeForm(bound("size"), prefix="size", initial={"size": roster["company_size_override"]})
    units = []
    for card in roster["units"]:
        regions = owned if card["region"] in owned else [card["region"], *owned]
        seen = edit_seen(card)
        edit = UnitEditForm(
            bound(f"edit-{card['id']}"),
            prefix=f"edit-{card['id']}",
            unit=card["id"],
            regions=regions,
            abilities=catalogue,
            initial={**seen, "role": card["role"] or "", "seen": json.dumps(seen)},
        )
        held = [(a, f"{a} · {names.get(a, a)}") for a in card["abilities"]]
        remove = (
            RemoveAbilityForm(
                bound(f"remove-{card['id']}"), prefix=f"remove-{card['id']}", unit=card["id"], held=held
            )
            if held
            else None
        )
        units.append({"card": card, "edit": edit, "remove": remove})
    fallen = []
    for card in roster["fallen"]:
        regions = owned if card["region"] in owned else [*owned]
        restore = RestoreForm(
            bound(f"restore-{card['id']}"),
            prefix=f"restore-{card['id']}",
            unit=card["id"],
            regions=regions,
            initial={"tk": card["tk_max"], "region": card["region"]},
        )
        fallen.append({"card": card, "restore": restore})
    made = {"adjust": adjust, "size": size, "units": units, "fallen": fallen, "orphan": None}
    if which and data is not None and gm_form_posted(made, which) is None:
        made["orphan"] = _orphan(which, data, owned=owned, catalogue=catalogue)
    return made


def _orphan(which: str, data: Any, *, owned: list[str], catalogue: list[tuple[str, str]]) -> GMForm | None:
    """A form for a unit the page no longer offers it for (fallen since, restored, its ability gone): bound
    as sent, so that the engine says why and what the GM typed stays on the page."""
    kind, _, number = which.partition("-")
    if not number.isdigit():
        return None
    unit = int(number)
    if kind == "edit":
        return UnitEditForm(data, prefix=which, unit=unit, regions=owned, abilities=catalogue)
    if kind == "remove":
        ability = str(data.get(f"{which}-ability", ""))
        return RemoveAbilityForm(data, prefix=which, unit=unit, held=[(ability, ability)])
    if kind == "restore":
        return RestoreForm(data, prefix=which, unit=unit, regions=owned)
    return None


def gm_form_posted(forms_: dict[str, Any], which: str) -> GMForm | None:
    """The bound form among the page's, by its prefix; None for a form the page no longer has."""
    if which == "tp":
        return forms_["adjust"]
    if which == "size":
        return forms_["size"]
    if forms_.get("orphan") is not None and forms_["orphan"].prefix == which:
        return forms_["orphan"]
    for item in forms_["units"]:
        for key in ("edit", "remove"):
            if item[key] is not None and item[key].prefix == which:
                return item[key]
    for item in forms_["fallen"]:
        if item["restore"].prefix == which:
            return item["restore"]
    return None
