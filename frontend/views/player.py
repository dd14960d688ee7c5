"""The player's pages: the list of campaigns, the campaign page (map, orders, roster), order entry."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign.selectors import Viewer, campaigns_of, turn_current
from frontend.forms import OrderForm, order_initial
from frontend.map_svg import map_svg
from frontend.map_table import map_table_rows
from frontend.selectors import MapData, adjacency_of, map_load, own_stacks, reach_of
from frontend.terms import said, unit_dice, unit_heading
from frontend.views.common import topbar, viewer_for
from frontend.views.sodankaynti import player_panel
from orders.models import Order
from orders.selectors import orders_of
from orders.services import UNITLESS, OrderError, order_change, order_delete, order_describe, order_submit
from rules.engine.validation import units_left


@login_required
def campaign_list(request: HttpRequest) -> HttpResponse:
    campaigns = list(campaigns_of(user=request.user))
    return render(request, "frontend/campaign_list.html", {"campaigns": campaigns})


@login_required
def campaign_page(request: HttpRequest, slug: str) -> HttpResponse:
    viewer = viewer_for(request, slug)
    return _campaign_render(request, viewer, form=None, origin=request.GET.get("origin"))


@login_required
@require_POST
def order_create(request: HttpRequest, slug: str) -> HttpResponse:
    viewer = viewer_for(request, slug)
    turn = _open_turn(viewer)
    form = _order_entry(viewer, turn, data=request.POST)["form"]
    saved = _order_save(
        request,
        slug,
        form,
        lambda draft: order_submit(user=request.user, turn=turn, draft=draft),
        _("Order saved: {after}."),
    )
    if saved:
        return saved
    messages.error(request, _refusal(_("The order was not saved"), form))
    return _campaign_render(request, viewer, form=form, origin=request.POST.get("origin"), status=400)


@login_required
def order_edit(request: HttpRequest, slug: str, order_id: int) -> HttpResponse:
    viewer = viewer_for(request, slug)
    turn = _open_turn(viewer)
    order = _own_order(viewer, turn, order_id)
    status = 200
    if request.method == "POST":
        entry = _order_entry(viewer, turn, data=request.POST, editing=order)
        before = _describe(order)
        saved = _order_save(
            request,
            slug,
            entry["form"],
            lambda draft: order_change(user=request.user, order=order, draft=draft),
            _("Order changed: %(before)s → {after}.") % {"before": before},
        )
        if saved:
            return saved
        messages.error(request, _refusal(_("The order was not changed"), entry["form"]))
        status = 400
    else:
        entry = _order_entry(viewer, turn, initial=order_initial(order), editing=order)
    context = {
        "bar": topbar(viewer, turn),
        "order": order,
        "describe": _describe(order),
        **entry,
    }
    return render(request, "frontend/order_edit.html", context, status=status)


@login_required
@require_POST
def order_remove(request: HttpRequest, slug: str, order_id: int) -> HttpResponse:
    viewer = viewer_for(request, slug)
    turn = _open_turn(viewer)
    order = _own_order(viewer, turn, order_id)
    described = _describe(order)
    try:
        order_delete(user=request.user, order=order)
    except OrderError as error:
        messages.error(request, _("The order was not deleted: %(why)s.") % {"why": said(error.message)})
    else:
        messages.success(
            request,
            _("Order deleted: %(order)s. Those units hold unless you order them again.")
            % {"order": described},
        )
    return redirect(reverse("frontend:campaign", args=[slug]) + "#orders")


def _order_save(request: HttpRequest, slug: str, form: OrderForm, save, said: str) -> HttpResponse | None:
    """Save through the orders service; on success say what happened and go back to the orders.
    None when the form or the rules refused it: the form then carries the message next to the field."""
    if not form.is_valid():
        return None
    try:
        order = save(form.draft())
    except OrderError as error:
        form.service_error(error.field, error.message)
        return None
    messages.success(request, said.format(after=_describe(order)))
    return redirect(reverse("frontend:campaign", args=[slug]) + "#orders")


def _refusal(what: str, form: OrderForm) -> str:
    # A refusal of the whole order (the deadline has passed) is said in the message itself.
    whole = " ".join(form.non_field_errors())
    if whole:
        return _("%(what)s: %(why)s.") % {"what": what, "why": whole}
    return _("%(what)s: see the message next to the field.") % {"what": what}


def _describe(order: Order) -> str:
    """The order in the reader's language: "6 JV attack K7 from V3"."""
    return said(order_describe(order))


