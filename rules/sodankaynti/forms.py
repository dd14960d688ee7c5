"""The forms of a Sodankäynti campaign (SODANKAYNTI.md §4.1, §4.2, §5, §6.4, §7): a player's doctrine and
ambush orders, the GM's nation ratings and the turn's advantages. They parse what the browser sent; the
services (orders.services, rules.sodankaynti.services) judge it with the engine's own checks."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from campaign.models import SMALL_COLUMN_MAX
from frontend.forms import reason_field, setting_field
from frontend.terms import said
from orders.services import OrderDraft
from rules.engine.ruleset import Ruleset
from rules.engine.sodankaynti import ATTRIBUTES
from rules.engine.systems import system_get
from rules.sodankaynti.cards import doctrine_line

SYSTEM = "sodankaynti"


def doctrines_offered(ruleset: Ruleset) -> list[dict[str, str]]:
    """The ruleset's doctrines, each with what it does in one line of the reader's language (§10.2)."""
    return [{"name": name, "line": doctrine_line(d.report())} for name, d in ruleset.doctrines.items()]


THE_DOCTRINES = ("", _("the doctrine's"))


def _preset_number(label: Any, *, min_value: int) -> forms.IntegerField:
    """A number that may be put over the doctrine's preset; left empty, the preset's stands."""
    return forms.IntegerField(label=label, required=False, min_value=min_value, max_value=SMALL_COLUMN_MAX)


def _preset_choice(label: Any, *choices: tuple[str, Any]) -> forms.ChoiceField:
    """A choice that may be put over the doctrine's preset; its first, empty choice keeps the preset's."""
    return forms.ChoiceField(label=label, choices=[THE_DOCTRINES, *choices], required=False)


class DoctrineParamsForm(forms.Form):
    """The parameters a doctrine order or a standing doctrine may put over its preset (§4.1, §5, §10.1);
    an empty field keeps the preset's value."""

    retreat_below = _preset_number(
        _("Retreat when your dice show under this % of the enemy's (empty: the doctrine's)"), min_value=0
    )
    retreat_when_helpless = forms.TypedChoiceField(
        label=_("When no die can act"),
        choices=[THE_DOCTRINES, ("true", _("retreat")), ("false", _("hold on"))],
        coerce=lambda value: value == "true",
        empty_value=None,
        required=False,
    )
    sacrifice = _preset_choice(
        _("Sacrifice dice showing 1"),
        ("first", _("first, before attacking")),
        ("when_needed", _("when no die can reach the enemy's highest")),
        ("last", _("last, when no attack is left")),
        ("never", _("never")),
    )
    sacrifice_max_die = _preset_number(
        _("Sacrifice only dice of this size or smaller (empty: the doctrine's)"), min_value=1
    )
    attack_priority = _preset_choice(
        _("The best attack destroys"), ("value", _("the most value")), ("count", _("the most dice"))
    )


def doctrine_params(data: dict[str, Any]) -> dict[str, Any]:
    """The doctrine parameters a DoctrineParamsForm was given, by their names in §10.1."""
    return {k: data[k] for k in DoctrineParamsForm.base_fields if data.get(k) not in (None, "")}


class DoctrineOrderForm(DoctrineParamsForm):
    doctrine = forms.ChoiceField(label=_("Doctrine"))
    region = forms.CharField(label=_("Only in region (empty: every battle)"), required=False, max_length=16)
    field_order = ("doctrine", "region")

    def __init__(self, *args: Any, ruleset: Ruleset, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["doctrine"].choices = [(d["name"], d["line"]) for d in doctrines_offered(ruleset)]

    def draft(self) -> OrderDraft:
        data = self.cleaned_data
        return OrderDraft(
            kind="doctrine",
            origin=data["region"].strip().upper(),
            target=None,
            units={},
            params={"doctrine": data["doctrine"], "params": doctrine_params(data)},
        )


class AmbushOrderForm(forms.Form):
    origin = forms.CharField(label=_("Lie in wait in"), max_length=16)
    target = forms.CharField(label=_("For an attack from"), max_length=16)

    def draft(self) -> OrderDraft:
        data = self.cleaned_data
        return OrderDraft(
            kind="ambush",
            origin=data["origin"].strip().upper(),
            target=data["target"].strip().upper(),
            units={},
        )


_RATINGS = {attribute.key: attribute for attribute in ATTRIBUTES}


class RatingsForm(DoctrineParamsForm):
    """A nation's politics and tactics ratings and standing doctrine, with its parameters (§5)."""

    nation = forms.ChoiceField(label=_("Nation"))
    # The ratings' fields come from the system's declarations (its registry entry's nation_attributes).
    politics = setting_field(_RATINGS["politics"], "", label=_("Politics (dice)"))
    tactics = setting_field(_RATINGS["tactics"], "", label=_("Tactics (dice)"))
    doctrine = forms.ChoiceField(label=_("Standing doctrine"))
    reason = reason_field()
    field_order = ("nation", "politics", "tactics", "doctrine", *DoctrineParamsForm.base_fields, "reason")

    def __init__(self, *args: Any, nations: list[tuple[str, str]], ruleset: Ruleset, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        system = system_get(ruleset.battle_system)
        for attribute in system.nation_attributes:
            label = self.fields[attribute.key].label
            help_text = said(system.attribute_help(attribute))
            self.fields[attribute.key] = setting_field(attribute, help_text, label=label)
        self.fields["nation"].choices = nations
        self.fields["doctrine"].choices = [(d["name"], d["line"]) for d in doctrines_offered(ruleset)]


class AdvantagesForm(forms.Form):
    """The turn's GM advantages (§6.4), one a line: `V2 POH tactics 2 the Sampo`; skipped politics (§7)."""

    advantages = forms.CharField(
        label=_("GM advantages, one a line: region nation politics|tactics dice reason"),
        required=False,
        max_length=10_000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    skip_politics = forms.CharField(
        label=_("No politics roll in (regions, or borders A|B, by commas)"), required=False, max_length=1000
    )
    reason = reason_field()

    def clean_advantages(self) -> list[dict[str, Any]]:
        entries = []
        for number, line in enumerate(self.cleaned_data["advantages"].splitlines(), start=1):
            words = line.split(maxsplit=4)
            if not words:
                continue
            if len(words) < 4 or not words[3].isdigit():
                raise forms.ValidationError(
                    _("line %(number)s: expected 'region nation roll dice reason': 'V2 POH tactics 2 fog'")
                    % {"number": number}
                )
            region, nation, roll, dice = words[:4]
            reason = words[4] if len(words) > 4 else ""
            entries.append(
                {
                    "region": region,
                    "nation": nation,
                    "roll": roll.lower(),
                    "dice": int(dice),
                    "reason": reason,
                }
            )
        return entries

    def clean_skip_politics(self) -> list[str]:
        return [p.strip() for p in self.cleaned_data["skip_politics"].split(",") if p.strip()]


def advantages_initial(system_inputs: dict[str, Any]) -> dict[str, str]:
    lines = [
        " ".join(str(a.get(k, "")) for k in ("region", "nation", "roll", "dice", "reason")).strip()
        for a in system_inputs.get("gm_advantages") or []
    ]
    return {
        "advantages": "\n".join(lines),
        "skip_politics": ", ".join(system_inputs.get("skip_politics") or []),
    }
