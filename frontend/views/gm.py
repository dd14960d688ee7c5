"""The GM dashboard: submissions, deadline, weather, modifiers, relations, roster edits, processing.

Each POST parses a form, calls one function of campaign.gm_services (which checks the GM again and
writes the audit log), says what happened, and redirects back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaign import gm_services
from campaign.gm_services import GMInputError
from campaign.models import Nation, Region, Turn
from campaign.selectors import Viewer, regions_changed_hands, reports_visible, turn_current
from frontend.forms import DeadlineForm, ModifierForm, RelationForm, RosterForm, WeatherForm
from frontend.reports import KIND_WORDS, card_anchor
from frontend.selectors import gm_dashboard_load
from frontend.views.common import gm_for, topbar
from frontend.views.turns import CARDS_PER_PAGE


def _nation_choices(viewer: Viewer) -> list[tuple[str, str]]:
    return [(n.code, f"{n.code} {n.name}") for n in viewer.campaign.nations.all()]


def _forms(viewer: Viewer, turn: Turn | None, data: Any = None, which: str | None = None) -> dict[str, Any]:
    nations = _nation_choices(viewer)
    unit_types = list(viewer.campaign.ruleset().unit_types)

    def bound(name: str) -> Any:
        return data if which == name else None

    forms: dict[str, Any] = {
        "modifier_form": ModifierForm(bound("modifier"), nations=nations),
        "relation_form": RelationForm(bound("relation"), nations=nations),
        "roster_form": RosterForm(bound("roster"), nations=nations, unit_types=unit_types),
    }
    if turn is not None:
        region_weather = ", ".join(f"{c} {w}" for c, w in (turn.region_weather or {}).items())
        forms["deadline_form"] = DeadlineForm(bound("deadline"), initial={"deadline": turn.deadline})
        forms["weather_form"] = WeatherForm(
            bound("weather"), initial={"weather": turn.weather, "region_weather": region_weather}
        )
    return forms


@login_required
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    viewer = gm_for(request, slug)
    return _dashboard_render(request, viewer, _forms(viewer, turn_current(campaign=viewer.campaign)))


def _dashboard_render(request: HttpRequest, viewer: Viewer, forms: dict[str, Any], status: int = 200):
    turn = turn_current(campaign=viewer.campaign)
    last = (
        Turn.objects.filter(campaign=viewer.campaign, status=Turn.Status.RESOLVED)
        .defer("result")
        .order_by("-number")
        .first()
    )
    context = {
        "bar": topbar(viewer, turn),
        "turn": turn,
        "last": last,
        **gm_dashboard_load(campaign_id=viewer.campaign.pk, turn=turn),
        **forms,
    }
    return render(request, "frontend/gm_dashboard.html", context, status=status)


def _gm_post(
    request: HttpRequest, slug: str, which: str, form_class_ok: Callable[[Viewer, Turn | None, Any], str]
) -> HttpResponse:
    """Parse the named form; on success call the service through `form_class_ok` and say what happened."""
    viewer = gm_for(request, slug)
    turn = turn_current(campaign=viewer.campaign)
    forms = _forms(viewer, turn, request.POST, which)
    form = forms.get(f"{which}_form")
    if form is None:
        raise Http404("no open turn")
    if form.is_valid():
        try:
            said = form_class_ok(viewer, turn, form.cleaned_data)
        except GMInputError as error:
            field = error.field if error.field in form.fields else None
            form.add_error(field, error.message)
        else:
            messages.success(request, said)
            return redirect(reverse("frontend:gm", args=[slug]) + f"#{which}")
    messages.error(request, "Nothing was changed: see the message next to the field.")
    return _dashboard_render(request, viewer, forms, status=400)


def _region(viewer: Viewer, code: str) -> Region:
    region = Region.objects.filter(campaign=viewer.campaign, code=code.strip().upper()).first()
    if region is None:
        raise GMInputError("region", f"unknown region {code!r}")
    return region


def _nation(viewer: Viewer, code: str) -> Nation:
    return get_object_or_404(Nation, campaign=viewer.campaign, code=code)


@login_required
@require_POST
def deadline_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        gm_services.deadline_set(user=request.user, turn=turn, deadline=data["deadline"])
        return f"Deadline of turn {turn.number} set to {data['deadline']:%Y-%m-%d %H:%M} UTC."

    return _gm_post(request, slug, "deadline", apply)


@login_required
@require_POST
def weather_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        gm_services.weather_set(
            user=request.user,
            turn=turn,
            weather=data["weather"],
            region_weather=data["region_weather"],
            reason=data["reason"],
        )
        local = ", ".join(f"{c} {w}" for c, w in data["region_weather"].items())
        return f"Weather of turn {turn.number}: {data['weather']}" + (f"; {local}." if local else ".")

    return _gm_post(request, slug, "weather", apply)


@login_required
@require_POST
def modifier_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        if turn is None:
            raise GMInputError("region", "there is no open turn")
        region, nation = _region(viewer, data["region"]), _nation(viewer, data["nation"])
        gm_services.gm_modifier_set(
            user=request.user,
            turn=turn,
            region=region,
            nation=nation,
            value=data["value"],
            reason=data["reason"],
        )
        if data["value"] == 0:
            return f"GM modifier removed: {nation.code} in {region.code}."
        return f"GM modifier set: {nation.code} in {region.code} {data['value']:+d} KTA this turn."

    return _gm_post(request, slug, "modifier", apply)


@login_required
@require_POST
def relation_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        a, b = _nation(viewer, data["nation_a"]), _nation(viewer, data["nation_b"])
        gm_services.relation_set(
            user=request.user, nation_a=a, nation_b=b, kind=data["kind"], reason=data["reason"]
        )
        return f"Relation set: {a.code} and {b.code} are at {data['kind']}."

    return _gm_post(request, slug, "relation", apply)


@login_required
@require_POST
def roster_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        region, nation = _region(viewer, data["region"]), _nation(viewer, data["nation"])
        gm_services.roster_change(
            user=request.user,
            region=region,
            nation=nation,
            unit_type=data["unit_type"],
            count=data["count"],
            reason=data["reason"],
        )
        return f"Roster changed: {data['count']} {data['unit_type']} of {nation.code} in {region.code}."

    return _gm_post(request, slug, "roster", apply)


@login_required
@require_POST
def process_post(request: HttpRequest, slug: str) -> HttpResponse:
    viewer = gm_for(request, slug)
    turn = turn_current(campaign=viewer.campaign)
    if turn is None:
        raise Http404("no turn in play")
    if turn.status == Turn.Status.FAILED:
        retried = gm_services.turn_retry_request(user=request.user, turn=turn)
        messages.success(
            request, f"Turn {turn.number} queued again." if retried else "The turn was not failed."
        )
    else:
        try:
            gm_services.turn_process_request(user=request.user, turn=turn)
        except GMInputError as error:
            messages.error(request, f"Not queued: {error.message}.")
            return redirect("frontend:gm", slug=slug)
        messages.success(request, f"Turn {turn.number} queued for processing; its status is below.")
    return redirect("frontend:gm_turn", slug=slug, number=turn.number)


STATUS_WORDS = {
    "open": "open: waiting for processing (queued, or not yet asked)",
    "processing": "processing…",
    "resolved": "done",
    "failed": "failed",
}


def _turn_of(viewer: Viewer, number: int) -> Turn:
    return get_object_or_404(Turn.objects.defer("result"), campaign=viewer.campaign, number=number)


def _status(viewer: Viewer, turn: Turn) -> dict[str, Any]:
    status: dict[str, Any] = {
        "turn": turn.number,
        "status": turn.status,
        "words": STATUS_WORDS.get(turn.status, turn.status),
        "done": turn.status in ("resolved", "failed"),
    }
    if turn.status == Turn.Status.FAILED:
        status["error"] = turn.error
    if turn.status == Turn.Status.RESOLVED:
        counts = reports_visible(viewer=viewer, turn=turn).aggregate(
            battles=Count("id"), conquests=Count("id", filter=Q(conquest=True))
        )
        status.update(counts)
        status["report_url"] = reverse("frontend:turn", args=[viewer.campaign.slug, turn.number])
    return status


@login_required
def turn_status_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    viewer = gm_for(request, slug)
    turn = _turn_of(viewer, number)
    status = _status(viewer, turn)
    context = {"bar": topbar(viewer, turn_current(campaign=viewer.campaign)), "turn": turn, "status": status}
    if turn.status == Turn.Status.RESOLVED:
        names = {n.code: n.name for n in viewer.campaign.nations.all()}
        context["reports"] = [
            {
                "region": r.region,
                "kind": KIND_WORDS.get(r.kind, r.kind),
                "conquest": r.conquest,
                "anchor": card_anchor(r.kind, r.region),
                "page": i // CARDS_PER_PAGE + 1,
                "nations": ", ".join(names.get(n, n) for n in r.data.get("nations", [])),
            }
            for i, r in enumerate(reports_visible(viewer=viewer, turn=turn))
        ]
        context["changes"] = regions_changed_hands(turn=turn)
    return render(request, "frontend/gm_turn.html", context)


@login_required
def turn_status_json(request: HttpRequest, slug: str, number: int) -> JsonResponse:
    viewer = gm_for(request, slug)
    return JsonResponse(_status(viewer, _turn_of(viewer, number)))
