"""The GM's invitation links (campaign.invitations): make one for a nation (mailed too, if the GM gives an
address), revoke an open one. The panel itself is frontend.invitations, on the dashboard."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign.invitations import invitation_create, invitation_revoke, invitations_of
from campaign.messages import said
from campaign.selectors import turn_current
from frontend.forms import form_refuse
from frontend.gm_selectors import nation_by_code
from frontend.invitations import InviteForm
from frontend.mail.accounts import invitation_url
from frontend.views.common import gm_for
from frontend.views.gm.dashboard import dashboard_render, forms_of
from rules.engine.messages import InputError, Refusal


def _back(slug: str) -> HttpResponse:
    return redirect(reverse("frontend:gm", args=[slug]) + "#invitations")


@login_required
@require_POST
def invitation_post(request: HttpRequest, slug: str) -> HttpResponse:
    viewer = gm_for(request, slug)
    form = InviteForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        nation = nation_by_code(campaign=viewer.campaign, code=data["nation"])
        try:
            if nation is None:
                raise InputError.of("nation", "not_in_campaign", code=data["nation"])
            invitation = invitation_create(
                by=request.user,
                campaign=viewer.campaign,
                nation=nation,
                days=data["days"],
                email=data["email"],
            )
        except Refusal as refusal:
            form_refuse(form, refusal)
        else:
            text = _("Invitation link for %(nation)s made: %(url)s") % {
                "nation": nation.name,
                "url": invitation_url(invitation.token),
            }
            if invitation.email:
                text += " " + _("It is on its way to %(email)s.") % {"email": invitation.email}
            messages.success(request, text)
            return _back(slug)
    messages.error(request, _("Nothing was changed: see the message next to the field."))
    turn = turn_current(campaign=viewer.campaign)
    forms = {**forms_of(viewer, turn), "invite_form": form}
    return dashboard_render(request, viewer, turn, forms, status=400)


@login_required
@require_POST
def invitation_revoke_post(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    viewer = gm_for(request, slug)
    invitation = invitations_of(campaign=viewer.campaign).filter(pk=invitation_id).first()
    if invitation is None:
        raise Http404("no such invitation")
    invitation.campaign = viewer.campaign
    try:
        invitation_revoke(by=request.user, invitation=invitation)
    except Refusal as refusal:
        messages.error(request, " ".join(said(f.message) for f in refusal.faults()))
    else:
        messages.success(
            request,
            _("Invitation link for %(nation)s revoked: it lets no one in.")
            % {"nation": invitation.nation.name},
        )
    return _back(slug)
