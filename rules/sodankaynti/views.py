"""A Sodankäynti campaign's own pages: the player's doctrine and ambush orders (SODANKAYNTI.md §4.1, §4.2)
and the GM's ratings and advantages (§5, §6.4, §7). Each POST parses a form, calls one service, says what
happened and goes back; the rules' refusal is said in the reader's language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign.models import Turn
from campaign.selectors import Viewer, turn_current
from frontend.gm_selectors import nations_list
from frontend.terms import said
from frontend.views.common import viewer_for
from frontend.views.gm.dashboard import gm_form_view, nation_of
from orders.services import OrderError, order_describe, order_submit
from rules.sodankaynti.forms import (
    AdvantagesForm,
    AmbushOrderForm,
    DoctrineOrderForm,
    RatingsForm,
    advantages_initial,
    doctrine_params,
    doctrines_offered,
)
from rules.sodankaynti.services import nation_attributes_set, turn_system_inputs_set


def player_panel(viewer: Viewer) -> dict[str, Any] | None:
    """The order panel's doctrine and ambush forms and the doctrines explained (its SystemPages' panel)."""
    ruleset = viewer.campaign.ruleset()
    return {
        "template": "sodankaynti/orders_panel.html",
        "doctrines": doctrines_offered(ruleset),
        "doctrine_form": DoctrineOrderForm(ruleset=ruleset, prefix="doctrine"),
        "ambush_form": AmbushOrderForm(prefix="ambush"),
        "ambush_dice": ruleset.ambush,  # §4.2: the campaign's advantages, not the defaults
        "surprise_dice": ruleset.surprise,
    }


def gm_forms(viewer: Viewer, turn: Turn | None, bound) -> dict[str, Any]:
    """The dashboard's Sodankäynti forms (forms_of adds them): ratings always, advantages for an open turn."""
    campaign = viewer.campaign
    nations = nations_list(campaign=campaign)
    forms: dict[str, Any] = {
        # §2: weather and Iron Fist's KTA modifiers have no effect here; the GM gives advantages instead,
        # so their forms are taken away (and a post to them finds no form).
        "weather_form": None,
        "modifier_form": None,
        "ratings_form": RatingsForm(
            bound("ratings"),
            nations=[(n.code, f"{n.code} {n.name}") for n in nations],
            ruleset=campaign.ruleset(),
            prefix="ratings",
        ),
        "ratings": [
            {"code": n.code, "name": n.name, **standing_of(n.attributes, campaign.ruleset())} for n in nations
        ],
    }
    if turn is not None:
        forms["advantages_form"] = AdvantagesForm(
            bound("advantages"), initial=advantages_initial(turn.system_inputs or {}), prefix="advantages"
        )
    return forms


def standing_of(attributes: Mapping[str, Any] | None, ruleset: Any) -> dict[str, Any]:
    """The ratings and doctrine a nation fights with (§5): what the GM set, else the ruleset's defaults
    (`default_rating`, `default_doctrine`); a doctrine with parameters as `name (param=value, ...)`."""
    given = attributes or {}
    doctrine = given.get("doctrine", ruleset.default_doctrine)
    if isinstance(doctrine, Mapping):
        params = ", ".join(f"{k}={v}" for k, v in doctrine.items() if k != "name")
        doctrine = f"{doctrine.get('name')} ({params})" if params else str(doctrine.get("name"))
    return {
        "politics": given.get("politics", ruleset.default_rating),
        "tactics": given.get("tactics", ruleset.default_rating),
        "doctrine": doctrine,
    }


def _own_order_post(request: HttpRequest, slug: str, form_class, prefix: str, **kwargs: Any) -> HttpResponse:
    viewer = viewer_for(request, slug)
    turn = turn_current(campaign=viewer.campaign)
    back = redirect(reverse("frontend:campaign", args=[slug]) + "#sodankaynti")
    form = form_class(request.POST, prefix=prefix, **kwargs)
    if turn is None or viewer.nation is None:
        messages.error(request, _("The order was not saved: you play no nation with an open turn."))
        return back
    if not form.is_valid():
        errors = "; ".join(
            f"{form[f].label}: {' '.join(e)}" for f, e in form.errors.items() if f in form.fields
        )
        messages.error(request, _("The order was not saved: %(why)s.") % {"why": errors})
        return back
    try:
        order = order_submit(user=request.user, turn=turn, draft=form.draft())
    except OrderError as error:
        messages.error(request, _("The order was not saved: %(why)s.") % {"why": said(error.message)})
        return back
    messages.success(request, _("Order saved: %(order)s.") % {"order": said(order_describe(order))})
    return back


@login_required
@require_POST
def doctrine_post(request: HttpRequest, slug: str) -> HttpResponse:
    ruleset = viewer_for(request, slug).campaign.ruleset()
    return _own_order_post(request, slug, DoctrineOrderForm, "doctrine", ruleset=ruleset)


@login_required
@require_POST
def ambush_post(request: HttpRequest, slug: str) -> HttpResponse:
    return _own_order_post(request, slug, AmbushOrderForm, "ambush")


@gm_form_view("ratings")
def ratings_post(request: HttpRequest, viewer: Viewer, turn: Turn | None, data: dict[str, Any]) -> str:
    nation = nation_of(viewer, data["nation"])
    nation_attributes_set(
        by=request.user,
        nation=nation,
        politics=data["politics"],
        tactics=data["tactics"],
        doctrine=data["doctrine"],
        params=doctrine_params(data),
        reason=data["reason"],
    )
    return _("%(nation)s: politics %(politics)s, tactics %(tactics)s, doctrine %(doctrine)s.") % {
        "nation": nation.name,
        **{k: data[k] for k in ("politics", "tactics", "doctrine")},
    }


@gm_form_view("advantages")
def advantages_post(request: HttpRequest, viewer: Viewer, turn: Turn | None, data: dict[str, Any]) -> str:
    turn_system_inputs_set(
        by=request.user,
        turn=turn,
        gm_advantages=data["advantages"],
        skip_politics=data["skip_politics"],
        reason=data["reason"],
    )
    return _("Turn %(number)s: %(count)s GM advantages, politics skipped in %(skipped)s.") % {
        "number": turn.number,
        "count": len(data["advantages"]),
        "skipped": ", ".join(data["skip_politics"]) or "—",
    }
