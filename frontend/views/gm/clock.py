"""The GM's clock: the deadline, pausing and resuming, more time, the life-cycle settings
(campaign.gm.clock)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign import lifecycle
from campaign.gm import clock
from campaign.selectors import turn_current
from frontend.views.gm.dashboard import gm_post, utc


@login_required
@require_POST
def deadline_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        clock.deadline_set(by=request.user, turn=turn, deadline=data["deadline"])
        return _("Deadline of turn %(number)s set to %(deadline)s UTC.") % {
            "number": turn.number,
            "deadline": utc(data["deadline"]),
        }

    return gm_post(request, slug, "deadline", apply)


@login_required
@require_POST
def pause_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        campaign = clock.campaign_pause(campaign=viewer.campaign, by=request.user, reason=data["reason"])
        if campaign.paused_remaining is None:
            return _("Campaign paused: nothing is reminded or processed until you resume it.")
        return _(
            "Campaign paused with %(left)s left: nothing is reminded or processed until you resume it."
        ) % {"left": lifecycle.campaign_clock(campaign=campaign, turn=turn)["time_left_words"]}

    return gm_post(request, slug, "pause", apply)


@login_required
@require_POST
def resume_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        clock.campaign_resume(campaign=viewer.campaign, by=request.user, reason=data["reason"])
        if turn is None:
            return _("Campaign resumed.")
        turn = turn_current(campaign=viewer.campaign)  # its deadline moved
        return _("Campaign resumed: turn %(number)s is due %(deadline)s UTC.") % {
            "number": turn.number,
            "deadline": utc(turn.deadline),
        }

    return gm_post(request, slug, "pause", apply)


@login_required
@require_POST
def extend_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        turn = clock.deadline_extend(turn=turn, by=request.user, extra=data["extra"], reason=data["reason"])
        hours = int(data["extra"].total_seconds() // 3600)
        if viewer.campaign.paused_at is not None:
            return _("Turn %(number)s has %(hours)s more hours when the campaign resumes.") % {
                "number": turn.number,
                "hours": hours,
            }
        return _("Turn %(number)s has %(hours)s more hours: due %(deadline)s UTC.") % {
            "number": turn.number,
            "hours": hours,
            "deadline": utc(turn.deadline),
        }

    return gm_post(request, slug, "extend", apply)


@login_required
@require_POST
def lifecycle_post(request: HttpRequest, slug: str) -> HttpResponse:
    def apply(viewer, turn, data):
        campaign = clock.lifecycle_settings_set(
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

    return gm_post(request, slug, "lifecycle", apply)
