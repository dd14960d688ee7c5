"""The GM's clock: the deadline, pausing and resuming, more time, the life-cycle settings
(campaign.gm.clock)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from campaign import lifecycle
from campaign.gm import clock
from campaign.models import Turn
from campaign.selectors import Viewer, turn_current
from frontend.views.gm.dashboard import gm_form_view, utc


@gm_form_view("deadline")
def deadline_post(request: HttpRequest, viewer: Viewer, turn: Turn | None, data: dict[str, Any]) -> str:
    clock.deadline_set(by=request.user, turn=turn, deadline=data["deadline"])
    return _("Deadline of turn %(number)s set to %(deadline)s UTC.") % {
        "number": turn.number,
        "deadline": utc(data["deadline"]),
    }


@gm_form_view("pause")
def pause_post(request: HttpRequest, viewer: Viewer, turn: Turn | None, data: dict[str, Any]) -> str:
    campaign = clock.campaign_pause(campaign=viewer.campaign, by=request.user, reason=data["reason"])
    if campaign.paused_remaining is None:
        return _("Campaign paused: nothing is reminded or processed until you resume it.")
    return _("Campaign paused with %(left)s left: nothing is reminded or processed until you resume it.") % {
        "left": lifecycle.campaign_clock(campaign=campaign, turn=turn)["time_left_words"]
    }


@gm_form_view("pause")
def resume_post(request: HttpRequest, viewer: Viewer, turn: Turn | None, data: dict[str, Any]) -> str:
    clock.campaign_resume(campaign=viewer.campaign, by=request.user, reason=data["reason"])
    if turn is None:
        return _("Campaign resumed.")
    turn = turn_current(campaign=viewer.campaign)  # its deadline moved
    return _("Campaign resumed: turn %(number)s is due %(deadline)s UTC.") % {
        "number": turn.number,
        "deadline": utc(turn.deadline),
    }


@gm_form_view("extend")
def extend_post(request: HttpRequest, viewer: Viewer, turn: Turn | None, data: dict[str, Any]) -> str:
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


@gm_form_view("lifecycle")
def lifecycle_post(request: HttpRequest, viewer: Viewer, turn: Turn | None, data: dict[str, Any]) -> str:
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
