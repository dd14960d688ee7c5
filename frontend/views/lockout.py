"""What a guesser gets once django-axes has locked the account from their address: a 429 that says when to
try again (the login page, the admin), or the same in the API's one error envelope (the token endpoint):

    {"errors": [{"code": "locked_out", "ref": null, "message": "...", "params": {"retry_after": 900}}]}

with a Retry-After header either way.

Axes locks for AXES_COOLOFF_TIME after the last failed try, and a try while locked starts that time again
(AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT): so the lock ends one cool-off from now.
"""

from __future__ import annotations

from datetime import UTC
from typing import Any

from axes.helpers import get_cool_off
from django.contrib.auth.models import AbstractUser
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

USERNAME_MAX = AbstractUser._meta.get_field("username").max_length


def axes_username(request: HttpRequest, credentials: dict | None = None) -> str | None:
    """The username django-axes counts failed tries by (AXES_USERNAME_CALLABLE), cut to what an account
    can have: axes stores it in a column of 255 characters, so a longer guess was a 500 on PostgreSQL.
    Characters no username has (NUL, controls, lone surrogates from a JSON escape) become "?"."""
    raw = credentials.get("username") if credentials else request.POST.get("username")
    if raw is None:
        return None
    text = "".join(c if c.isprintable() else "?" for c in str(raw))
    return text[:USERNAME_MAX]


def lockout_words(request: HttpRequest) -> tuple[str, int]:
    """The message, and the seconds to wait (the Retry-After header)."""
    cool_off = get_cool_off(request)
    seconds = int(cool_off.total_seconds())
    until = timezone.now() + cool_off
    text = _(
        "Too many failed logins for this account from this address. "
        "Try again after %(time)s UTC (in %(minutes)s minutes)."
    ) % {"time": until.astimezone(UTC).strftime("%Y-%m-%d %H:%M"), "minutes": -(-seconds // 60)}
    return text, seconds


def lockout_errors(request: HttpRequest) -> tuple[dict[str, Any], int]:
    """The API's answer to a locked-out login, in the one error envelope (campaign.api_errors), and the
    seconds to wait (the Retry-After header)."""
    text, seconds = lockout_words(request)
    entry = {"code": "locked_out", "ref": None, "message": text, "params": {"retry_after": seconds}}
    return {"errors": [entry]}, seconds


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    if request.path.startswith("/api/"):
        body, seconds = lockout_errors(request)
        response = JsonResponse(body, status=429)
    else:
        text, seconds = lockout_words(request)
        response = render(request, "registration/lockout.html", {"message": text}, status=429)
    response["Retry-After"] = str(seconds)
    return response
