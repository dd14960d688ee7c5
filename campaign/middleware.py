"""Show times in the user's own time zone: Django renders aware datetimes in the activated zone.

The zone's name is kept in the session (put there at login), so a page costs no query for it. A view
that changes the user's zone (campaign.lifecycle.time_zone_set) calls `time_zone_remember` too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from campaign.lifecycle import time_zone_of

SESSION_KEY = "iron_fist_time_zone"


class TimeZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return self.get_response(request)
        name = request.session.get(SESSION_KEY)
        if name is None:  # a session from before this middleware: look once, then remember
            name = time_zone_remember(request=request, user=user)
        try:
            zone = ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            zone = ZoneInfo("UTC")
        with timezone.override(zone):
            return self.get_response(request)


def time_zone_remember(*, request: HttpRequest, user: Any, **kwargs: Any) -> str:
    """Put the user's zone in the session; also the receiver of `user_logged_in` (campaign/apps.py)."""
    name = time_zone_of(user=user).key
    request.session[SESSION_KEY] = name
    return name
