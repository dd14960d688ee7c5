"""The GM dashboard: submissions, the clock, weather, modifiers, relations, roster edits, processing; and
a turn's result: preview, publish, roll back, what changed, the campaign's export.

Each POST parses a form, calls one function of campaign.gm_services, campaign.lifecycle or rules.history
(which check the GM again and write the audit log), says what happened, and redirects back; a refused
input is shown beside its field.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from campaign import gm_services, lifecycle
from campaign.export import ExportError, campaign_export
from campaign.gm_services import GMInputError
from campaign.models import Nation, Region, Turn
from campaign.selectors import Viewer, regions_changed_hands, reports_visible, turn_current
from frontend.forms import DeadlineForm, ModifierForm, RelationForm, RosterForm, WeatherForm
from frontend.gm_forms import (
    AssignForm,
    ExtendForm,
    LifecycleForm,
    ReasonForm,
    RollbackForm,
    lifecycle_initial,
)
from frontend.reports import battle_card, card_anchor
from frontend.selectors import gm_dashboard_load
from frontend.terms import said as say
from frontend.terms import word
from frontend.views.common import gm_for, topbar
from frontend.views.turns import CARDS_PER_PAGE
from rules import history
from rules.engine.messages import InputError


def _forms(viewer: Viewer, turn: Turn | None, data: Any = None, which: str | None = None) -> dict[str, Any]:
    all_nations = list(viewer.campaign.nations.all())
    nations = [(n.code, f"{n.code} {n.name}") for n in all_nations]
    # A nation in civil disorder waits for a player: say so where the GM picks one.
    to_assign = [
        (code, _("%(nation)s (civil disorder)") % {"nation": label} if n.civil_disorder else label)
        for n, (code, label) in zip(all_nations, nations, strict=True)
    ]
    unit_types = list(viewer.campaign.ruleset().unit_types)
    clock = lifecycle.campaign_clock(campaign=viewer.campaign, turn=turn)

    def bound(name: str) -> Any:
        return data if which == name else None

    forms: dict[str, Any] = {
        "clock": clock,
        "modifier_form": ModifierForm(bound("modifier"), nations=nations),
        "relation_form": RelationForm(bound("relation"), nations=nations),
        "roster_form": RosterForm(bound("roster"), nations=nations, unit_types=unit_types),
        # Prefixed: these forms share field names ("reason") with others on the page.
        "pause_form": ReasonForm(bound("pause"), prefix="pause"),
        "lifecycle_form": LifecycleForm(
            bound("lifecycle"), initial=lifecycle_initial(clock), prefix="lifecycle"
        ),
        "assign_form": AssignForm(bound("assign"), nations=to_assign, prefix="assign"),
    }
    if turn is not None:
        forms["extend_form"] = ExtendForm(bound("extend"), prefix="extend")
        region_weather = ", ".join(f"{c} {w}" for c, w in (turn.region_weather or {}).items())
        forms["deadline_form"] = DeadlineForm(bound("deadline"), initial={"deadline": turn.deadline})
        forms["weather_form"] = WeatherForm(
            bound("weather"), initial={"weather": turn.weather, "region_weather": region_weather}
        )
    return forms


@login_required
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    viewer = gm_for(request, slug)
    turn = turn_current(campaign=viewer.campaign)
    return _dashboard_render(request, viewer, turn, _forms(viewer, turn))


def _dashboard_render(
    request: HttpRequest, viewer: Viewer, turn: Turn | None, forms: dict[str, Any], status: int = 200
) -> HttpResponse:
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
        **gm_dashboard_load(campaign=viewer.campaign, turn=turn),
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
            form.add_error(field, say(error.message))
        else:
            messages.success(request, said)
            return redirect(reverse("frontend:gm", args=[slug]) + f"#{which}")
    messages.error(request, _("Nothing was changed: see the message next to the field."))
    return _dashboard_render(request, viewer, turn, forms, status=400)


def _utc(moment: datetime) -> str:
    """A moment as the GM's messages give it, in UTC whatever the reader's zone: "2099-01-02 03:04"."""
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M}"


def _region(viewer: Viewer, code: str) -> Region:
    region = Region.objects.filter(campaign=viewer.campaign, code=code.strip().upper()).first()
    if region is None:
        raise InputError.of("region", "unknown_region", region=code)
    return region


def _nation(viewer: Viewer, code: str) -> Nation:
    return get_object_or_404(Nation, campaign=viewer.campaign, code=code)


@login_required
@require_POST
def deadline_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        gm_services.deadline_set(user=request.user, turn=turn, deadline=data["deadline"])
        return _("Deadline of turn %(number)s set to %(deadline)s UTC.") % {
            "number": turn.number,
            "deadline": _utc(data["deadline"]),
        }

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
        local = ", ".join(f"{c} {word('weather', w)}" for c, w in data["region_weather"].items())
        said = _("Weather of turn %(number)s: %(weather)s") % {
            "number": turn.number,
            "weather": word("weather", data["weather"]),
        }
        return said + (f"; {local}." if local else ".")

    return _gm_post(request, slug, "weather", apply)


@login_required
@require_POST
def modifier_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        if turn is None:
            raise InputError.of("region", "no_open_turn")
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
            return _("GM modifier removed: %(nation)s in %(region)s.") % {
                "nation": nation.code,
                "region": region.code,
            }
        return _("GM modifier set: %(nation)s in %(region)s %(value)s KTA this turn.") % {
            "nation": nation.code,
            "region": region.code,
            "value": f"{data['value']:+d}",
        }

    return _gm_post(request, slug, "modifier", apply)


@login_required
@require_POST
def relation_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        a, b = _nation(viewer, data["nation_a"]), _nation(viewer, data["nation_b"])
        gm_services.relation_set(
            user=request.user, nation_a=a, nation_b=b, kind=data["kind"], reason=data["reason"]
        )
        return _("Relation set: %(a)s and %(b)s are at %(kind)s.") % {
            "a": a.code,
            "b": b.code,
            "kind": word("relation", data["kind"]),
        }

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
        return _("Roster changed: %(count)s %(unit_type)s of %(nation)s in %(region)s.") % {
            "count": data["count"],
            "unit_type": data["unit_type"],
            "nation": nation.code,
            "region": region.code,
        }

    return _gm_post(request, slug, "roster", apply)


# --- The clock and the players (campaign.lifecycle) -------------------------------------------------------


@login_required
@require_POST
def pause_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        campaign = lifecycle.campaign_pause(campaign=viewer.campaign, by=request.user, reason=data["reason"])
        if campaign.paused_remaining is None:
            return _("Campaign paused: nothing is reminded or processed until you resume it.")
        return _(
            "Campaign paused with %(left)s left: nothing is reminded or processed until you resume it."
        ) % {"left": lifecycle.campaign_clock(campaign=campaign, turn=turn)["time_left_words"]}

    return _gm_post(request, slug, "pause", apply)


@login_required
@require_POST
def resume_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        lifecycle.campaign_resume(campaign=viewer.campaign, by=request.user, reason=data["reason"])
        if turn is None:
            return _("Campaign resumed.")
        turn.refresh_from_db(fields=["deadline"])
        return _("Campaign resumed: turn %(number)s is due %(deadline)s UTC.") % {
            "number": turn.number,
            "deadline": _utc(turn.deadline),
        }

    return _gm_post(request, slug, "pause", apply)


@login_required
@require_POST
def extend_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        turn = lifecycle.deadline_extend(
            turn=turn, by=request.user, extra=data["extra"], reason=data["reason"]
        )
        hours = int(data["extra"].total_seconds() // 3600)
        if viewer.campaign.paused_at is not None:
            return _("Turn %(number)s has %(hours)s more hours when the campaign resumes.") % {
                "number": turn.number,
                "hours": hours,
            }
        return _("Turn %(number)s has %(hours)s more hours: due %(deadline)s UTC.") % {
            "number": turn.number,
            "hours": hours,
            "deadline": _utc(turn.deadline),
        }

    return _gm_post(request, slug, "extend", apply)


@login_required
@require_POST
def lifecycle_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        campaign = lifecycle.lifecycle_settings_set(
            campaign=viewer.campaign,
            by=request.user,
            process_early=data["process_early"],
            reminder_before=data["reminder_before"],
            civil_disorder_after=data["civil_disorder_after"],
        )
        return _(
            "Settings saved: process early %(early)s; reminder %(hours)s hours before the deadline; "
            "civil disorder after %(missed)s missed turns in a row."
        ) % {
            "early": _("on") if campaign.process_early else _("off"),
            "hours": int(campaign.reminder_before.total_seconds() // 3600),
            "missed": campaign.civil_disorder_after,
        }

    return _gm_post(request, slug, "lifecycle", apply)


@login_required
@require_POST
def assign_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        nation = _nation(viewer, data["nation"])
        user = get_user_model().objects.filter(username=data["user"].strip()).first()
        if user is None:
            raise InputError.of("user", "no_such_user", name=data["user"].strip())
        lifecycle.nation_assign(campaign=viewer.campaign, nation=nation, user=user, by=request.user)
        return _("%(user)s now plays %(nation)s; it takes orders again.") % {
            "user": user.get_username(),
            "nation": f"{nation.code} {nation.name}",
        }

    return _gm_post(request, slug, "assign", apply)


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
            request,
            _("Turn %(number)s queued again.") % {"number": turn.number}
            if retried
            else _("The turn was not failed."),
        )
    else:
        try:
            gm_services.turn_process_request(user=request.user, turn=turn)
        except GMInputError as error:
            messages.error(request, _("Not queued: %(error)s.") % {"error": say(error.message)})
            return redirect("frontend:gm", slug=slug)
        messages.success(
            request,
            _("Turn %(number)s queued for processing; its status is below.") % {"number": turn.number},
        )
    return redirect("frontend:gm_turn", slug=slug, number=turn.number)


STATUS_WORDS = {
    "open": gettext_lazy("open: waiting for processing (queued, or not yet asked)"),
    "processing": gettext_lazy("processing…"),
    "resolved": gettext_lazy("done"),
    "failed": gettext_lazy("failed"),
}


def _turn_of(viewer: Viewer, number: int) -> Turn:
    return get_object_or_404(Turn.objects.defer("result"), campaign=viewer.campaign, number=number)


def _status(viewer: Viewer, turn: Turn) -> dict[str, Any]:
    status: dict[str, Any] = {
        "turn": turn.number,
        "status": turn.status,
        "words": str(STATUS_WORDS.get(turn.status, turn.status)),
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
    return _turn_render(request, viewer, _turn_of(viewer, number))


def _turn_render(
    request: HttpRequest, viewer: Viewer, turn: Turn, status: int = 200, **extra: Any
) -> HttpResponse:
    """The GM's page of a turn: its status; once resolved the summary, every report, the rollback; after a
    rollback the archived results, and once processed again what changed between the two."""
    context = {
        "bar": topbar(viewer, turn_current(campaign=viewer.campaign)),
        "turn": turn,
        "status": _status(viewer, turn),
        "archives": history.turn_archives(turn_id=turn.pk, by=request.user),
        **extra,
    }
    if turn.status == Turn.Status.RESOLVED:
        names = {n.code: n.name for n in viewer.campaign.nations.all()}
        context["reports"] = [
            {
                "region": r.region,
                "kind": word("battle", r.kind),
                "conquest": r.conquest,
                "anchor": card_anchor(r.kind, r.region),
                "page": i // CARDS_PER_PAGE + 1,
                "nations": ", ".join(names.get(n, n) for n in r.data.get("nations", [])),
            }
            for i, r in enumerate(reports_visible(viewer=viewer, turn=turn))
        ]
        context["changes"] = regions_changed_hands(turn=turn)
        context.setdefault("rollback_form", RollbackForm(prefix="rollback"))
        if context["archives"]:
            context["diff"] = history.turn_result_diff(turn_id=turn.pk, by=request.user)
    return render(request, "frontend/gm_turn.html", context, status=status)


# --- A turn's result (rules.history) --------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def preview_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """GET: the turn's last dry run, every battle in it as a card. POST: run it again on the orders of now."""
    viewer = gm_for(request, slug)
    turn = _turn_of(viewer, number)
    if request.method == "POST":
        try:
            preview = history.turn_preview(turn_id=turn.pk, by=request.user)
        except GMInputError as error:
            messages.error(request, _("No preview: %(error)s.") % {"error": say(error.message)})
            return redirect(reverse("frontend:gm", args=[slug]) + "#result")
        count = len(preview.result.get("battles") or [])
        said = ngettext(
            "Turn %(number)s previewed: %(battles)s battle.",
            "Turn %(number)s previewed: %(battles)s battles.",
            count,
        ) % {"number": turn.number, "battles": count}
        messages.success(request, f"{said} {_('Nothing was written; the players see none of it.')}")
        return redirect("frontend:gm_preview", slug=slug, number=number)
    preview = history.turn_preview_get(turn_id=turn.pk, by=request.user)
    battles = (preview.result.get("battles") or []) if preview is not None else []
    names = {n.code: n.name for n in viewer.campaign.nations.all()}
    page = Paginator(battles, CARDS_PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "bar": topbar(viewer, turn_current(campaign=viewer.campaign)),
        "turn": turn,
        "preview": preview,
        "battles": len(battles),
        "conquests": sum(1 for b in battles if b.get("conquest")),
        "cards": [battle_card(b, names=names) for b in page.object_list],
        "page": page,
    }
    return render(request, "frontend/gm_preview.html", context)