def _open_turn(viewer: Viewer):
    turn = turn_current(campaign=viewer.campaign)
    if turn is None or viewer.nation is None:
        raise Http404("no turn to give orders for")
    return turn


def _own_order(viewer: Viewer, turn, order_id: int) -> Order:
    # Through orders_of: another nation's order is not found, whatever its id (404, not 403).
    return get_object_or_404(orders_of(turn=turn, nation=viewer.nation), pk=order_id)


def _order_entry(
    viewer: Viewer,
    turn,
    *,
    data: Any = None,
    initial: dict[str, Any] | None = None,
    origin: str | None = None,
    editing: Order | None = None,
    regions: list[dict[str, Any]] | None = None,
    orders: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The order form with its choices: origins where the nation has units, targets within reach, and
    how many units of each type are left in each origin after the nation's other orders."""
    campaign = viewer.campaign
    ruleset = campaign.ruleset()
    unit_types = list(ruleset.unit_types)
    if regions is None:
        regions = list(campaign.regions.order_by("code").values("id", "code", "name"))
    if orders is None:
        from frontend.selectors import order_rows

        orders = order_rows(turn=turn, nation=viewer.nation)
    code_of = {r["id"]: r["code"] for r in regions}
    id_of = {r["code"]: r["id"] for r in regions}
    name_of = {r["code"]: r["name"] for r in regions}
    stacks = own_stacks(nation=viewer.nation)
    # What each origin has left after the nation's other orders (the one being edited left out), counted
    # as order entry counts it: holds and stand-downs take nothing.
    out_of: dict[str, list[tuple[str, dict[str, int]]]] = {}
    for o in orders:
        if editing is None or o["id"] != editing.pk:
            out_of.setdefault(o["origin"], []).append((o["kind"], o["units"]))
    here = {code_of[rid]: units for rid, units in stacks.items()}
    left = {
        code: units_left(here.get(code, {}), out_of.get(code, ())) for code in here.keys() | out_of.keys()
    }
    steps = max([1, *ruleset.ranges.values()])
    reach = reach_of(neighbours=adjacency_of(campaign_id=campaign.pk), origins=set(stacks), steps=steps)
    origin_codes = sorted(code_of[rid] for rid in stacks)
    if data is None and initial is None:
        initial = {"kind": "attack", **({"origin": origin} if origin in origin_codes else {})}
    chosen = (data or {}).get("origin") or (initial or {}).get("origin") or origin
    if chosen in id_of and id_of[chosen] in reach:
        target_ids = reach[id_of[chosen]]
    else:
        target_ids = set().union(*reach.values()) if reach else set()
    targets = sorted(code_of[r] for r in target_ids)
    form = OrderForm(
        data,
        initial=initial,
        origins=[(c, f"{c} {name_of[c]}") for c in origin_codes],
        targets=[(c, f"{c} {name_of[c]}") for c in targets],
        unit_types=unit_types,
        left=left.get(chosen) if chosen in left else None,
    )
    dice = unit_dice(ruleset)
    for unit_type in unit_types:  # each count says its units' die, where units are dice
        form.fields[f"units_{unit_type}"].label = unit_heading(unit_type, dice)
    # For the page's script: choosing an origin narrows the targets and sets the most units of each type.
    origin_options = [
        {
            "value": c,
            "label": f"{c} {name_of[c]}",
            "targets": " ".join(sorted(code_of[r] for r in reach.get(id_of[c], ()))),
            "left": " ".join(f"{t}:{n}" for t, n in left.get(c, {}).items()),
        }
        for c in origin_codes
    ]
    return {"form": form, "origin_options": origin_options, "left": left, "unit_types": unit_types}


def _campaign_render(
    request: HttpRequest, viewer: Viewer, *, form: OrderForm | None, origin: str | None, status: int = 200
) -> HttpResponse:
    turn = turn_current(campaign=viewer.campaign)
    ruleset = viewer.campaign.ruleset()
    unit_types = list(ruleset.unit_types)
    dice = unit_dice(ruleset)
    data = map_load(viewer=viewer, turn=turn, unit_order=unit_types, dice=dice)
    playing = viewer.nation is not None and turn is not None
    context: dict[str, Any] = {
        "bar": topbar(viewer, turn),
        "viewer": viewer,
        "map": map_svg(
            data=data,
            link=playing,
            title=_("Map of %(campaign)s, turn %(number)s")
            % {"campaign": viewer.campaign.name, "number": turn.number if turn else ""},
            focus=_first_own(data, viewer),
        ),
        "table": map_table_rows(data),
        "orders": _order_links(viewer.campaign.slug, data.orders),
        "playing": playing,
        # Edit and delete until the deadline; after it (or while the turn is processed) the list stays.
        "orders_open": playing and turn.status == "open" and turn.deadline > timezone.now(),
        "last_turn": viewer.campaign.turns.filter(status="resolved")
        .order_by("-number")
        .values("number")
        .first(),
    }
    if playing:
        entry = _order_entry(viewer, turn, origin=origin, regions=data.regions, orders=data.orders)
        if form is not None:
            entry["form"] = form
        context.update(entry)
        context["roster"] = _roster(data, viewer, unit_types, entry["left"])
        context["unit_heads"] = [unit_heading(t, dice) for t in unit_types]
        context["sodankaynti"] = player_panel(viewer)
    return render(request, "frontend/campaign.html", context, status=status)


def _order_links(slug: str, orders: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The orders with their edit and delete links and the delete button's label, made here: in the
    template a URL lookup and a translation for each order were a third of a busy nation's page."""
    # One lookup per page: the id is the only part of the path that changes (a slug has no slash).
    edit, delete = (
        reverse(name, args=[slug, 0]) for name in ("frontend:order_edit", "frontend:order_delete")
    )
    for order in orders:
        place = f"/orders/{order['id']}/"
        # A doctrine or an ambush is changed by deleting it and giving another (its own form).
        order["edit_url"] = "" if order["kind"] in UNITLESS else edit.replace("/orders/0/", place)
        order["delete_url"] = delete.replace("/orders/0/", place)
        order["delete_label"] = _("Delete order %(number)s: %(order)s") % {
            "number": order["sequence"],
            "order": order["describe"],
        }
    return orders


def _first_own(data: MapData, viewer: Viewer) -> str | None:
    own = viewer.nation.pk if viewer.nation else None
    return next((r["code"] for r in data.regions if own is not None and r["owner_id"] == own), None)


def _roster(data: MapData, viewer: Viewer, unit_types: list[str], left: dict[str, dict[str, int]]) -> dict:
    """The nation's stacks by region, what is left after its orders, and totals per type."""
    own = viewer.nation.code
    rows, totals = [], dict.fromkeys(unit_types, 0)
    for r in data.regions:
        for counter in data.stacks.get(r["id"], ()):
            if counter["nation"] != own:
                continue
            units = dict(counter["units"])
            for t, c in units.items():
                totals[t] = totals.get(t, 0) + c
            rows.append(
                {
                    "code": r["code"],
                    "name": r["name"],
                    "cells": [
                        {"count": units.get(t, 0), "free": left.get(r["code"], {}).get(t, units.get(t, 0))}
                        for t in unit_types
                    ],
                }
            )
    return {"rows": rows, "totals": [totals[t] for t in unit_types]}
