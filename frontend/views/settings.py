"""A user's own settings, for players and GMs alike: the time zone deadlines and reports are shown in."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from campaign.gm.access import GMInputError
from campaign.lifecycle import time_zone_of, time_zone_set
from campaign.middleware import time_zone_remember
from frontend.gm_forms import TimeZoneForm
from frontend.terms import said


@login_required
def settings_page(request: HttpRequest) -> HttpResponse:
    back = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = ""
    if request.method == "POST":
        form = TimeZoneForm(request.POST)
        if form.is_valid():
            try:
                time_zone_set(user=request.user, time_zone=form.cleaned_data["time_zone"])
            except GMInputError as error:
                form.add_error("time_zone", said(error.message))
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
    return render(request, "frontend/settings.html", {"form": form, "next": back}, status=status)
