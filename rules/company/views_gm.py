"""The GM's edits on a company's Kasarmi page (COMPANY.md §7.6): parse the form, check it is the GM, call
the one service (rules.company.services.kasarmi_act), say what happened. Each edit is an entry of the
append-only audit trail shown on the same page. A refused form comes back as it was sent, its message
beside the field, and nothing is written; a player gets 403, anyone outside the campaign 404. The form
refuses only what no column holds (rules.company.gm_forms); the values are the engine's to judge."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign.messages import said
from frontend.views.common import gm_for
from rules.company.forms import GMFormChoice, errors_said
from rules.company.gm_forms import edit_seen, gm_form_posted, gm_forms
from rules.company.selectors import is_company, roster_nation, roster_view
from rules.company.services import company_current, kasarmi_act
from rules.company.views import kasarmi_render
from rules.engine.company_d20.problems import Problem


@login_required
@require_POST
def kasarmi_gm_post(request: HttpRequest, slug: str, nation: str) -> HttpResponse:
    viewer = gm_for(request, slug)
    target = roster_nation(viewer=viewer, code=nation) if is_company(viewer.campaign) else None
    if target is None:
        raise Http404("no such roster")
    campaign = viewer.campaign
    chosen = GMFormChoice(request.POST)
    which = chosen.cleaned_data["form"] if chosen.is_valid() else ""
    company, ruleset = company_current(campaign=campaign, nation=target)
    roster = roster_view(campaign=campaign, nation=target)
    form = gm_form_posted(gm_forms(company, ruleset, roster, data=request.POST, which=which), which)
    if form is None:
        raise Http404("no such form")
    if not form.is_valid():  # past a column or a limit: the engine judges only what could be stored
        messages.error(request, _("Nothing was changed: %(why)s") % {"why": " ".join(errors_said(form))})
        return kasarmi_render(request, viewer, target, data=request.POST, which=which, status=400)
    done = kasarmi_act(
        campaign=campaign,
        nation=target,
        action=form.action,
        params=form.params(),
        actor=request.user,
        by_gm=True,
    )
    if not isinstance(done, Problem):
        messages.success(request, _("Saved. The audit trail below shows the change and its reason."))
        active = len(done.company.active())
        if active > done.company.company_size:
            messages.warning(
                request,
                _("%(active)s units are active, more than %(size)s: buying is refused until fewer are.")
                % {"active": active, "size": done.company.company_size},
            )
        return redirect(reverse("frontend:company_kasarmi", args=[slug, target.code]) + "#audit")
    messages.error(request, _("Nothing was changed: %(why)s") % {"why": said(done.message)})
    data = form.data.copy()
    if done.code == "tp_stale":
        # The form now shows what is there and keeps what the GM typed: sending it again is deliberate.
        data[form.add_prefix("seen")] = str(roster["tp"])
    elif done.code == "edit_stale":
        card = next(c for c in roster["units"] if c["id"] == form.unit)
        data[form.add_prefix("seen")] = json.dumps(edit_seen(card))
    return kasarmi_render(request, viewer, target, data=data, which=which, status=400, problem=done)
