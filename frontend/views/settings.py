"""A user's own settings, for players and GMs alike: the email address mail goes to, the password, the
time zone deadlines and reports are shown in, and the API token (revoked or renewed here; the API's
DELETE /api/auth/token/ revokes it too)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from campaign.gm.access import GMInputError
from campaign.lifecycle import time_zone_of, time_zone_set
from campaign.middleware import time_zone_remember
from campaign.services import account_email_set, token_renew, token_revoke
from frontend.forms import form_refuse
from frontend.gm_forms import EmailForm, TimeZoneForm
from frontend.mail.sender import order_mail_key_tag


@login_required
def settings_page(request: HttpRequest) -> HttpResponse:
    back = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = ""
    email_form = EmailForm(initial={"email": request.user.email})
    if request.method == "POST" and request.POST.get("which") == "email":
        email_form = EmailForm(request.POST)
        if email_form.is_valid():
            account_email_set(user=request.user, email=email_form.cleaned_data["email"])
            address = email_form.cleaned_data["email"]
            messages.success(
                request,
                _("Email address set to %(email)s.") % {"email": address}
                if address
                else _("Email address removed: no mail will be sent to you."),
            )
            return redirect(back or "frontend:settings")
        form = TimeZoneForm(initial={"time_zone": time_zone_of(user=request.user).key})
        status = 400
    elif request.method == "POST":
        form = TimeZoneForm(request.POST)
        if form.is_valid():
            try:
                time_zone_set(user=request.user, time_zone=form.cleaned_data["time_zone"])
            except GMInputError as error:
                form_refuse(form, error)
            else:
                # The session carries the zone to every page (campaign.middleware), so it changes there too.
                name = time_zone_remember(request=request, user=request.user)
                messages.success(
                    request, _("Time zone set to %(zone)s: times are shown in it.") % {"zone": name}
                )
                return redirect(back or "frontend:settings")
        status = 400
    else:
        form = TimeZoneForm(initial={"time_zone": time_zone_of(user=request.user).key})
        status = 200
    token = Token.objects.filter(user=request.user).first()
    context = {
        "form": form,
        "email_form": email_form,
        "zones": TimeZoneForm.zones(),
        "next": back,
        "token": token,
        "mail_key": order_mail_key_tag(user=request.user),
    }
    return render(request, "frontend/settings.html", context, status=status)


@login_required
@require_POST
def token_post(request: HttpRequest) -> HttpResponse:
    if request.POST.get("action") == "renew":
        key = token_renew(user=request.user)
        # Shown this once: the page never shows a token again, so a glance over a shoulder is not enough.
        messages.success(
            request,
            _("Your new API token (copy it now; the old one no longer works): %(key)s") % {"key": key},
        )
    elif token_revoke(user=request.user):
        messages.success(request, _("Your API token is revoked: scripts using it are refused from now on."))
    else:
        messages.info(request, _("You have no API token."))
    return redirect(reverse("frontend:settings") + "#api-token")
