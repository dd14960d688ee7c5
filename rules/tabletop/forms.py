"""Tabletop's HTML forms, each field bounded (campaign.bounds): the result form and the answers and GM
decisions on a battle's page (TABLETOP.md A6), the close-combat calculator's rows (B2) and what saves a
round to a battle (B9), and the GM's hypotheses (A10.1).

The forms take text and hand it on as the spec's conventions say: a base-10 integer becomes a number, any
other text is passed on as it is, for the engine to refuse with its own code ("Whole number"). So a number
is a text field here, as long as a number may be written; a text whose limit the spec names with a code of
its own (a score: `score_too_long`) is refused with that code.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from campaign.bounds import INT_MAX, ITEMS_MAX, TEXT_MAX
from campaign.messages import said
from rules.engine.messages import Message
from rules.engine.tabletop.close_combat_input import FLAGS, STATES
from rules.engine.tabletop.results import NOTES_LIMIT, SCORE_LIMIT
from rules.models import CombatRound, ResultVersion, TableBattle
from rules.results_flow import COMMENT_LIMIT
from rules.tabletop.preview import AUTO
from rules.tabletop.shapes import SCALAR_TEXT_MAX

INTEGER = re.compile(r"^[+-]?[0-9]+$")
GROUND_TYPES = ("JV", "PA", "TY")
_KEY_MAX = TableBattle._meta.get_field("key").max_length
_REASON_MAX = ResultVersion._meta.get_field("reason").max_length

# The spec's own codes for a text over its limit (A6.2, A6.3, B9), by field name.
TOO_LONG = {
    "score": ("score_too_long", "tabletop.score_too_long"),
    "notes": ("notes_too_long", "tabletop.notes_too_long"),
    "comment": ("comment_too_long", "results.comment_too_long"),
    "label": ("label_too_long", "round.label_too_long"),
}


def form_number(text: str) -> int | str:
    """A form's count: a base-10 integer becomes a number; other text is passed on, for the check to refuse
    with its own code (TABLETOP.md, "whole number")."""
    return int(text) if INTEGER.match(text) else text


def _text(max_length: int = TEXT_MAX) -> forms.CharField:
    return forms.CharField(max_length=max_length, required=False)


def _number() -> forms.CharField:
    """A number as typed: as long as a number may be written (B's conventions pass other text on)."""
    return forms.CharField(max_length=SCALAR_TEXT_MAX, required=False)


class TextsField(forms.MultipleChoiceField):
    """Several texts under one name (hidden fields repeated): at most `max_items`, each at most
    `max_length` characters, any text otherwise (a battle key or a nation code, judged by the rules)."""

    def __init__(self, *, max_length: int, max_items: int = ITEMS_MAX, **kwargs: Any) -> None:
        self.max_length, self.max_items = max_length, max_items
        super().__init__(required=False, **kwargs)

    def valid_value(self, value: str) -> bool:
        return len(value) <= self.max_length

    def validate(self, value: list[str]) -> None:
        if len(value) > self.max_items:
            raise forms.ValidationError(
                said(Message("bounds.too_many_entries", {"limit": self.max_items})), code="too_many_entries"
            )
        super().validate(value)


def form_errors(*bound: forms.Form) -> list[tuple[str, str]]:
    """Every error of the forms as the pages list them: a code (the spec's, where it names one; else the
    field's name and the form's code) and the words."""
    found = []
    for form in bound:
        for name, errors in form.errors.as_data().items():
            for error in errors:
                if name in TOO_LONG and error.code == "max_length":
                    code, message = TOO_LONG[name]
                    found.append((code, said(Message(message))))
                else:
                    found.extend((f"{form.add_prefix(name)}:{error.code}", text) for text in error)
    return found


# ---- a battle's page (A6) ------------------------------------------------------------------------------


class ResultForm(forms.Form):
    """The battle page's one form: its `action` (the button), the result typed in (A6.1), and an answer or a
    GM's decision (A6.2, A8). The losses are a `LossesForm`; a new deadline is frontend's `DeadlineForm`."""

    action = forms.ChoiceField(
        required=False,
        choices=[
            (a, a)
            for a in (
                "check",
                "save",
                "auto_resolve",
                "reopen",
                "deadline",
                "agree",
                "dispute",
                "withdraw",
                "confirm",
                "void",
            )
        ],
    )
    version = forms.IntegerField(required=False, min_value=1, max_value=INT_MAX)
    winner = _text()
    decisive = forms.BooleanField(required=False)
    score = _text(SCORE_LIMIT)
    notes = _text(NOTES_LIMIT)
    fingerprint = _text(TableBattle._meta.get_field("fingerprint").max_length)
    comment = _text(COMMENT_LIMIT)
    reason = _text(_REASON_MAX)
    why = _text(_REASON_MAX)

    def clean(self) -> dict[str, Any]:
        """A result is saved or checked with its winner chosen, a draw included (`winner` empty): the form
        chooses none by itself (issue on table play: it chose the draw)."""
        data = super().clean()
        if data.get("action") in ("save", "check") and "winner" not in self.data:
            chosen = forms.ValidationError(_("Choose the winner, or a draw."), code="required")
            self.add_error("winner", chosen)
        return data

    def result(self, losses: LossesForm) -> dict[str, Any]:
        """A6.1's result: a base-10 integer becomes a number, other text is passed on."""
        data = self.cleaned_data
        result: dict[str, Any] = {
            "winner": data["winner"] or None,
            "decisive": data["decisive"],
            "losses": losses.losses(),
            "fingerprint": data["fingerprint"],
        }
        for field in ("score", "notes"):
            if data[field]:
                result[field] = data[field]
        return result


class LossesForm(forms.Form):
    """The losses typed in, a field per nation and ground type (`<prefix>-<nation>-<type>`)."""

    def __init__(
        self, *args: Any, nations: list[str], types: tuple[str, ...] = GROUND_TYPES, **kwargs
    ) -> None:
        super().__init__(*args, **kwargs)
        self.grid = [(nation, list(types)) for nation in nations]
        for nation in nations:
            for unit_type in types:
                self.fields[f"{nation}-{unit_type}"] = _number()

    def losses(self) -> dict[str, dict[str, Any]]:
        """nation -> type -> count, as A6.1 has them; a field left empty is no entry."""
        return {
            nation: {
                t: form_number(self.cleaned_data[f"{nation}-{t}"])
                for t in types
                if self.cleaned_data.get(f"{nation}-{t}")
            }
            for nation, types in self.grid
        }

    def typed(self) -> dict[str, dict[str, str]]:
        """What was typed, for the form shown again."""
        return {
            nation: {t: self[f"{nation}-{t}"].value() or "" for t in types} for nation, types in self.grid
        }


# ---- the close-combat calculator (B2) ------------------------------------------------------------------

NUMBERS = (
    "wounds",
    "overkill",
    "full_ranks",
    "ranks",
    "models",
    "files",
    "full_rank_models",
    "standards",
    "discipline",
)
LISTS = ("flank_of", "rear_of")
TEXTS = ("id", "name")
ROWS, MAX_ROWS = 4, 12


def _ids(text: str) -> list[str]:
    """Unit ids, or dice, separated by commas or spaces."""
    return [part for part in re.split(r"[\s,]+", text.strip()) if part]


class UnitForm(forms.Form):
    """One unit row of the calculator (`side-<s>-unit-<i>-<field>`); an empty row is no unit."""

    id = _text()
    name = _text()
    state = forms.ChoiceField(required=False, choices=[(s, s) for s in STATES])
    wounds = _number()
    overkill = _number()
    full_ranks = _number()
    ranks = _number()
    models = _number()
    files = _number()
    full_rank_models = _number()
    standards = _number()
    discipline = _number()
    flank_of = _text()
    rear_of = _text()
    charged = forms.BooleanField(required=False)
    line_formation = forms.BooleanField(required=False)
    battle_standard = forms.BooleanField(required=False)
    reroll = forms.BooleanField(required=False)

    def unit(self) -> dict[str, Any] | None:
        """B2.2's unit, or None for an empty row."""
        data = self.cleaned_data
        unit: dict[str, Any] = {field: data[field] for field in TEXTS if data[field]}
        unit.update({field: form_number(data[field]) for field in NUMBERS if data[field]})
        unit.update({field: _ids(data[field]) for field in LISTS if data[field]})
        unit.update({field: True for field in FLAGS if data[field]})
        if not unit:
            return None
        unit["state"] = data["state"] or "engaged"
        return unit


class SideForm(forms.Form):
    """A side's name (`side-<s>-name`)."""

    name = _text()


class OtherForm(forms.Form):
    """A side's other modifier (`side-<s>-other-value`, `...-reason`, B3.9)."""

    value = _number()
    reason = _text()


class CalculatorForm(forms.Form):
    """The calculator's own fields: the button, the dice (B6), the break-test order and how many rows."""

    action = forms.ChoiceField(required=False, choices=[(a, a) for a in ("preview", "roll", "save")])
    dice_mode = forms.ChoiceField(required=False, choices=[(m, m) for m in ("entered", "seeded")])
    rolls = _text()
    seed = _number()
    break_test_order = _text()
    units = forms.IntegerField(required=False, min_value=1, max_value=INT_MAX)


class RoundForms:
    """The calculator's forms for `rows` unit rows per side, bound to what was posted."""

    def __init__(self, data: QueryDict, rows: int) -> None:
        self.main = CalculatorForm(data)
        self.sides = [SideForm(data, prefix=f"side-{s}") for s in (0, 1)]
        self.others = [OtherForm(data, prefix=f"side-{s}-other") for s in (0, 1)]
        self.units = [[UnitForm(data, prefix=f"side-{s}-unit-{i}") for i in range(rows)] for s in (0, 1)]

    def all(self) -> list[forms.Form]:
        return [self.main, *self.sides, *self.others, *(form for side in self.units for form in side)]

    def errors(self) -> list[tuple[str, str]]:
        """Every field out of its bounds; empty when the round can be read."""
        return form_errors(*(form for form in self.all() if not form.is_valid()))

    def round(self) -> dict[str, Any]:
        """The forms as the round's input (B2.1); call when `errors()` is empty."""
        sides = []
        for s in (0, 1):
            units = [form.unit() for form in self.units[s]]
            side: dict[str, Any] = {
                "name": self.sides[s].cleaned_data["name"],
                "units": [u for u in units if u],
            }
            other = self.others[s].cleaned_data
            if other["value"]:
                side["other"] = [{"value": form_number(other["value"]), "reason": other["reason"]}]
            sides.append(side)
        main = self.main.cleaned_data
        data: dict[str, Any] = {"sides": sides}
        if main["break_test_order"]:
            data["break_test_order"] = _ids(main["break_test_order"])
        if main["dice_mode"] == "seeded" and main["seed"]:
            data["dice"] = {"seed": form_number(main["seed"])}
        elif main["dice_mode"] != "seeded":
            data["dice"] = {"rolls": [form_number(d) for d in _ids(main["rolls"])]}
        return data

    def shown(self) -> list[dict[str, Any]]:
        """The sides and unit rows with what was typed, for the page."""
        return [
            {
                "prefix": f"side-{s}-",
                "number": s + 1,
                "name": self.sides[s]["name"].value() or "",
                "other_value": self.others[s]["value"].value() or "",
                "other_reason": self.others[s]["reason"].value() or "",
                "units": [
                    {
                        "prefix": f"side-{s}-unit-{i}-",
                        "state": form["state"].value() or "engaged",
                        "inputs": [
                            (field, form[field].value() or "") for field in (*TEXTS, *NUMBERS, *LISTS)
                        ],
                        "flags": [(field, bool(form[field].value())) for field in FLAGS],
                    }
                    for i, form in enumerate(self.units[s])
                ],
            }
            for s in (0, 1)
        ]


def rows_wanted(*data: QueryDict) -> int:
    """How many unit rows per side: the first `units` given (the form's, then the address's `?units=N`),
    at most MAX_ROWS."""
    for given in data:
        form = CalculatorForm(given)
        if form.is_valid() and form.cleaned_data["units"]:
            return min(MAX_ROWS, form.cleaned_data["units"])
    return ROWS


class RoundAboutForm(forms.Form):
    """What B9 keeps with a round saved to a battle: its label and game turn."""

    label = _text(CombatRound._meta.get_field("label").max_length)
    game_turn = _number()

    def about(self, sides: BattleSidesForm) -> dict[str, Any]:
        game_turn = self.cleaned_data["game_turn"]
        return {
            "label": self.cleaned_data["label"],
            "game_turn": form_number(game_turn) if game_turn else None,
            "battle_sides": [sides.cleaned_data[str(s)] or None for s in (0, 1)],
        }


# For each calculator side, the battle's side it fights for (`battle_side-0`, `battle_side-1`).
BattleSidesForm = type(
    "BattleSidesForm",
    (forms.Form,),
    {"__module__": __name__, "0": _text(_KEY_MAX), "1": _text(_KEY_MAX)},
)


# ---- the GM's hypotheses (A10.1) -----------------------------------------------------------------------


class BattlesAskedForm(forms.Form):
    """The battles the preview's form lists (`battle`, repeated)."""

    battle = TextsField(max_length=_KEY_MAX)


class HypothesisForm(forms.Form):
    """One battle's hypothesis (`mode-<key>`, `winner-<key>`, `decisive-<key>`, `nations-<key>`): auto, or
    the result typed in, whose losses are a `LossesForm` with the prefix `loss-<key>`."""

    mode = forms.ChoiceField(required=False, choices=[(AUTO, AUTO), ("result", "result")])
    winner = _text()
    decisive = forms.BooleanField(required=False)
    nations = TextsField(max_length=_KEY_MAX)

    def __init__(self, *args: Any, key: str, **kwargs: Any) -> None:
        self.key = key
        super().__init__(*args, **kwargs)

    def add_prefix(self, field_name: str) -> str:
        return f"{field_name}-{self.key}"
