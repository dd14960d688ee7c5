"""The GM's processing: queue the open turn, retry a failed one, follow its status
(campaign.gm.processing)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign.gm import processing
from campaign.gm.access import GMInputError
from campaign.lifecycle import nations_missed as gm_dashboard_nations
from campaign.models import Turn
from campaign.queue import BrokerAway
from campaign.selectors import Viewer, turn_current
from frontend.gm_selectors import report_counts, turn_by_number
from frontend.terms import said as say
from frontend.terms import word
from frontend.views.common import gm_for, topbar


@login_required
@require_POST
def process_post(request: HttpRequest, slug: str) -> HttpResponse:
    viewer = gm_for(request, slug)
    turn = turn_current(campaign=viewer.campaign)
    if turn is None:
        raise Http404("no turn in play")
    try:
        return process_or_retry(request, viewer, turn)
    except BrokerAway as away:  # said at once; the turn is left unqueued for the next tick (campaign.queue)
        messages.error(request, say(away.message))
        return redirect("frontend:gm", slug=slug)


def process_or_retry(request: HttpRequest, viewer: Viewer, turn: Turn) -> HttpResponse:
    """Retry the failed turn, or (once the GM has confirmed) queue the open one."""
    slug = viewer.campaign.slug
    if turn.status == Turn.Status.FAILED:
        retried = processing.turn_retry_request(by=request.user, turn=turn)
        messages.success(
            request,
            _("Turn %(number)s queued again.") % {"number": turn.number}
            if retried
            else _("The turn was not failed."),
        )
    else:
        missing = without_orders(viewer, turn)
        if request.POST.get("confirm") != "yes":
            # Ask first: who has given no orders, and whether that is a missed turn for them.
            context = {"bar": topbar(viewer, turn), "turn": turn, "missing": missing}
            context["early"] = processing.turn_early(turn=turn)
            context["count_missed"] = processing.COUNT_MISSED_DEFAULT  # the API's default too
            return render(request, "frontend/gm_process_confirm.html", context)
        try:
            counted = processing.turn_process_request(
                by=request.user, turn=turn, count_missed=request.POST.get("count_missed") == "on"
            )
        except GMInputError as error:
            messages.error(request, _("Not queued: %(error)s.") % {"error": say(error.message)})
            return redirect("frontend:gm", slug=slug)
        turn.refresh_from_db(fields=["status"])
        # Say what really happened: in process (make run) the turn is done by now; with a worker, queued.
        if turn.status == Turn.Status.RESOLVED:
            said = _("Turn %(number)s processed; the summary is below.")
        elif turn.status == Turn.Status.FAILED:
            said = _("Turn %(number)s was processed and failed; the error is below.")
        else:
            said = _("Turn %(number)s queued for processing; its status is below.")
        said = said % {"number": turn.number} + missed_said(missing, counted=counted, turn=turn)
        (messages.error if turn.status == Turn.Status.FAILED else messages.success)(request, said)
    return redirect("frontend:gm_turn", slug=slug, number=turn.number)


def missed_said(missing: list[dict[str, Any]], *, counted: bool, turn: Turn) -> str:
    """What processing meant for the nations without orders, to end the flash with ("" when none)."""
    if not missing or turn.status == Turn.Status.FAILED:  # a failed turn is nobody's missed turn
        return ""
    names = ", ".join(n["name"] for n in missing)
    return " " + (
        _("Nations without orders (%(names)s) count it as a missed turn.")
        if counted
        else _("Nations without orders (%(names)s) do not count it as a missed turn.")
    ) % {"names": names}


def without_orders(viewer: Viewer, turn: Turn) -> list[dict[str, Any]]:
    """The nations with a player and no orders this turn: their units will hold, and, unless the GM
    processes early and does not count it, it is a missed turn for them, bringing civil disorder nearer."""
    return [
        {"name": row["nation"].name, "code": row["nation"].code, "disorder_in": row["disorder_in"]}
        for row in gm_dashboard_nations(campaign=viewer.campaign, turn=turn)
        if row["players"] and not row["submitted"] and not row["civil_disorder"]
    ]


def turn_of(viewer: Viewer, number: int) -> Turn:
    turn = turn_by_number(campaign=viewer.campaign, number=number)
    if turn is None:
        raise Http404("no such turn")
    return turn


def turn_status(viewer: Viewer, turn: Turn) -> dict[str, Any]:
    status: dict[str, Any] = {
        "turn": turn.number,
        "status": turn.status,
        "words": word("progress", turn.status),
        "done": turn.status in ("resolved", "failed"),
    }
    # What happened on the way (campaign.queue): since when it waits, how often it was queued again, why.
    if turn.status == Turn.Status.OPEN and turn.queued_at:
        status["queued_at"] = turn.queued_at.isoformat()
    if turn.requeues:
        status.update(requeues=turn.requeues, fault=say(turn.fault_message))
    if turn.status == Turn.Status.FAILED:
        status["error"] = turn.error
    if turn.status == Turn.Status.RESOLVED:
        status.update(report_counts(viewer=viewer, turn=turn))
        status["report_url"] = reverse("frontend:turn", args=[viewer.campaign.slug, turn.number])
    return status


@login_required
def turn_status_json(request: HttpRequest, slug: str, number: int) -> JsonResponse:
    viewer = gm_for(request, slug)
    return JsonResponse(turn_status(viewer, turn_of(viewer, number)))
