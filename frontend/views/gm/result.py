"""A turn's result, for the GM: its page, the preview, publishing, rolling back (rules.history), and the
campaign's export (rules.export)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from campaign.gm import processing
from campaign.gm.access import GMInputError
from campaign.models import Turn
from campaign.selectors import Viewer, regions_changed_hands, turn_current
from frontend.forms import form_refuse
from frontend.gm_forms import RollbackForm
from frontend.gm_selectors import nation_names, report_rows
from frontend.reports import battle_card, card_anchor
from frontend.systems import pages_of
from frontend.terms import said as say
from frontend.terms import word
from frontend.views.common import gm_for, topbar
from frontend.views.gm.dashboard import utc
from frontend.views.gm.processing import missed_said, turn_of, turn_status, without_orders
from frontend.views.turns import CARDS_PER_PAGE
from rules import history
from rules.export import ExportError, campaign_export


@login_required
def turn_status_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    viewer = gm_for(request, slug)
    return turn_render(request, viewer, turn_of(viewer, number))


def turn_render(
    request: HttpRequest, viewer: Viewer, turn: Turn, status: int = 200, **extra: Any
) -> HttpResponse:
    """The GM's page of a turn: its status; once resolved the summary, every report, the rollback; after a
    rollback the archived results, and once processed again what changed between the two."""
    context = {
        "bar": topbar(viewer, turn_current(campaign=viewer.campaign)),
        "turn": turn,
        "status": turn_status(viewer, turn),
        "archives": history.turn_archives(turn_id=turn.pk, by=request.user),
        **extra,
    }
    pages = pages_of(viewer.campaign.battle_system)
    # A system whose rollback goes back to its battles or to its orders (TABLETOP A10.4).
    context["rollback_to_battles"] = pages.rollback is not None
    # The systems whose turns wait for table battles: the GM may complete one by hand (COMPANY.md §2.3).
    context["completes_by_hand"] = pages.complete is not None
    if pages.rollback is not None and turn.status == Turn.Status.BATTLES_PENDING:
        # Back to its orders, or completed once every battle has its entry again (TABLETOP A10.4, A9.4).
        context.setdefault("rollback_form", RollbackForm(prefix="rollback", initial={"kind": "orders"}))
    if turn.status == Turn.Status.RESOLVED:
        names = nation_names(campaign=viewer.campaign)
        context["reports"] = [
            {
                "region": r.region,
                "kind": word("battle", r.kind),
                "conquest": r.conquest,
                "anchor": card_anchor(r.kind, r.region),
                "page": i // CARDS_PER_PAGE + 1,
                "nations": ", ".join(names.get(n, n) for n in r.data.get("nations", [])),
            }
            for i, r in enumerate(report_rows(viewer=viewer, turn=turn))
        ]
        context["changes"] = regions_changed_hands(turn=turn)
        context.setdefault("rollback_form", RollbackForm(prefix="rollback"))
        if context["archives"]:
            context["diff"] = history.turn_result_diff(turn_id=turn.pk, by=request.user)
    return render(request, "frontend/gm_turn.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def preview_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """GET: the turn's last dry run, every battle in it as a card. POST: run it again on the orders of now."""
    viewer = gm_for(request, slug)
    turn = turn_of(viewer, number)
    own_page = pages_of(viewer.campaign.battle_system).preview_page
    if own_page is not None:  # a system whose preview is a page of its own (company's battles to come)
        return own_page(request, viewer, turn)
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
    settlements = list((preview.result.get("settlements") or []) if preview is not None else [])
    names = nation_names(campaign=viewer.campaign)
    page = Paginator(battles, CARDS_PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "bar": topbar(viewer, turn_current(campaign=viewer.campaign)),
        "turn": turn,
        "preview": preview,
        "battles": len(battles),
        "conquests": sum(1 for b in battles if b.get("conquest")),
        # Who would hold a jointly conquered region, and the lot if it is a tie (§7.2), as on the report.
        "cards": [battle_card(b, names=names, settlements=settlements) for b in page.object_list],
        "page": page,
    }
    if turn.status == Turn.Status.OPEN:
        # Publishing processes it by the GM's hand: early, the GM says whether it is a missed turn.
        context.update(missing=without_orders(viewer, turn), early=processing.turn_early(turn=turn))
    return render(request, "frontend/gm_preview.html", context)


