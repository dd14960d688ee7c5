"""The forms of the GM's powers over the clock, the players and a turn's result.

They parse what the browser sent; campaign.gm and rules.history judge it, and their GMInputError
names the field the message goes beside (so the fields are named as the services name them).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from zoneinfo import available_timezones

from django import forms
from django.utils.translation import gettext_lazy as _

from campaign.models import DEADLINE_HORIZON, SMALL_COLUMN_MAX
from frontend.forms import reason_field
from frontend.terms import system_title

# Hours a deadline or a reminder may move by: the horizon of a deadline, either way.
HOURS_MAX = int(DEADLINE_HORIZON.total_seconds() // 3600)

# A checkbox beside its label, not stretched to the width of the form's text fields.
INLINE = {"style": "width: auto; margin-right: .4rem"}


class BattleSystemForm(forms.Form):
    """Which battle system decides the campaign's battles (BATTLE_SYSTEMS.md): changed between turns."""

    battle_system = forms.ChoiceField(label=_("Battle system"))
    reason = reason_field()

    def __init__(self, *args: Any, systems: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["battle_system"].choices = [(name, system_title(name)) for name in systems]


class ReasonForm(forms.Form):
    """Pause or resume the clock: nothing to give but, if the GM likes, why."""

    reason = reason_field()


class ExtendForm(forms.Form):
    extra = forms.IntegerField(
        min_value=-HOURS_MAX,
        max_value=HOURS_MAX,
        label=_("More time (hours)"),
        help_text=_("Added to the deadline; while paused, to the time left"),
    )
    reason = reason_field()

    def clean_extra(self) -> timedelta:
        # The service judges the amount (a positive one), so that its words are the only ones.
        return timedelta(hours=self.cleaned_data["extra"])


class LifecycleForm(forms.Form):
    process_early = forms.BooleanField(
        label=_("Process early when everyone has submitted"),
        required=False,
        widget=forms.CheckboxInput(INLINE),
    )
    reminder_before = forms.IntegerField(
        min_value=-HOURS_MAX,
        max_value=HOURS_MAX,
        label=_("Reminder (hours before the deadline)"),
        help_text=_("0: no reminder"),
    )
    civil_disorder_after = forms.IntegerField(
        min_value=-SMALL_COLUMN_MAX,
        max_value=SMALL_COLUMN_MAX,
        label=_("Civil disorder after (missed turns in a row)"),
        help_text=_("0: never"),
    )

    def clean_reminder_before(self) -> timedelta:
        return timedelta(hours=self.cleaned_data["reminder_before"])


def lifecycle_initial(clock: dict[str, Any]) -> dict[str, Any]:
    """The form as the campaign stands, from campaign.lifecycle.campaign_clock."""
    return {
        "process_early": clock["process_early"],
        "reminder_before": int(clock["reminder_before"].total_seconds() // 3600),
        "civil_disorder_after": clock["civil_disorder_after"],
    }


class AssignForm(forms.Form):
    nation = forms.ChoiceField(label=_("Nation"))
    user = forms.CharField(label=_("Player (username)"), max_length=150)

    def __init__(self, *args: Any, nations: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["nation"].choices = nations


class RollbackForm(forms.Form):
    reason = reason_field()
    # A tabletop turn rolls back to its battles or to its orders (TABLETOP A10.4); other turns to orders.
    kind = forms.ChoiceField(
        label=_("Roll back to"),
        choices=[
            ("battles", _("its battles: the completion undone, every result kept")),
            ("orders", _("its orders: the state before processing, every battle archived")),
        ],
        initial="battles",
        required=False,
        widget=forms.RadioSelect,
    )
    # Shown once the service has said what a rollback would delete (GMInputError on "force").
    force = forms.BooleanField(
        label=_("Roll back anyway, deleting what the next turn has already"),
        required=False,
        widget=forms.CheckboxInput(INLINE),
    )


class TimeZoneForm(forms.Form):
    # A list to pick from, judged by the service (campaign.lifecycle.time_zone_set), which names a good one.
    # A text field with a list of the real zones (a <datalist>): type "hel" and Europe/Helsinki is offered.
    time_zone = forms.CharField(
        label=_("Time zone"),
        max_length=64,
        widget=forms.TextInput(attrs={"list": "time-zones", "autocomplete": "off", "spellcheck": "false"}),
        help_text=_("Type a city or a region, like Helsinki or America/New_York"),
    )

    @staticmethod
    def zones() -> list[str]:
        return sorted(available_timezones())


class EmailForm(forms.Form):
    email = forms.EmailField(
        label=_("Email address"),
        required=False,
        help_text=_("Turn reminders, results and password resets go here; leave it empty for no mail."),
    )
