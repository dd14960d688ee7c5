"""The invitation page, /join/<token>/ (issue 27): what the link is for (the campaign, the nation, its game
master), and the way in. An anonymous visitor signs up on the page (or logs in) and comes back to it; a
signed-in user joins with one button and lands on the campaign. A link that lets no one in any more says why
in words: used, expired or revoked (410), the user's seat or the nation taken (409).

The same service as the API's accept (campaign.invitations), and the same rate limit per user
(campaign.throttles.AcceptThrottle).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext

from campaign.api_errors import STATUS
from campaign.invitations import invitation_accept, invitation_by_token, invitation_gone, seat_conflict
from campaign.messages import said
from campaign.models import Invitation, Membership
from campaign.throttles import AcceptThrottle, throttle_wait
from frontend.selectors import color_safe
from frontend.views.accounts import SignUpForm, throttled
from rules.engine.messages import Refusal

TOKEN_MAX = Invitation._meta.get_field("token").max_length


def join_page(request: HttpRequest, token: str) -> HttpResponse:
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.path)
        # Counted before the link is looked up, so that a script trying links is stopped here too.
        wait = throttle_wait(AcceptThrottle(), request)
        if wait is not None:
            text = gettext("Too many invitation links tried. Try again in %(minutes)s minutes.")
            return throttled(request, wait, text)
    invitation = invitation_by_token(token=token) if len(token) <= TOKEN_MAX else None
    if invitation is None:
        raise Http404("no such invitation")
    refused: Refusal | None = None
    if request.method == "POST":
        try:
            membership = invitation_accept(user=request.user, token=token)
        except Refusal as refusal:
            refused = refusal
        else:
            messages.success(
                request,
                gettext("Welcome to %(campaign)s: you play %(nation)s.")
                % {"campaign": invitation.campaign.name, "nation": membership.nation.name},
            )
            return redirect("frontend:campaign", invitation.campaign.slug)
    else:
        refused = invitation_gone(invitation, now=timezone.now())
        if refused is None and request.user.is_authenticated:
            refused = seat_conflict(user=request.user, invitation=invitation)
    # The one who used the link, opening it again (or pressing the button twice): where it led.
    joined = (
        request.user.is_authenticated
        and invitation.used_by_id == request.user.pk
        and Membership.objects.filter(user=request.user, nation=invitation.nation).exists()
    )
    if joined:
        if request.method == "POST":
            return redirect("frontend:campaign", invitation.campaign.slug)
        refused = None
    nation = invitation.nation
    context = {
        "invitation": invitation,
        "campaign": invitation.campaign,
        "nation": {"code": nation.code, "name": nation.name, "color": color_safe(nation.color)},
        "gms": list(
            Membership.objects.filter(campaign=invitation.campaign, role=Membership.Role.GM)
            .order_by("user__username")
            .values_list("user__username", flat=True)
        ),
        "refused": [said(f.message) for f in refused.faults()] if refused else [],
        "gone": refused is not None and STATUS[refused.kind] == 410,
        "joined": joined,
        "form": SignUpForm() if not request.user.is_authenticated else None,
        "next": request.path,
    }
    status = STATUS[refused.kind] if refused is not None else 200
    return render(request, "frontend/join.html", context, status=status)