@login_required
@require_POST
def publish_post(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Process the turn for real, now, and say whether it is the previewed result; the page of the turn
    shows what differs when it is not (the comparison is not stored, so it is shown here, once)."""
    viewer = gm_for(request, slug)
    turn = turn_of(viewer, number)
    missing = without_orders(viewer, turn) if turn.status == Turn.Status.OPEN else []
    count_missed = request.POST.get("count_missed") == "on"
    try:
        outcome = history.turn_publish(turn_id=turn.pk, by=request.user, count_missed=count_missed)
    except GMInputError as error:
        messages.error(request, _("Not published: %(error)s") % {"error": say(error.message)})
        return redirect("frontend:gm_turn", slug=slug, number=number)
    if outcome.matched is None:
        said = _("Turn %(number)s published; there was no preview to compare it with.")
    elif outcome.matched:
        said = _("Turn %(number)s published exactly the previewed result.")
    else:
        said = _("Turn %(number)s published, but not the previewed result: see what changed below.")
    counted = outcome.turn.missed_counted
    messages.success(
        request, said % {"number": turn.number} + missed_said(missing, counted=counted, turn=outcome.turn)
    )
    return turn_render(request, viewer, turn_of(viewer, number), published=outcome)


@login_required
@require_POST
def rollback_post(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    viewer = gm_for(request, slug)
    turn = turn_of(viewer, number)
    form = RollbackForm(request.POST, prefix="rollback")
    if form.is_valid():
        try:
            rollback = pages_of(viewer.campaign.battle_system).rollback
            if rollback is not None:
                outcome = rollback(
                    turn_id=turn.pk,
                    by=request.user,
                    to=form.cleaned_data["kind"] or "orders",
                    force=form.cleaned_data["force"],
                    reason=form.cleaned_data["reason"],
                )
            else:
                outcome = history.turn_rollback(
                    turn_id=turn.pk,
                    by=request.user,
                    force=form.cleaned_data["force"],
                    reason=form.cleaned_data["reason"],
                )
        except GMInputError as error:
            form_refuse(form, error)
        else:
            if outcome.turn.status == Turn.Status.BATTLES_PENDING:
                messages.success(
                    request,
                    _(
                        "Turn %(number)s rolled back to its battles: the world is as it was before the "
                        "turn completed, its result is archived and every battle keeps its result. Reopen "
                        "a battle to correct it, or complete the turn again."
                    )
                    % {"number": outcome.turn.number},
                )
                return redirect("frontend:gm_turn", slug=slug, number=number)
            messages.success(
                request,
                _(
                    "Turn %(number)s rolled back: the world is as it was before it, its result is archived, "
                    "and it is open again until %(deadline)s UTC."
                )
                % {
                    "number": outcome.turn.number,
                    "deadline": utc(outcome.turn.deadline),
                },
            )
            return redirect(reverse("frontend:gm", args=[slug]) + "#process")
    messages.error(request, _("Nothing was rolled back: see the message next to the field."))
    return turn_render(request, viewer, turn, status=400, rollback_form=form)


@login_required
@require_POST
def complete_post(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The GM completes a turn waiting for its table battles, by its system's rule (its SystemPages'
    `complete`: TABLETOP A9.4, COMPANY.md §2.3)."""
    viewer = gm_for(request, slug)
    turn = turn_of(viewer, number)
    complete = pages_of(viewer.campaign.battle_system).complete
    if complete is None:
        raise Http404("the turns of this campaign complete by themselves")
    try:
        complete(turn_id=turn.pk, by=request.user)
    except GMInputError as error:
        messages.error(request, _("Not completed: %(error)s.") % {"error": say(error.message)})
    else:
        messages.success(request, _("Turn %(number)s queued to complete.") % {"number": turn.number})
    return redirect("frontend:gm_turn", slug=slug, number=number)


@login_required
def export_download(request: HttpRequest, slug: str) -> HttpResponse:
    """The whole campaign in one JSON file (rules.export): scenario, every turn's inputs and result."""
    viewer = gm_for(request, slug)
    try:
        data = campaign_export(campaign=viewer.campaign, by=request.user)
    except ExportError as error:
        messages.error(request, _("No export: %(error)s.") % {"error": say(error.message)})
        return redirect("frontend:gm", slug=slug)
    response = JsonResponse(data, json_dumps_params={"indent": 1, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="{viewer.campaign.slug}-campaign.json"'
    return response