@login_required
@require_POST
def publish_post(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Process the turn for real, now, and say whether it is the previewed result; the page of the turn
    shows what differs when it is not (the comparison is not stored, so it is shown here, once)."""
    viewer = gm_for(request, slug)
    turn = _turn_of(viewer, number)
    try:
        outcome = history.turn_publish(turn_id=turn.pk, by=request.user)
    except GMInputError as error:
        messages.error(request, _("Not published: %(error)s") % {"error": say(error.message)})
        return redirect("frontend:gm_turn", slug=slug, number=number)
    if outcome.matched is None:
        said = _("Turn %(number)s published; there was no preview to compare it with.")
    elif outcome.matched:
        said = _("Turn %(number)s published exactly the previewed result.")
    else:
        said = _("Turn %(number)s published, but not the previewed result: see what changed below.")
    messages.success(request, said % {"number": turn.number})
    return _turn_render(request, viewer, _turn_of(viewer, number), published=outcome)


@login_required
@require_POST
def rollback_post(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    viewer = gm_for(request, slug)
    turn = _turn_of(viewer, number)
    form = RollbackForm(request.POST, prefix="rollback")
    if form.is_valid():
        try:
            outcome = history.turn_rollback(
                turn_id=turn.pk,
                by=request.user,
                force=form.cleaned_data["force"],
                reason=form.cleaned_data["reason"],
            )
        except GMInputError as error:
            form.add_error(error.field if error.field in form.fields else None, say(error.message))
        else:
            messages.success(
                request,
                _(
                    "Turn %(number)s rolled back: the world is as it was before it, its result is archived, "
                    "and it is open again until %(deadline)s UTC."
                )
                % {
                    "number": outcome.turn.number,
                    "deadline": _utc(outcome.turn.deadline),
                },
            )
            return redirect(reverse("frontend:gm", args=[slug]) + "#process")
    messages.error(request, _("Nothing was rolled back: see the message next to the field."))
    return _turn_render(request, viewer, turn, status=400, rollback_form=form)


@login_required
def export_download(request: HttpRequest, slug: str) -> HttpResponse:
    """The whole campaign in one JSON file (campaign.export): scenario, every turn's inputs and result."""
    viewer = gm_for(request, slug)
    try:
        data = campaign_export(campaign=viewer.campaign, by=request.user)
    except ExportError as error:
        messages.error(request, _("No export: %(error)s.") % {"error": error})
        return redirect("frontend:gm", slug=slug)
    response = JsonResponse(data, json_dumps_params={"indent": 1, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="{viewer.campaign.slug}-campaign.json"'
    return response


@login_required
def turn_status_json(request: HttpRequest, slug: str, number: int) -> JsonResponse:
    viewer = gm_for(request, slug)
    return JsonResponse(_status(viewer, _turn_of(viewer, number)))
