"""The GM dashboard: submissions, the clock, weather, modifiers, relations, roster edits, processing.

Each of the GM's powers has its module of views beside this one (clock, inputs, diplomacy, roster,
processing, result), as campaign.gm has its module of services. Each POST parses a form, calls one
function of campaign.gm or rules.history (which check the GM again and write the audit log), says what
happened, and redirects back; a refused input is shown beside its field. The reads are selectors
(frontend.gm_selectors, frontend.selectors): no view builds a query.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign import lifecycle
from campaign.gm.access import GMInputError
from campaign.gm.system import battle_systems_offered
from campaign.models import Nation, Region, Turn
from campaign.selectors import Viewer, turn_current
from frontend.forms import DeadlineForm, ModifierForm, RelationForm, RosterForm, WeatherForm, form_refuse
from frontend.gm_forms import (
    AssignForm,
    BattleSystemForm,
    ExtendForm,
    LifecycleForm,
    ReasonForm,
    lifecycle_initial,
)
from frontend.gm_selectors import (
    nation_by_code,
    nations_list,
    region_by_code,
    turn_last_resolved,
    turn_previewed,
)
from frontend.invitations import invitations_panel
from frontend.selectors import battles_overdue_of, gm_dashboard_load
from frontend.systems import pages_of
from frontend.views.common import gm_for, topbar
from rules.engine.messages import InputError
from rules.engine.ruleset import RulesetError


def forms_of(viewer: Viewer, turn: Turn | None, data: Any = None, which: str | None = None) -> dict[str, Any]:
    all_nations = nations_list(campaign=viewer.campaign)
    nations = [(n.code, f"{n.code} {n.name}") for n in all_nations]
    # A nation in civil disorder waits for a player: say so where the GM picks one.
    to_assign = [
        (code, _("%(nation)s (civil disorder)") % {"nation": label} if n.civil_disorder else label)
        for n, (code, label) in zip(all_nations, nations, strict=True)
    ]
    try:
        unit_types = list(viewer.campaign.ruleset().unit_types)
    except RulesetError:
        # The campaign's settings do not make a ruleset: its turn has failed on them, and the dashboard
        # must still show why, and the settings to change (campaign.lifecycle.turn_failure).
        unit_types = []
    clock_now = lifecycle.campaign_clock(campaign=viewer.campaign, turn=turn)

    def bound(name: str) -> Any:
        return data if which == name else None

    forms: dict[str, Any] = {
        "clock": clock_now,
        "modifier_form": ModifierForm(bound("modifier"), nations=nations),
        "relation_form": RelationForm(bound("relation"), nations=nations),
        "roster_form": RosterForm(bound("roster"), nations=nations, unit_types=unit_types),
        # Prefixed: these forms share field names ("reason") with others on the page.
        "pause_form": ReasonForm(bound("pause"), prefix="pause"),
        "lifecycle_form": LifecycleForm(
            bound("lifecycle"), initial=lifecycle_initial(clock_now), prefix="lifecycle"
        ),
        "assign_form": AssignForm(bound("assign"), nations=to_assign, prefix="assign"),
        "system_form": BattleSystemForm(
            bound("system"),
            systems=battle_systems_offered(campaign=viewer.campaign),
            initial={"battle_system": viewer.campaign.battle_system},
            prefix="system",
        ),
    }
    if turn is not None:
        forms["extend_form"] = ExtendForm(bound("extend"), prefix="extend")
        region_weather = ", ".join(f"{c} {w}" for c, w in (turn.region_weather or {}).items())
        forms["deadline_form"] = DeadlineForm(bound("deadline"), initial={"deadline": turn.deadline})
        forms["weather_form"] = WeatherForm(
            bound("weather"), initial={"weather": turn.weather, "region_weather": region_weather}
        )
    pages = pages_of(viewer.campaign.battle_system)
    if pages.gm_forms is not None:  # the system's own forms, beside the others
        forms.update(pages.gm_forms(viewer, turn, bound))  # last: it may take away a form it ignores
    return forms


@login_required
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    viewer = gm_for(request, slug)
    turn = turn_current(campaign=viewer.campaign)
    return dashboard_render(request, viewer, turn, forms_of(viewer, turn))


def _auto_resolves(viewer: Viewer) -> bool:
    """Whether the campaign's table battles may be auto-resolved (tabletop's, A8.4): the overdue offer it."""
    table = pages_of(viewer.campaign.battle_system).table_battles
    return table is not None and table.auto_resolves


def dashboard_render(
    request: HttpRequest, viewer: Viewer, turn: Turn | None, forms: dict[str, Any], status: int = 200
) -> HttpResponse:
    loaded = gm_dashboard_load(campaign=viewer.campaign, turn=turn)
    context = {
        "bar": topbar(viewer, turn),
        "turn": turn,
        "last": turn_last_resolved(campaign=viewer.campaign),
        "previewed": turn_previewed(turn=turn),
        "overdue_battles": battles_overdue_of(turn=turn, now=timezone.now()),
        "auto_resolves": _auto_resolves(viewer),
        "failure": lifecycle.turn_failure(turn=turn),
        **loaded,
        # The invitations panel (frontend.invitations); a refused link's form is `invite_form`.
        "invitations": invitations_panel(viewer, loaded["nations"], bound=forms.get("invite_form")),
        **forms,
    }
    return render(request, "frontend/gm_dashboard.html", context, status=status)


def gm_post(
    request: HttpRequest, slug: str, which: str, form_class_ok: Callable[[Viewer, Turn | None, Any], str]
) -> HttpResponse:
    """Parse the named form; on success call the service through `form_class_ok` and say what happened."""
    viewer = gm_for(request, slug)
    turn = turn_current(campaign=viewer.campaign)
    forms = forms_of(viewer, turn, request.POST, which)
    form = forms.get(f"{which}_form")
    if form is None:
        raise Http404("no open turn")
    if form.is_valid():
        try:
            said = form_class_ok(viewer, turn, form.cleaned_data)
        except GMInputError as error:
            form_refuse(form, error)
        else:
            messages.success(request, said)
            return redirect(reverse("frontend:gm", args=[slug]) + f"#{which}")
    messages.error(request, _("Nothing was changed: see the message next to the field."))
    return dashboard_render(request, viewer, turn, forms, status=400)


# A power's view says what happened: (request, viewer, turn, the form's cleaned data) -> the message.
Said = Callable[[HttpRequest, Viewer, Turn | None, dict[str, Any]], str]


def gm_form_view(which: str) -> Callable[[Said], Callable[..., HttpResponse]]:
    """The view of the dashboard's form `which` (POST, the GM only): parse it, and on success call the
    decorated function, which calls one service and says what happened (gm_post)."""

    def decorate(said: Said) -> Callable[..., HttpResponse]:
        @login_required
        @require_POST
        @wraps(said)
        def view(request: HttpRequest, slug: str) -> HttpResponse:
            return gm_post(request, slug, which, lambda viewer, turn, data: said(request, viewer, turn, data))

        return view

    return decorate


def utc(moment: datetime) -> str:
    """A moment as the GM's messages give it, in UTC whatever the reader's zone: "2099-01-02 03:04"."""
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M}"


def region_of(viewer: Viewer, code: str) -> Region:
    region = region_by_code(campaign=viewer.campaign, code=code)
    if region is None:
        raise InputError.of("region", "unknown_region", region=code)
    return region


def nation_of(viewer: Viewer, code: str) -> Nation:
    nation = nation_by_code(campaign=viewer.campaign, code=code)
    if nation is None:
        raise Http404("no such nation")
    return nation
